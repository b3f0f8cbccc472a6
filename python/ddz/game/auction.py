"""Choosing landlords: the bidding procedures the Python flows use.

Each procedure is a small state machine: ``legal(seat)`` lists the actions,
``apply(seat, action)`` records one, and ``outcome`` says how it ended —
still going, a landlord and bid, or a redeal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PASS = "pass"


@dataclass
class Outcome:
    landlord: int | None = None
    bid: int = 0
    redeal: bool = False
    forced: bool = False  # laizi: nobody bid, a strong hand had to take it


@dataclass
class Bidding:
    """Bids 1/2/3 or pass, each above the standing bid, round and round. Ends
    at a 3, or when every other seat has passed since the last bid; all pass
    means a redeal (classic, four-player)."""

    players: int
    high: int | None = None
    bid: int = 0
    passes: int = 0
    outcome: Outcome | None = None

    def legal(self, seat: int) -> list[str]:
        return [PASS] + [f"bid:{k}" for k in range(self.bid + 1, 4)]

    def apply(self, seat: int, action: str) -> None:
        if action == PASS:
            self.passes += 1
        else:
            self.bid, self.high, self.passes = int(action[4:]), seat, 0
        if self.bid == 3 or (self.high is not None and self.passes == self.players - 1):
            self.outcome = Outcome(self.high, self.bid)
        elif self.high is None and self.passes == self.players:
            self.outcome = Outcome(redeal=True)


@dataclass
class BidOnce:
    """Each seat bids once, in order (laizi). A 3 ends it at once. If all pass,
    the first seat in bidding order holding D+2 or X+D must take it at 1;
    otherwise redeal."""

    players: int
    first: int
    strong: list[bool]  # per seat: holds D and a 2, or X and D
    high: int | None = None
    bid: int = 0
    turns: int = 0
    bidders: set[int] = field(default_factory=set)
    outcome: Outcome | None = None

    def legal(self, seat: int) -> list[str]:
        return [PASS] + [f"bid:{k}" for k in range(self.bid + 1, 4)]

    def apply(self, seat: int, action: str) -> None:
        self.turns += 1
        self.bidders.add(seat)
        if action != PASS:
            self.bid, self.high = int(action[4:]), seat
        if self.bid == 3 or self.turns == self.players:
            if self.high is not None:
                self.outcome = Outcome(self.high, self.bid)
                return
            order = [(self.first + i) % self.players for i in range(self.players)]
            forced = next((s for s in order if self.strong[s]), None)
            self.outcome = (
                Outcome(forced, 1, forced=True) if forced is not None else Outcome(redeal=True)
            )


@dataclass
class BarredBidding(Bidding):
    """`Bidding` where the `barred` seats may only pass (six-player-3v3:
    they hold a copy of the marked card). They still take their turn, so
    the order of turns gives nothing away. If every seat passes, the first
    seat in bidding order (from `first`) that is not barred takes it at 1."""

    first: int = 0
    barred: frozenset[int] = frozenset()

    def legal(self, seat: int) -> list[str]:
        return [PASS] if seat in self.barred else super().legal(seat)

    def apply(self, seat: int, action: str) -> None:
        super().apply(seat, action)
        if self.outcome is not None and self.outcome.redeal:
            order = [(self.first + i) % self.players for i in range(self.players)]
            taker = next(s for s in order if s not in self.barred)
            self.outcome = Outcome(taker, 1, forced=True)
