"""The game-flow options of the one-landlord family (docs/rules.md): each
changes the deal as documented, and rule sets the table cannot play are
refused when the Rules is built."""

from __future__ import annotations

import pytest
from test_game import deal_for_classic_example

import ddz
from ddz.agents import RandomAgent


@pytest.mark.parametrize(
    ("preset", "options", "needle"),
    [
        ("classic", {"kicks": True}, "kicks"),
        ("laizi", {"kick_factor": 0}, "kick_factor"),
        ("laizi", {"kick_factor": 17}, "kick_factor"),
        ("classic", {"doubling_bomb": 3}, "doubling_bomb"),
        ("classic", {"doubling_bomb": 5}, "doubling_bomb"),  # one deck: 4 is the largest
        ("classic", {"six_beats_five": False}, "six_beats_five"),
        ("classic", {"bidding": "auction"}, "bidding|`rounds`, `call`, `once`"),
    ],
)
def test_rule_sets_the_table_cannot_play_are_refused(
    preset: str, options: dict, needle: str
) -> None:
    with pytest.raises(ValueError, match=needle):
        ddz.Rules(preset, **options)
    with pytest.raises(ValueError, match=needle):
        ddz.Rules.from_dict({**ddz.Rules(preset).to_dict(), **options})


@pytest.mark.parametrize("smallest", [4, 5, 6])
def test_doubling_bomb_picks_the_bombs_that_double(smallest: int) -> None:
    rules = ddz.Rules("laizi", doubling_bomb=smallest)
    seen = 0
    for seed in range(60):
        g = ddz.play(rules, [RandomAgent(seed + i) for i in range(3)], seed=seed)
        bombs = [a for _, a, _ in g.actions if isinstance(a, ddz.Move) and a.kind == "bomb"]
        doubling = [b for b in bombs if b.length >= smallest]
        assert [e for e in g.result["events"] if e[0] == "bomb"] == [["bomb", 2]] * len(doubling)
        seen += len(bombs) - len(doubling)
    assert seen or smallest == 4  # some bombs were too small to double
    assert ddz.Rules("four-player").to_dict()["doubling_bomb"] == 6


def test_kick_factor_multiplies_each_kick() -> None:
    rules = ddz.Rules("laizi", kick_factor=3)
    for seed in range(200):
        g = ddz.Game(rules, seed=seed)
        g.step("bid:3")
        if g.phase != "kick":
            continue
        g.step("kick")
        while g.legal_actions() == ["kick", "no-kick"]:
            g.step("no-kick")
        g.step("counter-kick")
        assert g.events == [["bid", 3], ["kick", 3], ["counter-kick", 3]]
        return
    pytest.fail("no deal reached the kick phase")


def test_laizi_without_kicks_plays_at_once() -> None:
    g = ddz.Game(ddz.Rules("laizi", kicks=False), seed=1)
    g.step("bid:3")
    assert g.phase == "play"


def test_bidding_and_kitty_options_make_classic_play_like_two_player() -> None:
    rules = ddz.Rules("classic", bidding="call", kitty_shown=False)
    g = ddz.Game(rules, deal=deal_for_classic_example())
    assert g.legal_actions() == ["pass", "call"]
    g.step("call")
    assert g.events == [["bid", 1]] and g.phase == "play"
    assert g.observation(0)["kitty"] == "KcKhKs"  # a hand took the first K
    assert g.observation(1)["kitty"] is None


def test_strong_hand_bids_force_a_taker_when_all_pass() -> None:
    rules = ddz.Rules("classic", strong_hand_bids=True)
    g = ddz.Game(rules, deal={**deal_for_classic_example(), "first": 1})
    for _ in range(3):
        g.step("pass")
    # Seat 0 holds X and D: the first such seat in bidding order from seat 1.
    assert g.events == [["forced-bid", 1]] and g.to_act == 0 and g.phase == "play"


def test_six_beats_five_orders_hi_bombs() -> None:
    def bomb(rules: ddz.Rules, cards: str) -> ddz.Move:
        return next(m for m in rules.classify(cards) if m.kind == "bomb")

    for rules, six_wins in (
        (ddz.Rules("laizi"), True),
        (ddz.Rules("laizi", six_beats_five=False), False),
    ):
        six, five = bomb(rules, "3333LL"), bomb(rules, "444LL")
        assert (six.length, five.length) == (6, 5)
        assert rules.beats(six, five) == six_wins
        assert rules.beats(five, six) == (not six_wins)
        # Hi bombs still beat the rocket and hard bombs.
        assert rules.beats(six, bomb(rules, "AAAA")) and rules.beats(five, "XD")
