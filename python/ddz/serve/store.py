"""The tables' records in SQLite: what each table was created with, every
accepted action in order, and the hashes of its seat tokens.

A table is rebuilt by replaying its log through `ddz.Game`, so the log is
the only state that must survive. Each accepted request is one transaction,
committed before the server replies (see docs/server.md, Persistence).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id      TEXT PRIMARY KEY,
    spec    TEXT NOT NULL,            -- JSON: preset, options, seed, deal, bots
    created REAL NOT NULL,
    closed  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id   TEXT NOT NULL REFERENCES tables(id),
    seat       INTEGER NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n        INTEGER NOT NULL,        -- 1, 2, ...: the table's version after this entry
    seat     INTEGER,                 -- who asked; a bot's own seat for its actions
    action   TEXT NOT NULL,           -- a game action, or a table command ('@next:SEED', '@close')
    reading  TEXT,                    -- JSON cards/kind/rank/length when the action is a play
    cards    TEXT,                    -- the suited cards a play named, if any
    key      TEXT,                    -- the client's idempotency key (NULL for bots, commands)
    PRIMARY KEY (table_id, n)
);
CREATE UNIQUE INDEX IF NOT EXISTS log_keys ON log (table_id, seat, key) WHERE key IS NOT NULL;
"""


@dataclass
class Entry:
    """One line of a table's log."""

    seat: int | None
    action: str
    reading: dict | None = None
    cards: str | None = None
    key: str | None = None


@dataclass
class StoredTable:
    id: str
    spec: dict
    closed: bool
    token_hashes: dict[str, int]
    log: list[Entry] = field(default_factory=list)


class Store:
    """One SQLite file in WAL mode; one connection, used from the event loop only."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        self.path = path
        # isolation_level=None: transactions are opened explicitly with BEGIN.
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL keeps every commit across a killed process; FULL also
        # across a power cut, at one fsync per commit.
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ---- writes: each call is one committed transaction -------------------
    def create(self, table_id: str, spec: dict, token_hashes: dict[int, str], log: list[Entry]):
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, spec, created) VALUES (?, ?, ?)",
                (table_id, json.dumps(spec), time.time()),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, token_hash) VALUES (?, ?, ?)",
                [(table_id, seat, h) for seat, h in token_hashes.items()],
            )
            self._append(db, table_id, 0, log)

    def append(self, table_id: str, start: int, entries: list[Entry], close: bool = False):
        """Entries numbered start+1, start+2, ...; a duplicate number or key
        fails the whole transaction (sqlite3.IntegrityError)."""
        with self._transaction() as db:
            self._append(db, table_id, start, entries)
            if close:
                db.execute("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,))

    @staticmethod
    def _append(db: sqlite3.Connection, table_id: str, start: int, entries: list[Entry]):
        db.executemany(
            "INSERT INTO log (table_id, n, seat, action, reading, cards, key)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    start + i + 1,
                    e.seat,
                    e.action,
                    None if e.reading is None else json.dumps(e.reading),
                    e.cards,
                    e.key,
                )
                for i, e in enumerate(entries)
            ],
        )

    def _transaction(self):
        return _Transaction(self.db)

    # ---- reads -------------------------------------------------------------
    def load(self, table_id: str) -> StoredTable | None:
        row = self.db.execute(
            "SELECT id, spec, closed FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            return None
        hashes = {
            h: seat
            for seat, h in self.db.execute(
                "SELECT seat, token_hash FROM seats WHERE table_id = ?", (table_id,)
            )
        }
        log = [
            Entry(seat, action, None if reading is None else json.loads(reading), cards, key)
            for seat, action, reading, cards, key in self.db.execute(
                "SELECT seat, action, reading, cards, key FROM log WHERE table_id = ? ORDER BY n",
                (table_id,),
            )
        ]
        return StoredTable(row[0], json.loads(row[1]), bool(row[2]), hashes, log)

    def open_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables WHERE closed = 0")]


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, tb) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
