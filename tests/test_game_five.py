"""Game flow of `five-player` (hidden landlord) and `five-player-3deck`
(新五人: grab, solo or call a friend): whole deals, scoring, the seed's
examples, reveals, auto-wins, secrecy of cards and of roles, replay."""

from __future__ import annotations

import random

import pytest
from game_helpers import (
    check_hidden_swap,
    check_same_seed_replays,
    finish,
    step_by_agent,
    views_in_random_deals,
)
from reference_flow.deck import deck, split_identities, text
from reference_flow.scoring import stake

import ddz
from ddz.agents import GreedyAgent, RandomAgent

PRESETS = ["five-player", "five-player-3deck"]
DEALS_PER_PRESET = 500  # x2 agents: 1,000 deals per preset


def make_deal(
    preset: str, fixed: list[str], kitty: str = "", *, marked: str, first: int = 0, seed: int = 0
) -> dict:
    """A deal holding the `fixed` cards (unsuited ranks take the lowest suit
    left), the rest shuffled in at random."""
    rules = ddz.Rules(preset)
    pool = deck(rules)
    fixed = fixed + [""] * (rules.players - len(fixed))
    places = [split_identities(h) for h in fixed] + [split_identities(kitty)]
    for place in places:  # suited cards first, then the unsuited ones
        for c in place:
            if not c.endswith("?"):
                pool.remove(c)
    for place in places:
        for j, c in enumerate(place):
            if c.endswith("?"):
                place[j] = next(p for p in pool if p[0] == c[0])
                pool.remove(place[j])
    rng = random.Random(seed)
    rng.shuffle(pool)
    *hands, kit = places
    for h in hands:
        while len(h) < rules.hand_size:
            h.append(pool.pop())
    while len(kit) < rules.kitty:
        kit.append(pool.pop())
    assert not pool
    return {"hands": [text(h) for h in hands], "kitty": text(kit), "marked": marked, "first": first}


class roles:
    """The deal's roles, read live from the observations: each role from
    a seat that may know it (the open landlord knows the hidden one, a
    deputy knows itself), so the test needs nothing beyond the public API."""

    def __init__(self, game: ddz.Game) -> None:
        self._game = game

    def _views(self) -> list[dict]:
        return [self._game.observation(s) for s in range(5)]

    def _seat(self, role: str) -> int | None:
        return next((s for s, v in enumerate(self._views()) if v["role"] == role), None)

    def __getattr__(self, name: str):
        view = self._game.observation(0)
        if name in ("open", "landlord"):
            return view["landlord"]
        if name == "hidden":
            return self._seat("hidden-landlord")
        if name == "deputy":
            return self._seat("deputy")
        if name in ("landlords", "side"):
            second = self.hidden if self._game.rules.preset == "five-player" else self.deputy
            return [view["landlord"]] + ([] if second is None else [second])
        if name == "holder":
            return view["marked_holder"]
        if name in ("revealed", "marked", "base", "called"):
            return view[name]
        raise AttributeError(name)


def grab_all_then_pass(game: ddz.Game) -> None:
    """Seat 0 (to act first) grabs all it can; then every seat passes."""
    while "grab" in game.legal_actions():
        game.step("grab")
    run(game, ["pass"] * 5)


def run(game: ddz.Game, script: list) -> None:
    for action in script:
        if isinstance(action, tuple):
            game.step(*action)
        else:
            game.step(action)


# ---- whole deals -------------------------------------------------------------


def check_result(g: ddz.Game) -> None:
    n = 5
    result = g.result
    assert result is not None and sum(result["scores"]) == 0
    assert result["multiplier"] == stake(result["events"]) >= 1
    p = result["multiplier"]
    f = roles(g)
    if g.rules.preset == "five-player":
        side, second = f.landlords, f.hidden
        landlord = f.open
    else:
        side, second = f.side, f.deputy
        landlord = f.landlord
    won = landlord in result["winners"]
    assert sorted(result["winners"]) == sorted(side if won else set(range(n)) - set(side))
    if result.get("auto_win") is None:
        winner = next(s for s in range(n) if not g.hands[s])
        assert winner in result["winners"]
    sign = 1 if won else -1
    if second is None:
        assert result["scores"][landlord] == sign * 4 * p
    else:
        assert result["scores"][landlord] == sign * 2 * p
        assert result["scores"][second] == sign * p
    assert all(result["scores"][s] == -sign * p for s in range(n) if s not in side)


@pytest.mark.parametrize("preset", PRESETS)
def test_random_and_greedy_deals_finish_and_score_to_zero(preset: str) -> None:
    for seed in range(DEALS_PER_PRESET):
        for agents in ([RandomAgent(seed * 10 + i) for i in range(5)], [GreedyAgent()] * 5):
            check_result(finish(ddz.Game(preset, seed=seed), agents))


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_record_and_json_replays(preset: str) -> None:
    check_same_seed_replays(preset)
    # A deal stopped half way replays to the same state.
    g = ddz.Game(preset, seed=3)
    agents = [RandomAgent(i) for i in range(5)]
    for _ in range(40):
        step_by_agent(g, agents)
    twin = ddz.Game.from_json(g.to_json())
    assert [twin.observation(s) for s in range(5)] == [g.observation(s) for s in range(5)]


def test_options_double_step_and_score_scheme_replay() -> None:
    for rules in (
        ddz.Rules("five-player", double_step="plus1"),
        ddz.Rules("five-player-3deck", score_scheme="power"),
    ):
        for seed in range(30):
            g = ddz.play(rules, [RandomAgent(seed + i) for i in range(5)], seed=seed)
            check_result(g)
            assert ddz.Game.from_json(g.to_json()).to_json() == g.to_json()


def test_bad_given_deals_are_value_errors() -> None:
    good = make_deal("five-player", ["9h", "", "9h"], marked="9h")
    for change, needle in [
        ({"marked": None}, "marked"),
        ({"marked": "X"}, "non-joker"),
        ({"marked": "9"}, "suited"),
        ({"first": 1}, "must hold"),
    ]:
        deal = {**good, **change}
        if deal["marked"] is None:
            del deal["marked"]
        with pytest.raises(ValueError, match=needle):
            ddz.Game("five-player", deal=deal)
    with pytest.raises(ValueError, match="secret"):
        ddz.Game("five-player-3deck", deal={**good, "secret": "Qs"})


# ---- five-player -------------------------------------------------------------

HIDDEN = 2  # in the scripted five-player deals below


def five_deal(**kw) -> dict:
    # Open landlord 0 holds one 9h and a 3; the hidden landlord 2 the other
    # 9h and a 9c.
    return make_deal("five-player", ["9h 3d", "", "9h 9c", "", ""], marked="9h", **kw)


def test_five_player_roles_kitty_and_seeing_hands() -> None:
    g = ddz.Game("five-player", deal=five_deal())
    f = roles(g)
    assert (f.open, f.hidden, g.phase, g.to_act) == (0, HIDDEN, "reveal", 0)
    assert len(g.hands[0]) == 24 and g.kitty_given
    assert [g.observation(s)["kitty"] is not None for s in range(5)] == [True] + [False] * 4

    # Until the reveal, the two landlords see each other's hands, no one else does.
    def seen(s: int) -> set[int]:
        return set(g.hands_seen_by(s))

    assert seen(0) == {HIDDEN} and seen(HIDDEN) == {0}
    assert g.observation(0)["seen_hands"] == {str(HIDDEN): text(g.hands[HIDDEN])}
    assert g.observation(HIDDEN)["seen_hands"] == {"0": text(g.hands[0])}
    for s in (1, 3, 4):
        obs = g.observation(s)
        assert obs["seen_hands"] == {} and obs["hidden_landlord"] is None and obs["solo"] is None
        assert obs["role"] == "farmer"
    assert g.observation(0)["hidden_landlord"] == HIDDEN
    assert g.observation(HIDDEN)["role"] == "hidden-landlord"
    # Every seat answers in turn; farmers may only keep.
    assert g.legal_actions() == ["keep", "reveal"]
    run(g, ["keep"])
    assert g.legal_actions() == ["keep"]
    with pytest.raises(ddz.IllegalAction):
        g.step("reveal")
    run(g, ["keep", "keep", "keep", "keep"])
    assert g.phase == "double" and g.events == []
    run(g, ["double", "no-double", "double", "no-double", "no-double"])
    assert g.phase == "play" and g.to_act == 0
    assert g.events == [["double", 2], ["double", 2]]
    assert seen(0) == {HIDDEN}


def test_five_player_hidden_landlord_revealed_by_playing_the_copy() -> None:
    g = ddz.Game("five-player", deal=five_deal())
    run(g, ["keep"] * 5 + ["no-double"] * 5)
    run(g, [("3", "3d"), "pass", ("9", "9c")])  # another 9: nothing happens
    assert not roles(g).revealed and g.observation(1)["hidden_landlord"] is None
    run(g, ["pass"] * 4)
    assert g.to_act == HIDDEN
    run(g, [("9", "9h")])
    assert roles(g).revealed
    for s in range(5):
        obs = g.observation(s)
        assert obs["hidden_landlord"] == HIDDEN and obs["solo"] is False
        assert obs["seen_hands"] == {}
    assert g.events == []  # a reveal by play does not double


@pytest.mark.parametrize("revealer", [0, HIDDEN])
def test_five_player_reveal_doubles_once_and_ends_seeing(revealer: int) -> None:
    g = ddz.Game("five-player", deal=five_deal())
    while g.to_act != revealer:
        g.step("keep")
    g.step("reveal")
    assert g.phase == "double" and g.to_act == 0
    assert g.events == [["reveal", 2]]
    assert set(g.hands_seen_by(0)) == set() and set(g.hands_seen_by(HIDDEN)) == set()
    assert g.observation(4)["hidden_landlord"] == HIDDEN


def test_five_player_one_against_four_bombs_and_spring() -> None:
    # The open landlord holds both 8h (one arrives with the kitty): 1 v 4.
    hand = "8d8d8c8c8h8s8s 7d7d7c7c7h7h7s XXDD 5d5c5h"
    deal = make_deal("five-player", [hand, "", "", "", ""], "5s8h5d", marked="8h")
    g = ddz.Game("five-player", deal=deal)
    assert roles(g).hidden is None and roles(g).landlords == [0]
    assert g.observation(0)["solo"] is True and g.observation(1)["solo"] is None
    run(g, ["keep"] * 5 + ["no-double"] * 5)
    passes = ["pass"] * 4
    run(g, ["88888888", *passes, "7777777", *passes, "XX", *passes, "55555", *passes, "DD"])
    assert g.phase == "over"
    names = [e[0] for e in g.result["events"]]
    assert names == ["bomb-8", "bomb-7", "bomb-5", "spring"]  # XX, DD never double
    assert g.result["scores"] == [4 * 16, -16, -16, -16, -16]
    assert g.result["winners"] == [0]
    assert roles(g).revealed  # both copies of 8h played by the open landlord


def test_five_player_king_bombs_and_two_against_three() -> None:
    hand = "XXDD 3d3d3c3c3h 4d"
    deal = make_deal("five-player", [hand, "", "4d", "", ""], marked="4d")
    g = ddz.Game("five-player", deal=deal)
    assert roles(g).landlords == [0, 2]
    run(g, ["keep"] * 5 + ["no-double"] * 5)
    run(g, ["XXDD", *["pass"] * 4, "33333", *["pass"] * 4])
    assert g.events == [["sky-king", 2], ["bomb-5", 2]]


def test_five_player_three_jokers_and_plus1_doubles() -> None:
    rules = ddz.Rules("five-player", double_step="plus1")
    deal = make_deal("five-player", ["XXD 4d", "", "", "", ""], marked="4d")
    g = ddz.Game(rules, deal=deal)
    run(g, ["keep"] * 5 + ["double", "double", "no-double", "double", "no-double"])
    run(g, ["XXD"])
    assert g.events == [["double", "+1"]] * 3 + [["three-jokers", 2]]
    assert stake(g.events) == (1 + 3) * 2


# ---- five-player-3deck ---------------------------------------------------------

# The seed's example, rotated so that the 9h9h9h holder (乙) is seat 0.
SEED_HANDS = ["9h9h9h9c", "9s9cX", "9s9s9d9c", "DD9d9d", "XXD"]


def seed_deal(**kw) -> dict:
    kw.setdefault("seed", 1)
    return make_deal("five-player-3deck", SEED_HANDS, "7777", marked="9h", first=0, **kw)


def test_seed_grab_example_base_6_and_the_trio_holder_is_main() -> None:
    g = ddz.Game("five-player-3deck", deal=seed_deal())
    assert (g.phase, g.to_act) == ("grab", 0)
    counts = []
    for seat in range(5):
        assert g.to_act == seat
        k = 0
        while "grab" in g.legal_actions():
            g.step("grab")
            k += 1
        g.step("pass")
        counts.append(k)
    assert counts == [2, 0, 1, 2, 1]  # 乙 丙 丁 戊 甲 of the seed: 2 0 1 2 1
    assert roles(g).base == 6 and roles(g).landlord == 0
    assert g.observation(3)["grabs"] == [
        [0, "9h9h"],
        [0, "9h9h9h"],
        [2, "9s9s"],
        [3, "DD"],
        [3, "9d9d"],
        [4, "XX"],
    ]
    assert g.events == [["base", 6], ["level", 1]]
    assert len(g.hands[0]) == 38 and g.phase == "call" and g.to_act == 0
    assert [g.observation(s)["kitty"] is not None for s in range(5)] == [True] + [False] * 4


def test_grab_strongest_combination_wins_not_the_first() -> None:
    g = ddz.Game("five-player-3deck", deal=seed_deal())
    run(g, ["grab", "pass", "pass", "pass", "grab", "pass", "pass"])  # 9h9h, then DD
    assert roles(g).base == 2 and roles(g).landlord == 3
    g = ddz.Game("five-player-3deck", deal=seed_deal())
    run(g, ["pass", "pass", "grab", "pass", "pass", "grab", "pass"])  # 9s9s, then XX
    assert roles(g).landlord == 4 and roles(g).base == 2


def test_nobody_grabs_marked_holder_is_main_with_base_1() -> None:
    g = ddz.Game("five-player-3deck", deal=seed_deal())
    run(g, ["pass"] * 5)
    assert roles(g).landlord == 0 and roles(g).base == 1 and g.events == [["base", 1], ["level", 1]]


def test_power_scheme_and_open_solo_double_the_exponent() -> None:
    rules = ddz.Rules("five-player-3deck", score_scheme="power")
    g = ddz.Game(rules, deal=seed_deal())
    run(g, ["grab", "grab", "pass", "pass", "grab", "pass", "grab", "grab", "pass", "grab", "pass"])
    assert g.events == [["base", 2**6], ["level", 1]]
    g.step("open-solo")
    assert stake(g.events) == 2**12
    assert g.observation(2)["open_solo"] is True and g.observation(2)["solo"] is True
    finish(g, [GreedyAgent()] * 5)
    check_result(g)
    assert g.result["multiplier"] == 2**12
    assert abs(g.result["scores"][0]) == 4 * 2**12


def test_multiply_scheme_open_solo_doubles_the_base() -> None:
    g = ddz.Game("five-player-3deck", deal=seed_deal())
    run(g, ["grab", "pass", "pass", "pass", "grab", "pass", "pass", "open-solo"])
    assert stake(g.events) == 2 * 2
    finish(g, [GreedyAgent()] * 5)
    assert g.result["multiplier"] == 4 and abs(g.result["scores"][3]) == 16


def call_deal(main: str, kitty: str = "", others: list[str] | None = None, **kw) -> dict:
    others = others or ["", "", "", ""]
    return make_deal("five-player-3deck", [main, *others], kitty, first=0, **kw)


def test_call_friend_deputy_revealed_by_playing_the_called_card() -> None:
    # Main 0 holds 3d3d (the lowest identity: it is called) and a 4; the
    # deputy 1 holds the third 3d and a 5.
    deal = call_deal("3d3d 4d 7d7d7c7c", others=["3d 5d", "", "", ""], marked="4d")
    g = ddz.Game("five-player-3deck", deal=deal)
    run(g, ["pass"] * 5)
    assert g.legal_actions()[0] == "call-friend"
    g.step("call-friend")
    f = roles(g)
    assert (f.called, f.deputy, g.phase, g.to_act) == ("3d", 1, "play", 0)
    for s in range(5):
        obs = g.observation(s)
        assert obs["called"] == "3d"
        assert obs["deputy"] == (1 if s == 1 else None)
        assert obs["solo"] == (False if s in (0, 1) else None)
        assert [0, "call-friend"] in obs["history"] if s == 0 else "call-friend" not in str(obs)
    assert g.observation(1)["role"] == "deputy" and g.observation(0)["role"] == "main-landlord"
    run(g, [("3", "3d")])  # the main landlord's own copy reveals nothing
    assert not f.revealed
    run(g, ["pass", "pass", "pass", "pass", ("4", "4d"), ("5", "5d"), *["pass"] * 4])
    assert g.to_act == 1 and not f.revealed
    run(g, [("3", "3d")])
    assert f.revealed
    assert all(g.observation(s)["deputy"] == 1 for s in range(5))
    assert all(g.observation(s)["solo"] is False for s in range(5))


def test_hidden_solo_looks_like_a_friend_call_until_played() -> None:
    # X: main holds 3d3d3d (hidden solo offered, 3d called). Y: the same
    # deal with one 3d moved to seat 1: a friend call of 3d. Seat 3 must
    # see the same in both.
    x = call_deal("3d3d3d 7d7d7c7c", marked="7d", seed=4)
    hands = [split_identities(h) for h in x["hands"]]
    swap = next(c for c in hands[1] if c != "3d")
    hands[0][hands[0].index("3d")], hands[1][hands[1].index(swap)] = swap, "3d"
    y = {**x, "hands": [text(h) for h in hands]}
    gx, gy = ddz.Game("five-player-3deck", deal=x), ddz.Game("five-player-3deck", deal=y)
    run(gx, ["pass"] * 5)
    run(gy, ["pass"] * 5)
    assert "hidden-solo" in gx.legal_actions() and "hidden-solo" not in gy.legal_actions()
    gx.step("hidden-solo")
    gy.step("call-friend")
    assert roles(gx).called == roles(gy).called == "3d" and roles(gy).deputy == 1
    for s in (2, 3, 4):
        assert gx.observation(s) == gy.observation(s)
    assert gx.observation(0)["solo"] is True
    gx.step("3", "3d")  # playing the called card reveals the hidden solo
    assert roles(gx).revealed
    assert gx.observation(3)["solo"] is True and gx.observation(3)["deputy"] is None


def test_hidden_solo_offered_only_with_three_identical_cards() -> None:
    pairs = [r + s for r in "34567" for s in "dchs"][:19]
    main = "".join(c + c for c in pairs)  # 38 cards, every identity twice
    deal = call_deal(main[:62], main[62:], marked="3d")
    g = ddz.Game("five-player-3deck", deal=deal)
    run(g, ["pass"] * 5)
    assert g.phase == "call" and g.legal_actions() == ["call-friend", "open-solo"]


def test_jokers_are_called_last_and_lowest_suit_first() -> None:
    # Exact pairs XX, 8h8h, 8c8c, everything else single: 8c is called.
    singles = "".join(r + s for r in "345679TJ" for s in "dchs")
    main = split_identities("XX 8h8h 8c8c" + singles)
    deal = call_deal(text(main[:31]), text(main[31:]), others=["X 8h 8c", "", "", ""], marked="3d")
    g = ddz.Game("five-player-3deck", deal=deal)
    run(g, ["pass"] * 5)
    g.step("call-friend")
    assert roles(g).called == "8c" and roles(g).deputy == 1


def test_joker_pair_is_called_when_it_is_the_only_pair() -> None:
    # Main: 36 distinct non-joker identities with no pair... plus XX: the
    # only pair is the jokers, so X is called.
    ids = [r + s for r in "3456789TJQKA2" for s in "dchs"]
    main = ids[:36]
    deal = call_deal("".join(main[:29]) + "XX", "".join(main[29:]), marked="3d")
    g = ddz.Game("five-player-3deck", deal=deal)
    run(g, ["pass"] * 5)
    assert g.phase == "call"  # 3333 etc. are bombs; XX is a pair
    g.step("call-friend")
    assert roles(g).called == "X" and roles(g).deputy is not None


@pytest.mark.parametrize(
    ("main", "reason"),
    [
        ("".join(r + s for r in "3456789TJQ" for s in "dchs"), "no-pair"),  # 40 distinct...
        ("9d9d9d9c9c9c9h9h9h9s TdTd", "big-bomb"),
        ("".join(r + "d" + r + "d" + r + "c" for r in "3456789TJQKA") + "XD", "no-bomb"),
    ],
)
def test_auto_wins_after_the_kitty(main: str, reason: str) -> None:
    cards = split_identities(main)[:38]
    if reason == "big-bomb":
        cards = split_identities(main)
    deal = call_deal(text(cards[:31]), text(cards[31:38]), marked=cards[0])
    for rules in (
        ddz.Rules("five-player-3deck"),
        ddz.Rules("five-player-3deck", score_scheme="power"),
    ):
        g = ddz.Game(rules, deal=deal)
        if reason == "big-bomb":
            grab_all_then_pass(g)
        else:
            run(g, ["pass"] * 5)
        assert g.phase == "over"
        result = g.result
        assert result["auto_win"] == reason and result["winners"] == [0]
        base = roles(g).base
        p = base if rules.to_dict()["score_scheme"] == "multiply" else 2**base
        assert result["multiplier"] == p and result["events"] == g.events
        assert result["scores"] == [4 * p, -p, -p, -p, -p]
    # With the option off, the same deal goes on to the main landlord's choice.
    g = ddz.Game(ddz.Rules("five-player-3deck", auto_win=False), deal=deal)
    if reason == "big-bomb":
        grab_all_then_pass(g)
    else:
        run(g, ["pass"] * 5)
    assert g.phase == "call" and g.result is None


def test_no_auto_win_with_a_pair_and_a_bomb_under_ten() -> None:
    g = ddz.Game("five-player-3deck", deal=seed_deal())
    run(g, ["pass"] * 5)
    assert g.phase == "call"


# ---- secrecy -------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_observations_hold_no_hidden_card(preset: str) -> None:
    rng = random.Random(preset)
    for g, seat, obs in views_in_random_deals(preset, 40, rng):
        assert (obs["kitty"] is not None) == (g.kitty_given and seat == g.roles()["landlord"])
        if rng.random() < 0.4:  # a replay per step is slow: check a sample
            check_hidden_swap(g, seat, obs, rng, suits_secret=True)


def games_with_role_card_moved(
    game: ddz.Game, holder: int, card: str, skip: tuple[int, ...]
) -> tuple[int, ddz.Game, ddz.Game] | None:
    """`game`'s deal restarted twice: as dealt, and with `holder`'s `card` (the
    one giving the role) swapped for its rank in another suit from the first
    seat outside `skip` dealt one. That seat and the two games, or None if no
    seat was. Every hand keeps its ranks: only the role moves."""
    deal = dict(game.deals[0])
    hands = [split_identities(h) for h in deal["hands"]]
    found = next(
        (
            (s, c)
            for s, hand in enumerate(hands)
            if s not in skip
            for c in hand
            if c[0] == card[0] and c != card
        ),
        None,
    )
    if found is None:
        return None
    other, copy = found
    hands[holder][hands[holder].index(card)] = copy
    hands[other][hands[other].index(copy)] = card
    twin_deal = {**deal, "hands": [text(h) for h in hands]}
    preset = game.rules.preset
    return other, ddz.Game(preset, deal=deal), ddz.Game(preset, deal=twin_deal)


def same_views_until_revealed(
    a: ddz.Game, b: ddz.Game, viewers: list[int], agent_seed: int, choose=None
) -> int:
    """Step both games with the same actions; the viewers must see the same
    in both until either reveals its hidden partner. Returns steps checked."""
    agents = [RandomAgent(agent_seed + i) for i in range(5)]
    steps = 0
    while a.phase != "over" and not roles(a).revealed and not roles(b).revealed:
        for v in viewers:
            assert a.observation(v) == b.observation(v), f"seat {v} can tell the roles apart"
        legal = a.legal_actions()
        action = choose(a, legal) if choose else None
        if action is None:
            action = agents[a.to_act].act(a.observation(a.to_act), legal)
        a.step(action)
        b.step(action)
        steps += 1
    return steps


def keep_hidden(game: ddz.Game, legal: list) -> str | None:
    """Landlords never choose to reveal; other choices are left to the agents."""
    return "keep" if game.phase == "reveal" else None


def test_five_player_farmers_cannot_tell_who_is_hidden() -> None:
    checked = 0
    for seed in range(60):
        g = ddz.Game("five-player", seed=seed)
        f = roles(g)
        if f.hidden is None:
            continue
        # Another farmer holding the marked rank in another suit takes the copy.
        moved = games_with_role_card_moved(g, f.hidden, f.marked, skip=(f.open, f.hidden))
        if moved is None:
            continue
        other, a, b = moved
        assert roles(b).hidden == other
        viewers = [s for s in range(5) if s not in (f.open, f.hidden, other)]
        checked += same_views_until_revealed(a, b, viewers, seed, keep_hidden)
    assert checked > 500


def test_five_player_3deck_no_one_can_tell_who_is_deputy() -> None:
    checked = 0
    for seed in range(60):
        g = ddz.Game("five-player-3deck", seed=seed)
        run(g, ["pass"] * 5)
        if g.phase != "call" or "call-friend" not in g.legal_actions():
            continue
        g.step("call-friend")
        f = roles(g)
        moved = games_with_role_card_moved(g, f.deputy, f.called, skip=(f.landlord, f.deputy))
        if moved is None:
            continue
        other, a, b = moved
        run(a, ["pass"] * 5 + ["call-friend"])
        run(b, ["pass"] * 5 + ["call-friend"])
        assert roles(b).deputy == other and roles(a).deputy == f.deputy
        viewers = [s for s in range(5) if s not in (f.deputy, other)]  # main landlord included
        checked += same_views_until_revealed(a, b, viewers, seed)
    assert checked > 300
