"""Built-in agents: each picks one of the legal actions it is offered."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ddz._ddz import Rules, Table, default_threads, greedy_choice, policy_act, search_act

if TYPE_CHECKING:
    from ddz.types import SolverPosition


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
        return legal[greedy_choice(legal)]  # the core's greedy player (policy.rs)


#: The search's default playouts a decision (`SearchBudget::DEFAULT`).
_DEFAULT_PLAYOUTS = 1000


class RuleAgent:
    """RLCard 1.2.0's rule agent (`DouDizhuRuleAgentV1`, the baseline DDZ papers
    report), ported to Rust: the policy ``"rule"`` (docs/bots.md). In the play it
    leads the first group of its greedy decomposition holding its lowest card,
    follows with the smallest play of the same shape, and otherwise passes a
    partner or plays at random; the auction (RLCard has none) is `GreedyAgent`'s.

    ``act_in(game)`` decides on the game's own table; ``act(observation, legal)``
    on a table rebuilt from the observation (an observation no deal replays to
    goes to `GreedyAgent`). Its random draws come from ``seed``."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._rules: dict[str, Rules] = {}
        self._fallback = GreedyAgent()

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        preset = observation["preset"]
        rules = self._rules.setdefault(preset, Rules(preset))
        text = json.dumps(dict(observation), default=str)
        found = policy_act(rules, text, "rule", seed=self._rng.getrandbits(64))
        if found is not None:
            index, name = found
            if index < len(legal) and str(legal[index]) == name:
                return legal[index]
        return self._fallback.act(observation, legal)

    def act_in(self, game: Table) -> Any:
        """The rule agent's action for the seat to act on `game` (not over)."""
        legal = game.legal_actions()
        return legal[game.policy_choice("rule", seed=self._rng.getrandbits(64))]


class SearchAgent:
    """The built-in strong player: determinized Monte-Carlo search in Rust
    (docs/bots.md). For each decision it deals the cards it cannot see at
    random, consistently with the observation, tries every candidate on the
    same deals, finishes each with a fast playout (or solves it exactly
    once the hands are small) and takes the best.

    ``act(observation, legal)`` reads nothing but the observation and the
    legal actions: it rebuilds a table from the observation, in every
    preset (what the seat did not see, such as another farmer's side or
    where a marked card's copies lie, is guessed until the replay shows
    the seat its observation), and searches there. An observation no deal
    replays to (one edited by hand) goes to ``fallback`` (default
    `GreedyAgent`). ``act_in(game)`` searches on the game's own table: it
    too reads only what the seat to act may see (each sample deals the
    hidden cards and roles anew). `ddz.play`, `ddz.evaluate`, ``ddz play``
    and the server's bots call ``act_in`` (see `decide`).

    ``level`` (1 to 8, default 8) is the strength: level 8 is the full
    search, and each level below searches fewer playouts and picks among
    its best few candidates with more noise (the policy names
    ``"search:1"`` .. ``"search:8"``; docs/bots.md gives the Elo ladder).
    ``budget_ms`` bounds a decision's time and ``playouts`` its work (the
    default, None, is the level's: see docs/bots.md); with a fixed
    ``playouts`` and no time limit (``budget_ms=0``) the same ``seed`` gives
    the same decisions on any number of ``threads`` (None: every core).
    Each decision draws a fresh seed from the agent's own generator.
    """

    def __init__(
        self,
        budget_ms: float | None = None,
        playouts: int | None = None,
        seed: int | None = None,
        threads: int | None = None,
        *,
        level: int = 8,
        rules: Rules | None = None,
        fallback: object | None = None,
    ) -> None:
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 8:
            raise ValueError(f"level must be an int from 1 to 8, not {level!r}")
        if budget_ms is not None and budget_ms < 0:
            raise ValueError(f"budget_ms must be at least 0, not {budget_ms}")
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts}")
        if threads is not None and not 1 <= threads <= 255:
            raise ValueError(f"threads must be 1 to 255, not {threads}")
        self.level = level
        self._budget_us = None if budget_ms is None else min(int(budget_ms * 1000), 2**32 - 1)
        self._playouts = playouts
        self._threads = threads if threads is not None else default_threads()
        self._rng = random.Random(seed)
        self._given_rules = rules
        self._rules: dict[str, Rules] = {}
        self._fallback = fallback if fallback is not None else GreedyAgent()

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        seed = self._rng.getrandbits(64)
        rules = self._rules_of(observation["preset"])
        text = json.dumps(dict(observation), default=str)
        found = search_act(
            rules,
            text,
            seed=seed,
            playouts=self._playouts,
            budget_us=self._budget_us,
            threads=min(self._threads, 255),
            level=self.level,
        )
        if found is not None:
            index, name = found
            if index < len(legal) and str(legal[index]) == name:
                return legal[index]
            by_name = [a for a in legal if str(a) == name]
            if by_name:
                return by_name[0]
        return self._fallback.act(observation, legal)  # type: ignore[attr-defined]

    def act_in(self, game: Table) -> Any:
        """The action for the seat to act on `game` (a `ddz.Game` or
        `ddz.Table`, not over), searched on its own table: every preset."""
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        index = game.search(
            seed=self._rng.getrandbits(64),
            playouts=self._playouts,
            budget_us=self._budget_us,
            threads=min(self._threads, 255),
            level=self.level,
        )
        return legal[index]

    def batch_budget(self) -> tuple[int | None, int | None, int]:
        """``(playouts, budget_us, level)`` of one decision, as a batch plays this
        agent (`ddz.VecEnv` opponents, `ddz.evaluate`): the built-in search at this
        level and budget (None: the level's own), one thread a decision, its seeds
        drawn by the batch (not this agent's)."""
        return self._playouts, self._budget_us, self.level

    def _rules_of(self, preset: str) -> Rules:
        if self._given_rules is not None:
            return self._given_rules
        if preset not in self._rules:
            self._rules[preset] = Rules(preset)
        return self._rules[preset]


def search_agent_named(name: str, seed: int | None = None) -> SearchAgent | None:
    """The `SearchAgent` a search policy name stands for: ``"search"``
    (level 8), ``"search:1"`` .. ``"search:8"``, ``"search:playouts=N"``
    (full strength, N playouts, no time limit); None for another name."""
    if name == "search":
        return SearchAgent(seed=seed)
    rest = name.removeprefix("search:")
    if rest == name:
        return None
    if rest.startswith("playouts="):
        digits = rest.removeprefix("playouts=")
        if digits.isdigit() and int(digits) >= 1:
            return SearchAgent(budget_ms=0, playouts=int(digits), seed=seed)
        return None
    if rest.isdigit() and 1 <= int(rest) <= 8:
        return SearchAgent(level=int(rest), seed=seed)
    return None


def decide(agent: Any, game: Table) -> Any:
    """`agent`'s action for the seat to act on `game`: ``agent.act_in(game)``
    where the agent has it (`SearchAgent`), else ``agent.act(observation,
    legal)`` with that seat's observation."""
    act_in = getattr(agent, "act_in", None)
    if act_in is not None:
        return act_in(game)
    return agent.act(game.observation(game.to_act), game.legal_actions())


class SolverAgent:
    """Plays perfectly when it can know every hand (open-hand play of two or
    three hands): it solves the position exactly each turn and plays a
    winning action; from a lost position, or when the budget runs out, it
    plays as `fallback` (default `GreedyAgent`) does. Bidding goes to the
    fallback too.

    It talks to the game only through observations and legal actions.
    Hands come from the observation's ``seen_hands`` when they cover every
    seat, else from a table dealt ``deal`` (the dict given to
    ``ddz.Game(..., deal=...)``, which must be the deal being played) with
    the observation's history replayed on it (`Table.position()`).
    With three hands the landlord plays alone against two farmers who share
    one solver's plan (docs/solver.md).

    ``rules`` is the game's rule set. Without it the agent takes the preset
    the observation names, with its default options: pass ``rules`` for a
    custom rule set (an observation carries only the preset's name).
    """

    def __init__(
        self,
        deal: dict | None = None,
        *,
        forbid: tuple[str, ...] = (),
        max_seconds: float | None = 10.0,
        fallback: object | None = None,
        rules: Rules | None = None,
    ) -> None:
        self._deal = deal
        self._given_rules = rules
        self._forbid = list(forbid)
        self._max_seconds = max_seconds
        self._fallback = fallback if fallback is not None else GreedyAgent()
        self._rules: dict[str, Rules] = {}
        #: The last solution found (for an app that shows the verdict).
        self.last_solution: object | None = None

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if observation["phase"] == "play":
            choice = self._solve(observation, legal)
            if choice is not None:
                return choice
        return self._fallback.act(observation, legal)  # type: ignore[attr-defined]

    def _rules_of(self, preset: str) -> Rules:
        if self._given_rules is not None:
            return self._given_rules
        if preset not in self._rules:
            self._rules[preset] = Rules(preset)
        return self._rules[preset]

    def _solve(self, obs: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        rules = self._rules_of(obs["preset"])
        position = self._position(rules, obs)
        if position is None:
            return None
        solution = rules.solve(  # type: ignore[attr-defined]
            position["hands"],
            to_move=position["to_move"],
            prev=position["prev"],
            prev_by=position["prev_by"],
            forbid=self._forbid,
            max_seconds=self._max_seconds,
        )
        self.last_solution = solution
        if not solution.win:
            return None
        best = solution.plays[0]
        return next((a for a in legal if a == best), None)

    def _position(self, rules: Any, obs: Mapping[str, Any]) -> SolverPosition | None:
        """The solver's position: read off a table rebuilt from `deal` and
        the observation's history, or, when the observation shows every
        hand, from the observation itself."""
        seen = dict(obs.get("seen_hands") or {})
        seen[str(obs["seat"])] = obs["hand"]
        sizes = obs["hand_sizes"]
        if len(seen) == len(sizes):
            return _open_position(rules, obs, [seen[str(s)] for s in range(len(sizes))])
        if self._deal is None:
            return None
        table = Table(rules, 0, [self._deal])
        try:
            for _seat, action in obs["history"]:
                table.step(action)
        except ValueError:
            return None  # the history is not of this deal
        return table.position()


def _open_position(rules: Any, obs: Mapping[str, Any], hands: list[str]) -> SolverPosition | None:
    """The position of an observation that shows every hand."""
    n = len(hands)
    if n not in (2, 3):
        return None
    # Three hands: solver seat 0 is the landlord, then the play order.
    first = obs.get("landlord", 0) if n == 3 else 0
    if first is None:
        return None
    seats = [(first + i) % n for i in range(n)]
    prev, prev_by = None, None
    if obs["to_beat"] is not None:
        prev = next(iter(_readings(rules, obs["to_beat"])), None)
        owner = _last_player(rules, obs["history"])
        if prev is None or owner is None:
            return None
        prev_by = seats.index(owner)
    return {
        "hands": [rules.cards(hands[s]) for s in seats],
        "to_move": seats.index(obs["to_act"]),
        "prev": prev,
        "prev_by": prev_by,
        "seats": seats,
    }


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
