"""Seeded random hands, shared by the tests and the benches.

Classic hands for ``tests/test_douzero_diff.py``, ``bench_movegen.py`` and ``compare.py``;
hands of every preset (and the hands with the most plays we know of) for
``tests/test_presets_properties.py``, ``bench_presets.py`` and ``presets.py``.

A hand is kept both as a ddz count vector (16 slots: ``3 4 5 6 7 8 9 T J Q K A 2 X D L``)
and as a DouZero card list (ints ``3..14`` for ``3..A``, ``17`` for ``2``, ``20`` small
joker, ``30`` big joker).  Importing this module needs only numpy and ddz; the DouZero
helpers import ``douzero`` when first called.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

import ddz

#: DouZero's card int for each ddz slot (the laizi slot ``L`` has none).
DZ_OF_SLOT = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
SLOT_OF_DZ = {card: slot for slot, card in enumerate(DZ_OF_SLOT)}
#: One deck: four of each rank 3..2, one small and one big joker.
DECK = [slot for slot in range(13) for _ in range(4)] + [13, 14]

HAND_SIZES = (17, 20)


def counts_to_dz(counts) -> list[int]:
    """ddz count vector -> sorted DouZero card list."""
    out: list[int] = []
    for slot, n in enumerate(counts[:15]):
        out.extend([DZ_OF_SLOT[slot]] * int(n))
    return out


def dz_to_counts(cards) -> np.ndarray:
    """DouZero card list -> ddz count vector (uint8[16])."""
    counts = np.zeros(16, dtype=np.uint8)
    for card in cards:
        counts[SLOT_OF_DZ[card]] += 1
    return counts


def dz_key(move) -> tuple[int, ...]:
    """A ddz Move (or Cards) as the sorted tuple of DouZero ints of its cards."""
    cards = getattr(move, "cards", move)
    return tuple(counts_to_dz(cards.counts))


@dataclass(frozen=True)
class Case:
    """One hand to generate plays from, plus a previous play to answer."""

    hand: ddz.Cards  # the hand, as ddz Cards
    hand_dz: tuple[int, ...]  # the same hand as a sorted DouZero card list
    other: ddz.Cards  # another hand of the same deal (17 cards in classic), disjoint from ``hand``
    prev: object  # a ddz.Move drawn from ``other``
    prev_dz: tuple[int, ...]  # prev's cards as a sorted DouZero card list


def _deal(
    rng: random.Random, size: int, deck=DECK, other_size: int = 17
) -> tuple[np.ndarray, np.ndarray]:
    """Shuffle ``deck``; return a ``size``-card hand and a disjoint ``other_size``-card hand."""
    deck = list(deck)
    rng.shuffle(deck)
    hand = np.zeros(16, dtype=np.uint8)
    other = np.zeros(16, dtype=np.uint8)
    for slot in deck[:size]:
        hand[slot] += 1
    for slot in deck[size : size + other_size]:
        other[slot] += 1
    return hand, other


def pick_prev(moves, rng: random.Random):
    """A random play: a kind chosen uniformly among those present, then a play of it.

    Choosing the kind first keeps rare kinds (planes, four-with-two, bombs) well
    represented: uniform over plays would be mostly kickered planes and 4+2.
    """
    by_kind = defaultdict(list)
    for m in moves:
        by_kind[m.kind].append(m)
    kind = rng.choice(sorted(by_kind))
    # sorted, so the pick depends on the seed only, not on the generator's order
    return rng.choice(sorted(by_kind[kind], key=lambda m: (str(m), m.rank, m.length)))


def make_cases(
    rules: ddz.Rules,
    n: int,
    size: int,
    seed: int,
    deck=DECK,
    other_size: int = 17,
    name: str = "hands",
) -> list[Case]:
    """``n`` seeded cases of ``size``-card hands, each with a previous play to answer.

    By default the hands are dealt from one classic deck, the other hand has 17 cards;
    ``name`` only salts the seed (the default keeps the classic benches' hands).
    """
    rng = random.Random(f"ddz-{name}-{size}-{seed}")
    cases = []
    for _ in range(n):
        hand, other = _deal(rng, size, deck, other_size)
        other = rules.cards(other)
        prev = pick_prev(rules.moves(other), rng)
        cards = rules.cards(hand)
        cases.append(Case(cards, tuple(counts_to_dz(hand)), other, prev, dz_key(prev)))
    return cases


# --------------------------------------------------------------------------- DouZero


def douzero_leads(hand_dz) -> list[list[int]]:
    """DouZero's leads: ``MovesGener(hand).gen_moves()`` (lists as generated, unsorted)."""
    from douzero.env.move_generator import MovesGener

    return MovesGener(list(hand_dz)).gen_moves()


def douzero_legal(hand_dz, rival_dz=()) -> list[list[int]]:
    """DouZero's own legal actions, via ``GameEnv.get_legal_card_play_actions``.

    With a non-empty ``rival_dz`` this is DouZero's answer to that play (its
    move_detector + move_selector filters, then bombs and the rocket, then pass ``[]``).
    Only the two attributes that method reads are set up.
    """
    from douzero.env.game import GameEnv, InfoSet

    env = GameEnv.__new__(GameEnv)
    env.acting_player_position = "landlord"
    info = InfoSet("landlord")
    info.player_hand_cards = list(hand_dz)
    env.info_sets = {"landlord": info}
    env.card_play_action_seq = [list(rival_dz)] if rival_dz else []
    return env.get_legal_card_play_actions()


# --------------------------------------------------------------------------- bench workloads
#: The fixed hand lists the benches and ``benches/compare.py`` time: BENCH_HANDS cases
#: of each size in HAND_SIZES, seed BENCH_SEED.
BENCH_HANDS = 200
BENCH_SEED = 7


def bench_cases(rules: ddz.Rules, size: int) -> list[Case]:
    return make_cases(rules, BENCH_HANDS, size, BENCH_SEED)


def ddz_moves(rules: ddz.Rules, cases, follow: bool = False, materialize: bool = False) -> int:
    """``rules.moves`` over every case (leads, or answers to ``case.prev``); total plays.

    With ``materialize``, every play is also turned into a ``Move`` object
    (``list(rules.moves(...))``), as code that walks all plays does.
    """
    n = 0
    for c in cases:
        plays = rules.moves(c.hand, c.prev) if follow else rules.moves(c.hand)
        n += len(list(plays)) if materialize else len(plays)
    return n


def ddz_count(rules: ddz.Rules, cases, follow: bool = False) -> int:
    """``rules.count_moves`` over every case; total plays."""
    n = 0
    if follow:
        for c in cases:
            n += rules.count_moves(c.hand, c.prev)
    else:
        for c in cases:
            n += rules.count_moves(c.hand)
    return n


def douzero_moves(cases, follow: bool = False) -> int:
    """DouZero over every case: ``MovesGener(hand).gen_moves()`` for leads, game.py's
    ``get_legal_card_play_actions`` for answers; total plays (pass not counted)."""
    from douzero.env.move_generator import MovesGener

    n = 0
    if follow:
        for c in cases:
            n += len(douzero_legal(c.hand_dz, c.prev_dz)) - 1  # its last action is pass
    else:
        for c in cases:
            n += len(MovesGener(list(c.hand_dz)).gen_moves())
    return n


# --------------------------------------------------------------------------- every preset
#: Cards a landlord adds to a full hand from the kitty, where that is not simply the
#: whole kitty (docs/rules.md#presets): ``six-player-3v3`` has no kitty; in ``six-player-3v3-kitty``
#: a sole open landlord takes all 12 (two take 6, three 4 each); in ``six-player-2v4`` and
#: ``six-player-teams`` each of the two landlords takes 6, a solo landlord 12.
KITTY_SHARES = {
    "six-player-3v3": (),
    "six-player-3v3-kitty": (12,),
    "six-player-2v4": (6, 12),
    "six-player-teams": (6, 12),
}
#: Seeded hands per preset and size for ``bench_presets.py`` and ``presets.py``.
PRESET_HANDS = 100

#: Per preset and hand size (``preset_sizes``), a hand of natural cards found by simulated
#: annealing on ``count_moves``: runs of trios beside pairs (and, where the preset has them,
#: planes with single wings), the hands with the most plays we know of.  Plays (at the time
#: of writing) in the comment.
PATHOLOGICAL = {
    "classic": ("3456777888999TJQK", "3456789TJQQQKKKAAAXD"),  # 215, 405
    "two-player": ("3456789TJQQQKKKAAAXD", "3456789TTTJJJQQQKKKA2XD"),  # 405, 1174
    "four-player": (
        "444555666777888999TTTJJAA",  # 379
        "3344556677888999TTTJJJQQQKKKAAA22",  # 1845
    ),
    "five-player": ("7788999TTTJJJQQQKKKAA", "444555666777888999TTJJKK"),  # 189, 318
    "five-player-3deck": (
        "33444555666777888999TTTJJJQQQ22",  # 334
        "333444555666777888999TTTJJJQQQKKKAAA22",  # 619
    ),
    "six-player-3v3": ("444555666777888999TTTJJQQ22",),  # 560
    "six-player-3v3-kitty": (
        "66778899TTTJJJQQQKKKAAADD",  # 371
        "33445566777888999TTTJJJQQQKKKAA22XXDD",  # 4068
    ),
    "six-player-2v4": (
        "33445566777888999TTTJJJQQQKKKAAA22",  # 440
        "333444555666777888999TTTJJJQQQKKKAAA222X",  # 716
        "333444555666777888999TTTJJJQQQKKKAAA222XXXXDDD",  # 770
    ),
    "six-player-teams": (
        "33445566777888999TTTJJJQQQKKKAAA22",
        "333444555666777888999TTTJJJQQQKKKAAA222X",
        "333444555666777888999TTTJJJQQQKKKAAA222XXXXDDD",
    ),
    "laizi": ("3456777888999TJQK", "3456789TJJJQQQKKKAAAXD"),  # 215, 901
}


def preset_deck(rules: ddz.Rules) -> list[int]:
    """The natural cards of a preset's decks as slots: ``4 * decks`` of each rank 3..2,
    ``decks`` of each joker.  No laizi: the engine does not take ``L`` in a hand yet."""
    return [slot for slot in range(13) for _ in range(4 * rules.decks)] + [13, 14] * rules.decks


def preset_sizes(preset: str) -> tuple[int, ...]:
    """A preset's full hand size, then each landlord size (hand + kitty share)."""
    rules = ddz.Rules(preset)
    shares = KITTY_SHARES.get(preset, (rules.kitty,))
    return (rules.hand_size, *(rules.hand_size + share for share in shares))


def preset_cases(preset: str, size: int, n: int = PRESET_HANDS, seed: int = BENCH_SEED):
    """``n`` seeded cases of ``size``-card hands of ``preset``, each with a play to answer
    from another full hand of the same deal."""
    rules = ddz.Rules(preset)
    return make_cases(rules, n, size, seed, preset_deck(rules), rules.hand_size, preset)
