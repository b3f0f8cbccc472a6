"""/healthz while replay bombs land: the issue-53 measurement.

    python benches/serve_replay_bombs.py [--seconds 20] [--senders 4] [--no-limits]

Starts `ddz serve` and runs `--senders` clients that each post, back to
back, a record to `POST /replays`: the issue's bomb (a laizi rule set of
four decks and 109-card hands stopped after the auction, whose next lead
offers 1.78 million plays), a finished record over the cost limits, or
an honest laizi or classic deal (a different one each time, so no cache
helps). A sampler times `GET /healthz` every 50 ms. Reported: the
replies by status, the /healthz latency's p50, p99 and maximum, and the
server's resident memory before and at its highest.

All the senders come from 127.0.0.1, one client to the server, so its
per-client replay budget answers many of them 429. `--no-limits` lifts
that budget (a server started with a prelude that widens it), to see
four clients' worth of replays at once.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from serve_load import Http
from serve_soak import ServerProcess, bomb_records, percentile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serve_helpers import free_port  # noqa: E402

import ddz  # noqa: E402

NO_LIMITS = (
    "from ddz.serve import replay\n"
    "replay.REPLAY_SHARE, replay.REPLAY_BURST_SECONDS, replay.REPLAYS_AT_ONCE = 100.0, 100.0, 100\n"
    "from ddz.cli import main\n"
    "raise SystemExit(main(__import__('sys').argv[1:]))\n"
)


async def run(args) -> dict:
    db = Path(tempfile.mkdtemp()) / "bombs.sqlite3"
    server = ServerProcess(db, free_port(), 10, 10.0)
    if args.no_limits:
        server.command = [sys.executable, "-c", NO_LIMITS, *server.command[3:]]
    await server.start()
    bombs, _ = bomb_records()
    honest = []
    for n in range(400):  # distinct finished deals: no replay comes from the cache
        game = ddz.Game(ddz.Rules("laizi" if n % 2 else "classic"), seed=1000 + n)
        while game.phase != "over":
            legal = game.legal_actions()
            game.step(legal[-1] if game.phase != "play" else legal[0])
        honest.append(game.to_json().encode())
    statuses: dict[int, int] = {}
    latencies: list[float] = []
    rss = [server.rss() or 0]
    stop = time.monotonic() + args.seconds

    async def sender(k: int) -> None:
        http = Http(server.port)
        n = k
        while time.monotonic() < stop:
            record = bombs[n % 2] if n % 3 else honest[n % len(honest)]
            n += args.senders
            status, _ = await http.request("POST", "/replays", record)
            statuses[status] = statuses.get(status, 0) + 1
        http.close()

    async def sampler() -> None:
        http = Http(server.port)
        while time.monotonic() < stop:
            start = time.perf_counter()
            status, _ = await http.request("GET", "/healthz")
            assert status == 200
            latencies.append(time.perf_counter() - start)
            rss.append(server.rss() or 0)
            await asyncio.sleep(0.05)
        http.close()

    try:
        await asyncio.gather(sampler(), *(sender(k) for k in range(args.senders)))
    finally:
        server.stop()
    return {"statuses": statuses, "healthz": latencies, "rss": rss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--senders", type=int, default=4)
    parser.add_argument("--no-limits", action="store_true")
    args = parser.parse_args()
    out = asyncio.run(run(args))
    h = out["healthz"]
    print(f"{args.senders} senders, {args.seconds:g} s, replies by status {out['statuses']}")
    print(
        f"/healthz: {len(h)} answered, p50 {1e3 * statistics.median(h):.1f} ms, "
        f"p99 {1e3 * percentile(h, 0.99):.1f} ms, max {1e3 * max(h):.1f} ms"
    )
    print(f"server RSS: {out['rss'][0] >> 20} MiB at start, {max(out['rss']) >> 20} MiB at most")


if __name__ == "__main__":
    main()
