"""Helpers shared by the game-flow tests (``test_game*.py``, ``test_secrecy.py``).

A plain module next to the tests: pytest's default (prepend) import mode puts
``tests/`` on ``sys.path``, so the tests import it as ``game_helpers``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from reference_flow.deck import text

import ddz
from ddz.agents import RandomAgent
from ddz.testing import swap_hidden_cards


def step_by_agent(game: ddz.Game, agents: list) -> None:
    """The seat to act takes the action its agent chooses from its own view."""
    seat = game.to_act
    game.step(agents[seat].act(game.observation(seat), game.legal_actions()))


def finish(game: ddz.Game, agents: list) -> ddz.Game:
    """Play the deal out with one agent per seat; the same game, for chaining."""
    while game.phase != "over":
        step_by_agent(game, agents)
    return game


def check_same_seed_replays(preset: str, seeds: int = 20) -> None:
    """A seed and seeded agents make one record, whose JSON replays to the same
    record, result and view of every seat; the result is JSON too."""
    n = ddz.Rules(preset).players
    for seed in range(seeds):
        a = ddz.play(preset, [RandomAgent(seed + i) for i in range(n)], seed=seed)
        b = ddz.play(preset, [RandomAgent(seed + i) for i in range(n)], seed=seed)
        assert a.to_json() == b.to_json()
        again = ddz.Game.from_json(a.to_json())
        assert again.to_json() == a.to_json()
        assert again.result == a.result
        assert [again.observation(s) for s in range(n)] == [a.observation(s) for s in range(n)]
        json.dumps(a.result)


def views_in_random_deals(
    preset: str, deals: int, rng: random.Random
) -> Iterator[tuple[ddz.Game, int, dict]]:
    """Play deals 0 .. `deals` - 1 with seeded random agents. Before every
    step, yield (game, seat, observation) for a seat drawn from `rng`, once
    that observation holds what every view must: it is JSON, shows the
    seat's own hand, and offers legal actions only on the seat's turn."""
    for seed in range(deals):
        game = ddz.Game(preset, seed=seed)
        n = game.rules.players
        agents = [RandomAgent(seed + i) for i in range(n)]
        while game.phase != "over":
            seat = rng.randrange(n)
            obs = game.observation(seat)
            json.dumps(obs)
            assert obs["hand"] == text(game.hands[seat])
            assert ("legal_actions" in obs) == (seat == game.to_act)
            yield game, seat, obs
            step_by_agent(game, agents)


def check_hidden_swap(
    game: ddz.Game,
    viewer: int,
    seen: dict,
    rng: random.Random,
    *,
    suits_secret: bool = False,
    where: str = "",
) -> bool:
    """`viewer`'s observation `seen` must not change in a replayed twin of
    `game` with two hidden cards swapped: else it carries one of them.
    False if no swap was possible, so that nothing was checked."""
    twin = ddz.Game.from_json(game.to_json())
    if not swap_hidden_cards(twin, viewer, rng, suits_secret=suits_secret):
        return False
    assert twin.observation(viewer) == seen, f"{where}seat {viewer} sees hidden cards"
    return True
