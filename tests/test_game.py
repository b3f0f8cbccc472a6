"""Game flow of the one-landlord presets: whole deals, scoring, secrets, replay."""

from __future__ import annotations

import random
from copy import deepcopy

import pytest
from game_helpers import check_hidden_swap, check_same_seed_replays, finish, views_in_random_deals

import ddz
from ddz.agents import GreedyAgent, RandomAgent

# The one-landlord presets (the others have their own files).
PLAYABLE = ["classic", "two-player", "four-player", "laizi"]
DEALS_PER_PRESET = 500  # x2 agents: 1,000 deals per preset


@pytest.mark.parametrize("preset", PLAYABLE)
def test_random_and_greedy_deals_finish_and_score_to_zero(preset: str) -> None:
    n = ddz.Rules(preset).players
    for seed in range(DEALS_PER_PRESET):
        for agents in ([RandomAgent(seed * 10 + i) for i in range(n)], [GreedyAgent()] * n):
            g = finish(ddz.Game(preset, seed=seed), agents)
            result = g.result
            assert result is not None and sum(result["scores"]) == 0
            winner = next(s for s in range(n) if not g.hands[s])
            assert winner in result["winners"]
            landlord = g.roles()["landlord"]
            assert (landlord in result["winners"]) == (result["winners"] == [landlord])
            stake = 1
            for _, factor in result["events"]:
                stake *= factor
            assert result["multiplier"] == stake
            sign = 1 if landlord in result["winners"] else -1
            assert result["scores"][landlord] == sign * stake * (n - 1)
            assert all(result["scores"][s] == -sign * stake for s in range(n) if s != landlord)


@pytest.mark.parametrize("preset", PLAYABLE)
def test_same_seed_same_record_and_json_replays(preset: str) -> None:
    check_same_seed_replays(preset)


def deal_for_classic_example() -> dict:
    landlord = "3333 4444 X D 5 7 8 9 T J Q"
    kitty = "KKK"
    deck = [r for r in "3456789TJQKA2" for _ in range(4)] + ["X", "D"]
    for c in (landlord + kitty).replace(" ", ""):
        deck.remove(c)
    deck.remove("6")
    seat1 = ["6"] + deck[:16]
    seat2 = deck[16:]
    return {"hands": [landlord, "".join(seat1), "".join(seat2)], "kitty": kitty, "first": 0}


def test_classic_seed_example_bid_3_two_bombs_and_a_rocket() -> None:
    g = ddz.Game("classic", deal=deal_for_classic_example())
    script = ["bid:3", "5", "6", "pass", "3333", "pass", "pass", "4444", "pass", "pass"]
    script += ["XD", "pass", "pass", "789TJQ", "pass", "pass", "KKK"]
    for action in script:
        g.step(action)
    assert g.phase == "over"
    assert g.result["events"] == [["bid", 3], ["bomb", 2], ["bomb", 2], ["rocket", 2]]
    assert g.result["multiplier"] == 24
    assert g.result["scores"] == [48, -24, -24]


def test_spring_doubles_when_the_farmers_never_play() -> None:
    g = ddz.Game("classic", deal=deal_for_classic_example())
    script = ["bid:1", "pass", "pass", "3333", "pass", "pass", "4444", "pass", "pass", "XD"]
    script += ["pass", "pass", "789TJQK", "pass", "pass", "KK", "pass", "pass", "5"]
    for action in script:
        g.step(action)
    assert g.phase == "over"
    assert g.result["events"][-1] == ["spring", 2]
    assert g.result["scores"] == [2 * 16, -16, -16]


def test_leading_cannot_pass_and_a_follow_must_beat() -> None:
    g = ddz.Game("classic", deal=deal_for_classic_example())
    g.step("bid:3")
    with pytest.raises(ddz.IllegalAction, match="not allowed"):
        g.step("pass")
    g.step("Q")
    with pytest.raises(ddz.IllegalAction, match="does not beat"):
        g.step("6")
    with pytest.raises(ddz.IllegalAction, match="does not hold"):
        g.step("3333")


@pytest.mark.parametrize("preset", PLAYABLE)
def test_observations_hold_no_secret(preset: str) -> None:
    # What a seat sees must not change when cards it cannot see move between
    # other hands (and the untaken kitty): then it carries none of them.
    rng = random.Random(preset)
    shown = preset in ("classic", "laizi")
    for g, seat, obs in views_in_random_deals(preset, 60, rng):
        assert (obs["kitty"] is not None) == (
            g.kitty_given and (shown or seat == g.roles()["landlord"])
        )
        check_hidden_swap(g, seat, obs, rng)


def test_bad_deals_are_value_errors() -> None:
    good = deal_for_classic_example()
    for change, needle in [
        ({"hands": good["hands"][:2]}, "3 hands"),
        ({"kitty": "KK"}, "kitty"),
        ({"marked": "9h"}, "marked"),
        ({"first": 3}, "first"),
        ({"hands": [good["hands"][0].replace("5", "3"), *good["hands"][1:]]}, "copies"),
    ]:
        with pytest.raises(ValueError, match=needle):
            ddz.Game("classic", deal={**good, **change})


def test_laizi_kick_and_counter_kick_double() -> None:
    for seed in range(200):
        g = ddz.Game("laizi", seed=seed)
        g.step("bid:3")
        if g.phase != "kick":
            continue
        while g.legal_actions() == ["kick", "no-kick"]:
            g.step("kick")
        assert g.phase == "kick" and g.to_act == g.roles()["landlord"]
        assert g.legal_actions() == ["counter-kick", "no-counter-kick"]
        g.step("counter-kick")
        assert g.events == [["bid", 3], ["kick", 2], ["kick", 2], ["counter-kick", 2]]
        assert g.phase == "play"
        return
    pytest.fail("no deal reached the kick phase")


def test_each_observation_owns_its_history_lists() -> None:
    """Observations reuse nothing a caller can still see: an observation kept,
    or changed, is not changed by, and does not change, the next ones."""
    g = ddz.Game("classic", seed=3)
    kept = []
    for step in range(40):
        if g.phase == "over":
            break
        obs = g.observation(g.to_act)
        if step % 2:
            kept.append((obs, [list(e) for e in obs["history"]]))
        elif obs["history"]:
            obs["history"][0][1] = "changed"  # then dropped
            obs["history"][-1].append("extra")
        g.step(g.legal_actions()[0])
    fresh = g.observation(0)["history"]
    assert all(e[1] != "changed" and len(e) == 2 for e in fresh)
    assert fresh == [list(e) for e in g.history]
    for obs, copy in kept:
        assert obs["history"] == copy


CHANGES = ("keep list", "keep entry", "append", "reverse", "del", "edit")


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_history_lists_handed_out_again_read_as_made_afresh(preset: str) -> None:
    """A seat's history list comes back once its observation is gone: kept
    parts, changed parts and retroactive visibility never show in the next
    observation, which is always the seat's visible actions of the table."""
    rng = random.Random(preset)
    held: list = []
    for seed in range(2):
        g = ddz.Game(preset, seed=seed)
        while g.phase != "over":
            for seat in range(g.rules.players):
                history = g.observation(seat)["history"]
                want = [[s, a] for s, a in g.history if g.visible(seat, s, a)]
                assert history == want
                if history and rng.random() < 0.3:
                    change = rng.choice(CHANGES)
                    if change == "keep list":
                        held.append(history)
                    elif change == "keep entry":
                        history[0][1] = "kept"  # and held: must not come back
                        held.append(history[0])
                    elif change == "append":
                        history.append([0, "extra"])
                    elif change == "reverse":
                        history.reverse()
                    elif change == "del":
                        del history[0]
                    else:
                        history[-1][0] = 99
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])
        for seat in range(g.rules.players):  # some families show more at the end
            want = [[s, a] for s, a in g.history if g.visible(seat, s, a)]
            assert g.observation(seat)["history"] == want


def _change_dict(obs: dict, rng: random.Random, held: list) -> None:
    """One change a caller could make to an observation before dropping it."""
    key = rng.choice(list(obs))
    value = obs[key]
    change = rng.randrange(7)
    if change == 0:
        obs[key] = "changed"
    elif change == 1:
        del obs[key]
        obs[key] = value  # same keys, another order
    elif change == 2:
        obs["extra"] = 1
    elif change == 3:
        held.append(value)  # kept past the dict
    elif isinstance(value, list) and value and change == 4:
        value[0] = "changed"
    elif isinstance(value, list) and value and change == 5:
        held.append(value[0])
        if isinstance(value[0], list):
            value[0].append("extra")
    elif isinstance(value, (list, dict)) and change == 6:
        value.clear()
    else:
        held.append(dict(obs))  # a copy holding every value


@pytest.mark.parametrize("preset", ["classic", "laizi", "five-player", "six-player-2v4"])
def test_dropped_observation_dicts_changed_anyhow_never_show_in_the_next(preset: str) -> None:
    """A dropped observation's dict and lists may be filled again; whatever
    was done to them, the next observation reads as one made afresh, and
    nothing still held changes."""
    rng = random.Random(preset)
    held: list = []
    for seed in range(3):
        g = ddz.Game(preset, seed=seed)
        while g.phase != "over":
            seat = rng.randrange(g.rules.players) if rng.random() < 0.3 else g.to_act
            obs = g.observation(seat)
            want = deepcopy(obs)
            _change_dict(obs, rng, held)
            kept = [(item, deepcopy(item)) for item in held[-3:]]
            del obs
            assert g.observation(seat) == want
            assert list(g.observation(seat)) == list(want)
            for item, was in kept:
                assert item == was
            legal = g.legal_actions()
            g.step(legal[rng.randrange(len(legal))])


def test_repr_says_where_the_deal_stands_and_how_it_ended() -> None:
    game = ddz.Game("classic", seed=7)
    assert repr(game) == (
        f"<Game(Rules('classic'), seed=7), deal 1: {game.phase}, "
        f"seat {game.to_act} to act, cards left [17, 17, 17]>"
    )
    over = ddz.play("classic", [ddz.agents.GreedyAgent()] * 3, seed=3)
    result = over.result
    assert result is not None
    text = repr(over)
    assert "over" in text and f"×{result['multiplier']}" in text
    assert f"scores {result['scores']}" in text
    assert all(str(s) in text.split("win")[0] for s in result["winners"])
