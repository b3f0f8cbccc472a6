"""Three against three with hidden landlords: `six-player-3v3` (seed 000,
no kitty) and `six-player-3v3-kitty` (seed 002, a 12-card kitty).

A non-joker card is marked at the deal; its receiver is an open landlord.
With three decks the marked card has two more copies: held by two other
players, they make those players hidden landlords. When two copies share a
hand, a bidding (copy holders pass by force) picks more open landlords.
Then everyone may double once (N += 1) and the marked card's receiver leads.
The stake is W = S x N for each player: winners +W, losers -W.

Events: an int effect multiplies the stake (the base S); a text effect
``"+k"`` adds k to N, which starts at 1. So multiplier = product of the int
effects x (1 + sum of the ``"+k"``).
"""

from __future__ import annotations

import random

import ddz

from ..auction import PASS, BarredBidding
from ..deck import RANKS, SUITS, Deal, shuffled_deal, split_identities, text
from ..scoring import stake
from .base import Flow

KITTY_PRESET = "six-player-3v3-kitty"
#: What a king bomb adds to N, by its number of jokers.
KING_BOMB_STEP = {3: 1, 4: 1, 5: 3, 6: 5}
#: Smallest rank bomb that adds 1 to N.
BIG_BOMB = 6
#: The base when all three copies land with the marked card's receiver (seed 000).
AUTO_WIN_BASE = 2


class ThreeVThreeFlow(Flow):
    #: ``marked``: the marked card (``"9h"``); ``first``: its receiver.
    DEAL_KEYS = Flow.DEAL_KEYS | {"marked"}

    # ---- the deal ------------------------------------------------------
    def deal(self, rng: random.Random) -> Deal:
        """Shuffle, then mark one dealt non-joker card. With a kitty, only
        cards with no copy in the kitty may be marked, so all three copies
        are in players' hands. `first` records the receiver."""
        d = shuffled_deal(self.g.rules, rng, sort_kitty=False)  # shared from the top
        in_kitty = set(d.kitty)
        choices = [
            (seat, card)
            for seat, hand in enumerate(d.hands)
            for card in hand
            if card not in ("X", "D") and card not in in_kitty
        ]
        d.first, marked = rng.choice(choices)
        d.extra = {"marked": marked}
        return d

    def _marked_card(self) -> str:
        """The marked card of this deal, checked (a given deal may omit it:
        then a card of the `first` seat's hand is drawn)."""
        g = self.g
        deal = g.deals[-1]
        holder = deal.first
        allowed = [c for c in g.hands[holder] if c not in ("X", "D") and c not in g.kitty]
        if "marked" not in deal.extra:
            if not allowed:
                raise ValueError(f"seat {holder} holds no card that may be marked")
            deal.extra["marked"] = random.Random(g.seed).choice(allowed)
        raw = deal.extra["marked"]
        ids = split_identities(raw) if isinstance(raw, str) else []
        if len(ids) != 1 or ids[0][0] not in RANKS or ids[0][1:] not in tuple(SUITS):
            raise ValueError(
                f"deal['marked'] must be one suited non-joker card like '9h', not {raw!r}"
            )
        marked = ids[0]
        deal.extra["marked"] = marked
        if marked in g.kitty:
            raise ValueError(f"deal['marked'] {marked}: a copy lies in the kitty")
        if marked not in g.hands[holder]:
            raise ValueError(
                f"deal['first'] must be the marked card's receiver: seat {holder} holds no {marked}"
            )
        return marked

    # ---- roles ---------------------------------------------------------
    def start(self) -> None:
        g = self.g
        n = g.rules.players
        self.marked = self._marked_card()
        self.holder = g.deals[-1].first
        self.open: list[int] = [self.holder]  # open landlords, in the order named
        self.hidden: list[int] = []
        self.revealed: list[int] = []
        self.bids: list[int] = []  # the winning bid of each round
        self.rounds = 0
        self.auction: BarredBidding | None = None
        self.base: int | None = None
        self.shares: dict[int, list[str]] = {}
        self.doubles_left = 0
        copies = [s for s in range(n) for c in g.hands[s] if c == self.marked]
        copies.remove(self.holder)  # the marked card itself
        if len(copies) != 2:
            raise ValueError(f"this flow needs all three copies of {self.marked} in the hands")
        a, b = copies
        kitty = g.rules.preset == KITTY_PRESET
        if a != b and self.holder not in (a, b):
            self.hidden = [a, b]  # two hidden landlords, no bidding
            self._roles_settled()
        elif a == b == self.holder:
            if not kitty:  # seed 000: the deal ends, the landlord wins at once
                g.to_act = self.holder
                g.events.append(["auto-win", AUTO_WIN_BASE])
                g.end(self._settle([self.holder], winners_are_landlords=True, alone=True))
                return
            self.rounds = 2  # seed 002: two rounds pick two more open landlords
            self._bidding(self.holder, {self.holder})
        elif self.holder in (a, b):  # case (1): a second copy with the receiver
            third = b if a == self.holder else a
            self.hidden = [third]
            self.rounds = 1
            self._bidding(self.holder, {self.holder, third})
        else:  # case (2): another player holds both other copies
            self.rounds = 1
            if kitty:
                self.hidden = [a]
                self._bidding(self.holder, {self.holder, a})
            else:
                self.open.append(a)
                self._bidding(a, {self.holder, a})

    def _bidding(self, after: int, barred: set[int]) -> None:
        first = (after + 1) % self.g.rules.players
        self.auction = BarredBidding(self.g.rules.players, first=first, barred=frozenset(barred))
        self.g.phase, self.g.to_act = "bid", first

    def _roles_settled(self) -> None:
        g = self.g
        self.auction = None
        self.base = 3 if len(self.hidden) == 2 else max(self.bids)
        g.events.append(["base" if len(self.hidden) == 2 else "bid", self.base])
        if g.kitty:
            self._share_kitty()
        self.doubles_left = g.rules.players
        g.phase, g.to_act = "double", self.holder

    def _share_kitty(self) -> None:
        """The open landlords share the kitty equally (12, 6+6 or 4+4+4),
        taking it from the top in the order they were named. The kitty lies
        as dealt (the order the record lists it), which is random, so a
        share says nothing about the others."""
        g = self.g
        size = len(g.kitty) // len(self.open)
        self.shares = {s: g.kitty[i * size : (i + 1) * size] for i, s in enumerate(self.open)}
        g.give_kitty(self.shares)

    def landlords(self) -> list[int]:
        return sorted(self.open + self.hidden)

    # ---- decisions before play -----------------------------------------
    def legal(self, seat: int) -> list[str]:
        if self.g.phase == "bid":
            assert self.auction is not None
            return self.auction.legal(seat)
        return ["double", "no-double"]

    def apply(self, seat: int, action: str) -> None:
        g = self.g
        n = g.rules.players
        if g.phase == "double":
            if action == "double":
                g.events.append(["double", "+1"])
            self.doubles_left -= 1
            if self.doubles_left:
                g.to_act = (seat + 1) % n
            else:
                g.begin_play(self.holder)
            return
        assert self.auction is not None
        self.auction.apply(seat, action)
        outcome = self.auction.outcome
        if outcome is None:
            g.to_act = (seat + 1) % n
            return
        assert outcome.landlord is not None
        self.open.append(outcome.landlord)
        self.bids.append(outcome.bid)
        if len(self.bids) < self.rounds:
            self._bidding(outcome.landlord, set(self.open))
        else:
            self._roles_settled()

    # ---- play and score ------------------------------------------------
    def on_play(self, seat: int, move: ddz.Move, cards: list[str]) -> None:
        g = self.g
        if seat in self.hidden and seat not in self.revealed and self.marked in cards:
            self.revealed.append(seat)
        size = len(move.cards)
        if move.kind == "king_bomb":
            g.events.append(["king-bomb", f"+{KING_BOMB_STEP[size]}"])
        elif move.kind == "bomb" and size >= BIG_BOMB:
            g.events.append(["bomb", "+1"])

    def finish(self, winner: int) -> dict:
        landlords = self.landlords()
        return self._settle(landlords, winners_are_landlords=winner in landlords)

    def _settle(
        self, landlords: list[int], winners_are_landlords: bool, alone: bool = False
    ) -> dict:
        """Each winner +W, each loser -W; `alone` (the auto-win): the
        lone landlord collects W from each of the five."""
        n = self.g.rules.players
        events = [list(e) for e in self.g.events]
        w = stake(events)
        side = landlords if winners_are_landlords else [s for s in range(n) if s not in landlords]
        if alone:
            scores = [w * (n - 1) if s in side else -w for s in range(n)]
        else:
            scores = [w if s in side else -w for s in range(n)]
        return {
            "winners": sorted(side),
            "scores": scores,
            "multiplier": w,
            "events": events,
            "landlords": sorted(landlords),
        }

    # ---- what each seat may see ----------------------------------------
    def observe(self, seat: int) -> dict:
        g = self.g
        over = g.phase == "over"
        known = set(self.open) | set(self.revealed)
        if over:
            known |= set(self.hidden)  # the deal is over: nothing is secret
        elif seat in self.hidden:
            known.add(seat)  # a hidden landlord knows their own role
        role: str | None
        if seat in self.open:
            role = "open-landlord"
        elif seat in self.hidden:
            role = "hidden-landlord"
        else:
            role = None if g.phase == "bid" else "farmer"
        bid = self.auction.bid if self.auction is not None else self.base
        return {
            "marked": self.marked,
            "marked_holder": self.holder,
            "role": role,
            "open_landlords": list(self.open),
            "hidden_count": len(self.hidden),
            "revealed": list(self.revealed),
            "landlords": sorted(known),
            "bid": bid or None,
            "base": self.base,
            "kitty_share": text(self.shares[seat]) if seat in self.shares else None,
        }

    def kitty_seen_by(self, seat: int) -> bool:
        return self.g.kitty_given and self.shares.get(seat) is not None and len(self.shares) == 1


__all__ = ["PASS", "ThreeVThreeFlow", "stake"]
