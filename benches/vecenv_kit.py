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
columns: the default options (``copy=True``), ``copy=False``, ``copy=False`` with
``legal_ids=True``, and ``VectorSeatEnv`` with ``copy=True`` and ``copy=False``;
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


class Rate:
    """Steps of all envs per second of wall time, and per second of this
    process's CPU time (on a machine other work shares, the CPU rate is what a
    core gives when it is ours; the wall rate is what we got)."""

    def __init__(self, envs: int) -> None:
        self.envs, self.steps = envs, 0
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def running(self, seconds: float) -> bool:
        return time.perf_counter() - self.wall < seconds

    def text(self) -> str:
        wall = self.steps * self.envs / (time.perf_counter() - self.wall)
        cpu = self.steps * self.envs / (time.process_time() - self.cpu)
        return f"{wall / 1e6:.2f}M ({cpu / 1e6:.2f}M)"


def vecenv_rate(
    envs: int, seconds: float, threads: int | None, copy: bool, ids: bool, opponents: str
) -> str:
    """Learner decisions per second over `seconds`: wall (CPU)."""
    env = learner_env(envs, threads, copy, ids, opponents)
    draw = Draw(envs)
    obs = env.reset()
    rate = Rate(envs)
    while rate.running(seconds):
        for _ in range(20):
            obs, *_ = env.step(draw(obs["legal_offsets"]), by="index")
        rate.steps += 20
    return rate.text()


def vector_rate(envs: int, seconds: float, threads: int | None, opponents: str, copy: bool) -> str:
    """`VectorSeatEnv` steps (one per env) per second over `seconds`: wall (CPU)."""
    from ddz.envs.gymnasium import VectorSeatEnv

    env = VectorSeatEnv("classic", envs, 0, opponents=opponents, threads=threads, copy=copy)
    draw = Draw(envs)
    _, infos = env.reset(seed=1)
    rate = Rate(envs)
    while rate.running(seconds):
        for _ in range(20):
            off = infos["legal_offsets"]
            ids = infos["legal_ids"][off[:-1] + draw(off)]
            _, _, _, _, infos = env.step(ids)
        rate.steps += 20
    return rate.text()


def fixed_steps(envs: int, steps: int, threads: int | None, copy: bool, ids: bool) -> None:
    env = learner_env(envs, threads, copy, ids, "greedy")
    draw = Draw(envs)
    obs = env.reset()
    for _ in range(steps):
        obs, *_ = env.step(draw(obs["legal_offsets"]), by="index")


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
    print("millions a second of wall time (of this process's CPU time)")
    columns = ("VecEnv", "copy=False", "+legal_ids", "Vector", "Vector, copy=False")
    header = f"{'envs':>5}{'thr':>4}" + "".join(f"{c:>19}" for c in columns) + f"{'load':>6}"
    print(header)
    print("-" * len(header))
    for envs in args.envs:
        for threads in args.threads:
            go, opp = (envs, args.seconds, threads), args.opponents
            rates = [
                vecenv_rate(*go, copy=True, ids=False, opponents=opp),
                vecenv_rate(*go, copy=False, ids=False, opponents=opp),
                vecenv_rate(*go, copy=False, ids=True, opponents=opp),
                vector_rate(*go, opponents=opp, copy=True),
                vector_rate(*go, opponents=opp, copy=False),
            ]
            row = "".join(f"{r:>19}" for r in rates)
            print(f"{envs:>5}{threads:>4}{row}{load():>6}", flush=True)
        default = learner_env(envs, None, True, False, args.opponents).threads
        print(f"{'':5}(threads=None picks {default} for {envs} envs)")


if __name__ == "__main__":
    main()
