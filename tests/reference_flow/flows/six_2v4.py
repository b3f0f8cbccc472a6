"""Four decks, six players, two marked cards: `six-player-2v4` (新六人) and
`six-player-teams` (正反六人).

Both deal 34 cards each and keep 12 in the kitty. Two dealt cards are
marked: the public mark (its holder is announced at once) and the secret
mark. In `six-player-2v4` one round of bidding from the public-mark holder
picks the big landlord, then the secret-mark holder is announced as second
landlord; both play against four farmers. In `six-player-teams` the two
mark holders are the main and the counter landlord, and the four farmers
pick a side in turn, three against three. Where both marks land in one hand,
that landlord plays alone against five with the whole kitty.

The stake is additive: N starts at 1 and each event adds to it. An event is
``[name, "+k"]`` (the increment as signed text, so it cannot be read as a
factor), and ``result["multiplier"] == 1 + sum(int(k) for _, k in events)``.
"""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np

import ddz

from .. import scoring
from ..auction import BidOnce
from ..deck import Deal, shuffled_deal, sort_key, split_identities, text
from .base import Flow

BOMB_KINDS = ("bomb", "king_bomb")
SIDES = ("main", "counter")
#: Decisions hidden from other seats for a while (show-hand, side picks).
SECRET_ACTIONS = frozenset({"show", "no-show", "side:main", "side:counter"})


# ---- the marked cards ------------------------------------------------------
def parse_mark(key: str, value: object, hands: list[list[str]]) -> tuple[str, int]:
    """``"9h"`` or ``"9h@2"`` -> (card, seat holding the marked copy)."""
    if not isinstance(value, str):
        raise ValueError(f"deal[{key!r}] must be a card such as '9h' or '9h@2', not {value!r}")
    card_text, at, seat_text = value.partition("@")
    ids = split_identities(card_text)
    if len(ids) != 1 or ids[0].endswith("?") or ids[0] == "L":
        raise ValueError(
            f"deal[{key!r}] = {value!r} must name one card with its suit ('9h') or a "
            "joker ('X', 'D'), optionally followed by '@seat'"
        )
    card = ids[0]
    holders = [s for s, h in enumerate(hands) if card in h]
    if at:
        if not seat_text.isdigit() or not 0 <= int(seat_text) < len(hands):
            raise ValueError(f"deal[{key!r}] = {value!r}: the seat after '@' must be 0..5")
        seat = int(seat_text)
        if seat not in holders:
            raise ValueError(f"deal[{key!r}] = {value!r}: seat {seat} holds no {card}")
        return card, seat
    if len(holders) != 1:
        where = f"seats {holders}" if holders else "no hand"
        raise ValueError(
            f"deal[{key!r}] = {value!r}: {card} is in {where}; name the holder as '{card}@seat'"
        )
    return card, holders[0]


def split_kitty(kitty: list[str]) -> tuple[list[str], list[str]]:
    """The two 6-card shares: the sorted kitty dealt in snake order
    (first, second, second, first, first, second, ...), so neither landlord
    is given the lower card of every pair."""
    cards = sorted(kitty, key=sort_key)
    first = [c for i, c in enumerate(cards) if i % 4 in (0, 3)]
    second = [c for i, c in enumerate(cards) if i % 4 in (1, 2)]
    return first, second


# ---- auto-win checks -------------------------------------------------------
@lru_cache(maxsize=16)
def _bomb_tables(rules_json: str) -> tuple[np.ndarray, np.ndarray]:
    """rank_ok[c]: c cards of one rank split into bombs (or c == 0);
    joker_ok[x, d]: x small and d big jokers split into king bombs."""
    rules = ddz.Rules.from_json(rules_json)
    most = 4 * rules.decks
    sizes = [
        k for k in range(1, most + 1) if any(m.kind == "bomb" for m in rules.classify("3" * k))
    ]
    rank_ok = np.zeros(256, dtype=bool)
    rank_ok[0] = True
    for c in range(1, most + 1):
        rank_ok[c] = any(k <= c and rank_ok[c - k] for k in sizes)
    d = rules.decks
    combos = [
        (s, b)
        for s in range(d + 1)
        for b in range(d + 1)
        if s + b and any(m.kind == "king_bomb" for m in rules.classify("X" * s + "D" * b))
    ]
    joker_ok = np.zeros((256, 256), dtype=bool)
    joker_ok[0, 0] = True
    for x in range(d + 1):
        for y in range(d + 1):
            if x + y:
                joker_ok[x, y] = any(
                    s <= x and b <= y and joker_ok[x - s, y - b] for s, b in combos
                )
    return rank_ok, joker_ok


def all_bombs(rules: ddz.Rules, counts: np.ndarray) -> np.ndarray:
    """Row by row: does this count vector split wholly into bombs and king
    bombs? (An empty row counts as yes.)"""
    rank_ok, joker_ok = _bomb_tables(rules.to_json())
    rows = np.atleast_2d(counts)
    ranks = rank_ok[rows[:, :13]].all(axis=1)
    return ranks & joker_ok[rows[:, 13], rows[:, 14]] & (rows[:, 15] == 0)


def auto_win_reason(rules: ddz.Rules, hand: ddz.Cards) -> str | None:
    """Why this landlord's hand wins without play, or None.

    ``no-bomb``: no bomb or king bomb can be formed from it at all;
    ``all-bombs``: it splits wholly into bombs and king bombs;
    ``all-bombs-after-one-play``: some legal lead leaves such a hand (or
    none: the hand is a single play);
    ``bomb-13``: it holds 13 or more cards of one rank."""
    moves = rules.moves(hand)
    bombs = [m for m in moves if m.kind in BOMB_KINDS]
    if not bombs:
        return "no-bomb"
    counts = hand.counts
    if all_bombs(rules, counts)[0]:
        return "all-bombs"
    if len(moves) and all_bombs(rules, counts[None, :] - moves.counts()).any():
        return "all-bombs-after-one-play"
    if any(m.kind == "bomb" and m.length >= 13 for m in bombs):
        return "bomb-13"
    return None


# ---- the flows -------------------------------------------------------------
class MarkedSixFlow(Flow):
    """What the two presets share: marks, kitty shares, show-hand, the
    additive stake, the seven-joker dead card and the auto-win checks."""

    DEAL_KEYS = Flow.DEAL_KEYS | {"marked", "secret"}

    def deal(self, rng: random.Random) -> Deal:
        rules = self.g.rules
        d = shuffled_deal(rules, rng)
        size = rules.hand_size
        marks = []
        for pos in rng.sample(range(rules.players * size), 2):
            seat = pos // size
            marks.append((d.hands[seat][pos % size], seat))
        d.extra = {
            "marked": f"{marks[0][0]}@{marks[0][1]}",
            "secret": f"{marks[1][0]}@{marks[1][1]}",
        }
        d.first = marks[0][1]  # recorded for reading; the marks decide who acts
        return d

    def start(self) -> None:
        g = self.g
        extra = g.deals[-1].extra
        for key in ("marked", "secret"):
            if key not in extra:
                raise ValueError(f"a {g.rules.preset!r} deal needs 'marked' and 'secret' cards")
        self.public_card, self.public_seat = parse_mark("marked", extra["marked"], g.hands)
        self.secret_card, self.secret_seat = parse_mark("secret", extra["secret"], g.hands)
        if (self.public_card, self.public_seat) == (self.secret_card, self.secret_seat):
            if g.hands[self.public_seat].count(self.public_card) < 2:
                raise ValueError(
                    f"deal marks one {self.public_card} of seat {self.public_seat} twice; "
                    "the two marks are two different cards"
                )
        self.landlords: list[int] = []
        self.solo: bool | None = None
        self.shares: dict[int, list[str]] = {}
        self.to_show: list[int] = []
        self.show_choice: dict[int, bool] = {}
        self.show_done = False
        self.dead: dict | None = None
        self.auto_win: dict | None = None
        self.options = g.rules.to_dict()

    # ---- kitty, auto-win, show-hand, play --------------------------------
    def _give_kitty(self) -> None:
        g = self.g
        if self.solo:
            self.shares = {self.landlords[0]: list(g.kitty)}
        else:
            a, b = split_kitty(g.kitty)
            self.shares = {self.landlords[0]: a, self.landlords[1]: b}
        g.give_kitty(self.shares)

    def _check_auto_win(self) -> bool:
        """End the deal if a landlord's hand wins without play (option
        `auto_win`); landlords in order, first reason found."""
        if not self.options["auto_win"]:
            return False
        g = self.g
        for seat in self.landlords:
            reason = auto_win_reason(g.rules, g.counts(seat))
            if reason is not None:
                self.auto_win = {"seat": seat, "reason": reason}
                g.to_act = seat
                result = self._settle(self._side_of(seat), 1, [])
                result["auto_win"] = dict(self.auto_win)
                g.end(result)
                return True
        return False

    def _open_show(self) -> None:
        self.to_show = list(self.landlords)
        self.g.phase, self.g.to_act = "show", self.to_show[0]

    def _apply_show(self, seat: int, action: str) -> None:
        g = self.g
        self.show_choice[seat] = action == "show"
        self.to_show.pop(0)
        if self.to_show:
            g.to_act = self.to_show[0]
            return
        # Both chose: only now do the choices, the event and the hands appear.
        self.show_done = True
        shown = self.shown()
        if shown:
            if self.solo:
                g.events.append(["show-solo", "+9"])
            elif len(shown) == 1:
                g.events.append(["show", "+3"])
            else:
                g.events.append(["show-both", "+6"])
        g.begin_play(self._leader())

    def _leader(self) -> int:
        """The seat that leads the first trick (each variant decides)."""
        raise NotImplementedError

    def shown(self) -> list[int]:
        if not self.show_done:
            return []
        return [s for s in self.landlords if self.show_choice.get(s)]

    def on_play(self, seat: int, move: ddz.Move, cards: list[str]) -> None:
        g = self.g
        jokers = 2 * g.rules.decks
        if not self.solo:
            if move.kind == "bomb" and move.length > 6:
                g.events.append(["bomb", f"+{move.length - 6}"])
            elif move.kind == "king_bomb":
                if move.length == jokers:
                    g.events.append(["eight-jokers", "+6"])
                elif move.length == jokers - 1:
                    g.events.append(["seven-jokers", "+9"])
                elif move.length >= 5:
                    g.events.append(["king-bomb", "+3"])
        if (
            move.kind == "king_bomb"
            and move.length == jokers - 1
            and self.options["seven_star_kills_last_joker"]
        ):
            self._kill_last_joker(seat)

    def _kill_last_joker(self, seat: int) -> None:
        """The eighth joker leaves its holder's hand, face up, for good."""
        g = self.g
        n = g.rules.players
        for s in ((seat + i) % n for i in range(n)):
            joker = next((c for c in g.hands[s] if c in ("X", "D")), None)
            if joker is not None:
                g.hands[s].remove(joker)
                self.dead = {"seat": s, "card": joker}
                return

    # ---- scoring ---------------------------------------------------------
    def _side_of(self, seat: int) -> str:
        raise NotImplementedError

    def sides_done(self) -> bool:
        return True

    def _settle(self, side: str, stake: int, events: list[list]) -> dict:
        raise NotImplementedError

    def finish(self, winner: int) -> dict:
        events = [list(e) for e in self.g.events]
        return self._settle(self._side_of(winner), scoring.stake(events), events)

    # ---- what each seat may see -----------------------------------------
    def hands_seen_by(self, seat: int) -> set[int]:
        return {s for s in self.shown() if s != seat}

    def visible(self, viewer: int, seat: int, action: str) -> bool:
        if action not in SECRET_ACTIONS or viewer == seat or self.g.phase == "over":
            return True  # plays, passes and bids are public
        if action.startswith("side:"):
            # A landlord learns its own farmers once every farmer has a side.
            return (
                self.sides_done()
                and viewer in self.landlords
                and self._side_of(viewer) == action[5:]
            )
        return self.show_done

    def _common_observation(self, seat: int) -> dict:
        over = self.g.phase == "over"
        return {
            "public_mark": {"card": self.public_card, "seat": self.public_seat},
            "secret_mark": ({"card": self.secret_card, "seat": self.secret_seat} if over else None),
            "landlords": list(self.landlords),
            "solo": self.solo,
            "kitty_share": text(self.shares[seat]) if seat in self.shares else None,
            "shown": self.shown(),
            "dead_card": dict(self.dead) if self.dead else None,
            "auto_win": dict(self.auto_win) if self.auto_win else None,
        }


class TwoVsFourFlow(MarkedSixFlow):
    """`six-player-2v4`: a big landlord by bidding, the secret-mark holder as
    second landlord, against four farmers."""

    def start(self) -> None:
        super().start()
        g = self.g
        n = g.rules.players
        self.big: int | None = None
        self.second: int | None = None
        self.auction = BidOnce(n, self.public_seat, [False] * n)
        g.phase, g.to_act = "bid", self.public_seat

    def legal(self, seat: int) -> list[str]:
        if self.g.phase == "bid":
            return self.auction.legal(seat)
        return ["show", "no-show"]

    def apply(self, seat: int, action: str) -> None:
        g = self.g
        if g.phase == "show":
            self._apply_show(seat, action)
            return
        self.auction.apply(seat, action)
        outcome = self.auction.outcome
        if outcome is None:
            g.to_act = (seat + 1) % g.rules.players
            return
        # Nobody bid: the public-mark holder is the big landlord.
        big = self.public_seat if outcome.redeal else outcome.landlord
        assert big is not None  # an auction without a redeal names its landlord
        self.big = big
        self.solo = self.secret_seat == self.big
        self.second = None if self.solo else self.secret_seat
        self.landlords = [big] if self.solo else [big, self.secret_seat]
        self._give_kitty()
        if not self._check_auto_win():
            self._open_show()

    def _leader(self) -> int:
        assert self.big is not None
        return self.big

    def _side_of(self, seat: int) -> str:
        return "landlords" if seat in self.landlords else "farmers"

    def _settle(self, side: str, stake: int, events: list[list]) -> dict:
        n = self.g.rules.players
        sign = 1 if side == "landlords" else -1
        scores = [-sign * stake] * n
        if self.solo:
            scores[self.landlords[0]] = sign * stake * (n - 1)
        else:
            scores[self.landlords[0]] = sign * stake * 3
            scores[self.landlords[1]] = sign * stake * 1
        winners = [s for s in range(n) if (s in self.landlords) == (side == "landlords")]
        return {
            "winners": winners,
            "scores": scores,
            "multiplier": stake,
            "events": events,
            "landlords": list(self.landlords),
        }

    def observe(self, seat: int) -> dict:
        return {
            **self._common_observation(seat),
            "bid": self.auction.bid,
            "big_landlord": self.big,
            "second_landlord": self.second,
        }


class TeamsFlow(MarkedSixFlow):
    """`six-player-teams`: main and counter landlords named by the marks;
    the four farmers pick a side, three against three."""

    def start(self) -> None:
        super().start()
        g = self.g
        n = g.rules.players
        self.main = self.public_seat
        self.counter: int | None = None
        self.solo = self.secret_seat == self.main
        if not self.solo:
            self.counter = self.secret_seat
        self.landlords = [self.main] if self.solo else [self.main, self.secret_seat]
        self.picks: dict[int, str] = {}
        self.order = [
            s for s in ((self.main + i) % n for i in range(1, n)) if s not in self.landlords
        ]
        self._give_kitty()
        if self.solo:
            if not self._check_auto_win():
                self._open_show()
        else:
            g.phase, g.to_act = "choose_side", self.order[0]

    def sides_done(self) -> bool:
        return bool(self.solo) or len(self.picks) == len(self.order)

    def legal(self, seat: int) -> list[str]:
        if self.g.phase == "show":
            return ["show", "no-show"]
        # A side already holding two farmers is full; when one side is full
        # the only choice left is the other (taken as a forced turn, so the
        # order of turns tells no one how the others chose).
        taken = list(self.picks.values())
        return [f"side:{side}" for side in SIDES if taken.count(side) < 2]

    def apply(self, seat: int, action: str) -> None:
        g = self.g
        if g.phase == "show":
            self._apply_show(seat, action)
            return
        self.picks[seat] = action.split(":", 1)[1]
        if not self.sides_done():
            g.to_act = self.order[len(self.picks)]
        elif not self._check_auto_win():
            self._open_show()

    def _leader(self) -> int:
        n = self.g.rules.players
        leader = (self.main - 1) % n
        if leader == self.counter:
            leader = (leader - 1) % n
        return leader

    def _side_of(self, seat: int) -> str:
        if self.solo:
            return "main" if seat == self.main else "counter"
        if seat == self.main:
            return "main"
        if seat == self.counter:
            return "counter"
        return self.picks[seat]

    def teams(self) -> dict[str, list[int]]:
        n = self.g.rules.players
        return {side: [s for s in range(n) if self._side_of(s) == side] for side in SIDES}

    def _settle(self, side: str, stake: int, events: list[list]) -> dict:
        n = self.g.rules.players
        teams = self.teams()
        scores = [0] * n
        for s in range(n):
            sign = 1 if self._side_of(s) == side else -1
            if self.solo:
                weight = n - 1 if s == self.main else 1
            else:
                weight = 2 if s in self.landlords else 1
            scores[s] = sign * stake * weight
        return {
            "winners": teams[side],
            "scores": scores,
            "multiplier": stake,
            "events": events,
            "sides": teams,
        }

    def observe(self, seat: int) -> dict:
        over = self.g.phase == "over"
        n = self.g.rules.players
        if self.solo:
            side = None
            team = [self.main] if seat == self.main else [s for s in range(n) if s != self.main]
        elif seat in self.landlords:
            side = self._side_of(seat)
            if self.sides_done():
                team = sorted(s for s in range(n) if self._side_of(s) == side)
            else:
                team = [seat]
        elif seat in self.picks:
            side = self.picks[seat]
            leader = self.main if side == "main" else self.counter
            assert leader is not None  # a side is picked only when both sides exist
            team = sorted([seat, leader])
        else:
            side, team = None, None
        return {
            **self._common_observation(seat),
            "main_landlord": self.main,
            "counter_landlord": self.counter,
            "side": side,
            "team": team,
            "sides": self.teams() if over else None,
        }
