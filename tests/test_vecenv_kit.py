"""`ddz.VecEnv`'s kit for a learner (docs/rl.md): opponents inside the step,
truncation, fixed action ids and masks, whose rewards, final observations."""

from __future__ import annotations

import numpy as np
import pytest

import ddz

PASS = ddz.VecEnv.kind_names.index("pass")
BID = ddz.VecEnv.kind_names.index("bid")
CALL = ddz.VecEnv.kind_names.index("call")
DECLINES = [i for i, n in enumerate(ddz.VecEnv.kind_names) if n.startswith("no-")]


def random_actions(obs: dict, rng: np.random.Generator) -> np.ndarray:
    counts = np.diff(obs["legal_offsets"])
    return (rng.random(len(counts)) * counts).astype(np.int64)


def greedy_pick(kinds: np.ndarray) -> int:
    """`GreedyAgent`'s choice among one env's legal kinds, in the step's order
    (the plays first, smallest first): the first play, else the lowest bid or a
    call, else a decline, else pass, else the first."""
    for want in (lambda k: k < PASS, lambda k: k in (BID, CALL), lambda k: k in DECLINES):
        hits = [i for i, k in enumerate(kinds) if want(k)]
        if hits:
            return hits[0]
    return [i for i, k in enumerate(kinds) if k == PASS][0] if PASS in kinds else 0


def greedy_batch(obs: dict) -> np.ndarray:
    """The greedy player as a batch policy: one index per env of `obs`."""
    off = obs["legal_offsets"]
    return np.array(
        [greedy_pick(obs["legal_kind"][off[i] : off[i + 1]]) for i in range(len(off) - 1)],
        np.int64,
    )


def test_opponents_play_inside_the_step_and_the_learner_sees_only_its_seat() -> None:
    env = ddz.VecEnv("classic", 32, seed=4, seats=[0], opponents="greedy", reward_for="acting")
    assert env.seats == [0] and env.reward_for == "acting"
    rng = np.random.default_rng(4)
    obs = env.reset()
    ended = 0
    for _ in range(200):
        assert (obs["seat"] == 0).all()
        obs, rewards, done, info = env.step(random_actions(obs, rng))
        assert rewards.shape == (32,)
        ended += int(done.sum())
        np.testing.assert_array_equal(rewards[done], info["scores"][done, 0])
        assert (rewards[~done] == 0).all()
    assert ended > 50


def test_a_callable_opponent_is_asked_for_every_waiting_env_at_once() -> None:
    asked: list[np.ndarray] = []

    def greedy(obs: dict) -> np.ndarray:
        asked.append(obs["env"])
        assert (obs["seat"] != 0).all()
        assert len(obs["legal_offsets"]) == len(obs["env"]) + 1
        return greedy_batch(obs)

    built_in = ddz.VecEnv("classic", 24, seed=9, seats=0, opponents="greedy", threads=2)
    mine = ddz.VecEnv("classic", 24, seed=9, seats=0, opponents=greedy, threads=2)
    rng = np.random.default_rng(0)
    a, b = built_in.reset(), mine.reset()
    for _ in range(120):
        for key in a:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        actions = random_actions(a, rng)
        a, ra, da, ia = built_in.step(actions)
        b, rb, db, ib = mine.step(actions)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ia["scores"], ib["scores"])
    # One call per round of waiting envs, never one per env.
    assert len(asked) < 120 * 24 / 4
    assert max(len(e) for e in asked) > 8


def test_opponents_by_seat_and_bad_opponents() -> None:
    env = ddz.VecEnv("five-player", 8, seats=[1, 3], opponents=["greedy", "random", "greedy"])
    assert env.seats == [1, 3]
    obs = env.reset()
    assert set(obs["seat"].tolist()) <= {1, 3}
    with pytest.raises(ValueError, match="lists 2 players; the learner leaves 3"):
        ddz.VecEnv("five-player", 1, seats=[1, 3], opponents=["greedy", "random"])
    with pytest.raises(ValueError, match="unknown policy .best."):
        ddz.VecEnv("classic", 1, seats=[0], opponents="best")
    with pytest.raises(TypeError, match="agent"):
        ddz.VecEnv("classic", 1, seats=[0], opponents=ddz.agents.GreedyAgent())
    with pytest.raises(ValueError, match="not a seat"):
        ddz.VecEnv("classic", 1, seats=[3])
    with pytest.raises(ValueError, match="twice"):
        ddz.VecEnv("classic", 1, seats=[0, 0])
    with pytest.raises(ValueError, match="name the learner's with seats"):
        ddz.VecEnv("classic", 1, opponents="greedy")
    with pytest.raises(ValueError, match="must return 2 legal indices"):
        ddz.VecEnv("classic", 2, seats=[0], opponents=lambda obs: [0])
    with pytest.raises(ValueError, match="the answer for env"):
        ddz.VecEnv("classic", 2, seats=[0], opponents=lambda obs: np.full(len(obs["env"]), 99))


def test_every_deal_ends_or_is_cut() -> None:
    # Action 0 for ever: everyone passes the auction, dealt again and again.
    env = ddz.VecEnv("classic", 4, step_api="gymnasium")
    assert env.max_redeals == 10 and env.max_decisions is None
    cut = 0
    for _ in range(200):
        obs, rewards, terminated, truncated, info = env.step(np.zeros(4, np.int64))
        assert not (terminated & truncated).any()
        cut += int(truncated.sum())
        assert (rewards[truncated] == 0).all()
        assert (info["length"][truncated] == 33).all()  # 11 deals of three passes
    assert cut >= 4 * 5
    short = ddz.VecEnv("classic", 8, max_decisions=6, seats=[0], opponents="random")
    rng = np.random.default_rng(1)
    obs = short.reset()
    steps = np.zeros(8, np.int64)
    for _ in range(100):
        obs, _, done, info = short.step(random_actions(obs, rng))
        steps += 1
        assert (steps[info["truncated"]] == 6).all()
        assert (steps[done] <= 6).all()
        steps[done] = 0
    with pytest.raises((TypeError, OverflowError)):
        ddz.VecEnv("classic", 1, max_redeals=-1)


def test_legal_ids_and_masks_name_the_same_actions() -> None:
    env = ddz.VecEnv("laizi", 6, seed=2, action_mask=True, copy=False)
    table = env.action_table
    assert table is not None and len(table) == 555_473
    rng = np.random.default_rng(2)
    obs = env.observe()
    for _ in range(60):
        off, ids = obs["legal_offsets"], obs["legal_ids"]
        assert obs["action_mask"].shape == (6, len(table))
        for i in range(6):
            mine = ids[off[i] : off[i + 1]]
            assert sorted(np.flatnonzero(obs["action_mask"][i]).tolist()) == sorted(mine.tolist())
            cols = table.columns(mine)
            for key in ("kind", "rank", "length", "cards", "represents"):
                np.testing.assert_array_equal(cols[key], obs[f"legal_{key}"][off[i] : off[i + 1]])
        picks = random_actions(obs, rng)
        by_id = ids[off[:-1] + picks]
        obs, *_ = env.step(by_id, by="id")
    with pytest.raises(ValueError, match=r"actions\[0\] is -1: action id -1 is not legal"):
        env.step(np.full(6, -1), by="id")
    with pytest.raises(ValueError, match="by must be"):
        env.step(np.zeros(6, np.int64), by="slot")
    assert "legal_ids" in ddz.VecEnv("classic", 1, action_mask=True).observe()
    assert "legal_ids" not in ddz.VecEnv("classic", 1).observe()
    with pytest.raises(ValueError, match="legal_ids=True to step by id"):
        ddz.VecEnv("classic", 1).step([0], by="id")


def test_stepping_by_id_is_stepping_by_index() -> None:
    a = ddz.VecEnv("classic", 8, seed=6)
    b = ddz.VecEnv("classic", 8, seed=6, legal_ids=True)
    rng = np.random.default_rng(6)
    oa = ob = a.reset()
    ob = b.reset()
    for _ in range(100):
        picks = random_actions(oa, rng)
        ids = ob["legal_ids"][ob["legal_offsets"][:-1] + picks]
        oa, *_ = a.step(picks)
        ob, *_ = b.step(ids, by="id")
        for key in oa:
            np.testing.assert_array_equal(oa[key], ob[key], err_msg=key)
        assert ob.keys() - oa.keys() == {"legal_ids"}


def test_the_final_observation_is_the_acting_seats_view_of_the_end() -> None:
    env = ddz.VecEnv("classic", 16, seed=1, seats=[2], opponents="random", final_obs=True)
    rng = np.random.default_rng(1)
    obs = env.reset()
    ended = 0
    for _ in range(150):
        obs, _, done, info = env.step(random_actions(obs, rng))
        final = info["final_obs"]
        assert final.keys() == {k for k in obs if not k.startswith("legal_")}
        assert (final["seat"][done] == 2).all()
        # The deal is over: someone's hand is empty.
        assert (final["cards_left"][done & ~info["truncated"]].min(axis=1) == 0).all()
        ended += int(done.sum())
    assert ended > 0


def test_the_douzero_protocol_hands_the_learner_the_play_only() -> None:
    env = ddz.VecEnv("classic", 8, protocol="douzero", seats=[0], opponents="greedy")
    play = ddz.VecEnv.phase_names.index("play")
    rng = np.random.default_rng(3)
    obs = env.reset()
    for _ in range(100):
        assert (obs["phase"] == play).all()
        obs, _, done, info = env.step(random_actions(obs, rng))
        assert (info["landlord"][done] == 0).all()
    with pytest.raises(ValueError, match="protocol"):
        ddz.VecEnv("classic", 1, protocol="auction")
    with pytest.raises(ValueError, match="one-landlord"):
        ddz.VecEnv("five-player", 1, protocol="douzero")


def test_the_default_thread_count_follows_the_batch() -> None:
    assert ddz.VecEnv("classic", 256).threads == 1
    big = ddz.VecEnv("classic", 1024).threads
    assert 1 <= big <= max(1, ddz._ddz.default_threads())
    assert ddz.VecEnv("classic", 16, threads=2).threads == 2


def test_a_gymnasium_step_returns_five_values() -> None:
    env = ddz.VecEnv("classic", 4, step_api="gymnasium")
    out = env.step(np.zeros(4, np.int64))
    assert len(out) == 5 and "truncated" not in out[4]
    with pytest.raises(ValueError, match="step_api"):
        ddz.VecEnv("classic", 1, step_api="gym")
    with pytest.raises(ValueError, match="reward_for"):
        ddz.VecEnv("classic", 1, reward_for="team")
