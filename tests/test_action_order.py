"""One action order everywhere (docs/rl.md, "Legal actions and their order"):
`Game.legal_actions()`, `Table`, `VecEnv`, the PettingZoo forms and the Gymnasium
envs list the same actions in the same order, so the same index is the same
action in each. Every preset, stepped side by side with the same indices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ddz
from ddz._ddz import Table

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from ddz.envs.gymnasium import SeatEnv, VectorSeatEnv  # noqa: E402
from ddz.envs.pettingzoo import env as aec_env  # noqa: E402
from ddz.envs.pettingzoo import parallel_env  # noqa: E402


def first_playable_seed(preset: str) -> int:
    """A series whose first deal has a decision (not an auto-win)."""
    rules = ddz.Rules(preset)
    return next(s for s in range(100) if Table(rules, seed=s).phase != "over")


def game_run(preset: str, seed: int, rng: np.random.Generator) -> list[tuple[int, Any]]:
    """A deal of `Game` played by random indices, `Table` beside it: each
    decision's index and action."""
    game = ddz.Game(preset, seed=seed)
    table = Table(ddz.Rules(preset), seed=seed)
    run = []
    while game.result is None and len(run) < 400:  # (400: redealt too often)
        legal = game.legal_actions()
        assert list(table.legal_actions()) == list(legal)
        k = int(rng.integers(len(legal)))
        run.append((k, legal[k]))
        game.step(legal[k])
        table.step(legal[k])
    return run


COLUMNS = ("kind", "rank", "length", "cards", "represents")


def row_of(obs: dict, k: int) -> tuple:
    """Legal row `k` of an observation's legal columns."""
    return tuple(np.asarray(obs[f"legal_{c}"][k]).tolist() for c in COLUMNS)


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_every_form_takes_index_k_as_the_same_action(preset: str) -> None:
    seed = first_playable_seed(preset)
    run = game_run(preset, seed, np.random.default_rng(len(preset)))
    table = ddz.envs.action_table(preset)
    ids = [table.id(a) for _, a in run]
    want = [tuple(np.asarray(table.columns([i])[c][0]).tolist() for c in COLUMNS) for i in ids]

    # VecEnv: legal row k is the action, by its id and by its columns.
    vec = ddz.VecEnv(preset, 1, seed=seed, legal_ids=True)
    obs = vec.observe()
    for (k, _), i, cols in zip(run, ids, want):
        assert int(obs["legal_ids"][k]) == i and row_of(obs, k) == cols
        obs, *_ = vec.step([k], by="index")

    # PettingZoo, AEC and parallel, in the candidate form: slot k is index k.
    aec = aec_env(preset, actions="candidates")
    aec.reset(seed=seed)
    par = parallel_env(preset, actions="candidates")
    pobs, _ = par.reset(seed=seed)
    for (k, _), cols in zip(run, want):
        assert row_of(aec.observe(aec.agent_selection)["observation"], k) == cols
        aec.step(k)
        agent = par.possible_agents[par._deal.seat]
        assert row_of(pobs[agent]["observation"], k) == cols
        pobs, *_ = par.step(dict.fromkeys(par.agents, k))

    # Gymnasium, one deal: seat 0 plays slot k, the others are callables
    # answering index k of their one-env observation, in turn.
    moves = iter(zip(run, want))

    def same(obs: dict) -> int:
        move = next(moves, None)
        if move is None:  # the next deal, dealt as the last one ended
            return 0
        (k, _), cols = move
        assert row_of(obs, k) == cols
        return k

    n = ddz.Rules(preset).players
    seat = SeatEnv(preset, seat=0, opponents=[same] * (n - 1), actions="candidates")
    o, _ = seat.reset(seed=seed)
    for (k, _), cols in moves:
        assert row_of(o["observation"], k) == cols
        o, *_ = seat.step(k)

    # Gymnasium's vector env: seat 0 steps by the id of legal row k, the
    # others answer index k for their envs.
    armed = []

    def batch(obs: dict) -> list[int]:
        # (Made, the env deals a first deal of its own before the reset.)
        return [same(obs) if armed else 0]

    vector = VectorSeatEnv(preset, 1, 0, opponents=batch)
    moves = iter(zip(run, want))
    armed.append(True)
    _, infos = vector.reset(seed=seed)
    for (k, _), cols in moves:
        assert row_of(infos, k) == cols
        _, _, _, _, infos = vector.step([int(infos["legal_ids"][k])])
