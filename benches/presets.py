"""Move generation of every preset on seeded full-size hands: plays and time per hand.

    python benches/presets.py [--rounds N] [--hands N] [PRESET ...]

For each preset and hand size (``preset_sizes``: the dealt hand, then each landlord
hand = hand + kitty share), ``--hands`` seeded hands (the hands of
``bench_presets.py``).  Leads only.  Each round runs every operation once over the
whole list, the operations interleaved; the best round of each is reported, per hand.
``max count µs`` is the slowest hand's best single ``count_moves`` call.  Then the
hands with the most plays we know of (``PATHOLOGICAL``), best of the rounds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _hands import (  # noqa: E402
    BENCH_SEED,
    PATHOLOGICAL,
    PRESET_HANDS,
    ddz_count,
    ddz_moves,
    preset_cases,
    preset_sizes,
)
from compare import best_of, machine, version  # noqa: E402

import ddz  # noqa: E402


def slowest_count(rules: ddz.Rules, hands, rounds: int) -> float:
    """The largest, over ``hands``, of the best of ``rounds`` ``count_moves`` calls (s)."""
    best = [float("inf")] * len(hands)
    for _ in range(rounds):
        for i, hand in enumerate(hands):
            t0 = time.perf_counter()
            rules.count_moves(hand)
            best[i] = min(best[i], time.perf_counter() - t0)
    return max(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="timed rounds per operation")
    parser.add_argument("--hands", type=int, default=PRESET_HANDS, help="hands per size")
    parser.add_argument("presets", nargs="*", default=list(ddz.PRESETS), metavar="PRESET")
    args = parser.parse_args()
    unknown = sorted(set(args.presets) - set(ddz.PRESETS))
    if unknown:
        parser.error(f"unknown preset(s) {unknown}; choose from {list(ddz.PRESETS)}")

    print(f"machine: {machine()}")
    print(f"ddz {version('ddz')}")
    print(
        f"{args.hands} seeded hands per preset and size (seed {BENCH_SEED}), natural cards "
        f"only; leads; best of {args.rounds} rounds; times are per hand"
    )
    print()
    header = (
        f"{'preset':<22}{'cards':>6}{'plays':>8}{'max plays':>11}{'moves µs':>10}"
        f"{'list µs':>10}{'count µs':>10}{'max count µs':>14}"
    )
    print(header)
    print("-" * len(header))
    for preset in args.presets:
        rules = ddz.Rules(preset)
        for size in preset_sizes(preset):
            cases = preset_cases(preset, size, args.hands)
            hands = [c.hand for c in cases]
            ops = {
                "moves": lambda r=rules, c=cases: ddz_moves(r, c),
                "list": lambda r=rules, c=cases: ddz_moves(r, c, materialize=True),
                "count": lambda r=rules, c=cases: ddz_count(r, c),
            }
            for op in ops.values():  # warm up
                op()
            best = best_of(args.rounds, ops)
            us = {name: t / len(cases) * 1e6 for name, t in best.items()}
            plays = [rules.count_moves(h) for h in hands]
            slowest = slowest_count(rules, hands, args.rounds) * 1e6
            print(
                f"{preset:<22}{size:>6}{sum(plays) / len(plays):>8.1f}{max(plays):>11}"
                f"{us['moves']:>10.2f}{us['list']:>10.2f}{us['count']:>10.2f}{slowest:>14.2f}"
            )
    print()
    print("pathological hands (most plays known), best of the rounds per call")
    header = (
        f"{'preset':<22}{'cards':>6}{'plays':>8}{'moves µs':>10}{'list µs':>10}"
        f"{'count µs':>10}  hand"
    )
    print(header)
    print("-" * (len(header) + 40))
    for preset in args.presets:
        rules = ddz.Rules(preset)
        for text in PATHOLOGICAL[preset]:
            hand = rules.cards(text)
            ops = {
                "moves": lambda r=rules, h=hand: r.moves(h),
                "list": lambda r=rules, h=hand: list(r.moves(h)),
                "count": lambda r=rules, h=hand: r.count_moves(h),
            }
            best = best_of(args.rounds, ops)
            print(
                f"{preset:<22}{len(hand):>6}{rules.count_moves(hand):>8}"
                f"{best['moves'] * 1e6:>10.2f}{best['list'] * 1e6:>10.2f}"
                f"{best['count'] * 1e6:>10.2f}  {text}"
            )
    print()
    print(
        "plays = average leads per hand; moves = rules.moves(hand) (a MoveList, plays kept in"
        " Rust); list = list(rules.moves(hand)) (a Move object per play); count ="
        " rules.count_moves(hand)."
    )


if __name__ == "__main__":
    main()
