"""`ddz.VecEnv(copy=False)`: the env's own arrays, overwritten by the next call
(docs/rl.md, "The returned arrays are yours")."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import ddz


def random_actions(offsets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    counts = np.diff(offsets)
    return (rng.random(len(counts)) * counts).astype(np.int64)


def step_both(preset: str, envs: int, steps: int, threads: int = 2) -> None:
    """The same seeded run with fresh arrays and with shared ones: every array of
    every step equal (the shared ones read before the next step overwrites them)."""
    fresh = ddz.VecEnv(preset, envs, seed=3, threads=threads)
    shared = ddz.VecEnv(preset, envs, seed=3, threads=threads, copy=False)
    rng = np.random.default_rng(0)
    a, b = fresh.reset(), shared.reset()
    for step in range(steps + 1):
        assert a.keys() == b.keys()
        for key in a:
            assert a[key].dtype == b[key].dtype, key
            np.testing.assert_array_equal(a[key], b[key], err_msg=f"{key} at step {step}")
        if step == steps:
            break
        actions = random_actions(a["legal_offsets"], rng)
        a, ra, ta, ia = fresh.step(actions)
        b, rb, tb, ib = shared.step(actions)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ta, tb)
        assert ia.keys() == ib.keys()
        for key in ia:
            np.testing.assert_array_equal(ia[key], ib[key], err_msg=key)


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_shared_arrays_hold_what_fresh_ones_do(preset: str) -> None:
    step_both(preset, 20, 40)


def test_shared_arrays_on_the_calling_thread() -> None:
    step_both("classic", 5, 60, threads=1)


def test_the_next_step_overwrites_the_shared_arrays() -> None:
    env = ddz.VecEnv("classic", 20, seed=1, copy=False)
    assert not env.copy and "copy=False" in repr(env)
    obs = env.reset()
    hand = obs["hand"]
    before = hand.copy()
    obs2, rewards, _, _ = env.step(np.zeros(20, np.int64))
    assert obs2["hand"] is hand and not np.array_equal(hand, before)
    _, rewards2, _, _ = env.step(np.zeros(20, np.int64))
    assert rewards2 is rewards
    assert env.observe()["hand"] is hand
    assert ddz.VecEnv("classic", 2).copy


def test_legal_buffers_grow_and_old_views_stay_readable() -> None:
    # Three-deck leads have far more plays than the first room of 64 per env.
    env = ddz.VecEnv("five-player-3deck", 2, seed=0, copy=False)
    fresh = ddz.VecEnv("five-player-3deck", 2, seed=0)
    a, b = env.reset(), fresh.reset()
    rng = np.random.default_rng(1)
    grown = False
    for _ in range(80):
        old_cards = a["legal_cards"]
        actions = random_actions(b["legal_offsets"], rng)
        a, _, _, _ = env.step(actions)
        b, _, _, _ = fresh.step(actions)
        np.testing.assert_array_equal(a["legal_cards"], b["legal_cards"])
        np.testing.assert_array_equal(a["legal_kind"], b["legal_kind"])
        grown |= a["legal_cards"].base is not old_cards.base
        int(old_cards.sum())  # memory of a replaced buffer is still valid
    assert grown


def test_views_keep_the_env_alive() -> None:
    env = ddz.VecEnv("classic", 4, seed=2, copy=False)
    obs = env.reset()
    want = obs["hand"].copy()
    del env
    gc.collect()
    np.testing.assert_array_equal(obs["hand"], want)


def test_a_refused_step_leaves_the_shared_arrays_as_they_were() -> None:
    env = ddz.VecEnv("classic", 3, seed=0, copy=False)
    obs = env.reset()
    kept = {k: v.copy() for k, v in obs.items()}
    with pytest.raises(ValueError, match="env 1"):
        env.step([0, -1, 0])
    after = env.observe()
    for key in kept:
        np.testing.assert_array_equal(after[key], kept[key], err_msg=key)


def test_observe_before_any_step_gives_the_shared_arrays() -> None:
    shared = ddz.VecEnv("classic", 20, seed=4, copy=False)
    fresh = ddz.VecEnv("classic", 20, seed=4)
    a, b = shared.observe(), fresh.observe()
    for key in b:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert shared.step(np.zeros(20, np.int64))[0]["hand"] is a["hand"]
