"""Bench of the turn clock: many clocked tables in one `ddz serve` process,
nobody acting, so every turn ends by the server's timeout.

    python benches/serve_clock.py [--tables 1000] [--turn 1.0] [--seconds 20] [--watch 200]
                                  [--in-process]

Each table is classic with three people and no bots, `turn_seconds` =
`--turn` and `autoplay_after` 0 (no 托管: every turn is a timeout, a pass
where one is allowed, else the greedy bot's play). `--watch` of them get a
spectator WebSocket. For every push that a timeout caused, the bench takes
the time the push arrived less the deadline the view before it announced:
that bounds from above how late the timeout fired, and is the push latency
a client sees. `/healthz` is timed alongside. Prints one JSON line.

`--in-process` takes the server alone, without HTTP or a client: the
lobby in this process, a spectator queue on every table (its pushes are
built and queued, never sent), and for every timeout the time its timer
fired and the time its change was committed and its push queued, each
less the deadline.

Not a test: it runs for `--seconds` and its figures depend on the machine
(docs/performance.md, The turn clock).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def watch(url: str, late: list[float], stop: float) -> int:
    """Spectate one table; the lateness (ms) of every push after a deadline."""
    pushes = 0
    async with websockets.connect(url, max_queue=None) as ws:
        deadline = None
        while time.time() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.1, stop - time.time()))
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                break
            now_ms = time.time() * 1000
            view = json.loads(text)
            if deadline is not None:
                late.append(now_ms - deadline)
            clock = view.get("clock")
            deadline = clock["deadline_ms"] if clock else None
            pushes += 1
    return pushes


async def health(base: str, stop: float, times: list[float]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        while time.time() < stop:
            t = time.perf_counter()
            await http.get("/healthz")
            times.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.1)


async def run(args: argparse.Namespace, base: str) -> dict:
    body = {"preset": "classic", "turn_seconds": args.turn, "autoplay_after": 0}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ids = []
        for i in range(args.tables):
            reply = await http.post("/tables", json={**body, "seed": i})
            assert reply.status_code == 201, reply.text
            ids.append(reply.json()["id"])
    stop = time.time() + args.seconds
    late: list[float] = []
    health_ms: list[float] = []
    ws_base = base.replace("http", "ws")
    watchers = [
        watch(f"{ws_base}/tables/{t}/ws?spectator=true", late, stop) for t in ids[: args.watch]
    ]
    pushes = await asyncio.gather(*watchers, health(base, stop, health_ms))
    over = sum(1 for x in late if x > 100)
    return {
        "tables": args.tables,
        "turn_seconds": args.turn,
        "seconds": args.seconds,
        "watched": args.watch,
        "timeouts_seen": len(late),
        "pushes": sum(p for p in pushes if p),
        "late_ms_p50": round(percentile(late, 0.5), 1),
        "late_ms_p99": round(percentile(late, 0.99), 1),
        "late_ms_max": round(max(late, default=float("nan")), 1),
        "over_100ms": over,
        "healthz_ms_p50": round(statistics.median(health_ms), 1) if health_ms else None,
        "healthz_ms_p99": round(percentile(health_ms, 0.99), 1),
    }


async def in_process(args: argparse.Namespace, db: str) -> dict:
    from ddz.serve.hub import Hub, Subscriber
    from ddz.serve.limits import Limits
    from ddz.serve.lobby import Lobby
    from ddz.serve.store import Store

    n = args.tables + 10
    lobby = Lobby(Store(db), Hub(), Limits(max_tables=n, max_tables_per_client=n))
    room = {"turn_seconds": args.turn, "autoplay_after": 0}
    for i in range(args.tables):
        table, _, _ = await lobby.create("classic", {}, i, None, {}, "bench", room)
        lobby.hub.join(table.id, Subscriber(None, None))  # type: ignore[arg-type]  # never sent
    fired: list[float] = []
    queued: list[float] = []
    wake, tick = lobby._wake, lobby._tick

    def timed_wake(table_id: str, version: int) -> None:
        clock = lobby.open[table_id].clock
        if clock is not None:
            fired.append(time.time() * 1000 - clock["deadline_ms"])
        wake(table_id, version)

    async def timed_tick(table_id: str, version: int) -> None:
        clock = lobby.open[table_id].clock
        await tick(table_id, version)
        if clock is not None:
            queued.append(time.time() * 1000 - clock["deadline_ms"])

    lobby._wake = timed_wake  # type: ignore[method-assign]
    lobby._tick = timed_tick  # type: ignore[method-assign]
    for table in lobby.open.values():  # re-arm with the timed callbacks
        lobby._timers.pop(table.id)[1].cancel()
        lobby._schedule(table)
    cpu = time.process_time()
    await asyncio.sleep(args.seconds)
    cpu = time.process_time() - cpu
    lobby.shutdown()
    return {
        "in_process": True,
        "tables": args.tables,
        "turn_seconds": args.turn,
        "seconds": args.seconds,
        "timeouts": len(queued),
        "fired_late_ms_p50": round(percentile(fired, 0.5), 1),
        "fired_late_ms_p99": round(percentile(fired, 0.99), 1),
        "fired_late_ms_max": round(max(fired, default=float("nan")), 1),
        "fired_over_100ms": sum(1 for x in fired if x > 100),
        "queued_late_ms_p50": round(percentile(queued, 0.5), 1),
        "queued_late_ms_p99": round(percentile(queued, 0.99), 1),
        "queued_late_ms_max": round(max(queued, default=float("nan")), 1),
        "cpu_share_of_one_core": round(cpu / args.seconds, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--turn", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--watch", type=int, default=200)
    parser.add_argument("--in-process", action="store_true", help="the server alone, no HTTP")
    args = parser.parse_args()
    if args.in_process:
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(in_process(args, str(Path(tmp) / "clock.sqlite3")))
        result["cpus"] = os.cpu_count()
        print(json.dumps(result))
        return
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "clock.sqlite3"
        n = str(args.tables + 10)
        cmd = [sys.executable, "-m", "ddz", "serve", "--port", str(port), "--db", str(db)]
        cmd += ["--max-tables", n, "--max-tables-per-client", n]
        # Every client is this one address: lift its cap on connections too.
        cmd += ["--max-connections-per-client", str(4 * args.tables + 64)]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    if httpx.get(f"{base}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            result = asyncio.run(run(args, base))
            result["cpus"] = os.cpu_count()
            print(json.dumps(result))
        finally:
            server.terminate()
            server.wait(15)


if __name__ == "__main__":
    main()
