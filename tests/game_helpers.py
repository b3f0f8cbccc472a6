"""Helpers shared by the game-flow tests (``test_game*.py``, ``test_secrecy.py``).

A plain module next to the tests: pytest's default (prepend) import mode puts
``tests/`` on ``sys.path``, so the tests import it as ``game_helpers``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import ddz
from ddz.agents import RandomAgent
from ddz.game.deck import text


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


def hidden_places(game: ddz.Game, viewer: int) -> list[tuple[object, list[str]]]:
    """The non-empty card lists `viewer` may not see, each with its place (a
    seat, "kitty" or "set_aside"): other hands it is not shown, the kitty
    before it is given (unless shown to it), the set-aside cards."""
    seen = game.flow.hands_seen_by(viewer)
    n = game.rules.players
    places: list[tuple[object, list[str]]] = [
        (s, game.hands[s]) for s in range(n) if s != viewer and s not in seen
    ]
    if not game.kitty_given and not game.flow.kitty_seen_by(viewer):
        places.append(("kitty", game.kitty))
    on_table = isinstance(game, ddz.Table)
    places.append(("set_aside", game.set_aside if on_table else game.deals[-1].set_aside))
    return [p for p in places if p[1]]


def swap_hidden_cards(
    game: ddz.Game, viewer: int, rng: random.Random, *, suits_secret: bool = False
) -> bool:
    """Swap two cards of different ranks between two of `viewer`'s hidden
    places, in place; True if it could. With `suits_secret`, any two different
    identities: where a suited card decides roles, a suit must not show either."""
    places = hidden_places(game, viewer)
    if len(places) < 2:
        return False
    for _ in range(20):
        (pa, a), (pb, b) = rng.sample(places, 2)
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        if (a[i] != b[j]) if suits_secret else (a[i][0] != b[j][0]):
            if isinstance(game, ddz.Table):
                game._swap(pa, a[i], pb, b[j])  # the table's own cards
            else:
                a[i], b[j] = b[j], a[i]
            return True
    return False


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
