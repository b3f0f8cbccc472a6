"""Decisions per second of a deal driven from Python, ddz.Game against pyspiel.

    python benches/bench_game.py [--seconds S] [--rounds R]
    python benches/bench_game.py --engine ddz|pyspiel --decisions N [--no-observe]

Both engines play random classic deals in this process, one decision at a
time: `legal_actions()`, a uniformly random choice, `step()` (pyspiel:
`apply_action`; its chance nodes, the deal, are sampled and not counted).
The second row also reads the observation of the seat to act at every
decision: `Game.observation(seat)` (a dict) against pyspiel's
`observation_tensor()`. pyspiel (`pip install open_spiel==2.0.2`) is
skipped if it is not installed.

The two engines take turns in short slices (`--rounds` of each, the order
swapped every round), and the ratio printed is the median of the rounds'
ratios, with their range: this machine's speed drifts by a third from one
second to the next, and a single long run of each engine measured the
drift more than the engines; the load average is printed beside them.

`--engine` plays that many decisions with one engine and prints nothing
(fixed work for `valgrind --tool=callgrind --cache-sim=yes`: run two sizes
and divide the difference by the decisions between them, so start-up
cancels out).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vecenv import pyspiel_rate  # noqa: E402

import ddz  # noqa: E402


def ddz_decisions(seconds: float, observe: bool, decisions: int = 0) -> float:
    """Decisions/s of random classic deals through `ddz.Game`; with
    `decisions`, at least that many whatever the time (fixed work)."""
    rng = random.Random(0)
    done, seed = 0, 0
    start = time.perf_counter()
    while done < decisions if decisions else time.perf_counter() - start < seconds:
        g = ddz.Game("classic", seed=seed)
        seed += 1
        while g.phase != "over":
            if observe:
                g.observation(g.to_act)
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
            done += 1
    return done / (time.perf_counter() - start)


def interleaved(seconds: float, rounds: int, observe: bool) -> tuple[float, float, list[float]]:
    """Both engines' decisions/s over `rounds` alternating slices, and each
    round's ratio (ours / pyspiel). Raises LookupError without pyspiel."""
    ours_rates, theirs_rates = [], []
    for r in range(rounds):
        first_ours = r % 2 == 0
        for which in (first_ours, not first_ours):
            if which:
                ours_rates.append(ddz_decisions(seconds / rounds, observe))
            else:
                rate = pyspiel_rate(seconds / rounds, observe)
                if rate is None:
                    raise LookupError("pyspiel is not installed")
                theirs_rates.append(rate)
    ratios = [a / b for a, b in zip(ours_rates, theirs_rates)]
    return statistics.fmean(ours_rates), statistics.fmean(theirs_rates), ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per row and engine")
    parser.add_argument("--rounds", type=int, default=10, help="alternating slices per row")
    parser.add_argument("--engine", choices=("ddz", "pyspiel"), help="fixed work, one engine")
    parser.add_argument("--decisions", type=int, default=20_000, help="with --engine")
    parser.add_argument("--no-observe", action="store_true", help="with --engine")
    args = parser.parse_args()
    if args.engine == "ddz":
        ddz_decisions(0, not args.no_observe, decisions=args.decisions)
        return
    if args.engine == "pyspiel":
        pyspiel_rate(0, not args.no_observe, decisions=args.decisions)
        return
    print("random classic deals driven from Python, decisions per second")
    print(f"{'':28} {'ddz.Game':>10} {'pyspiel':>10} {'ratio, median of rounds (range)':>32}")
    for label, observe in (("legal_actions + step", False), ("+ observation each step", True)):
        try:
            ours, theirs, ratios = interleaved(args.seconds, args.rounds, observe)
        except LookupError:
            ours = ddz_decisions(args.seconds, observe)
            print(f"{label:28} {ours:10,.0f} {'not installed':>10}")
            continue
        spread = f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{label:28} {ours:10,.0f} {theirs:10,.0f} {spread:>32}  load {load}")


if __name__ == "__main__":
    main()
