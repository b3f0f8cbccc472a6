"""Load bench for `ddz serve` (not a test): tables against bots, one
WebSocket client each, playing continuously on localhost.

    python benches/serve_load.py [--tables 200] [--seconds 60] [--preset classic]

Each client owns one seat of its table (the other seats are greedy bots),
listens on the table's WebSocket and posts a random legal action whenever
it is its turn, and the next deal when one ends. Measured: actions per
second (the clients' and the bots'), the time from posting an action to the
push of its view (p50, p99), errors, and lost or duplicated actions: every
push must carry the next version, and each table's final version must be
what its client saw last.
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

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serve_helpers import free_port  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.requests = 0
        self.errors: list[str] = []
        self.lost = 0
        self.duplicated = 0
        self.final_versions = 0
        self.elapsed = 0.0
        self.server_cpu = 0.0


async def client(n: int, http: httpx.AsyncClient, ws_base: str, args, stats: Stats, stop: float):
    rng = random.Random(n)
    players = {"classic": 3, "laizi": 3, "two-player": 2, "four-player": 4}.get(args.preset, 3)
    bots = {str(s): "greedy" for s in range(1, players)}
    made = await http.post("/tables", json={"preset": args.preset, "seed": n, "bots": bots})
    table, token = made.json()["id"], made.json()["tokens"]["0"]
    auth = {"Authorization": f"Bearer {token}"}
    async with websockets.connect(f"{ws_base}/tables/{table}/ws?token={token}") as ws:
        view = json.loads(await ws.recv())
        seen = view["version"]

        async def until(version: int) -> float:
            """Read pushes up to `version`; the time the first one arrived."""
            nonlocal seen, view
            first = None
            while seen < version:
                push = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if first is None:
                    first = time.perf_counter()
                if push["version"] == seen + 1:
                    seen, view = push["version"], push
                elif push["version"] <= seen:
                    stats.duplicated += 1
                else:
                    stats.lost += push["version"] - seen - 1
                    seen, view = push["version"], push
            return first if first is not None else time.perf_counter()

        key = 0
        while time.perf_counter() < stop:
            obs = view["observation"]
            t0 = time.perf_counter()
            if obs["phase"] == "over":
                reply = await http.post(f"/tables/{table}/next", headers=auth)
            else:
                action = rng.choice(obs["legal_actions"])
                body = {"action": action, "key": f"{n}-{key}"}
                if action in view.get("readings", {}):
                    body.update(view["readings"][action][0])
                key += 1
                reply = await http.post(f"/tables/{table}/actions", json=body, headers=auth)
            stats.requests += 1
            if reply.status_code != 200:
                stats.errors.append(f"{reply.status_code} {reply.text[:200]}")
                return
            target = reply.json()["version"]
            pushed = await until(seen + 1)
            stats.latencies.append(pushed - t0)
            await until(target)
        final = (await http.get(f"/tables/{table}/view", headers=auth)).json()["version"]
        if final != seen:
            stats.errors.append(f"table {table}: server at version {final}, client saw {seen}")
        stats.final_versions += final


async def run(args) -> Stats:
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "load.sqlite3"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ddz",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--sync",
            args.sync,
        ],
    )
    stats = Stats()
    try:
        # Drop idle connections before uvicorn does (it closes them after 5 s):
        # reusing one the server is closing fails the request with ReadError.
        limits = httpx.Limits(
            max_connections=args.tables, max_keepalive_connections=args.tables, keepalive_expiry=2
        )
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=30, limits=limits
        ) as http:
            for _ in range(200):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            stop = time.perf_counter() + args.seconds
            t0 = time.perf_counter()
            cpu0 = cpu_seconds(server.pid)
            results = await asyncio.gather(
                *(
                    client(n, http, f"ws://127.0.0.1:{port}", args, stats, stop)
                    for n in range(args.tables)
                ),
                return_exceptions=True,
            )
            elapsed = time.perf_counter() - t0
            stats.server_cpu = cpu_seconds(server.pid) - cpu0
            for r in results:
                if isinstance(r, BaseException):
                    stats.errors.append(repr(r))
            stats.elapsed = elapsed
    finally:
        server.terminate()
        server.wait(10)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--sync", choices=["normal", "full"], default="normal")
    args = parser.parse_args()
    stats = asyncio.run(run(args))
    lat = sorted(stats.latencies)
    elapsed = stats.elapsed
    p = (lambda q: 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]) if lat else (lambda q: 0.0)
    print(f"{args.tables} tables, {args.preset}, {elapsed:.1f} s, sync={args.sync}")
    print(f"client requests/s      {stats.requests / elapsed:,.0f}")
    print(f"table actions/s        {stats.final_versions / elapsed:,.0f}  (clients' and bots')")
    print(f"action -> push  p50    {p(0.50):.1f} ms")
    print(f"action -> push  p99    {p(0.99):.1f} ms")
    print(f"                mean   {1000 * statistics.fmean(lat) if lat else 0:.1f} ms")
    print(
        f"server CPU             {stats.server_cpu:.1f} s ({100 * stats.server_cpu / elapsed:.0f}%"
        f" of one core), {1000 * stats.server_cpu / max(1, stats.requests):.2f} ms per request"
    )
    print(f"load average after     {os.getloadavg()[0]:.1f} (2 cores)")
    print(f"errors {len(stats.errors)}, lost {stats.lost}, duplicated {stats.duplicated}")
    for e in stats.errors[:5]:
        print("  ", e)


if __name__ == "__main__":
    main()
