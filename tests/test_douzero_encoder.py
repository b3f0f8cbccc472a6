"""The Rust DouZero encoder (`ddz.envs.douzero.Env`) against the numpy one it replaced
(`tests/reference_flow/douzero_env.py`), state by state: every array of every
observation equal in shape, dtype and value, the same action lists in the same
order, the same rewards. Needs no DouZero install.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference_flow.douzero_env import Env as NumpyEnv  # noqa: E402

from ddz.envs.douzero import Env, random_deal  # noqa: E402

STATES = 2_000
ARRAYS = ("x_batch", "z_batch", "x_no_action", "z")


def assert_same(ours: dict, ref: dict) -> None:
    assert ours.keys() == ref.keys()
    assert ours["position"] == ref["position"]
    assert ours["legal_actions"] == ref["legal_actions"]
    for key in ARRAYS:
        assert ours[key].dtype == ref[key].dtype, key
        assert ours[key].shape == ref[key].shape, key
        assert np.array_equal(ours[key], ref[key]), key


def test_rust_encoder_equals_the_numpy_one() -> None:
    rng = random.Random(7)
    ours_env, ref_env = Env("adp"), NumpyEnv("adp")  # rewards: +-2**bombs
    states = deals = 0
    while states < STATES:
        data = random_deal(rng)
        ours = ours_env.reset({k: list(v) for k, v in data.items()})
        ref = ref_env.reset({k: list(v) for k, v in data.items()})
        deals += 1
        while True:
            states += 1
            assert_same(ours, ref)
            assert ours_env.rival_move == ref_env.rival_move
            assert np.array_equal(ours_env._hands, ref_env._hands)
            action = rng.choice(ours["legal_actions"])
            ours, r1, d1, _ = ours_env.step(list(action))
            ref, r2, d2, _ = ref_env.step(list(action))
            assert (d1, r1) == (d2, r2)
            if d1:
                assert ours is None and ref is None
                break
    assert deals >= 20


def test_seeded_deals_repeat_and_actions_are_checked() -> None:
    a, b = Env("wp", seed=3), Env("wp", seed=3)
    for _ in range(3):
        oa, ob = a.reset(), b.reset()
        assert_same(oa, ob)
    assert not np.array_equal(Env("wp", seed=4).reset()["x_no_action"], oa["x_no_action"])
    with pytest.raises(ValueError, match="no DouZero card"):
        a.step([99])
    with pytest.raises(ValueError, match="legal_actions"):
        a.step([])  # no pass when leading
    # A refused action changes nothing.
    assert_same(a._observe(), oa)
    with pytest.raises(RuntimeError, match="reset"):
        Env().step([3])
