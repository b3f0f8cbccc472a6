"""ddz.simulate: deals played in Rust agree with the Python Game."""

from __future__ import annotations

import json

import numpy as np
import pytest
from reference_flow import Game as Reference
from reference_flow.deck import split_identities

import ddz

SIMULATED = [
    "classic",
    "two-player",
    "four-player",
    "five-player",
    "five-player-3deck",
    "laizi",
    "six-player-2v4",
    "six-player-teams",
    "six-player-3v3",
    "six-player-3v3-kitty",
]
#: Presets whose flow names its landlords in a list (the first is reported
#: as "landlord", the second, if any, as "hidden_landlord").
MARKED_SIX = ("six-player-2v4", "six-player-teams")
#: Presets with open and hidden landlords around one marked card.
THREE_V_THREE = ("six-player-3v3", "six-player-3v3-kitty")


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
        if preset in THREE_V_THREE:
            landlord = reference_flow(game).holder
        elif preset in MARKED_SIX:
            landlord = game.roles()["landlords"][0]
        else:
            landlord = game.roles()["landlord"]
        assert landlord == out["landlord"][i]
        landlord_won = landlord in game.result["winners"]
        assert out["winner_side"][i] == (0 if landlord_won else 1)
        trick_play = [a for _, a in game.history[len(game.history) - out["turns"][i] :]]
        assert sum(is_bomb(game.rules, a) for a in trick_play) == out["bombs"][i]
        if preset == "five-player":
            hidden = seat_with_role(game, "hidden-landlord")
            assert out["hidden_landlord"][i] == (-1 if hidden is None else hidden)
            assert out["revealed"][i] == game.roles()["revealed"]
        if preset in MARKED_SIX:
            second = game.roles()["landlords"][1:]
            key = "second_landlord" if preset == "six-player-2v4" else "counter_landlord"
            assert out[key][i] == (second[0] if second else -1)
        if preset == "five-player-3deck":
            deputy = seat_with_role(game, "deputy")
            assert out["deputy"][i] == (-1 if deputy is None else deputy)
            assert out["revealed"][i] == game.roles()["revealed"]
        if preset in THREE_V_THREE:
            check_3v3_roles(out, i, game)


def seat_with_role(game: ddz.Game, role: str) -> int | None:
    """The seat whose own observation names `role` (a hidden partner knows
    itself), or None."""
    n = game.rules.players
    return next((s for s in range(n) if game.observation(s)["role"] == role), None)


def reference_flow(game: ddz.Game):  # noqa: ANN201 (a reference flow object)
    """The flow of the same deal replayed on the reference Python flow, which
    shows the hidden roles the table keeps to itself."""
    deals = game.deals
    ref = Reference(game.rules, seed=0, deal=deals[0], _deals=deals[1:])
    for _, action, ids in game.actions:
        ref.step(action, cards=ids)
    assert ref.result == game.result
    return ref.flow


def check_3v3_roles(out: dict, i: int, game: ddz.Game) -> None:
    """The roles `simulate` reports for deal `i` are those of the reference
    replay."""
    f = reference_flow(game)
    assert list(out["open_landlords"][i]) == padded(f.open, 3)
    assert list(out["hidden_landlords"][i]) == padded(f.hidden, 2)
    assert list(out["revealed"][i]) == [h in f.revealed for h in padded(f.hidden, 2)]


def padded(seats: list[int], width: int) -> list[int]:
    return seats + [-1] * (width - len(seats))


def role_case(game: ddz.Game) -> str:
    """Where the marked card's other copies lie, as the flow decided."""
    f = reference_flow(game)
    if len(f.hidden) == 2:
        return "two hidden"
    if f.base is None or len(f.bids) == 2:
        return "all three with the receiver"
    deal = game.deals[-1]  # the last deal as `Game` records it
    assert deal["marked"] == f.marked
    holders = [
        s for s, hand in enumerate(deal["hands"]) for c in split_identities(hand) if c == f.marked
    ]
    return "case (1)" if holders.count(f.holder) == 2 else "case (2)"


def forced_rounds(actions: list) -> int:
    """Bidding rounds in which all six seats passed, so that the first seat
    allowed to bid took it at 1."""
    forced, bid, passes = 0, 0, 0
    for _, action in actions:
        if action in ("double", "no-double"):
            break
        if action == "pass":
            passes += 1
        else:
            bid, passes = int(action[4:]), 0
        if bid == 3 or (bid and passes == 5) or passes == 6:
            forced += passes == 6
            bid, passes = 0, 0
    return forced


@pytest.mark.parametrize("preset", THREE_V_THREE)
def test_six_3v3_every_role_case_and_forced_taker_replays(preset: str) -> None:
    """Every placement of the copies occurs and replays, and so does the
    rare all-pass bidding (about one round in 250 under random bids)."""
    cases: dict[str, int] = {}
    forced = 0
    for policy, games in [("random", 8000), ("greedy", 300)]:  # greedy always bids
        out = ddz.simulate(preset, games, seed=11, policy=policy, record=games)
        for i, record in enumerate(out["records"]):
            actions = json.loads(record)["actions"]
            rounds = forced_rounds(actions)
            if rounds == 0 and i >= 300:
                continue  # replays cost: the first 300, and every forced taker
            forced += rounds
            game = ddz.Game.from_json(record)
            assert game.result["scores"] == list(out["scores"][i])
            assert game.result["multiplier"] == out["multiplier"][i]
            assert reference_flow(game).holder == out["landlord"][i]
            check_3v3_roles(out, i, game)
            case = role_case(game)
            cases[case] = cases.get(case, 0) + 1
    assert set(cases) == {"two hidden", "case (1)", "case (2)", "all three with the receiver"}
    assert forced >= 8, forced


def is_bomb(rules: ddz.Rules, action: str) -> bool:
    """Was this history entry (a play's text, or 'pass') a bomb?"""
    if action == "pass":
        return False
    return any(m.is_bomb and str(m) == action for m in rules.classify(action.split("=")[0]))


@pytest.mark.parametrize("preset", ["five-player", *THREE_V_THREE])
def test_plays_take_the_copies_game_would_take(preset: str) -> None:
    """Rust names the marked rank's copies each play takes ("ids"); `Game`
    left to itself (lowest suits first) takes the same ones, and so reveals
    the same hidden landlords."""
    out = ddz.simulate(preset, 200, seed=5, record=200)
    marked_plays = 0
    for i, record in enumerate(out["records"]):
        data = json.loads(record)
        rank = data["deals"][0]["marked"][0]
        plays = [a for _, a in data["actions"] if isinstance(a, dict)]
        for play in plays:
            play.pop("ids", None)
        game = ddz.Game.from_json(json.dumps(data))
        assert game.result["scores"] == list(out["scores"][i])
        if preset in THREE_V_THREE:
            check_3v3_roles(out, i, game)
        named = [a for _, a in json.loads(record)["actions"] if isinstance(a, dict)]
        taken = [cards for _, _, cards in game.actions if cards is not None]
        assert len(named) == len(taken)
        for by_rust, by_game in zip(named, taken):
            want = sorted(c for c in split_identities(by_game) if c[0] == rank)
            got = sorted(c for c in split_identities(by_rust.get("ids", "")) if c[0] == rank)
            assert got == want
            marked_plays += bool(want)
    assert marked_plays > 200
    if preset == "five-player":
        # Both team shapes occur, and deals ending with the team public and secret.
        assert (out["hidden_landlord"] == -1).any() and (out["hidden_landlord"] >= 0).any()
        assert out["revealed"].any() and not out["revealed"].all()
    else:
        # Hidden landlords end the deal both revealed and still secret.
        hidden = out["hidden_landlords"] >= 0
        assert out["revealed"][hidden].any() and not out["revealed"][hidden].all()


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
        assert game.roles()["landlord"] == many["landlord"][i]


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
    with pytest.raises(ValueError, match="games"):
        ddz.simulate("classic", -1)
    with pytest.raises(ValueError, match="threads"):
        ddz.simulate("classic", 10, threads=0)
    assert ddz.simulate("classic", 0)["scores"].shape == (0, 3)
