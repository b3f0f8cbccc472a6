"""Helpers shared by the game-flow tests (``test_game*.py``, ``test_secrecy.py``).

A plain module next to the tests: pytest's default (prepend) import mode puts
``tests/`` on ``sys.path``, so the tests import it as ``game_helpers``.
"""

from __future__ import annotations

import ddz


def step_by_agent(game: ddz.Game, agents: list) -> None:
    """The seat to act takes the action its agent chooses from its own view."""
    seat = game.to_act
    game.step(agents[seat].act(game.observation(seat), game.legal_actions()))


def finish(game: ddz.Game, agents: list) -> ddz.Game:
    """Play the deal out with one agent per seat; the same game, for chaining."""
    while game.phase != "over":
        step_by_agent(game, agents)
    return game
