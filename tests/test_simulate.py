"""ddz.simulate: deals played in Rust agree with the Python Game."""

from __future__ import annotations

import json

import numpy as np
import pytest

import ddz
from ddz.game.deck import split_identities

SIMULATED = [
    "classic",
    "two-player",
    "four-player",
    "five-player",
    "five-player-3deck",
    "laizi",
    "six-player-2v4",
    "six-player-teams",
]
#: Presets whose flow names its landlords in a list (the first is reported
#: as "landlord", the second, if any, as "hidden_landlord").
MARKED_SIX = ("six-player-2v4", "six-player-teams")


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
        landlord = game.flow.landlords[0] if preset in MARKED_SIX else game.flow.landlord
        assert landlord == out["landlord"][i]
        landlord_won = landlord in game.result["winners"]
        assert out["winner_side"][i] == (0 if landlord_won else 1)
        trick_play = [a for _, a in game.history[len(game.history) - out["turns"][i] :]]
        assert sum(is_bomb(game.rules, a) for a in trick_play) == out["bombs"][i]
        if preset == "five-player":
            hidden = game.flow.hidden
            assert out["hidden_landlord"][i] == (-1 if hidden is None else hidden)
            assert out["revealed"][i] == game.flow.revealed
        if preset in MARKED_SIX:
            second = game.flow.landlords[1:]
            key = "second_landlord" if preset == "six-player-2v4" else "counter_landlord"
            assert out[key][i] == (second[0] if second else -1)
        if preset == "five-player-3deck":
            deputy = game.flow.deputy
            assert out["deputy"][i] == (-1 if deputy is None else deputy)
            assert out["revealed"][i] == game.flow.revealed


def is_bomb(rules: ddz.Rules, action: str) -> bool:
    """Was this history entry (a play's text, or 'pass') a bomb?"""
    if action == "pass":
        return False
    return any(m.is_bomb and str(m) == action for m in rules.classify(action.split("=")[0]))


def test_five_player_plays_the_copies_game_would_take() -> None:
    """Rust names the marked rank's copies each play takes ("ids"); `Game`
    left to itself (lowest suits first) takes the same ones."""
    out = ddz.simulate("five-player", 200, seed=5, record=200)
    marked_plays = 0
    for record in out["records"]:
        data = json.loads(record)
        rank = data["deals"][0]["marked"][0]
        plays = [a for _, a in data["actions"] if isinstance(a, dict)]
        for play in plays:
            play.pop("ids", None)
        game = ddz.Game.from_json(json.dumps(data))
        named = [a for _, a in json.loads(record)["actions"] if isinstance(a, dict)]
        taken = [cards for _, _, cards in game.actions if cards is not None]
        assert len(named) == len(taken)
        for by_rust, by_game in zip(named, taken):
            want = sorted(c for c in split_identities(by_game) if c[0] == rank)
            got = sorted(c for c in split_identities(by_rust.get("ids", "")) if c[0] == rank)
            assert got == want
            marked_plays += bool(want)
    assert marked_plays > 200
    # Both team shapes occur, and deals ending with the team public and secret.
    assert (out["hidden_landlord"] == -1).any() and (out["hidden_landlord"] >= 0).any()
    assert out["revealed"].any() and not out["revealed"].all()


@pytest.mark.parametrize("scheme", ["multiply", "power"])
def test_five_player_3deck_auto_wins_and_schemes_replay(scheme: str) -> None:
    """The rare auto-wins (no trick play) and both scoring schemes agree
    with `Game` too."""
    rules = ddz.Rules("five-player-3deck", score_scheme=scheme)
    for policy in ["random", "greedy"]:
        out = ddz.simulate(rules, 100, seed=8, policy=policy, record=100)
        for i, record in enumerate(out["records"]):
            assert ddz.Game.from_json(record).result["scores"] == list(out["scores"][i])
    many = ddz.simulate(rules, 40000, seed=1)
    auto = np.flatnonzero(many["turns"] == 0)
    assert len(auto) >= 3
    for i in auto:
        one = ddz.simulate(rules, 1, seed=1, record=1, first=int(i))
        game = ddz.Game.from_json(one["records"][0])
        assert game.result["auto_win"] in ("no-pair", "big-bomb", "no-bomb")
        assert game.result["scores"] == list(many["scores"][i])
        assert game.flow.landlord == many["landlord"][i]


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
    with pytest.raises(ValueError, match="six-player-3v3"):
        ddz.simulate("six-player-3v3", 10)
    with pytest.raises(ValueError, match="games"):
        ddz.simulate("classic", -1)
    with pytest.raises(ValueError, match="threads"):
        ddz.simulate("classic", 10, threads=0)
    assert ddz.simulate("classic", 0)["scores"].shape == (0, 3)
