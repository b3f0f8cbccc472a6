"""One landlord against the rest: classic, two-player, four-player, laizi."""

from __future__ import annotations

import ddz

from ..auction import Bidding, BidOnce, Calling, Outcome
from ..scoring import settle_one_landlord
from .base import Flow

#: Whether everyone sees the kitty once the landlord takes it.
KITTY_SHOWN = {"classic": True, "two-player": False, "four-player": False, "laizi": True}
#: Smallest rank bomb that doubles the stake (four-player: 6 cards).
DOUBLING_BOMB = {"four-player": 6}


def _strong(hand: list[str]) -> bool:
    """Laizi: D with a 2, or both jokers, forces a bid when all pass."""
    ranks = {c[0] for c in hand}
    return "D" in ranks and ("2" in ranks or "X" in ranks)


class LandlordFlow(Flow):
    def start(self) -> None:
        g = self.g
        n = g.rules.players
        first = g.deals[-1].first
        self.landlord: int | None = None
        self.kickers: list[int] = []
        self.kicked = False
        self.countering = False  # the landlord's answer to the kicks
        if g.rules.preset == "two-player":
            self.auction: Bidding | Calling | BidOnce = Calling(n)
        elif g.rules.preset == "laizi":
            self.auction = BidOnce(n, first, [_strong(h) for h in g.hands])
        else:
            self.auction = Bidding(n)
        g.phase, g.to_act = "bid", first

    def legal(self, seat: int) -> list[str]:
        if self.g.phase == "bid":
            return self.auction.legal(seat)
        # The kick phase (docs/game.md) holds the kicks and then the counter-kick.
        if self.countering:
            return ["counter-kick", "no-counter-kick"]
        return ["kick", "no-kick"]

    def apply(self, seat: int, action: str) -> None:
        g = self.g
        if g.phase == "bid":
            self.auction.apply(seat, action)
            outcome = self.auction.outcome
            if outcome is None:
                g.to_act = (seat + 1) % g.rules.players
            elif outcome.redeal:
                g.redeal()
            else:
                self._landlord_chosen(outcome)
        elif not self.countering:
            if action == "kick":
                self.kicked = True
                g.events.append(["kick", 2])
            self._next_kicker()
        else:
            if action == "counter-kick":
                g.events.append(["counter-kick", 2])
            self._begin()

    def _landlord_chosen(self, outcome: Outcome) -> None:
        g = self.g
        self.landlord = outcome.landlord
        g.events.append(["forced-bid" if outcome.forced else "bid", outcome.bid])
        if isinstance(self.auction, BidOnce) and outcome.bid == 3:
            n = g.rules.players
            order = [(self.auction.first + i) % n for i in range(n)]
            self.kickers = [s for s in order if s not in self.auction.bidders]
            if self.kickers:
                g.phase, g.to_act = "kick", self.kickers.pop(0)
                return
        self._begin()

    def _next_kicker(self) -> None:
        g = self.g
        if self.kickers:
            g.to_act = self.kickers.pop(0)
        elif self.kicked:
            assert self.landlord is not None  # kicks follow a bid of 3
            self.countering, g.to_act = True, self.landlord
        else:
            self._begin()

    def _begin(self) -> None:
        assert self.landlord is not None
        self.g.give_kitty({self.landlord: self.g.kitty})
        self.g.begin_play(self.landlord)

    def on_play(self, seat: int, move: ddz.Move, cards: list[str]) -> None:
        if move.kind == "king_bomb":
            self.g.events.append(["rocket", 2])
        elif move.kind == "bomb" and move.length >= DOUBLING_BOMB.get(self.g.rules.preset, 4):
            self.g.events.append(["bomb", 2])

    def finish(self, winner: int) -> dict:
        assert self.landlord is not None
        return settle_one_landlord(self.g, self.landlord, winner)

    def observe(self, seat: int) -> dict:
        return {"landlord": self.landlord, "bid": getattr(self.auction, "bid", 0) or None}

    def kitty_seen_by(self, seat: int) -> bool:
        return self.g.kitty_given and (KITTY_SHOWN[self.g.rules.preset] or seat == self.landlord)
