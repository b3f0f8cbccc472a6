"""The other seats of `SeatEnv`: built-in agents or user callables, as policies
that map a `Deal`'s moment to a legal index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import ddz
from ddz.envs._actions import BID_KIND, PASS_KIND, SLOTS
from ddz.envs._deal import Deal

Policy = Callable[[Deal], int]


def legal_actions(deal: Deal) -> list[Any]:
    """The moment's legal actions in `VecEnv` order, as `Game` takes them."""
    o, rules = deal.obs, deal.rules
    out: list[Any] = []
    for i in range(deal.legal_count):
        kind = int(o["legal_kind"][i])
        if kind == BID_KIND:
            out.append(f"bid:{int(o['legal_rank'][i])}")
        elif kind >= PASS_KIND:
            out.append(ddz.VecEnv.kind_names[kind])
        else:
            want = (SLOTS[o["legal_rank"][i]], int(o["legal_length"][i]))
            rep = o["legal_represents"][i].tobytes()
            out.append(
                next(
                    m
                    for m in rules.classify(o["legal_cards"][i])
                    if m.kind == ddz.VecEnv.kind_names[kind]
                    and (m.rank, m.length) == want
                    and m.represents.counts.tobytes() == rep
                )
            )
    return out


def agent_policy(agent: Any) -> Policy:
    """A `ddz.agents`-style agent (`act(observation, legal)`): it sees the seat's
    `Game.observation` and the legal actions in `Game`'s order."""

    def policy(deal: Deal) -> int:
        view = deal.vec.observation(0)
        acts = legal_actions(deal)
        order = {text: i for i, text in reversed(list(enumerate(view["legal_actions"])))}
        ranked = sorted(range(len(acts)), key=lambda i: order.get(str(acts[i]), len(order)))
        choice = agent.act(view, [acts[i] for i in ranked])
        for i in ranked:
            if acts[i] == choice:
                return i
        raise ValueError(f"agent {agent!r} chose {choice!r}, which is not legal now")

    return policy


def callable_policy(fn: Callable[..., Any]) -> Policy:
    """A user callable `fn(obs) -> legal index`, `obs` the seat's one-env `VecEnv`
    observation (legal rows `0 .. obs['legal_offsets'][1]`)."""

    def policy(deal: Deal) -> int:
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
        raise ValueError(f"an opponent is 'random', 'greedy', an agent or a callable, not {spec!r}")
    if hasattr(spec, "act"):
        return agent_policy(spec)
    if callable(spec):
        return callable_policy(spec)
    raise TypeError(f"an opponent is 'random', 'greedy', an agent or a callable, not {spec!r}")
