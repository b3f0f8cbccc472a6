"""Learner decisions per second of ``ddz.VecEnv`` with opponents inside the step,
and steps per second of ``ddz.envs.gymnasium.VectorSeatEnv``; print a table.

    python benches/vecenv_kit.py [--envs N ...] [--seconds S] [--threads N ...]
    python benches/vecenv_kit.py --steps N [--envs N] [--threads N] [--ids] [--no-copy]
        # fixed work for callgrind: one VecEnv row, no table

A learner decision is one env's step: the learner (seat 0 of classic) takes one
decision and the two other seats play inside the step until the learner's next turn
or the deal's end, so the table takes about three decisions per learner decision.
The learner draws a uniformly random legal index per env in numpy, into arrays made
once (as ``benches/vecenv.py`` does), from the returned ``legal_offsets``. The
columns: the default options (``copy=True``), ``copy=False``, and ``copy=False``
with ``legal_ids=True``;
``VectorSeatEnv`` is stepped by the ids of those rows (one numpy gather a step).
Every row prints the load average beside it: on a shared machine wall-clock rates
move with the load, and ``--steps`` runs a fixed amount of work for
``valgrind --tool=callgrind`` (two step counts, subtracted, are the cost of the steps
whatever else runs).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import machine, version  # noqa: E402
from vecenv import Draw, load  # noqa: E402

import ddz  # noqa: E402


def learner_env(envs: int, threads: int | None, copy: bool, ids: bool, opponents: str):
    return ddz.VecEnv(
        "classic",
        envs,
        seed=1,
        threads=threads,
        seats=[0],
        opponents=opponents,
        legal_ids=ids,
        reward_for="acting",
        copy=copy,
    )


def vecenv_rate(
    envs: int, seconds: float, threads: int | None, copy: bool, ids: bool, opponents: str
) -> tuple[float, int]:
    """Learner decisions per second over `seconds`, and the env's thread count."""
    env = learner_env(envs, threads, copy, ids, opponents)
    draw = Draw(envs)
    obs = env.reset()
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            obs, *_ = env.step(draw(obs["legal_offsets"]))
        steps += 20
    return steps * envs / (time.perf_counter() - t0), env.threads


def vector_rate(envs: int, seconds: float, threads: int | None, opponents: str) -> float:
    """`VectorSeatEnv` steps (one per env) per second over `seconds`."""
    from ddz.envs.gymnasium import VectorSeatEnv

    env = VectorSeatEnv("classic", envs, 0, opponents=opponents, threads=threads)
    draw = Draw(envs)
    _, infos = env.reset(seed=1)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            off = infos["legal_offsets"]
            ids = infos["legal_ids"][off[:-1] + draw(off)]
            _, _, _, _, infos = env.step(ids)
        steps += 20
    return steps * envs / (time.perf_counter() - t0)


def fixed_steps(envs: int, steps: int, threads: int | None, copy: bool, ids: bool) -> None:
    env = learner_env(envs, threads, copy, ids, "greedy")
    draw = Draw(envs)
    obs = env.reset()
    for _ in range(steps):
        obs, *_ = env.step(draw(obs["legal_offsets"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per row")
    parser.add_argument("--opponents", default="greedy", help="the opponents' policy")
    parser.add_argument("--steps", type=int, default=None, help="fixed steps, no table")
    parser.add_argument("--ids", action="store_true", help="VecEnv(legal_ids=True)")
    parser.add_argument("--no-copy", action="store_true", help="VecEnv(copy=False)")
    args = parser.parse_args()
    if args.steps is not None:
        fixed_steps(args.envs[0], args.steps, args.threads[0], not args.no_copy, args.ids)
        return

    print(f"machine: {machine()}")
    print(f"ddz {version('ddz')}; classic, learner at seat 0, opponents {args.opponents!r}")
    header = (
        f"{'envs':>6}{'threads':>8}{'VecEnv':>12}{'copy=False':>12}{'+ids':>12}"
        f"{'VectorSeatEnv':>15}{'load':>7}"
    )
    print(f"{'':14}{'learner decisions/s':^36}{'steps/s':>15}")
    print(header)
    print("-" * len(header))
    for envs in args.envs:
        for threads in args.threads:
            go = (envs, args.seconds, threads)
            rate, _ = vecenv_rate(*go, copy=True, ids=False, opponents=args.opponents)
            shared, _ = vecenv_rate(*go, copy=False, ids=False, opponents=args.opponents)
            ids, _ = vecenv_rate(*go, copy=False, ids=True, opponents=args.opponents)
            vector = vector_rate(*go, opponents=args.opponents)
            print(
                f"{envs:>6}{threads:>8}{rate:>12,.0f}{shared:>12,.0f}{ids:>12,.0f}"
                f"{vector:>15,.0f}{load():>7}"
            )
        default = learner_env(envs, None, True, False, args.opponents).threads
        print(f"{'':6}(threads=None picks {default} for {envs} envs)")


if __name__ == "__main__":
    main()
