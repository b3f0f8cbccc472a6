"""Built-in agents: each picks one of the legal actions it is offered."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ddz.game import PASS


class RandomAgent:
    """Uniformly random among the legal actions (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        return legal[self._rng.randrange(len(legal))]


class GreedyAgent:
    """Plays its smallest play that beats, else passes; leads its smallest
    play; bids the lowest bid open and declines every other option."""

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if observation["phase"] == "play":
            return legal[0]  # hint order: smallest first, bombs last; PASS last
        bids = [a for a in legal if isinstance(a, str) and (a.startswith("bid:") or a == "call")]
        if bids:
            return bids[0]
        declines = [a for a in legal if isinstance(a, str) and a.startswith("no-")]
        return declines[0] if declines else (PASS if PASS in legal else legal[0])


class SolverAgent:
    """Plays perfectly when it can know every hand (open-hand play of two or
    three hands): it solves the position exactly each turn and plays a
    winning action; from a lost position, or when the budget runs out, it
    plays as `fallback` (default `GreedyAgent`) does. Bidding goes to the
    fallback too.

    It talks to the game only through observations and legal actions.
    Hands come from the observation's ``seen_hands`` when they cover every
    seat, else from ``deal`` (the dict given to ``ddz.Game(..., deal=...)``)
    minus the plays in the history, the kitty added to whoever holds it.
    With three hands the landlord plays alone against two farmers who share
    one solver's plan (docs/solver.md).
    """

    def __init__(
        self,
        deal: dict | None = None,
        *,
        forbid: tuple[str, ...] = (),
        max_seconds: float | None = 10.0,
        fallback: object | None = None,
    ) -> None:
        self._deal = deal
        self._forbid = list(forbid)
        self._max_seconds = max_seconds
        self._fallback = fallback if fallback is not None else GreedyAgent()
        self._rules: dict[str, object] = {}
        #: The last solution found (for an app that shows the verdict).
        self.last_solution: object | None = None

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if observation["phase"] == "play":
            choice = self._solve(observation, legal)
            if choice is not None:
                return choice
        return self._fallback.act(observation, legal)  # type: ignore[attr-defined]

    def _rules_of(self, preset: str):
        import ddz

        if preset not in self._rules:
            self._rules[preset] = ddz.Rules(preset)
        return self._rules[preset]

    def _solve(self, obs: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        rules = self._rules_of(obs["preset"])
        hands = self._hands(rules, obs)
        if hands is None or len(hands) not in (2, 3):
            return None
        n = len(hands)
        # Three hands: solver seat 0 is the landlord, then the play order.
        first = obs.get("landlord", 0) if n == 3 else 0
        if first is None:
            return None
        seat_of = [(first + i) % n for i in range(n)]
        to_move = seat_of.index(obs["to_act"])
        prev, prev_by = None, None
        if obs["to_beat"] is not None:
            prev = next(iter(_readings(rules, obs["to_beat"])), None)
            owner = _last_player(rules, obs["history"])
            if prev is None or owner is None:
                return None
            prev_by = seat_of.index(owner)
        solution = rules.solve(  # type: ignore[attr-defined]
            [hands[s] for s in seat_of],
            to_move=to_move,
            prev=prev,
            prev_by=prev_by,
            forbid=self._forbid,
            max_seconds=self._max_seconds,
        )
        self.last_solution = solution
        if not solution.win:
            return None
        best = solution.plays[0]
        return next((a for a in legal if a == best), None)

    def _hands(self, rules: Any, obs: Mapping[str, Any]) -> Any:
        seen = dict(obs.get("seen_hands") or {})
        seen[str(obs["seat"])] = obs["hand"]
        sizes = obs["hand_sizes"]
        if len(seen) == len(sizes):
            return [rules.cards(seen[str(s)]) for s in range(len(sizes))]
        if self._deal is None:
            return None
        played = [rules.cards("") for _ in sizes]
        for seat, action in obs["history"]:
            cards = _cards_of(rules, action)
            if cards is not None:
                played[seat] = _add(rules, played[seat], cards)
        kitty = self._deal.get("kitty") or obs.get("kitty") or ""
        hands = []
        for s, start in enumerate(self._deal["hands"]):
            held = rules.cards(start)
            if len(held) - len(played[s]) != sizes[s]:
                held = _add(rules, held, rules.cards(kitty))
            if len(held) - len(played[s]) != sizes[s] or not held.contains(played[s]):
                return None
            hands.append(_sub(rules, held, played[s]))
        return hands


def _readings(rules, text: str) -> list:
    """The readings of a play's text (``cards`` or ``cards=represents``)."""
    cards = text.split("=")[0]
    return [m for m in rules.classify(cards) if str(m) == text]


def _cards_of(rules, action: str):
    """The cards of a play in the history; None for passes and bids."""
    try:
        cards = rules.cards(action.split("=")[0])
    except ValueError:
        return None
    return cards if len(cards) else None


def _last_player(rules, history: list):
    for seat, action in reversed(history):
        if _cards_of(rules, action) is not None:
            return seat
    return None


def _add(rules, a, b):
    return rules.cards([int(x) + int(y) for x, y in zip(a.counts, b.counts)])


def _sub(rules, a, b):
    return rules.cards([int(x) - int(y) for x, y in zip(a.counts, b.counts)])
