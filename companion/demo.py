"""``companion demo``: a whole game played by bots through the real path.

The bots are players at a simulated table. They look at what the companion shows (the
controller's state) and act only as players can: pressing buttons (events into the same
queue the GPIO buttons feed) and rolling dice or flipping coins into the tray (the
synthetic camera renders the frames, the real settle detector and reader read them). The
daemon's own ``step`` does everything else, and every input reaches the journal exactly as
it would beside a real table.

Every bot decision is drawn from an RNG keyed by (seed, attempt, number of inputs so far),
and shuffles likewise, so a demo killed at any moment and started again with the same
arguments resumes from its journal and ends with exactly the same journal and score.
"""

from __future__ import annotations

import functools
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from companion.bots import bot_input, step_rng
from companion.controller import Settings
from companion.daemon import Daemon
from companion.rules import game_class
from companion.rules.core import CHOICE, COINS, DICE, HEADS, NUMBER, TIMER, Input
from companion.table import Table

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon",
         "Kim", "Leo", "Mia", "Ned", "Oli", "Pam", "Quy", "Rex", "Sam", "Tia")
FPS = 15.0


class VirtualClock:
    """Time that passes only when the demo says so: a fast demo never sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class StepShuffler:
    """Shuffles keyed by the journal's length, so a resumed demo shuffles the same way."""

    def __init__(self, table: Table, seed: int):
        self.table, self.seed = table, seed

    def shuffle(self, items: list) -> None:
        step_rng(self.seed, 7919, len(self.table.active)).shuffle(items)


@dataclass
class _Plan:
    step: int
    attempt: int
    input: Input
    rolled: bool = False
    submitted: bool = False


class TableBots:
    """All the players at once: one action per call, as the screen invites."""

    def __init__(self, daemon: Daemon, camera, seed: int, game_id: str, players: int, paced: bool):
        self.d = daemon
        self.c = daemon.controller
        self.camera = camera
        self.seed = seed
        self.game_id = game_id
        self.players = players
        self.paced = paced
        self.plan: _Plan | None = None
        self.attempts: dict[int, int] = {}
        self.rolls = 0

    def press(self, button: str, kind: str = "press") -> None:
        from companion.devices.events import ButtonEvent
        self.d.devices.events.put(ButtonEvent(button, kind, "bot", self.c.clock()))

    def act(self) -> None:
        c = self.c
        if c.reveals or c.revealing:
            self.press("ok")           # see it (the keyboard way), then hide it
            return
        if c.notices:
            if not self.paced:
                self.press("ok")       # read it, move on
            return
        if c.mode == "menu":
            self._menu()
            return
        if c.mode in ("paused", "confirm-undo"):
            self.press("back")
            return
        p = c.expected()
        if p is None or c.mode == "over":
            return
        self._play(p)

    # -- menus ---------------------------------------------------------------------

    def _menu(self) -> None:
        m = self.c.menu
        if m.step == "game":
            target = self.c.games.index(self.game_id)
        elif m.step == "players":
            target = self.players - game_class(self.game_id).min_players
        else:
            target = 0                 # default options; then "Start"
        self.press("down" if m.cursor != target else "ok")

    # -- playing -------------------------------------------------------------------

    def _current_plan(self, p) -> _Plan:
        step = len(self.d.table.active)
        plan = self.plan
        if plan is not None and plan.step == step and plan.submitted:
            # Still the same step after submitting: the companion refused it. Try another.
            self.attempts[step] = self.attempts.get(step, 0) + 1
            plan = None
        if plan is None or plan.step != step:
            attempt = self.attempts.get(step, 0)
            game = self.d.table.game
            plan = _Plan(step, attempt, bot_input(game, p, step_rng(self.seed, attempt, step)))
            self.plan = plan
        return plan

    def _play(self, p) -> None:
        c = self.c
        plan = self._current_plan(p)
        inp = plan.input
        if p.secret and not c.handed_over:
            self.press("ok")
            return
        if p.kind == CHOICE:
            target = p.option_keys().index(inp.value)
            if c.cursor != target:
                self.press("down")
            else:
                plan.submitted = True
                self.press("ok")
        elif p.kind == NUMBER:
            gap = inp.value - c.value
            if gap:
                self.press("up" if gap > 0 else "down", "hold" if abs(gap) >= 10 else "press")
            else:
                plan.submitted = True
                self.press("ok")
        elif p.kind == TIMER:
            if c.timer_started is None:
                self.press("ok")
            elif c.clock() - c.timer_started < inp.value:
                if not self.paced:
                    self.d.clock.advance(inp.value - (c.clock() - c.timer_started))
            else:
                plan.submitted = True
                self.press("ok")
        elif p.kind in (DICE, COINS):
            self._tray(p, plan)

    def _tray(self, p, plan: _Plan) -> None:
        c = self.c
        inp = plan.input
        want = list(inp.value)
        if c.mode == "manual":
            self._by_hand(p, plan)
            return
        if c.review is not None:
            # The tray reads left to right, not in the order the dice were thrown.
            if sorted(c.review["values"]) == sorted(want) and c.review["fits"]:
                if not self.paced or c.cfg.auto_accept_seconds <= 0 or not c.review["sure"]:
                    plan.submitted = True
                    self.press("ok")
            else:
                self.press("down")   # misread or unclear: the dice still lie there; fix by hand
            return
        if c.tray() is not None and not plan.rolled:
            self.rolls += 1
            # How the roll looks is keyed by the step, so a resumed demo sees the same frames.
            # (The renderer scales the seed into a C int: keep it small.)
            look = ((self.seed * 1_000_003 + plan.step) * 101 + plan.attempt) % 20_000
            if p.kind == DICE:
                self.camera.show(want, seed=look)
            else:
                self.camera.show([], want, seed=look)
            plan.rolled = True
        elif not c.camera_ok:
            pass  # the controller has switched to entering by hand

    def _by_hand(self, p, plan: _Plan) -> None:
        c = self.c
        want = list(plan.input.value)
        if p.kind == COINS:
            heads = sum(1 for f in want if f == HEADS)
            if c.value != heads:
                self.press("up" if c.value < heads else "down")
            else:
                plan.submitted = True
                self.press("ok")
            return
        target = want[c.cursor] if c.cursor < len(want) else 1
        if c.manual[c.cursor] != target:
            self.press("up")
        else:
            if c.cursor == len(c.manual) - 1:
                plan.submitted = True
            self.press("ok")


@functools.lru_cache(maxsize=1)
def synthetic_coin_calibration():
    """The rendered tray's coin, learnt as a user teaches the reader a real coin
    (``companion coins calibrate``): from a few pictures of each face."""
    from companion.vision.calibration import Calibration
    from companion.vision.coins import calibrate_coins
    from companion.vision.render import render_tray

    heads = [render_tray([], ["heads", "heads"], seed=s) for s in range(3)]
    tails = [render_tray([], ["tails", "tails"], seed=s + 10) for s in range(3)]
    return Calibration(coin=calibrate_coins(heads, tails))


def build_demo(game_id: str, players: int, seed: int, state_dir: Path, *, display=None,
               leds=None, paced: bool = False, clock=None, camera=None, reads=None):
    """A Daemon on memory devices and a synthetic tray, and the bots that play it. Paced
    (real time), it reads settled rolls on a thread of their own, as the service does;
    otherwise on ``reads`` if given, else within each step (a clock of its own)."""
    from companion.config import LED_ROLES
    from companion.devices.build import Devices
    from companion.devices.camera import SyntheticSource
    from companion.devices.display import MemoryDisplay
    from companion.devices.events import EventQueue
    from companion.devices.leds import MemoryLeds

    clock = clock or (time.monotonic if paced else VirtualClock())
    leds = leds or MemoryLeds(LED_ROLES)
    display = display or MemoryDisplay(20, 4, clock=clock)
    camera = camera or SyntheticSource(seed=seed)
    table = Table(state_dir / "journal.sqlite3")
    settings = Settings(names=NAMES[:players], auto_accept_seconds=2.0 if paced else 0.0,
                        event_seconds=2.5 if paced else 0.0,
                        important_event_seconds=4.0 if paced else 0.0)
    devices = Devices(EventQueue(), leds, display, camera)
    if paced and reads is None:
        from companion.vision.reading_thread import ReadingThread
        reads = ReadingThread()
    daemon = Daemon(table, devices, settings, clock=clock, shuffler=StepShuffler(table, seed),
                    coin_calibration=synthetic_coin_calibration(), reads=reads)
    bots = TableBots(daemon, camera, seed, game_id, players, paced)
    g = table.game
    if g is not None and (g.game_id != game_id or g.n != players):
        daemon.controller.open_menu()  # the journal's game is another one: start ours
    return daemon, bots


def run_demo(game_id: str, players: int | None = None, seed: int = 0, state: Path | None = None,
             *, out: TextIO | None = None, paced: bool | None = None, display=None, leds=None,
             max_steps: int = 2_000_000) -> dict:
    """Play one game to its end (or resume it); returns the final status."""
    out = out or sys.stdout
    paced = out.isatty() if paced is None else paced
    cls = game_class(game_id)
    players = players or min(max(cls.min_players, 4), cls.max_players)
    tmp = None
    if state is None:
        tmp = tempfile.TemporaryDirectory(prefix="companion-demo-")
        state = Path(tmp.name)
    if display is None and paced:
        from companion.config import LED_ROLES
        from companion.devices.display import TerminalDisplay
        from companion.devices.leds import MemoryLeds
        leds = leds or MemoryLeds(LED_ROLES)
        display = TerminalDisplay(20, 4, leds=leds)  # draws the LEDs under the LCD
    daemon, bots = build_demo(game_id, players, seed, Path(state), display=display, leds=leds,
                              paced=paced)
    table = daemon.table
    done = (table.game is not None and table.game.game_id == game_id and table.game.is_over())
    try:
        daemon.step(0)  # the first screen, before anyone presses anything
        for _ in range(max_steps):
            if done or (daemon.controller.mode == "over" and table.game is not None):
                break
            bots.act()
            daemon.step(0)
            if paced:
                time.sleep(1 / FPS)
            else:
                daemon.clock.advance(1 / FPS)
        else:
            raise RuntimeError(f"the demo did not finish within {max_steps} steps")
        status = table.status()
        status["rolls"] = bots.rolls
        status["lcd"] = list(daemon.devices.display.text)
        return status
    finally:
        if daemon.reads is not None:
            daemon.reads.close()
        daemon.devices.close()
        table.close()
        if tmp is not None:
            tmp.cleanup()


def describe_end(status: dict) -> str:
    score = status.get("score") or {}
    winners = score.get("winners") or []
    who = f"; winner: {', '.join(winners)}" if winners else ""
    return f"{status['game']}: game over after {status['inputs']} inputs. {score.get('text', '')}{who}"
