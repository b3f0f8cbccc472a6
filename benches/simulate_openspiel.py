"""``ddz.simulate`` (classic, random, default threads and threads=1) beside
OpenSpiel's random playouts, alternated in one process, several rounds
(docs/performance.md, "simulate against OpenSpiel"). Needs pyspiel
(``pip install open_spiel``) and a release build (``make release``).

    python benches/simulate_openspiel.py --rounds 4 --seconds 3
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from peers import OpenSpielPeer, ddz_simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    peer = OpenSpielPeer()
    cores = os.cpu_count() or 1
    print(
        f"{'round':>5} {'ddz all cores':>14} {'ddz 1 thread':>13} {'OpenSpiel':>10}"
        f" {'ratio':>7} {'all / (1t x cores)':>19}"
    )
    for r in range(args.rounds):
        games, _, secs = ddz_simulate(args.seconds, None)
        all_cores = games / secs
        games, _, secs = ddz_simulate(args.seconds, 1)
        one = games / secs
        games, _, secs = peer.self_play(args.seconds)
        spiel = games / secs
        print(
            f"{r:>5} {all_cores:>14,.0f} {one:>13,.0f} {spiel:>10,.0f}"
            f" {all_cores / spiel:>6.1f}x {all_cores / (one * cores):>18.2f}"
        )


if __name__ == "__main__":
    main()
