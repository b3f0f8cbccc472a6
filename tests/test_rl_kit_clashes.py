"""The RL kit against the frameworks' own wrappers and tests, and the ways a
step could misread its actions (docs/rl.md, issue 51)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import ddz


def test_an_env_with_ids_needs_by_named_and_an_illegal_id_raises() -> None:
    env = ddz.VecEnv("classic", 2, seed=0, action_mask=True)
    obs = env.observe()
    with pytest.raises(TypeError, match='by="id"'):
        env.step(np.zeros(2, np.int64))
    # An id that is not legal in env 0 is refused, and no env moves.
    legal = set(obs["legal_ids"][obs["legal_offsets"][0] : obs["legal_offsets"][1]].tolist())
    bad = next(i for i in range(len(env.action_table)) if i not in legal)
    ids = obs["legal_ids"][obs["legal_offsets"][:-1]].copy()
    ids[0] = bad
    with pytest.raises(ddz.IllegalAction, match=f"action id {bad} is not legal in env 0"):
        env.step(ids, by="id")
    np.testing.assert_array_equal(env.observe()["legal_ids"], obs["legal_ids"])
    env.step(obs["legal_ids"][obs["legal_offsets"][:-1]], by="id")
    # Without ids, indices remain the default.
    ddz.VecEnv("classic", 2).step(np.zeros(2, np.int64))


def test_seeds_must_be_in_range() -> None:
    with pytest.raises(ValueError, match=r"0\.\.2\*\*64, not -1"):
        ddz.VecEnv("classic", 1, seed=-1)
    env = ddz.VecEnv("classic", 1)
    with pytest.raises(ValueError, match=r"0\.\.2\*\*64, not -1"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="2\\*\\*64"):
        env.reset(seed=2**64)
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed="7")
    env.reset(seed=2**64 - 1)


def test_import_ddz_exposes_envs_lazily_and_stays_numpy_only() -> None:
    code = (
        "import sys, ddz\n"
        "assert 'ddz.envs' not in sys.modules\n"
        "t = ddz.envs.action_table('classic')\n"
        "assert len(t) > 0\n"
        "assert not {'gymnasium', 'pettingzoo'} & set(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_record_episode_statistics_wraps_the_vector_env() -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from ddz.envs.gymnasium import VectorSeatEnv

    env = RecordEpisodeStatistics(VectorSeatEnv("classic", 8, seat=0, opponents="greedy"))
    _, infos = env.reset(seed=0)
    episodes = 0
    for _ in range(200):
        off, ids = infos["legal_offsets"], infos["legal_ids"]
        _, _, terminated, truncated, infos = env.step(ids[off[:-1]])
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
            assert "deal" in infos  # the env's own deal numbers
    assert episodes > 0


def test_pettingzoo_parallel_seed_test_passes_in_the_penalty_mode() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_seed_test

    from ddz.envs.pettingzoo import parallel_env

    parallel_seed_test(lambda: parallel_env("classic", illegal="penalty"), num_cycles=20)
    env = parallel_env("classic", illegal="penalty")
    obs, _ = env.reset(seed=1)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    again, rewards, term, trunc, infos = env.step(dict.fromkeys(env.agents, bad))
    assert rewards[agent] == -1.0 and infos[agent]["illegal_action"]
    assert not any(term.values()) and not any(trunc.values())
    np.testing.assert_array_equal(again[agent]["action_mask"], obs[agent]["action_mask"])
    with pytest.raises(ValueError, match="not legal"):
        strict = parallel_env("classic")
        strict.reset(seed=1)
        strict.step(dict.fromkeys(strict.agents, bad))


def test_seat_env_takes_numpy_scalar_actions() -> None:
    pytest.importorskip("gymnasium")
    from ddz.envs.gymnasium import SeatEnv

    env = SeatEnv("classic", seat=0, opponents="greedy")
    obs, _ = env.reset(seed=0)
    for action in (np.array(int(np.flatnonzero(obs["action_mask"])[0])), np.int64(0)):
        legal = np.flatnonzero(obs["action_mask"])
        a = action if int(action) in legal else np.array(legal[0])
        assert env.action_space.contains(a)
        obs, *_ = env.step(a)
    with pytest.raises(TypeError, match="an action is an int"):
        env.step(np.array([0, 1]))
