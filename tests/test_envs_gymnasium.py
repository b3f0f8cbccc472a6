"""`ddz.envs.gymnasium.SeatEnv`: one seat against agents (docs/rl.md)."""

from __future__ import annotations

import numpy as np
import pytest

import ddz

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ddz.envs.gymnasium import SeatEnv  # noqa: E402


@pytest.mark.parametrize(
    "preset, seat, opponents",
    [
        ("classic", 0, "random"),
        ("two-player", 1, "greedy"),
        ("laizi", 2, ["random", ddz.agents.RandomAgent(seed=3)]),
        ("four-player", 3, "random"),
        ("six-player-2v4", 4, lambda obs: int(obs["legal_offsets"][1]) - 1),
    ],
)
def test_check_env_passes(preset: str, seat: int, opponents) -> None:
    check_env(SeatEnv(preset, seat=seat, opponents=opponents), skip_render_check=True)


def play(env: SeatEnv, seed: int, rng: np.random.Generator):
    obs, _ = env.reset(seed=seed)
    seats, total = [], 0.0
    while True:
        seats.append(int(obs["observation"]["seat"]))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert not truncated
        if terminated:
            return seats, total, info["result"]
        assert reward == 0.0


def test_the_learner_acts_only_at_its_seat_and_gets_its_score() -> None:
    env = SeatEnv("classic", seat=1, opponents="greedy")
    rng = np.random.default_rng(0)
    for seed in range(5):
        seats, total, result = play(env, seed, rng)
        assert set(seats) == {1}
        assert total == result["scores"][1]


def test_a_seeded_reset_replays_and_reset_goes_on() -> None:
    env = SeatEnv("classic", seat=0, opponents="random")
    first = play(env, 7, np.random.default_rng(1))
    assert play(env, 7, np.random.default_rng(1)) == first
    obs, _ = env.reset()  # the next deal, not the same one again
    again, _ = SeatEnv("classic", seat=0).reset(seed=7)
    assert not all(
        np.array_equal(obs["observation"][k], again["observation"][k]) for k in obs["observation"]
    )


def test_illegal_actions_are_refused_without_moving() -> None:
    env = SeatEnv("classic", seat=0)
    obs, _ = env.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, terminated, _, info = env.step(bad)
    assert reward == -1.0 and not terminated and info["illegal_action"]
    np.testing.assert_array_equal(again["action_mask"], obs["action_mask"])
    strict = SeatEnv("classic", seat=0, illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)
    with pytest.raises(ValueError, match="seat must be"):
        SeatEnv("classic", seat=3)
    with pytest.raises(ValueError, match="opponents lists"):
        SeatEnv("classic", opponents=["random"])
    e = SeatEnv("classic", seat=0, opponents=lambda obs: 10_000)
    with pytest.raises(ValueError, match="returned 10000"):
        for seed in range(3):  # some seat other than 0 acts first in some deal
            obs, _ = e.reset(seed=seed)
            e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
