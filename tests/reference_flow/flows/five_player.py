"""Five players with a marked card: `five-player` (open and hidden landlord)
and `five-player-3deck` (新五人: grab, then solo or call a friend).

Both presets mark one random non-joker card of the deal. Its identity
(``9h``) is ``Deal.extra["marked"]`` and its holder is ``Deal.first``, the
seat that acts first. Roles are worked out once, at the start of the deal,
and kept in the flow: an observation never looks at another seat's cards to
describe them, so moving hidden cards around cannot change what a seat sees.
"""

from __future__ import annotations

import random
from collections import Counter

import ddz

from ..deck import Deal, shuffled_deal, sort_key, split_identities
from ..scoring import spring_events, stake
from .base import Flow

JOKERS = "XDL"
#: Points of one ordinary player before the base (five-player-3deck's
#: 基础分 "by level"; the seed's own example uses 1). See the flow page.
LEVEL_POINTS = 1


def marked_deal(rules: ddz.Rules, rng: random.Random) -> Deal:
    """A shuffled deal with one random dealt non-joker card marked; its
    holder acts first."""
    deal = shuffled_deal(rules, rng)
    dealt = [(s, c) for s, hand in enumerate(deal.hands) for c in hand if c[0] not in JOKERS]
    deal.first, card = dealt[rng.randrange(len(dealt))]
    deal.extra = {"marked": card}
    return deal


def marked_card(game) -> str:
    """The marked identity of the current deal, checked: a suited non-joker
    card that seat `first` holds."""
    deal = game.deals[-1]
    given = deal.extra.get("marked")
    if not isinstance(given, str):
        raise ValueError(f"{game.rules.preset!r} needs deal['marked'], a card such as '9h'")
    ids = split_identities(given)
    if len(ids) != 1 or ids[0][0] in JOKERS or ids[0].endswith("?"):
        raise ValueError(f"deal['marked'] must be one suited non-joker card, not {given!r}")
    card = ids[0]
    if card not in deal.hands[deal.first]:
        raise ValueError(
            f"deal['first'] (seat {deal.first}) must hold the marked card {card}: "
            "its holder acts first"
        )
    return card


def _next(game, seat: int) -> int:
    return (seat + 1) % game.rules.players


# ---------------------------------------------------------------------------
# five-player: open landlord, hidden landlord
# ---------------------------------------------------------------------------


class MarkedCardFlow(Flow):
    """A flow whose deal marks one dealt card (`marked`, held by `first`)."""

    DEAL_KEYS = Flow.DEAL_KEYS | {"marked"}

    def deal(self, rng: random.Random) -> Deal:
        return marked_deal(self.g.rules, rng)


class FivePlayerFlow(MarkedCardFlow):
    """The marked card's holder is the open landlord and takes the kitty
    unseen; the holder of the other copy is the hidden landlord (none if the
    open landlord holds both: 1 v 4). Every seat in turn then answers
    'keep' or 'reveal' (only the landlords may reveal; farmers 'keep' by
    force so the turns give nothing away), then 'no-double' or 'double'."""

    def start(self) -> None:
        g = self.g
        self.marked = marked_card(g)
        self.open = self.landlord = g.deals[-1].first
        g.give_kitty({self.open: g.kitty})
        holders = [
            s for s in range(g.rules.players) if s != self.open and self.marked in g.hands[s]
        ]
        #: The hidden landlord, or None when the open landlord plays 1 v 4.
        self.hidden: int | None = holders[0] if holders else None
        #: The team is public: someone revealed, or the copy was played.
        self.revealed = False
        self.turns = 0
        g.phase, g.to_act = "reveal", self.open

    @property
    def landlords(self) -> list[int]:
        return [self.open] if self.hidden is None else [self.open, self.hidden]

    def legal(self, seat: int) -> list[str]:
        if self.g.phase == "reveal":
            return ["keep", "reveal"] if seat in self.landlords else ["keep"]
        return ["no-double", "double"]

    def apply(self, seat: int, action: str) -> None:
        g = self.g
        self.turns += 1
        if g.phase == "reveal":
            if action == "reveal":
                self.revealed = True
                g.events.append(["reveal", 2])
            if self.revealed or self.turns == g.rules.players:
                self.turns = 0
                g.phase, g.to_act = "double", self.open
            else:
                g.to_act = _next(g, seat)
            return
        if action == "double":
            step = g.rules.to_dict()["double_step"]
            g.events.append(["double", 2 if step == "x2" else "+1"])
        if self.turns == g.rules.players:
            g.begin_play(self.open)
        else:
            g.to_act = _next(g, seat)

    def on_play(self, seat: int, move: ddz.Move, cards: list[str]) -> None:
        g = self.g
        if move.kind == "bomb" and move.length >= 5:
            g.events.append([f"bomb-{move.length}", 2])
        elif move.kind == "king_bomb" and move.length >= 3:
            g.events.append(["sky-king" if move.length == 4 else "three-jokers", 2])
        if self.revealed or self.marked not in cards:
            return
        if seat == self.hidden:
            self.revealed = True
        elif self.hidden is None and seat == self.open and self.marked not in g.hands[seat]:
            self.revealed = True  # both copies played by the open landlord: 1 v 4

    def finish(self, winner: int) -> dict:
        g = self.g
        n = g.rules.players
        won = winner in self.landlords
        events = g.events + spring_events(g, self.landlords, won)
        w = stake(events)
        sign = 1 if won else -1
        scores = [-sign * w] * n
        if self.hidden is None:
            scores[self.open] = sign * w * (n - 1)
        else:
            scores[self.open] = sign * w * 2
            scores[self.hidden] = sign * w
        winners = self.landlords if won else [s for s in range(n) if s not in self.landlords]
        return {"winners": sorted(winners), "scores": scores, "multiplier": w, "events": events}

    def _knows_team(self, seat: int) -> bool:
        return self.revealed or seat in self.landlords

    def observe(self, seat: int) -> dict:
        knows = self._knows_team(seat)
        if seat == self.open:
            role = "open-landlord"
        else:
            role = "hidden-landlord" if seat == self.hidden else "farmer"
        return {
            "marked": self.marked,
            "landlord": self.open,
            "open_landlord": self.open,
            "hidden_landlord": self.hidden if knows else None,
            "solo": (self.hidden is None) if knows else None,
            "revealed": self.revealed,
            "role": role,
        }

    def hands_seen_by(self, seat: int) -> set[int]:
        if self.revealed or self.hidden is None:
            return set()
        if seat == self.open:
            return {self.hidden}
        return {self.open} if seat == self.hidden else set()

    def kitty_seen_by(self, seat: int) -> bool:
        return self.g.kitty_given and seat == self.open


# ---------------------------------------------------------------------------
# five-player-3deck (新五人): grab, solo or call a friend
# ---------------------------------------------------------------------------


def grab_units(hand: list[str], rank: str) -> list[tuple[tuple[int, int], str]]:
    """The grabs a hand may make, in the order it makes them: identities
    from strongest (``D``, ``X``, then the marked rank ♠ ♥ ♣ ♦), each as a
    pair and, with a third copy, again as a trio. Each unit is
    (strength, combination text); strength compares trios above pairs."""
    order = ["D", "X"] + [rank + s for s in "shcd"]
    held = Counter(hand)
    units = []
    for i, card in enumerate(order):
        for size in (2, 3):
            if held[card] >= size:
                units.append(((size, -i), card * size))
    return units


class FivePlayer3DeckFlow(MarkedCardFlow):
    """Grab (one round from the marked card's holder: on its turn a seat
    'grab's as many times as it has grabs left, then 'pass'es), the kitty
    to the main landlord, the auto-win checks, then the main landlord's
    'call-friend' / 'hidden-solo' / 'open-solo'."""

    def start(self) -> None:
        g = self.g
        self.marked = marked_card(g)
        self.holder = g.deals[-1].first
        self.units = [grab_units(h, self.marked[0]) for h in g.hands]
        self.grabs: list[list] = []  # [seat, combination], public
        self.best: tuple[tuple[int, int], int] | None = None
        self.base = 0
        self.passes = 0
        self.landlord: int | None = None  # the main landlord
        self.choice: str | None = None  # 'open-solo' | 'hidden-solo' | 'call-friend'
        self.called: str | None = None  # the card announced to all
        self.deputy: int | None = None
        self.revealed = False  # the deputy (or the hidden solo) is public
        self.auto_win: str | None = None
        g.phase, g.to_act = "grab", self.holder

    # ---- grab ----------------------------------------------------------
    def legal(self, seat: int) -> list[str]:
        if self.g.phase == "grab":
            return ["pass", "grab"] if self.units[seat] else ["pass"]
        assert self.landlord is not None
        held = Counter(self.g.hands[self.landlord])
        options = []
        if any(c == 2 for c in held.values()):
            options.append("call-friend")
        if any(c == 3 for c in held.values()):
            options.append("hidden-solo")
        return [*options, "open-solo"]

    def apply(self, seat: int, action: str) -> None:
        g = self.g
        if g.phase == "grab":
            if action == "grab":
                strength, combo = self.units[seat].pop(0)
                self.grabs.append([seat, combo])
                self.base += 1
                if self.best is None or strength > self.best[0]:
                    self.best = (strength, seat)
                return  # the same seat may grab again
            self.passes += 1
            if self.passes == g.rules.players:
                self._grab_over()
            else:
                g.to_act = _next(g, seat)
            return
        self._call(action)

    def _power(self) -> bool:
        return self.g.rules.to_dict()["score_scheme"] == "power"

    def _grab_over(self) -> None:
        g = self.g
        if self.best is None:
            self.landlord, self.base = self.holder, 1
        else:
            self.landlord = self.best[1]
        g.events.append(["base", 2**self.base if self._power() else self.base])
        g.events.append(["level", LEVEL_POINTS])
        g.give_kitty({self.landlord: g.kitty})
        if self.g.rules.to_dict()["auto_win"]:
            self.auto_win = self._auto_win()
        if self.auto_win is not None:
            g.end(self._settle([self.landlord], True, list(g.events)))
            assert g.result is not None
            g.result["auto_win"] = self.auto_win
            return
        g.phase, g.to_act = "call", self.landlord

    def _auto_win(self) -> str | None:
        """Why the main landlord wins outright with the kitty, if they do."""
        assert self.landlord is not None
        hand = self.g.hands[self.landlord]
        if not any(c == 2 for c in Counter(hand).values()):
            return "no-pair"
        ranks = Counter(c[0] for c in hand)
        if any(k >= 10 for r, k in ranks.items() if r not in JOKERS):
            return "big-bomb"
        kings = self.g.rules.to_dict()["king_bombs"]
        bomb = any(k >= 4 for r, k in ranks.items() if r not in JOKERS) or any(
            ranks["X"] >= kb["small"] and ranks["D"] >= kb["big"] for kb in kings
        )
        return None if bomb else "no-bomb"

    # ---- call ----------------------------------------------------------
    def _call(self, action: str) -> None:
        g = self.g
        assert self.landlord is not None
        self.choice = action
        held = Counter(g.hands[self.landlord])
        if action == "open-solo":
            g.events.append(["open-solo", 2**self.base if self._power() else 2])
        else:
            size = 3 if action == "hidden-solo" else 2
            self.called = min((c for c, k in held.items() if k == size), key=sort_key)
            if action == "call-friend":
                self.deputy = next(
                    s
                    for s in range(g.rules.players)
                    if s != self.landlord and self.called in g.hands[s]
                )
        g.begin_play(self.landlord)

    def on_play(self, seat: int, move: ddz.Move, cards: list[str]) -> None:
        if self.revealed or self.called is None or self.called not in cards:
            return
        if seat == self.deputy or (seat == self.landlord and self.choice == "hidden-solo"):
            self.revealed = True

    # ---- score ---------------------------------------------------------
    @property
    def side(self) -> list[int]:
        assert self.landlord is not None
        return [self.landlord] if self.deputy is None else [self.landlord, self.deputy]

    def finish(self, winner: int) -> dict:
        won = winner in self.side
        return self._settle(self.side, won, self.g.events + spring_events(self.g, self.side, won))

    def _settle(self, side: list[int], won: bool, events: list[list]) -> dict:
        """One ordinary player's points P = the product of the events; the
        deputy settles P, the main landlord 2P, a solo landlord 4P."""
        n = self.g.rules.players
        assert self.landlord is not None
        p = stake(events)
        sign = 1 if won else -1
        scores = [-sign * p] * n
        if self.deputy is None:
            scores[self.landlord] = sign * p * (n - 1)
        else:
            scores[self.landlord] = sign * p * 2
            scores[self.deputy] = sign * p
        winners = side if won else [s for s in range(n) if s not in side]
        return {"winners": sorted(winners), "scores": scores, "multiplier": p, "events": events}

    # ---- what each seat may see ----------------------------------------
    def observe(self, seat: int) -> dict:
        knows_team = self.choice is not None and (
            self.choice == "open-solo" or self.revealed or seat in (self.landlord, self.deputy)
        )
        if seat == self.landlord:
            role = "main-landlord"
        else:
            role = "deputy" if seat == self.deputy else "farmer"
        return {
            "marked": self.marked,
            "marked_holder": self.holder,
            "grabs": [list(x) for x in self.grabs],
            "base": self.base,
            "landlord": self.landlord,
            "main_landlord": self.landlord,
            "open_solo": self.choice == "open-solo" if self.choice is not None else None,
            "called": self.called,
            "deputy": self.deputy if (self.revealed or seat == self.deputy) else None,
            "solo": (self.deputy is None) if knows_team else None,
            "revealed": self.revealed,
            "role": role,
        }

    def kitty_seen_by(self, seat: int) -> bool:
        return self.g.kitty_given and seat == self.landlord

    def visible(self, viewer: int, seat: int, action: str) -> bool:
        # A hidden solo and a friend call look alike: both announce a card.
        return viewer == seat or action not in ("hidden-solo", "call-friend")
