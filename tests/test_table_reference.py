"""The Rust table against the Python flows it replaced (`reference_flow/`, a
copy of `ddz.game` before the move): the same deals driven by the same
actions must offer the same legal actions and show every seat the same
observation at every step, and end with the same result.

Every preset the table plays is checked, so a family is covered as soon as
it is registered. The reference deals from Python's generator, so it is
driven from the table's deals (its record, redeals included).
"""

from __future__ import annotations

import random

import pytest
from reference_flow import Game as Reference
from test_game import deal_for_classic_example

import ddz
from ddz.agents import GreedyAgent, RandomAgent

DEALS = 12  # per preset and agent kind, observations of every seat each step


def _drive(game: ddz.Game, agents: list) -> list[tuple]:
    """Play `game` out; before each step note the phase, seat, legal actions
    and every seat's observation."""
    steps = []
    n = game.rules.players
    while game.phase != "over":
        seat = game.to_act
        legal = game.legal_actions()
        views = [game.observation(s) for s in range(n)]
        steps.append((game.phase, seat, [str(a) for a in legal], views))
        game.step(agents[seat].act(views[seat], legal))
    return steps


def _replay_on_reference(game: ddz.Game, steps: list[tuple]) -> None:
    rules = game.rules
    ref = Reference(rules, seed=0, _deals=game.deals)
    n = rules.players
    assert len(steps) == len(game.actions)
    for i, ((phase, seat, legal, views), (_, action, ids)) in enumerate(zip(steps, game.actions)):
        where = f"{rules.preset} step {i}"
        assert (ref.phase, ref.to_act) == (phase, seat), where
        assert [str(a) for a in ref.legal_actions()] == legal, where
        assert [ref.observation(s) for s in range(n)] == views, where
        ref.step(action, cards=ids)
    assert ref.phase == "over"
    assert ref.result == game.result
    assert [ref.observation(s) for s in range(n)] == [game.observation(s) for s in range(n)]


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_random_and_greedy_deals_match_the_reference(preset: str) -> None:
    n = ddz.Rules(preset).players
    for seed in range(DEALS):
        for agents in ([RandomAgent(seed * 7 + i) for i in range(n)], [GreedyAgent()] * n):
            game = ddz.Game(preset, seed=seed)
            _replay_on_reference(game, _drive(game, agents))


def test_the_worked_example_deal_matches_the_reference() -> None:
    rng = random.Random(5)
    for i in range(40):
        game = ddz.Game("classic", seed=i, deal=deal_for_classic_example())
        _replay_on_reference(game, _drive(game, [RandomAgent(rng.randrange(10**6))] * 3))


def test_simulated_records_match_the_reference() -> None:
    for preset in ddz.PRESETS:
        out = ddz.simulate(preset, 20, seed=3, policy="random", record=20)
        for record in out["records"]:
            game = ddz.Game.from_json(record)
            replay = ddz.Game(game.rules, seed=game.seed, _deals=game.deals)
            actions = [(a, ids) for _, a, ids in game.actions]
            steps = []
            for action, ids in actions:
                legal = replay.legal_actions()
                views = [replay.observation(s) for s in range(game.rules.players)]
                steps.append((replay.phase, replay.to_act, [str(a) for a in legal], views))
                replay.step(action, cards=ids)
            _replay_on_reference(replay, steps)
