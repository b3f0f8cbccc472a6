"""DouZero's actor loop (`douzero.dmc.utils.act`) on `ddz.envs.douzero.Env`.

    python examples/douzero_actor.py [--deals N]

DouZero's own `act` needs torch (its model, buffers and queues are torch tensors),
so this keeps its loop step for step -- per-position buffers of `x_no_action`,
`z` and the action's 54 features, targets filled in when a deal ends, the
landlord's return negated for the farmers -- with a numpy stand-in for the
model: a random linear scorer over `x_batch` and `z_batch`, epsilon-greedy.
DouZero's `Env(objective)` plugs in unchanged: `env = Env("adp")`.
"""

from __future__ import annotations

import argparse

import numpy as np

from ddz.envs.douzero import Env, counts_of, encode

POSITIONS = ("landlord", "landlord_up", "landlord_down")


class StandInModel:
    """`forward(position, z_batch, x_batch)` as DouZero's model: one value per action."""

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w = {p: rng.normal(size=(319 if p == "landlord" else 430) + 54) for p in POSITIONS}
        self.v = {p: rng.normal(size=162) for p in POSITIONS}
        self.rng = rng

    def forward(self, position, z_batch, x_batch, exp_epsilon=0.01):
        values = x_batch @ self.w[position] + z_batch.mean(axis=1) @ self.v[position]
        if self.rng.random() < exp_epsilon:
            return {"action": int(self.rng.integers(len(values)))}
        return {"action": int(np.argmax(values))}


def act(env, model, deals: int, unroll_length: int = 100):
    """DouZero's actor loop for `deals` deals; returns the filled buffers' sizes."""
    done_buf = {p: [] for p in POSITIONS}
    episode_return_buf = {p: [] for p in POSITIONS}
    target_buf = {p: [] for p in POSITIONS}
    obs_x_no_action_buf = {p: [] for p in POSITIONS}
    obs_action_buf = {p: [] for p in POSITIONS}
    obs_z_buf = {p: [] for p in POSITIONS}
    size = {p: 0 for p in POSITIONS}
    obs = env.reset()
    for _ in range(deals):
        episode_return = 0.0
        while True:
            position = obs["position"]
            obs_x_no_action_buf[position].append(obs["x_no_action"])
            obs_z_buf[position].append(obs["z"])
            out = model.forward(position, obs["z_batch"], obs["x_batch"])
            action = obs["legal_actions"][out["action"]]
            obs_action_buf[position].append(encode(counts_of(action)))
            size[position] += 1
            obs, reward, done, _ = env.step(action)
            episode_return += reward
            if done:
                for p in POSITIONS:
                    diff = size[p] - len(target_buf[p])
                    if diff > 0:
                        done_buf[p].extend([False] * (diff - 1) + [True])
                        ret = episode_return if p == "landlord" else -episode_return
                        episode_return_buf[p].extend([0.0] * (diff - 1) + [ret])
                        target_buf[p].extend([ret] * diff)
                obs = env.reset()
                break
    # DouZero copies full unrolls of `unroll_length` steps into its shared buffers.
    return {p: (len(target_buf[p]), len(target_buf[p]) // unroll_length) for p in POSITIONS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    filled = act(Env("adp", seed=0), StandInModel(), args.deals)
    for p, (steps, unrolls) in filled.items():
        print(f"{p:<14} {steps:>6} steps, {unrolls} unrolls of 100")


if __name__ == "__main__":
    main()
