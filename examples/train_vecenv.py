"""Policy gradient on `ddz.VecEnv` in numpy: seat 0 learns against random seats.

    python examples/train_vecenv.py [--steps N] [--envs N]

A linear softmax policy scores each legal action from its features (kind, cards,
rank, length; docs/rl.md's legal columns), trained with REINFORCE on the win/loss
reward (`reward="win_split"`) over 256 envs stepped together. It then plays fresh deals
against the same random seats; the random policy's win rate at seat 0 is the
baseline. A few seconds of training lift seat 0's win rate well above random.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ddz

KINDS = len(ddz.VecEnv.kind_names)
FEATURES = KINDS + 4
SEAT = 0


def features(obs: dict[str, np.ndarray]) -> np.ndarray:
    """One row per legal action: kind one-hot, cards played, rank, length, a bias."""
    kind = obs["legal_kind"].astype(np.int64)
    m = len(kind)
    phi = np.zeros((m, FEATURES), np.float32)
    phi[np.arange(m), kind] = 1.0
    phi[:, KINDS] = obs["legal_cards"].sum(axis=1) / 10.0
    phi[:, KINDS + 1] = obs["legal_rank"] / 15.0
    phi[:, KINDS + 2] = obs["legal_length"] / 10.0
    phi[:, KINDS + 3] = 1.0
    return phi


def choose(obs, w, rng, learner: bool):
    """Each env's legal index: the policy's sample at SEAT (if `learner`), else uniform.
    Also the grad of log-probability of the policy's choices, per env."""
    offsets = obs["legal_offsets"]
    counts = np.diff(offsets)
    n = len(counts)
    actions = (rng.random(n) * counts).astype(np.int64)
    grads = np.zeros((n, FEATURES), np.float32)
    mine = obs["seat"] == SEAT
    if not learner or not mine.any():
        return actions, grads, mine & False
    phi = features(obs)
    env_of = np.repeat(np.arange(n), counts)
    score = phi @ w
    top = np.maximum.reduceat(score, offsets[:-1])
    p = np.exp(score - top[env_of])
    p /= np.add.reduceat(p, offsets[:-1])[env_of]
    # Sample within each env's segment: the first row whose running total passes u.
    cum = np.cumsum(p)
    base = np.concatenate([[0.0], cum])[offsets[:-1]]
    u = base + rng.random(n) * (cum[offsets[1:] - 1] - base)
    picked = np.minimum(np.searchsorted(cum, u, side="right"), offsets[1:] - 1)
    picked = np.maximum(picked, offsets[:-1])
    actions = np.where(mine, picked - offsets[:-1], actions)
    expected = np.add.reduceat(p[:, None] * phi, offsets[:-1], axis=0)
    grads = np.where(mine[:, None], phi[picked] - expected, 0.0).astype(np.float32)
    return actions, grads, mine


def train(steps: int, envs: int = 256, seed: int = 0, lr: float = 0.3) -> np.ndarray:
    env = ddz.VecEnv("classic", envs, seed=seed, reward="win_split")
    rng = np.random.default_rng(seed)
    w = np.zeros(FEATURES, np.float32)
    trace = np.zeros((envs, FEATURES), np.float32)  # sum of grad log pi this deal
    baseline = 0.0
    obs = env.reset()
    for _ in range(steps):
        actions, grads, _ = choose(obs, w, rng, learner=True)
        trace += grads
        obs, rewards, terminated, _ = env.step(actions)
        if terminated.any():
            ret = rewards[terminated, SEAT]
            adv = ret - baseline
            w += lr * (adv[:, None] * trace[terminated]).mean(axis=0)
            baseline += 0.01 * float(ret.mean() - baseline)
            trace[terminated] = 0.0
    return w


def win_rate(w: np.ndarray | None, deals: int, envs: int = 256, seed: int = 10**6) -> float:
    """Seat 0's win rate over `deals` finished deals (policy `w`; None: random)."""
    env = ddz.VecEnv("classic", envs, seed=seed, reward="win_split")
    rng = np.random.default_rng(seed)
    obs = env.reset()
    wins = done = 0
    while done < deals:
        if w is None:
            actions, _, _ = choose(obs, np.zeros(FEATURES, np.float32), rng, learner=False)
        else:
            actions, _, _ = choose(obs, w, rng, learner=True)
        obs, rewards, terminated, _ = env.step(actions)
        wins += int((rewards[terminated, SEAT] > 0).sum())
        done += int(terminated.sum())
    return wins / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=600, help="VecEnv steps of training")
    parser.add_argument("--deals", type=int, default=4000, help="deals per evaluation")
    args = parser.parse_args()
    t0 = time.perf_counter()
    w = train(args.steps)
    trained = time.perf_counter() - t0
    random_rate, learned_rate = win_rate(None, args.deals), win_rate(w, args.deals)
    print(f"trained {args.steps} steps x 256 envs in {trained:.1f} s")
    print(f"seat 0 win rate: random {random_rate:.3f}, learned {learned_rate:.3f}")


if __name__ == "__main__":
    main()
