"""The DMC example's figure (docs/rl.md): win rate against the greedy player as
training goes, measured by ``ddz.evaluate`` on fresh deals; print a table.

    python benches/dmc_classic.py [--minutes 10] [--every 60] [--eval 1000]

``examples/dmc_classic.py`` trains one classic seat against greedy opponents inside
``ddz.VecEnv`` for ``--minutes`` of wall time; every ``--every`` seconds of training
the learner is evaluated against ``"greedy"`` over ``--eval`` deals, each played
twice with the seats swapped (``protocol="full"``: the auction and the play, as it
trained), and at the end with the DouZero protocol too. Evaluation time is not
training time: the clock stops while it runs. Each row prints the load average:
training speed, so the figure at a given time, moves with what else runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import machine  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dmc_classic.py"


def example():
    spec = importlib.util.spec_from_file_location("dmc_classic", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between checks")
    parser.add_argument("--eval", type=int, default=1000, help="deals per check (x2 games)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    dmc = example()
    print(f"machine: {machine()}")
    print(f"DMC, classic seat 0 against greedy inside VecEnv, {args.minutes:g} min of training")
    print(f"{'training s':>10}{'deals':>12}{'WP vs greedy (95%)':>28}{'load':>7}")

    def check(net, elapsed: float, deals: int) -> None:
        wp = dmc.win_rate(net, args.eval)["overall"]["wp"]
        interval = f"{wp['value']:.3f} ({wp['low']:.3f}..{wp['high']:.3f})"
        print(f"{elapsed:>10.0f}{deals:>12,}{interval:>28}{os.getloadavg()[0]:>7.1f}", flush=True)

    t0 = time.perf_counter()
    check(dmc.QNet(dmc.INPUTS, seed=args.seed), 0.0, 0)
    net = dmc.train(60 * args.minutes, seed=args.seed, report=args.every, on_report=check)
    douzero = dmc.win_rate(net, args.eval, protocol="douzero")["overall"]["wp"]
    print(
        f"douzero protocol (seat 0 the landlord, no auction): {douzero['value']:.3f} "
        f"({douzero['low']:.3f}..{douzero['high']:.3f}); wall {time.perf_counter() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
