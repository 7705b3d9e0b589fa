"""The Table and its journal: resume, undo, corrections, and surviving kill -9."""

import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules import GAME_MODULES
from companion.rules.core import IllegalInput, Setup, cards, dice, pick
from companion.table import JournalError, Table

HERE = Path(__file__).parent
WRITER = HERE / "journal_writer.py"


@pytest.fixture(autouse=True)
def race_registered(monkeypatch):
    monkeypatch.setitem(GAME_MODULES, "race", "race_game")


@pytest.fixture
def journal(tmp_path):
    return tmp_path / "state" / "journal.sqlite3"


def entry_count(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM entries").fetchone()[0]


def test_every_accepted_input_is_journalled_and_a_restart_resumes_exactly(journal):
    t = Table(journal)
    t.new_game("race", Setup(("Ann", "Bob")))
    t.submit(dice(3, 4), source="camera")
    t.submit(pick("keep"), source="buttons")
    t.submit(cards("A", "Q"), source="buttons")
    snap = t.game.snapshot()
    t.close()
    again = Table(journal)
    assert again.game.snapshot() == snap
    assert [i.kind for i in again.inputs] == ["dice", "choice", "cards"]
    assert again.status()["inputs"] == 3


def test_a_refused_input_changes_nothing_and_writes_nothing(journal):
    t = Table(journal)
    t.new_game("race", Setup(("Ann", "Bob")))
    t.submit(dice(1, 2))
    before, rows = t.game.snapshot(), entry_count(journal)
    for bad in (dice(6, 6), dice(1, 2), pick("maybe")):
        with pytest.raises(IllegalInput):
            t.submit(bad)
    assert t.game.snapshot() == before and entry_count(journal) == rows
    with pytest.raises(IllegalInput, match="No game in progress"):
        Table(journal.with_name("other.sqlite3")).submit(dice(1, 2))


def test_undo_takes_back_the_last_input_and_is_itself_journalled(journal):
    t = Table(journal)
    t.new_game("race", Setup(("Ann", "Bob")))
    with pytest.raises(IllegalInput, match="Nothing to undo"):
        t.undo()
    t.submit(dice(5, 5))
    t.submit(pick("pass"))
    assert t.undo() == pick("pass")  # handed back as it was entered
    t.submit(pick("keep"))
    assert t.game.s["totals"] == [10, 0]
    assert entry_count(journal) == 4  # append-only: input, input, undo, input
    t.close()
    assert Table(journal).game.s["totals"] == [10, 0]


def test_a_misread_roll_is_corrected_in_place(journal):
    t = Table(journal)
    t.new_game("race", Setup(("Ann", "Bob")))
    t.submit(dice(1, 1))          # the camera said 1 1; the dice show 4 1
    events = t.correct(dice(4, 1))
    assert events[0].text == "rolled 5" and t.game.s["pending"] == 5
    t.submit(pick("keep"))
    t.close()
    again = Table(journal)
    assert again.game.s["totals"] == [5, 0]
    assert [i.value for i in again.inputs] == [(4, 1), "keep"]


def test_a_correction_that_no_longer_fits_is_refused(journal):
    t = Table(journal)
    t.new_game("race", Setup(("Ann", "Bob")))
    with pytest.raises(IllegalInput, match="no dice, coin or shuffle reading"):
        t.correct(dice(1, 2))
    t.submit(dice(1, 1))
    t.submit(pick("keep"))
    rows, snap = entry_count(journal), t.game.snapshot()
    with pytest.raises(IllegalInput, match="Double six is void"):
        t.correct(dice(6, 6))
    with pytest.raises(IllegalInput, match="Only a reading"):
        t.correct(dice(2, 2), target=t.active[-1][0])
    assert entry_count(journal) == rows and t.game.snapshot() == snap


def test_a_new_game_with_a_bad_setup_writes_nothing(journal):
    t = Table(journal)
    from companion.rules.core import BadSetup
    with pytest.raises(BadSetup):
        t.new_game("race", Setup(("Ann",)))
    assert t.game is None and t.journal.latest_game() is None


def test_a_damaged_journal_is_reported_and_left_untouched(journal):
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"this is not a database" * 100)
    before = journal.read_bytes()
    with pytest.raises(JournalError, match="move it aside"):
        Table(journal)
    assert journal.read_bytes() == before


def run_writer(journal, *extra, env=None):
    return subprocess.Popen([sys.executable, str(WRITER), str(journal), "race", "11", *extra],
                            stdout=subprocess.PIPE, text=True, env=env)


def test_kill_9_never_loses_an_acknowledged_input(tmp_path):
    """Kill a real writer process at random moments; every ACKed input must survive,
    the journal must stay sound, and the finished game must equal an uninterrupted one."""
    options = '{"target": 1000}'
    reference = tmp_path / "reference.sqlite3"
    subprocess.run([sys.executable, str(WRITER), str(reference), "race", "11", options],
                   check=True, capture_output=True, timeout=120)
    ref = Table(reference)
    ref_inputs, ref_snap = ref.inputs, ref.game.snapshot()
    assert ref.game.is_over() and len(ref_inputs) > 60

    journal = tmp_path / "killed.sqlite3"
    rng = random.Random(5)
    kills = 0
    while True:
        proc = run_writer(journal, options)
        # Let it acknowledge a random number of inputs, then kill it while it writes on.
        wanted, seen, lines = rng.randint(0, 120), 0, []
        while seen < wanted and (line := proc.stdout.readline()):
            lines.append(line)
            seen += line.startswith("ACK")
        proc.send_signal(signal.SIGKILL)
        out = "".join(lines) + proc.communicate()[0]
        acked = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ACK")]
        if "OVER" in out:
            break
        kills += 1
        with sqlite3.connect(journal) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        t = Table(journal)
        if acked:
            assert len(t.inputs) >= acked[-1], "an acknowledged input was lost"
        assert t.inputs == ref_inputs[:len(t.inputs)], "the resumed game went another way"
        t.close()
    assert kills >= 5
    final = Table(journal)
    assert final.inputs == ref_inputs and final.game.snapshot() == ref_snap
