"""Physical cards and dealing.

A card's identity is its text: a rank and a suit (``9h``), a joker (``X``,
``D``) or a laizi (``L``). With several decks, copies share one identity.
Counting ignores suits, so the core sees count vectors only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import ddz

RANKS = "3456789TJQKA2"
#: Suit order for tie-breaks, lowest first: ♦ < ♣ < ♥ < ♠.
SUITS = "dchs"


def deck(rules: ddz.Rules) -> list[str]:
    """Every card of the rule set's deck, in a fixed order."""
    cards = [r + s for _ in range(rules.decks) for r in RANKS for s in SUITS]
    cards += ["X", "D"] * rules.decks
    cards += ["L"] * rules.laizi
    return cards


def sort_key(card: str) -> tuple[int, int]:
    """Low to high by rank, then by suit."""
    order = RANKS + "XDL"
    return order.index(card[0]), SUITS.index(card[1]) if len(card) > 1 else 0


def text(cards: list[str]) -> str:
    """Identities joined, low to high (``3d3h9sX``)."""
    return "".join(sorted(cards, key=sort_key))


@dataclass
class Deal:
    """Who holds what at the start of a deal, and any marked cards."""

    hands: list[list[str]]
    kitty: list[str]
    set_aside: list[str]
    first: int
    #: Preset-specific choices made at the deal (``marked``, ``secret``).
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        # The kitty in stored order: sorted at the deal, except where a flow
        # deals from it in order (six-player-3v3-kitty).
        return {
            "hands": [text(h) for h in self.hands],
            "kitty": "".join(self.kitty),
            "set_aside": text(self.set_aside),
            "first": self.first,
            **self.extra,
        }


def split_identities(cards: str) -> list[str]:
    """``'3d3h9sXD'`` -> ``['3d', '3h', '9s', 'X', 'D']``; ranks without a suit
    get the lowest suit not yet taken, so plain text deals work too."""
    out: list[str] = []
    i = 0
    cards = cards.replace(" ", "").replace(",", "")
    while i < len(cards):
        c = cards[i].upper() if cards[i] in "tjqka" else cards[i]
        if c == "1" and cards[i + 1 : i + 2] == "0":
            c, i = "T", i + 1
        if c not in RANKS + "XDL":
            raise ValueError(f"unknown card symbol {cards[i]!r} in {cards!r}")
        i += 1
        if c in RANKS and i < len(cards) and cards[i] in SUITS:
            out.append(c + cards[i])
            i += 1
        else:
            out.append(c if c in "XDL" else c + "?")
    return out


def shuffled_deal(rules: ddz.Rules, rng: random.Random, *, sort_kitty: bool = True) -> Deal:
    """Shuffle and deal; `sort_kitty=False` keeps the kitty in dealt order,
    for a flow that shares it out from the top."""
    cards = deck(rules)
    rng.shuffle(cards)
    n, size = rules.players, rules.hand_size
    hands = [sorted(cards[i * size : (i + 1) * size], key=sort_key) for i in range(n)]
    rest = cards[n * size :]
    kitty = rest[: rules.kitty]
    if sort_kitty:
        kitty.sort(key=sort_key)
    aside = sorted(rest[rules.kitty :], key=sort_key)
    return Deal(hands, kitty, aside, rng.randrange(n))


def given_deal(rules: ddz.Rules, spec: dict, allowed: frozenset[str]) -> Deal:
    """A deal from ``{"hands": [...], "kitty": "...", "first": 0, ...}``, checked."""
    unknown = set(spec) - allowed
    if unknown:
        raise ValueError(
            f"deal keys {sorted(unknown)} are not used by {rules.preset!r}; "
            f"allowed: {sorted(allowed)}"
        )
    hands_text = spec.get("hands")
    if not isinstance(hands_text, list) or len(hands_text) != rules.players:
        raise ValueError(f"deal['hands'] must list {rules.players} hands")
    hands = [split_identities(h) for h in hands_text]
    kitty = split_identities(spec.get("kitty", ""))
    aside = split_identities(spec.get("set_aside", ""))
    for i, h in enumerate(hands):
        if len(h) != rules.hand_size:
            raise ValueError(f"deal['hands'][{i}] holds {len(h)} cards, not {rules.hand_size}")
    if len(kitty) != rules.kitty:
        raise ValueError(f"deal['kitty'] holds {len(kitty)} cards, not {rules.kitty}")
    if len(aside) != rules.set_aside:
        raise ValueError(f"deal['set_aside'] holds {len(aside)} cards, not {rules.set_aside}")
    # Assign suits to unsuited ranks, then check the whole deal is one deck.
    pool = deck(rules)
    everything = [c for h in hands for c in h] + kitty + aside
    for c in everything:
        if not c.endswith("?"):
            if c not in pool:
                raise ValueError(f"deal holds more copies of {c!r} than the deck")
            pool.remove(c)
    for group in [*hands, kitty, aside]:
        for j, c in enumerate(group):
            if c.endswith("?"):
                match = next((p for p in pool if p[0] == c[0]), None)
                if match is None:
                    raise ValueError(f"deal holds more copies of {c[0]!r} than the deck")
                pool.remove(match)
                group[j] = match
    first = spec.get("first", 0)
    if not isinstance(first, int) or not 0 <= first < rules.players:
        raise ValueError(f"deal['first'] must be a seat 0..{rules.players - 1}")
    base = {"hands", "kitty", "set_aside", "first"}
    extra = {k: v for k, v in spec.items() if k in allowed - base}  # in the record's order
    return Deal([sorted(h, key=sort_key) for h in hands], kitty, aside, first, extra)
