"""The Table: the one place that joins the rules to the outside world.

It holds the current game, journals every accepted input before acknowledging it,
rebuilds the game by replaying its journal on start, and offers two kinds of take-back,
both as appended journal entries:

* **undo** takes back the last input (a choice made by mistake, or a roll to be re-rolled);
* **correct** replaces a chance input (by default the latest) with what is really on the
  table: the camera said 1, the die shows 4, the dice are still lying there. The game is
  rebuilt by replaying with the replacement; if what followed no longer fits, the
  correction is refused and nothing changes.

An input is applied to the game first (atomically: a rejected input changes nothing and
writes nothing), then written to the journal; only when the journal write is on disk does
``submit`` return. If the write fails the game is rebuilt from the journal, so memory never
runs ahead of the disk.
"""

from __future__ import annotations

from pathlib import Path

from companion.journal import Entry, Journal, JournalError
from companion.rules import game_class
from companion.rules.core import CHANCE_KINDS, Event, Game, IllegalInput, Input, Setup, replay

__all__ = ["Table", "JournalError"]

_CHANCE_INPUTS = CHANCE_KINDS | {"cards"}


def effective_inputs(entries: list[Entry]) -> list[tuple[int, Input]]:
    """The inputs in force after undos and corrections, as (seq, input) in order."""
    active: list[tuple[int, Input]] = []
    for e in entries:
        if e.kind == "input":
            active.append((e.seq, Input.from_json(e.input or {})))
        elif e.kind == "undo":
            active = [(s, i) for s, i in active if s != e.target]
        elif e.kind == "correct":
            active = [(s, Input.from_json(e.input or {}) if s == e.target else i) for s, i in active]
    return active


class Table:
    """The current game and its journal. ``Table(path)`` resumes the latest game."""

    def __init__(self, journal_path: str | Path):
        self.journal = Journal(journal_path)
        self.game: Game | None = None
        self.game_row_id: int | None = None
        self.active: list[tuple[int, Input]] = []
        self._resume()

    def close(self) -> None:
        self.journal.close()

    # -- state --------------------------------------------------------------------

    def _resume(self) -> None:
        row = self.journal.latest_game()
        if row is None:
            return
        cls = game_class(row.game)
        setup = Setup.from_json(row.setup)
        active = effective_inputs(self.journal.entries(row.id))
        try:
            game = replay(cls, setup, [i for _, i in active])
        except IllegalInput as e:
            raise JournalError(f"the journal's game {row.id} ({row.game}) no longer replays: {e}") from e
        self.game, self.game_row_id, self.active = game, row.id, active

    @property
    def inputs(self) -> list[Input]:
        return [i for _, i in self.active]

    def _require_game(self) -> Game:
        if self.game is None:
            raise IllegalInput("No game in progress: choose a game first.")
        return self.game

    # -- changes ------------------------------------------------------------------

    def new_game(self, game_id: str, setup: Setup) -> Game:
        """Start a new game (the previous one stays in the journal, marked ended)."""
        game = game_class(game_id)(setup)  # BadSetup before anything is written
        self.game_row_id = self.journal.start_game(game_id, game.setup.to_json())
        self.game, self.active = game, []
        return game

    def submit(self, inp: Input, source: str = "") -> list[Event]:
        """Apply one input and journal it; raises IllegalInput (nothing changed) if refused."""
        game = self._require_game()
        events = game.apply(inp)
        try:
            seq = self.journal.append(self.game_row_id, "input", inp.to_json(), source=source)
        except JournalError:
            self._resume()  # the game in memory must not run ahead of the disk
            raise
        self.active.append((seq, inp))
        return events

    def undo(self, source: str = "") -> Input:
        """Take back the last input in force; returns it."""
        game = self._require_game()
        if not self.active:
            raise IllegalInput("Nothing to undo: no input has been made in this game yet.")
        seq, last = self.active[-1]
        rebuilt = replay(type(game), game.setup, self.inputs[:-1])
        self.journal.append(self.game_row_id, "undo", target=seq, source=source)
        self.active.pop()
        self.game = rebuilt
        return last

    def correct(self, inp: Input, target: int | None = None, source: str = "") -> list[Event]:
        """Replace a chance input (the latest one unless ``target`` names its seq)."""
        game = self._require_game()
        if target is None:
            chance = [s for s, i in self.active if i.kind in _CHANCE_INPUTS]
            if not chance:
                raise IllegalInput("There is no dice, coin or shuffle reading to correct.")
            target = chance[-1]
        index = next((k for k, (s, _) in enumerate(self.active) if s == target), None)
        if index is None:
            raise IllegalInput(f"Input {target} is not in force in this game.")
        if self.active[index][1].kind not in _CHANCE_INPUTS:
            raise IllegalInput("Only a reading (dice, coins, a shuffle) can be corrected; "
                               "use undo to take back a choice.")
        inputs = self.inputs
        inputs[index] = inp
        rebuilt = type(game)(game.setup)
        events: list[Event] = []
        try:
            for k, i in enumerate(inputs):
                ev = rebuilt.apply(i, atomic=False)
                if k == index:
                    events = ev
        except IllegalInput as e:
            if k == index:
                raise
            raise IllegalInput(f"That correction does not fit what was played after it ({e}); "
                               "undo back to the reading first.") from None
        self.journal.append(self.game_row_id, "correct", inp.to_json(), target=target, source=source)
        self.active[index] = (target, inp)
        self.game = rebuilt
        return events

    # -- views ----------------------------------------------------------------------

    def status(self) -> dict:
        """The public state of the game in progress (never a secret)."""
        if self.game is None:
            return {"game": None, "inputs": 0, "score": None}
        g = self.game
        p = g.prompt()
        return {
            "game": g.game_id,
            "players": list(g.players),
            "inputs": len(self.active),
            "over": p is None,
            "prompt": None if p is None else p.to_json(),
            "score": g.score(),
            "public": g.public_view(),
        }
