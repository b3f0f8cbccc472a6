"""`ddz serve` against hostile clients, round two (issue 53): replays past
the cost limits, old files started again and again, seat tokens rotated,
clients that never read or never finish, seeds that must not predict a
live table, and the small ones (deep JSON, repeated keys, who a client
is, a failed commit, a file the server may not write).

Every server here listens on 127.0.0.1; every wait is bounded; nothing
asserts a time.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from serve_helpers import Server, bearer, error_of
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import ddz
from ddz.serve import create_app
from ddz.serve.clients import LOOPBACK, RateLimit, client_key
from ddz.serve.jsonguard import MAX_DEPTH, too_deep

#: Generous bounds that only a hung server misses (never timing assertions).
WAIT = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("hostile") / "hostile.sqlite3", "--ws-auth-timeout", "2")
    yield srv
    srv.stop()


def finish_deal(http, table: str, tokens: dict[str, str], prefix: str) -> dict:
    """Every seat a person's: the seat to act takes its last legal action
    (a bid ends the auction) until the deal is over; the last view."""
    view = http.get(f"/tables/{table}/view", headers=bearer(tokens["0"])).json()
    step = 0
    while view["observation"]["phase"] != "over":
        seat = str(view["observation"]["to_act"])
        view = http.get(f"/tables/{table}/view", headers=bearer(tokens[seat])).json()
        legal = view["observation"]["legal_actions"]
        action = legal[-1] if view["observation"]["phase"] != "play" else legal[0]
        body = {"action": action, "key": f"{prefix}{step}"}
        body.update(view["readings"].get(action, [{}])[0])
        reply = http.post(f"/tables/{table}/actions", json=body, headers=bearer(tokens[seat]))
        assert reply.status_code == 200, reply.text
        view = reply.json()
        step += 1
    return view


# ---- 2. old files start any number of times -------------------------------------
def _downgrade(db: str, to: str) -> None:
    """Make the file as an earlier server left it.

    - "v1": the first server's (1 December 2026): no deals table, none of
      the columns added since, no bot secret in the specs;
    - "v1-filled": a v1 file started once by the server of 2 December,
      which filled in the deals but left `deal_start` at 0;
    - "v2": the server of 2-6 December, before the game room's column.
    """
    with sqlite3.connect(db) as con:
        have = {row[1] for row in con.execute("PRAGMA table_info(tables)")}
        if "room" in have:
            con.execute("ALTER TABLE tables DROP COLUMN room")
        if to == "v2":
            return
        con.execute("UPDATE tables SET deal_start = 0")
        if to == "v1-filled":
            return
        con.execute("DROP TABLE deals")
        for column in ("deal_start", "touched", "owner_hash", "creator"):
            con.execute(f"ALTER TABLE tables DROP COLUMN {column}")
        for table_id, spec in con.execute("SELECT id, spec FROM tables").fetchall():
            spec = json.loads(spec)
            spec.pop("bot_secret", None)
            con.execute("UPDATE tables SET spec = ? WHERE id = ?", (json.dumps(spec), table_id))


def _reads(http, table: str, token: str, deals: int) -> dict:
    """Every read of a table: its summary, a seat's view, the spectators',
    each finished deal's record, replay and hands."""
    got = {"summary": http.get(f"/tables/{table}"), "view": http.get(
        f"/tables/{table}/view", headers=bearer(token)
    ), "spectate": http.get(f"/tables/{table}/spectate")}
    for n in range(deals):
        for what in ("record", "replay", "hands"):
            got[f"{what} {n}"] = http.get(f"/tables/{table}/{what}?deal={n}")
    for name, reply in got.items():
        assert reply.status_code == 200, f"{table} {name}: {reply.status_code} {reply.text}"
    return {name: reply.json() for name, reply in got.items()}


@pytest.mark.parametrize("past", ["v1", "v1-filled", "v2"])
def test_a_file_of_every_past_format_starts_three_times_and_reads_whole(tmp_path, past):
    db = str(tmp_path / f"{past}.sqlite3")
    tables = {}
    with TestClient(create_app(db=db)) as http:
        for name, deals, close in (("open", 2, False), ("closed", 2, True), ("fresh", 0, True)):
            made = http.post("/tables", json={"preset": "classic", "seed": len(tables)}).json()
            table, tokens = made["id"], made["tokens"]
            for n in range(deals):
                finish_deal(http, table, tokens, f"{name}{n}-")
                assert http.post(f"/tables/{table}/next", headers=bearer(tokens["0"])).is_success
            if close:
                assert http.post(f"/tables/{table}/close", headers=bearer(made["owner"])).is_success
            tables[name] = (table, tokens["0"], deals, _reads(http, table, tokens["0"], deals))
    _downgrade(db, past)
    for start in range(3):
        with TestClient(create_app(db=db)) as http:
            for name, (table, token, deals, before) in tables.items():
                now = _reads(http, table, token, deals)
                for what in before:
                    if what != "summary":  # a summary grows fields over time
                        assert now[what] == before[what], f"start {start}: {name} {what}"
                assert now["summary"]["closed"] is (name != "open")
            # The open table plays on from where it was.
            table, token = tables["open"][0], tables["open"][1]
            assert http.get(f"/tables/{table}/view", headers=bearer(token)).json()["deal"] == 2
