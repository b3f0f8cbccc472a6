"""Speed of the RL adapters against their peers, in one process (docs/rl.md).

    python benches/rl_adapters.py [--seconds S]

* PettingZoo classic (`ddz.envs.pettingzoo.env("classic")`): decisions per second of
  an `agent_iter` loop drawing a random legal id from the mask, observations every
  step; against OpenSpiel's `dou_dizhu` driven from a Python loop (random legal
  action, no observations), as `benches/vecenv.py` times it.
* `ddz.envs.douzero.Env("adp")` against DouZero 1.1.0's `Env("adp")`: steps per second
  of random play, every observation built (`x_batch`, `z_batch`, ...).

Needs `pettingzoo` and, for the peers, `open_spiel` and `douzero` (each peer that
cannot be imported is reported and skipped). Prints the load average: on a shared
machine the figures move with it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vecenv import pyspiel_rate  # noqa: E402


def pettingzoo_rate(seconds: float) -> float:
    from ddz.envs.pettingzoo import env as make

    e = make("classic")
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    decisions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            decisions += 1
        e.reset()
    return decisions / (time.perf_counter() - t0)


def douzero_rate(make, seconds: float) -> float:
    env = make()
    rng = random.Random(0)
    steps = 0
    obs = env.reset()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        legal = obs["legal_actions"]
        obs, _, done, _ = env.step(legal[rng.randrange(len(legal))])
        steps += 1
        if done:
            obs = env.reset()
    return steps / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per row")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    rows = []
    zoo = pettingzoo_rate(args.seconds)
    spiel = pyspiel_rate(args.seconds)
    rows.append(("PettingZoo classic (ddz.envs.pettingzoo)", zoo, "decisions/s"))
    rows.append(("OpenSpiel dou_dizhu, Python loop", spiel, "decisions/s"))
    from ddz.envs.douzero import Env

    ours = douzero_rate(lambda: Env("adp", seed=0), args.seconds)
    rows.append(("ddz.envs.douzero.Env", ours, "steps/s"))
    try:
        from douzero.env.env import Env as DouZeroEnv
    except ImportError:
        theirs = None
    else:
        np.random.seed(0)
        theirs = douzero_rate(lambda: DouZeroEnv("adp"), args.seconds)
    rows.append(("DouZero 1.1.0 Env", theirs, "steps/s"))
    for name, rate, unit in rows:
        shown = "not installed" if rate is None else f"{rate:,.0f} {unit}"
        print(f"{name:<44}{shown:>24}")
    if spiel:
        print(f"PettingZoo / OpenSpiel: {zoo / spiel:.2f}x")
    if theirs:
        print(f"ddz douzero Env / DouZero Env: {ours / theirs:.1f}x")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
