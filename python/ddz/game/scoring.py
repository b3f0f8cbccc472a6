"""Scoring helpers: a stake built from named events, settled between sides."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def product(events: list[list]) -> int:
    stake = 1
    for _, factor in events:
        stake *= factor
    return stake


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


def settle_one_landlord(game: Game, landlord: int, winner: int) -> dict:
    """The landlord wins or loses the stake against each farmer."""
    n = game.rules.players
    landlord_won = winner == landlord
    events = game.events + spring_events(game, [landlord], landlord_won)
    stake = product(events)
    sign = 1 if landlord_won else -1
    scores = [-sign * stake] * n
    scores[landlord] = sign * stake * (n - 1)
    winners = [landlord] if landlord_won else [s for s in range(n) if s != landlord]
    return {"winners": winners, "scores": scores, "multiplier": stake, "events": events}
