"""The SQLite journal: every accepted input, in order, durable before it is acknowledged.

Append-only and auditable (as in the 18xx engines): an undo or a correction is a new row
that names the row it takes back or replaces; nothing is ever updated or deleted except
the ``ended`` mark of a game. WAL mode with ``synchronous=FULL`` makes each commit reach
the disk (fsync) before ``append`` returns, so a power cut or a kill -9 loses at most the
row being written, never an acknowledged one, and never leaves a half-written row.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    game    TEXT NOT NULL,
    setup   TEXT NOT NULL,
    started REAL NOT NULL,
    ended   REAL
);
CREATE TABLE IF NOT EXISTS entries (
    seq     INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind    TEXT NOT NULL CHECK (kind IN ('input', 'undo', 'correct')),
    input   TEXT,
    target  INTEGER,
    source  TEXT NOT NULL DEFAULT '',
    at      REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_game ON entries (game_id, seq);
"""


class JournalError(RuntimeError):
    """The journal cannot be opened or written; the message says what to do."""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    setup: dict
    started: float
    ended: float | None


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str          # 'input' | 'undo' | 'correct'
    input: dict | None  # the input as entered (JSON), for 'input' and 'correct'
    target: int | None  # the seq an 'undo' or 'correct' refers to
    source: str
    at: float


class Journal:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            ok = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise sqlite3.DatabaseError(ok)
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise JournalError(f"the journal {self.path} was written by a newer companion "
                                   f"(schema {row[0]}); update the companion")
        except (sqlite3.DatabaseError, OSError) as e:
            raise JournalError(f"cannot use the journal {self.path}: {e}. It has been left as it "
                               "is; move it aside to start afresh (no game is lost by moving it).") from e

    def close(self) -> None:
        self.db.close()

    # -- writing: one transaction each, durable when the call returns ----------------

    def _transaction(self, *statements: tuple[str, tuple]) -> int:
        """Run ``statements`` as one transaction (all or nothing); the last row id."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            for sql, args in statements:
                cur = self.db.execute(sql, args)
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise JournalError(f"could not write to the journal {self.path}: {e}") from e
        return int(cur.lastrowid or 0)

    def start_game(self, game: str, setup: dict) -> int:
        """End the game in progress (if any) and start a new one; returns its id."""
        now = time.time()
        return self._transaction(
            ("UPDATE games SET ended=? WHERE ended IS NULL", (now,)),
            ("INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
             (game, json.dumps(setup, sort_keys=True), now)))

    def append(self, game_id: int, kind: str, input: dict | None = None, target: int | None = None,
               source: str = "") -> int:
        """Append one entry; when this returns, the entry is on disk. Returns its seq."""
        text = None if input is None else json.dumps(input, sort_keys=True)
        return self._transaction(("INSERT INTO entries (game_id, kind, input, target, source, at) "
                           "VALUES (?, ?, ?, ?, ?, ?)", (game_id, kind, text, target, source, time.time())))

    # -- reading -----------------------------------------------------------------------

    def latest_game(self) -> GameRow | None:
        """The most recently started game (finished or not), or None on a new journal."""
        row = self.db.execute("SELECT id, game, setup, started, ended FROM games "
                              "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else GameRow(row[0], row[1], json.loads(row[2]), row[3], row[4])

    def entries(self, game_id: int) -> list[Entry]:
        rows = self.db.execute("SELECT seq, kind, input, target, source, at FROM entries "
                               "WHERE game_id=? ORDER BY seq", (game_id,)).fetchall()
        return [Entry(r[0], r[1], None if r[2] is None else json.loads(r[2]), r[3], r[4], r[5])
                for r in rows]
