"""What the players see and press: the companion's user interface as a state machine.

The controller sits between the outside world and the :class:`~companion.table.Table`. It
takes three kinds of input, all through the same methods whatever their source (GPIO
buttons, the USB panel, the keyboard, the demo's bots, the tests):

* ``button(name, kind)``: ``ok``, ``back``, ``up``, ``down``, ``undo``; kind ``press``,
  ``hold`` or ``release``;
* ``reading(reading)``: a settled dice or coin reading from the tray
  (:mod:`companion.vision`), only while ``tray()`` says one is wanted;
* ``tick()``: time passing (auto-accept countdowns, a story's timer, how long events show);

and, for the display only, ``tray_state(state)``: what the tray reader sees while it waits
for a roll (dice moving, or still and being read). It gives three outputs: ``lines()``
for the display, ``leds()`` for the LEDs (role -> "on"/"off"/"blink"), and ``tray()``
(``("dice", n)`` / ``("coins", n)`` while the tray reader should be armed;
``tray_generation`` changes whenever a new roll is wanted, so the reader forgets the dice
it saw before).

It never touches a device and reads time only from the clock it is given, so the daemon,
the demo and the tests drive the very same code.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.rules import available_games, game_class
from companion.rules.core import (CHOICE, COINS, DICE, HEADS, NUMBER, SHUFFLE, TAILS, TIMER, BadSetup,
                                  Event, IllegalInput, Input, Prompt, Setup)
from companion.screens import clock_text, dice_text, frame, menu_window, page, wrap
from companion.table import JournalError, Table

# Event kinds (as the rulebooks name them) worth a longer look and the attention LED...
IMPORTANT_EVENTS = frozenset({
    "broken", "word-out", "rumbled", "covered-up", "case-numbers", "lockdown",   # Down-in-one Street
    "death", "funeral", "no-story",                                           # All Fall Down
    "camps-switched", "reveal", "match-scored",                                # Sneak
    "out", "triplet", "clear",                                                 # Lockdown
    "quarantine", "pit",                                                       # The Game of 2020
    "winner", "game-over",
})
# ...and those that light a game LED of their own.
BROKEN_LED_EVENTS = frozenset({"broken", "word-out", "rumbled"})
DEATH_LED_EVENTS = frozenset({"death", "out"})


@dataclass
class Settings:
    cols: int = 20
    rows: int = 4
    auto_accept_seconds: float = 3.0   # 0: a reading always waits for OK
    min_confidence: float = 0.8        # below this a reading is shown but not auto-accepted
    event_seconds: float = 2.5         # how long an event stays on screen (0: until a press)
    important_event_seconds: float = 5.0
    error_seconds: float = 4.0
    names: tuple[str, ...] = ()        # player names from the config (else Player 1..N)
    camera: bool = True                # False: dice and coins are entered with the buttons
    read_coins: bool = True            # False (no coin calibration): coins by the buttons too


@dataclass
class Notice:
    """Something on screen until its time is up (or a press): an event, an error, a card."""

    text: str
    seconds: float                     # 0: until a press
    important: bool = False
    kind: str = ""                     # the event's kind, for the game LEDs
    page: tuple[str, ...] = ()         # a ready-made screen (a card laid out for the LCD)


@dataclass
class _Menu:
    step: str = "game"                  # game -> players -> option:<name> -> start
    cursor: int = 0
    game: str = ""
    players: int = 0
    options: dict = field(default_factory=dict)


class Controller:
    def __init__(self, table: Table, settings: Settings | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 shuffler: random.Random | None = None):
        self.table = table
        self.cfg = settings or Settings()
        self.clock = clock
        # Shuffles are chance inputs the companion itself makes (it is the deck).
        self.shuffler = shuffler or random.SystemRandom()
        self.mode = "play" if table.game is not None else "menu"
        self.menu = _Menu()
        self.games = available_games()
        self.cursor = 0                  # choice cursor / number value / manual-entry index
        self.value = 0
        self.manual: list[int] = []      # dice being entered by hand
        self.review: dict | None = None  # a reading waiting to be accepted
        self.notices: list[Notice] = []
        self.notice_until = 0.0
        self.reveals: list[Event] = []   # private events waiting to be shown to one player
        self.revealing = False
        self.reveal_held = False
        self.handed_over = False         # a secret prompt: the device is with its player
        self.timer_started: float | None = None
        self.tray_generation = 0
        self.tray_seen = (0, "")         # (tray_generation, what the reader saw: tray_state)
        self.camera_ok = self.cfg.camera
        self.undo_pending: Input | None = None
        self.return_mode = "play"
        self.last_error = ""
        self.flash_until = 0.0
        if table.game is not None and table.active:
            self._notice(f"Resumed {table.game.title or table.game.game_id}: "
                         f"{len(table.active)} inputs", 2.0)
        self._enter_prompt()

    # ------------------------------------------------------------------ outside world

    @property
    def game(self):
        return self.table.game

    def set_camera(self, ok: bool) -> None:
        """The tray camera came or went; without it dice are entered with the buttons."""
        if ok == self.camera_ok:
            return
        self.camera_ok = ok
        if not ok:
            self._notice("Camera lost: enter dice with the buttons", self.cfg.error_seconds, True)
            if self.mode == "play" and self._prompt_kind() in (DICE, COINS):
                self._start_manual()
        else:
            # Whoever is entering dice by hand finishes (or presses Back for the tray);
            # the next roll is read by the camera.
            self._notice("Camera back", 1.5)

    def tray_state(self, state: str) -> None:
        """What the tray reader sees of the roll wanted now (the settle detector's state):
        ``"moving"`` (dice tumbling, a hand in the tray) and ``"settling"`` (all still, being
        read) are shown in place of "Waiting for dice...": the players see that their roll
        was seen and is being read. (A settled roll of real webcam frames took 180-190 ms
        median and up to 1.9 s on one core of a PC (``bench_vision.py``); a Pi's core is
        4-6 times slower.)"""
        self.tray_seen = (self.tray_generation, state)

    def camera_turned(self, degrees: float) -> None:
        """The rolls show the camera turned about its own axis by ``degrees`` (its picture
        anticlockwise): fewer dice are read right so, which a level camera mends. (Which
        way is left to the eye: the players see the camera, not its picture.)"""
        self._notice(f"Camera not level ({abs(degrees):.0f} deg): level it to read dice surely",
                     self.cfg.error_seconds)

    def dice_small(self, width: float) -> None:
        """The rolls show the dice only ``width`` px wide in the camera's picture: fewer are
        read right so, which a nearer camera (or a larger frame) mends."""
        self._notice(f"Dice small in picture ({width:.0f} px): move camera nearer", self.cfg.error_seconds)

    def camera_steep(self, degrees: float) -> None:
        """The rolls show the camera ``degrees`` from overhead, steeper than reads well."""
        self._notice(f"Camera steep ({degrees:.0f} deg): raise it to read dice surely", self.cfg.error_seconds)

    def tray(self) -> tuple[str, int] | None:
        """What the tray reader should look for now, or None."""
        p = self._prompt()
        if (self.mode == "play" and self.camera_ok and p is not None and self._readable(p)
                and self.review is None and not self._blocking()):
            return (p.kind, p.count)
        return None

    def expected(self) -> Prompt | None:
        """The game's prompt that input is awaited for (None in menus or at the end)."""
        return self._prompt() if self.mode in ("play", "manual") else None

    # ------------------------------------------------------------------ buttons

    def button(self, name: str, kind: str = "press") -> None:
        now = self.clock()
        if self.revealing or (self.reveals and not self._notice_showing(now)):
            self._reveal_button(name, kind)
            return
        if kind != "press" and not (kind == "hold" and name in ("up", "down")):
            return
        if self._notice_showing(now):
            # A press skips what is on screen (it is also in the log), then acts as usual
            # unless it was only meant to skip.
            self._drop_notice()
            if name == "ok":
                return
        step = 10 if kind == "hold" else 1
        if name == "undo":
            self._ask_undo()
        elif self.mode == "confirm-undo":
            self._confirm_undo(name)
        elif self.mode == "menu":
            self._menu_button(name)
        elif self.mode == "over":
            if name == "ok":
                self.open_menu()
        elif self.mode == "paused":
            self._paused_button(name)
        elif self.mode == "manual":
            self._manual_button(name, step)
        elif self.mode == "play":
            self._play_button(name, step)

    # ------------------------------------------------------------------ readings

    def reading(self, reading: Any, *, seen: bool = True) -> None:
        """A settled reading of the tray: shown for accepting, or for a re-roll. ``seen``:
        the dice were seen moving (False: thrown while no frame was read, or slid there by
        hand; never taken unasked)."""
        want = self.tray()
        if want is None:
            return
        p = self._prompt()
        assert p is not None
        if want[0] == DICE:
            # Left to right across the tray: where the order matters (whose die is whose),
            # the prompt says so and the players lay the dice out that way.
            values = list(reading.values)
            confidence = min((d.confidence for d in reading.dice), default=0.0)
        else:
            values = [c.face for c in reading.coins]
            confidence = min((c.confidence for c in reading.coins), default=0.0)
        unclear = len(reading.uncertain)
        fits = p.fewest <= len(values) <= p.count and unclear == 0
        # Fewer than asked for (a prompt that lets the players roll a few at a time) is
        # never taken unasked: the reader misses a die now and then without a word (a dark
        # die on a dark tray), and then the dice beyond the gap would go to the wrong
        # players. The players say "that is all we rolled" with OK.
        whole = len(values) == p.count
        self.review = {"kind": want[0], "values": values, "fits": fits, "whole": whole,
                       "unclear": unclear, "since": self.clock(),
                       "sure": seen and fits and whole and confidence >= self.cfg.min_confidence}

    # ------------------------------------------------------------------ time

    def tick(self) -> None:
        now = self.clock()
        while self.notices and self.notice_until and now >= self.notice_until:
            self._drop_notice()
        if self._blocking():
            return
        p = self._prompt()
        if self.mode != "play" or p is None:
            return
        if p.kind == SHUFFLE:
            order = list(range(p.count))
            self.shuffler.shuffle(order)
            self._submit(Input(SHUFFLE, tuple(order)), source="companion")
        elif p.kind == TIMER and self.timer_started is not None:
            if now - self.timer_started >= p.high:
                self._stop_timer()
        elif self.review is not None and self.review["sure"] and self.cfg.auto_accept_seconds > 0:
            if now - self.review["since"] >= self.cfg.auto_accept_seconds:
                self._accept_review()

    # ------------------------------------------------------------------ outputs

    def lines(self) -> list[str]:
        c, r = self.cfg.cols, self.cfg.rows
        now = self.clock()
        if self.revealing or (self.reveals and not self._notice_showing(now)):
            return self._reveal_lines()
        if self._notice_showing(now):
            n = self.notices[0]
            if n.page and len(n.page) <= r:
                return frame(n.page, c, r)
            return page(wrap(("! " if n.important else "") + n.text, c, r - 1), self._score_line(), c, r)
        if self.mode == "menu":
            return self._menu_lines()
        if self.mode == "confirm-undo":
            what = self.undo_pending.describe() if self.undo_pending else ""
            return page(wrap(f"Undo {what}?", c, 2) + ["OK:yes  Back:no"], self._score_line(), c, r)
        if self.mode == "paused":
            return page(["Paused", *menu_window(["Continue", "New game"], self.cursor, c, r - 2)],
                        self._score_line(), c, r)
        if self.mode == "over":
            score = self.game.score() if self.game else {}
            winners = score.get("winners") or []
            head = "Game over" + (f": {' & '.join(winners)} won" if winners else "")
            return page(wrap(head, c, 2) + ["OK: new game"], score.get("text", ""), c, r)
        p = self._prompt()
        if p is None:
            return page(["No game"], "", c, r)
        if self.mode == "manual":
            return self._manual_lines(p)
        return self._prompt_lines(p, now)

    def leds(self) -> dict[str, str]:
        now = self.clock()
        p = self._prompt()
        important = bool(self.notices and self.notices[0].important and self._notice_showing(now))
        out = {"waiting": "off", "accepted": "off", "attention": "off", "broken": "off", "death": "off"}
        if self.tray() is not None:
            out["waiting"] = "on"
        if self.review is not None:
            out["waiting"] = "blink" if not self.review["sure"] else "on"
        if now < self.flash_until:
            out["accepted"] = "on"
        if important or self.last_error or (self.review and not self.review["fits"]) or not self.camera_ok:
            out["attention"] = "blink" if important or self.last_error else "on"
        if p is not None and p.kind == TIMER and self.timer_started is not None:
            elapsed = now - self.timer_started
            if p.low <= elapsed < p.low + 3 or elapsed >= p.high - 3:
                out["attention"] = "blink"  # signal one minute and the time limit
        kind = self.notices[0].kind if self.notices and self._notice_showing(now) else ""
        if kind in BROKEN_LED_EVENTS:
            out["broken"] = "blink"
        if kind in DEATH_LED_EVENTS:
            out["death"] = "blink"
        return out

    # ================================================================== internals

    def _prompt(self) -> Prompt | None:
        return self.game.prompt() if self.game is not None else None

    def _readable(self, p: Prompt) -> bool:
        """Can the tray reader answer this prompt (else the buttons do)?"""
        return p.kind == DICE or (p.kind == COINS and self.cfg.read_coins)

    def _prompt_kind(self) -> str | None:
        p = self._prompt()
        return p.kind if p else None

    def _notice(self, text: str, seconds: float, important: bool = False, kind: str = "",
                page: tuple[str, ...] = ()) -> None:
        self.notices.append(Notice(text, seconds, important, kind, page))
        if len(self.notices) == 1:
            self._head_notice_started()

    def _head_notice_started(self) -> None:
        """The first notice has just gone up: its time on screen starts now (0: until a press)."""
        seconds = self.notices[0].seconds if self.notices else 0
        self.notice_until = self.clock() + seconds if seconds > 0 else 0.0

    def _drop_notice(self) -> None:
        self.notices.pop(0)
        self._head_notice_started()

    def _notice_showing(self, now: float) -> bool:
        if not self.notices:
            return False
        return not self.notice_until or now < self.notice_until

    def _blocking(self) -> bool:
        """Something is on screen that must be seen before play goes on."""
        return bool(self.notices) or bool(self.reveals) or self.revealing or self.mode != "play"

    def _score_line(self) -> str:
        if self.game is None:
            return "Table Companion"
        return str(self.game.score().get("text", ""))

    def _enter_prompt(self) -> None:
        """Reset the per-prompt state for whatever the game now expects."""
        self.review = None
        self.manual = []
        self.handed_over = False
        self.timer_started = None
        self.last_error = ""
        p = self._prompt()
        if self.game is not None and p is None:
            self.mode = "over"
            return
        if p is None:
            return
        self.tray_generation += 1
        self.cursor = 0
        self.value = p.low if p.kind == NUMBER else 0
        if p.kind in (DICE, COINS) and not (self.camera_ok and self._readable(p)):
            self._start_manual()

    def _submit(self, inp: Input, source: str = "buttons") -> bool:
        try:
            events = self.table.submit(inp, source=source)
        except IllegalInput as e:
            self.last_error = str(e)
            self._notice(str(e), self.cfg.error_seconds, True)
            if self.review is not None:  # a refused roll: wait for the dice to be rolled again
                self.review = None
                self.tray_generation += 1
            return False
        except JournalError as e:
            self.last_error = str(e)
            self._notice("Cannot save! " + str(e), self.cfg.error_seconds, True)
            return False
        self.flash_until = self.clock() + 1.0
        self._show_events(events)
        self.mode = "play"
        self._enter_prompt()
        return True

    def _show_events(self, events: list[Event]) -> None:
        for e in events:
            if e.private:
                self.reveals.append(e)
                continue
            important = e.kind in IMPORTANT_EVENTS
            seconds = self.cfg.important_event_seconds if important else self.cfg.event_seconds
            page = tuple(e.data.get("lcd") or ())
            if page:  # a card to read aloud: its own screen, as long as an important event
                seconds = self.cfg.important_event_seconds
            self._notice(e.text, seconds, important, e.kind, page)

    # ------------------------------------------------------------------ play screens

    def _prompt_lines(self, p: Prompt, now: float) -> list[str]:
        c, r = self.cfg.cols, self.cfg.rows
        score = self._score_line()
        if p.secret and not self.handed_over:
            who = self.game.name(p.player)
            return page([f"Pass to {who}", "Others look away", f"{who}: press OK"], score, c, r)
        head = wrap(p.text, c, 2 if r >= 4 else 1)
        room = r - 1 - len(head)
        if p.kind == CHOICE:
            labels = [o.label for o in p.options]
            return page(head + menu_window(labels, self.cursor, c, max(1, room)), score, c, r)
        if p.kind == NUMBER:
            return page(head + [f"< {self.value} >  OK to enter"], score, c, r)
        if p.kind == TIMER:
            if self.timer_started is None:
                return page(head + ["OK: start the clock"], score, c, r)
            elapsed = now - self.timer_started
            mark = " 1 min!" if elapsed >= p.low else ""
            return page(head[:1] + [f"Time {clock_text(elapsed)}{mark}", "OK: story over"], score, c, r)
        if p.kind == SHUFFLE:
            return page(head + ["Shuffling..."], score, c, r)
        # dice or coins
        things = "dice" if p.kind == DICE else "coins"
        if self.review is not None:
            rv = self.review
            if rv["kind"] == DICE:
                seen = "Read: " + (dice_text(rv["values"]) if rv["values"] else "nothing")
            else:
                heads = sum(1 for v in rv["values"] if v == HEADS)
                seen = f"Read: {heads}H {len(rv['values']) - heads}T"
            if not rv["fits"]:
                why = f"{rv['unclear']} unclear" if rv["unclear"] else f"need {p.count}"
                return page([seen, f"({why}) Re-roll", "or Down: by hand"], score, c, r)
            if not rv["whole"]:
                n = len(rv["values"])
                return page([seen, f"{n} of {p.count} {things}? OK:yes", "Back:roll Down:hand"],
                            score, c, r)
            if rv["sure"] and self.cfg.auto_accept_seconds > 0:
                left = max(0, self.cfg.auto_accept_seconds - (now - rv["since"]))
                return page([seen, f"OK/wait {left:.0f}s Back:no", "Down: fix by hand"], score, c, r)
            return page([seen, "OK:accept Back:roll", "Down: fix by hand"], score, c, r)
        # (what the reader saw of an earlier roll says nothing of this one)
        state = self.tray_seen[1] if self.tray_seen[0] == self.tray_generation else ""
        what = {"moving": f"{things.capitalize()} moving...",
                "settling": f"Reading {things}..."}.get(state, f"Waiting for {things}...")
        return page(head + [what], score, c, r)

    def _play_button(self, name: str, step: int) -> None:
        p = self._prompt()
        if p is None:
            return
        if name == "back" and self.review is None and not (p.kind == TIMER and self.timer_started):
            self.mode, self.cursor = "paused", 0
            return
        if p.secret and not self.handed_over:
            if name == "ok":
                self.handed_over = True
            return
        if p.kind == CHOICE:
            n = len(p.options)
            if name == "up":
                self.cursor = (self.cursor - 1) % n
            elif name == "down":
                self.cursor = (self.cursor + 1) % n
            elif name == "ok":
                self._submit(Input(CHOICE, p.options[self.cursor].key, p.player))
        elif p.kind == NUMBER:
            if name == "up":
                self.value = min(p.high, self.value + step)
            elif name == "down":
                self.value = max(p.low, self.value - step)
            elif name == "ok":
                self._submit(Input(NUMBER, self.value))
        elif p.kind == TIMER:
            if name == "ok":
                if self.timer_started is None:
                    self.timer_started = self.clock()
                else:
                    self._stop_timer()
        elif p.kind in (DICE, COINS):
            if self.review is not None:
                if name == "ok" and self.review["fits"]:
                    self._accept_review()
                elif name == "back" or (name == "ok" and not self.review["fits"]):
                    self.review = None
                    self.tray_generation += 1  # wait for a new roll
                elif name == "down":
                    self._start_manual(self.review["values"])
            elif name in ("down", "up"):
                self._start_manual()

    def _stop_timer(self) -> None:
        p = self._prompt()
        assert p is not None and self.timer_started is not None
        # The clock's seconds, within what the rules accept (a story cut short of the
        # minimum counts as the minimum; the rules' own prompt says what that means).
        seconds = int(self.clock() - self.timer_started)
        self._submit(Input(TIMER, min(p.high, max(p.low, seconds))))

    def _accept_review(self) -> None:
        rv = self.review
        assert rv is not None
        kind = rv["kind"]
        self._submit(Input(kind, tuple(rv["values"])), source="camera")

    # ------------------------------------------------------------------ entering by hand

    def _start_manual(self, values: list | None = None) -> None:
        p = self._prompt()
        assert p is not None
        self.mode = "manual"
        self.review = None
        if p.kind == DICE:
            # By hand, a prompt that allows a few dice at a time takes its fewest; fixing a
            # reading by hand keeps every die it read (up to the prompt's count), so the
            # players mend a wrong value without entering the other dice again.
            vals = [v for v in (values or []) if isinstance(v, int)][:p.count]
            n = max(p.fewest, len(vals))
            self.manual = vals + [1] * (n - len(vals))
            self.cursor = 0
        else:  # coins: how many came up heads
            self.manual = []
            self.value = sum(1 for v in (values or []) if v == HEADS)

    def _manual_lines(self, p: Prompt) -> list[str]:
        c, r = self.cfg.cols, self.cfg.rows
        head = wrap(p.text, c, 1)
        if p.kind == DICE:
            cells = " ".join(f"[{v}]" if i == self.cursor else f" {v} " for i, v in enumerate(self.manual))
            return page(head + [cells, "Up/Dn:value OK:next"], self._score_line(), c, r)
        return page(head + [f"Heads: < {self.value} > of {p.count}", "OK to enter"], self._score_line(), c, r)

    def _manual_button(self, name: str, step: int) -> None:
        p = self._prompt()
        assert p is not None
        if p.kind == COINS:
            if name == "up":
                self.value = min(p.count, self.value + 1)
            elif name == "down":
                self.value = max(0, self.value - 1)
            elif name == "back":
                self._leave_manual()
            elif name == "ok":
                faces = (HEADS,) * self.value + (TAILS,) * (p.count - self.value)
                self._submit_manual(Input(COINS, faces))
            return
        if name == "up":
            self.manual[self.cursor] = self.manual[self.cursor] % 6 + 1
        elif name == "down":
            self.manual[self.cursor] = (self.manual[self.cursor] - 2) % 6 + 1
        elif name == "back":
            if self.cursor > 0:
                self.cursor -= 1
            else:
                self._leave_manual()
        elif name == "ok":
            if self.cursor < len(self.manual) - 1:
                self.cursor += 1
            else:
                self._submit_manual(Input(DICE, tuple(self.manual)))

    def _leave_manual(self) -> None:
        p = self._prompt()
        if self.camera_ok and p is not None and self._readable(p):
            self.mode = "play"
            self.manual = []
            self.tray_generation += 1

    def _submit_manual(self, inp: Input) -> None:
        if not self._submit(inp):
            self.mode = "manual"

    # ------------------------------------------------------------------ private reveals

    def _reveal_lines(self) -> list[str]:
        c, r = self.cfg.cols, self.cfg.rows
        e = self.reveals[0]
        who = self.game.name(e.player) if self.game else ""
        if self.revealing:
            return page(wrap(e.text, c, r - 1), "Release/OK to hide", c, r)
        return page([f"Pass to {who}", "Others look away", "Hold OK to see"], "", c, r)

    def _reveal_button(self, name: str, kind: str) -> None:
        if name != "ok":
            return
        if not self.revealing:
            if kind == "press":
                self.revealing, self.reveal_held = True, False
            return
        if kind == "hold":
            self.reveal_held = True
        elif (kind == "release" and self.reveal_held) or kind == "press":
            # Hidden again on release after a hold, or on the next press (sources that
            # cannot hold, like a keyboard).
            self.revealing = False
            self.reveals.pop(0)

    # ------------------------------------------------------------------ undo

    def _ask_undo(self) -> None:
        if self.game is None or not self.table.active:
            self._notice("Nothing to undo", 1.5)
            return
        self.undo_pending = self.table.active[-1][1]
        self.return_mode = self.mode if self.mode != "confirm-undo" else "play"
        self.mode = "confirm-undo"

    def _confirm_undo(self, name: str) -> None:
        if name == "ok":
            undone = self.table.undo(source="buttons")
            self.undo_pending = None
            self.mode = "play"
            self._enter_prompt()
            self._notice(f"Undone: {undone.describe()}", 1.5)
        elif name == "back":
            self.undo_pending = None
            self.mode = self.return_mode

    # ------------------------------------------------------------------ menus

    def _paused_button(self, name: str) -> None:
        if name in ("up", "down"):
            self.cursor = 1 - self.cursor
        elif name == "back" or (name == "ok" and self.cursor == 0):
            self.mode = "play"
            self.cursor = 0
        elif name == "ok":
            self.open_menu()

    def open_menu(self) -> None:
        """Show the game menu (the game in progress, if any, stays in the journal)."""
        self.mode = "menu"
        self.menu = _Menu()

    def _menu_items(self) -> tuple[str, list[str]]:
        m = self.menu
        if m.step == "game":
            return "Pick a game", [game_class(g).title or g for g in self.games]
        cls = game_class(m.game)
        if m.step == "players":
            return "How many players?", [str(n) for n in range(cls.min_players, cls.max_players + 1)]
        if m.step.startswith("option:"):
            opt = next(o for o in cls.options if o.name == m.step[7:])
            return opt.help or opt.name, [str(v) for v in self._option_values(opt)]
        return "Start the game?", ["Start", "Back"]

    @staticmethod
    def _option_values(opt) -> list:
        if opt.kind == "bool":
            return [False, True] if not opt.default else [True, False]
        if opt.kind == "choice":
            return [opt.default] + [c for c in opt.choices if c != opt.default]
        return list(range(opt.low, opt.high + 1))

    def _menu_lines(self) -> list[str]:
        c, r = self.cfg.cols, self.cfg.rows
        title, items = self._menu_items()
        labels = [{"False": "no", "True": "yes"}.get(i, i) for i in items]
        return page([title, *menu_window(labels, self.menu.cursor, c, r - 2)],
                    "OK:pick  Back:return", c, r)

    def _menu_button(self, name: str) -> None:
        m = self.menu
        _, items = self._menu_items()
        if name == "up":
            m.cursor = (m.cursor - 1) % len(items)
        elif name == "down":
            m.cursor = (m.cursor + 1) % len(items)
        elif name == "back":
            if m.step == "game":
                if self.game is not None and self.game.prompt() is not None:
                    self.mode = "play"  # back to the game in progress
            elif m.step == "players":
                self.menu = _Menu()
            else:
                self.menu = _Menu(step="players", game=m.game)
        elif name == "ok":
            self._menu_pick(m.cursor)

    def _menu_pick(self, index: int) -> None:
        m = self.menu
        if m.step == "game":
            m.game = self.games[index]
            m.step, m.cursor = "players", 0
            return
        cls = game_class(m.game)
        if m.step == "players":
            m.players = cls.min_players + index
        elif m.step.startswith("option:"):
            opt = next(o for o in cls.options if o.name == m.step[7:])
            m.options[opt.name] = self._option_values(opt)[index]
        elif m.step == "start":
            if index == 1:
                self.menu = _Menu()
                return
            self._start_game()
            return
        todo = [o for o in cls.options if o.name not in m.options]
        m.step = f"option:{todo[0].name}" if todo else "start"
        m.cursor = 0

    def _start_game(self) -> None:
        m = self.menu
        names = list(self.cfg.names[: m.players])
        names += [f"Player {i + 1}" for i in range(len(names), m.players)]
        try:
            self.table.new_game(m.game, Setup(tuple(names), dict(m.options)))
        except (BadSetup, JournalError) as e:
            self._notice(str(e), self.cfg.error_seconds, True)
            self.menu = _Menu()
            return
        self.mode = "play"
        self._enter_prompt()
