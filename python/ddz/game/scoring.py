"""Scoring helpers: a stake built from named events, settled between sides."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .flow_game import FlowGame as Game


def stake(events: list[list]) -> int:
    """The multiplier `events` build: integer effects multiply; ``"+k"``
    effects add k to a count that starts at 1 (the presets that count up)."""
    factor, count = 1, 1
    for _, effect in events:
        if isinstance(effect, str):
            count += int(effect)
        else:
            factor *= effect
    return factor * count


def spring_events(game: Game, landlords: list[int], landlords_won: bool) -> list[list]:
    """Spring (the losing side played no card) and, if enabled, anti-spring
    (the landlord side lost having made only the first lead)."""
    options = game.rules.to_dict()
    plays = game.tricks.plays_by_seat
    farmers = [s for s in range(game.rules.players) if s not in landlords]
    out = []
    if options["spring"]:
        losers = farmers if landlords_won else landlords
        if all(plays[s] == 0 for s in losers):
            out.append(["spring", 2])
    if options["anti_spring"] and not landlords_won:
        if sum(plays[s] for s in landlords) == 1:
            out.append(["anti-spring", 2])
    return out
