"""The other seats of `SeatEnv`: built-in agents or user callables, as policies
that map a `DealInPlay`'s moment to a legal index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import ddz
from ddz.envs._actions import action_table
from ddz.envs._deal import DealInPlay

Policy = Callable[[DealInPlay], int]


def legal_actions(deal: DealInPlay) -> list[Any]:
    """The moment's legal actions as `Game` takes them, in `Game`'s order (which
    is `VecEnv`'s), read from their ids."""
    table = action_table(deal.rules)
    return [table.action(int(i)) for i in deal.obs["legal_ids"][: deal.legal_count]]


def agent_policy(agent: Any) -> Policy:
    """A `ddz.agents`-style agent (`act(observation, legal)`): it sees the seat's
    `Game.observation` and the legal actions in `Game`'s order."""

    def policy(deal: DealInPlay) -> int:
        acts = legal_actions(deal)
        choice = agent.act(deal.vec.observation(0), acts)
        for i, a in enumerate(acts):
            if a == choice:
                return i
        raise ValueError(f"agent {agent!r} chose {choice!r}, which is not legal now")

    return policy


def callable_policy(fn: Callable[..., Any]) -> Policy:
    """A user callable `fn(obs) -> legal index`, `obs` the seat's one-env `VecEnv`
    observation (legal rows `0 .. obs['legal_offsets'][1]`)."""

    def policy(deal: DealInPlay) -> int:
        index = fn(deal.obs)
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"opponent {fn!r} must return a legal index (an int), not {index!r}")
        if not 0 <= index < deal.legal_count:
            raise ValueError(
                f"opponent {fn!r} returned {index}: there are {deal.legal_count} legal actions"
            )
        return int(index)

    return policy


def random_policy(seed: Any) -> Policy:
    rng = np.random.default_rng(seed)
    return lambda deal: int(rng.integers(deal.legal_count))


def policy_of(spec: Any, seed: Any) -> Policy:
    if isinstance(spec, str):
        if spec == "random":
            return random_policy(seed)
        if spec == "greedy":
            return agent_policy(ddz.agents.GreedyAgent())
        own = int(np.random.SeedSequence(seed).generate_state(2, np.uint64)[0])
        if spec == "rule":
            return agent_policy(ddz.agents.RuleAgent(seed=own))
        if spec.startswith("search:playouts="):
            playouts = int(spec.split("=", 1)[1])
            return agent_policy(ddz.agents.SearchAgent(budget_ms=0, playouts=playouts, seed=own))
        if spec == "search":
            return agent_policy(ddz.agents.SearchAgent(seed=own))
        raise ValueError(
            "an opponent is 'random', 'greedy', 'rule', 'search', 'search:playouts=N', "
            f"an agent or a callable, not {spec!r}"
        )
    if hasattr(spec, "act"):
        return agent_policy(spec)
    if callable(spec):
        return callable_policy(spec)
    raise TypeError(f"an opponent is 'random', 'greedy', an agent or a callable, not {spec!r}")
