"""What one table may cost: rule sets whose views could be huge are refused
when the table is made (docs/server.md, Limits).

A view's size and the time to build it grow with the seat's legal actions,
and those grow combinatorially with the hand: a laizi rule set of three
decks and 89-card hands offers 2,262,037 leads (a 137 MB view, seconds of
work that holds the interpreter). Two limits keep every view small:

- a hand may hold at most `MAX_HAND_CARDS` cards (its deal plus the whole
  kitty), the largest hand a preset deals (six-player-2v4: 34 + 12);
- the richest hand the rule set can deal may offer at most
  `MAX_LEGAL_ACTIONS` leads. A lead offers every play a follow could, and
  more cards never offer fewer plays, so the richest lead bounds every
  view. It is found by a search over hands of that many cards (a hill
  climb from the hands that hold most plays: runs of triples, pairs,
  quads, with every wild card), counted by `Rules.count_moves`, which
  lists nothing. The search is not a proof; it finds the known worst
  hands of every preset and of the rule sets that motivated the limit.

`decks` needs no limit of its own here: the engine allows 1 to 4.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable

import numpy as np

import ddz

from .bots import BOT_KINDS
from .replies import Refused

MAX_HAND_CARDS = 46
MAX_LEGAL_ACTIONS = 20_000
#: A table of at most this many seats whose richest lead is at most this
#: (a view of a few ms), with only `inline` bots, is played on the event
#: loop: a hand-off to a worker thread costs more than its requests do
#: (docs/server.md, Threads). More seats mean more bot steps in a request
#: and more views pushed at each: up to 50 ms of CPU with five or six.
INLINE_LEGAL_ACTIONS = 2_000
INLINE_PLAYERS = 4
#: Steps of the hill climb from each starting hand.
CLIMB_STEPS = 150
RANKS = 13  # 3 .. 2; then the two jokers and the wild card


def check_cost(rules: ddz.Rules) -> None:
    """Refuse (422) a rule set over the limits, naming the limit."""
    cards = rules.hand_size + rules.kitty
    if cards > MAX_HAND_CARDS:
        raise Refused(
            422,
            f"options: a hand of {rules.hand_size} cards and a kitty of {rules.kitty} make hands "
            f"of {cards} cards, over the server's limit of {MAX_HAND_CARDS} cards in one hand",
        )
    count, hand = richest_lead(rules.to_json())
    if count > MAX_LEGAL_ACTIONS:
        raise Refused(
            422,
            f"options: a hand of this rule set can offer {count} or more legal actions "
            f"({hand}), over the server's limit of {MAX_LEGAL_ACTIONS} legal actions in one view",
        )


def runs_inline(rules: ddz.Rules, bot_kinds: Iterable[str]) -> bool:
    """May this table's requests run on the event loop? (Bounded small work only.)"""
    if rules.players > INLINE_PLAYERS or not all(BOT_KINDS[k].inline for k in bot_kinds):
        return False
    return richest_lead(rules.to_json())[0] <= INLINE_LEGAL_ACTIONS


@functools.lru_cache(maxsize=256)
def richest_lead(rules_json: str) -> tuple[int, str]:
    """(leads, hand) of the richest hand the search finds, stopping as soon
    as one goes over `MAX_LEGAL_ACTIONS`. Cached: every preset is searched
    once per process."""
    rules = ddz.Rules.from_json(rules_json)
    size = rules.hand_size + rules.kitty
    caps = np.array([4 * rules.decks] * RANKS + [rules.decks, rules.decks, rules.laizi])
    size = min(size, int(caps.sum()))
    rng = random.Random(0)

    def count(hand: np.ndarray) -> int:
        return rules.count_moves(rules.cards(hand.astype(np.uint8)))

    best, best_hand = -1, np.zeros(16, int)
    for start in _starts(caps, size, rng):
        hand, n = start, count(start)
        for _ in range(CLIMB_STEPS):
            if n > MAX_LEGAL_ACTIONS:
                break
            other = hand.copy()
            for _ in range(rng.randint(1, 3)):  # move one to three cards
                give = rng.choice(np.flatnonzero(other > 0))
                take = rng.choice(np.flatnonzero(other < caps))
                other[give] -= 1
                other[take] += 1
            m = count(other)
            if m >= n:  # >=: wander along plateaus
                hand, n = other, m
        if n > best:
            best, best_hand = n, hand
        if best > MAX_LEGAL_ACTIONS:
            break
    return best, str(rules.cards(best_hand.astype(np.uint8)))


def _starts(caps: np.ndarray, size: int, rng: random.Random) -> list[np.ndarray]:
    """Hands of `size` cards to climb from: every wild card, then k copies of
    each rank from the 3 up (k = 3, 2, 4, 1), then more as the caps allow;
    and two random hands."""
    starts = []
    for k in (3, 2, 4, 1):
        hand = np.zeros(16, int)
        hand[15] = min(caps[15], size)
        for layer in [k, *range(1, int(caps.max()) + 1)]:
            for r in range(15):
                room = size - int(hand.sum())
                if room <= 0:
                    break
                hand[r] += min(max(0, min(layer, caps[r]) - hand[r]), room)
        starts.append(hand)
    for _ in range(2):
        deck = [r for r in range(16) for _ in range(int(caps[r]))]
        hand = np.bincount(rng.sample(deck, size), minlength=16)
        starts.append(hand)
    return starts
