"""ddz.simulate: deals played in Rust agree with the Python Game."""

from __future__ import annotations

import numpy as np
import pytest

import ddz

SIMULATED = ["classic", "two-player", "four-player", "laizi"]


@pytest.mark.parametrize("preset", SIMULATED)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_recorded_deals_replay_through_game_with_the_same_outcome(preset: str, policy: str) -> None:
    out = ddz.simulate(preset, 300, seed=3, policy=policy, record=300)
    n = ddz.Rules(preset).players
    assert out["scores"].shape == (300, n)
    assert (out["scores"].sum(axis=1) == 0).all()
    for i, record in enumerate(out["records"]):
        game = ddz.Game.from_json(record)
        assert game.phase == "over"
        assert game.result["scores"] == list(out["scores"][i])
        assert game.result["multiplier"] == out["multiplier"][i]
        assert game.flow.landlord == out["landlord"][i]
        landlord_won = game.flow.landlord in game.result["winners"]
        assert out["winner_side"][i] == (0 if landlord_won else 1)
        trick_play = [a for _, a in game.history[len(game.history) - out["turns"][i] :]]
        assert sum(is_bomb(game.rules, a) for a in trick_play) == out["bombs"][i]


def is_bomb(rules: ddz.Rules, action: str) -> bool:
    """Was this history entry (a play's text, or 'pass') a bomb?"""
    if action == "pass":
        return False
    return any(m.is_bomb and str(m) == action for m in rules.classify(action.split("=")[0]))


def test_same_seed_same_results_whatever_the_threads() -> None:
    one = ddz.simulate("classic", 2000, seed=9, threads=1)
    two = ddz.simulate("classic", 2000, seed=9, threads=2)
    for key in one:
        assert np.array_equal(one[key], two[key]), key
    other = ddz.simulate("classic", 2000, seed=10, threads=2)
    assert not np.array_equal(one["scores"], other["scores"])


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="policy"):
        ddz.simulate("classic", 10, policy="clever")
    with pytest.raises(ValueError, match="six-player-2v4"):
        ddz.simulate("six-player-2v4", 10)
    with pytest.raises(ValueError, match="games"):
        ddz.simulate("classic", -1)
    with pytest.raises(ValueError, match="threads"):
        ddz.simulate("classic", 10, threads=0)
    assert ddz.simulate("classic", 0)["scores"].shape == (0, 3)
