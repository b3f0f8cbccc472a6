"""DouZero's features batched (``VecEnv(..., features="douzero")``) against the one-env
``ddz.envs.douzero.Env``, side by side: learner decisions per second in classic.

    python benches/vecenv_douzero.py [--envs N ...] [--seconds S] [--threads N]

``VecEnv``: DouZero's protocol (seat 0 the landlord, no auction), the learner at
seat 0, greedy farmers inside the step; each step the learner draws a random legal
index per env from ``legal_offsets`` and gets DouZero's context, ``z`` and every
legal action's features (``douzero_context``, ``douzero_history``,
``douzero_actions``); with ``--padded`` also ``max_actions=C`` tensors. ``Env``:
one deal at a time, every seat the caller's, a random legal action at each
decision (``obs["x_batch"]`` etc. built at every one): every decision is a learner
decision. Rates are wall-clock (and this process's CPU) with the load average
beside; build with ``maturin develop --release`` first.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vecenv import Draw, load  # noqa: E402

import ddz  # noqa: E402
from ddz.envs.douzero import Env  # noqa: E402


def vecenv_rate(envs: int, seconds: float, threads: int | None, padded: int | None) -> str:
    env = ddz.VecEnv(
        "classic",
        envs,
        seed=1,
        threads=threads,
        seats=[0],
        opponents="greedy",
        protocol="douzero",
        reward="adp",
        reward_for="acting",
        features="douzero",
        max_actions=padded,
    )
    draw = Draw(envs)
    obs = env.observe()
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        for _ in range(10):
            obs, *_ = env.step(draw(obs["legal_offsets"]), by="index")
        steps += 10
    w, c = time.perf_counter() - wall, time.process_time() - cpu
    return f"{steps * envs / w:,.0f} ({steps * envs / c:,.0f} CPU), threads {env.threads}"


def env_rate(seconds: float) -> str:
    env = Env("adp", seed=1)
    rng = random.Random(1)
    obs = env.reset()
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        for _ in range(100):
            obs, _, done, _ = env.step(rng.choice(obs["legal_actions"]))
            if done:
                obs = env.reset()
        decisions += 100
    w, c = time.perf_counter() - wall, time.process_time() - cpu
    return f"{decisions / w:,.0f} ({decisions / c:,.0f} CPU)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, nargs="*", default=[256, 1024])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--padded", type=int, default=None, help="max_actions=C as well")
    args = parser.parse_args()
    print(f"ddz.envs.douzero.Env (one env): {env_rate(args.seconds)} decisions/s, load {load()}")
    for n in args.envs:
        rate = vecenv_rate(n, args.seconds, args.threads, args.padded)
        print(f"VecEnv features='douzero', {n} envs: {rate} learner decisions/s, load {load()}")


if __name__ == "__main__":
    main()
