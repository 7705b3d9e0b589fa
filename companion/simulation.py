"""Play whole games with bots, checking the rules' invariants after every input.

In the spirit of OpenSpiel's random-simulation tests. Two levels of checking:

* ``"fast"`` (``companion simulate``'s default): after every input the game's own
  invariants; a rejected input is checked to have changed nothing (by replaying the inputs
  so far); at the end of each game the snapshot's JSON round trip, and for one game in
  ``REPLAY_EVERY`` (a full replay costs as much as playing) a replay of the whole game.
* ``"full"`` (tests, ``--check full``): also after every input the snapshot round trip and
  a replay of all inputs so far, and every input applied atomically.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable

from companion.bots import bot_input
from companion.rules import game_class
from companion.rules.core import Game, IllegalInput, Input, Setup, replay

MAX_REJECTIONS_PER_PROMPT = 50
REPLAY_EVERY = 10


class InvariantBroken(AssertionError):
    """A simulated game broke a rule that must always hold (a bug in the rules)."""


@dataclass
class GameRecord:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    rejected: int = 0
    game: Game | None = None


def random_setup(cls: type[Game], rng: random.Random, players: int | None = None,
                 options: dict | None = None) -> Setup:
    """A setup with a random player count and random optional rules (unless given)."""
    n = players if players is not None else rng.randint(cls.min_players, cls.max_players)
    chosen = {}
    for opt in cls.options:
        if options and opt.name in options:
            chosen[opt.name] = options[opt.name]
        elif opt.kind == "bool":
            chosen[opt.name] = rng.random() < 0.5
        elif opt.kind == "choice":
            chosen[opt.name] = rng.choice(opt.choices)
        elif opt.kind == "int":
            chosen[opt.name] = rng.randint(opt.low, opt.high)
    for k, v in (options or {}).items():
        chosen.setdefault(k, v)
    return cls.check_setup(Setup.numbered(n, **chosen))


def _same(a: Game, b: Game) -> bool:
    return a.snapshot() == b.snapshot()


def _input_logger(log: IO[str], index: int) -> Callable[[Game, Input, list], None]:
    """``play_game``'s ``on_input`` writing each input of game ``index`` to ``log``, with its
    public events and the public view after it (a ``--log`` line)."""
    def on_input(g: Game, inp: Input, events: list) -> None:
        log.write(json.dumps({"type": "input", "index": index, "input": inp.to_json(),
                              "events": [e.to_json() for e in events if not e.private],
                              "public": g.public_view()}) + "\n")
    return on_input


def play_game(cls: type[Game], setup: Setup, rng: random.Random, *, check: str = "fast",
              max_inputs: int = 50_000, replay_at_end: bool = True,
              on_input: Callable[[Game, Input, list], None] | None = None) -> GameRecord:
    """Play one game to its end with bots; raise InvariantBroken on any broken invariant."""
    full = check == "full"
    rec = GameRecord(setup)
    g = cls(setup)
    rec.game = g
    while (p := g.prompt()) is not None:
        if len(rec.inputs) >= max_inputs:
            raise InvariantBroken(f"{cls.game_id}: no end after {max_inputs} inputs")
        for _ in range(MAX_REJECTIONS_PER_PROMPT):
            inp = bot_input(g, p, rng)
            before = g.snapshot() if full else None
            try:
                events = g.apply(inp, atomic=full)
                break
            except IllegalInput:
                rec.rejected += 1
                # A rejected input must change nothing: compare with a rebuilt game.
                if full:
                    if g.snapshot() != before:
                        raise InvariantBroken(f"{cls.game_id}: rejected {inp} changed the state")
                else:
                    rebuilt = replay(cls, setup, rec.inputs)
                    if not _same(rebuilt, g):
                        raise InvariantBroken(f"{cls.game_id}: rejected {inp} changed the state")
                if g.prompt() != p:
                    raise InvariantBroken(f"{cls.game_id}: rejected {inp} changed the prompt")
        else:
            raise InvariantBroken(f"{cls.game_id}: bots found no legal answer to {p.text!r}")
        rec.inputs.append(inp)
        try:
            g.check_invariants()
        except AssertionError as e:
            raise InvariantBroken(f"{cls.game_id} after input {len(rec.inputs)} ({inp.describe()}): {e}") from e
        if full:
            check_round_trip(g)
            if not _same(replay(cls, setup, rec.inputs), g):
                raise InvariantBroken(f"{cls.game_id}: replay of {len(rec.inputs)} inputs differs")
        if on_input is not None:
            on_input(g, inp, events)
    check_round_trip(g)
    if not full and replay_at_end and not _same(replay(cls, setup, rec.inputs), g):
        raise InvariantBroken(f"{cls.game_id}: replay of the whole game differs")
    return rec


def check_round_trip(g: Game) -> None:
    """The snapshot survives JSON and rebuilds an identical game (same prompt, same views)."""
    snap = g.snapshot()
    again = type(g).from_snapshot(json.loads(json.dumps(snap)))
    if again.snapshot() != snap:
        raise InvariantBroken(f"{g.game_id}: snapshot does not round-trip through JSON")
    if again.prompt() != g.prompt():
        raise InvariantBroken(f"{g.game_id}: a rebuilt game asks for something else")
    json.dumps(g.public_view())


def simulate(game_id: str, games: int, seed: int, *, players: int | None = None,
             options: dict | None = None, check: str = "fast", log: IO[str] | None = None) -> dict:
    """Play ``games`` games and return a summary (the ``--json`` object)."""
    cls = game_class(game_id)
    started = time.perf_counter()
    figures: dict[str, list[float]] = {}
    total_inputs = rejected = 0
    winners: dict[str, int] = {}
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        setup = random_setup(cls, rng, players, options)
        if log is not None:
            log.write(json.dumps({"type": "setup", "index": i, "game": game_id, "seed": seed,
                                  "setup": setup.to_json()}) + "\n")
        rec = play_game(cls, setup, rng, check=check, replay_at_end=i % REPLAY_EVERY == 0,
                        on_input=None if log is None else _input_logger(log, i))
        g = rec.game
        assert g is not None
        score = g.score()
        if log is not None:
            log.write(json.dumps({"type": "end", "index": i, "score": score}) + "\n")
        total_inputs += len(rec.inputs)
        rejected += rec.rejected
        for w in score.get("winners", []):
            # Seats, not names, so that games of different sizes add up.
            seat = f"seat {g.players.index(w) + 1}" if w in g.players else str(w)
            winners[seat] = winners.get(seat, 0) + 1
        stats = {"inputs": float(len(rec.inputs)), "players": float(g.n), **g.stats()}
        for k, v in stats.items():
            figures.setdefault(k, []).append(float(v))
    seconds = time.perf_counter() - started
    summary: dict[str, Any] = {
        "game": game_id, "games": games, "seed": seed, "check": check,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "inputs": total_inputs, "rejected_inputs": rejected,
        "stats": {k: {"mean": round(statistics.fmean(v), 3), "min": min(v), "max": max(v)}
                  for k, v in figures.items()},
    }
    # The headline figure each game's stats() calls "score" (team points, winner's points).
    summary["score"] = summary["stats"].get("score")
    if winners:
        summary["wins"] = dict(sorted(winners.items()))
    return summary
