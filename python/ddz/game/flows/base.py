"""The interface between `Game` and a preset's flow."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import ddz

from ..deck import Deal, shuffled_deal

if TYPE_CHECKING:
    from ..flow_game import FlowGame as Game


class Flow:
    """A preset's procedures. The base class plays no pre-play phase, scores
    nothing and shows no one else's cards; subclasses fill in their rules."""

    #: Keys a given deal may hold.
    DEAL_KEYS = frozenset({"hands", "kitty", "set_aside", "first"})

    def __init__(self, game: Game) -> None:
        self.g = game

    # ---- dealing and the phases before play ----------------------------
    def deal(self, rng: random.Random) -> Deal:
        """A fresh random deal (marked cards are chosen here)."""
        return shuffled_deal(self.g.rules, rng)

    def start(self) -> None:
        """Set `g.phase` and `g.to_act` for the first decision of a new deal."""
        raise NotImplementedError

    def legal(self, seat: int) -> list[str]:
        """Decisions open to `seat` in the current pre-play phase."""
        raise NotImplementedError

    def apply(self, seat: int, action: str) -> None:
        """Record one pre-play decision (already checked to be legal)."""
        raise NotImplementedError

    # ---- trick play hooks ----------------------------------------------
    def on_play(self, seat: int, move: ddz.Move, cards: list[str]) -> None:
        """After `seat` played `move` (the physical `cards`)."""

    def finish(self, winner: int) -> dict:
        """The result once `winner` has emptied their hand."""
        raise NotImplementedError

    # ---- what each seat may see ----------------------------------------
    def observe(self, seat: int) -> dict:
        """Role information `seat` may know (public and private)."""
        return {}

    def hands_seen_by(self, seat: int) -> set[int]:
        """Other seats whose whole hand `seat` may see now."""
        return set()

    def kitty_seen_by(self, seat: int) -> bool:
        return False

    def visible(self, viewer: int, seat: int, action: str) -> bool:
        """May `viewer` see that `seat` took `action` (now)? Plays and most
        decisions are public; a flow hides secret choices."""
        return True
