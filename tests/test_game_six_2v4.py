"""Game flow of six-player-2v4 (新六人) and six-player-teams (正反六人): whole
deals, the additive stake, the seven-joker dead card, auto-wins, side
picking, show-hand, replay and secrecy."""

from __future__ import annotations

import json
import random

import pytest
from game_helpers import check_hidden_swap, check_same_seed_replays, finish, views_in_random_deals
from reference_flow.deck import deck, split_identities, text
from reference_flow.flows.six_2v4 import auto_win_reason, split_kitty

import ddz
from ddz.agents import GreedyAgent, RandomAgent

PRESETS = ["six-player-2v4", "six-player-teams"]
DEALS_PER_PRESET = 500  # x2 agent kinds: 1,000 deals per preset
N = 6


def make_deal(
    fixed: dict[int, str],
    kitty: str = "",
    marked: str = "9h@0",
    secret: str = "9h@3",
    seed: int = 0,
    preset: str = "six-player-2v4",
) -> dict:
    """A given deal: the fixed cards of some hands (and kitty), the rest of
    the four decks dealt at random to fill every hand to 34, the kitty to 12."""
    pool = deck(ddz.Rules(preset))
    hands = {s: split_identities(t) for s, t in fixed.items()}
    for mark in (marked, secret):  # the marked copies, unless fixed already
        card, seat = mark.split("@")
        if card not in hands.setdefault(int(seat), []):
            hands[int(seat)].append(card)
    kitty_ids = split_identities(kitty)
    for group in [*hands.values(), kitty_ids]:
        for j, c in enumerate(group):
            if c.endswith("?"):
                c = next(p for p in pool if p[0] == c[0])
                group[j] = c
            pool.remove(c)
    rng = random.Random(seed)
    rng.shuffle(pool)
    out = []
    for s in range(N):
        h = hands.get(s, [])
        while len(h) < 34:
            h.append(pool.pop())
        out.append(text(h))
    while len(kitty_ids) < 12:
        kitty_ids.append(pool.pop())
    return {"hands": out, "kitty": text(kitty_ids), "marked": marked, "secret": secret}


def stake_of(events: list) -> int:
    return 1 + sum(int(k) for _, k in events)


def teams_now(g: ddz.Game) -> dict:
    """Both sides, as each landlord sees its team once every farmer chose."""
    main, counter = g.roles()["main_landlord"], g.roles()["counter_landlord"]
    return {"main": g.observation(main)["team"], "counter": g.observation(counter)["team"]}


# ---- whole deals -----------------------------------------------------------
def check_result(g: ddz.Game) -> None:
    result = g.result
    assert result is not None and sum(result["scores"]) == 0
    json.dumps(result)
    roles = g.roles()
    stake = result["multiplier"]
    assert stake == stake_of(result["events"])
    for name, inc in result["events"]:
        assert isinstance(inc, str) and inc.startswith("+") and int(inc) > 0
        if roles["solo"]:
            assert name == "show-solo" and inc == "+9"
    if result.get("auto_win"):
        assert stake == 1 and result["events"] == []
    else:
        out = [s for s in range(N) if not g.hands[s]]
        assert any(s in result["winners"] for s in out)
    winners = set(result["winners"])
    scores = result["scores"]
    for s in range(N):
        assert (scores[s] > 0) == (s in winners)
    if roles["solo"]:
        (landlord,) = roles["landlords"]
        assert abs(scores[landlord]) == 5 * stake
        assert all(abs(scores[s]) == stake for s in range(N) if s != landlord)
    elif g.rules.preset == "six-player-2v4":
        big, second = roles["landlords"]
        assert abs(scores[big]) == 3 * stake and abs(scores[second]) == stake
        assert (big in winners) == (second in winners)
        assert all(abs(scores[s]) == stake for s in range(N) if s not in roles["landlords"])
    else:
        assert all(abs(scores[s]) == 2 * stake for s in roles["landlords"])
        assert all(abs(scores[s]) == stake for s in range(N) if s not in roles["landlords"])
        main, counter = roles["main_landlord"], roles["counter_landlord"]
        assert len(winners) == 3 and (main in winners) != (counter in winners)
        assert sorted(result["sides"]["main"] + result["sides"]["counter"]) == list(range(N))


@pytest.mark.parametrize("preset", PRESETS)
def test_random_and_greedy_deals_finish_and_score_to_zero(preset: str) -> None:
    solos = shows = bombs = 0
    for seed in range(DEALS_PER_PRESET):
        for agents in ([RandomAgent(seed * 10 + i) for i in range(N)], [GreedyAgent()] * N):
            g = finish(ddz.Game(preset, seed=seed), agents)
            check_result(g)
            solos += bool(g.roles()["solo"])
            names = [e[0] for e in g.result["events"]]
            shows += any(n.startswith("show") for n in names)
            bombs += "bomb" in names
    assert solos and shows and bombs  # every path is exercised


# ---- the additive stake ----------------------------------------------------
def bomb_deal() -> dict:
    # Seat 0 (public mark, bids 3) holds 7, 8 and 9 of a rank and XXXXD.
    big = "9h" + "3" * 7 + "4" * 8 + "5" * 9 + "XXXXD" + "6789"
    return make_deal({0: big, 3: "9h"}, kitty="JJJJJJQQQQQQ")


def start_play(g: ddz.Game, bid: str = "bid:3", shows: tuple = ("no-show", "no-show")) -> None:
    g.step(bid)
    for action in shows:
        assert g.phase == "show"
        g.step(action)
    assert g.phase == "play"


def all_pass(g: ddz.Game) -> None:
    for _ in range(N - 1):
        g.step("pass")


def test_bomb_increments_one_per_card_over_six_and_three_for_tier_two() -> None:
    g = ddz.Game("six-player-2v4", deal=bomb_deal())
    start_play(g)
    assert g.roles()["landlords"] == [0, 3] and g.to_act == 0
    expected = []
    for play, event in [
        ("3333333", ["bomb", "+1"]),
        ("44444444", ["bomb", "+2"]),
        ("555555555", ["bomb", "+3"]),
        ("XXXXD", ["king-bomb", "+3"]),
    ]:
        g.step(play)
        expected.append(event)
        assert g.events == expected
        all_pass(g)
    g.step("6")  # singles and small bombs add nothing
    assert g.events == expected
    finish(g, [GreedyAgent()] * N)
    assert g.result["events"][:4] == expected
    assert g.result["multiplier"] == stake_of(g.result["events"]) >= 10


def test_tier_one_king_bombs_and_six_card_bombs_add_nothing() -> None:
    g = ddz.Game("six-player-2v4", deal=make_deal({0: "9hXXXDDDD666666"}))
    start_play(g)
    for play in ("666666", "XXXD", "DDD"):
        g.step(play)
        all_pass(g)
    assert g.events == []


def test_eight_jokers_add_six() -> None:
    g = ddz.Game("six-player-2v4", deal=make_deal({0: "9hXXXXDDDD"}))
    start_play(g)
    g.step("XXXXDDDD")
    assert g.events == [["eight-jokers", "+6"]]
    assert g.roles()["dead_card"] is None


def test_no_bomb_increments_in_solo() -> None:
    deal = make_deal({0: "9hQs" + "3" * 9 + "XXXXD"}, marked="9h@0", secret="Qs@0")
    g = ddz.Game("six-player-2v4", deal=deal)
    start_play(g, shows=("no-show",))
    assert g.roles()["solo"] and g.roles()["landlords"] == [0] and len(g.hands[0]) == 46
    g.step("333333333")
    all_pass(g)
    g.step("XXXXD")
    assert g.events == []


def test_seven_jokers_add_nine_and_kill_the_last_joker() -> None:
    deal = make_deal({0: "9hXXXXDDD", 2: "D"})
    g = ddz.Game("six-player-2v4", deal=deal)
    start_play(g)
    g.step("XXXXDDD")
    assert g.events == [["seven-jokers", "+9"]]
    assert g.roles()["dead_card"] == {"seat": 2, "card": "D"}
    assert "D" not in g.hands[2] and len(g.hands[2]) == 33
    for seat in range(N):
        obs = g.observation(seat)
        assert obs["dead_card"] == {"seat": 2, "card": "D"}
        assert obs["hand_sizes"][2] == 33
    again = ddz.Game.from_json(g.to_json())
    assert again.hands == g.hands and again.roles()["dead_card"] == g.roles()["dead_card"]


def test_seven_joker_dead_card_can_empty_a_hand_and_end_the_deal() -> None:
    # Seat 2, a farmer, empties its hand but for the last joker; the
    # seven-joker bomb kills it, and seat 2 goes out: the farmers win.
    deal = make_deal({0: "9h3XXXXDDD", 2: "5" * 16 + "6" * 16 + "7D"})
    g = ddz.Game("six-player-2v4", deal=deal)
    start_play(g)
    g.step("3")
    g.step("pass")
    g.step("5" * 16)
    all_pass(g)
    g.step("6" * 16)
    all_pass(g)
    g.step("7")
    for _ in range(3):
        g.step("pass")
    assert g.to_act == 0
    g.step("XXXXDDD")
    assert g.phase == "over" and g.hands[2] == []
    r = g.result
    assert r["events"] == [["bomb", "+10"], ["bomb", "+10"], ["seven-jokers", "+9"]]
    assert r["multiplier"] == 30
    assert r["winners"] == [1, 2, 4, 5]
    assert r["scores"] == [-90, 30, 30, -30, 30, 30]
    assert ddz.Game.from_json(g.to_json()).result == r


def test_seven_joker_rule_can_be_switched_off() -> None:
    rules = ddz.Rules("six-player-2v4", seven_star_kills_last_joker=False)
    g = ddz.Game(rules, deal=make_deal({0: "9hXXXXDDD", 2: "D"}))
    start_play(g)
    g.step("XXXXDDD")
    assert g.events == [["seven-jokers", "+9"]] and "D" in g.hands[2]


# ---- show-hand -------------------------------------------------------------
@pytest.mark.parametrize(
    "shows,event",
    [
        (("show", "no-show"), [["show", "+3"]]),
        (("no-show", "show"), [["show", "+3"]]),
        (("show", "show"), [["show-both", "+6"]]),
        (("no-show", "no-show"), []),
    ],
)
def test_show_hand_adds_three_or_six_and_opens_the_hand(shows: tuple, event: list) -> None:
    g = ddz.Game("six-player-2v4", deal=bomb_deal())
    start_play(g, shows=shows)
    assert g.events == event
    shown = [s for s, a in zip([0, 3], shows) if a == "show"]
    assert g.roles()["shown"] == shown
    for seat in range(N):
        seen = g.observation(seat)["seen_hands"]
        assert sorted(int(s) for s in seen) == [s for s in shown if s != seat]
        for s in shown:
            if s != seat:
                assert seen[str(s)] == text(g.hands[s])


def test_solo_show_adds_nine() -> None:
    for preset in PRESETS:
        deal = make_deal({0: "9hQs"}, marked="9h@0", secret="Qs@0", preset=preset)
        g = ddz.Game(preset, deal=deal)
        if preset == "six-player-2v4":
            g.step("pass")
            for _ in range(N - 1):
                g.step("pass")  # nobody bids: the public-mark holder is big landlord
            assert g.observation(1)["bid"] == 0
        assert g.phase == "show" and g.to_act == 0 and g.roles()["solo"]
        g.step("show")
        assert g.events == [["show-solo", "+9"]]
        assert g.observation(4)["seen_hands"] == {"0": text(g.hands[0])}


def test_show_choices_stay_hidden_until_both_chose() -> None:
    for preset in PRESETS:
        views = {}
        for first in ("show", "no-show"):
            g = ddz.Game(preset, deal=make_deal({}, marked="9h@0", secret="9h@3", preset=preset))
            if preset == "six-player-2v4":
                g.step("bid:3")
            else:
                for _ in range(4):
                    g.step(g.legal_actions()[0])
            assert g.phase == "show" and g.to_act == 0
            g.step(first)
            assert g.to_act == 3 and g.events == []
            views[first] = [g.observation(s) for s in range(1, N)]
            assert g.observation(0)["history"][-1] == [0, first]
        assert views["show"] == views["no-show"]


# ---- 2v4 bidding and marks -------------------------------------------------
def test_bidding_starts_at_the_public_mark_and_the_best_bid_is_big_landlord() -> None:
    g = ddz.Game("six-player-2v4", deal=make_deal({2: "9h", 4: "Qs"}, "", "9h@2", "Qs@4"))
    assert g.phase == "bid" and g.to_act == 2
    for action in ["bid:1", "pass", "bid:2", "pass", "pass", "pass"]:
        assert g.observation(0)["second_landlord"] is None
        g.step(action)
    assert g.roles()["landlords"] == [4]
    obs = g.observation(1)
    assert obs["big_landlord"] == 4 and obs["second_landlord"] is None and obs["solo"] is True
    assert obs["bid"] == 2


def test_bid_three_ends_and_the_secret_mark_names_the_second_landlord() -> None:
    g = ddz.Game("six-player-2v4", deal=make_deal({2: "9h", 4: "Qs"}, "", "9h@2", "Qs@4"))
    g.step("pass")
    g.step("bid:3")
    obs = g.observation(5)
    assert obs["big_landlord"] == 3 and obs["second_landlord"] == 4
    assert obs["landlords"] == [3, 4] and obs["solo"] is False
    assert [len(h) for h in g.hands] == [34, 34, 34, 40, 40, 34]
    a, b = split_kitty(g.kitty)
    assert g.observation(3)["kitty_share"] == text(a)
    assert g.observation(4)["kitty_share"] == text(b)
    assert g.observation(5)["kitty_share"] is None and obs["kitty"] is None
    assert g.phase == "show" and g.to_act == 3
    g.step("no-show")
    g.step("no-show")
    assert g.phase == "play" and g.to_act == 3  # the big landlord leads


def test_kitty_split_is_snake_order() -> None:
    first, second = split_kitty(split_identities("Ad3d4h5s6d7c8d9hTdJsQcKd"))
    assert text(first) == "3d6d7cTdJsAd"
    assert text(second) == "4h5s8d9hQcKd"


def test_the_secret_mark_holder_is_unknown_until_the_big_landlord_is_settled() -> None:
    # Same cards, secret mark held by different seats: every view is the
    # same until the bidding ends.
    for seed in range(100):
        base = dict(ddz.Game("six-player-2v4", seed=seed).deals[0])
        del base["set_aside"]
        other_seat = (int(base["secret"].split("@")[1]) + 1 + seed % 5) % N
        card = split_identities(base["hands"][other_seat])[seed % 34]
        twin_deal = {**base, "secret": f"{card}@{other_seat}"}
        if twin_deal["secret"] == base["marked"]:
            continue
        a = ddz.Game("six-player-2v4", deal=base)
        b = ddz.Game("six-player-2v4", deal=twin_deal)
        agent = RandomAgent(seed)
        while a.phase == "bid":
            for s in range(N):
                oa, ob = a.observation(s), b.observation(s)
                assert oa == ob, f"seat {s} learns who holds the secret mark"
            action = agent.act(a.observation(a.to_act), a.legal_actions())
            a.step(action)
            b.step(action)
        assert a.observation(0)["secret_mark"] is None


# ---- teams: sides and leader ----------------------------------------------
def teams_deal(main: int = 0, counter: int = 3, **kw) -> dict:
    fixed = {main: "9h"}
    fixed[counter] = fixed.get(counter, "") + "Qs"
    return make_deal(
        fixed, marked=f"9h@{main}", secret=f"Qs@{counter}", preset="six-player-teams", **kw
    )


def test_teams_landlords_announced_and_kitty_shared_at_once() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal())
    obs = g.observation(1)
    assert obs["main_landlord"] == 0 and obs["counter_landlord"] == 3
    assert obs["landlords"] == [0, 3] and obs["solo"] is False
    assert [len(h) for h in g.hands] == [40, 34, 34, 40, 34, 34]
    assert g.phase == "choose_side" and g.to_act == 1


def test_first_two_agree_the_other_two_are_forced_to_the_other_side() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal())
    for seat, action in [(1, "side:main"), (2, "side:main")]:
        assert g.to_act == seat and g.legal_actions() == ["side:main", "side:counter"]
        g.step(action)
    for seat in (4, 5):
        assert g.to_act == seat and g.legal_actions() == ["side:counter"]
        with pytest.raises(ddz.IllegalAction):
            g.step("side:main")
        g.step("side:counter")
    assert teams_now(g) == {"main": [0, 1, 2], "counter": [3, 4, 5]}
    assert g.phase == "show"


def test_first_two_differ_the_third_picks_and_the_fourth_completes() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal())
    g.step("side:counter")
    g.step("side:main")
    assert g.to_act == 4 and g.legal_actions() == ["side:main", "side:counter"]
    g.step("side:counter")
    assert g.to_act == 5 and g.legal_actions() == ["side:main"]
    g.step("side:main")
    assert teams_now(g) == {"main": [0, 2, 5], "counter": [1, 3, 4]}


def test_picking_starts_after_the_main_landlord_and_skips_landlords() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal(main=4, counter=5))
    assert g.to_act == 0
    order = []
    while g.phase == "choose_side":
        order.append(g.to_act)
        g.step(g.legal_actions()[0])
    assert order == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "main,counter,leader", [(0, 3, 5), (0, 5, 4), (3, 2, 1), (1, 0, 5), (2, 2, 1)]
)
def test_a_farmer_always_leads(main: int, counter: int, leader: int) -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal(main=main, counter=counter))
    while g.phase != "play":
        g.step(g.legal_actions()[0])
    assert g.to_act == leader and leader not in g.roles()["landlords"]


def test_teams_scores_farmers_n_landlords_2n() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal(main=0, counter=3))
    for action in ["side:main", "side:counter", "side:main", "side:counter", "show", "no-show"]:
        g.step(action)
    assert g.events == [["show", "+3"]]
    finish(g, [GreedyAgent()] * N)
    r = g.result
    stake = r["multiplier"]
    main_won = 0 in r["winners"]
    sign = 1 if main_won else -1
    assert r["sides"] == {"main": [0, 1, 4], "counter": [2, 3, 5]}
    assert r["scores"] == [sign * x * stake for x in (2, 1, -1, -2, 1, -1)]


def test_farmers_know_only_their_own_side_and_landlords_their_own_farmers() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal(main=0, counter=3))
    picks = {1: "side:main", 2: "side:counter", 4: "side:main", 5: "side:counter"}
    picked: set[int] = set()
    for seat in (1, 2, 4, 5):
        for viewer in range(N):
            obs = g.observation(viewer)
            assert obs["sides"] is None
            sides_seen = [h for h in obs["history"] if str(h[1]).startswith("side:")]
            if viewer in (0, 3):  # nothing until every farmer has a side
                assert sides_seen == [] and obs["team"] == [viewer]
            else:
                assert sides_seen == ([[viewer, picks[viewer]]] if viewer in picked else [])
        g.step(picks[seat])
        picked.add(seat)
    for viewer in range(N):
        obs = g.observation(viewer)
        sides_seen = [h for h in obs["history"] if str(h[1]).startswith("side:")]
        if viewer == 0:
            assert sides_seen == [[1, "side:main"], [4, "side:main"]] and obs["team"] == [0, 1, 4]
        elif viewer == 3:
            assert sides_seen == [[2, "side:counter"], [5, "side:counter"]]
            assert obs["team"] == [2, 3, 5]
        else:
            assert sides_seen == [[viewer, picks[viewer]]]
            assert obs["side"] == picks[viewer][5:]
            assert obs["team"] == sorted([viewer, 0 if obs["side"] == "main" else 3])
    finish(g, [GreedyAgent()] * N)
    obs = g.observation(1)
    assert obs["sides"] == {"main": [0, 1, 4], "counter": [2, 3, 5]}
    assert len([h for h in obs["history"] if str(h[1]).startswith("side:")]) == 4


def test_a_farmers_view_does_not_depend_on_the_other_farmers_choices() -> None:
    # Seat 2 picks main in both games; seats 1, 4, 5 differ. Seat 2 sees
    # the same thing throughout picking and show (forced turns included).
    runs = [
        ["side:main", "side:main", "side:counter", "side:counter"],
        ["side:counter", "side:main", "side:main", "side:counter"],
        ["side:counter", "side:main", "side:counter", "side:main"],
    ]
    views, landlord_views = [], []
    for run in runs:
        g = ddz.Game("six-player-teams", deal=teams_deal(main=0, counter=3))
        seen, landlords_seen = [], []
        for action in [*run, "show", "no-show"]:
            seen.append(g.observation(2))
            if g.phase == "choose_side":  # landlords learn nothing while farmers pick
                landlords_seen.append([g.observation(0), g.observation(3)])
            g.step(action)
        seen.append(g.observation(2))
        views.append(seen)
        landlord_views.append(landlords_seen)
    assert views[0] == views[1] == views[2]
    assert landlord_views[0] == landlord_views[1] == landlord_views[2]


def test_teams_solo_needs_no_sides() -> None:
    g = ddz.Game("six-player-teams", deal=teams_deal(main=2, counter=2))
    assert g.roles()["solo"] and g.phase == "show" and g.to_act == 2 and len(g.hands[2]) == 46
    g.step("no-show")
    assert g.phase == "play" and g.to_act == 1
    finish(g, [GreedyAgent()] * N)
    check_result(g)
    assert g.result["sides"]["main"] == [2]


# ---- auto-win --------------------------------------------------------------
# (hand of the big landlord, kitty); a kitty of twelve 2s gives each
# landlord 222222, QQQQQQKKKKKK gives QQQKKK.
AUTO_DEALS = {
    "no-bomb": ("333444555666777888999TTTJJJAAA222X", "QQQQQQKKKKKK"),
    "all-bombs": ("3" * 8 + "4" * 8 + "5" * 8 + "6" * 10, "2" * 12),
    "all-bombs-after-one-play": ("3" * 8 + "4" * 8 + "5" * 8 + "6" * 5 + "789TJ", "2" * 12),
    "bomb-13": ("3" * 13 + "456789TJQKA" + "4567789TJQ", "2" * 12),
}


@pytest.mark.parametrize("reason", list(AUTO_DEALS))
def test_auto_win_checks(reason: str) -> None:
    hand, kitty = AUTO_DEALS[reason]
    deal = make_deal({0: "9h", 1: hand, 4: "Qs"}, kitty=kitty, marked="9h@0", secret="Qs@4")
    g = ddz.Game("six-player-2v4", deal=deal)
    g.step("pass")
    g.step("bid:3")  # seat 1 is big landlord, seat 4 second
    assert g.phase == "over"
    assert auto_win_reason(g.rules, g.counts(1)) == reason
    r = g.result
    assert r["auto_win"] == {"seat": 1, "reason": reason}
    assert r["multiplier"] == 1 and r["events"] == []
    assert r["winners"] == [1, 4]
    assert r["scores"] == [-1, 3, -1, -1, 1, -1]
    assert g.observation(2)["auto_win"] == {"seat": 1, "reason": reason}
    # The same deal plays on with the checks switched off.
    off = ddz.Game(ddz.Rules("six-player-2v4", auto_win=False), deal=deal)
    off.step("pass")
    off.step("bid:3")
    assert off.phase == "show"


def test_auto_win_is_off_in_teams_unless_asked() -> None:
    hand = "9h" + "3" * 8 + "4" * 8 + "5" * 8 + "6" * 9
    deal = make_deal(
        {0: hand, 3: "Qs"}, kitty="2" * 12, marked="9h@0", secret="Qs@3", preset="six-player-teams"
    )
    g = ddz.Game("six-player-teams", deal=deal)
    assert g.rules.to_dict()["auto_win"] is False
    for _ in range(4):
        g.step(g.legal_actions()[0])
    assert g.phase == "show"
    on = ddz.Game(ddz.Rules("six-player-teams", auto_win=True), deal=deal)
    for action in ["side:main", "side:counter", "side:main", "side:counter"]:
        on.step(action)
    reason = "all-bombs-after-one-play"  # play the 9h, the rest is bombs
    assert on.phase == "over" and on.result["auto_win"] == {"seat": 0, "reason": reason}
    assert on.result["winners"] == [0, 1, 4] and on.result["scores"] == [2, 1, -1, -2, 1, -1]


def test_auto_win_reasons_on_their_own() -> None:
    rules = ddz.Rules("six-player-2v4")
    cases = {
        "XXXDDDD33333333": "all-bombs",
        "XXXXDDDD": "all-bombs",
        "XXDDD3333": "all-bombs-after-one-play",  # XXDDD is a trio_pair
        "XXXDD3333": "all-bombs-after-one-play",
        "3333456": None,
        "333444555": "no-bomb",
        "3" * 13 + "45": "bomb-13",
        "3" * 16 + "4": "all-bombs-after-one-play",
    }
    for hand, reason in cases.items():
        assert auto_win_reason(rules, rules.cards(hand)) == reason, hand


# ---- deals, replays, illegal actions, secrecy -------------------------------
def test_bad_deals_are_value_errors() -> None:
    good = make_deal({0: "9h", 3: "Qs"}, marked="9h@0", secret="Qs@3", seed=1)
    hands = [split_identities(h) for h in good["hands"]]
    assert hands[0].count("9h") == 1
    lacking = next(s for s in range(N) if "9h" not in hands[s])
    for change, needle in [
        ({"marked": f"9h@{lacking}"}, f"seat {lacking} holds no 9h"),
        ({"marked": "9"}, "suit"),
        ({"marked": "9h@9"}, "seat"),
        ({"marked": 7}, "card"),
        ({"secret": "9h@0"}, "twice"),
        ({"secret": "Zs"}, "unknown"),
    ]:
        with pytest.raises(ValueError, match=needle):
            ddz.Game("six-player-2v4", deal={**good, **change})
    no_marks = {k: v for k, v in good.items() if k not in ("marked", "secret")}
    with pytest.raises(ValueError, match="needs 'marked'"):
        ddz.Game("six-player-teams", deal=no_marks)
    with pytest.raises(ValueError, match="call"):
        ddz.Game("six-player-2v4", deal={**good, "call": "Qs"})
    # An identity held by several seats must name the holder.
    copies = make_deal({0: "9h", 1: "9h", 3: "Qs"}, marked="9h@0", secret="Qs@3")
    with pytest.raises(ValueError, match="9h@seat"):
        ddz.Game("six-player-2v4", deal={**copies, "marked": "9h"})


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_record_and_json_replays(preset: str) -> None:
    check_same_seed_replays(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_observations_hold_no_secret(preset: str) -> None:
    rng = random.Random(preset)
    checked = 0
    for g, seat, obs in views_in_random_deals(preset, 30, rng):
        assert obs["kitty"] is None
        assert obs["secret_mark"] is None
        if preset == "six-player-2v4" and g.phase == "bid":
            assert obs["second_landlord"] is None and obs["landlords"] == []
        if preset == "six-player-teams" and seat not in g.roles()["landlords"]:
            assert obs["sides"] is None
        # Replaying is the slow part: swap before every decision, and at
        # one play in eight.
        if g.phase != "play" or rng.random() < 0.125:
            checked += check_hidden_swap(g, seat, obs, rng)
    assert checked > 600
