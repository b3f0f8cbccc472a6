"""The laizi preset through the Python API: readings, represents, bombs, properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz

LAIZI = ddz.Rules("laizi")


def readings(text: str) -> set[tuple[str, str, str, int]]:
    return {(str(m), m.kind, m.rank, m.length) for m in LAIZI.classify(text)}


def test_seed_examples() -> None:
    assert readings("44556L") == {("44556L=445566", "pair_straight", "6", 3)}
    assert readings("333L") == {("333L=3333", "bomb", "3", 4), ("333L", "trio_single", "3", 1)}
    assert ("77LL=7777", "bomb", "7", 4) in readings("77LL")
    assert ("333LL=33333", "bomb", "3", 5) in readings("333LL")
    assert readings("4444L") == {("4444L=44444", "bomb", "4", 5)}
    assert readings("5555LL") == {
        ("5555LL=555555", "bomb", "5", 6),
        ("5555LL", "four_two_singles", "5", 1),  # two laizi kickers
    }
    assert {str(m) for m in LAIZI.classify("5678L")} == {"5678L=45678", "5678L=56789"}


def test_represents_and_cards() -> None:
    (pair,) = LAIZI.classify("5L")
    assert pair.cards == ddz.Cards("5L") and pair.represents == ddz.Cards("55")
    assert pair.kind == "pair" and pair.rank == "5"
    trio_single = next(m for m in LAIZI.classify("333L") if m.kind == "trio_single")
    assert trio_single.represents == ddz.Cards("333L"), "a kicker laizi stays L"


def test_bomb_order_hi_rocket_hard_soft() -> None:
    def bomb(text: str) -> ddz.Move:
        return next(m for m in LAIZI.classify(text) if m.is_bomb)

    ladder = [bomb(t) for t in ("333L", "444L", "3333", "2222", "XD", "4444L", "5555L", "3333LL")]
    for i, stronger in enumerate(ladder):
        for weaker in ladder[:i]:
            assert LAIZI.beats(stronger, weaker) and not LAIZI.beats(weaker, stronger)


def test_laizi_limits() -> None:
    with pytest.raises(ValueError, match="'L'"):
        LAIZI.cards("LLL")
    with pytest.raises(ValueError, match="laizi"):
        ddz.Rules("classic").cards("3L")
    assert LAIZI.classify("XL") == []
    assert [str(m) for m in LAIZI.hint("LL")] == ["L=3", "LL=33"]
    assert all(m.cards != ddz.Cards("L") for m in LAIZI.moves("9L"))


def deal(seed: int, size: int, laizi: int) -> ddz.Cards:
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    counts = [0] * 16
    for r in rng.sample(deck, size):
        counts[r] += 1
    counts[15] = laizi
    return LAIZI.cards(counts)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(1, 17),
    st.integers(0, 2),
    st.integers(0, 2**32),
)
def test_generated_laizi_plays_are_sound(seed: int, size: int, laizi: int, other: int) -> None:
    hand = deal(seed, size, laizi)
    leads = list(LAIZI.moves(hand))
    assert len(set(leads)) == len(leads) == LAIZI.count_moves(hand)
    for m in leads:
        assert hand.contains(m.cards)
        assert m in LAIZI.classify(m.cards)
    other_leads = LAIZI.moves(deal(other, 1 + other % 17, other % 3))
    if other_leads:
        prev = other_leads[other % len(other_leads)]
        answers = list(LAIZI.moves(hand, prev))
        assert len(answers) == LAIZI.count_moves(hand, prev)
        assert all(LAIZI.beats(m, prev) for m in answers)
        assert set(answers) == {m for m in leads if LAIZI.beats(m, prev)}
