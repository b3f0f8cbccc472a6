"""Time ddz against DouZero 1.1.0 on the benches' hands and print a table.

    python benches/compare.py [--rounds N]

The same operations as ``bench_movegen.py`` over the same fixed seeded hands
(``BENCH_HANDS`` classic hands of 17 and of 20 cards, each with a previous play from
another hand of its deal).  Each round runs every operation a few times in a row
over the whole list, the operations interleaved; the best run of each is reported,
per hand.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _hands import (  # noqa: E402
    BENCH_HANDS,
    BENCH_SEED,
    HAND_SIZES,
    bench_cases,
    ddz_count,
    ddz_moves,
    douzero_moves,
)

import ddz  # noqa: E402


def machine() -> str:
    model, physical = platform.processor() or platform.machine(), set()
    try:
        with open("/proc/cpuinfo") as f:
            block: dict[str, str] = {}
            for line in [*f, "\n"]:
                if not line.strip():
                    if "model name" in block:
                        model = block["model name"]
                    physical.add((block.get("physical id"), block.get("core id")))
                    block = {}
                elif ":" in line:
                    key, _, value = line.partition(":")
                    block[key.strip()] = value.strip()
    except OSError:
        pass
    physical.discard((None, None))
    cores = f"{os.cpu_count()} logical CPUs"
    if physical:
        cores += f", {len(physical)} physical cores"
    return (
        f"{model} ({cores}); {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


#: Back-to-back runs of one operation inside a round: the first after another
#: engine's run pays for cold caches, the later ones show the warm speed, as
#: pytest-benchmark's many rounds do.
RUNS_PER_ROUND = 3


def best_of(rounds: int, ops: dict) -> dict:
    """Best wall time (s) of each zero-argument callable, interleaved over ``rounds``."""
    best = dict.fromkeys(ops, float("inf"))
    for _ in range(rounds):
        for name, op in ops.items():
            for _ in range(RUNS_PER_ROUND):
                t0 = time.perf_counter()
                op()
                best[name] = min(best[name], time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="timed rounds per operation")
    args = parser.parse_args()
    try:
        import douzero  # noqa: F401

        have_douzero = True
    except ImportError:
        have_douzero = False

    rules = ddz.Rules("classic")
    print(f"machine: {machine()}")
    print(f"ddz {version('ddz')}, douzero {version('douzero')}")
    print(
        f"{BENCH_HANDS} seeded classic hands per size (seed {BENCH_SEED}); "
        f"best of {args.rounds} rounds; times are per hand"
    )
    print()
    header = (
        f"{'operation':<26}{'ddz µs':>10}{'DouZero µs':>12}{'ratio':>9}"
        f"{'plays ddz':>11}{'plays DouZero':>15}"
    )
    print(header)
    print("-" * len(header))
    for size in HAND_SIZES:
        cases = bench_cases(rules, size)
        n = len(cases)
        for mode in ("lead", "follow"):
            follow = mode == "follow"
            ops = {
                "moves": lambda c=cases, f=follow: ddz_moves(rules, c, f),
                "list(moves)": lambda c=cases, f=follow: ddz_moves(rules, c, f, True),
                "count_moves": lambda c=cases, f=follow: ddz_count(rules, c, f),
            }
            if have_douzero:
                ops["douzero"] = lambda c=cases, f=follow: douzero_moves(c, f)
            for op in ops.values():  # warm up (and check that everything runs)
                op()
            best = best_of(args.rounds, ops)
            plays = ddz_moves(rules, cases, follow) / n
            dz_us = best["douzero"] / n * 1e6 if have_douzero else None
            dz_plays = douzero_moves(cases, follow) / n if have_douzero else None
            for name in ("moves", "list(moves)", "count_moves"):
                us = best[name] / n * 1e6
                cells = (
                    (f"{dz_us:>12.1f}{dz_us / us:>8.1f}x", f"{dz_plays:>15.1f}")
                    if have_douzero
                    else (f"{'n/a':>12}{'n/a':>9}", f"{'n/a':>15}")
                )
                label = f"{mode} {size} {name}"
                print(f"{label:<26}{us:>10.2f}{cells[0]}{plays:>11.1f}{cells[1]}")
    print()
    print(
        "ratio = DouZero time / ddz time.  DouZero's column is MovesGener(hand).gen_moves()"
        " for leads and GameEnv.get_legal_card_play_actions for follows (it has no counter);"
        " its play counts include its duplicates (and exclude pass)."
    )


if __name__ == "__main__":
    main()
