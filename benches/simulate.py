"""Deals per second of ``ddz.simulate`` for every preset and built-in policy.

    python benches/simulate.py [--deals N] [--threads T] [--rounds R] [PRESET ...]

Each row plays ``--deals`` seeded deals (seed 1) ``--rounds`` times and reports the best
round, so a moment of load from elsewhere does not count.  The load average is printed
beside each row: on a shared machine compare figures taken at similar loads, or count
instructions instead (``valgrind --tool=callgrind``, which the load does not change).
Any build of ``ddz`` runs it, so two builds can be compared side by side.
"""

from __future__ import annotations

import argparse
import os
import time

import ddz

POLICIES = ("random", "greedy")


def deals_per_second(preset: str, policy: str, deals: int, threads: int, rounds: int) -> float:
    ddz.simulate(preset, min(deals, 1_000), seed=1, policy=policy, threads=threads)  # warm up
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        ddz.simulate(preset, deals, seed=1, policy=policy, threads=threads)
        best = min(best, time.perf_counter() - start)
    return deals / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per round")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per row; the best counts")
    parser.add_argument("presets", nargs="*", default=list(ddz.PRESETS), metavar="PRESET")
    args = parser.parse_args()
    print(f"ddz.simulate, {args.deals:,} deals per round, {args.threads} threads, best of")
    print(f"{args.rounds} rounds; deals per second")
    print(f"{'preset':<24}{'policy':<8}{'deals/s':>12}{'load':>7}")
    for preset in args.presets:
        for policy in POLICIES:
            rate = deals_per_second(preset, policy, args.deals, args.threads, args.rounds)
            print(f"{preset:<24}{policy:<8}{rate:>12,.0f}{os.getloadavg()[0]:>7.1f}")


if __name__ == "__main__":
    main()
