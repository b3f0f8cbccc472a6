"""The Elo ladder of the search's levels (docs/bots.md#levels): adjacent
players against each other with `ddz eval` (classic, DouZero's protocol:
seat 0 is the landlord with the kitty, every deal played twice with the
seats swapped), chained from random = 0.

    python benches/bench_levels.py [--deals N] [--top-deals M] [--seed S] [--json FILE]

Each pair runs ``ddz eval classic A B -n N --seed S --json`` in a
subprocess; a pair's Elo gap is 400·log10(WP / (1 - WP)) from A's win rate,
its interval from the win rate's 95% interval. The pairs with level 6 and
above (tens of milliseconds a decision) play `--top-deals` deals if given
(by default every pair plays `--deals`, 1,000). The rule
agent (its Rust port, policy "rule") is placed from its pair with greedy;
its pairs with levels 4 and 5 check that placement.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time

#: (A, B): A's rating is B's plus the gap measured.
PAIRS = [
    ("greedy", "random"),
    ("search:1", "random"),
    ("search:1", "greedy"),
    ("search:2", "search:1"),
    ("search:3", "search:2"),
    ("search:4", "search:3"),
    ("search:5", "search:4"),
    ("search:6", "search:5"),
    ("search:7", "search:6"),
    ("search:8", "search:7"),
    # The rule agent's port (policy "rule"), against the levels around it.
    ("rule", "greedy"),
    ("rule", "search:4"),
    ("rule", "search:5"),
]
#: Pairs whose players take tens of milliseconds a decision.
SLOW = {"search:6", "search:7", "search:8"}


def elo(wp: float) -> float:
    wp = min(max(wp, 1e-6), 1 - 1e-6)
    return 400 * math.log10(wp / (1 - wp))


def run_pair(a: str, b: str, deals: int, seed: int) -> dict:
    command = [sys.executable, "-m", "ddz", "eval", "classic", a, b]
    command += ["-n", str(deals), "--seed", str(seed), "--json"]
    start = time.monotonic()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    figures = json.loads(done.stdout)
    wp = figures["overall"]["wp"]
    return {
        "a": a,
        "b": b,
        "deals": deals,
        "seconds": round(time.monotonic() - start, 1),
        "wp": wp["value"],
        "low": wp["low"],
        "high": wp["high"],
        "elo": elo(wp["value"]),
        "elo_low": elo(wp["low"]),
        "elo_high": elo(wp["high"]),
        "command": " ".join(["ddz"] + command[3:]),
    }


def ladder(rows: list[dict]) -> dict[str, float]:
    """Ratings chained from random = 0 along the pairs, each player from the
    first pair that reaches it (level 1 from its pair with random, the closer
    match; its pair with greedy is a check)."""
    rating = {"random": 0.0}
    for row in rows:
        if row["b"] in rating and row["a"] not in rating:
            rating[row["a"]] = rating[row["b"]] + row["elo"]
    return rating


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument(
        "--top-deals", type=int, default=None, help="deals for level 6+ pairs (default: --deals)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    parser.add_argument("--only", nargs="*", default=None, help="only pairs with these A names")
    args = parser.parse_args()
    rows = []
    for a, b in PAIRS:
        if args.only and a not in args.only:
            continue
        deals = args.top_deals if a in SLOW and args.top_deals else args.deals
        row = run_pair(a, b, deals, args.seed)
        rows.append(row)
        print(
            f"{a:>9} vs {b:<9} {deals:>5} deals  WP {row['wp']:.3f} "
            f"({row['low']:.3f}-{row['high']:.3f})  Elo {row['elo']:+.0f} "
            f"({row['elo_low']:+.0f} to {row['elo_high']:+.0f})  {row['seconds']:.0f} s",
            flush=True,
        )
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=1)
    for name, r in ladder(rows).items():
        print(f"{name:>9} {r:+.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
