"""examples/dmc_douzero.py, DMC on DouZero's features, on every preset it
names: a few steps train both networks, and its evaluation plays the same
deals in both seatings. Its strength is measured by the example itself
(docs/rl.md, "A worked example: DMC on any preset"), not here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dmc_douzero.py"


def load():
    spec = importlib.util.spec_from_file_location("dmc_douzero", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


example = load()


@pytest.mark.parametrize("preset", example.PRESETS)
def test_a_few_steps_train_both_networks(preset: str) -> None:
    seen: list[int] = []
    learner = example.train(
        preset,
        seconds=60.0,
        envs=8,
        batch=16,
        hidden=16,
        max_steps=80,
        on_report=lambda learner, t, deals: seen.append(deals),
    )
    # Reported untrained and at the end, with ended deals in between.
    assert seen[0] == 0 and seen[-1] > 0
    before = example.Learner(preset, hidden=16)
    for role, net in learner.nets.items():
        assert net.t > 0, role  # Adam steps were taken
        assert not np.allclose(net.params[0], before.nets[role].params[0]), role
    figures = example.win_rate(preset, example.greedy_of(learner), 6)
    assert 0.0 <= figures["overall"]["value"] <= 1.0


@pytest.mark.parametrize("preset", example.PRESETS)
def test_evaluation_plays_the_same_deals_in_both_seatings(preset: str) -> None:
    # Against greedy, index 0 is greedy itself, so each deal's two games are
    # one game seen from both sides: exactly one of them is won, if and only
    # if both seatings were dealt the same cards.
    deals = 40
    as_landlord = example.games(preset, example.index_zero, deals, 7, True, "greedy")
    as_farmers = example.games(preset, example.index_zero, deals, 7, False, "greedy")
    assert ((as_landlord + as_farmers) == 1).all()
    assert 0 < as_landlord.sum() < deals  # not every deal the same way
    assert example.win_rate(preset, example.index_zero, deals, seed=7)["overall"]["value"] == 0.5


def test_the_network_picks_its_best_legal_action() -> None:
    q = np.array([0.1, 0.7, 0.7, -1.0, 0.3, 0.2, 0.9], np.float32)
    assert example.best_indices(q, np.array([0, 3, 4, 7])).tolist() == [1, 0, 2]
    net = example.QNet(5, 3, hidden=8)
    rng = np.random.default_rng(0)
    ctx, act = rng.random((2, 5), np.float32), rng.random((4, 3), np.float32)
    offsets = np.array([0, 1, 4])
    # The split first layer gives the Q of the joined rows.
    joined = np.concatenate([ctx[[0, 1, 1, 1]], act], axis=1)
    w1, b1, w2, b2, w3, b3 = net.params
    full = (np.maximum(np.maximum(joined @ w1 + b1, 0) @ w2 + b2, 0) @ w3 + b3)[:, 0]
    assert np.allclose(net.q(ctx, act, offsets), full, atol=1e-5)
