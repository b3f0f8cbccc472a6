"""`Game`: one deal from the deal to the score.

The trick play is the same for every preset and lives here; each preset's
`Flow` (in `flows/`) chooses the roles, decides who sees what and scores.
The state is rebuilt from the deals and the list of actions, so a record
(`to_json`) replays exactly, and an illegal action is refused before
anything changes.
"""

from __future__ import annotations

import json
import random
from typing import Union

import ddz

from .auction import PASS
from .deck import Deal, given_deal, sort_key, split_identities, text
from .flows import FLOWS, Flow
from .tricks import Tricks

Action = Union[str, ddz.Move]
FORMAT = "ddz-game/1"


class IllegalAction(ValueError):
    """An action the rules do not allow now; the game is left unchanged."""


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
        self._flow_class = FLOWS[rules.preset]
        keys = self._flow_class.DEAL_KEYS
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self._replay = [given_deal(rules, d, keys) for d in (_deals or [])]
        first = given_deal(rules, deal, keys) if deal is not None else None
        self.deals: list[Deal] = []
        self.actions: list[tuple[int, Action, str | None]] = []
        self._legal: tuple[tuple[int, int], list[Action]] | None = None
        self._start(first)

    # ---- the deal, and what flows may call -----------------------------
    def _start(self, given: Deal | None = None) -> None:
        self.flow: Flow = self._flow_class(self)
        if given is None:
            given = self._replay.pop(0) if self._replay else self.flow.deal(self._rng)
        self.deals.append(given)
        self.hands = [list(h) for h in given.hands]
        self.kitty = list(given.kitty)
        self.kitty_given = False
        self.events: list[list] = []
        self.tricks = Tricks(self.rules.players)
        self.history: list[tuple[int, str]] = []
        self.result: dict | None = None
        self.flow.start()

    def redeal(self) -> None:
        """Start over with a new deal (everyone passed)."""
        self._start()

    def give_kitty(self, shares: dict[int, list[str]]) -> None:
        for seat, cards in shares.items():
            self.hands[seat] = sorted(self.hands[seat] + list(cards), key=sort_key)
        self.kitty_given = True

    def begin_play(self, leader: int) -> None:
        self.phase, self.to_act = "play", leader

    def end(self, result: dict) -> None:
        """The deal is over (someone went out, or an auto-win)."""
        self.phase, self.result = "over", result

    def counts(self, seat: int) -> ddz.Cards:
        # The parser takes cards in any order, so no sort is needed here.
        return self.rules.cards("".join(self.hands[seat]))

    # ---- what may be done ----------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The actions open to `to_act` now (plays are Moves, pass is PASS)."""
        # Every change of state goes through a step or a new deal, so the list
        # is kept until one happens (step itself asks for it again).
        moment = (len(self.deals), len(self.actions))
        if self._legal is None or self._legal[0] != moment:
            self._legal = (moment, self._compute_legal())
        return list(self._legal[1])

    def _compute_legal(self) -> list[Action]:
        if self.phase == "over":
            return []
        if self.phase != "play":
            return list(self.flow.legal(self.to_act))
        hand = self.counts(self.to_act)
        if self.tricks.leading():
            return list(self.rules.hint(hand))
        return [*self.rules.hint(hand, self.tricks.last), PASS]

    def _resolve(self, action: Action, cards: str | None) -> tuple[Action, list[str] | None]:
        """The legal action meant by `action` (and the exact cards, if named
        with suits), or IllegalAction saying why."""
        if self.phase == "over":
            raise IllegalAction("the deal is over")
        legal = self.legal_actions()
        if self.phase != "play" or action == PASS:
            if isinstance(action, str) and action in legal and cards is None:
                return action, None
            raise IllegalAction(
                f"{action!r} is not allowed for seat {self.to_act} in phase {self.phase!r}; "
                f"allowed: {', '.join(map(str, legal))}"
            )
        if isinstance(action, str) and cards is None and any(c in "shcd" for c in action):
            cards = action
        ids = self._named_cards(cards) if cards is not None else None
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
        if ids is not None and any(self.rules.cards(text(ids)) != m.cards for m in matches):
            raise IllegalAction(f"the cards {cards} are not the play {action}")
        if len(matches) == 1:
            return matches[0], ids
        if len(matches) > 1:
            raise IllegalAction(
                f"{action} has several legal readings "
                f"({', '.join(m.kind for m in matches)}); pass the Move you mean"
            )
        if not self.counts(self.to_act).contains(readings[0].cards):
            raise IllegalAction(f"seat {self.to_act} does not hold {readings[0].cards}")
        if self.tricks.leading():
            raise IllegalAction(f"{action} is not a legal lead")
        raise IllegalAction(f"{action} does not beat {self.tricks.last}")

    def _named_cards(self, action: str) -> list[str]:
        """The physical cards a suited play names; all must be in the hand."""
        try:
            named = split_identities(action)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        hand = list(self.hands[self.to_act])
        exact = []
        for card in named:
            if card.endswith("?"):
                card = next((c for c in hand if c[0] == card[0]), card)
            if card not in hand:
                raise IllegalAction(f"seat {self.to_act} does not hold {card.rstrip('?')}")
            hand.remove(card)
            exact.append(card)
        return exact

    # ---- doing it ------------------------------------------------------
    def step(self, action: Action, cards: str | None = None) -> None:
        """Take `action` for `to_act`; IllegalAction leaves the game unchanged.

        `cards` names the physical cards of a play with suits (``"9h9s"``),
        where it matters which copies leave the hand (marked cards); by
        default the lowest suits go first."""
        action, ids = self._resolve(action, cards)
        try:
            self._apply(action, ids)
        finally:
            self._legal = None  # whatever was listed during the change is stale

    def _apply(self, action: Action, ids: list[str] | None) -> None:
        seat = self.to_act
        if self.phase != "play":
            assert isinstance(action, str)
            self.actions.append((seat, action, None))
            self.history.append((seat, action))
            self.flow.apply(seat, action)
            return
        if action == PASS:
            self.actions.append((seat, action, None))
            self.history.append((seat, PASS))
            self.tricks.pass_()
            self.to_act = (seat + 1) % self.rules.players
            return
        assert isinstance(action, ddz.Move)
        cards = self._take(seat, action.cards, ids)
        self.actions.append((seat, action, text(cards)))
        self.history.append((seat, str(action)))
        self.tricks.play(seat, action)
        self.flow.on_play(seat, action, cards)
        if self.phase == "over":
            return
        out = [seat] if not self.hands[seat] else [s for s, h in enumerate(self.hands) if not h]
        if out:
            self.end(self.flow.finish(out[0]))
        else:
            self.to_act = (seat + 1) % self.rules.players

    def _take(self, seat: int, cards: ddz.Cards, named: list[str] | None) -> list[str]:
        """Remove the played cards from the hand: the named ones, else the
        lowest suits first."""
        hand = self.hands[seat]
        taken: list[str] = []
        for symbol in str(cards):
            pick = None
            if named:
                pick = next((c for c in named if c[0] == symbol and c in hand), None)
                if pick is not None:
                    named.remove(pick)
            if pick is None:
                pick = next(c for c in hand if c[0] == symbol)
            hand.remove(pick)
            taken.append(pick)
        return taken

    # ---- what a seat may see -------------------------------------------
    def observation(self, seat: int) -> dict:
        """Everything `seat` may know, and nothing more."""
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0..{self.rules.players - 1}, not {seat!r}")
        obs = {
            "seat": seat,
            "preset": self.rules.preset,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": text(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "kitty": text(self.kitty) if self.flow.kitty_seen_by(seat) else None,
            "seen_hands": {
                str(s): text(self.hands[s]) for s in sorted(self.flow.hands_seen_by(seat))
            },
            "history": [[s, a] for s, a in self.history if self.flow.visible(seat, s, a)],
            "to_beat": None if self.tricks.last is None else str(self.tricks.last),
            "events": [list(e) for e in self.events],
            "result": self.result,
            **self.flow.observe(seat),
        }
        if seat == self.to_act and self.phase != "over":
            obs["legal_actions"] = [str(a) for a in self.legal_actions()]
        return obs

    # ---- records -------------------------------------------------------
    def to_json(self) -> str:
        actions = []
        for seat, action, cards in self.actions:
            if isinstance(action, ddz.Move):
                entry: object = {
                    "play": str(action.cards),
                    "kind": action.kind,
                    "rank": action.rank,
                    "length": action.length,
                    "ids": cards,
                }
            else:
                entry = action
            actions.append([seat, entry])
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
                game.step(_reading(rules, action), cards=action.get("ids"))
            else:
                game.step(action)
        return game


def _reading(rules: ddz.Rules, play: dict) -> ddz.Move:
    """The Move a record's play names."""
    wanted = (play["kind"], play["rank"], play["length"])
    for m in rules.classify(play["play"]):
        if (m.kind, m.rank, m.length) == wanted:
            return m
    raise ValueError(f"record holds a play that is no reading: {play}")
