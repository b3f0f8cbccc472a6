"""The game room's options of a table (pacing, the turn clock, 托管, the
card counter, hints) and what follows from them: how long a turn may
last, and the counter a seat is shown.

The options live in the table's spec under ``"room"``; a table stored
before they existed reads as it played then (no clock, bots answer in the
person's request, a counter, legal hints). See docs/server.md, The game room.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

import ddz

#: The rank letters of the counter, in the order hands are written (docs/rules.md#writing-cards).
RANKS = "3456789TJQKA2XD"
WILD = "L"
#: A played cards' text in a history entry: ranks only, then "=" and what the wild cards stand for.
PLAYED = re.compile(r"[3-9TJQKA2XDL]+")
HINT_MODES = ("off", "legal", "search")


@dataclass(frozen=True)
class RoomOptions:
    #: Seconds a person has for a turn; 0: no clock.
    turn_seconds: float = 0.0
    #: Seconds for a decision before the play (bids, doubles, shows...); None: turn_seconds.
    auction_seconds: float | None = None
    #: Seconds for the first play of a deal (the lead after the auction); None: turn_seconds.
    first_turn_seconds: float | None = None
    #: Timeouts in a row that put a seat in 托管; 0: never by itself.
    autoplay_after: int = 2
    #: Milliseconds between two bot actions at a table with a person; 0: bots answer at once.
    bot_delay_ms: int = 800
    card_counter: bool = True
    hints: str = "legal"
    #: The bot kind that plays a timed-out or 托管 seat; None: the table's own bots' kind.
    autoplay_bot: str | None = None

    @classmethod
    def of(cls, spec: Mapping[str, Any]) -> RoomOptions:
        room = spec.get("room")
        if room is None:  # stored before the game room: played as it was then
            return cls(bot_delay_ms=0)
        known = {f.name for f in fields(cls)}  # a later server's options are left out
        return cls(**{k: v for k, v in room.items() if k in known})

    def to_spec(self) -> dict:
        return asdict(self)

    def seconds_for(self, game: ddz.Game) -> float:
        """The clock for the turn `game` is at (0: none)."""
        if self.turn_seconds <= 0:
            return 0.0
        if game.phase != "play":
            chosen = self.auction_seconds
        elif not any(PLAYED.fullmatch(a.split("=")[0]) for _, a in _history(game)):
            chosen = self.first_turn_seconds
        else:
            chosen = None
        return self.turn_seconds if chosen is None else chosen


def _history(game: ddz.Game) -> list:
    return game.observation(game.to_act)["history"]


def autoplay_kind(options: RoomOptions, bots: Mapping[int, str]) -> str:
    """Who plays a seat in 托管: the option, else the table's bots' most
    common kind, else greedy."""
    if options.autoplay_bot:
        return options.autoplay_bot
    kinds = list(bots.values())
    return max(kinds, key=kinds.count) if kinds else "greedy"


def deck_counts(rules: ddz.Rules) -> dict[str, int]:
    """Every copy of each rank the rule set's decks hold."""
    counts = {r: 4 * rules.decks for r in RANKS[:-2]}
    counts["X"] = counts["D"] = rules.decks
    if rules.laizi:
        counts[WILD] = rules.laizi
    return counts


def counter(rules: ddz.Rules, observation: Mapping[str, Any]) -> dict[str, int]:
    """记牌器: per rank, the copies neither in the seat's hand nor played
    yet, from the seat's own observation alone (its hand and the public
    history)."""
    left = deck_counts(rules)
    for card in observation.get("hand") or "":
        if card in left:  # rank letters; suits are lower case
            left[card] -= 1
    for _, action in observation.get("history", []):
        cards = action.split("=")[0]
        if PLAYED.fullmatch(cards):
            for card in cards:
                left[card] -= 1
    return left
