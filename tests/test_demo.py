"""Whole games through the real path (bots pressing buttons, dice rendered and read by the
real reader, the Table and its journal), and a demo killed with kill -9 many times."""

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.demo import run_demo
from companion.config import LED_ROLES
from companion.devices.display import MemoryDisplay
from companion.devices.leds import MemoryLeds
from companion.rules import game_class
from companion.rules.core import replay
from companion.table import Table


class RecordingDisplay(MemoryDisplay):
    """An in-memory display that also keeps every screen it was asked to show."""

    def __init__(self):
        super().__init__(20, 4)
        self.history: list[str] = []

    def show(self, lines):
        writes = super().show(lines)
        screen = "\n".join(self.lines)
        if not self.history or self.history[-1] != screen:
            self.history.append(screen)
        return writes


class RecordingLeds(MemoryLeds):
    """In-memory LEDs that remember every state each LED was ever put in."""

    def __init__(self):
        super().__init__(LED_ROLES)
        self.seen = {role: {"off"} for role in LED_ROLES}

    def _apply(self, role, state):
        self.seen[role].add(state)


# The game LED each game must light at least once: a restriction broken (Down-in-one Street
# ends only when a party with broken restrictions is rumbled), a child's death, a player out.
GAME_LEDS = {"down-in-one-street": "broken", "all-fall-down": "death", "lockdown": "death"}

# (game, players, seed): small tables so that each game stays short.
GAMES = [("down-in-one-street", 3, 2), ("all-fall-down", 3, 1), ("sneak", 4, 1),
         ("game-of-2020", 2, 1), ("lockdown", 3, 1)]


@pytest.mark.parametrize("game,players,seed", GAMES)
def test_a_whole_game_through_the_real_path(game, players, seed, tmp_path):
    display, leds = RecordingDisplay(), RecordingLeds()
    status = run_demo(game, players, seed, tmp_path, paced=False, display=display, leds=leds)
    assert status["over"] and status["game"] == game
    if game in GAME_LEDS:
        assert "blink" in leds.seen[GAME_LEDS[game]]
    if status["rolls"]:
        assert "on" in leds.seen["waiting"] and "on" in leds.seen["accepted"]
    screens = display.history
    assert any("Pick a game" in s for s in screens)            # started from the menu
    # The score line of the LCD is the game's own score text, to the end.
    assert screens[-1].splitlines()[-1].strip() == status["score"]["text"][:20].strip()
    if status["rolls"]:
        assert any("Read: " in s for s in screens)             # readings were shown
    if game == "down-in-one-street":                           # case-number coins are read
        assert any("Read: " in s and "H " in s and "T" in s for s in screens)
    if game == "game-of-2020":                                 # cards get a page of their own
        assert any(s.startswith(("Yay: ", "Nay: ", "Oy Vey: ")) for s in screens)
    # The journal alone rebuilds the same game and score.
    table = Table(tmp_path / "journal.sqlite3")
    rebuilt = replay(game_class(game), table.game.setup, table.inputs)
    assert rebuilt.score() == status["score"] and len(table.inputs) == status["inputs"]
    sources = {row[0] for row in table.journal.db.execute("SELECT source FROM entries")}
    if status["rolls"]:
        assert "camera" in sources                              # dice read by the reader
    coin_sources = {row[0] for row in table.journal.db.execute(
        "SELECT source FROM entries WHERE input LIKE '%\"coins\"%'")}
    if game == "down-in-one-street":
        assert coin_sources == {"camera"}                       # coins read by the reader too
    table.close()


def journal_rows(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT kind, input, target, source FROM entries ORDER BY seq").fetchall()


def demo(args, state):
    return subprocess.Popen([sys.executable, "-m", "companion", "demo", *args, "--state", str(state),
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def row_count(path):
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        try:
            return db.execute("SELECT count(*) FROM entries").fetchone()[0]
        except sqlite3.OperationalError:  # the tables are not created yet
            return 0


@pytest.mark.parametrize("game,players,seed,kills", [("sneak", 4, 5, 3), ("game-of-2020", 2, 2, 3)])
def test_a_demo_killed_at_random_moments_ends_exactly_as_one_never_interrupted(
        game, players, seed, kills, tmp_path):
    args = [game, "--players", str(players), "--seed", str(seed)]
    whole = tmp_path / "whole"
    out, err = demo(args, whole).communicate(timeout=600)
    reference = json.loads(out)
    expected = journal_rows(whole / "journal.sqlite3")

    journal = tmp_path / "killed" / "journal.sqlite3"
    rng = random.Random(seed)
    done, killed_times = None, 0
    for _ in range(100):
        proc = demo(args, journal.parent)
        # Let it journal a random number of new inputs, then kill it in the middle of work.
        # (Without a camera to wait for, the demo journals about an input a millisecond: a
        # longer wait here let it run to the game's end in two or three runs.)
        target = row_count(journal) + rng.randint(2, 12)
        while proc.poll() is None and row_count(journal) < target:
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.003))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            killed_times += 1
            rows = journal_rows(journal)
            # What was journalled so far is exactly the beginning of the uninterrupted game.
            assert rows == expected[:len(rows)]
            continue
        out, err = proc.communicate()
        assert proc.returncode == 0, err
        done = json.loads(out)
        break
    assert done is not None and killed_times >= kills
    assert journal_rows(journal) == expected
    assert done["score"] == reference["score"] and done["inputs"] == reference["inputs"]


def test_a_demo_over_a_journal_of_another_game_starts_its_own(tmp_path):
    first = run_demo("lockdown", 3, 1, tmp_path, paced=False)
    second = run_demo("sneak", 4, 1, tmp_path, paced=False)
    assert first["game"] == "lockdown" and second["game"] == "sneak" and second["over"]
    again = run_demo("sneak", 4, 1, tmp_path, paced=False)   # finished: just its score
    assert again["inputs"] == second["inputs"] and again["score"] == second["score"]
