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
import select
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
    got = {
        "summary": http.get(f"/tables/{table}"),
        "view": http.get(f"/tables/{table}/view", headers=bearer(token)),
        "spectate": http.get(f"/tables/{table}/spectate"),
    }
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


# ---- 1. replays from client data ----------------------------------------------------
def _bid_only_record() -> str:
    """The issue's bomb: laizi, four decks, two seats of 109 cards, stopped
    after the auction: listing the next lead would take seconds."""
    rules = ddz.Rules("laizi", decks=4, players=2, hand_size=109, kitty=0)
    game = ddz.Game(rules, seed=1)
    game.step(game.legal_actions()[-1])
    return game.to_json()


def _finished(preset: str = "classic", seed: int = 1, **options) -> str:
    game = ddz.Game(ddz.Rules(preset, **options), seed=seed)
    while game.phase != "over":
        legal = game.legal_actions()
        game.step(legal[-1] if game.phase != "play" else legal[0])
    return game.to_json()


def test_a_replay_bomb_is_refused_before_any_listing(server) -> None:
    bomb = _bid_only_record()
    assert "not over" in error_of(server.http.post("/replays", content=bomb), 422)
    # Finished, but over the limits a new table has: refused before any frame.
    big = _finished("laizi", decks=2, players=2, hand_size=40, kitty=30)
    assert "46 cards" in error_of(server.http.post("/replays", content=big), 422)
    # /healthz answers while four bombs are in flight (each refused at the cost of its moves).
    with httpx.Client(base_url=server.base, timeout=WAIT) as http:
        import concurrent.futures

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            sent = [pool.submit(http.post, "/replays", content=bomb) for _ in range(4)]
            assert server.http.get("/healthz").status_code == 200
            statuses = [f.result().status_code for f in sent]
    # Each refused at the cost of its moves, or (more than two at once) by the per-client cap.
    assert set(statuses) <= {422, 429} and 422 in statuses
    honest = server.http.post("/replays", content=_finished())
    assert honest.status_code == 200 and honest.json()["frames"]


def test_a_replay_that_would_list_too_much_is_refused(monkeypatch) -> None:
    from ddz.serve import replay

    record = _finished("laizi", seed=3)
    assert replay.frames(record)["frames"]
    monkeypatch.setattr(replay, "MAX_REPLAY_LEGAL", 10)
    with pytest.raises(ValueError, match="more than 10 legal actions"):
        replay.frames(record)


def test_replays_are_limited_per_client(tmp_path) -> None:
    from ddz.serve.clients import RateLimit as Bucket

    app = create_app(db=str(tmp_path / "rate.sqlite3"))
    app.state.replay_builder.rate = Bucket(per_second=1e-6, burst=1e-9)  # one, then none
    with TestClient(app) as http:
        first = http.post("/replays", content=_finished(seed=1))
        assert first.status_code == 200
        again = http.post("/replays", content=_finished(seed=2))
        assert "share of the server's time for replays" in error_of(again, 429)
        assert http.post("/replays", content=_finished(seed=1)).status_code == 200  # kept


def test_the_rate_limit_charges_what_a_request_cost() -> None:
    now = [0.0]
    bucket = RateLimit(per_second=0.5, burst=1.0, clock=lambda: now[0])
    assert bucket.wait("a") == 0.0
    bucket.charge("a", 2.0)  # a costly request: the bucket is 1 s in debt
    assert bucket.wait("a") > 0 and bucket.wait("b") == 0.0
    now[0] += 2.1
    assert bucket.wait("a") == 0.0


# ---- 3. tokens rotated -----------------------------------------------------------------
def test_a_rekeyed_seat_shuts_out_its_old_token_and_its_websockets(server) -> None:
    made = server.make("classic", seed=4, bots={"1": "greedy", "2": "greedy"})
    table, old = made["id"], made["tokens"]["0"]
    url = f"{server.ws_base}/tables/{table}/ws"
    with connect(f"{url}?token={old}") as ws:
        assert json.loads(ws.recv(WAIT))["type"] == "view"
        reply = server.http.post(f"/tables/{table}/rekey", headers=bearer(old))
        assert reply.status_code == 200
        new = reply.json()["token"]
        assert reply.json()["seat"] == 0 and new != old
        with pytest.raises(ConnectionClosed):
            while True:  # perhaps a push first, then the close
                assert json.loads(ws.recv(WAIT))["type"] == "view"
        assert ws.close_code == 4403 and "replaced" in ws.close_reason
    for path in ("view", "hints"):
        error_of(server.http.get(f"/tables/{table}/{path}", headers=bearer(old)), 403)
    legal = server.view(table, new)["observation"]["legal_actions"]
    error_of(server.act(table, old, legal[0], "k-old"), 403)
    error_of(server.http.post(f"/tables/{table}/rekey", headers=bearer(old)), 403)
    error_of(server.http.post(f"/tables/{table}/close", headers=bearer(old)), 403)
    assert server.act(table, new, legal[0], "k-new").status_code == 200


def test_the_owner_token_closes_but_never_reads_a_hand_or_acts(server) -> None:
    made = server.make("classic", seed=6, bots={"1": "greedy", "2": "greedy"})
    table, owner = made["id"], made["owner"]
    legal = server.view(table, made["tokens"]["0"])["observation"]["legal_actions"]
    for reply in (
        server.http.get(f"/tables/{table}/view", headers=bearer(owner)),
        server.http.get(f"/tables/{table}/hints", headers=bearer(owner)),
        server.act(table, owner, legal[0], "k-owner"),
        server.http.post(f"/tables/{table}/rekey", headers=bearer(owner)),
        server.http.post(f"/tables/{table}/offers/0", headers=bearer(owner)),
    ):
        assert "opens no seat" in error_of(reply, 403)
    with connect(f"{server.ws_base}/tables/{table}/ws?token={owner}") as ws:
        assert json.loads(ws.recv(WAIT))["type"] == "error"
    assert server.http.post(f"/tables/{table}/close", headers=bearer(owner)).status_code == 200


# ---- 5. seeds never predict a live table -------------------------------------------------
def test_a_seeded_tables_record_predicts_no_later_deal(server) -> None:
    made = server.make("classic", seed=123)
    table, tokens = made["id"], made["tokens"]
    unseeded = server.make("classic", bots={"1": "greedy", "2": "greedy"})["id"]
    first = ddz.Game("classic", seed=123).observation(0)["hand"]
    assert server.view(table, tokens["0"])["observation"]["hand"] == first  # the chosen deal
    assert server.http.get(f"/tables/{table}").json()["seeded"] is True
    assert server.http.get(f"/tables/{unseeded}").json()["seeded"] is False
    listed = {t["id"]: t["seeded"] for t in server.http.get("/tables").json()["tables"]}
    assert listed[table] is True and listed[unseeded] is False
    finish_deal(server.http, table, tokens, "s")
    record = server.http.get(f"/tables/{table}/record").json()
    assert record["seeded"] is True and record["seed"] == 123
    assert server.http.get(f"/tables/{table}/replay").json()["seeded"] is True
    assert server.http.post(f"/tables/{table}/next", headers=bearer(tokens["0"])).is_success
    hands = [server.view(table, tokens[str(s)])["observation"]["hand"] for s in range(3)]
    for guess in (124, 123 + 2**32, record["seed"] + 1):
        dealt = ddz.Game("classic", seed=guess).observation(0)["hand"]
        assert dealt not in hands, f"seed {guess} deals deal 1"


# ---- 7. the small ones -----------------------------------------------------------------
def test_deep_json_is_refused_everywhere(server) -> None:
    table, tokens = server.create("classic", seed=5, bots={"1": "greedy", "2": "greedy"})
    deep = "[" * 5000 + "]" * 5000
    assert too_deep(deep.encode()) and not too_deep(b'["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]')
    nested = '{"action": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + ', "key": "k"}'
    for path, token in (
        (f"/tables/{table}/actions", tokens["0"]),
        ("/tables", None),
        ("/replays", None),
    ):
        for kind in ("application/json", "application/json; charset=utf-8"):
            for body in (deep, nested):
                headers = {"content-type": kind, **(bearer(token) if token else {})}
                reply = server.http.post(path, content=body, headers=headers)
                assert "nested deeper" in error_of(reply, 422), path
    with connect(f"{server.ws_base}/tables/{table}/ws") as ws:  # the first message
        ws.send(deep)
        message = json.loads(ws.recv(WAIT))
        assert message["type"] == "error" and "nested deeper" in message["error"]
        with pytest.raises(ConnectionClosed):
            ws.recv(WAIT)
        assert ws.close_code == 4400
    with connect(f"{server.ws_base}/tables/{table}/ws") as ws:
        ws.send('{"token": "a", "token": "' + tokens["0"] + '"}')
        assert "appears twice" in json.loads(ws.recv(WAIT))["error"]
    assert "Traceback" not in server.logged() and "RecursionError" not in server.logged()


def test_a_key_given_twice_in_an_action_is_refused_on_both_paths(server) -> None:
    table, tokens = server.create("classic", seed=5)
    to_act = server.view(table, tokens["0"])["observation"]["to_act"]
    token = tokens[str(to_act)]
    before = server.view(table, token)["version"]
    body = '{"action": "bid:3", "action": "pass", "key": "k"}'
    for kind in ("application/json", "application/json; charset=utf-8"):  # fast, routed
        reply = server.http.post(
            f"/tables/{table}/actions",
            content=body,
            headers={**bearer(token), "content-type": kind},
        )
        assert "'action' appears twice" in error_of(reply, 422)
    assert server.view(table, token)["version"] == before  # nothing applied


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("127.0.0.1", LOOPBACK),
        ("127.0.0.5", LOOPBACK),
        ("::1", LOOPBACK),
        ("::ffff:127.0.0.2", LOOPBACK),
        ("203.0.113.9", "203.0.113.9"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        (None, "unknown"),
    ],
)
def test_clients_are_grouped_by_their_documented_key(host, key) -> None:
    assert client_key(host) == key
    assert client_key(client_key(host)) == key  # a key given again is unchanged


def test_other_loopback_addresses_share_the_table_limit(tmp_path) -> None:
    srv = Server(tmp_path / "loop.sqlite3", "--max-tables-per-client", "2")
    try:
        srv.make("classic")
        srv.make("classic")
        for source in ("127.0.0.2", "127.0.0.5"):
            transport = httpx.HTTPTransport(local_address=source)
            with httpx.Client(base_url=srv.base, transport=transport, timeout=WAIT) as http:
                reply = http.post("/tables", json={"preset": "classic"})
                assert "loopback holds its limit of 2 open tables" in error_of(reply, 429)
    finally:
        srv.stop()


FULL_DISK = """
import os, sqlite3
from ddz.serve import store

FLAG = os.environ["DDZ_TEST_FULL_DISK"]
_append = store.Store.append

def append(self, *args, **kwargs):
    if os.path.exists(FLAG):  # as SQLite says it when the disk is full
        with self._transaction() as db:
            raise sqlite3.OperationalError("database or disk is full")
    return _append(self, *args, **kwargs)

store.Store.append = append
"""


def test_a_failed_commit_is_a_json_503_that_keeps_the_connection(tmp_path, monkeypatch) -> None:
    flag = tmp_path / "full"
    monkeypatch.setenv("DDZ_TEST_FULL_DISK", str(flag))
    srv = Server(tmp_path / "full.sqlite3", prelude=FULL_DISK)
    try:
        table, tokens = srv.create("classic", seed=5, bots={"1": "greedy", "2": "greedy"})
        view = srv.view(table, tokens["0"])
        action = view["observation"]["legal_actions"][-1]
        flag.touch()
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=WAIT)
        body = json.dumps({"action": action, "key": "k1"})
        for kind in ("application/json", "application/json; charset=utf-8"):  # both paths
            conn.request("POST", f"/tables/{table}/actions", body, {
                **bearer(tokens["0"]), "content-type": kind})  # fmt: skip
            reply = conn.getresponse()
            text = reply.read()
            assert reply.status == 503 and reply.getheader("connection") != "close"
            assert "disk is full" in json.loads(text)["error"]
            sock = conn.sock
            assert sock is not None  # still open: the next request goes on the same socket
        flag.unlink()
        conn.request("POST", f"/tables/{table}/actions", body, {
            **bearer(tokens["0"]), "content-type": "application/json"})  # fmt: skip
        reply = conn.getresponse()
        reply.read()
        assert reply.status == 200 and conn.sock is sock
        conn.close()
        assert srv.view(table, tokens["0"])["version"] > view["version"]  # applied once, now
        assert "Traceback" not in srv.logged()
    finally:
        srv.stop()


def test_a_database_the_server_cannot_use_is_one_line_at_start(tmp_path) -> None:
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database " * 100)
    cases = [str(tmp_path), str(not_db), str(tmp_path / "no-such-dir" / "x.sqlite3")]
    if os.geteuid() != 0:  # root writes a read-only file anyway
        read_only = tmp_path / "ro.sqlite3"
        sqlite3.connect(read_only).close()
        read_only.chmod(stat.S_IRUSR)
        cases.append(str(read_only))
    for db in cases:
        ran = subprocess.run(
            [sys.executable, "-m", "ddz", "serve", "--db", db, "--port", "1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert ran.returncode != 0
        lines = ran.stderr.strip().splitlines()
        assert len(lines) == 1 and "cannot use" in lines[0] and db in lines[0], ran.stderr


# ---- 4. slow consumers and slow producers ------------------------------------------------
def raw_websocket(port: int, path: str, first: str, receive_buffer: int = 2048) -> socket.socket:
    """A WebSocket opened by hand that sends its first message and then never
    reads (a small receive buffer, so the server's side fills fast)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:  # the handshake's answer is the last thing it reads
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    data = first.encode()
    assert len(data) < 126
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask + masked)  # a masked text frame
    return sock


def cut_off(sock: socket.socket) -> bool:
    """Did the server end this connection? (Reads whatever is left, within WAIT.)"""
    sock.settimeout(WAIT)
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, socket.timeout):
        pass
    except OSError:
        return True
    try:
        sock.settimeout(0.5)
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


@pytest.fixture(scope="module")
def strict(tmp_path_factory):
    """A server with short timeouts and small caps."""
    db = tmp_path_factory.mktemp("strict") / "strict.sqlite3"
    srv = Server(db, "--ws-send-timeout", "1", "--header-timeout", "1", "--body-timeout", "1",
                 "--max-ws-per-table", "3", "--max-connections-per-client", "12")  # fmt: skip
    yield srv
    srv.stop()


def connected(server: Server, table: str) -> list[bool]:
    tables = {t["id"]: t for t in server.http.get("/lobby").json()["tables"]}
    return [s.get("connected", False) for s in tables[table]["seats"]]


SMALL_BUFFERS = """
import socket
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

made = AutoWebSocketsProtocol.connection_made

def connection_made(self, transport):  # small send buffers: a reader that stalls shows at once
    transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    transport.set_write_buffer_limits(high=8192)
    made(self, transport)

AutoWebSocketsProtocol.connection_made = connection_made
"""


def test_a_websocket_that_never_reads_is_dropped(tmp_path) -> None:
    srv = Server(tmp_path / "stall.sqlite3", "--ws-send-timeout", "1", prelude=SMALL_BUFFERS)
    try:
        table, tokens = srv.create("laizi", seed=2, bots={"1": "greedy", "2": "greedy"})
        first = json.dumps({"token": tokens["0"]})
        sock = raw_websocket(srv.port, f"/tables/{table}/ws", first)
        deadline = time.monotonic() + 6 * WAIT
        while connected(srv, table)[0] is False:
            assert time.monotonic() < deadline, "the WebSocket never subscribed"
            time.sleep(0.05)
        deals = 0
        with httpx.Client(base_url=srv.base, timeout=WAIT) as http:
            while connected(srv, table)[0] and time.monotonic() < deadline:
                finish_deal(http, table, tokens | {"1": "", "2": ""}, f"d{deals}-")
                assert http.post(f"/tables/{table}/next", headers=bearer(tokens["0"])).is_success
                deals += 1
        assert connected(srv, table)[0] is False, "the reader that never reads is still served"
        assert cut_off(sock)
        sock.close()
        # An honest client of the same seat is served as before.
        with connect(f"{srv.ws_base}/tables/{table}/ws?token={tokens['0']}") as ws:
            assert json.loads(ws.recv(WAIT))["type"] == "view"
    finally:
        srv.stop()


def test_a_subscriber_too_far_behind_or_stalled_is_dropped_and_cut() -> None:
    """The hub alone, with a socket that takes nothing: the backlog's limit,
    then the send timeout, each drop the subscriber and cut its transport."""
    from ddz.serve import hub as hubs

    class Stalled:
        def __init__(self) -> None:
            self.scope = {hubs.TRANSPORT: self}
            self.aborted = False
            self.closed_with: list[int] = []

        async def send_text(self, text: str) -> None:
            await asyncio.sleep(3600)  # the client reads nothing

        async def close(self, code: int = 1000, reason: str = "") -> None:
            self.closed_with.append(code)
            await asyncio.sleep(3600)  # nor its close frame

        def abort(self) -> None:
            self.aborted = True

    async def run() -> None:
        hub = hubs.Hub(send_timeout=0.05)
        behind, stalled = hubs.Subscriber(Stalled(), 0), hubs.Subscriber(Stalled(), 1)
        for sub in (behind, stalled):
            hub.join("t", sub)
        stalled.sender = asyncio.ensure_future(hubs.pump(stalled, hub))
        hub.send([(stalled, "view")])
        hub.send([(behind, "v")] * (hubs.QUEUE_LIMIT + 1))
        assert behind.dropped and behind.queue.empty() and behind not in hub.tables["t"]
        for _ in range(200):
            if stalled.ws.aborted and behind.ws.aborted:
                break
            await asyncio.sleep(0.05)
        assert stalled.dropped and "t" not in hub.tables
        assert behind.ws.aborted and stalled.ws.aborted
        assert behind.ws.closed_with == stalled.ws.closed_with == [hubs.DROPPED]

    asyncio.run(run())


def test_websockets_per_table_are_capped(strict) -> None:
    table, _ = strict.create("classic", seed=3)
    url = f"{strict.ws_base}/tables/{table}/ws?spectator=true"
    opened = [connect(url) for _ in range(3)]
    try:
        for ws in opened:
            assert json.loads(ws.recv(WAIT))["type"] == "view"
        with connect(url) as extra:
            assert "3 WebSockets open" in json.loads(extra.recv(WAIT))["error"]
            with pytest.raises(ConnectionClosed):
                extra.recv(WAIT)
            assert extra.close_code == 4429
    finally:
        for ws in opened:
            ws.close()


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # nothing at all
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # half a header
        b"POST /replays HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",  # a body cut short
        b"POST /replays HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[1,2,",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHo",  # kept alive
    ],
)
def test_idle_and_unfinished_requests_are_timed_out(strict, sent) -> None:
    with socket.create_connection(("127.0.0.1", strict.port), timeout=WAIT) as sock:
        sock.sendall(sent)
        reply = b""
        while chunk := sock.recv(4096):
            reply += chunk
    assert reply.rsplit(b"HTTP/1.1 ", 1)[-1].startswith(b"408"), reply  # the last answer
    assert reply.count(b"HTTP/1.1 ") == 1 + sent.count(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b'"error":"no whole request' in reply


def test_a_trickled_header_is_timed_out(strict) -> None:
    """A byte every 0.2 s: the header's deadline runs from its first byte, not its last."""
    with socket.create_connection(("127.0.0.1", strict.port), timeout=WAIT) as sock:
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200:
            if select.select([sock], [], [], 0.2)[0]:
                break  # the server answered (and hung up)
            sock.sendall(bytes([byte]))
        else:
            pytest.fail("the server read a header trickled over 40 s")
        reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 408"), reply


def test_connections_per_client_are_capped(strict) -> None:
    # Loopback is one client: 12 connections at most, these included.
    held = [socket.create_connection(("127.0.0.1", strict.port), timeout=WAIT) for _ in range(12)]
    try:
        with socket.create_connection(("127.0.0.1", strict.port), timeout=WAIT) as extra:
            reply = extra.recv(4096)
        assert reply.startswith(b"HTTP/1.1 429") and b"open connections" in reply
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + WAIT
    while True:  # their places come back as the server sees them go
        try:
            if strict.http.get("/healthz").status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_sigterm_stops_the_server_whatever_its_clients_do(tmp_path) -> None:
    srv = Server(tmp_path / "term.sqlite3", "--ws-send-timeout", "30", "--header-timeout", "30")
    socks = []
    try:
        table, tokens = srv.create("classic", seed=3, bots={"1": "greedy", "2": "greedy"})
        first = json.dumps({"token": tokens["0"]})
        socks = [raw_websocket(srv.port, f"/tables/{table}/ws", first) for _ in range(5)]
        socks += [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(5)]
        for sock in socks[5:]:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # and never the rest
        srv.http.get("/healthz")
        srv.proc.terminate()
        srv.proc.wait(3 * WAIT)  # bounded: uvicorn's graceful timeout, then everything is cut
        assert srv.proc.returncode is not None
    finally:
        for sock in socks:
            sock.close()
        srv.stop()
