"""Themes of a puzzle, tagged by rules from its main line (docs/puzzles.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ddz._ddz import Rules

#: Ranks a straight may run through, in order (2 and the jokers never do).
RUN = "3456789TJQKA"
STRAIGHTS = {"straight", "pair_straight", "trio_straight", "plane_singles", "plane_pairs"}
PLANES = {"trio_straight", "plane_singles", "plane_pairs"}


def cards_of(action: str) -> str:
    """The cards that leave the hand (a laizi play reads ``actual=represented``)."""
    return action.split("=", 1)[0]


def run_through(counts: Counter[str], rank: str) -> int:
    """The length of the run of held ranks through `rank` (0 off the run)."""
    if rank not in RUN or counts[rank] == 0:
        return 0
    i = RUN.index(rank)
    lo = i
    while lo > 0 and counts[RUN[lo - 1]] > 0:
        lo -= 1
    hi = i
    while hi + 1 < len(RUN) and counts[RUN[hi + 1]] > 0:
        hi += 1
    return hi - lo + 1


def _answers(rules: Rules, hand: str, prev: str) -> bool:
    return bool(hand) and len(rules.moves(hand, prev)) > 0


def tag(
    rules: Rules,
    hands: Sequence[str],
    line: Sequence[Sequence[Any]],
    kinds: Sequence[str],
    forbid: Sequence[str],
    length: int,
) -> list[str]:
    """The themes of a puzzle, sorted. `kinds` holds each line action's kind."""
    held = [Counter(cards_of(h)) for h in hands]
    n = len(hands)
    free = Rules(rules.preset) if forbid else rules  # the same preset without 禁手
    themes: set[str] = set()
    prev: str | None = None
    owner = 0
    for step, ((seat, action), kind) in enumerate(zip(line, kinds, strict=True)):
        landlord = seat == 0
        last = step == len(line) - 1
        hand = held[seat]
        hand_text = "".join(r * c for r, c in hand.items())
        if landlord and forbid and hand_text:
            open_kinds = {m.kind for m in free.moves(hand_text, prev)}
            if open_kinds & set(forbid):
                themes.add("forbid_in_play")
        if action == "pass":
            if landlord and _answers(rules, hand_text, prev or ""):
                themes.add("pass_to_keep_control")
            nxt = (seat + 1) % n
            if nxt == owner:
                prev = None
            continue
        played = Counter(cards_of(action))
        if landlord:
            if kind == "bomb":
                themes.add("bomb")
            if kind == "king_bomb":
                themes.add("rocket")
            if kind in PLANES:
                themes.add("plane")
            if kind in ("single", "pair") and not last:
                rank = next(iter(played))
                if hand[rank] == 4:
                    themes.add("split_bomb")
                elif hand[rank] > played[rank]:
                    themes.add("split_pair" if hand[rank] == 2 else "split_trio")
                if run_through(hand, rank) >= 5 and hand[rank] == played[rank]:
                    themes.add("split_straight")
            if kind == "single" and prev is None and not last:
                others = ["".join(r * c for r, c in held[s].items()) for s in range(n) if s != 0]
                if not any(_answers(rules, h, action) for h in others):
                    themes.add("unbeatable_single")
        elif kind in ("bomb", "king_bomb"):
            themes.add("defence_bomb")
        hand.subtract(played)
        held[seat] = +hand
        prev, owner = action, seat
    if n == 3:
        themes.add("three_hands")
    themes.add("short" if length <= 2 else "long" if length <= 4 else "very_long")
    return sorted(themes)
