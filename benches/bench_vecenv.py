"""``ddz.VecEnv`` steps: 256 envs, random legal indices drawn in numpy, every preset.

Run ``pytest benches/bench_vecenv.py --benchmark-enable``; the normal test run
(``--benchmark-disable``) runs each once as a smoke test.  One round is 20 steps of
all 256 envs (5,120 decisions).  ``benches/vecenv.py`` prints decisions per second.
"""

from __future__ import annotations

import numpy as np
import pytest

import ddz

ENVS = 256
STEPS = 20


@pytest.mark.parametrize("preset", list(ddz.PRESETS))
def test_vecenv_steps(benchmark, preset):
    benchmark.group = "vecenv"
    env = ddz.VecEnv(preset, ENVS, seed=1)
    rng = np.random.default_rng(1)
    state = {"obs": env.reset()}

    def steps() -> int:
        obs = state["obs"]
        for _ in range(STEPS):
            counts = np.diff(obs["legal_offsets"])
            obs, _, _, _ = env.step((rng.random(ENVS) * counts).astype(np.int64))
        state["obs"] = obs
        return STEPS * ENVS

    assert benchmark(steps) == STEPS * ENVS


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_vecenv_steps_with_opponents_inside(benchmark, opponents):
    # Seat 0 learns; the other seats are played inside each step
    # (benches/vecenv_kit.py prints learner decisions per second).
    benchmark.group = "vecenv-opponents"
    env = ddz.VecEnv("classic", ENVS, seed=1, seats=[0], opponents=opponents, copy=False)
    rng = np.random.default_rng(1)
    state = {"obs": env.reset()}

    def steps() -> int:
        obs = state["obs"]
        for _ in range(STEPS):
            counts = np.diff(obs["legal_offsets"])
            obs, _, _, _ = env.step((rng.random(ENVS) * counts).astype(np.int64))
            assert (obs["seat"] == 0).all()
        state["obs"] = obs
        return STEPS * ENVS

    assert benchmark(steps) == STEPS * ENVS
