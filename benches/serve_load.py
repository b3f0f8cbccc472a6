"""Load bench for `ddz serve` (not a test): tables against bots, one
WebSocket client each, playing continuously on localhost.

    python benches/serve_load.py [--tables 200] [--seconds 60] [--think 0]
                                 [--preset classic] [--sync normal|full]

Each client owns one seat of its table (the other seats are greedy bots),
listens on the table's WebSocket and posts a random legal action whenever
it is its turn, and the next deal when one ends, for the whole run. With
`--think 0` (the default) a client answers the moment the push that makes
it its turn arrives: a closed loop, so the time to a push is mostly the
queue of the other clients' requests. `--think S` makes each client wait a
uniform 0.5 S to 1.5 S before each action, as a person would.

The tables are created and every WebSocket is open before the clock
starts. Measured over the run: actions per second (the clients' and the
bots'), the time from posting an action to the push of its view (p50,
p99), errors, lost or duplicated actions (every push must carry the next
version, and each table's final version must be the last one its client
saw), the server's and the bench client's CPU per client action, and the
machine's load average (other jobs share it).

`--in-process N` measures instead the server's CPU for N client actions
with no sockets at all: requests go straight into the ASGI app, with one
subscriber per table so every step's push is built and queued (not sent).
Process CPU time is steady on a shared machine where wall time is not.

The client speaks HTTP/1.1 over one keep-alive connection per table
itself (`Http`): httpx cost the bench twice the server's CPU per request,
and on a shared 2-core machine the client's CPU is taken from the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serve_helpers import free_port  # noqa: E402

PLAYERS = {"classic": 3, "laizi": 3, "two-player": 2, "four-player": 4}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Http:
    """One keep-alive HTTP/1.1 connection to the server. A request whose
    connection the server had closed (idle keep-alive) is sent again on a
    new one: the actions carry idempotency keys, so a resend is safe."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.resent = 0

    async def request(
        self, method: str, path: str, body=None, token: str | None = None, resend: bool = True
    ):
        """(status, JSON body). `resend=False`: a dropped connection raises
        at once (for requests the caller must not repeat blindly)."""
        if body is None or isinstance(body, bytes):
            data = body or b""  # bytes go as they are: a malformed body on purpose
        else:
            data = json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        message = head.encode() + b"\r\n" + data
        for attempt in (0, 1) if resend else (1,):
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.streams
            try:
                writer.write(message)
                status_line = await reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed by the server")
                return await self._reply(reader, status_line)
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                self.streams = None
                if attempt:
                    raise
                self.resent += 1
        raise AssertionError("unreachable")

    @staticmethod
    async def _reply(reader: asyncio.StreamReader, status_line: bytes) -> tuple[int, dict]:
        status = int(status_line.split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = await reader.readexactly(length)
        try:
            return status, json.loads(body) if body else {}
        except ValueError:
            return status, {"error": f"not JSON: {body[:80]!r}"}

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.requests = 0
        self.errors: list[str] = []
        self.lost = 0
        self.duplicated = 0
        self.table_actions = 0
        self.resent = 0


class Client:
    """One table: its creation, its WebSocket, and the seat-0 player."""

    def __init__(self, n: int, port: int, args, stats: Stats) -> None:
        self.n, self.port, self.args, self.stats = n, port, args, stats
        self.rng = random.Random(n)
        self.http = Http(port)

    async def open(self) -> None:
        players = PLAYERS.get(self.args.preset, 3)
        bots = {str(s): "greedy" for s in range(1, players)}
        status, made = await self.http.request(
            "POST",
            "/tables",
            # The bots answer inside the request: the bench loads the request path.
            {"preset": self.args.preset, "seed": self.n, "bots": bots, "bot_delay_ms": 0},
        )
        if status != 201:
            raise RuntimeError(f"POST /tables: {status} {made}")
        self.table, self.token = made["id"], made["tokens"]["0"]
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/tables/{self.table}/ws?token={self.token}",
            compression=None,
        )
        self.view = json.loads(await self.ws.recv())
        self.seen = self.view["version"]

    async def until(self, version: int) -> float:
        """Read pushes up to `version`; the time the first one arrived."""
        stats, first = self.stats, None
        while self.seen < version:
            push = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if first is None:
                first = time.perf_counter()
            if push["version"] == self.seen + 1:
                self.seen, self.view = push["version"], push
            elif push["version"] <= self.seen:
                stats.duplicated += 1
            else:
                stats.lost += push["version"] - self.seen - 1
                self.seen, self.view = push["version"], push
        return first if first is not None else time.perf_counter()

    async def play(self, stop: float) -> None:
        stats, think, key = self.stats, self.args.think, 0
        start = self.seen
        path = f"/tables/{self.table}"
        while time.perf_counter() < stop:
            if think:
                await asyncio.sleep(think * self.rng.uniform(0.5, 1.5))
            obs = self.view["observation"]
            t0 = time.perf_counter()
            if obs["phase"] == "over":
                status, reply = await self.http.request("POST", f"{path}/next", {}, self.token)
            else:
                action = self.rng.choice(obs["legal_actions"])
                body = {"action": action, "key": f"{self.n}-{key}"}
                if action in self.view.get("readings", {}):
                    body.update(self.view["readings"][action][0])
                key += 1
                status, reply = await self.http.request("POST", f"{path}/actions", body, self.token)
            stats.requests += 1
            if status != 200:
                stats.errors.append(f"{status} {str(reply)[:200]}")
                return
            pushed = await self.until(self.seen + 1)
            stats.latencies.append(pushed - t0)
            await self.until(reply["version"])
        status, final = await self.http.request("GET", f"{path}/view", token=self.token)
        if final["version"] != self.seen:
            stats.errors.append(
                f"table {self.table}: server at version {final['version']}, client saw {self.seen}"
            )
        stats.table_actions += final["version"] - start

    async def close(self) -> None:
        self.stats.resent += self.http.resent
        self.http.close()
        await self.ws.close()


async def wait_up(port: int) -> None:
    for _ in range(300):
        try:
            if (await Http(port).request("GET", "/healthz"))[0] == 200:
                return
        except OSError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def run(args) -> dict:
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "load.sqlite3"
    command = [sys.executable, "-m", "ddz", "serve", "--port", str(port), "--db", str(db)]
    # Every table is made from this one address: lift the per-client limit.
    command += ["--max-tables-per-client", str(max(args.tables, 1))]
    # ... and its connections: one kept-alive HTTP connection and one WebSocket a table.
    command += ["--max-connections-per-client", str(4 * args.tables + 64)]
    server = subprocess.Popen([*command, "--sync", args.sync])
    stats = Stats()
    try:
        await wait_up(port)
        clients = [Client(n, port, args, stats) for n in range(args.tables)]
        for batch in range(0, len(clients), 50):  # under the server's listen backlog
            await asyncio.gather(*(c.open() for c in clients[batch : batch + 50]))
        loads = [os.getloadavg()[0]]
        t0 = time.perf_counter()
        stop = t0 + args.seconds
        cpu0, own0 = cpu_seconds(server.pid), time.process_time()

        async def sample_load() -> None:
            while True:
                await asyncio.sleep(5)
                loads.append(os.getloadavg()[0])

        sampler = asyncio.ensure_future(sample_load())
        results = await asyncio.gather(*(c.play(stop) for c in clients), return_exceptions=True)
        elapsed = time.perf_counter() - t0
        server_cpu = cpu_seconds(server.pid) - cpu0
        client_cpu = time.process_time() - own0
        sampler.cancel()
        stats.errors += [repr(r) for r in results if isinstance(r, BaseException)]
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    finally:
        server.terminate()
        server.wait(10)
    return {
        "stats": stats,
        "elapsed": elapsed,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "loads": loads,
    }


async def asgi_call(app, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    """One request through the ASGI app itself, as uvicorn would make it."""
    data = b"" if body is None else json.dumps(body).encode()
    headers = [(b"host", b"127.0.0.1"), (b"content-length", str(len(data)).encode())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    messages = [{"type": "http.request", "body": data, "more_body": False}]
    reply: dict = {"body": b""}

    async def receive():
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            reply["status"] = message["status"]
        else:
            reply["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return reply["status"], json.loads(reply["body"])


async def in_process(args) -> None:
    from ddz.serve import create_app
    from ddz.serve.hub import Subscriber
    from ddz.serve.limits import Limits

    # One client makes every table here, so lift the per-client limit as
    # the subprocess run does with --max-tables-per-client.
    limits = Limits(max_tables_per_client=max(args.tables, 1))
    app = create_app(
        db=str(Path(tempfile.mkdtemp()) / "cpu.sqlite3"),
        synchronous=args.sync.upper(),
        limits=limits,
    )
    lobby, rng, key = app.state.lobby, random.Random(1), 0
    bots = {str(s): "greedy" for s in range(1, PLAYERS.get(args.preset, 3))}
    tables = []
    for n in range(args.tables):
        _, made = await asgi_call(
            app,
            "POST",
            "/tables",
            {"preset": args.preset, "seed": n, "bots": bots, "bot_delay_ms": 0},
        )
        lobby.hub.join(made["id"], Subscriber(None, 0))  # type: ignore[arg-type]  # never sent to
        _, view = await asgi_call(
            app, "GET", f"/tables/{made['id']}/view", token=made["tokens"]["0"]
        )
        tables.append([made["id"], made["tokens"]["0"], view])

    async def play(count: int) -> None:
        nonlocal key
        for i in range(count):
            entry = tables[i % len(tables)]
            table, token, view = entry
            if view["observation"]["phase"] == "over":
                status, entry[2] = await asgi_call(app, "POST", f"/tables/{table}/next", {}, token)
            else:
                action = rng.choice(view["observation"]["legal_actions"])
                body = {
                    "action": action,
                    "key": str(key),
                    **view.get("readings", {}).get(action, [{}])[0],
                }
                key += 1
                status, entry[2] = await asgi_call(
                    app, "POST", f"/tables/{table}/actions", body, token
                )
            if status != 200:
                raise RuntimeError(f"{status} {entry[2]}")
            for subs in lobby.hub.tables.values():
                for sub in subs:
                    while not sub.queue.empty():
                        sub.queue.get_nowait()

    await play(len(tables) * 4)  # warm up
    cpu = time.process_time()
    await play(args.in_process)
    cpu = time.process_time() - cpu
    print(
        f"{args.tables} tables, {args.preset}, {args.in_process} client actions"
        f" in process, sync={args.sync}"
    )
    print(
        f"server CPU             {1000 * cpu / args.in_process:.3f} ms"
        " per client action (no sockets)"
    )
    print(f"load average (1 min)   {os.getloadavg()[0]:.1f} (2 cores)")


def report(args, out: dict) -> None:
    stats, elapsed = out["stats"], out["elapsed"]
    lat = sorted(stats.latencies)

    def p(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else 0.0

    per = max(1, stats.requests)
    loads = out["loads"]
    print(
        f"{args.tables} tables, {args.preset}, {elapsed:.1f} s, think {args.think} s,"
        f" sync={args.sync}"
    )
    print(f"client actions/s       {stats.requests / elapsed:,.1f}")
    print(f"table actions/s        {stats.table_actions / elapsed:,.1f}  (clients' and bots')")
    print(f"action -> push  p50    {p(0.50):.1f} ms")
    print(f"action -> push  p99    {p(0.99):.1f} ms")
    print(f"                mean   {1000 * statistics.fmean(lat) if lat else 0:.1f} ms")
    print(
        f"server CPU             {out['server_cpu']:.1f} s"
        f" ({100 * out['server_cpu'] / elapsed:.0f}% of one core),"
        f" {1000 * out['server_cpu'] / per:.2f} ms per client action"
    )
    print(f"bench client CPU       {1000 * out['client_cpu'] / per:.2f} ms per client action")
    print(
        f"load average (1 min)   {loads[0]:.1f} at start, {statistics.fmean(loads):.1f} mean,"
        f" {max(loads):.1f} max (2 cores)"
    )
    print(
        f"errors {len(stats.errors)}, lost {stats.lost}, duplicated {stats.duplicated}"
        f" (requests resent on a closed keep-alive connection: {stats.resent})"
    )
    for e in stats.errors[:5]:
        print("  ", e)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client waits before each action"
    )
    parser.add_argument("--preset", default="classic", choices=sorted(PLAYERS))
    parser.add_argument("--sync", choices=["normal", "full"], default="normal")
    parser.add_argument(
        "--in-process", type=int, default=0, metavar="N", help="CPU of N actions, no sockets"
    )
    args = parser.parse_args()
    if args.in_process:
        asyncio.run(in_process(args))
        return
    try:
        import uvloop  # comes with uvicorn[standard]: a cheaper event loop for the clients
    except ImportError:
        uvloop = None
    out = uvloop.run(run(args)) if uvloop else asyncio.run(run(args))
    report(args, out)


if __name__ == "__main__":
    main()
