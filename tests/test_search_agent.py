"""SearchAgent (docs/bots.md): legal on every preset, repeatable at a fixed
seed and playout budget on 1 and 2 threads, blind to hidden cards, and the
"search" name in simulate, the server's bots and the CLI."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import ddz
from ddz.agents import SearchAgent
from ddz.serve.bots import BOT_KINDS
from ddz.testing import swap_hidden_cards

#: A small fixed budget: no time limit, so decisions repeat exactly.
FAST = {"budget_ms": 0, "playouts": 16}


def play(preset: str, seed: int, agent: SearchAgent) -> ddz.Game:
    game = ddz.Game(preset, seed=seed)
    while game.phase != "over":
        seat = game.to_act
        game.step(agent.act(game.observation(seat), game.legal_actions()))
    return game


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_the_agent_only_takes_legal_actions(preset: str) -> None:
    # Game.step raises on an illegal action: two whole deals each.
    for seed in range(2):
        agent = SearchAgent(seed=seed, threads=1, **FAST)
        game = play(preset, seed, agent)
        assert game.result is not None


def decisions(preset: str, seed: int, threads: int) -> list[str]:
    agent = SearchAgent(seed=7, threads=threads, **FAST)
    game = ddz.Game(preset, seed=seed)
    out = []
    while game.phase != "over":
        action = agent.act(game.observation(game.to_act), game.legal_actions())
        out.append(str(action))
        game.step(action)
    return out


@pytest.mark.parametrize("preset", ["classic", "laizi"])
def test_one_and_two_threads_decide_alike(preset: str) -> None:
    assert decisions(preset, 3, threads=1) == decisions(preset, 3, threads=2)


class CountingFallback:
    """Greedy, counting the decisions handed to it."""

    def __init__(self) -> None:
        self.calls = 0
        self.greedy = ddz.agents.GreedyAgent()

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        self.calls += 1
        return self.greedy.act(observation, legal)


@pytest.mark.parametrize(
    "preset",
    [
        "five-player",
        "five-player-3deck",
        "six-player-3v3",
        "six-player-3v3-kitty",
        "six-player-2v4",
        "six-player-teams",
    ],
)
def test_act_searches_from_the_observation_alone(preset: str) -> None:
    # Every family's observation is rebuilt into a table: five-player's
    # history is whole; in the others what the seat did not see (a friend
    # call, a side, where marked copies lie, the secret mark) is guessed
    # until the replay shows the seat its observation. No decision falls
    # back.
    fallback = CountingFallback()
    agent = SearchAgent(seed=1, threads=1, fallback=fallback, **FAST)
    chosen = 0
    for seed in range(2):
        game = ddz.Game(preset, seed=seed)
        while game.phase != "over":
            legal = game.legal_actions()
            chosen += len(legal) > 1
            game.step(agent.act(game.observation(game.to_act), legal))
    assert chosen > 50
    assert fallback.calls == 0


@pytest.mark.parametrize("preset", ["classic", "six-player-teams"])
def test_an_observation_no_deal_can_give_goes_to_the_fallback(preset: str) -> None:
    # One card more in another seat's hand than the deck holds.
    fallback = CountingFallback()
    agent = SearchAgent(seed=1, threads=1, fallback=fallback, **FAST)
    game = ddz.Game(preset, seed=4)
    greedy = ddz.agents.GreedyAgent()
    while len(game.legal_actions()) < 2:
        game.step(greedy.act(game.observation(game.to_act), game.legal_actions()))
    observation = dict(game.observation(game.to_act))
    sizes = list(observation["hand_sizes"])
    sizes[(game.to_act + 1) % len(sizes)] += 1
    legal = game.legal_actions()
    chosen = agent.act(dict(observation, hand_sizes=sizes), legal)
    assert fallback.calls == 1
    assert str(chosen) == str(greedy.act(observation, legal))


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_moving_hidden_cards_leaves_the_decision_unchanged(preset: str) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        game = ddz.Game(preset, seed=seed)
        step = 0
        while game.phase != "over":
            seat = game.to_act
            if step % 4 == 0:
                twin = ddz.Game.from_json(game.to_json())
                if swap_hidden_cards(twin, seat, rng):
                    a = SearchAgent(seed=step, threads=1, **FAST)
                    b = SearchAgent(seed=step, threads=1, **FAST)
                    want = a.act(game.observation(seat), game.legal_actions())
                    got = b.act(twin.observation(seat), twin.legal_actions())
                    assert str(want) == str(got), f"{preset} seed {seed} step {step}"
                    checked += 1
            agent = SearchAgent(seed=step, threads=1, **FAST)
            game.step(agent.act(game.observation(seat), game.legal_actions()))
            step += 1
    assert checked > 5


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_act_in_a_game_is_blind_to_hidden_cards_and_roles(preset: str) -> None:
    # On the game's own table, every preset: moving hidden cards between
    # other seats (a marked copy among them, so a hidden partner moves too)
    # leaves the decision unchanged.
    rng = random.Random(11)
    checked = 0
    for seed in range(3):
        game = ddz.Game(preset, seed=seed)
        step = 0
        while game.phase != "over":
            seat = game.to_act
            if step % 5 == 0 and len(game.legal_actions()) > 1:
                twin = ddz.Game.from_json(game.to_json())
                if swap_hidden_cards(twin, seat, rng):
                    a = SearchAgent(seed=step, threads=1, **FAST)
                    b = SearchAgent(seed=step, threads=1, **FAST)
                    assert str(a.act_in(game)) == str(b.act_in(twin)), f"{preset} {seed} {step}"
                    checked += 1
            game.step(SearchAgent(seed=step, threads=1, **FAST).act_in(game))
            step += 1
    assert checked > 3


def test_act_in_a_finished_game_is_refused() -> None:
    game = ddz.play("classic", [ddz.agents.GreedyAgent()] * 3, seed=1)
    with pytest.raises(ValueError, match="over"):
        game.search()


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="budget_ms"):
        SearchAgent(budget_ms=-1)
    with pytest.raises(ValueError, match="playouts"):
        SearchAgent(playouts=0)
    with pytest.raises(ValueError, match="threads"):
        SearchAgent(threads=0)


def test_a_seat_not_to_act_is_refused() -> None:
    game = ddz.Game("classic", seed=1)
    other = (game.to_act + 1) % 3
    with pytest.raises(ValueError, match="not to act"):
        ddz._ddz.search_act(game.rules, json.dumps(game.observation(other), default=str))


def test_simulate_plays_the_search_policy() -> None:
    out = ddz.simulate("classic", 4, seed=1, policy="search", threads=1)
    assert len(out["landlord"]) == 4
    assert (out["scores"].sum(axis=1) == 0).all()


def test_the_server_and_the_cli_offer_search_bots() -> None:
    assert "search" in BOT_KINDS
    assert not BOT_KINDS["search"].inline
    agent = BOT_KINDS["search"].make(ddz.Rules("classic"), 3)
    game = ddz.Game("classic", seed=2)
    assert agent.act(game.observation(game.to_act), game.legal_actions()) in game.legal_actions()
    from ddz.cli import build_parser

    args = build_parser().parse_args(["play", "classic", "--bots", "search"])
    assert args.bots == "search"


@pytest.mark.parametrize("preset", ["classic", "five-player"])
def test_an_observation_naming_no_seat_is_refused_cleanly(preset: str) -> None:
    # A hand-edited observation: a seat key out of range gets None (the
    # agent's fallback decides) or a ValueError, never a panic.
    greedy = ddz.agents.GreedyAgent()
    game = ddz.Game(preset, seed=1)
    for _ in range(12):
        game.step(greedy.act(game.observation(game.to_act), game.legal_actions()))
    observation = game.observation(game.to_act)
    for key in ("landlord", "to_act") + ("hidden_landlord",) * (preset == "five-player"):
        bad = dict(observation, **{key: 9})
        try:
            found = ddz._ddz.search_act(game.rules, json.dumps(bad, default=str), playouts=8)
        except ValueError:
            continue
        assert found is None, key
