"""Padded candidates, the side tensor and the built-in baselines of the RL kit
(docs/rl.md, issue 51)."""

from __future__ import annotations

import numpy as np
import pytest

import ddz


def test_padded_candidates_hold_the_csr_rows() -> None:
    env = ddz.VecEnv("laizi", 6, seed=4, max_actions=5000, copy=False)
    assert env.max_actions == 5000
    rng = np.random.default_rng(4)
    obs = env.observe()
    for _ in range(40):
        off = obs["legal_offsets"]
        counts = np.diff(off)
        assert obs["padded_ids"].shape == (6, 5000) and obs["padded_cards"].shape == (6, 5000, 16)
        np.testing.assert_array_equal(obs["padded_mask"].sum(1), counts)
        for i in range(6):
            n = counts[i]
            np.testing.assert_array_equal(
                obs["padded_ids"][i, :n], obs["legal_ids"][off[i] : off[i + 1]]
            )
            assert (obs["padded_ids"][i, n:] == -1).all() and not obs["padded_mask"][i, n:].any()
            for key in ("cards", "represents", "kind", "rank", "length"):
                np.testing.assert_array_equal(
                    obs[f"padded_{key}"][i, :n], obs[f"legal_{key}"][off[i] : off[i + 1]]
                )
        picks = (rng.random(6) * counts).astype(np.int64)
        ids = obs["padded_ids"][np.arange(6), picks]
        obs, *_ = env.step(ids, by="id")


def test_too_many_legal_actions_for_max_actions_is_named() -> None:
    env = ddz.VecEnv("classic", 2, seed=1, max_actions=2)
    with pytest.raises(ValueError, match=r"env 0 has 4 legal actions, more than max_actions=2"):
        env.observe()
    with pytest.raises(ValueError, match="max_actions must be at least 1"):
        ddz.VecEnv("classic", 1, max_actions=0)


@pytest.mark.parametrize("preset", ["classic", "four-player", "five-player", "six-player-3v3"])
def test_the_side_tensor_agrees_with_the_deal(preset: str) -> None:
    env = ddz.VecEnv(preset, 8, seed=2, final_obs=True)
    rng = np.random.default_rng(2)
    obs = env.observe()
    players = env.players
    settled = 0
    for _ in range(150):
        for i in range(8):
            side, partners, known = obs["side"][i], obs["partners"][i], obs["partners_known"][i]
            if side < 0:
                assert not known.any() and not partners.any()
                continue
            settled += 1
            assert known[0] and partners[0]  # the viewer knows its own side
            assert not (partners & ~known).any()
            if preset in ("classic", "four-player"):
                # One open landlord: every side is known, the landlord alone on side 1.
                assert known.all()
                n_partners = 1 if side == 1 else players - 1
                assert partners.sum() == n_partners
        off = obs["legal_offsets"]
        picks = (rng.random(8) * np.diff(off)).astype(np.int64)
        obs, *_ = env.step(picks)
    assert settled > 0


def test_rule_and_search_playouts_are_policy_names() -> None:
    # RLCard's rule agent beats greedy about 0.71 of deals (docs/bots.md).
    r = ddz.evaluate("classic", "rule", "greedy", deals=200, protocol="douzero")
    assert r["overall"]["wp"]["value"] > 0.6
    ddz.simulate("classic", 20, policy="rule")
    ddz.simulate("four-player", 20, policy="rule")
    with pytest.raises(ValueError, match="search:playouts=N"):
        ddz.simulate("classic", 1, policy="search:playouts=0")
    game = ddz.Game("classic", seed=3)
    agent = ddz.agents.RuleAgent(seed=1)
    while game.phase != "over":
        seat = game.to_act
        via_observation = agent.act(game.observation(seat), game.legal_actions())
        assert via_observation in game.legal_actions()
        game.step(ddz.agents.decide(agent, game))


def test_search_opponents_use_every_thread_and_agents_become_policies() -> None:
    env = ddz.VecEnv("classic", 2, seats=[0], opponents="search:playouts=8")
    assert env.threads == ddz.default_threads()
    agent = ddz.agents.SearchAgent(playouts=8, budget_ms=0)
    a = ddz.VecEnv("classic", 4, seed=5, seats=[0], opponents=agent, threads=2)
    b = ddz.VecEnv("classic", 4, seed=5, seats=[0], opponents="search:playouts=8", threads=1)
    for _ in range(8):
        oa, *_ = a.step(np.zeros(4, np.int64))
        ob, *_ = b.step(np.zeros(4, np.int64))
        np.testing.assert_array_equal(oa["hand"], ob["hand"])  # same decisions, any threads


def test_seat_env_takes_the_new_policy_names() -> None:
    pytest.importorskip("gymnasium")
    from ddz.envs.gymnasium import SeatEnv

    for opponents in ("rule", "search:playouts=4"):
        env = SeatEnv("classic", seat=0, opponents=opponents)
        obs, _ = env.reset(seed=0)
        for _ in range(10):
            obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            if terminated or truncated:
                obs, _ = env.reset()


def test_the_server_seats_rule_bots() -> None:
    pytest.importorskip("starlette")
    from ddz.serve.bots import BOT_KINDS, decide

    assert BOT_KINDS["rule"].inline
    rules = ddz.Rules("classic")
    game = ddz.Game(rules, seed=5)
    step = 0
    while game.phase != "over":
        action = decide("rule", rules, game, seed=step)
        assert action in game.legal_actions()
        game.step(action)
        step += 1
