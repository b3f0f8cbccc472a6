"""Deep Monte-Carlo on DouZero's features, for any one-landlord preset
(classic, two-player, four-player, laizi), in numpy: a landlord network and a
farmer network learn against built-in opponents (greedy by default) played
inside `ddz.VecEnv(..., features="douzero")`, in DouZero's protocol (docs/rl.md,
"A worked example: DMC on any preset").

    python examples/dmc_douzero.py --preset four-player --minutes 10   # the docs' run
    python examples/dmc_douzero.py --preset laizi --seconds 20 --eval 200

The same method as examples/dmc_classic.py (a Q network scores every legal
action; the learner takes the best, a random one with probability epsilon; each
decision of a deal is regressed onto the deal's return), with what DouZero does
beyond it: the state is DouZero's `x_no_action` (`douzero_context`) and each
action its card features (`douzero_actions`), for every preset alike, and the
landlord and the farmers have networks of their own. Two envs train side by
side on the same deal series: in one the learner is seat 0, DouZero's landlord,
in the other it is every farmer seat. DouZero's history tensor `z` (read by an
LSTM in DouZero) is left out: the context already holds the last moves.

Evaluation mirrors `ddz.evaluate(protocol="douzero")`: fresh deals, each played
twice, the learner as the landlord against opponent farmers and as every
farmer against an opponent landlord; WP is the share of games won with a 95%
interval over deals. Here it is played on `VecEnv` itself, because
`ddz.evaluate` gives a batch policy no DouZero features. Its floor is the
policy that always takes legal index 0 (the smallest play, greedy's own
choice): against greedy it is greedy, and scores exactly 0.5.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

import ddz

PRESETS = ("classic", "two-player", "four-player", "laizi")
#: The deal series of evaluation, far from the training seeds.
EVAL_SEED = 1_000_000


def players(preset: str) -> int:
    return ddz.Rules(preset).players


def make_env(preset: str, envs: int, seed: int, landlord: bool, opponent: str) -> ddz.VecEnv:
    """`envs` deals in DouZero's protocol; the learner is the landlord (seat
    0) or every farmer seat, `opponent` the other seats, inside the step."""
    n = players(preset)
    return ddz.VecEnv(
        preset,
        envs,
        seed=seed,
        threads=1,
        seats=[0] if landlord else list(range(1, n)),
        opponents=opponent,
        protocol="douzero",
        reward="win",
        reward_for="acting",
        features="douzero",
    )


def context(obs: dict, n: int) -> np.ndarray:
    """One row per env: DouZero's context and the position one-hot."""
    position = np.eye(n, dtype=np.float32)[obs["douzero_position"]]
    return np.concatenate([obs["douzero_context"].astype(np.float32), position], axis=1)


class QNet:
    """`Q(context, action)`, an MLP whose first layer is split in two: the
    context's share is computed once per env, not once per legal action
    (laizi lists thousands of actions a moment). Adam by hand."""

    def __init__(
        self, contexts: int, actions: int, hidden: int = 256, lr: float = 1e-3, seed: int = 0
    ) -> None:
        rng = np.random.default_rng(seed)
        self.contexts = contexts
        sizes = [contexts + actions, hidden, hidden // 2, 1]
        self.params: list[np.ndarray] = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            self.params += [rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32)]
            self.params += [np.zeros(b, np.float32)]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.lr, self.t = lr, 0

    def q(self, ctx: np.ndarray, act: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """Q of every legal action (CSR rows `act`, env `i`'s from `offsets[i]`)."""
        w1, b1, w2, b2, w3, b3 = self.params
        owner = np.repeat(np.arange(len(ctx)), np.diff(offsets))
        h1 = np.maximum((ctx @ w1[: self.contexts])[owner] + act @ w1[self.contexts :] + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        return (h2 @ w3 + b3)[:, 0]

    def train(self, x: np.ndarray, target: np.ndarray) -> float:
        """One Adam step on the mean squared error of `Q(x)` against `target`
        (`x`: context and action rows side by side)."""
        w1, b1, w2, b2, w3, b3 = self.params
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        q = (h2 @ w3 + b3)[:, 0]
        d = (2 / len(x)) * (q - target)[:, None].astype(np.float32)
        d2 = (d @ w3.T) * (h2 > 0)
        d1 = (d2 @ w2.T) * (h1 > 0)
        grads = [x.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ d, d.sum(0)]
        self.t += 1
        step = self.lr * np.sqrt(1 - 0.999**self.t) / (1 - 0.9**self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
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


class Learner:
    """The two networks and how they act: `learner(obs, landlord)` -> one
    legal index per env, the highest Q (random with probability `epsilon`)."""

    def __init__(self, preset: str, hidden: int = 256, lr: float = 1e-3, seed: int = 0) -> None:
        self.preset, self.n = preset, players(preset)
        obs = make_env(preset, 1, 0, True, "greedy").observe()
        contexts = obs["douzero_context"].shape[1] + self.n
        actions = obs["douzero_actions"].shape[1]
        self.nets = {
            role: QNet(contexts, actions, hidden, lr, seed + k)
            for k, role in enumerate((True, False))
        }

    def act(
        self,
        obs: dict,
        landlord: bool,
        epsilon: float = 0.0,
        rng: np.random.Generator | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The picks, and each pick's input row (context and action)."""
        ctx = context(obs, self.n)
        act = obs["douzero_actions"].astype(np.float32)
        offsets = obs["legal_offsets"]
        picks = best_indices(self.nets[landlord].q(ctx, act, offsets), offsets)
        if epsilon > 0 and rng is not None:
            counts = np.diff(offsets)
            explore = rng.random(len(picks)) < epsilon
            picks[explore] = (rng.random(explore.sum()) * counts[explore]).astype(np.int64)
        return picks, np.concatenate([ctx, act[offsets[:-1] + picks]], axis=1)


def train(
    preset: str,
    seconds: float,
    envs: int = 256,
    epsilon: float = 0.05,
    batch: int = 1024,
    hidden: int = 256,
    lr: float = 1e-3,
    seed: int = 0,
    opponent: str = "greedy",
    report: float = 60.0,
    on_report: Callable[[Learner, float, int], None] | None = None,
    max_steps: int | None = None,
) -> Learner:
    """DMC for `seconds` of wall time (or `max_steps` steps of both envs);
    `on_report(learner, elapsed, deals)` every `report` seconds of training
    and at the end, its own time not counted."""
    learner = Learner(preset, hidden, lr, seed)
    rng = np.random.default_rng(seed)
    sides = []
    for landlord in (True, False):
        env = make_env(preset, envs, seed, landlord, opponent)
        # Each env's input rows of its deal so far; ended deals' rows and returns.
        sides.append((landlord, env, [env.reset()], [[] for _ in range(envs)], [], []))
    if on_report is not None:
        on_report(learner, 0.0, 0)  # untrained
    start = last = time.perf_counter()
    deals = steps = 0
    while (now := time.perf_counter()) - start < seconds and (
        max_steps is None or steps < max_steps
    ):
        steps += 1
        for landlord, env, current, trail, xs, ys in sides:
            picks, rows = learner.act(current[0], landlord, epsilon, rng)
            for i in range(envs):
                trail[i].append(rows[i])
            current[0], rewards, done, info = env.step(picks)
            for i in np.flatnonzero(done):
                if not info["truncated"][i]:
                    xs.append(np.stack(trail[i]))
                    ys.append(np.full(len(trail[i]), np.sign(rewards[i]), np.float32))
                    deals += 1
                trail[i] = []
            if sum(len(y) for y in ys) >= 4 * batch:
                # Train on the returns of the deals just played, then drop them.
                x_all, y_all = np.concatenate(xs), np.concatenate(ys)
                order = rng.permutation(len(y_all))
                for k in range(0, len(order) - batch + 1, batch):
                    learner.nets[landlord].train(
                        x_all[order[k : k + batch]], y_all[order[k : k + batch]]
                    )
                xs.clear()
                ys.clear()
        if on_report is not None and now - last >= report:
            on_report(learner, now - start, deals)
            last = time.perf_counter()
            start += last - now  # the clock stops while the report runs
    if on_report is not None:
        on_report(learner, time.perf_counter() - start, deals)
    return learner


Picker = Callable[[dict, bool], np.ndarray]


def games(
    preset: str, pick: Picker, deals: int, seed: int, landlord: bool, opponent: str
) -> np.ndarray:
    """Whether the learner's side won each of deals `0 .. deals` of series
    `seed`, seated as the landlord or as every farmer."""
    env = make_env(preset, deals, seed, landlord, opponent)
    obs = env.reset()
    won = np.full(deals, -1, np.int8)
    seat = 0 if landlord else 1
    while (won < 0).any():
        obs, _, done, info = env.step(pick(obs, landlord))
        first = done & (won < 0)
        won[first] = info["winners"][first, seat]
    return won


def win_rate(
    preset: str, pick: Picker, deals: int, seed: int = EVAL_SEED, opponent: str = "greedy"
) -> dict[str, dict[str, float]]:
    """WP over `deals` deals each played twice (landlord, farmers), with 95%
    intervals over deals; also per role."""
    as_landlord = games(preset, pick, deals, seed, True, opponent)
    as_farmers = games(preset, pick, deals, seed, False, opponent)

    def interval(per_deal: np.ndarray) -> dict[str, float]:
        mean = float(per_deal.mean())
        half = (
            1.959964 * float(per_deal.std(ddof=1)) / np.sqrt(len(per_deal))
            if len(per_deal) > 1
            else 0.0
        )
        return {"value": mean, "low": mean - half, "high": mean + half}

    return {
        "overall": interval((as_landlord + as_farmers) / 2),
        "landlord": interval(as_landlord.astype(float)),
        "farmer": interval(as_farmers.astype(float)),
    }


def index_zero(obs: dict, landlord: bool) -> np.ndarray:
    """The floor: always legal index 0."""
    return np.zeros(len(obs["seat"]), np.int64)


def greedy_of(learner: Learner) -> Picker:
    return lambda obs, landlord: learner.act(obs, landlord)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", choices=PRESETS, default="four-player")
    parser.add_argument("--minutes", type=float, default=None, help="training time")
    parser.add_argument("--seconds", type=float, default=60.0, help="training time")
    parser.add_argument("--eval", type=int, default=1000, help="deals to evaluate on (x2 games)")
    parser.add_argument("--report", type=float, default=60.0, help="seconds between checks")
    parser.add_argument("--envs", type=int, default=256, help="envs per side (landlord, farmers)")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--opponent", default="greedy", help="a built-in policy name")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    seconds = 60 * args.minutes if args.minutes is not None else args.seconds
    print(f"DMC, DouZero features, {args.preset} vs {args.opponent!r}, {seconds:g} s of training")
    print(
        f"{'training s':>10}{'deals':>10}{'WP (95%)':>24}{'landlord':>10}{'farmers':>10}{'load':>6}"
    )

    def row(label: str, figures: dict, deals: str) -> None:
        wp = figures["overall"]
        interval = f"{wp['value']:.3f} ({wp['low']:.3f}..{wp['high']:.3f})"
        landlord, farmer = figures["landlord"]["value"], figures["farmer"]["value"]
        load = os.getloadavg()[0]
        print(
            f"{label:>10}{deals:>10}{interval:>24}{landlord:>10.3f}{farmer:>10.3f}{load:>6.1f}",
            flush=True,
        )

    row("index 0", win_rate(args.preset, index_zero, args.eval, opponent=args.opponent), "floor")

    def check(learner: Learner, elapsed: float, deals: int) -> None:
        figures = win_rate(args.preset, greedy_of(learner), args.eval, opponent=args.opponent)
        row(f"{elapsed:.0f}", figures, f"{deals:,}")

    train(
        args.preset,
        seconds,
        envs=args.envs,
        hidden=args.hidden,
        lr=args.lr,
        seed=args.seed,
        opponent=args.opponent,
        report=args.report,
        on_report=check,
    )


if __name__ == "__main__":
    main()
