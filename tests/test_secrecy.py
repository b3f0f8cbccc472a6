"""No observation carries a card the seat may not see, in any preset.

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

import ddz
from ddz.agents import RandomAgent

DEALS = 1000


def hidden_places(game: ddz.Game, viewer: int) -> list[list[str]]:
    seen = game.flow.hands_seen_by(viewer)
    places = [game.hands[s] for s in range(game.rules.players) if s != viewer and s not in seen]
    if not game.kitty_given and not game.flow.kitty_seen_by(viewer):
        places.append(game.kitty)
    places.append(game.deals[-1].set_aside)
    return [p for p in places if p]


def swap(places: list[list[str]], rng: random.Random) -> bool:
    if len(places) < 2:
        return False
    for _ in range(20):
        a, b = rng.sample(places, 2)
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        if a[i][0] != b[j][0]:
            a[i], b[j] = b[j], a[i]
            return True
    return False


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
            game.step(agents[game.to_act].act(game.observation(game.to_act), game.legal_actions()))
        viewer = rng.randrange(n)
        seen = game.observation(viewer)
        json.dumps(seen)
        twin = ddz.Game.from_json(game.to_json())
        if swap(hidden_places(twin, viewer), rng):
            assert twin.observation(viewer) == seen, f"{preset} seed {seed}: seat {viewer}"
            checked += 1
    assert checked > DEALS // 2
