"""The built-in agents' plumbing into the core: `GreedyAgent` decides through
the core's greedy player (held to the rule it states, written here as an
oracle), and `Table.position()` is the position the solver reads."""

from __future__ import annotations

import random

import pytest

import ddz
from ddz._ddz import greedy_choice
from ddz.agents import GreedyAgent, RandomAgent


def greedy_oracle(phase: str, legal: list) -> int:
    """GreedyAgent's rule as its docstring states it."""
    if phase == "play":
        return 0  # the smallest play (Game's order), else the only pass
    words = [str(a) for a in legal]
    for i, w in enumerate(words):
        if w.startswith("bid:") or w == "call":
            return i
    for i, w in enumerate(words):
        if w.startswith("no-"):
            return i
    return words.index("pass") if "pass" in words else 0


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_greedy_agent_follows_its_rule_on_every_preset(preset: str) -> None:
    rng = random.Random(preset)
    checked = 0
    for seed in range(12):
        g = ddz.Game(preset, seed=seed)
        mover = RandomAgent(seed)
        while g.phase != "over":
            legal = g.legal_actions()
            want = greedy_oracle(g.phase, list(legal))
            assert greedy_choice(legal) == want, (preset, g.phase, list(legal))
            # A plain list of the same actions gives the same index.
            assert greedy_choice(list(legal)) == want
            checked += 1
            agent = GreedyAgent() if rng.random() < 0.5 else mover
            g.step(agent.act(g.observation(g.to_act), legal))
    assert checked > 100


def test_greedy_choice_names_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        greedy_choice([])
    with pytest.raises(ValueError, match="not an action"):
        greedy_choice(["pass", "fly"])


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_position_is_the_table_as_the_solver_reads_it(preset: str) -> None:
    rules = ddz.Rules(preset)
    solvable = rules.flow == "one_landlord" and rules.players in (2, 3)
    seen_play = 0
    for seed in range(10):
        g = ddz.Game(rules, seed=seed)
        mover = RandomAgent(seed)
        while g.phase != "over":
            p = g.position()
            if g.phase != "play" or not solvable:
                assert p is None
            else:
                seen_play += 1
                assert p is not None
                n = rules.players
                assert sorted(p["seats"]) == list(range(n))
                for i, seat in enumerate(p["seats"]):
                    assert p["hands"][i] == g.counts(seat)
                assert p["seats"][p["to_move"]] == g.to_act
                obs = g.observation(g.to_act)
                if n == 3:
                    assert p["seats"][0] == obs["landlord"]
                if obs["to_beat"] is None:
                    assert p["prev"] is None and p["prev_by"] is None
                else:
                    assert str(p["prev"]) == obs["to_beat"]
                    last = next(s for s, a in reversed(g.history) if a == obs["to_beat"])
                    assert p["seats"][p["prev_by"]] == last
            g.step(mover.act(g.observation(g.to_act), g.legal_actions()))
    assert seen_play > 0 or not solvable
