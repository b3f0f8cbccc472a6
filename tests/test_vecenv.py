"""`ddz.VecEnv`: batched deals stepped by legal index (docs/rl.md).

The secrecy property (hidden cards swapped, no observation changes) runs
in Rust on the same observation writer for every preset the table plays:
`cargo test -p ddz-core vecenv`.
"""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz._ddz import Table


def random_actions(obs: dict, rng: np.random.Generator) -> np.ndarray:
    counts = np.diff(obs["legal_offsets"])
    return (rng.random(len(counts)) * counts).astype(np.int64)


def test_a_run_is_the_same_whatever_the_thread_count() -> None:
    runs = []
    for threads in (1, 2):
        env = ddz.VecEnv("classic", 24, seed=5, threads=threads)
        rng = np.random.default_rng(0)
        obs = env.reset()
        seen = [obs]
        for _ in range(120):
            obs, rewards, terminated, info = env.step(random_actions(obs, rng))
            seen.append({**obs, "rewards": rewards, "terminated": terminated, **info})
        runs.append(seen)
    for a, b in zip(*runs):
        assert a.keys() == b.keys()
        for key in a:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_shapes_and_dtypes() -> None:
    env = ddz.VecEnv("classic", 5, history=4)
    obs = env.reset()
    m = int(obs["legal_offsets"][-1])
    want = {
        "seat": ((5,), np.int8),
        "phase": ((5,), np.int8),
        "hand": ((5, 16), np.uint8),
        "cards_left": ((5, 3), np.int16),
        "played": ((5, 3, 16), np.uint8),
        "seen": ((5, 3), np.bool_),
        "seen_hands": ((5, 3, 16), np.uint8),
        "kitty": ((5, 16), np.uint8),
        "to_beat": ((5, 16), np.uint8),
        "trick": ((5, 3, 16), np.uint8),
        "trick_state": ((5, 3), np.int8),
        "recent": ((5, 4, 16), np.uint8),
        "recent_kind": ((5, 4), np.int8),
        "roles": ((5, len(env.role_keys)), np.int16),
        "multiplier": ((5,), np.int64),
        "legal_offsets": ((6,), np.int64),
        "legal_cards": ((m, 16), np.uint8),
        "legal_kind": ((m,), np.int8),
    }
    for key, (shape, dtype) in want.items():
        assert obs[key].shape == shape, key
        assert obs[key].dtype == dtype, key
    assert env.role_keys == ["bid", "landlord"]
    # Every env starts bidding: the legal actions are bids and a pass.
    names = [ddz.VecEnv.kind_names[k] for k in obs["legal_kind"]]
    assert set(names) <= {"bid", "pass"}
    assert (obs["phase"] == ddz.VecEnv.phase_names.index("bid")).all()


def check_against_the_table(env: ddz.VecEnv, obs: dict) -> None:
    """Each env's arrays say what the table's own observation says."""
    rules = ddz.Rules(env.preset)
    n = env.players
    for i in range(env.num_envs):
        seen = env.observation(i)
        seat = seen["seat"]
        assert obs["seat"][i] == seat
        assert ddz.VecEnv.phase_names[obs["phase"][i]] == seen["phase"]
        hand = rules.cards(seen["hand"]) if seen["hand"] else None
        want = hand.counts if hand is not None else np.zeros(16, np.uint8)
        np.testing.assert_array_equal(obs["hand"][i], want)
        sizes = [seen["hand_sizes"][(seat + j) % n] for j in range(n)]
        assert obs["cards_left"][i].tolist() == sizes
        lo, hi = obs["legal_offsets"][i], obs["legal_offsets"][i + 1]
        assert hi - lo == len(seen["legal_actions"])
        if seen["to_beat"] is None:
            assert obs["to_beat_kind"][i] == -1
        else:
            beat = rules.cards(seen["to_beat"].split("=")[0]).counts
            np.testing.assert_array_equal(obs["to_beat"][i], beat)
        for j, key in enumerate(env.role_keys):
            if seen.get(key) is None:
                assert obs["roles"][i, j] == -1, key


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_every_preset_steps_to_settled_deals(preset: str) -> None:
    env = ddz.VecEnv(preset, 16, seed=1, threads=2)
    rng = np.random.default_rng(1)
    obs = env.reset()
    n = env.players
    ended = 0
    for step in range(300):
        if step % 50 == 0:
            check_against_the_table(env, obs)
        # Every env has a seat to act (a deal won as dealt is skipped).
        assert (np.diff(obs["legal_offsets"]) > 0).all()
        obs, rewards, terminated, info = env.step(random_actions(obs, rng))
        assert rewards.shape == (16, n) and terminated.shape == (16,)
        done = terminated.nonzero()[0]
        ended += len(done)
        assert (info["scores"][done].sum(axis=1) == 0).all()
        np.testing.assert_array_equal(rewards[done], info["scores"][done])
        assert (rewards[~terminated] == 0).all()
        assert (info["length"][done] > 0).all()
        assert (info["multiplier"][done] >= 1).all()
        # A finished env shows its next deal at once: nothing played yet.
        assert (obs["played"][done] == 0).all()
    assert ended > 0


def test_a_deal_won_as_dealt_is_skipped() -> None:
    # Series 32's first six-player-3v3 deal is an auto-win: nobody decides.
    assert Table(ddz.Rules("six-player-3v3"), seed=32).phase == "over"
    env = ddz.VecEnv("six-player-3v3", 2, seed=31)
    obs = env.reset()
    assert (np.diff(obs["legal_offsets"]) > 0).all()
    assert env.phase_names[obs["phase"][1]] != "over"


def test_auto_reset_counts_each_envs_deals() -> None:
    env = ddz.VecEnv("classic", 4, seed=2, threads=1)
    rng = np.random.default_rng(2)
    obs = env.reset()
    deals = np.zeros(4, np.int64)
    for _ in range(800):
        obs, _, terminated, info = env.step(random_actions(obs, rng))
        for i in terminated.nonzero()[0]:
            assert info["episode"][i] == deals[i]
            deals[i] += 1
            winners = info["winners"][i].nonzero()[0].tolist()
            landlord = info["landlord"][i]
            assert (landlord in winners) != (len(winners) == 2)
    assert (deals >= 2).all()
    # reset() starts every series again.
    again = env.reset()
    first = ddz.VecEnv("classic", 4, seed=2, threads=1).reset()
    for key in again:
        np.testing.assert_array_equal(again[key], first[key], err_msg=key)


def test_env_i_deals_the_table_seeded_seed_plus_i() -> None:
    env = ddz.VecEnv("classic", 3, seed=10)
    for i in range(3):
        table = Table(ddz.Rules("classic"), seed=10 + i)
        assert env.observation(i)["hand"] == table.observation(table.to_act)["hand"]


def test_win_split_rewards_split_each_sides_one_and_sum_to_zero() -> None:
    env = ddz.VecEnv("classic", 8, seed=3, reward="win_split")
    rng = np.random.default_rng(3)
    obs = env.reset()
    ended = 0
    for _ in range(300):
        obs, rewards, terminated, info = env.step(random_actions(obs, rng))
        done = terminated.nonzero()[0]
        ended += len(done)
        winners = info["winners"][done]
        won = winners.sum(axis=1, keepdims=True)
        want = np.where(winners, 1.0 / won, -1.0 / (3 - won))
        np.testing.assert_allclose(rewards[done], want)
        np.testing.assert_allclose(rewards[done].sum(axis=1), 0, atol=1e-6)
    assert ended > 0


@pytest.mark.parametrize("preset", ["classic", "four-player"])
def test_win_and_adp_rewards_pay_every_seat_of_a_side_alike(preset: str) -> None:
    # "win": +1 to every winner, -1 to every loser (DouZero's per-seat objective);
    # "adp": the same signs times 2**bombs, the bombs in info.
    win = ddz.VecEnv(preset, 8, seed=3, reward="win")
    adp = ddz.VecEnv(preset, 8, seed=3, reward="adp")
    rng = np.random.default_rng(3)
    obs = win.reset()
    adp.reset()
    ended = 0
    for _ in range(300):
        actions = random_actions(obs, rng)
        obs, rewards, terminated, info = win.step(actions)
        _, adp_rewards, _, adp_info = adp.step(actions)
        done = terminated.nonzero()[0]
        ended += len(done)
        want = np.where(info["winners"][done], 1.0, -1.0)
        np.testing.assert_array_equal(rewards[done], want)
        np.testing.assert_array_equal(adp_info["bombs"], info["bombs"])
        scale = 2.0 ** info["bombs"][done][:, None]
        np.testing.assert_array_equal(adp_rewards[done], want * scale)
    assert ended > 0


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = ddz.VecEnv("classic", 3, seed=0)
    obs = env.reset()
    counts = np.diff(obs["legal_offsets"])
    bad = np.zeros(3, np.int64)
    bad[2] = counts[2]
    with pytest.raises(ValueError, match=r"actions\[2\] is .*env 2 has"):
        env.step(bad)
    with pytest.raises(ValueError, match="env 1"):
        env.step([0, -1, 0])
    with pytest.raises(ValueError, match=r"shape \(3,\), one per env, not \(2,\)") as wrong:
        env.step([0, 0])
    assert type(wrong.value) is ValueError  # the shape, not an illegal action
    with pytest.raises(TypeError, match="integers"):
        env.step([0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"shape \(3,\), one per env, not \(3, 1\)"):
        env.step(np.zeros((3, 1), np.int64))
    # An unsigned value past int64 is named as it is, not wrapped negative.
    with pytest.raises(ValueError, match=r"actions\[0\] is 9223372036854775813, not a legal"):
        env.step(np.full(3, 2**63 + 5, np.uint64))
    with pytest.raises(ValueError, match=r"actions\[1\] is 18446744073709551615"):
        env.step(np.array([0, 2**64 - 1, 0], np.uint64))
    after = env.observe()
    for key in obs:
        np.testing.assert_array_equal(obs[key], after[key], err_msg=key)
    env.step(np.zeros(3, np.int32))  # any integer dtype


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        ddz.VecEnv("classic", 0)
    with pytest.raises(ValueError, match="reward"):
        ddz.VecEnv("classic", 1, reward="points")
    with pytest.raises(ValueError, match="threads"):
        ddz.VecEnv("classic", 1, threads=0)
    with pytest.raises(ValueError, match="history"):
        ddz.VecEnv("classic", 1, history=10_000)
    with pytest.raises(ValueError, match="unknown preset|preset"):
        ddz.VecEnv("no-such-game", 1)
    with pytest.raises(TypeError, match="preset name or a ddz.Rules"):
        ddz.VecEnv(3, 1)  # type: ignore[arg-type]
    others = [p for p in ddz.PRESETS if p not in ddz.PRESETS]
    for preset in others:
        with pytest.raises(ValueError, match="does not play"):
            ddz.VecEnv(preset, 1)
