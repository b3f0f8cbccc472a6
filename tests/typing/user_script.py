"""A user's script: drives a game and reads every typed field. `mypy
--strict` must pass on it (tests/test_types.py), and it runs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import cast

import numpy as np

import ddz
from ddz.types import (
    Action,
    Agent,
    Observation,
    OneLandlordObservation,
    Phase,
    Record,
    Result,
    SimulateResult,
)


class FirstLegal:
    """An agent of the user's own, following `ddz.types.Agent`."""

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        phase: Phase = observation["phase"]
        assert phase != "over"
        return legal[0]


def read_view(obs: Observation) -> str:
    seat: int = obs["seat"]
    to_act: int = obs["to_act"]
    hand: str = obs["hand"]
    sizes: list[int] = obs["hand_sizes"]
    kitty: str | None = obs["kitty"]
    to_beat: str | None = obs["to_beat"]
    seen: dict[str, str] = obs["seen_hands"]
    history = [f"{entry[0]}:{entry[1]}" for entry in obs["history"]]
    events = [f"{e[0]}" for e in obs["events"]]
    legal: list[str] = obs.get("legal_actions", [])
    result: Result | None = obs["result"]
    return f"{obs['preset']} {seat} {to_act} {hand} {sizes} {kitty} {to_beat} {seen} " + (
        f"{history} {events} {legal} {result is None}"
    )


def read_roles(obs: OneLandlordObservation) -> str:
    """A classic view's roles, through the family's typed view."""
    landlord: int | None = obs["landlord"]
    bid: int | None = obs["bid"]
    return f"{landlord} {bid}"


def read_result(result: Result) -> int:
    winners: list[int] = result["winners"]
    scores: list[int] = result["scores"]
    multiplier: int = result["multiplier"]
    landlords: list[int] = result.get("landlords", [])
    assert sum(scores) == 0 and multiplier >= 1
    return len(winners) + len(result["events"]) + len(landlords)


def main() -> None:
    agents: list[Agent] = [FirstLegal(), ddz.agents.GreedyAgent(), ddz.agents.RandomAgent(1)]
    game = ddz.Game("classic", seed=5)
    while game.phase != "over":
        seat = game.to_act
        read_view(game.observation(seat))
        read_roles(cast(OneLandlordObservation, game.observation(seat)))
        game.step(agents[seat].act(game.observation(seat), game.legal_actions()))
    result = game.result
    assert result is not None
    read_result(result)
    record: Record = json.loads(game.to_json())
    assert record["format"] == ddz._ddz.RECORD_FORMAT and record["deals"][0]["hands"]
    try:
        game.step("pass")
    except ddz.IllegalAction as e:
        assert e.phase == "over" and e.seat is not None
    sim: SimulateResult = ddz.simulate("five-player", 8, seed=2)
    hidden: np.ndarray = sim["hidden_landlord"]
    assert sim["scores"].shape == (8, 5) and hidden.shape == (8,)
    assert int(sim["open_landlords"].min()) == -1
    played = ddz.play("classic", agents, seed=1)
    print(read_result(played.result) if played.result else 0)


if __name__ == "__main__":
    main()
