"""The plays a seat is advised, best first, as the engine orders them.

`Rules.hint` orders a hand's plays as a game's hint button offers them
(smallest first, bombs last); the seat's legal plays are sorted by it, so
the page never judges a play itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ddz

if TYPE_CHECKING:
    from .tables import ServedTable


def _to_beat(rules: ddz.Rules, text: str | None) -> ddz.Move | None:
    """The play an observation's `to_beat` text names ('522L=5222')."""
    if text is None:
        return None
    for move in rules.classify(text.split("=")[0]):
        if str(move) == text:
            return move
    return None


def hints(game: ddz.Game, seat: int) -> list[dict]:
    """The legal plays of `seat` in hint order, each with the cards it takes
    (their ranks, 'L' for a wild card) and what tells it from a play that
    prints alike; empty when the seat is not to play a card."""
    if game.phase != "play" or game.to_act != seat:
        return []
    legal = [a for a in game.legal_actions() if isinstance(a, ddz.Move)]
    observation = game.observation(seat)
    order = game.rules.hint(observation["hand"], _to_beat(game.rules, observation["to_beat"]))
    rank = {move: i for i, move in enumerate(order)}
    legal.sort(key=lambda m: rank.get(m, len(rank)))
    return [
        {
            "action": str(m),
            "cards": str(m.cards),
            "kind": m.kind,
            "rank": m.rank,
            "length": m.length,
        }
        for m in legal
    ]


def table_hints(table: ServedTable, seat: int) -> list[dict]:
    """What the table's `hints` option offers `seat`: nothing ("off"), its
    legal plays in hint order ("legal"), or the search's ranked plays
    ("search")."""
    mode = table.room.hints
    if mode == "off":
        return []
    if mode == "search":
        return search_hints(table, seat)
    return hints(table.game, seat)


#: The work of one search hint (`ddz.hint`): well inside a turn's clock.
SEARCH_HINT_PLAYOUTS = 1500
SEARCH_HINT_MS = 200


def search_hints(table: ServedTable, seat: int) -> list[dict]:
    """The search's best plays first, each with its win rate (`wp`, `low`,
    `high`: `ddz.hint`, from what the seat sees), then the other legal
    plays in hint order. A pass the search ranks first is left out: the
    page's Hint selects cards."""
    plays = hints(table.game, seat)
    if not plays:
        return plays
    ranked = ddz.hint(
        table.game, seat, k=3, budget_ms=SEARCH_HINT_MS, playouts=SEARCH_HINT_PLAYOUTS
    )
    by_action = {p["action"]: p for p in plays}
    best = [
        dict(by_action[str(r["action"])], wp=r["wp"], low=r["low"], high=r["high"])
        for r in ranked
        if str(r["action"]) in by_action
    ]
    taken = {b["action"] for b in best}
    return best + [p for p in plays if p["action"] not in taken]
