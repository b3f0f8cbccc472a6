"""Timings of the search for people (docs/bots.md#levels, #hints,
#analysis): a decision of each level (median and 99th percentile over
whole classic deals), a hint at its default budget, and the analysis of a
classic deal at its default budget on every core.

    python benches/bench_people.py [--deals N] [--levels 1 2 3 4] [--json]

Times are wall-clock on this machine and depend on its load; nothing here
asserts a time. Build with ``maturin develop --release`` first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import ddz
from ddz.agents import SearchAgent


def level_times(level: int, deals: int) -> list[float]:
    """Milliseconds of each decision of `level` playing every seat of
    `deals` classic deals (decisions with one legal action left out)."""
    agent = SearchAgent(level=level, seed=level, threads=1)
    out = []
    for seed in range(deals):
        game = ddz.Game("classic", seed=seed)
        while game.phase != "over":
            many = len(game.legal_actions()) > 1
            start = time.perf_counter()
            action = agent.act_in(game)
            if many:
                out.append((time.perf_counter() - start) * 1000)
            game.step(action)
    return out


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--levels", type=int, nargs="*", default=[1, 2, 3, 4])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: dict[str, object] = {"threads": ddz.default_threads()}
    for level in args.levels:
        ms = level_times(level, args.deals)
        rows[f"level {level}"] = {
            "decisions": len(ms),
            "median_ms": statistics.median(ms),
            "p99_ms": percentile(ms, 0.99),
            "max_ms": max(ms),
        }
    game = ddz.Game("classic", seed=1)
    start = time.perf_counter()
    ddz.hint(game, game.to_act)
    rows["hint_ms"] = (time.perf_counter() - start) * 1000
    strong = SearchAgent(seed=1)
    analysed = []
    for seed in range(3):
        game = ddz.play("classic", [strong] * 3, seed=seed)
        start = time.perf_counter()
        result = ddz.analyse(game, seed=0)
        analysed.append(
            {"decisions": len(result.decisions), "seconds": time.perf_counter() - start}
        )
    rows["analysis"] = analysed
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for key, value in rows.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
