"""Deep Monte-Carlo (DouZero's method) on classic, in numpy: one seat learns
against greedy opponents played inside `ddz.VecEnv`, and `ddz.evaluate` measures
it against the greedy player (docs/rl.md, "A worked example: DMC").

    python examples/dmc_classic.py --minutes 10          # the bench's run
    python examples/dmc_classic.py --seconds 5 --eval 50 # a quick look

DMC, as DouZero trains: a Q network scores every legal action of a moment from
features of the state and the action; the learner takes the best one (a random
one with probability epsilon); when a deal ends, each of its decisions is given
the deal's return (win +1, loss -1: no discount, no bootstrap) and the network is
regressed onto those Monte-Carlo returns by squared error. The network is a small
MLP in numpy (Adam by hand); the environment is 256 classic deals stepped in one
call, seat 0 the learner, seats 1 and 2 the built-in greedy policy inside the step.
The learner plays the auction too: it learns when to bid, and to play as the
landlord and as either farmer.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import ddz

KINDS = len(ddz.VecEnv.kind_names)
LANDLORD = 1  # the `landlord` role column of classic (`VecEnv.role_keys`)


def state_features(obs: dict) -> np.ndarray:
    """One row per env: the seat's hand, what each seat has played and holds,
    the play to beat and who made it, the last two plays, the landlord, the bid."""
    n = len(obs["seat"])
    recent_seat = np.eye(4, dtype=np.float32)[obs["recent_seat"][:, :2] + 1].reshape(n, -1)
    parts = [
        obs["hand"] / 4.0,
        obs["cards_left"] / 20.0,
        obs["played"].reshape(n, -1) / 4.0,
        obs["to_beat"] / 4.0,
        np.eye(KINDS + 1, dtype=np.float32)[obs["to_beat_kind"] + 1],
        np.eye(4, dtype=np.float32)[obs["to_beat_seat"] + 1],
        obs["recent"][:, :2].reshape(n, -1) / 4.0,
        recent_seat,
        np.eye(4, dtype=np.float32)[obs["roles"][:, LANDLORD] + 1],
        obs["roles"][:, :1] / 3.0,
        (obs["phase"] == ddz.VecEnv.phase_names.index("play"))[:, None],
    ]
    return np.concatenate([np.asarray(p, np.float32) for p in parts], axis=1)


def action_features(obs: dict, hands: np.ndarray) -> np.ndarray:
    """One row per legal action: its cards, the hand it leaves, its kind, rank
    and length (`hands`: each row's own hand)."""
    cards = obs["legal_cards"].astype(np.float32)
    parts = [
        cards / 4.0,
        (hands - cards) / 4.0,
        np.eye(KINDS, dtype=np.float32)[obs["legal_kind"]],
        obs["legal_rank"][:, None] / 15.0,
        obs["legal_length"][:, None] / 12.0,
    ]
    return np.concatenate([np.asarray(p, np.float32) for p in parts], axis=1)


#: Features per (state, action) row.
INPUTS = 16 + 3 + 48 + 16 + (KINDS + 1) + 4 + 32 + 8 + 4 + 1 + 1 + 16 + 16 + KINDS + 1 + 1


def features(obs: dict) -> np.ndarray:
    """Every legal action's (state, action) features, one row each."""
    counts = np.diff(obs["legal_offsets"])
    state = np.repeat(state_features(obs), counts, axis=0)
    hands = np.repeat(obs["hand"].astype(np.float32), counts, axis=0)
    return np.concatenate([state, action_features(obs, hands)], axis=1)


class QNet:
    """A two-hidden-layer MLP, `Q(state, action)`, trained with Adam."""

    def __init__(self, inputs: int, hidden: int = 256, lr: float = 1e-3, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        sizes = [inputs, hidden, hidden // 2, 1]
        self.params = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            self.params += [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32)]
            self.params += [np.zeros(b, np.float32)]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.lr, self.t = lr, 0

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.forward(x)[0]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        w1, b1, w2, b2, w3, b3 = self.params
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        return (h2 @ w3 + b3)[:, 0], [x, h1, h2]

    def train(self, x: np.ndarray, target: np.ndarray) -> float:
        """One Adam step on the mean squared error of `Q(x)` against `target`."""
        q, (x, h1, h2) = self.forward(x)
        w1, _, w2, _, w3, _ = self.params
        d = (2 / len(x)) * (q - target)[:, None].astype(np.float32)
        g3, gb3 = h2.T @ d, d.sum(0)
        d2 = (d @ w3.T) * (h2 > 0)
        g2, gb2 = h1.T @ d2, d2.sum(0)
        d1 = (d2 @ w2.T) * (h1 > 0)
        g1, gb1 = x.T @ d1, d1.sum(0)
        self.t += 1
        for p, g, m, v in zip(self.params, [g1, gb1, g2, gb2, g3, gb3], self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            step = self.lr * np.sqrt(1 - 0.999**self.t) / (1 - 0.9**self.t)
            p -= step * m / (np.sqrt(v) + 1e-8)
        return float(np.mean((q - target) ** 2))


def best_indices(q: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Per env, the legal index of its highest Q (the first on a tie)."""
    envs = len(offsets) - 1
    best = np.maximum.reduceat(q, offsets[:-1])
    owner = np.repeat(np.arange(envs), np.diff(offsets))
    hits = np.flatnonzero(q >= best[owner])
    first = np.full(envs, len(q))
    np.minimum.at(first, owner[hits], hits)
    return first - offsets[:-1]


class Policy:
    """The learner as a batch policy (`ddz.evaluate`'s, `VecEnv`'s opponents'):
    the legal index of the highest Q in each env, no exploration."""

    def __init__(self, net: QNet) -> None:
        self.net = net
        self.__name__ = "dmc"

    def __call__(self, obs: dict) -> np.ndarray:
        return best_indices(self.net(features(obs)), obs["legal_offsets"])


def train(
    seconds: float,
    envs: int = 256,
    epsilon: float = 0.05,
    batch: int = 1024,
    seed: int = 0,
    report: float = 60.0,
    on_report: Callable[[QNet, float, int], None] | None = None,
) -> QNet:
    """DMC for `seconds` of wall time; `on_report(net, elapsed, deals)` every
    `report` seconds of training and at the end (its own time not counted)."""
    env = ddz.VecEnv(
        "classic",
        envs,
        seed=seed,
        seats=[0],
        opponents="greedy",
        reward="win_split",
        reward_for="acting",
        copy=False,
    )
    rng = np.random.default_rng(seed)
    obs = env.reset()
    net = QNet(INPUTS, seed=seed)
    # Each env's decisions of its deal so far: the chosen action's features.
    trail: list[list[np.ndarray]] = [[] for _ in range(envs)]
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    start = last = time.perf_counter()
    deals = 0
    while (now := time.perf_counter()) - start < seconds:
        x = features(obs)
        offsets = obs["legal_offsets"]
        picks = best_indices(net(x), offsets)
        counts = np.diff(offsets)
        explore = rng.random(envs) < epsilon
        picks[explore] = (rng.random(explore.sum()) * counts[explore]).astype(np.int64)
        chosen = x[offsets[:-1] + picks]
        for i in range(envs):
            trail[i].append(chosen[i])
        obs, rewards, done, info = env.step(picks)
        for i in np.flatnonzero(done):
            if not info["truncated"][i]:  # a cut deal has no return
                xs.append(np.stack(trail[i]))
                ys.append(np.full(len(trail[i]), np.sign(rewards[i]), np.float32))
                deals += 1
            trail[i] = []
        if sum(len(y) for y in ys) >= 4 * batch:
            # Train on the returns of the deals just played, then drop them.
            x_all, y_all = np.concatenate(xs), np.concatenate(ys)
            order = rng.permutation(len(y_all))
            for k in range(0, len(order) - batch + 1, batch):
                net.train(x_all[order[k : k + batch]], y_all[order[k : k + batch]])
            xs, ys = [], []
        if on_report is not None and now - last >= report:
            on_report(net, now - start, deals)
            # The clock stops while the report (an evaluation) runs.
            last = time.perf_counter()
            start += last - now
    if on_report is not None:
        on_report(net, time.perf_counter() - start, deals)
    return net


def win_rate(net: QNet, deals: int, protocol: str = "full", seed: int = 1_000_000) -> dict:
    """`ddz.evaluate` of the learner against the greedy player (fresh deals)."""
    return ddz.evaluate("classic", Policy(net), "greedy", deals, seed=seed, protocol=protocol)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=None, help="training time")
    parser.add_argument("--seconds", type=float, default=60.0, help="training time")
    parser.add_argument("--eval", type=int, default=1000, help="deals to evaluate on (x2)")
    parser.add_argument("--report", type=float, default=60.0, help="seconds between checks")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    seconds = 60 * args.minutes if args.minutes is not None else args.seconds

    def check(net: QNet, elapsed: float, deals: int) -> None:
        wp = win_rate(net, args.eval)["overall"]["wp"]
        print(
            f"{elapsed:7.0f} s {deals:>10,} deals  win rate vs greedy "
            f"{wp['value']:.3f} ({wp['low']:.3f} .. {wp['high']:.3f})",
            flush=True,
        )

    check(QNet(INPUTS, seed=args.seed), 0.0, 0)  # untrained
    train(seconds, seed=args.seed, report=args.report, on_report=check)


if __name__ == "__main__":
    main()
