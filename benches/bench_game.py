"""Decisions per second of a deal driven from Python, ddz.Game against pyspiel.

    python benches/bench_game.py [--seconds S]

Both engines play random classic deals in this process, one decision at a
time: `legal_actions()`, a uniformly random choice, `step()` (pyspiel:
`apply_action`; its chance nodes, the deal, are sampled and not counted).
The second row also reads the observation of the seat to act at every
decision: `Game.observation(seat)` (a dict) against pyspiel's
`observation_tensor()`. pyspiel (`pip install open_spiel==2.0.2`) is
skipped if it is not installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vecenv import pyspiel_rate  # noqa: E402

import ddz  # noqa: E402


def ddz_decisions(seconds: float, observe: bool) -> float:
    rng = random.Random(0)
    decisions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = ddz.Game("classic", seed=seed)
        seed += 1
        while g.phase != "over":
            if observe:
                g.observation(g.to_act)
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per row and engine")
    args = parser.parse_args()
    print("random classic deals driven from Python, decisions per second")
    print(f"{'':28} {'ddz.Game':>10} {'pyspiel':>10} {'ratio':>6}")
    for label, observe in (("legal_actions + step", False), ("+ observation each step", True)):
        ours = ddz_decisions(args.seconds, observe)
        theirs = pyspiel_rate(args.seconds, observe)
        if theirs is None:
            print(f"{label:28} {ours:10,.0f} {'not installed':>10}")
        else:
            print(f"{label:28} {ours:10,.0f} {theirs:10,.0f} {ours / theirs:5.2f}x")


if __name__ == "__main__":
    main()
