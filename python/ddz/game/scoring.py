"""Scoring of the one-landlord presets: a stake built from named events."""

from __future__ import annotations

import ddz

from .tricks import Tricks

#: Smallest rank bomb that doubles the stake, per preset (four-player: 6+ cards).
DOUBLING_BOMB = {"four-player": 6}


def doubling_event(rules: ddz.Rules, move: ddz.Move) -> list | None:
    """The multiplier event a played bomb adds, if any."""
    if move.kind == "king_bomb":
        return ["rocket", 2]
    if move.kind == "bomb" and move.length >= DOUBLING_BOMB.get(rules.preset, 4):
        return ["bomb", 2]
    return None


def settle(
    rules: ddz.Rules,
    landlord: int,
    winner: int,
    events: list[list],
    tricks: Tricks,
) -> dict:
    """Final result: the landlord settles the stake with each farmer."""
    n = rules.players
    events = list(events)
    landlord_won = winner == landlord
    farmers = [s for s in range(n) if s != landlord]
    if rules.to_dict()["spring"]:
        if landlord_won and all(tricks.plays_by_seat[s] == 0 for s in farmers):
            events.append(["spring", 2])
    if rules.to_dict()["anti_spring"] and not landlord_won:
        if tricks.plays_by_seat[landlord] == 1:
            events.append(["anti-spring", 2])
    stake = 1
    for _, factor in events:
        stake *= factor
    sign = 1 if landlord_won else -1
    scores = [-sign * stake] * n
    scores[landlord] = sign * stake * len(farmers)
    winners = [landlord] if landlord_won else farmers
    return {"winners": winners, "scores": scores, "multiplier": stake, "events": events}
