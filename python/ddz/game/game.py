"""`Game`: one deal from the deal to the score, for the one-landlord presets.

The state is rebuilt from the deal and the list of actions, so a record
(`to_json`) replays exactly, and an illegal action is refused before
anything changes.
"""

from __future__ import annotations

import json
import random
from typing import Any, Union

import ddz

from .auction import PASS, Bidding, BidOnce, Calling, Outcome
from .deck import Deal, given_deal, shuffled_deal, sort_key, text
from .scoring import doubling_event, settle
from .tricks import Tricks

Action = Union[str, ddz.Move]
FORMAT = "ddz-game/1"

#: Flow of each preset this module plays: how the landlord is chosen and
#: whether the kitty is shown to everyone.
FLOWS: dict[str, dict[str, Any]] = {
    "classic": {"auction": "bid", "kitty_shown": True},
    "two-player": {"auction": "call", "kitty_shown": False},
    "four-player": {"auction": "bid", "kitty_shown": False},
    "laizi": {"auction": "bid-once", "kitty_shown": True},
}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the game is left unchanged."""


def _strong(hand: list[str]) -> bool:
    """Laizi: D with a 2, or both jokers, forces a bid when all pass."""
    ranks = {c[0] for c in hand}
    return "D" in ranks and ("2" in ranks or "X" in ranks)


class Game:
    def __init__(
        self,
        preset_or_rules: str | ddz.Rules = "classic",
        seed: int | None = None,
        deal: dict | None = None,
        *,
        _deals: list[dict] | None = None,
    ) -> None:
        rules = (
            preset_or_rules
            if isinstance(preset_or_rules, ddz.Rules)
            else ddz.Rules(preset_or_rules)
        )
        if rules.preset not in FLOWS:
            raise NotImplementedError(
                f"the game flow of {rules.preset!r} is not built yet; "
                f"playable now: {', '.join(FLOWS)}"
            )
        self.rules = rules
        self._flow = FLOWS[rules.preset]
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self._replay_deals = [given_deal(rules, d, _DEAL_KEYS) for d in (_deals or [])]
        first = given_deal(rules, deal, _DEAL_KEYS) if deal is not None else None
        self.deals: list[Deal] = []
        self.actions: list[tuple[int, Action]] = []
        self._start(first)

    # ---- dealing -------------------------------------------------------
    def _next_deal(self, given: Deal | None = None) -> Deal:
        if given is not None:
            return given
        if self._replay_deals:
            return self._replay_deals.pop(0)
        return shuffled_deal(self.rules, self._rng)

    def _start(self, given: Deal | None = None) -> None:
        d = self._next_deal(given)
        self.deals.append(d)
        n = self.rules.players
        self.hands = [list(h) for h in d.hands]
        self.kitty = list(d.kitty)
        self.phase = "bid"
        self.to_act = d.first
        self.landlord: int | None = None
        self.bid = 0
        self.kitty_taken = False
        self.events: list[list] = []
        self.tricks = Tricks(n)
        self.history: list[tuple[int, str]] = []
        self.result: dict | None = None
        self._kickers: list[int] = []
        self._kicked = False
        kind = self._flow["auction"]
        if kind == "bid":
            self._auction: Any = Bidding(n)
        elif kind == "call":
            self._auction = Calling(n)
        else:
            self._auction = BidOnce(n, d.first, [_strong(h) for h in self.hands])

    # ---- what may be done ----------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The actions open to `to_act` now (plays are Moves, pass is PASS)."""
        seat = self.to_act
        if self.phase == "bid":
            return list(self._auction.legal(seat))
        if self.phase == "kick":
            return ["kick", "no-kick"]
        if self.phase == "counter-kick":
            return ["counter-kick", "no-counter-kick"]
        if self.phase == "play":
            hand = self._counts(seat)
            if self.tricks.leading():
                return list(self.rules.hint(hand))
            return [*self.rules.hint(hand, self.tricks.last), PASS]
        return []

    def _counts(self, seat: int) -> ddz.Cards:
        return self.rules.cards(text(self.hands[seat]))

    def _resolve(self, action: Action) -> Action:
        """The legal action meant by `action`, or IllegalAction saying why."""
        legal = self.legal_actions()
        if self.phase == "over":
            raise IllegalAction("the deal is over")
        if self.phase != "play" or action == PASS:
            if action in legal:
                return action
            raise IllegalAction(
                f"{action!r} is not allowed for seat {self.to_act} in phase {self.phase!r}; "
                f"allowed: {', '.join(map(str, legal))}"
            )
        if isinstance(action, ddz.Move):
            readings = [action]
        elif isinstance(action, str):
            try:
                readings = self.rules.classify(action)
            except ValueError as e:
                raise IllegalAction(f"bad play {action!r}: {e}") from None
        else:
            raise IllegalAction(f"a play is a Move, its text or {PASS!r}, not {action!r}")
        if not readings:
            raise IllegalAction(f"{action} is not a legal kind of play")
        matches = [m for m in readings if m in legal]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise IllegalAction(
                f"{action} has several legal readings "
                f"({', '.join(m.kind for m in matches)}); pass the Move you mean"
            )
        if not self._counts(self.to_act).contains(readings[0].cards):
            raise IllegalAction(f"seat {self.to_act} does not hold {readings[0].cards}")
        if self.tricks.leading():
            raise IllegalAction(f"{action} is not a legal lead")
        raise IllegalAction(f"{action} does not beat {self.tricks.last}")

    # ---- doing it ------------------------------------------------------
    def step(self, action: Action) -> None:
        """Take `action` for `to_act`; IllegalAction leaves the game unchanged."""
        action = self._resolve(action)
        seat = self.to_act
        self.actions.append((seat, action))
        self.history.append((seat, str(action)))
        n = self.rules.players
        if self.phase == "bid":
            self._auction.apply(seat, action)
            outcome = self._auction.outcome
            if outcome is None:
                self.to_act = (seat + 1) % n
            elif outcome.redeal:
                self._start()
            else:
                self._after_auction(outcome)
        elif self.phase == "kick":
            if action == "kick":
                self._kicked = True
                self.events.append(["kick", 2])
            self._next_kicker()
        elif self.phase == "counter-kick":
            if action == "counter-kick":
                self.events.append(["counter-kick", 2])
            self._begin_play()
        else:
            self._play(seat, action)

    def _after_auction(self, outcome: Outcome) -> None:
        self.landlord, self.bid = outcome.landlord, outcome.bid
        self.events.append(["forced-bid" if outcome.forced else "bid", outcome.bid])
        if isinstance(self._auction, BidOnce) and outcome.bid == 3:
            n = self.rules.players
            order = [(self._auction.first + i) % n for i in range(n)]
            self._kickers = [s for s in order if s not in self._auction.bidders]
            if self._kickers:
                self.phase = "kick"
                self.to_act = self._kickers.pop(0)
                return
        self._begin_play()

    def _next_kicker(self) -> None:
        if self._kickers:
            self.to_act = self._kickers.pop(0)
        elif self._kicked:
            self.phase, self.to_act = "counter-kick", self.landlord
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        assert self.landlord is not None
        self.hands[self.landlord] = sorted(self.hands[self.landlord] + self.kitty, key=sort_key)
        self.kitty_taken = True
        self.phase, self.to_act = "play", self.landlord

    def _play(self, seat: int, action: Action) -> None:
        n = self.rules.players
        if action == PASS:
            self.tricks.pass_()
            self.to_act = (seat + 1) % n
            return
        assert isinstance(action, ddz.Move)
        self._remove(seat, action.cards)
        self.tricks.play(seat, action)
        event = doubling_event(self.rules, action)
        if event:
            self.events.append(event)
        if not self.hands[seat]:
            assert self.landlord is not None
            self.phase = "over"
            self.result = settle(self.rules, self.landlord, seat, self.events, self.tricks)
            return
        self.to_act = (seat + 1) % n

    def _remove(self, seat: int, cards: ddz.Cards) -> None:
        """Take the played cards out of the hand, lowest suits first."""
        hand = self.hands[seat]
        for symbol in str(cards):
            hand.remove(next(c for c in hand if c[0] == symbol))

    # ---- what a seat may see -------------------------------------------
    def observation(self, seat: int) -> dict:
        """Everything `seat` may know, and nothing more."""
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0..{self.rules.players - 1}, not {seat}")
        kitty_public = self.kitty_taken and self._flow["kitty_shown"]
        obs = {
            "seat": seat,
            "preset": self.rules.preset,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": text(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "landlord": self.landlord,
            "bid": self.bid,
            "kitty": text(self.kitty)
            if kitty_public or (self.kitty_taken and seat == self.landlord)
            else None,
            "history": [[s, a] for s, a in self.history],
            "to_beat": None if self.tricks.last is None else str(self.tricks.last),
            "events": [list(e) for e in self.events],
            "result": self.result,
        }
        if seat == self.to_act and self.phase != "over":
            obs["legal_actions"] = [str(a) for a in self.legal_actions()]
        return obs

    # ---- records -------------------------------------------------------
    def to_json(self) -> str:
        actions = [
            [
                s,
                {"play": str(a.cards), "kind": a.kind, "rank": a.rank, "length": a.length}
                if isinstance(a, ddz.Move)
                else a,
            ]
            for s, a in self.actions
        ]
        return json.dumps(
            {
                "format": FORMAT,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "deals": [d.to_dict() for d in self.deals],
                "actions": actions,
            }
        )

    @classmethod
    def from_json(cls, record: str) -> Game:
        data = json.loads(record)
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        rules = ddz.Rules.from_dict(data["rules"])
        game = cls(rules, seed=data["seed"], _deals=data["deals"])
        for seat, action in data["actions"]:
            if seat != game.to_act:
                raise ValueError(f"record out of turn: seat {seat}, expected {game.to_act}")
            if isinstance(action, dict):
                action = _reading(rules, action)
            game.step(action)
        return game


_DEAL_KEYS = {"hands", "kitty", "set_aside", "first"}


def _reading(rules: ddz.Rules, play: dict) -> ddz.Move:
    """The Move a record's play names."""
    wanted = (play["kind"], play["rank"], play["length"])
    for m in rules.classify(play["play"]):
        if (m.kind, m.rank, m.length) == wanted:
            return m
    raise ValueError(f"record holds a play that is no reading: {play}")
