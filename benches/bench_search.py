"""Time a decision of the search player (``SearchAgent``) at its default budget.

Every preset: deals played by SearchAgent at every seat (greedy fallback where the
agent cannot rebuild the table: docs/bots.md), each decision timed from the
observation to the chosen action, bidding included. Prints p50, p99 and max in ms
per preset, and the process's peak resident memory.

    python benches/bench_search.py                 # the full run (DDZ_SEARCH_DEALS deals, 20)
    DDZ_SEARCH_DEALS=50 python benches/bench_search.py --threads 2

Under pytest (``pytest benches/bench_search.py``) it plays one short classic deal
as a smoke test and checks only that every decision was legal: timing is never
asserted in a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import ddz
from ddz.agents import SearchAgent


def timed_deals(preset: str, deals: int, threads: int | None, seed: int = 0) -> list[float]:
    """Milliseconds of every decision of `deals` deals of `preset`."""
    rules = ddz.Rules(preset)
    agent = SearchAgent(seed=seed, threads=threads, rules=rules)
    times: list[float] = []
    for index in range(deals):
        game = ddz.Game(rules, seed=seed * 100_003 + index)
        while game.phase != "over":
            seat = game.to_act
            obs = game.observation(seat)
            legal = game.legal_actions()
            start = time.perf_counter()
            action = agent.act(obs, legal)
            times.append((time.perf_counter() - start) * 1000)
            game.step(action)
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("presets", nargs="*", default=list(ddz.PRESETS))
    args = parser.parse_args()
    deals = int(os.environ.get("DDZ_SEARCH_DEALS", "20"))
    print(f"{'preset':22} {'decisions':>9} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    for preset in args.presets:
        times = timed_deals(preset, deals, args.threads)
        p50, p99 = quantile(times, 0.5), quantile(times, 0.99)
        print(f"{preset:22} {len(times):9} {p50:7.2f} {p99:7.2f} {max(times):7.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the process: {peak:.0f} MiB")


def test_search_decisions_short() -> None:
    # The short form: a few decisions of one deal, all legal (Game.step checks).
    times = timed_deals("classic", 1, threads=1)
    assert times


if __name__ == "__main__":
    main()
