"""`ddz.envs.douzero.Env` against DouZero 1.1.0's own `Env`, state by state.

Random deals are played in both engines with the same actions (drawn among the
actions both list). At every state `x_no_action` and `z` must be equal, and the
`x_batch` / `z_batch` rows of every action both list. The action lists may
differ only by DouZero's known defects: each state's lists go through
`test_douzero_diff.compare`, which names every difference between the two
move generators for that hand and play to beat (duplicates, four-of-a-rank
wings, wing trios compared or not detected, one reading per card set).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("douzero")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from douzero.env.env import Env as DouZeroEnv  # noqa: E402
from douzero.env.env import get_obs  # noqa: E402
from test_douzero_diff import RULES, compare  # noqa: E402

from ddz.envs.douzero import Env, cards_of, counts_of, random_deal  # noqa: E402

STATES = 5_000
SEED = 13


def douzero_reset(env: DouZeroEnv, data: dict) -> dict:
    """DouZero's own reset, with a given deal instead of numpy's shuffle."""
    env._env.reset()
    env._env.card_play_init({k: sorted(v) for k, v in data.items()})
    env.infoset = env._game_infoset
    return get_obs(env.infoset)


def test_same_features_as_douzero_state_by_state() -> None:
    rng = random.Random(SEED)
    ours_env, theirs_env = Env("adp"), DouZeroEnv("adp")
    seen: Counter = Counter()
    states = deals = 0
    while states < STATES:
        data = random_deal(rng)
        ours = ours_env.reset({k: list(v) for k, v in data.items()})
        theirs = douzero_reset(theirs_env, data)
        deals += 1
        while True:
            states += 1
            assert ours["position"] == theirs["position"]
            for key in ("x_no_action", "z"):
                assert ours[key].dtype == theirs[key].dtype, key
                np.testing.assert_array_equal(ours[key], theirs[key], err_msg=key)
            mine = {tuple(sorted(a)): i for i, a in enumerate(ours["legal_actions"])}
            both = []
            for j, a in enumerate(theirs["legal_actions"]):
                i = mine.get(tuple(sorted(a)))
                if i is None:
                    continue
                both.append(a)
                for key in ("x_batch", "z_batch"):
                    assert ours[key].dtype == theirs[key].dtype
                    np.testing.assert_array_equal(ours[key][i], theirs[key][j], err_msg=key)
            theirs_listed = Counter(tuple(sorted(a)) for a in theirs["legal_actions"])
            assert len(mine) == len(ours["legal_actions"])  # ddz lists each card set once
            if theirs_listed != Counter(mine.keys()):
                # Every difference of the two lists is a named DouZero defect.
                seen["states whose lists differ"] += 1
                seat = ["landlord", "landlord_down", "landlord_up"].index(ours["position"])
                hand = RULES.cards(ours_env._hands[seat].astype(np.uint8))
                hand_dz = tuple(sorted(theirs_env.infoset.player_hand_cards))
                compare(hand, hand_dz, ours_env.rival_move, seen, {})
                # ... and ours is exactly ddz's move generator's answer.
                prev = ours_env.rival_move
                moves = RULES.moves(hand, prev) if prev is not None else RULES.moves(hand)
                engine = {tuple(cards_of(m.cards.counts)) for m in moves}
                assert set(mine) == engine | ({()} if prev is not None else set())
            action = rng.choice(both)
            ours, r1, d1, _ = ours_env.step(list(action))
            theirs, r2, d2, _ = theirs_env.step(list(action))
            assert d1 == d2
            if d1:
                assert r1 == r2
                break
    assert states >= STATES and deals >= 50
    print(f"\n{states} states in {deals} deals; differences: {dict(seen)}")


def test_bad_actions_and_deals_are_refused() -> None:
    env = Env("wp", seed=1)
    obs = env.reset()
    with pytest.raises(ValueError, match="legal_actions"):
        env.step([3, 3, 3, 3, 3])
    assert env.step(obs["legal_actions"][0])[0]["position"] == "landlord_down"
    with pytest.raises(ValueError, match="objective"):
        Env("win")
    with pytest.raises(ValueError, match="whole 54-card deck"):
        env.reset(
            {
                "landlord": [3] * 20,
                "landlord_up": [4] * 17,
                "landlord_down": [5] * 17,
                "three_landlord_cards": [3, 3, 3],
            }
        )
    assert counts_of([3, 17, 30])[[0, 12, 14]].tolist() == [1, 1, 1]
