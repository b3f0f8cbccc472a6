"""The tables' records in SQLite: what each table was created with, every
accepted action in order, the hashes of its tokens, and the records of its
finished deals.

A table is rebuilt by replaying its current deal's log through `ddz.Game`
(the finished deals are kept as records and score lines, so neither memory
nor the time to rebuild grows with the deals a table has played). Each
accepted request is one transaction, committed before the server replies
(see docs/server.md, Persistence).

The connection is shared by the engine's worker threads (lobby.py); a lock
lets one of them use it at a time.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass, field

from .replies import Refused

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id         TEXT PRIMARY KEY,
    spec       TEXT NOT NULL,         -- JSON: preset, options, seed, deal, bots, bot secret
    created    REAL NOT NULL,
    closed     INTEGER NOT NULL DEFAULT 0
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
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,           -- 'secret': the server's secret (deal seeds of seeded tables)
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number   INTEGER NOT NULL,        -- 0, 1, ...: the finished deals of the table
    record   TEXT NOT NULL,           -- Game.to_json()
    scores   TEXT NOT NULL,           -- JSON: the deal's scores, seat by seat
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS analyses (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number   INTEGER NOT NULL,        -- the finished deal analysed (deals.number)
    analysis TEXT NOT NULL,           -- ddz.analyse(...).to_json(), written once
    PRIMARY KEY (table_id, number)
);
"""
#: Columns added to `tables` after its first version, added to older files on open.
ADDED_COLUMNS = {
    "owner_hash": "TEXT",  # the hash of the creator's token, which may close the table
    "creator": "TEXT",  # the client address that made it (the per-client limit)
    "touched": "REAL",  # the time of its last change (idle tables expire)
    "deal_start": "INTEGER NOT NULL DEFAULT 0",  # n of its last '@next' entry (0: deal 0)
    # JSON, as of the last commit: the turn clock's deadline, the seats in 托管 and
    # the timeouts in a row (ServedTable.room_state); written with the log entries.
    "room": "TEXT",
}


class StoreUnavailable(Exception):
    """The file cannot serve as the store (unreadable, read-only, not a
    database): one sentence saying which file and why."""


class StoreFailed(Refused):
    """A write that did not commit (a full disk, an I/O error): nothing of
    it is kept, and the client may try again (503)."""

    def __init__(self, cause: BaseException) -> None:
        self.cause = str(cause)
        super().__init__(
            503, f"the server could not save this change ({cause}): nothing changed, try again"
        )


@dataclass
class Entry:
    """One line of a table's log."""

    seat: int | None
    action: str
    reading: dict | None = None
    cards: str | None = None
    key: str | None = None


@dataclass
class FinishedDeal:
    number: int
    record: str
    scores: list[int]


@dataclass
class StoredTable:
    """A table as the store holds it: its log from the start of the current
    deal (`start` entries come before), and the finished deals' summed scores."""

    id: str
    spec: dict
    closed: bool
    token_hashes: dict[str, int]
    owner_hash: str | None = None
    creator: str | None = None
    touched: float = 0.0
    start: int = 0
    deals_done: int = 0
    scores: list[int] | None = None
    log: list[Entry] = field(default_factory=list)
    room: dict | None = None


class Store:
    """One SQLite file in WAL mode; one connection, one thread at a time."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        self.path = path
        self.lock = threading.Lock()
        try:
            # isolation_level=None: transactions are opened explicitly with BEGIN.
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL keeps every commit across a killed process; FULL also
            # across a power cut, at one fsync per commit.
            self.db.execute(f"PRAGMA synchronous={synchronous}")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
            have = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
            for name, kind in ADDED_COLUMNS.items():
                if name not in have:
                    self.db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
            #: The server's own secret (seeds.py): drawn once, kept in the file.
            self.secret = self._secret()  # a write: a file the server may not write fails here
        except (sqlite3.Error, StoreFailed) as e:
            why = e.cause if isinstance(e, StoreFailed) else str(e)
            raise StoreUnavailable(
                f"cannot use {path!r} as the server's database ({why}): the server must "
                "read and write it, and create files beside it"
            ) from None

    def _secret(self) -> str:
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('secret', ?)",
                (secrets.token_hex(32),),
            )
            return db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0]

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # ---- writes: each call is one committed transaction -------------------
    def create(
        self,
        table_id: str,
        spec: dict,
        token_hashes: dict[int, str],
        owner_hash: str,
        creator: str,
        log: list[Entry],
        room: dict | None = None,
    ) -> None:
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, spec, created, owner_hash, creator, touched)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, json.dumps(spec), now, owner_hash, creator, now),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, token_hash) VALUES (?, ?, ?)",
                [(table_id, seat, h) for seat, h in token_hashes.items()],
            )
            self._append(db, table_id, 0, log)
            self._set_room(db, table_id, room)

    def append(
        self,
        table_id: str,
        start: int,
        entries: list[Entry],
        close: bool = False,
        finished: FinishedDeal | None = None,
        room: dict | None = None,
    ) -> None:
        """Entries numbered start+1, start+2, ...; a duplicate number or key
        fails the whole transaction (sqlite3.IntegrityError). `finished` is
        the deal a '@next' entry among them ended."""
        with self._transaction() as db:
            self._append(db, table_id, start, entries)
            if finished is not None:
                self._add_deals(db, table_id, [finished])
            if close:
                db.execute("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,))
            self._set_room(db, table_id, room)

    @staticmethod
    def _set_room(db: sqlite3.Connection, table_id: str, room: dict | None) -> None:
        if room is not None:
            db.execute("UPDATE tables SET room = ? WHERE id = ?", (json.dumps(room), table_id))

    def add_deals(self, table_id: str, deals: list[FinishedDeal]) -> None:
        """Deals a file written before the deals table finished (see
        ServedTable.rebuild), and where its current deal starts, so that the
        next load replays that deal alone. Deals already kept are left as
        they are: a file an earlier server filled in without `deal_start`
        is read again without a duplicate."""
        with self._transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO deals (table_id, number, record, scores)"
                " VALUES (?, ?, ?, ?)",
                [(table_id, d.number, d.record, json.dumps(d.scores)) for d in deals],
            )
            db.execute(
                "UPDATE tables SET deal_start = (SELECT coalesce(max(n), 0) FROM log"
                " WHERE table_id = ? AND substr(action, 1, 6) = '@next:') WHERE id = ?",
                (table_id, table_id),
            )

    def rekey(self, table_id: str, seat: int, token_hash: str) -> None:
        """Seat `seat` opens with the token of `token_hash` from now on; its
        old token opens nothing."""
        with self._transaction() as db:
            db.execute(
                "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?",
                (token_hash, table_id, seat),
            )

    def set_spec(self, table_id: str, spec: dict) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tables SET spec = ? WHERE id = ?", (json.dumps(spec), table_id))

    def expire(self, idle_before: float) -> list[str]:
        """Close every open table whose last change is older than `idle_before`
        (a '@close' entry, as a client's close writes), without rebuilding them."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT t.id, (SELECT coalesce(max(n), 0) FROM log WHERE table_id = t.id)"
                " FROM tables t WHERE closed = 0 AND coalesce(touched, created) < ?",
                (idle_before,),
            ).fetchall()
            for table_id, n in rows:
                self._append(db, table_id, n, [Entry(None, "@close")])
                db.execute("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,))
        return [table_id for table_id, _ in rows]

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
        nexts = [start + i + 1 for i, e in enumerate(entries) if e.action.startswith("@next:")]
        if nexts:
            db.execute("UPDATE tables SET deal_start = ? WHERE id = ?", (nexts[-1], table_id))
        db.execute("UPDATE tables SET touched = ? WHERE id = ?", (time.time(), table_id))

    @staticmethod
    def _add_deals(db: sqlite3.Connection, table_id: str, deals: list[FinishedDeal]) -> None:
        db.executemany(
            "INSERT INTO deals (table_id, number, record, scores) VALUES (?, ?, ?, ?)",
            [(table_id, d.number, d.record, json.dumps(d.scores)) for d in deals],
        )

    def _transaction(self):
        return _Transaction(self.db, self.lock)

    # ---- reads -------------------------------------------------------------
    def load(self, table_id: str) -> StoredTable | None:
        with self.lock:
            row = self.db.execute(
                "SELECT id, spec, closed, owner_hash, creator, coalesce(touched, created),"
                " deal_start, room FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            hashes = {
                h: seat
                for seat, h in self.db.execute(
                    "SELECT seat, token_hash FROM seats WHERE table_id = ?", (table_id,)
                )
            }
            start = max(row[6] - 1, 0)
            log = [
                Entry(seat, action, None if reading is None else json.loads(reading), cards, key)
                for seat, action, reading, cards, key in self.db.execute(
                    "SELECT seat, action, reading, cards, key FROM log"
                    " WHERE table_id = ? AND n > ? ORDER BY n",
                    (table_id, start),
                )
            ]
            lines = [
                json.loads(s)
                for (s,) in self.db.execute(
                    "SELECT scores FROM deals WHERE table_id = ?", (table_id,)
                )
            ]
        scores = [sum(col) for col in zip(*lines)] if lines else None
        return StoredTable(
            row[0],
            json.loads(row[1]),
            bool(row[2]),
            hashes,
            row[3],
            row[4],
            row[5],
            start,
            len(lines),
            scores,
            log,
            None if row[7] is None else json.loads(row[7]),
        )

    def key_used(self, table_id: str, seat: int, key: str) -> tuple[str, str | None] | None:
        """The action and cards a seat's key was committed with, if it was."""
        with self.lock:
            row = self.db.execute(
                "SELECT action, cards FROM log WHERE table_id = ? AND seat = ? AND key = ?",
                (table_id, seat, key),
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def deal_record(self, table_id: str, number: int) -> str | None:
        with self.lock:
            row = self.db.execute(
                "SELECT record FROM deals WHERE table_id = ? AND number = ?", (table_id, number)
            ).fetchone()
        return None if row is None else row[0]

    def analysis(self, table_id: str, number: int) -> str | None:
        """A finished deal's analysis, if one was stored."""
        with self.lock:
            row = self.db.execute(
                "SELECT analysis FROM analyses WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
        return None if row is None else row[0]

    def add_analysis(self, table_id: str, number: int, text: str) -> None:
        """Keep a finished deal's analysis (the first one written stays)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO analyses (table_id, number, analysis) VALUES (?, ?, ?)",
                (table_id, number, text),
            )

    def open_ids(self) -> list[str]:
        with self.lock:
            return [r[0] for r in self.db.execute("SELECT id FROM tables WHERE closed = 0")]


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises; holds the lock."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self.db = db
        self.lock = lock

    def __enter__(self) -> sqlite3.Connection:
        self.lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException as e:
            self.lock.release()
            if isinstance(e, sqlite3.Error):
                raise StoreFailed(e) from e
            raise
        return self.db

    def __exit__(self, kind, value, tb) -> None:
        try:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        except sqlite3.Error as e:
            if kind is None:
                raise StoreFailed(e) from e
        finally:
            self.lock.release()
        if kind is not None and issubclass(kind, sqlite3.Error):
            if not issubclass(kind, sqlite3.IntegrityError):  # a duplicate says something else
                raise StoreFailed(value) from value
