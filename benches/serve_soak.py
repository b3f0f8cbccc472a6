"""Soak bench for `ddz serve`: many tables, clients that also misbehave,
reconnect and outlive the server, which is killed with SIGKILL and started
again on its file, for minutes on end.

    python benches/serve_soak.py [--tables 200] [--seconds 600] [--kill-every 120]
                                 [--think 0.5] [--bad 0.1]

Each client owns seat 0 of one table (bots at the other seats; the
presets, bot kinds and seeds vary) and plays it: a random legal action
after a think time of 0.5 to 1.5 × `--think`, the next deal when one ends.
Now and then (`--bad`, per action) it sends a bad request instead, drawn
from a list of hostile ones (malformed JSON, a wrong token, an illegal
action, a key reused for another action, an unknown table, a bad seat key,
a rule set over the server's limits, an oversized body, a record asked for
early, a binary WebSocket frame, a bad `spectator`), each of which must
get its own 4xx. It keeps a WebSocket open for the pushes and drops and
reopens it now and then. Every `--kill-every` seconds the server is
killed with SIGKILL and started again; clients resend what was in flight
with its idempotency key.

Beside the honest clients, hostile ones (`--hostile N` of each kind):
WebSockets that subscribe and then never read (a small receive buffer),
slowloris connections that trickle a header a byte a second, and a replay
bomber that posts records the server must refuse cheaply (the issue-53
record stopped after the auction, a finished record over the cost limits)
among honest replays. A sampler times `GET /healthz` every 0.1 s.

Checked over the run, and asserted by `test_soak` (the short version
pytest runs, a few seconds; `DDZ_SOAK=full` makes it the full run):

- no reply is a 5xx, and every bad request gets the 4xx it should;
- nothing lost or doubled: each finished deal's record (read back with
  `Game.from_json`) holds exactly the seat's acknowledged actions, the
  unfinished deals' views end with them, and every WebSocket push
  carries the next version;
- the server's memory stays flat: its resident set size (VmRSS, sampled)
  in the last fifth of the run is within 16 MiB or 15% of the second
  fifth's, across the restarts;
- the hostile clients get only the answers they should (a 408 for the
  slowloris, 422 or 429 for a bomb, the cut for a reader that never
  reads), and never a 5xx. The `/healthz` latency's p50, p99 and maximum
  are reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from serve_load import Http

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serve_helpers import free_port  # noqa: E402

import ddz  # noqa: E402

PRESETS = ["classic", "laizi", "two-player", "four-player", "six-player-2v4"]
PLAYERS = {"two-player": 2, "four-player": 4, "six-player-2v4": 6}
#: Connections the hostile clients may hold at once (the server's per-client cap is raised by it).
HOSTILE_SOCKETS = 200
#: Seconds a never-reading WebSocket is held before it is checked and opened again.
NEVER_READ_HOLD = 15.0
#: Memory growth allowed between the second fifth of the run and the last.
RSS_SLACK_BYTES = 16 * 2**20
RSS_SLACK_SHARE = 0.15


@dataclass
class Tally:
    requests: int = 0
    bad_requests: int = 0
    server_errors: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)  # a 4xx other than expected, lost, doubled
    resent: int = 0
    reconnects: int = 0
    deals_checked: int = 0
    pushes: int = 0
    kills: int = 0
    rss: list[tuple[float, int]] = field(default_factory=list)  # (time, bytes)
    healthz: list[float] = field(default_factory=list)  # seconds, each answered /healthz
    never_read: int = 0  # never-reading WebSockets opened
    never_read_cut: int = 0  # ... that the server had cut when they were checked
    slowloris: int = 0  # trickling connections opened
    slowloris_408: int = 0  # ... answered 408 and closed
    bombs: int = 0  # replay requests of the bomber
    bomb_statuses: dict[int, int] = field(default_factory=dict)


class ServerProcess:
    """`ddz serve` on one file and port, killed and started again at will."""

    def __init__(self, db: Path, port: int, tables: int, timeouts: float) -> None:
        self.command = [
            sys.executable, "-m", "ddz", "serve", "--port", str(port), "--db", str(db),
            "--max-tables-per-client", str(tables + 10), "--ws-auth-timeout", "2",
            "--max-connections-per-client", str(4 * tables + 64 + HOSTILE_SOCKETS),
            "--header-timeout", str(timeouts), "--body-timeout", str(timeouts),
            "--ws-send-timeout", str(timeouts),
        ]  # fmt: skip
        self.port = port
        self.log = open(db.with_suffix(".log"), "ab")
        self.proc: subprocess.Popen | None = None

    async def start(self) -> None:
        self.proc = subprocess.Popen(self.command, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(400):
            try:
                if (await Http(self.port).request("GET", "/healthz"))[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"ddz serve exited with {self.proc.returncode}")
            await asyncio.sleep(0.05)
        raise RuntimeError("ddz serve did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def rss(self) -> int | None:
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()  # type: ignore[union-attr]
        except (OSError, AttributeError):
            return None
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.log.close()


class Client:
    """Seat 0 of one table: plays, misbehaves, reconnects, checks."""

    def __init__(self, n: int, port: int, args, tally: Tally) -> None:
        self.n, self.port, self.args, self.tally = n, port, args, tally
        self.rng = random.Random(n)
        self.http = Http(port)
        self.preset = PRESETS[n % len(PRESETS)]
        self.acked: dict[int, list[str]] = {}  # own actions acknowledged, per deal
        self.keys: list[tuple[str, str]] = []  # (key, action) acknowledged
        self.view: dict = {}
        self.ws_seen = -1  # the newest version a push carried
        self.ws_live = False  # connected, the current view received
        self.ws_task: asyncio.Future | None = None

    # ---- requests that must succeed, through kills ------------------------
    async def call(self, method: str, path: str, body=None, token=None, resend=True):
        """A request retried until the server answers (it may be down)."""
        while True:
            try:
                status, reply = await self.http.request(method, path, body, token, resend=False)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.http.close()
                self.http = Http(self.port)
                if not resend:
                    return None, None
                self.tally.resent += 1
                await asyncio.sleep(0.1)
                continue
            self.tally.requests += 1
            if status >= 500:
                self.tally.server_errors.append(f"{status} {method} {path}: {reply}")
            return status, reply

    async def open(self) -> None:
        players = PLAYERS.get(self.preset, 3)
        kinds = ("greedy", "random")
        bots = {str(s): kinds[(self.n + s) % 2] for s in range(1, players)}
        # The bots answer inside the request (the request path is what this bench loads).
        body: dict = {"preset": self.preset, "bots": bots, "bot_delay_ms": 0}
        if self.n % 2:
            body["seed"] = self.n  # half the tables seeded, half with secret seeds
        status, made = await self.call("POST", "/tables", body)
        if status != 201:
            raise RuntimeError(f"POST /tables: {status} {made}")
        self.table, self.token, self.owner = made["id"], made["tokens"]["0"], made["owner"]
        self.path = f"/tables/{self.table}"
        await self.refresh()

    async def refresh(self) -> None:
        status, view = await self.call("GET", f"{self.path}/view", token=self.token)
        assert status == 200, (status, view)
        self.view = view

    # ---- the game ---------------------------------------------------------
    async def play(self, stop: float) -> None:
        self.ws_task = asyncio.ensure_future(self.watch())
        key = 0
        while time.monotonic() < stop:
            await asyncio.sleep(self.args.think * self.rng.uniform(0.5, 1.5))
            if self.rng.random() < self.args.bad:
                await self.misbehave()
                continue
            obs = self.view["observation"]
            if obs["phase"] == "over":
                await self.check_deal(self.view["deal"])
                await self.next_deal()
            elif "legal_actions" in obs:
                action = self.rng.choice(obs["legal_actions"])
                body = {"action": action, "key": f"{self.n}-{key}"}
                body.update(self.view["readings"].get(action, [{}])[0])
                key += 1
                status, reply = await self.call("POST", f"{self.path}/actions", body, self.token)
                if status != 200:
                    self.tally.wrong.append(f"{self.table}: action {body}: {status} {reply}")
                    await self.refresh()
                    continue
                self.acked.setdefault(self.view["deal"], []).append(action)
                self.keys.append((body["key"], action))
                self.view = reply
            else:
                await self.refresh()  # not our turn: someone else's (should not happen)

    async def next_deal(self) -> None:
        deal = self.view["deal"]
        status, reply = await self.call("POST", f"{self.path}/next", {}, self.token, resend=False)
        if status == 200:
            self.view = reply
            return
        await self.refresh()  # the reply was lost, or refused: the view says which
        if status is not None and status != 200:
            self.tally.wrong.append(f"{self.table}: next: {status} {reply}")
        if self.view["deal"] not in (deal, deal + 1):
            self.tally.wrong.append(
                f"{self.table}: next from deal {deal} went to {self.view['deal']}"
            )

    async def check_deal(self, deal: int) -> None:
        """The record of a finished deal holds exactly the seat's acknowledged actions."""
        status, record = await self.call("GET", f"{self.path}/record?deal={deal}")
        if status != 200:
            self.tally.wrong.append(f"{self.table}: record of deal {deal}: {status}")
            return
        played = ddz.Game.from_json(json.dumps(record))
        mine = [str(a) for s, a, _ in played.actions if s == 0]
        if mine != self.acked.get(deal, []):
            self.tally.wrong.append(
                f"{self.table} deal {deal}: record has {mine}, acknowledged {self.acked.get(deal)}"
            )
        self.tally.deals_checked += 1

    async def final_check(self) -> None:
        await self.refresh()
        obs = self.view["observation"]
        if obs["phase"] == "over":
            await self.check_deal(self.view["deal"])
        else:  # a redeal restarts the history: the acknowledged end with it
            shown = [entry[1] for entry in obs["history"] if entry[0] == 0]
            acked = self.acked.get(self.view["deal"], [])
            if acked[len(acked) - len(shown) :] != shown or len(shown) > len(acked):
                self.tally.wrong.append(f"{self.table}: history {shown}, acknowledged {acked}")
        for _ in range(50):  # the last pushes may still be on their way
            if not self.ws_live or self.ws_seen >= self.view["version"]:
                break
            await asyncio.sleep(0.1)
        if self.ws_live and self.ws_seen != self.view["version"]:
            self.tally.wrong.append(
                f"{self.table}: pushes reached {self.ws_seen}, the table {self.view['version']}"
            )
        if self.ws_task is not None:
            self.ws_task.cancel()

    # ---- the WebSocket ------------------------------------------------------
    async def watch(self) -> None:
        """Pushes in version order, through drops, kills and reconnects."""
        url = f"ws://127.0.0.1:{self.port}{self.path}/ws"
        while True:
            try:
                async with websockets.connect(url, compression=None, open_timeout=5) as ws:
                    await ws.send(json.dumps({"token": self.token}))
                    first = json.loads(await ws.recv())
                    if first.get("type") != "view" or first["version"] < self.ws_seen:
                        self.tally.wrong.append(f"{self.table}: first push {str(first)[:120]}")
                    self.ws_seen, self.ws_live = first["version"], True
                    drop_at = time.monotonic() + self.rng.uniform(2, 20) * self.args.think * 4
                    while time.monotonic() < drop_at:
                        try:
                            push = json.loads(await asyncio.wait_for(ws.recv(), 1))
                        except asyncio.TimeoutError:
                            continue
                        self.tally.pushes += 1
                        if push["version"] != self.ws_seen + 1:
                            self.tally.wrong.append(
                                f"{self.table}: push {push['version']} after {self.ws_seen}"
                            )
                        self.ws_seen = push["version"]
                    self.ws_live = False
                self.tally.reconnects += 1  # dropped on purpose: open it again
            except (OSError, websockets.exceptions.WebSocketException, asyncio.TimeoutError):
                self.ws_live = False
                await asyncio.sleep(0.2)  # the server is down, or dropped us: reconnect

    # ---- bad requests ---------------------------------------------------------
    async def misbehave(self) -> None:
        """One bad request, and the 4xx it must get."""
        self.tally.bad_requests += 1
        kind = self.rng.randrange(len(BAD_REQUESTS) + 2)
        if kind == len(BAD_REQUESTS):
            return await self.bad_ws(b"\x00binary", "")
        if kind == len(BAD_REQUESTS) + 1:
            return await self.bad_ws(None, "?spectator=banana")
        method, path, body, token, want = BAD_REQUESTS[kind](self)
        status, reply = await self.call(method, path, body, token, resend=False)
        if status is None:
            return  # the server went away meanwhile
        if status != want or status >= 400 and set(reply) != {"error"}:
            self.tally.wrong.append(f"bad request {kind} {path}: {status} {str(reply)[:160]}")

    async def bad_ws(self, frame: bytes | None, query: str) -> None:
        """A binary frame, or a bad query: the close code must be 4400."""
        url = f"ws://127.0.0.1:{self.port}{self.path}/ws{query}"
        kills = self.tally.kills
        try:
            async with websockets.connect(url, open_timeout=5) as ws:
                if frame is not None:
                    await ws.send(json.dumps({"token": self.token}))
                    await ws.recv()  # the view
                    await ws.send(frame)
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 5)
                except websockets.exceptions.ConnectionClosed:
                    pass
        except (OSError, websockets.exceptions.WebSocketException, asyncio.TimeoutError):
            return  # the server went away meanwhile
        if ws.close_code != 4400 and self.tally.kills == kills:
            self.tally.wrong.append(f"bad WebSocket {query or frame!r}: closed {ws.close_code}")


def _late_action(c: Client) -> tuple:
    """An illegal action, or after the deal an action at all: 409."""
    key = f"bad-{c.rng.random()}"
    return ("POST", f"{c.path}/actions", {"action": "zz", "key": key}, c.token, 409)


def _reused_key(c: Client) -> tuple:
    if not c.keys:
        return _late_action(c)
    key, action = c.rng.choice(c.keys)
    return ("POST", f"{c.path}/actions", {"action": action + "x", "key": key}, c.token, 409)


def _early_next(c: Client) -> tuple:
    if c.view["observation"]["phase"] == "over":
        return _late_action(c)  # a next would be legal now
    return ("POST", f"{c.path}/next", {}, c.token, 409)


def _early_record(c: Client) -> tuple:
    over = c.view["observation"]["phase"] == "over"
    return ("GET", f"{c.path}/record?deal={c.view['deal']}", None, None, 200 if over else 403)


COSTLY = {"decks": 3, "players": 2, "hand_size": 75, "kitty": 14}
#: Each: a client -> (method, path, body, token, the status it must get).
BAD_REQUESTS = [
    lambda c: ("POST", f"{c.path}/actions", b'{"action": "pass", "key":', c.token, 400),
    lambda c: ("POST", f"{c.path}/actions", {"action": "pass", "key": "x"}, "wrong-token", 403),
    lambda c: ("GET", f"{c.path}/view", None, None, 401),
    lambda c: ("GET", "/tables/no-such-table/view", None, c.token, 404),
    lambda c: ("POST", "/tables", {"preset": "classic", "bots": {"01": "greedy"}}, None, 422),
    lambda c: ("POST", "/tables", {"preset": "laizi", "options": COSTLY}, None, 422),
    lambda c: ("POST", f"{c.path}/actions", b"{" + b" " * 20_000 + b"}", c.token, 413),
    _late_action,
    _reused_key,
    _early_next,
    _early_record,
]


def bomb_records() -> tuple[list[bytes], list[bytes]]:
    """(bombs the server must refuse, honest records it replays)."""
    rules = ddz.Rules("laizi", decks=4, players=2, hand_size=109, kitty=0)
    stopped = ddz.Game(rules, seed=1)
    stopped.step(stopped.legal_actions()[-1])  # the auction over: the next lead is 1.78M plays

    def finished(rules: ddz.Rules, seed: int) -> bytes:
        game = ddz.Game(rules, seed=seed)
        while game.phase != "over":
            legal = game.legal_actions()
            game.step(legal[-1] if game.phase != "play" else legal[0])
        return game.to_json().encode()

    kickers = dict(trio_single=True, plane_singles=True, four_two_singles=True,
                   four_two_pairs=True, joker_pairs=True, joker_trio_pair=True)  # fmt: skip
    over_limit = finished(  # over 20,000 leads a hand: refused by the cost search
        ddz.Rules("classic", players=6, decks=4, hand_size=34, kitty=12, **kickers), 1
    )
    honest = [finished(ddz.Rules(p), seed) for p in ("classic", "laizi") for seed in range(10)]
    return [stopped.to_json().encode(), over_limit], honest


class Hostile:
    """The clients that misbehave on purpose, each kind `--hostile` times."""

    def __init__(self, port: int, clients: list[Client], tally: Tally) -> None:
        self.port, self.clients, self.tally = port, clients, tally
        self.rng = random.Random(53)
        self.bombs, self.honest = bomb_records()

    async def never_read(self, stop: float) -> None:
        """Subscribe, then read nothing for NEVER_READ_HOLD s; then see if we were cut."""
        while time.monotonic() < stop:
            client = self.rng.choice(self.clients)
            try:
                sock = socket.socket()
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
                sock.setblocking(False)
                await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port))
                reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
                writer.write(
                    f"GET {client.path}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode()
                )
                await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
                writer.write(_masked_text(json.dumps({"token": client.token})))
                self.tally.never_read += 1
                await asyncio.sleep(min(NEVER_READ_HOLD, max(0.0, stop - time.monotonic())))
                try:  # read at last: a cut connection ends (EOF or a reset) at once
                    while await asyncio.wait_for(reader.read(1 << 16), 2):
                        pass
                    self.tally.never_read_cut += 1
                except (ConnectionError, OSError):
                    self.tally.never_read_cut += 1
                except asyncio.TimeoutError:
                    pass  # still open: a quiet table sends too little to fill a buffer
                writer.close()
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                await asyncio.sleep(0.2)  # the server is down (a kill): again

    async def slowloris(self, stop: float) -> None:
        """A header a byte a second, until the server answers 408 and hangs up."""
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                self.tally.slowloris += 1
                for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
                    writer.write(bytes([byte]))
                    try:
                        answer = await asyncio.wait_for(reader.read(4096), 1.0)
                    except asyncio.TimeoutError:
                        continue
                    if answer.startswith(b"HTTP/1.1 408"):
                        self.tally.slowloris_408 += 1
                    elif answer:
                        self.tally.wrong.append(f"slowloris answered {answer[:60]!r}")
                    break
                writer.close()
            except (OSError, asyncio.IncompleteReadError):
                await asyncio.sleep(0.2)

    async def bomber(self, stop: float) -> None:
        http = Http(self.port)
        while time.monotonic() < stop:
            await asyncio.sleep(self.rng.uniform(0.1, 0.4))
            bomb = self.rng.random() < 0.5
            record = self.rng.choice(self.bombs if bomb else self.honest)
            try:
                status, reply = await http.request("POST", "/replays", record, resend=False)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                http.close()
                http = Http(self.port)
                await asyncio.sleep(0.2)
                continue
            self.tally.bombs += 1
            self.tally.bomb_statuses[status] = self.tally.bomb_statuses.get(status, 0) + 1
            if status >= 500:
                self.tally.server_errors.append(f"{status} POST /replays: {reply}")
            elif status not in ((422, 429) if bomb else (200, 429)):
                self.tally.wrong.append(f"replay {'bomb' if bomb else 'record'}: {status}")
        http.close()

    async def healthz(self, stop: float) -> None:
        http = Http(self.port)
        while time.monotonic() < stop:
            await asyncio.sleep(0.1)
            start = time.perf_counter()
            try:
                status, _ = await http.request("GET", "/healthz", resend=False)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                http.close()
                http = Http(self.port)
                continue  # down for a kill: not a latency
            if status == 200:
                self.tally.healthz.append(time.perf_counter() - start)
        http.close()


def _masked_text(text: str) -> bytes:
    """A client's WebSocket text frame (masked, as a client's must be)."""
    data, mask = text.encode(), b"\x01\x02\x03\x04"
    assert len(data) < 126
    return (
        bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    )


async def soak(args) -> Tally:
    tally = Tally()
    db = Path(tempfile.mkdtemp()) / "soak.sqlite3"
    server = ServerProcess(db, free_port(), args.tables, args.timeouts)
    await server.start()
    try:
        clients = [Client(n, server.port, args, tally) for n in range(args.tables)]
        for batch in range(0, len(clients), 50):
            await asyncio.gather(*(c.open() for c in clients[batch : batch + 50]))
        t0 = time.monotonic()
        stop = t0 + args.seconds

        async def sample() -> None:
            while True:
                rss = server.rss()
                if rss is not None:
                    tally.rss.append((time.monotonic() - t0, rss))
                await asyncio.sleep(args.sample)

        async def killer() -> None:
            while time.monotonic() + args.kill_every < stop + 0.5:
                await asyncio.sleep(args.kill_every)
                server.kill9()
                tally.kills += 1
                await asyncio.sleep(0.2)  # requests in flight die with it
                await server.start()

        tasks = [asyncio.ensure_future(sample()), asyncio.ensure_future(killer())]
        hostile = Hostile(server.port, clients, tally)
        for _ in range(args.hostile):
            for kind in (hostile.never_read, hostile.slowloris, hostile.bomber):
                tasks.append(asyncio.ensure_future(kind(stop)))
        tasks.append(asyncio.ensure_future(hostile.healthz(stop)))
        results = await asyncio.gather(*(c.play(stop) for c in clients), return_exceptions=True)
        for task in tasks:
            task.cancel()
        tally.wrong += [f"client crashed: {r!r}" for r in results if isinstance(r, BaseException)]
        await asyncio.sleep(0.5)  # the last pushes arrive
        await asyncio.gather(*(c.final_check() for c in clients))
    finally:
        server.stop()
    return tally


def rss_growth(samples: list[tuple[float, int]], seconds: float) -> tuple[int, int, int]:
    """(median RSS of the run's second fifth, of its last fifth, the allowed growth)."""

    def median_between(lo: float, hi: float) -> int:
        inside = [r for t, r in samples if lo * seconds <= t <= hi * seconds]
        return int(statistics.median(inside)) if inside else 0

    early, late = median_between(0.2, 0.4), median_between(0.8, 1.0)
    return early, late, max(RSS_SLACK_BYTES, int(RSS_SLACK_SHARE * early))


def check(tally: Tally, seconds: float, hostile: int = 0) -> list[str]:
    """What went wrong: empty when every property held."""
    problems = [f"5xx: {e}" for e in tally.server_errors] + tally.wrong
    early, late, slack = rss_growth(tally.rss, seconds)
    if not early or not late:
        problems.append(f"too few memory samples ({len(tally.rss)})")
    elif late - early > slack:
        problems.append(f"server memory grew from {early >> 20} MiB to {late >> 20} MiB")
    if tally.deals_checked == 0:
        problems.append("no deal was finished and checked")
    if hostile and not (tally.slowloris_408 and tally.bombs and tally.never_read):
        problems.append("the hostile clients did too little to test (or were never answered)")
    return problems


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(args, tally: Tally) -> None:
    early, late, _ = rss_growth(tally.rss, args.seconds)
    rss = [r for _, r in tally.rss]
    print(f"{args.tables} tables, {args.seconds:g} s, {tally.kills} kill -9 and restarts")
    print(f"requests {tally.requests:,} ({tally.bad_requests:,} bad on purpose)")
    print(f"resent after a kill {tally.resent:,}, WebSocket reconnects {tally.reconnects:,}")
    print(f"deals checked {tally.deals_checked:,}, pushes {tally.pushes:,}")
    print(f"5xx {len(tally.server_errors)}, wrong answers / lost / doubled {len(tally.wrong)}")
    if rss:
        print(
            f"server RSS: min {min(rss) >> 20} MiB, max {max(rss) >> 20} MiB; median of the "
            f"second fifth {early >> 20} MiB, of the last fifth {late >> 20} MiB"
        )
    if args.hostile:
        print(
            f"hostile: never-reading WebSockets {tally.never_read:,} (found cut "
            f"{tally.never_read_cut:,}), slowloris {tally.slowloris:,} "
            f"(408 {tally.slowloris_408:,}), replays {tally.bombs:,} by status "
            f"{dict(sorted(tally.bomb_statuses.items()))}"
        )
    h = tally.healthz
    if h:
        print(
            f"/healthz: {len(h):,} answered, p50 {1e3 * percentile(h, 0.5):.1f} ms, "
            f"p99 {1e3 * percentile(h, 0.99):.1f} ms, max {1e3 * max(h):.1f} ms"
        )
    for line in (tally.server_errors + tally.wrong)[:10]:
        print("  ", line)


def options(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--kill-every", type=float, default=120, metavar="SECONDS")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds between actions")
    parser.add_argument("--bad", type=float, default=0.1, help="share of requests that are bad")
    parser.add_argument("--sample", type=float, default=2.0, help="seconds between RSS samples")
    parser.add_argument(
        "--hostile", type=int, default=10, help="clients of each hostile kind (0: none)"
    )
    parser.add_argument(
        "--timeouts", type=float, default=10.0, metavar="SECONDS",
        help="the server's header, body and WebSocket send timeouts",
    )  # fmt: skip
    return parser.parse_args(argv)


#: The short run pytest makes: the same checks in a few seconds.
SHORT = ["--tables", "40", "--seconds", "8", "--kill-every", "4", "--think", "0.05",
         "--bad", "0.15", "--sample", "0.2", "--hostile", "2", "--timeouts", "1"]  # fmt: skip


def test_soak() -> None:
    args = options([] if os.environ.get("DDZ_SOAK") == "full" else SHORT)
    tally = asyncio.run(soak(args))
    report(args, tally)
    assert tally.kills >= 1 and tally.bad_requests > 0 and tally.requests > 0
    assert check(tally, args.seconds, args.hostile) == []


def main() -> None:
    args = options()
    tally = asyncio.run(soak(args))
    report(args, tally)
    problems = check(tally, args.seconds, args.hostile)
    print("OK" if not problems else f"FAILED: {len(problems)} problems")
    raise SystemExit(1 if problems else 0)


if __name__ == "__main__":
    main()
