"""`ddz.envs.pettingzoo`: the AEC env of every preset (docs/rl.md)."""

from __future__ import annotations

import numpy as np
import pytest

import ddz

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from ddz.envs.pettingzoo import env, parallel_env  # noqa: E402

ONE_DECK = ("classic", "two-player", "laizi")


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_api_test_passes(preset: str) -> None:
    e = env(preset)
    api_test(e, num_cycles=1000)
    assert e.form.name == ("table" if preset in ONE_DECK else "candidates")


def legal_set(e) -> set:
    """The VecEnv's own legal actions of the moment, as comparable tuples."""
    o = e._deal.vec.observe()
    m = int(o["legal_offsets"][1])
    return {
        (int(o["legal_kind"][i]), int(o["legal_rank"][i]), int(o["legal_length"][i]))
        + tuple(o["legal_cards"][i])
        + tuple(o["legal_represents"][i])
        for i in range(m)
    }


def decoded(columns: dict, picks) -> set:
    return {
        (int(columns["kind"][i]), int(columns["rank"][i]), int(columns["length"][i]))
        + tuple(columns["cards"][i])
        + tuple(columns["represents"][i])
        for i in picks
    }


@pytest.mark.parametrize("preset", ONE_DECK)
@pytest.mark.parametrize("actions", ["table", "candidates"])
def test_the_mask_is_exactly_the_legal_actions(preset: str, actions: str) -> None:
    e = env(preset, actions=actions)
    rng = np.random.default_rng(1)
    steps = 0
    for deal in range(6):
        e.reset(seed=deal)
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            if actions == "table":
                cols = e.action_table.columns(legal)
                assert decoded(cols, range(len(legal))) == legal_set(e)
            else:
                o = obs["observation"]
                cols = {k: o[f"legal_{k}"] for k in ("kind", "rank", "length", "cards")}
                cols["represents"] = o["legal_represents"]
                assert (o["legal_kind"][len(legal) :] == -1).all()
                if len(legal_set(e)) > e.form.size:
                    # A laizi lead of more plays than slots: the first plays kept.
                    assert decoded(cols, legal) < legal_set(e)
                    assert len(legal) == e.form.size
                    e.step(int(rng.choice(legal)))
                    continue
                assert decoded(cols, legal) == legal_set(e)
            assert len(legal) == len(legal_set(e))
            e.step(int(rng.choice(legal)))
            steps += 1
    assert steps > 100


def test_an_illegal_action_is_refused_and_nothing_moves() -> None:
    e = env("classic")
    e.reset(seed=3)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.agent_selection
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(TypeError):
        e.step("pass")
    assert e.agent_selection == before
    np.testing.assert_array_equal(e.last()[0]["action_mask"], obs["action_mask"])


def test_ids_name_the_decisions_game_takes() -> None:
    e = env("laizi")
    table = e.action_table
    assert table.action(0) == "pass" and table.action(2) == "bid:2"
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    game_words = set()
    for _agent in e.agent_iter():
        obs, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        seen = ddz.VecEnv.kind_names
        view = e._deal.vec.observation(0)
        ids = np.flatnonzero(obs["action_mask"])
        assert sorted(map(str, (table.action(int(i)) for i in ids))) == sorted(
            view["legal_actions"]
        )
        game_words |= {str(table.action(int(i))) for i in ids if i < 21}
        e.step(int(rng.choice(ids)))
    assert "pass" in game_words and seen


def test_rewards_are_the_deal_scores_and_seeds_replay() -> None:
    def run(seed: int):
        e = env("classic")
        e.reset(seed=seed)
        taken, total = [], {}
        for agent in e.agent_iter():
            obs, reward, terminated, _, info = e.last()
            total[agent] = reward
            if terminated:
                result = info["result"]
                e.step(None)
                continue
            a = int(np.flatnonzero(obs["action_mask"])[-1])  # always passing would redeal forever
            taken.append(a)
            e.step(a)
        return taken, total, result

    taken, total, result = run(11)
    assert run(11)[0] == taken and run(12)[0] != taken
    assert [total[f"player_{i}"] for i in range(3)] == result["scores"]
    assert sum(result["scores"]) == 0


def copy_of(obs: dict) -> dict:
    return {
        "observation": {k: v.copy() for k, v in obs["observation"].items()},
        "action_mask": obs["action_mask"].copy(),
    }


def same(a: dict, b: dict) -> bool:
    rows = a["observation"].keys() == b["observation"].keys() and all(
        np.array_equal(v, b["observation"][k]) for k, v in a["observation"].items()
    )
    return rows and np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize("preset", ONE_DECK)
def test_in_place_arrays_hold_each_agents_latest_observation(preset: str) -> None:
    """The table form writes each seat's arrays in place: they must equal the
    VecEnv's row at that seat's turn and stay as they were through the others' turns."""
    e = env(preset)
    rng = np.random.default_rng(2)
    steps = 0
    for deal in range(3):
        e.reset(seed=deal)
        kept: dict = {}
        for agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            now = e._deal.vec.observe()
            for k, v in obs["observation"].items():
                assert np.array_equal(v, now[k][0]), k
            for other, snapshot in kept.items():
                if other != agent:
                    assert same(e.observe(other), snapshot), other
            kept[agent] = copy_of(obs)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    assert steps > 50


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_the_parallel_api_test_passes(preset: str) -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(parallel_env(preset), num_cycles=400)


def test_the_parallel_form_shows_every_agent_its_own_view() -> None:
    par = parallel_env("classic")
    obs, infos = par.reset(seed=4)
    rng = np.random.default_rng(4)
    rewards: dict = {}
    while par.agents:
        acting = infos[par.agents[0]]["active_agent"]
        for agent in par.agents:
            mask = obs[agent]["action_mask"]
            assert (mask.sum() > 0) == (agent == acting)
            assert int(obs[agent]["observation"]["seat"]) == par.possible_agents.index(agent)
        legal = np.flatnonzero(obs[acting]["action_mask"])
        # Only the acting agent's action is played; the others' are ignored.
        actions = dict.fromkeys(par.agents, 0) | {acting: int(rng.choice(legal))}
        obs, rewards, terminated, truncated, infos = par.step(actions)
    assert sum(rewards.values()) == 0 and len(rewards) == 3
    assert all(terminated.values())
    with pytest.raises(ValueError, match="not legal"):
        par.reset(seed=4)
        par.step(dict.fromkeys(par.agents, len(par.action_table) - 1))
