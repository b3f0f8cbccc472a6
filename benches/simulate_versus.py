"""``ddz.simulate`` of this install against another install, in alternating slices.

    python benches/simulate_versus.py OTHER_PYTHON [--slices S] [--deals N] [--threads T]
        [--policy random|greedy] [PRESET ...]

OTHER_PYTHON is the interpreter of another environment with its own build of ``ddz`` (an
older commit, say).  Each side runs in a process of its own that stays up; the two play
``--deals`` seeded deals in turn, ``--slices`` times, and each row prints the median of the
slices' ratios (this install's deals/s over the other's) with their range and the load
average.  Alternating short slices keeps a drift of the machine's speed from favouring
either side, which one long run of each cannot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

# The worker each side runs: one line in (preset, policy, deals, threads), one time out.
WORKER = """
import sys, time, ddz
for line in sys.stdin:
    preset, policy, deals, threads = line.split()
    deals, threads = int(deals), int(threads)
    ddz.simulate(preset, min(deals, 1000), seed=1, policy=policy, threads=threads)
    start = time.perf_counter()
    ddz.simulate(preset, deals, seed=1, policy=policy, threads=threads)
    print(time.perf_counter() - start, flush=True)
"""


class Side:
    """A process of one install, timing the slices it is given."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def seconds(self, preset: str, policy: str, deals: int, threads: int) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{preset} {policy} {deals} {threads}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other install's python")
    parser.add_argument("--slices", type=int, default=10)
    parser.add_argument("--deals", type=int, default=20_000, help="deals per slice")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--policy", default="random", choices=("random", "greedy"))
    parser.add_argument("presets", nargs="*", default=["classic"], metavar="PRESET")
    args = parser.parse_intermixed_args()
    mine, other = Side(sys.executable), Side(args.other)
    print(f"{args.deals:,} deals a slice, {args.slices} slices, {args.threads} threads")
    print(f"{'preset':<22} {'policy':<7} {'this':>9} {'other':>9} {'ratio':>6}  range        load")
    try:
        for preset in args.presets:
            ratios, a, b = [], [], []
            for _ in range(args.slices):
                t_mine = mine.seconds(preset, args.policy, args.deals, args.threads)
                t_other = other.seconds(preset, args.policy, args.deals, args.threads)
                a.append(args.deals / t_mine)
                b.append(args.deals / t_other)
                ratios.append(t_other / t_mine)
            load = os.getloadavg()[0]
            print(
                f"{preset:<22} {args.policy:<7} {statistics.median(a):>9,.0f} "
                f"{statistics.median(b):>9,.0f} {statistics.median(ratios):>5.2f}x "
                f" {min(ratios):.2f}-{max(ratios):.2f}x  {load:.1f}",
                flush=True,
            )
    finally:
        mine.close()
        other.close()


if __name__ == "__main__":
    main()
