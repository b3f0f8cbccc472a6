"""Verified puzzles per minute: `ddz.puzzles.generate` then `ddz.puzzles.check`
on each puzzle, classic, two hands and three, on every core.

    python benches/puzzles.py [-n N] [--seed S] [--threads T]

A puzzle counts once it has been generated and proved again; the rate is
the count over the wall time of both steps (CPU: the process's CPU time
over both, every thread). Build with `maturin develop
--release` first.
"""

from __future__ import annotations

import argparse
import os
import time

import ddz
from ddz import puzzles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    threads = args.threads or ddz.default_threads()
    print(f"ddz {ddz.__version__}, {threads} threads, load {os.getloadavg()[0]:.1f}")
    print("| puzzles | made in | checked in | CPU | verified a minute | mean rating |")
    print("|---|---|---|---|---|---|")
    for hands in (2, 3):
        cpu = time.process_time()
        start = time.perf_counter()
        made = puzzles.generate("classic", n=args.n, seed=args.seed, hands=hands, threads=threads)
        made_s = time.perf_counter() - start
        start = time.perf_counter()
        ok = sum(puzzles.check_all(made, threads=threads))
        check_s = time.perf_counter() - start
        assert ok == len(made), f"{len(made) - ok} puzzles failed their check"
        cpu = time.process_time() - cpu
        rate = 60 * ok / (made_s + check_s)
        mean = sum(p["rating"] for p in made) / max(1, len(made))
        print(
            f"| classic, {hands} hands: {ok} | {made_s:.1f} s | {check_s:.1f} s | {cpu:.1f} s "
            f"| {rate:,.0f} | {mean:.0f} |"
        )


if __name__ == "__main__":
    main()
