"""Property tests of move generation for every preset, on full-size hands.

For each preset and each of its hand sizes (``preset_sizes``: the dealt hand, then
each landlord hand = hand + kitty share), hypothesis deals a hand and another full
hand from one shuffled set of the preset's decks (natural cards only: hands holding
a laizi are refused for now) and checks, against docs/rules.md and docs/presets.md where it can:

* every lead and every answer to a play of the other hand classifies back to a
  list holding an equal Move, lies inside the hand, is listed once, and has the
  shape its kind, rank and length describe in this preset
  (rules.md#kinds, #sequences, #kickers; presets.md#multi-deck);
* every reading of a lead's cards is a lead, and removing a card never adds a lead
  (with the small-hand test below, this stands in for a brute-force oracle, which
  is out of reach at 20-46 cards);
* every answer beats the play it answers, both by ``rules.beats`` and by a Python
  reading of the general rules and of the preset's bomb ladder (rules.md#beats,
  rules.md#bomb-ladder, presets.md#low-a2), and
  the answers are exactly the leads that beat it;
* ``count_moves`` == ``len(moves)``; ``hint`` is a permutation, non-bombs first.

Deterministic tests add hands of <= 10 cards against ``test_properties``' brute force
(every sub-multiset, classified), the whole bomb ladder of each preset (most bomb
pairs never meet in a deal), and the hands with the most plays we know of.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import ddz

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))
from _hands import PATHOLOGICAL, preset_deck, preset_sizes  # noqa: E402
from test_properties import brute_force_leads, counts_of  # noqa: E402

RULES = {p: ddz.Rules(p) for p in ddz.PRESETS}
DECKS = {p: preset_deck(r) for p, r in RULES.items()}
ORDER = "3456789TJQKA2XD"  # single-card order, docs/rules.md#cards
X, D = 13, 14  # joker slots

#: hypothesis examples per (preset, size) and test; hands of multi-deck presets with many
#: cards have hundreds of plays, each checked in Python, so those get fewer examples.
EXAMPLES = {
    "classic": 200,
    "two-player": 200,
    "four-player": 120,
    "five-player": 150,
    "five-player-3deck": 100,
    "six-player-3v3": 120,
    "six-player-3v3-kitty": 100,
    "six-player-2v4": 80,
    "six-player-teams": 80,
    "laizi": 200,
}
CASES = [(p, size) for p in ddz.PRESETS for size in preset_sizes(p)]
CASE_IDS = [f"{p}-{size}" for p, size in CASES]


def examples(preset: str):
    return settings(
        max_examples=EXAMPLES[preset],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- docs/rules.md, read in Python ------------------------------------------------

#: presets.md#multi-deck: the presets with trio_single, plane_singles and four_two_*.
CLASSIC_KICKERS = {"classic", "two-player", "laizi"}
#: presets.md#multi-deck: joker pairs XX, DD (only possible with >= 2 decks).
JOKER_PAIRS = {
    "four-player",
    "five-player-3deck",
    "six-player-3v3-kitty",
    "six-player-2v4",
    "six-player-teams",
}
#: presets.md#low-a2, #consecutive-wings: Low A-2 sequences, consecutive plane wings,
#: AAA222+wings lowest.
LOW_A2 = {"five-player-3deck", "six-player-2v4", "six-player-teams"}
#: presets.md#multi-deck: XXXDD / DDDXX are trio_pair.
JOKER_TRIO_PAIR = {"six-player-2v4", "six-player-teams"}
LOW_A2_LINKS = [11, 12, *range(12)]  # A(low) 2 3 ... K A(high), as slots
SEQUENCES = {"straight": (1, 5), "pair_straight": (2, 3), "trio_straight": (3, 2)}
ALL_KINDS = {
    "single",
    "pair",
    "trio",
    "trio_single",
    "trio_pair",
    "straight",
    "pair_straight",
    "trio_straight",
    "plane_singles",
    "plane_pairs",
    "four_two_singles",
    "four_two_pairs",
    "bomb",
    "king_bomb",
}
NO_CLASSIC_KICKERS = {"trio_single", "plane_singles", "four_two_singles", "four_two_pairs"}
TOP = (99, 0, 0)  # above every rank bomb


def king_power(preset: str, x: int, d: int) -> tuple[int, int, int] | None:
    """presets.md#king-bombs: the place of the king bomb of ``x`` small and ``d`` big
    jokers on the ladder,
    as (cards, rank, order) where rank bomb ``n``x``r`` is (n, r, 0); None if not a bomb.
    A place "between 2222 and 33333" is (4, 13, ...)."""
    j = x + d
    if preset in ("classic", "two-player", "laizi"):
        return TOP if (x, d) == (1, 1) else None  # natural cards only: no hi bombs in laizi
    if preset == "four-player":
        return TOP if (x, d) == (2, 2) else None
    if preset == "five-player":
        return {
            (2, 0): (4, 13, 0),
            (0, 2): (4, 13, 1),
            (2, 1): (6, 13, 0),
            (1, 2): (6, 13, 0),
            (2, 2): TOP,
        }.get((x, d))
    if preset in ("six-player-3v3", "six-player-3v3-kitty"):
        if (x, d) in ((3, 0), (0, 3)) or j == 4:
            return (4, 13, 0)
        if j == 5:
            return (6, 13, 0)
        return TOP if j == 6 else None
    if preset == "five-player-3deck":
        if (x, d) in ((3, 0), (0, 3)) or j >= 4:
            return (4, 13, 10 * j + d)
        return None
    if preset in ("six-player-2v4", "six-player-teams"):
        tiers = {(3, 0): (4, 13, 0), (0, 3): (4, 13, 2), (4, 1): (8, 13, 0), (1, 4): (8, 13, 2)}
        if (x, d) in tiers:
            return tiers[(x, d)]
        if j == 4:
            return (4, 13, 1)
        if j == 6:
            return (8, 13, 1)
        if j == 7:
            return (8, 13, 3)
        return TOP if j == 8 else None
    raise AssertionError(preset)


def power(preset: str, m: ddz.Move) -> tuple[int, int, int]:
    """rules.md#bomb-ladder: a bomb's place on the ladder."""
    c = m.cards.counts
    if m.kind == "bomb":
        return (len(m), ORDER.index(m.rank), 0)
    p = king_power(preset, int(c[X]), int(c[D]))
    assert p is not None, f"{preset}: {m!r} is not a king bomb (docs/presets.md#king-bombs)"
    return p


def plain_order(preset: str, m: ddz.Move) -> int:
    """The strength of a non-bomb play among plays of its kind and length
    (rules.md#beats, presets.md#low-a2)."""
    if preset in LOW_A2 and m.kind == "plane_pairs" and m.length == 2:
        if m.rank == "2":  # AAA222 + wings: the lowest
            return -1
        if m.rank == "3":  # 222333 + wings: the highest
            return 100
    return ORDER.index(m.rank)


def oracle_beats(preset: str, a: ddz.Move, b: ddz.Move) -> bool:
    if a.is_bomb:
        return not b.is_bomb or power(preset, a) > power(preset, b)
    if b.is_bomb:
        return False
    return (
        a.kind == b.kind
        and a.length == b.length
        and len(a) == len(b)
        and plain_order(preset, a) > plain_order(preset, b)
    )


def chain(preset: str, top: str, links: int) -> list[int]:
    """rules.md#sequences: the slots of the sequence of ``links`` links ending at ``top``."""
    if preset in LOW_A2:
        end = 13 if top == "A" else LOW_A2_LINKS.index(ORDER.index(top))
        assert end - links + 1 >= 0, f"no {links}-link sequence ends at {top}"
        return LOW_A2_LINKS[end - links + 1 : end + 1]
    t = ORDER.index(top)
    assert t <= 11 and t - links + 1 >= 0, f"no classic {links}-link sequence ends at {top}"
    return list(range(t - links + 1, t + 1))


def check_shape(preset: str, m: ddz.Move) -> None:
    """``m`` has the shape its kind, rank and length say, in this preset
    (rules.md#kinds, presets.md#multi-deck)."""
    c = [int(n) for n in m.cards.counts]
    n, kind, r = len(m), m.kind, ORDER.index(m.rank)
    assert c[15] == 0 and sum(c) == n > 0
    assert m.represents == m.cards
    assert kind in ALL_KINDS
    assert m.is_bomb == (kind in ("bomb", "king_bomb"))
    if preset not in CLASSIC_KICKERS:
        assert kind not in NO_CLASSIC_KICKERS, f"{preset} has no {kind} (presets.md#multi-deck)"
    if kind == "king_bomb":
        assert c[X] + c[D] == n == m.length and m.rank == ("D" if c[D] else "X")
        power(preset, m)
        return
    if kind == "bomb":
        assert c[r] == n == m.length >= 4 and r < 13
        return
    # rules.md#kickers no_bomb_inside: no rank 4 times, except the body of a four_two_*
    four = kind in ("four_two_singles", "four_two_pairs")
    assert all(k <= 3 for s, k in enumerate(c) if not (four and s == r)), f"bomb inside {m!r}"
    pairs_ok = preset in JOKER_PAIRS
    if kind in SEQUENCES:
        per, least = SEQUENCES[kind]
        assert m.length >= least and n == per * m.length
        links = chain(preset, m.rank, m.length)
        assert c == [per if s in links else 0 for s in range(16)], f"{m!r} is no sequence"
        assert not (kind == "trio_straight" and links == [11, 12]), "AAA222 (rules.md#sequences)"
        return
    if kind in ("plane_singles", "plane_pairs"):
        links = chain(preset, m.rank, m.length)
        assert m.length >= 2 and all(c[s] == 3 for s in links)
        wings = [0 if s in links else k for s, k in enumerate(c)]
        if kind == "plane_singles":
            assert n == 4 * m.length
            return
        assert n == 5 * m.length and set(wings) <= {0, 2}
        if not pairs_ok:
            assert wings[X] == wings[D] == 0, f"{preset}: no joker pairs (presets.md#multi-deck)"
        if preset in LOW_A2:  # wings_consecutive (rules.md#kickers): a run of pairs, or XXDD
            held = [s for s in range(15) if wings[s]]
            k = m.length
            runs = [sorted(LOW_A2_LINKS[i : i + k]) for i in range(15 - k)]
            assert held == [X, D] or (held in runs and held != [11, 12]), f"{m!r} wings"
        return
    assert m.length == 1
    rest = c[:]
    if kind == "single":
        assert n == 1 and c[r] == 1
        return
    if kind == "pair":
        assert n == 2 and c[r] == 2 and (r < 13 or pairs_ok)
        return
    body = 4 if four else 3
    assert c[r] == body and (r < 13 or not four)
    rest[r] = 0
    if r >= 13:  # a joker trio: only XXXDD / DDDXX, as trio_pair (presets.md#multi-deck)
        assert preset in JOKER_TRIO_PAIR and kind == "trio_pair" and rest[X + D - r] == 2
    kickers = sorted(k for k in rest if k)
    if kind == "trio":
        assert kickers == []
    elif kind == "trio_single":
        assert kickers == [1]
    elif kind == "trio_pair":
        assert kickers == [2] and (pairs_ok or not (rest[X] or rest[D]))
    elif kind == "four_two_singles":
        assert sum(kickers) == 2
    elif kind == "four_two_pairs":
        assert kickers == [2, 2]
    else:
        raise AssertionError(kind)


# --- strategies and checks ---------------------------------------------------


@st.composite
def deal(draw: st.DrawFn, preset: str, size: int) -> tuple[list[int], list[int]]:
    """A ``size``-card hand and a disjoint full hand, dealt from one shuffled deck set."""
    deck = DECKS[preset]
    order = draw(st.permutations(range(len(deck))))
    other = RULES[preset].hand_size
    return (
        counts_of([deck[i] for i in order[:size]]),
        counts_of([deck[i] for i in order[size : size + other]]),
    )


def draw_play(data: st.DataObject, moves) -> ddz.Move:
    """A play: a kind chosen among those present, then a play of it (rare kinds stay
    well represented; uniform over plays would be mostly planes and bombs)."""
    by_kind = defaultdict(list)
    for m in moves:
        by_kind[m.kind].append(m)
    kind = data.draw(st.sampled_from(sorted(by_kind)), label="kind")
    return data.draw(st.sampled_from(by_kind[kind]), label="prev")


def check_plays(preset: str, hand: ddz.Cards, plays, prev: ddz.Move | None) -> None:
    rules = RULES[preset]
    assert rules.count_moves(hand, prev) == len(plays)
    assert len(set(plays)) == len(plays), "moves() returned duplicates"
    listed = set(plays)
    for m in plays:
        assert hand.contains(m.cards), f"{m!r} is not in {hand}"
        readings = rules.classify(m.cards)
        assert m in readings, f"{m!r} is not a reading of its cards"
        check_shape(preset, m)
        if prev is None:  # every reading of a lead's cards is a lead too
            missing = set(readings) - listed
            assert not missing, f"{hand}: reading {missing.pop()!r} of {m.cards} missing"
        else:
            assert rules.beats(m, prev), f"{m!r} does not beat {prev!r}"
    hint = rules.hint(hand, prev)
    assert len(hint) == len(plays) and set(hint) == set(plays)
    flags = [m.is_bomb for m in hint]
    assert flags == sorted(flags), "a bomb is hinted before a non-bomb"


# --- properties ----------------------------------------------------------------


@pytest.mark.parametrize(("preset", "size"), CASES, ids=CASE_IDS)
def test_leads(preset: str, size: int) -> None:
    @examples(preset)
    @given(hands=deal(preset, size))
    def leads(hands: tuple[list[int], list[int]]) -> None:
        rules = RULES[preset]
        hand = rules.cards(hands[0])
        note(f"hand {hand}")
        assert len(hand) == size
        plays = rules.moves(hand)
        assert plays, "a non-empty hand always has a lead"
        check_plays(preset, hand, plays, None)
        assert len(plays.counts()) == len(plays)
        # one card fewer never makes a new play: with check_plays, this makes every
        # reading of every part of the hand a lead (by induction from the part itself)
        listed = set(plays)
        for slot in range(15):
            if hands[0][slot]:
                sub = hands[0][:]
                sub[slot] -= 1
                extra = set(rules.moves(sub)) - listed
                assert not extra, f"{hand} misses {extra.pop()!r}, a lead of a part of it"

    leads()


@pytest.mark.parametrize(("preset", "size"), CASES, ids=CASE_IDS)
def test_follows(preset: str, size: int) -> None:
    @examples(preset)
    @given(hands=deal(preset, size), data=st.data())
    def follows(hands: tuple[list[int], list[int]], data: st.DataObject) -> None:
        rules = RULES[preset]
        hand = rules.cards(hands[0])
        prev = draw_play(data, rules.moves(hands[1]))
        note(f"hand {hand}, prev {prev!r}")
        assert not rules.beats(prev, prev)
        plays = rules.moves(hand, prev)
        check_plays(preset, hand, plays, prev)
        # the answers are exactly the leads that beat prev (rules.md#beats)
        leads = rules.moves(hand)
        assert set(plays) == {m for m in leads if rules.beats(m, prev)}
        wrong = [m for m in leads if rules.beats(m, prev) != oracle_beats(preset, m, prev)]
        assert not wrong, f"beats({wrong[0]!r}, {prev!r}) disagrees with docs/rules.md"
        # a strict order on the plays met here
        for m in plays[:50]:
            assert not rules.beats(prev, m)

    follows()


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_small_hands_against_brute_force(preset: str) -> None:
    """Hands of <= 10 cards: the leads are exactly the readings of every sub-multiset
    (``test_properties.brute_force_leads``), and classify lists no reading twice."""
    rules = RULES[preset]

    @examples(preset)
    @given(size=st.integers(0, 10), data=st.data())
    def small(size: int, data: st.DataObject) -> None:
        hand = data.draw(deal(preset, size), label="hands")[0]
        note(f"hand {rules.cards(hand)}")
        expected = brute_force_leads(rules, hand)
        assert len(set(expected)) == len(expected), "classify repeats a reading"
        plays = rules.moves(hand)
        assert set(plays) == set(expected) and len(plays) == len(expected)
        assert rules.count_moves(hand) == len(expected)

    small()


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_bomb_ladder(preset: str) -> None:
    """Every rank bomb and joker combination the decks allow, against each other and a
    few non-bombs: the readings of joker-only cards and ``beats`` follow presets.md#multi-deck
    and #king-bombs
    (most of these pairs never meet in a deal, so the properties above cannot see them)."""
    rules = RULES[preset]
    decks = rules.decks
    plays = [m for text in ("3", "2", "3456789TJQKA") for m in rules.classify(text)]
    for slot in range(13):
        for n in range(4, 4 * decks + 1):
            (bomb,) = rules.classify(ORDER[slot] * n)
            assert (bomb.kind, bomb.rank, bomb.length) == ("bomb", ORDER[slot], n)
            plays.append(bomb)
    for x in range(decks + 1):
        for d in range(decks + 1):
            if x + d == 0:
                continue
            readings = rules.classify("X" * x + "D" * d)
            place = king_power(preset, x, d)
            if place is not None:
                assert [m.kind for m in readings] == ["king_bomb"], f"{'X' * x}{'D' * d}"
            else:  # presets.md#multi-deck: single jokers, joker pairs, XXXDD/DDDXX; nothing else
                expected = {(1, 0): "single", (0, 1): "single"}
                if preset in JOKER_PAIRS:
                    expected.update({(2, 0): "pair", (0, 2): "pair"})
                if preset in JOKER_TRIO_PAIR:
                    expected.update({(3, 2): "trio_pair", (2, 3): "trio_pair"})
                want = [expected[(x, d)]] if (x, d) in expected else []
                assert [m.kind for m in readings] == want, f"{'X' * x}{'D' * d}: {readings}"
            plays.extend(readings)
    for m in plays:
        check_shape(preset, m)
    for a in plays:
        for b in plays:
            assert rules.beats(a, b) == oracle_beats(preset, a, b), f"beats({a!r}, {b!r})"


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_pathological_hands(preset: str) -> None:
    """The hands with the most plays we know of (``PATHOLOGICAL``), leads and answers to
    one play of each kind and length they hold."""
    rules = RULES[preset]
    for text, size in zip(PATHOLOGICAL[preset], preset_sizes(preset)):
        hand = rules.cards(text)
        assert len(hand) == size
        leads = rules.moves(hand)
        check_plays(preset, hand, leads, None)
        firsts = {}
        for m in leads:
            firsts.setdefault((m.kind, m.length), m)
        for prev in firsts.values():
            plays = rules.moves(hand, prev)
            assert rules.count_moves(hand, prev) == len(plays)
            assert set(plays) == {m for m in leads if oracle_beats(preset, m, prev)}
