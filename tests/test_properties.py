"""Property tests of move generation for `classic` and `two-player`.

Hands are drawn from the real deck (four of each rank 3..2, one X, one D).
A small brute-force oracle (every sub-multiset, classified through
`rules.classify`, compared by a Python reading of docs/rules.md#kinds and #bomb-ladder) checks
`rules.moves` exactly on small hands.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddz

PRESETS = ["classic", "two-player"]
RULES = {p: ddz.Rules(p) for p in PRESETS}
ORDER = "3456789TJQKA2XD"  # single-card order, docs/rules.md#cards
DECK = [slot for slot in range(15) for _ in range(4 if slot < 13 else 1)]
assert len(DECK) == 54

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def counts_of(slots: list[int]) -> list[int]:
    counts = [0] * 16
    for s in slots:
        counts[s] += 1
    return counts


def hand_pair(max_size: int = 20) -> st.SearchStrategy[tuple[list[int], list[int]]]:
    """Two disjoint hands dealt from one deck: (hand, other), each 0..max_size cards."""

    @st.composite
    def deal(draw: st.DrawFn) -> tuple[list[int], list[int]]:
        order = draw(st.permutations(range(len(DECK))))
        n = draw(st.integers(0, max_size))
        m = draw(st.integers(0, max_size))
        hand = [DECK[i] for i in order[:n]]
        other = [DECK[i] for i in order[n : n + m]]
        return counts_of(hand), counts_of(other)

    return deal()


presets = st.sampled_from(PRESETS)


def key(m: ddz.Move) -> tuple[str, str, int, str]:
    return (str(m.cards), m.kind, m.length, m.rank)


def oracle_beats(a: ddz.Move, b: ddz.Move) -> bool:
    """docs/rules.md#beats and the classic ladder of #bomb-ladder."""
    if a.kind == "king_bomb":
        return b.kind != "king_bomb"
    if b.kind == "king_bomb":
        return False
    if a.kind == "bomb":
        return b.kind != "bomb" or ORDER.index(a.rank) > ORDER.index(b.rank)
    if b.kind == "bomb":
        return False
    return (
        a.kind == b.kind
        and a.length == b.length
        and len(a) == len(b)
        and ORDER.index(a.rank) > ORDER.index(b.rank)
    )


def sub_multisets(counts: list[int]):
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            yield list(sub)


def brute_force_leads(rules: ddz.Rules, counts: list[int]) -> list[ddz.Move]:
    out: list[ddz.Move] = []
    for sub in sub_multisets(counts):
        out.extend(rules.classify(sub))
    return out


# --- hypothesis properties -------------------------------------------------


@SETTINGS
@given(preset=presets, hands=hand_pair())
def test_leads_are_readings_from_the_hand(preset: str, hands: tuple[list[int], list[int]]) -> None:
    rules = RULES[preset]
    hand = rules.cards(hands[0])
    moves = rules.moves(hand)
    assert rules.count_moves(hand) == len(moves)
    assert len(set(moves)) == len(moves), "moves() returned duplicates"
    if len(hand):
        assert moves, "a non-empty hand always has a lead"
    for m in moves:
        assert hand.contains(m.cards)
        assert m.represents == m.cards
        assert len(m) == len(m.cards) > 0
        assert m in rules.classify(m.cards), f"{m!r} is not a reading of its cards"
        assert m.is_bomb == (m.kind in ("bomb", "king_bomb"))


@SETTINGS
@given(preset=presets, hands=hand_pair(), data=st.data())
def test_follows_beat_prev(
    preset: str, hands: tuple[list[int], list[int]], data: st.DataObject
) -> None:
    rules = RULES[preset]
    hand = rules.cards(hands[0])
    others = rules.moves(hands[1])
    if not others:
        return
    prev = data.draw(st.sampled_from(others), label="prev")
    follows = rules.moves(hand, prev)
    assert rules.count_moves(hand, prev) == len(follows)
    assert len(set(follows)) == len(follows), "moves() returned duplicates"
    for m in follows:
        assert hand.contains(m.cards)
        assert m in rules.classify(m.cards)
        assert rules.beats(m, prev), f"{m!r} does not beat {prev!r}"
        assert oracle_beats(m, prev), f"{m!r} should not beat {prev!r}"
    # the follows are exactly the leads that beat prev
    expected = [m for m in rules.moves(hand) if rules.beats(m, prev)]
    assert set(follows) == set(expected)
    assert len(follows) == len(expected)


@SETTINGS
@given(preset=presets, hands=hand_pair(), data=st.data())
def test_hint_is_a_permutation_bombs_last(
    preset: str, hands: tuple[list[int], list[int]], data: st.DataObject
) -> None:
    rules = RULES[preset]
    hand = rules.cards(hands[0])
    others = rules.moves(hands[1])
    prev = data.draw(st.sampled_from([None, *others]), label="prev")
    moves = rules.moves(hand, prev)
    hint = rules.hint(hand, prev)
    assert len(hint) == len(moves)
    assert set(hint) == set(moves)
    flags = [m.is_bomb for m in hint]
    assert flags == sorted(flags), "a bomb is hinted before a non-bomb"


@SETTINGS
@given(preset=presets, hands=hand_pair(), data=st.data())
def test_beats_is_a_strict_order(
    preset: str, hands: tuple[list[int], list[int]], data: st.DataObject
) -> None:
    rules = RULES[preset]
    moves = rules.moves(hands[0])
    if not moves:
        return
    a = data.draw(st.sampled_from(moves), label="a")
    b = data.draw(st.sampled_from(moves), label="b")
    assert not rules.beats(a, a)
    assert not (rules.beats(a, b) and rules.beats(b, a))
    assert rules.beats(a, b) == oracle_beats(a, b)


@SETTINGS
@given(preset=presets, hands=hand_pair())
def test_same_hand_in_every_form(preset: str, hands: tuple[list[int], list[int]]) -> None:
    rules = RULES[preset]
    counts = hands[0]
    cards = rules.cards(counts)
    assert cards.counts.tolist() == counts
    assert rules.cards(str(cards)) == cards
    assert ddz.Cards(cards.counts) == cards
    assert len(cards) == sum(counts)
    assert rules.count_moves(str(cards)) == rules.count_moves(cards) == rules.count_moves(counts)


# --- brute-force oracle on small hands ------------------------------------


def random_hand(rng: random.Random, size: int) -> list[int]:
    return counts_of(rng.sample(DECK, size))


def test_oracle_small_hands() -> None:
    """200 seeded hands of <= 10 cards per preset: moves == every classified sub-multiset."""
    rng = random.Random(20240509)
    checked_follows = 0
    for i in range(400):
        preset = PRESETS[i % 2]
        rules = RULES[preset]
        size = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10])
        hand = random_hand(rng, size)
        leads = brute_force_leads(rules, hand)
        assert len(set(leads)) == len(leads), f"classify repeats a reading in {hand}"
        moves = rules.moves(hand)
        assert sorted(map(key, moves)) == sorted(map(key, leads)), (
            f"{preset} {ddz.Cards(hand)}: moves {sorted(map(str, moves))} "
            f"!= oracle {sorted(map(str, leads))}"
        )
        assert set(moves) == set(leads)
        assert rules.count_moves(hand) == len(leads)

        # follows: a play from another random hand
        other = rules.moves(random_hand(rng, rng.randint(1, 12)))
        for prev in rng.sample(other, min(5, len(other))):
            expected = [m for m in leads if oracle_beats(m, prev)]
            follows = rules.moves(hand, prev)
            assert sorted(map(key, follows)) == sorted(map(key, expected)), (
                f"{preset} {ddz.Cards(hand)} vs {prev!r}: moves {sorted(map(str, follows))} "
                f"!= oracle {sorted(map(str, expected))}"
            )
            assert rules.count_moves(hand, prev) == len(expected)
            checked_follows += 1
    assert checked_follows > 1000


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "hand",
    [
        "3333444455",  # bombs, four_two, planes with repeated wings
        "333444555X",
        "33445566XD",
        "3456789TJQ",
        "TJQKA22XD",
        "333444555D",
        "22223333XD",
    ],
)
def test_oracle_fixed_hands(preset: str, hand: str) -> None:
    rules = RULES[preset]
    counts = rules.cards(hand).counts.tolist()
    leads = brute_force_leads(rules, counts)
    assert sorted(map(key, rules.moves(hand))) == sorted(map(key, leads))
