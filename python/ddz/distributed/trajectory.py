"""Trajectories of a `VecEnv` as numpy arrays: one worker's run, and the
join of several workers' runs into the arrays of one wider env."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

import ddz

Policy = Callable[[dict[str, np.ndarray]], Any]


def _per_action(key: str) -> bool:
    """Keys with one row per legal action rather than per env (docs/rl.md)."""
    return key.startswith("legal_") and key != "legal_offsets"


def collect(env: ddz.VecEnv, policy: Policy, steps: int) -> dict:
    """Reset `env`, then `steps` steps driven by ``policy(obs) -> actions``.

    Returns ``obs`` (a dict: each per-env key as ``[steps, num_envs, ...]``;
    the legal-action keys as rows of every (step, env) in that order, with
    ``legal_offsets`` ``int64[steps * num_envs + 1]`` bounding row
    ``t * num_envs + i``), ``actions`` ``int64[steps, num_envs]``,
    ``rewards`` ``float32[steps, num_envs, players]`` and ``terminated``
    ``bool[steps, num_envs]`` (the step ended that env's deal; the env is
    already dealt again). Every array is a copy: the env may reuse its own.
    """
    n = env.num_envs
    obs = env.reset()
    per_env = {
        key: np.empty((steps, *value.shape), value.dtype)
        for key, value in obs.items()
        if not _per_action(key) and key != "legal_offsets"
    }
    legal: dict[str, list[np.ndarray]] = {key: [] for key in obs if _per_action(key)}
    counts = np.empty((steps, n), np.int64)
    actions = np.empty((steps, n), np.int64)
    rewards = np.empty((steps, n, env.players), np.float32)
    terminated = np.empty((steps, n), np.bool_)
    for t in range(steps):
        for key, rows in per_env.items():
            rows[t] = obs[key]
        for key, parts in legal.items():
            parts.append(np.array(obs[key], copy=True))
        counts[t] = np.diff(obs["legal_offsets"])
        chosen = policy({key: value.copy() for key, value in obs.items()})
        obs, reward, ended, _info = env.step(chosen, by="index")
        actions[t] = chosen
        rewards[t] = reward
        terminated[t] = ended
    empty = {key: np.empty((0, *obs[key].shape[1:]), obs[key].dtype) for key in legal}
    out_obs = {
        **per_env,
        **{key: np.concatenate(parts) if parts else empty[key] for key, parts in legal.items()},
        "legal_offsets": _offsets(counts),
    }
    return {"obs": out_obs, "actions": actions, "rewards": rewards, "terminated": terminated}


def join(runs: list[dict]) -> dict:
    """Workers' trajectories side by side, as one env whose envs are worker
    0's, then worker 1's, ...: per-env arrays joined on the env axis, the
    legal-action rows reordered to (step, env) order."""
    starts, lengths, base = [], [], 0
    for run in runs:
        # Row offsets at the first env of each step: one block per step.
        at_steps = run["obs"]["legal_offsets"][:: run["actions"].shape[1]]
        starts.append(base + at_steps[:-1])
        lengths.append(np.diff(at_steps))
        base += int(at_steps[-1])
    # Blocks in (step, worker) order.
    order = _ranges(np.stack(starts, axis=1).ravel(), np.stack(lengths, axis=1).ravel())
    obs = {
        key: np.concatenate([run["obs"][key] for run in runs], axis=1)
        for key in runs[0]["obs"]
        if not _per_action(key) and key != "legal_offsets"
    }
    for key in filter(_per_action, runs[0]["obs"]):
        obs[key] = np.concatenate([run["obs"][key] for run in runs])[order]
    counts = np.concatenate(
        [np.diff(run["obs"]["legal_offsets"]).reshape(run["actions"].shape) for run in runs],
        axis=1,
    )
    obs["legal_offsets"] = _offsets(counts)
    joined: dict[str, Any] = {"obs": obs}
    for key in ("actions", "rewards", "terminated"):
        joined[key] = np.concatenate([run[key] for run in runs], axis=1)
    return joined


def _offsets(counts: np.ndarray) -> np.ndarray:
    """CSR offsets over the rows of `counts` in C order: ``[0, c0, c0+c1, ...]``."""
    return np.concatenate([[0], np.cumsum(counts.ravel())]).astype(np.int64)


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices ``starts[k] .. starts[k] + lengths[k] - 1`` for every k, in order."""
    total = int(lengths.sum())
    begin = np.cumsum(lengths) - lengths  # where each range begins in the output
    return np.arange(total, dtype=np.int64) + np.repeat(starts - begin, lengths)
