"""Game flow of six-player-3v3 and six-player-3v3-kitty: marked card, hidden
landlords, collisions and their bidding, kitty split, doubling, scoring,
secrets and replay."""

from __future__ import annotations

import json
import random

import pytest
from game_helpers import check_hidden_swap, check_same_seed_replays, finish, views_in_random_deals
from reference_flow import Game as ReferenceGame
from reference_flow.deck import deck, sort_key, split_identities, text
from reference_flow.flows.six_3v3 import KING_BOMB_STEP, stake

import ddz
from ddz.agents import GreedyAgent, RandomAgent

NO_KITTY, KITTY = "six-player-3v3", "six-player-3v3-kitty"
PRESETS = [NO_KITTY, KITTY]
DEALS_PER_PRESET = 500  # x2 agents: 1,000 deals per preset


def make_deal(preset: str, placed: dict[int, list[str]], marked: str = "9h", seed: int = 0):
    """A given deal: `placed` cards in those hands (all three copies of the
    marked card must be placed), the rest shuffled from `seed`; seat 0
    receives the marked card."""
    rules = ddz.Rules(preset)
    pool = deck(rules)
    hands: list[list[str]] = [[] for _ in range(rules.players)]
    for seat, cards in placed.items():
        for c in cards:
            pool.remove(c)
            hands[seat].append(c)
    assert marked not in pool, "place every copy of the marked card"
    random.Random(seed).shuffle(pool)
    kitty = [pool.pop() for _ in range(rules.kitty)]
    for h in hands:
        while len(h) < rules.hand_size:
            h.append(pool.pop())
    assert not pool
    return {"hands": [text(h) for h in hands], "kitty": text(kitty), "marked": marked, "first": 0}


def reference(g: ddz.Game) -> ReferenceGame:
    """The same deals and actions replayed on the reference Python flow
    (tests/reference_flow), which exposes the roles the table keeps to
    itself; every seat's view and the result must be the same in both."""
    deals = g.deals
    ref = ReferenceGame(g.rules, seed=0, deal=deals[0], _deals=deals[1:])
    for seat, action, ids in g.actions:
        assert ref.to_act == seat
        ref.step(action, cards=ids)
    assert (ref.phase, ref.to_act, ref.result) == (g.phase, g.to_act, g.result)
    for s in range(g.rules.players):
        assert ref.observation(s) == g.observation(s), f"seat {s}"
    return ref


class live:  # noqa: N801 (reads like the flow it stands for)
    """The reference flow's roles, replayed afresh at each attribute read."""

    def __init__(self, g: ddz.Game) -> None:
        self._g = g

    def __getattr__(self, name: str) -> object:
        return getattr(reference(self._g).flow, name)


def run(g: ddz.Game, script: list[tuple[int, str]]) -> None:
    """Each step names the seat expected to act."""
    for seat, action in script:
        assert g.to_act == seat, (g.to_act, seat, action)
        g.step(action)


def expected_events(g: ddz.Game) -> list[list]:
    """The multiplier events, rebuilt from the record alone."""
    if g.roles()["base"] is None:
        return [["auto-win", 2]]
    bids = [int(a[4:]) for _, a, _ in g.actions if isinstance(a, str) and a.startswith("bid:")]
    if g.roles()["hidden_count"] == 2:
        out = [["base", 3]]
    else:
        out = [["bid", max(bids, default=1)]]
    out += [["double", "+1"] for _, a, _ in g.actions if a == "double"]
    for _, a, _ in g.actions:
        if isinstance(a, ddz.Move):
            size = len(a.cards)
            if a.kind == "king_bomb":
                out.append(["king-bomb", f"+{KING_BOMB_STEP[size]}"])
            elif a.kind == "bomb" and size >= 6:
                out.append(["bomb", "+1"])
    return out


def check_result(g: ddz.Game) -> None:
    n = 6
    result = g.result
    assert result is not None and sum(result["scores"]) == 0
    json.dumps(result)
    ref = reference(g)
    flow = ref.flow
    start = ref.deals[-1]
    holders = {s for s in range(n) for c in start.hands[s] if c == flow.marked}
    assert flow.marked[0] not in "XD" and flow.marked not in start.kitty
    assert sum(c == flow.marked for h in start.hands for c in h) == 3
    assert flow.marked in start.hands[flow.holder] and flow.open[0] == flow.holder
    assert result["events"] == expected_events(g)
    w = stake(result["events"])
    assert result["multiplier"] == w
    if flow.base is None:  # seed 000: all three copies with the receiver
        assert g.rules.preset == NO_KITTY and holders == {flow.holder}
        assert result["winners"] == [flow.holder] and w == 2
        assert result["scores"][flow.holder] == 10 and sorted(result["scores"])[0] == -2
        return
    landlords = flow.landlords()
    assert len(landlords) == 3 and holders <= set(landlords)
    assert len(flow.open) + len(flow.hidden) == 3
    assert flow.base == (3 if len(flow.hidden) == 2 else max(flow.bids))
    bid_winners = flow.open[len(flow.open) - len(flow.bids) :]
    assert not holders & set(bid_winners)
    winner = next(s for s in range(n) if not g.hands[s])
    assert winner in result["winners"] and len(result["winners"]) == 3
    assert set(result["winners"]) in (set(landlords), set(range(n)) - set(landlords))
    assert all(result["scores"][s] == (w if s in result["winners"] else -w) for s in range(n))
    assert result["landlords"] == landlords


@pytest.mark.parametrize("preset", PRESETS)
def test_random_and_greedy_deals_finish_and_score_to_zero(preset: str) -> None:
    seen = set()
    for seed in range(DEALS_PER_PRESET):
        for agents in ([RandomAgent(seed * 10 + i) for i in range(6)], [GreedyAgent()] * 6):
            g = finish(ddz.Game(preset, seed=seed), agents)
            check_result(g)
            seen.add((g.roles()["hidden_count"], len(g.roles()["open_landlords"])))
    # every situation occurs: two hidden, one hidden, none (+ the 000 auto-win)
    assert seen == (
        {(2, 1), (1, 2), (0, 3), (0, 1)} if preset == NO_KITTY else {(2, 1), (1, 2), (0, 3)}
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_record_and_json_replays(preset: str) -> None:
    check_same_seed_replays(preset)


def test_seed_000_all_three_copies_with_the_receiver_wins_at_once() -> None:
    deal = make_deal(NO_KITTY, {0: ["9h", "9h", "9h"]})
    g = ddz.Game(NO_KITTY, deal=deal)
    assert g.phase == "over" and g.actions == []
    assert g.result == {
        "winners": [0],
        "scores": [10, -2, -2, -2, -2, -2],
        "multiplier": 2,
        "events": [["auto-win", 2]],
        "landlords": [0],
    }
    assert g.legal_actions() == []
    with pytest.raises(ddz.IllegalAction, match="over"):
        g.step("pass")
    again = ddz.Game.from_json(g.to_json())
    assert again.result == g.result and again.to_json() == g.to_json()


def test_no_collision_two_hidden_landlords_base_3_and_reveal() -> None:
    for preset in PRESETS:
        placed = {0: ["9h", "3d"], 2: ["9h"], 4: ["9h", "Td"]}
        g = ddz.Game(preset, deal=make_deal(preset, placed, seed=1))
        f = live(g)
        assert (f.open, f.hidden, g.phase, g.to_act) == ([0], [2, 4], "double", 0)
        assert g.events == [["base", 3]]
        if preset == KITTY:  # the lone open landlord takes all 12
            assert len(g.hands[0]) == 37 and g.observation(0)["kitty"] is not None
            assert len(f.shares[0]) == 12 and g.observation(1)["kitty"] is None
        assert g.observation(1)["landlords"] == [0] and g.observation(1)["role"] == "farmer"
        assert g.observation(2)["landlords"] == [0, 2]
        assert g.observation(2)["role"] == "hidden-landlord"
        assert g.observation(4)["landlords"] == [0, 4]
        assert g.observation(3)["hidden_count"] == 2
        run(g, [(s, "double" if s in (1, 2) else "no-double") for s in range(6)])
        assert g.phase == "play" and g.to_act == 0
        run(g, [(0, "3"), (1, "pass")])
        g.step("9", cards="9h")  # seat 2 plays the marked copy: revealed
        assert f.revealed == [2]
        assert g.observation(1)["landlords"] == [0, 2]
        assert g.observation(4)["landlords"] == [0, 2, 4]
        run(g, [(3, "pass")])
        g.step("T", cards="Td")  # seat 4 plays another card: still hidden
        assert f.revealed == [2] and g.observation(1)["landlords"] == [0, 2]
        finish(g, [GreedyAgent()] * 6)
        assert g.result["events"][:3] == [["base", 3], ["double", "+1"], ["double", "+1"]]
        check_result(g)
        assert g.observation(1)["landlords"] == [0, 2, 4]  # no secrets once over


@pytest.mark.parametrize("preset", PRESETS)
def test_case_1_receiver_holds_a_second_copy(preset: str) -> None:
    g = ddz.Game(preset, deal=make_deal(preset, {0: ["9h", "9h"], 3: ["9h"]}, seed=2))
    f = live(g)
    assert (g.phase, g.to_act, f.open, f.hidden) == ("bid", 1, [0], [3])
    assert g.observation(1)["hidden_count"] == 1 and g.observation(1)["role"] is None
    assert g.observation(3)["role"] == "hidden-landlord"
    script = [(1, "bid:1"), (2, "bid:2"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass")]
    for seat, action in script:
        if seat in (0, 3):  # copy holders pass by force, in their turn
            assert g.legal_actions() == ["pass"]
            with pytest.raises(ddz.IllegalAction):
                g.step("bid:3")
        else:
            assert "bid:3" in g.legal_actions()
        run(g, [(seat, action)])
    run(g, [(1, "pass")])
    assert (f.open, f.hidden, f.base, g.events) == ([0, 2], [3], 2, [["bid", 2]])
    assert (g.phase, g.to_act) == ("double", 0)
    if preset == KITTY:  # two open landlords: 6 each
        assert sorted(len(s) for s in f.shares.values()) == [6, 6]
        assert [len(h) for h in g.hands] == [31, 25, 31, 25, 25, 25]
        assert sorted(f.shares[0] + f.shares[2]) == sorted(g.kitty)
        for s in (0, 2):
            assert g.observation(s)["kitty_share"] == text(f.shares[s])
            assert g.observation(s)["kitty"] is None
        assert g.observation(1)["kitty_share"] is None
    finish(g, [RandomAgent(i) for i in range(6)])
    check_result(g)


@pytest.mark.parametrize("preset", PRESETS)
def test_case_2_another_player_holds_both_copies(preset: str) -> None:
    g = ddz.Game(preset, deal=make_deal(preset, {0: ["9h"], 2: ["9h", "9h"]}, seed=3))
    f = live(g)
    if preset == NO_KITTY:  # seed 000: the double holder is the second open landlord
        assert (g.phase, g.to_act, f.open, f.hidden) == ("bid", 3, [0, 2], [])
        assert g.observation(5)["open_landlords"] == [0, 2]
        run(g, [(3, "pass"), (4, "bid:3")])
    else:  # seed 002: the double holder is a hidden landlord, bidding after the receiver
        assert (g.phase, g.to_act, f.open, f.hidden) == ("bid", 1, [0], [2])
        assert g.observation(5)["open_landlords"] == [0]
        assert g.observation(5)["landlords"] == [0]
        assert g.observation(2)["landlords"] == [0, 2]
        run(g, [(1, "pass")])
        assert g.legal_actions() == ["pass"]
        run(g, [(2, "pass"), (3, "pass"), (4, "bid:3")])
    assert f.base == 3 and g.events == [["bid", 3]] and g.phase == "double"
    assert f.open == ([0, 2, 4] if preset == NO_KITTY else [0, 4])
    if preset == KITTY:
        assert sorted(f.shares) == [0, 4] and len(g.hands[4]) == 31
    finish(g, [GreedyAgent()] * 6)
    check_result(g)


@pytest.mark.parametrize("preset", PRESETS)
def test_all_pass_the_first_eligible_seat_takes_it_at_1(preset: str) -> None:
    # The copy holder after the receiver is skipped: seat 2 takes it at 1.
    placed = {0: ["9h", "9h"], 1: ["9h"]} if preset == NO_KITTY else {0: ["9h"], 1: ["9h", "9h"]}
    g = ddz.Game(preset, deal=make_deal(preset, placed, seed=4))
    run(g, [((1 + i) % 6, "pass") for i in range(6)])
    f = live(g)
    assert (f.open, f.hidden, f.bids, f.base) == ([0, 2], [1], [1], 1)
    assert g.events == [["bid", 1]] and g.phase == "double"
    finish(g, [RandomAgent(i) for i in range(6)])
    check_result(g)


def test_kitty_all_three_copies_two_rounds_three_open_landlords() -> None:
    g = ddz.Game(KITTY, deal=make_deal(KITTY, {0: ["9h", "9h", "9h"]}, seed=5))
    f = live(g)
    assert (g.phase, g.to_act, f.hidden) == ("bid", 1, [])
    assert g.observation(4)["hidden_count"] == 0
    run(g, [(1, "bid:2")] + [(s, "pass") for s in (2, 3, 4, 5, 0)])
    assert f.open == [0, 1] and g.phase == "bid" and g.to_act == 2  # round two after seat 1
    run(g, [(2, "pass"), (3, "bid:1"), (4, "pass"), (5, "pass")])
    for seat in (0, 1):  # the receiver and the first winner pass by force
        assert g.to_act == seat and g.legal_actions() == ["pass"]
        g.step("pass")
    run(g, [(2, "pass")])
    assert (f.open, f.bids, f.base, g.events) == ([0, 1, 3], [2, 1], 2, [["bid", 2]])
    assert sorted(len(s) for s in f.shares.values()) == [4, 4, 4]
    assert [len(h) for h in g.hands] == [29, 29, 25, 29, 25, 25]
    assert sorted(sum(f.shares.values(), [])) == sorted(g.kitty)
    for s in range(6):
        assert g.observation(s)["kitty"] is None
    finish(g, [GreedyAgent()] * 6)
    check_result(g)


def test_kitty_shares_come_from_the_top_in_the_order_named() -> None:
    # The kitty lies as the deal lists it; the open landlords take it from
    # the top in the order they were named, whatever the order of the cards.
    deal = make_deal(KITTY, {0: ["9h", "9h", "9h"]}, seed=8)
    order = split_identities(deal["kitty"])[::-1]  # high to low: not sorted
    deal["kitty"] = "".join(order)
    g = ddz.Game(KITTY, deal=deal)
    run(g, [(1, "bid:2")] + [(s, "pass") for s in (2, 3, 4, 5, 0)])
    run(g, [(2, "pass"), (3, "bid:1"), (4, "pass"), (5, "pass"), (0, "pass"), (1, "pass")])
    run(g, [(2, "pass")])
    f = live(g)
    assert f.open == [0, 1, 3]
    assert f.shares == {0: order[0:4], 1: order[4:8], 3: order[8:12]}
    assert g.observation(3)["kitty_share"] == text(order[8:12])
    record = json.loads(g.to_json())
    assert record["deals"][0]["kitty"] == deal["kitty"]  # the order is kept
    assert live(ddz.Game.from_json(g.to_json())).shares == f.shares

    # Two open landlords (case 1): 6 each, the receiver first.
    deal = make_deal(KITTY, {0: ["9h", "9h"], 3: ["9h"]}, seed=9)
    order = split_identities(deal["kitty"])
    order = order[1::2] + order[0::2]
    deal["kitty"] = "".join(order)
    g = ddz.Game(KITTY, deal=deal)
    run(g, [(1, "pass"), (2, "pass"), (3, "pass"), (4, "bid:3")])
    assert live(g).shares == {0: order[:6], 4: order[6:]}
    assert g.hands[4] == sorted(reference(g).deals[0].hands[4] + order[6:], key=sort_key)


def test_a_random_deal_records_the_kitty_as_dealt() -> None:
    # Dealt order, not sorted: the record fixes the shares, and replays them.
    unsorted = 0
    for seed in range(20):
        g = finish(ddz.Game(KITTY, seed=seed), [GreedyAgent()] * 6)
        kitty = json.loads(g.to_json())["deals"][0]["kitty"]
        assert split_identities(kitty) == reference(g).deals[0].kitty
        unsorted += kitty != text(reference(g).deals[0].kitty)
        shares = [c for s in live(g).open for c in live(g).shares[s]]
        assert shares == reference(g).deals[0].kitty
        again = ddz.Game.from_json(g.to_json())
        assert live(again).shares == live(g).shares and again.result == g.result
    assert unsorted > 15


@pytest.mark.parametrize("preset", PRESETS)
def test_forced_passes_keep_the_turn_order(preset: str) -> None:
    # Every seat takes its turn in each round of bidding, in order, and a
    # barred seat (it holds a copy) may only pass, like any other pass.
    bidding = 0
    for seed in range(150):
        g = ddz.Game(preset, seed=seed)
        if g.phase != "bid":
            continue
        bidding += 1
        agents = [RandomAgent(seed + i) for i in range(6)]
        turns: list[tuple[int, int]] = []
        while g.phase == "bid":
            seat, barred = g.to_act, live(g).auction.barred
            copies = [c for c in g.hands[seat] if c == g.roles()["marked"]]
            assert (seat in barred) == (bool(copies) or seat in live(g).open)
            legal = g.legal_actions()
            assert (legal == ["pass"]) == (seat in barred)
            turns.append((len(live(g).bids), seat))
            g.step(agents[seat].act(g.observation(seat), legal))
            assert g.history[-1][0] == seat
        for (r1, a), (r2, b) in zip(turns, turns[1:]):
            assert r1 != r2 or (b - a) % 6 == 1
        assert g.history[: len(turns)] == [(s, a) for s, a, _ in g.actions[: len(turns)]]
    assert bidding > 30


def move_hidden_role(game: ReferenceGame, viewer: int, rng: random.Random) -> bool:
    """Make another seat the (unrevealed) hidden landlord instead: swap its
    hand and role with a farmer's, neither being `viewer`."""
    f = game.flow
    hidden = [s for s in f.hidden if s not in f.revealed and s != viewer]
    if not hidden:
        return False
    h = rng.choice(hidden)
    others = [
        s
        for s in range(6)
        if s not in (viewer, h)
        and s not in f.open
        and s not in f.hidden
        and len(game.hands[s]) == len(game.hands[h])
    ]
    if not others:
        return False
    o = rng.choice(others)
    game.hands[h], game.hands[o] = game.hands[o], game.hands[h]
    f.hidden = [o if s == h else s for s in f.hidden]
    if f.auction is not None:
        f.auction.barred = frozenset(o if s == h else s for s in f.auction.barred)
    return True


@pytest.mark.parametrize("preset", PRESETS)
def test_observations_hold_no_secret(preset: str) -> None:
    # What a seat sees must not change when cards it cannot see move between
    # other hands (and the kitty not yet given), nor when the hidden landlord
    # role moves from one other seat to another.
    rng = random.Random(preset)
    moved = 0
    for g, seat, obs in views_in_random_deals(preset, 20, rng):
        twin = reference(g)  # one replay per view: replays cost
        f = twin.flow
        secret = [s for s in f.hidden if s not in f.revealed and s != seat]
        assert not set(secret) & set(obs["landlords"])
        assert obs["landlords"] == sorted(set(f.open) | set(f.revealed) | ({seat} & set(f.hidden)))
        if rng.random() < 0.1 or g.phase != "play":  # replays cost: sample the play
            check_hidden_swap(g, seat, obs, rng)
            if move_hidden_role(twin, seat, rng):
                moved += 1
                assert twin.observation(seat) == obs, f"seat {seat} sees a hidden landlord"
    assert moved > 60, moved  # 140 and 200 with these seeds


def test_doubling_once_each_from_the_receiver_who_leads() -> None:
    g = ddz.Game(NO_KITTY, deal=make_deal(NO_KITTY, {0: ["9h"], 2: ["9h"], 4: ["9h"]}, seed=6))
    order = []
    while g.phase == "double":
        order.append(g.to_act)
        assert g.legal_actions() == ["double", "no-double"]
        g.step("double")
    assert order == [0, 1, 2, 3, 4, 5] and g.phase == "play" and g.to_act == 0
    assert g.events == [["base", 3]] + [["double", "+1"]] * 6
    assert stake(g.events) == 3 * 7


def test_bombs_add_to_n() -> None:
    assert stake([["bid", 2], ["double", "+1"], ["bomb", "+1"], ["king-bomb", "+5"]]) == 2 * 8
    assert KING_BOMB_STEP == {3: 1, 4: 1, 5: 3, 6: 5}
    placed = {0: ["9h", "X", "X", "X", "D", "D", "D"], 2: ["9h"], 4: ["9h"]}
    g = ddz.Game(NO_KITTY, deal=make_deal(NO_KITTY, placed, seed=7))
    run(g, [(s, "no-double") for s in range(6)])
    g.step("XXXDDD")
    assert g.events == [["base", 3], ["king-bomb", "+5"]]


def test_bad_deals_are_value_errors() -> None:
    good = make_deal(KITTY, {0: ["9h"], 2: ["9h"], 4: ["9h"]})
    with pytest.raises(ValueError, match="receiver"):
        ddz.Game(KITTY, deal={**good, "first": 1})
    with pytest.raises(ValueError, match="marked"):
        ddz.Game(KITTY, deal={**good, "marked": "X"})
    with pytest.raises(ValueError, match="secret"):
        ddz.Game(KITTY, deal={**good, "secret": "Qs"})
    kitty_card = good["kitty"][:2]
    holder = next(i for i, h in enumerate(good["hands"]) if kitty_card[0] in h)
    with pytest.raises(ValueError, match="kitty|receiver"):
        ddz.Game(KITTY, deal={**good, "marked": kitty_card, "first": holder})
    unmarked = {k: v for k, v in good.items() if k != "marked"}
    g = ddz.Game(KITTY, deal=unmarked, seed=3)  # drawn from seat `first`'s hand
    marked = g.roles()["marked"]
    assert marked in g.hands[0] and marked not in g.kitty and marked[0] not in "XD"
    assert ddz.Game.from_json(g.to_json()).roles()["marked"] == marked


def test_random_marked_card_never_joker_and_never_in_the_kitty() -> None:
    for seed in range(300):
        g = ddz.Game(KITTY, seed=seed)
        m = g.roles()["marked"]
        assert m[0] not in "XD" and m not in reference(g).deals[-1].kitty
        assert m in reference(g).deals[-1].hands[live(g).holder]
