"""The RL examples: examples/train_vecenv.py (the numpy policy gradient of docs/rl.md
beats random play) and examples/douzero_actor.py (DouZero's actor loop on our Env)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DEALS = 1500


def load(name: str = "train_vecenv"):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_trained_policy_beats_random_play() -> None:
    example = load()
    w = example.train(300, seed=0)
    random_rate = example.win_rate(None, DEALS)
    learned = example.win_rate(w, DEALS)
    # Two-proportion z test over independent deals; 5 standard errors is far
    # beyond chance, and the gap measured is about 0.23 (0.55 -> 0.78).
    pooled = (random_rate + learned) / 2
    se = math.sqrt(2 * pooled * (1 - pooled) / DEALS)
    assert (learned - random_rate) / se > 5, (random_rate, learned)


def test_douzero_actor_loop_fills_every_position() -> None:
    example = load("douzero_actor")
    from ddz.envs.douzero import Env

    filled = example.act(Env("wp", seed=3), example.StandInModel(seed=1), deals=8)
    # Every position acts in every deal; the targets cover each step it took.
    assert all(steps >= 8 for steps, _ in filled.values()), filled


def test_dmc_trains_and_is_evaluated_as_a_batch_policy() -> None:
    # A few seconds of the DMC example (its strength is the bench's:
    # benches/dmc_classic.py); here that it runs, learns from every ended
    # deal, and plays ddz.evaluate as a batch policy.
    example = load("dmc_classic")
    seen: list[tuple[float, int]] = []
    net = example.train(3.0, envs=64, on_report=lambda net, t, deals: seen.append((t, deals)))
    assert seen and seen[-1][1] > 0
    figures = example.win_rate(net, 20)
    assert 0.0 <= figures["overall"]["wp"]["value"] <= 1.0
    assert figures["a"] == "dmc" and figures["b"] == "greedy"


def test_dmc_picks_the_best_legal_action_of_each_env() -> None:
    import numpy as np

    example = load("dmc_classic")
    q = np.array([0.1, 0.7, 0.7, -1.0, 0.3, 0.2, 0.9], np.float32)
    offsets = np.array([0, 3, 4, 7])
    assert example.best_indices(q, offsets).tolist() == [1, 0, 2]
    import ddz

    obs = ddz.VecEnv("classic", 4, seats=[0], opponents="greedy").observe()
    assert example.features(obs).shape == (obs["legal_offsets"][-1], example.INPUTS)
