"""The observed `Game` loop against pyspiel, as fixed work or interleaved.

    python benches/game_loop.py --engine ddz --decisions 20000 [--no-observe]
    python benches/game_loop.py --interleave --seconds 30

`--engine` plays that many decisions of random classic deals with one
engine and nothing else (for `valgrind --tool=callgrind --cache-sim=yes`:
run it with two sizes and divide the difference by the decisions between
them, so start-up cancels out). `--interleave` alternates the engines in
short slices for `--seconds` each and prints the median ratio of the
slices and the load average, so a change in the machine's load hits both
engines alike. The loop is `benches/bench_game.py`'s: `legal_actions()`,
a random choice, `step()`, with the observation of the seat to act read
first unless `--no-observe`.
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


def ddz_rate(seconds: float, observe: bool, decisions: int = 0, seed: int = 0) -> float:
    """Decisions/s of random classic deals through `ddz.Game`; with
    `decisions`, at least that many whatever the time (fixed work)."""
    rng = random.Random(seed)
    done = 0
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


def interleave(seconds: float, observe: bool, slice_s: float = 0.5) -> tuple[float, float, float]:
    """Median decisions/s of each engine and the median ratio of their
    slices, the engines alternating in slices of `slice_s`."""
    ours, theirs, ratios = [], [], []
    for i in range(max(1, round(seconds / slice_s))):
        a = ddz_rate(slice_s, observe, seed=1000 * i)
        b = pyspiel_rate(slice_s, observe)
        if b is None:
            raise SystemExit("pyspiel is not installed (pip install open_spiel==2.0.2)")
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("ddz", "pyspiel"))
    parser.add_argument("--decisions", type=int, default=20_000)
    parser.add_argument("--no-observe", action="store_true")
    parser.add_argument("--interleave", action="store_true")
    parser.add_argument("--seconds", type=float, default=20.0, help="per engine and row")
    args = parser.parse_args()
    observe = not args.no_observe
    if args.engine == "ddz":
        ddz_rate(0, observe, decisions=args.decisions)
    elif args.engine == "pyspiel":
        pyspiel_rate(0, observe, decisions=args.decisions)
    elif args.interleave:
        rows = (("legal_actions + step", False), ("+ observation each step", True))
        print(f"{'':26} {'ddz.Game':>10} {'pyspiel':>10} {'ratio':>6}  load")
        for label, obs in rows:
            a, b, r = interleave(args.seconds, obs)
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"{label:26} {a:10,.0f} {b:10,.0f} {r:5.2f}x  {load}")
    else:
        parser.error("give --engine or --interleave")


if __name__ == "__main__":
    main()
