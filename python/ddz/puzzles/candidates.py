"""Candidate positions for the generator: synthetic deals, and endgames
reached in simulated deals. Candidate `index` of a series depends on
(seed, index) alone, so a series is the same in any number of parts."""

from __future__ import annotations

import random

from ddz._ddz import Rules, Table, greedy_choice, puzzle_candidates

#: Every fourth candidate (index % 4 == 3) comes from a simulated deal
#: when the source is "mixed".
SIMULATED_EVERY = 4


def source_of(index: int, source: str) -> str:
    if source == "mixed":
        return "simulated" if index % SIMULATED_EVERY == SIMULATED_EVERY - 1 else "synthetic"
    return source


def synthetic(rules: Rules, seed: int, index: int, hands: int, lo: int, hi: int) -> list[str]:
    return puzzle_candidates(rules, seed, index, 1, hands, lo, hi)[0]


def simulated(
    rules: Rules, seed: int, index: int, hands: int, lo: int, hi: int
) -> list[str] | None:
    """The first moment of a simulated deal where the landlord leads and
    every hand holds `lo` to `hi` cards (None if the deal never gets
    there). The seats play the core's greedy player, with one move in four
    at random. With two hands: the landlord and the farmer holding fewer
    cards (on a two-seat table, the other seat)."""
    rng = random.Random(seed * 1_000_003 + index)
    table = Table(rules, seed=rng.getrandbits(63))
    while not table.is_over:
        if table.phase == "play":
            pos = table.position()
            if pos is not None and pos["prev"] is None and pos["to_move"] == 0:
                cards = [str(h) for h in pos["hands"]]
                if len(cards) == 3 and hands == 2:
                    other = min((1, 2), key=lambda s: (len(cards[s]), s))
                    cards = [cards[0], cards[other]]
                if len(cards) != hands:
                    return None
                sizes = [len(c) for c in cards]
                if max(sizes) <= hi:
                    return cards if min(sizes) >= lo else None
        legal = table.legal_actions()
        pick = rng.randrange(len(legal)) if rng.random() < 0.25 else greedy_choice(legal)
        table.step(legal[pick])
    return None


def candidate(
    rules: Rules, seed: int, index: int, hands: int, lo: int, hi: int, source: str
) -> tuple[list[str] | None, str]:
    """Candidate `index`: its hands (None when a simulated deal gave none) and its source."""
    kind = source_of(index, source)
    if kind == "simulated":
        return simulated(rules, seed, index, hands, lo, hi), kind
    return synthetic(rules, seed, index, hands, lo, hi), kind
