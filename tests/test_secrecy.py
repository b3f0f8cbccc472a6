"""What holds in every preset's game flow: no observation carries a card the
seat may not see, and an illegal action changes nothing.

For thousands of random deals per preset, at one random moment of each, a
twin of the game has two cards of different ranks swapped between places
the viewer cannot see (other hands it is not shown, the kitty before it is
taken, the set-aside cards). The viewer's observation must not change.
The per-preset test files check roles and secret choices in more depth.
"""

from __future__ import annotations

import json
import random

import pytest
from game_helpers import check_hidden_swap, step_by_agent

import ddz
from ddz.agents import RandomAgent

DEALS = 1000


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_no_observation_shows_a_hidden_card(preset: str) -> None:
    rules = ddz.Rules(preset)
    n = rules.players
    rng = random.Random(preset)
    checked = 0
    for seed in range(DEALS):
        game = ddz.Game(rules, seed=seed)
        agents = [RandomAgent(seed * 7 + i) for i in range(n)]
        stop = rng.randrange(40)
        for _ in range(stop):
            if game.phase == "over":
                break
            step_by_agent(game, agents)
        viewer = rng.randrange(n)
        seen = game.observation(viewer)
        json.dumps(seen)
        checked += check_hidden_swap(game, viewer, seen, rng, where=f"{preset} seed {seed}: ")
    assert checked > DEALS // 2


#: Actions of every phase of every preset, and plays, some legal somewhere.
TRIES = ["bid:9", "bid:3", "call", "kick", "double", "grab", "reveal", "show", "side:main"]
TRIES += ["open-solo", "3", "XD", "XXX", "2222", "333444555666", "zz", 7, None, "pass"]


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_illegal_actions_leave_the_game_unchanged(preset: str) -> None:
    rules = ddz.Rules(preset)
    rng = random.Random(preset)
    for seed in range(6):
        game = ddz.Game(rules, seed=seed)
        agents = [RandomAgent(seed * 7 + i) for i in range(rules.players)]
        while game.phase != "over":
            before = game.to_json()
            bad = rng.choice(TRIES)
            legal = game.legal_actions()
            if bad not in legal and not any(str(m) == str(bad) for m in legal):
                with pytest.raises(ddz.IllegalAction):
                    game.step(bad)  # type: ignore[arg-type]
                assert game.to_json() == before
            game.step(agents[game.to_act].act(game.observation(game.to_act), legal))
        with pytest.raises(ddz.IllegalAction, match="over"):
            game.step("pass")
