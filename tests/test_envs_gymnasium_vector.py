"""`ddz.envs.gymnasium.VectorSeatEnv`: a Gymnasium vector env of one seat against
opponents played inside the step (docs/rl.md). Gymnasium's `check_env` takes a
single env only; its checks that apply to a vector env run here on Gymnasium's own
helpers: the spaces, the reset and step return types and spaces, seeded
determinism, returned data not reused, the autoreset mode."""

from __future__ import annotations

import numpy as np
import pytest

import ddz

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import check_obs, check_space  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from ddz.envs.gymnasium import VectorSeatEnv  # noqa: E402


def legal_ids(infos: dict, rng: np.random.Generator) -> np.ndarray:
    """One random legal id per env, from the legal actions `infos` lists."""
    off, ids = infos["legal_offsets"], infos["legal_ids"]
    counts = np.diff(off)
    return ids[off[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)]


def run(env: VectorSeatEnv, seed: int, steps: int) -> list:
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    out = [(obs, infos)]
    for _ in range(steps):
        out.append(env.step(legal_ids(out[-1][-1], rng)))
    return out


@pytest.mark.parametrize(
    "preset, seat, opponents",
    [("classic", 0, "greedy"), ("laizi", 2, "random"), ("six-player-2v4", 4, ["greedy"] * 5)],
)
def test_the_vector_api_holds(preset: str, seat: int, opponents) -> None:
    env = VectorSeatEnv(preset, 8, seat, opponents=opponents, action_mask=preset == "classic")
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    check_space(env.single_observation_space, "observation", lambda s: None)
    assert env.action_space.shape == (8,)
    assert env.single_action_space.n == len(ddz.envs.action_table(preset))
    obs, infos = env.reset(seed=3)
    check_obs(obs, env.observation_space, "reset")
    assert (obs["seat"] == seat).all()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        obs, rewards, terminated, truncated, infos = env.step(legal_ids(infos, rng))
        check_obs(obs, env.observation_space, "step")
        assert rewards.shape == terminated.shape == truncated.shape == (8,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert (obs["seat"] == seat).all()
        done = terminated | truncated
        np.testing.assert_array_equal(infos["_final_obs"], done)
        for key, space in env.single_observation_space.spaces.items():
            if key != "action_mask":
                rows = infos["final_obs"][key][done]
                assert all(space.contains(np.asarray(row)) for row in rows), key
        np.testing.assert_array_equal(rewards[terminated], infos["scores"][terminated, seat])
        ended += int(done.sum())
        if "action_mask" in obs:
            off = infos["legal_offsets"]
            for i in range(8):
                ids = infos["legal_ids"][off[i] : off[i + 1]]
                assert sorted(np.flatnonzero(obs["action_mask"][i])) == sorted(ids)
    assert ended > 0


def test_a_seeded_reset_replays_and_the_data_is_not_reused() -> None:
    a = run(VectorSeatEnv("classic", 6, 1, opponents="random"), 7, 60)
    b = run(VectorSeatEnv("classic", 6, 1, opponents="random"), 7, 60)
    assert data_equivalence(a, b, exact=True)
    env = VectorSeatEnv("classic", 6, 1, opponents="random")
    first, _ = env.reset(seed=1)
    kept = {k: v.copy() for k, v in first.items()}
    env.step(legal_ids(env.reset(seed=1)[1], np.random.default_rng(1)))
    assert data_equivalence(first, kept, exact=True)
    # Without a seed, a reset goes on to other deals.
    again, _ = env.reset()
    assert not data_equivalence(again["hand"], kept["hand"])


def test_an_illegal_id_is_refused_and_nothing_moves() -> None:
    env = VectorSeatEnv("classic", 4, 0, opponents="greedy")
    obs, infos = env.reset(seed=0)
    bad = legal_ids(infos, np.random.default_rng(0))
    bad[2] = len(env.action_table) - 1
    with pytest.raises(ValueError, match=r"actions\[2\]"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step(bad[:3])
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"reset_mask": np.ones(4, bool)})
    with pytest.raises(ValueError, match="seat"):
        VectorSeatEnv("classic", 4, 3)
