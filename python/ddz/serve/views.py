"""What the server shows: a seat's view, the spectators' view, a summary.

A seat's view wraps `Game.observation(seat)` unchanged. The spectators'
view is built from every seat's observation and keeps only what all seats
are shown alike (see docs/server.md, Spectators), so it can hold nothing
that some player may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .replies import encode
from .room import counter
from .tables import ServedTable

#: Observation fields that say nothing secret in any preset: the phase, whose
#: turn, the card counts, the play to beat, the multiplier's events, the result.
PUBLIC_FIELDS = ("preset", "phase", "to_act", "hand_sizes", "to_beat", "events", "result")
#: Per-seat fields a spectator never gets, whatever their values.
SEAT_FIELDS = ("seat", "hand", "legal_actions")


def _frame(table: ServedTable, seat: int | None, observation: Mapping[str, Any]) -> dict:
    return {
        "table": table.id,
        "seat": seat,
        "version": table.version,
        "deal": table.deal,
        "closed": table.closed,
        "scores": table.running_scores(),
        "stake": table.game.stake,
        "observation": observation,
        # The game room (docs/server.md): the running turn clock and the seats in 托管.
        "clock": table.clock,
        "autoplay": sorted(table.autoplay),
    }


def seat_view(table: ServedTable, seat: int) -> dict:
    """Exactly `observation(seat)` (legal actions included on the seat's
    turn), framed by the table's id, version, deal number and running scores,
    and, on the seat's turn, the legal plays whose texts are alike."""
    observation = table.game.observation(seat)
    view = _frame(table, seat, observation)
    if "legal_actions" in observation:
        view["readings"] = table.readings()
    if table.room.card_counter:
        view["counter"] = counter(table.rules, observation)
    return view


def view_text(table: ServedTable, seat: int | None) -> str:
    """The view of `seat` (None: the spectators') as JSON, encoded once per
    table version: the pushes after a step, the reply to the action and any
    GET at that version share one encoding."""
    cached = table.texts.get(seat)
    if cached is not None and cached[0] == table.version:
        return cached[1]
    view = spectator_view(table) if seat is None else seat_view(table, seat)
    text = encode(view)
    table.texts[seat] = (table.version, text)
    return text


def view_message(table: ServedTable, seat: int | None) -> str:
    """The WebSocket push of that view: the same object with ``"type": "view"`` first."""
    return '{"type":"view",' + view_text(table, seat)[1:]


def spectator_view(table: ServedTable) -> dict:
    return _frame(table, None, public_observation([table.game.observation(s) for s in table.seats]))


def public_observation(views: Sequence[Mapping[str, Any]]) -> dict:
    """What every seat's observation shows alike.

    - the fields in PUBLIC_FIELDS;
    - the kitty, when every seat sees it;
    - a hand that every other seat is shown;
    - the history entries that every seat sees;
    - any other (role) field whose value is the same for every seat.
    """
    first = views[0]
    public = {k: first[k] for k in PUBLIC_FIELDS if k in first}
    kitties = [v.get("kitty") for v in views]
    public["kitty"] = kitties[0] if None not in kitties and len(set(kitties)) == 1 else None
    public["seen_hands"] = _shown_to_all(views)
    public["history"] = _common_history([v.get("history", []) for v in views])
    known = set(PUBLIC_FIELDS) | set(SEAT_FIELDS) | {"kitty", "seen_hands", "history"}
    for key in first:
        if key not in known and all(key in v and v[key] == first[key] for v in views):
            public[key] = first[key]
    return public


def _shown_to_all(views: Sequence[Mapping[str, Any]]) -> dict:
    shown = {}
    for seat in range(len(views)):
        others = [v.get("seen_hands", {}) for s, v in enumerate(views) if s != seat]
        hands = [o.get(str(seat)) for o in others]
        if others and None not in hands and len(set(hands)) == 1:
            shown[str(seat)] = hands[0]
    return shown


def _common_history(histories: list[list]) -> list:
    """The entries of the first history that every other history holds, in
    order. Each seat's history is the full history less what it may not
    see, so walking them side by side finds the entries all seats share."""
    cursors = [0] * len(histories)
    common = []
    for entry in histories[0]:
        found = []
        for h, i in zip(histories[1:], cursors[1:]):
            j = next((j for j in range(i, len(h)) if h[j] == entry), None)
            if j is None:
                break
            found.append(j)
        else:
            common.append(entry)
            cursors[1:] = [j + 1 for j in found]
    return common


def summary(table: ServedTable) -> dict:
    """A table as the lobby lists it: nothing a seat or a spectator may not see."""
    game = table.game
    return {
        "id": table.id,
        "preset": table.rules.preset,
        "players": table.rules.players,
        "bots": {str(s): kind for s, kind in sorted(table.spec["bots"].items())},
        "deal": table.deal,
        "phase": game.phase,
        "to_act": None if game.phase == "over" else game.to_act,
        "version": table.version,
        "closed": table.closed,
        # Its creator chose the seed, and so may know its first deal (seeds.py).
        "seeded": table.spec["seed_given"],
        "status": status(table),
        "scores": table.running_scores(),
        "room": table.room_spec,
        "clock": table.clock,
        "autoplay": sorted(table.autoplay),
    }


def status(table: ServedTable) -> str:
    """ "open": no person has acted yet in its first deal (people may still
    sit down); "playing": a deal under way; "finished": closed, or its
    current deal over and no other dealt yet."""
    if table.closed or table.game.phase == "over":
        return "finished"
    if table.deal == 0 and all(seat in table.bots for seat, _ in table.game.history):
        return "open"
    return "playing"
