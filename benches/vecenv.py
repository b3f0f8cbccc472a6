"""Decisions per second of ``ddz.VecEnv``, every preset the table plays; print a table.

    python benches/vecenv.py [--envs N] [--seconds S] [--threads N] [PRESET ...]
    python benches/vecenv.py --steps N [--threads N] [--no-copy] PRESET  # fixed work, callgrind

On a shared machine wall-clock rates move with the load (each row prints the load
average); ``--steps`` runs a fixed number of steps and prints no rate table, so that
``valgrind --tool=callgrind`` counts instructions per step independent of the load
(run it with two step counts and take the difference, which removes start-up).

Each row steps ``--envs`` envs for ``--seconds`` from Python: every step draws one
uniformly random legal index per env in numpy from the returned observation's
``legal_offsets`` and passes it to ``step``, which returns the observation arrays
(every field of docs/rl.md): fresh ones (the default, ``copy=True``), and in a
second column the env's own, overwritten by the next step (``copy=False``). The
draw writes into arrays made once (the same numbers as
``(rng.random(n) * np.diff(offsets)).astype(np.int64)``), so that the loop
measures the env rather than numpy's allocations. A decision is one env's step
(bids and plays alike), so a step of 256 envs is 256 decisions. ``ddz.simulate``
(random policy, whole deals in Rust, no observations) runs beside each row on the
same threads, as the machine's yardstick:
its deals/s and the VecEnv's are the same unit. With OpenSpiel installed, its random playout loop in
Python on classic (``legal_actions()`` + ``apply_action`` per decision, chance nodes
not counted) runs in the same process for comparison.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from compare import machine, version  # noqa: E402

import ddz  # noqa: E402


class Draw:
    """Uniformly random legal indices, one per env, into arrays made once."""

    def __init__(self, envs: int, seed: int = 1) -> None:
        self.rng = np.random.default_rng(seed)
        self.u = np.empty(envs)
        self.counts = np.empty(envs, dtype=np.int64)
        self.actions = np.empty(envs, dtype=np.int64)

    def __call__(self, offsets: np.ndarray) -> np.ndarray:
        np.subtract(offsets[1:], offsets[:-1], out=self.counts)
        self.rng.random(out=self.u)
        np.multiply(self.u, self.counts, out=self.u)
        np.copyto(self.actions, self.u, casting="unsafe")
        return self.actions


def vecenv_rate(
    preset: str, envs: int, seconds: float, threads: int | None, copy: bool = True
) -> tuple[float, int]:
    """Decisions per second, and deals finished, over `seconds` of random stepping."""
    env = ddz.VecEnv(preset, envs, seed=1, threads=threads, copy=copy)
    draw = Draw(envs)
    obs = env.reset()
    steps = deals = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            obs, _, terminated, _ = env.step(draw(obs["legal_offsets"]))
            deals += int(terminated.sum())
        steps += 20
    return steps * envs / (time.perf_counter() - t0), deals


def fixed_steps(preset: str, envs: int, steps: int, threads: int | None, copy: bool) -> None:
    """`steps` steps of random legal indices, as `vecenv_rate` takes them."""
    env = ddz.VecEnv(preset, envs, seed=1, threads=threads, copy=copy)
    draw = Draw(envs)
    obs = env.reset()
    for _ in range(steps):
        obs, _, _, _ = env.step(draw(obs["legal_offsets"]))


def load() -> str:
    """The 1-minute load average, where the system tells it."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def simulate_rate(preset: str, threads: int | None) -> float:
    """Deals per second of ``ddz.simulate(policy="random")``, best of three chunks."""
    best = float("inf")
    for chunk in range(3):
        t0 = time.perf_counter()
        ddz.simulate(preset, 5_000, seed=1, policy="random", threads=threads, first=chunk * 5_000)
        best = min(best, time.perf_counter() - t0)
    return 5_000 / best


def pyspiel_rate(
    seconds: float, observe: bool = False, decisions: int | None = None
) -> float | None:
    """OpenSpiel's dou_dizhu driven from Python, random at every decision (chance
    nodes, the deal, sampled and not counted); with `observe`, its
    `observation_tensor()` is read before every decision too; with `decisions`,
    at least that many decisions whatever the time (fixed work, for callgrind).
    None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(1)
    decisions_wanted, decisions = decisions, 0
    t0 = time.perf_counter()
    while decisions < limit if (limit := decisions_wanted) else time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if observe:
                    state.observation_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return decisions / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=256, help="envs per VecEnv")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per row")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: all)")
    table_presets = list(ddz.PRESETS)
    parser.add_argument("presets", nargs="*", default=table_presets, metavar="PRESET")
    parser.add_argument("--steps", type=int, default=None, help="fixed steps, no table")
    parser.add_argument("--no-copy", action="store_true", help="with --steps: VecEnv(copy=False)")
    args = parser.parse_args()
    unknown = sorted(set(args.presets) - set(table_presets))
    if unknown:
        parser.error(f"the table does not play {unknown}; it plays {table_presets}")

    if args.steps is not None:
        for preset in args.presets:
            fixed_steps(preset, args.envs, args.steps, args.threads, not args.no_copy)
        return

    print(f"machine: {machine()}")
    threads = ddz.VecEnv("classic", args.envs, threads=args.threads).threads
    print(f"ddz {version('ddz')}, threads {threads} (the VecEnv's; threads=None picks by envs)")
    print(
        f"VecEnv, {args.envs} envs, random legal indices drawn in numpy, observations"
        f" every step, {args.seconds:g} s per row"
    )
    header = (
        f"{'preset':<24}{'decisions/s':>14}{'copy=False':>12}{'deals/s':>12}"
        f"{'simulate deals/s':>18}{'load':>7}"
    )
    print(header)
    print("-" * len(header))
    for preset in args.presets:
        rate, deals = vecenv_rate(preset, args.envs, args.seconds, args.threads)
        shared, _ = vecenv_rate(preset, args.envs, args.seconds, args.threads, copy=False)
        sim = simulate_rate(preset, args.threads)
        print(
            f"{preset:<24}{rate:>14,.0f}{shared:>12,.0f}{deals / args.seconds:>12,.0f}"
            f"{sim:>18,.0f}{load():>7}"
        )
    spiel = pyspiel_rate(args.seconds)
    if spiel is None:
        print("OpenSpiel: not installed")
    else:
        print(f"{'OpenSpiel dou_dizhu, Python loop':<24}{spiel:>14,.0f}{'':>30}{load():>7}")


if __name__ == "__main__":
    main()
