"""The floor under any PettingZoo AEC env: PettingZoo's own loop on an env that does nothing.

    python benches/pettingzoo_floor.py [--seconds S] [--rounds R]
    python benches/pettingzoo_floor.py --decisions N --only LOOP   # fixed work, for callgrind

The issue asks PettingZoo classic for 3x OpenSpiel's `dou_dizhu` Python loop
(`benches/rl_adapters.py`). Whatever an env does, the user's loop pays
PettingZoo's `agent_iter` / `last` / `step` calls and, to act at random, a pass
over the action mask. This times that alone on `Nothing`: an AECEnv with the
observation space and 29,747-entry mask of `ddz.envs.pettingzoo.env("classic")`
(no wrappers, as `env()` returns it) whose `step` only does the AEC bookkeeping
(cumulative rewards, next agent, a deal of `--deal` decisions) and whose
observations are made beforehand: one row, and in turn the masks of `--masks`
decisions of real random play. Rows, in
alternating rounds (the median of each; the load average is printed):

* `bookkeeping`: agent_iter + last + step, always action 0 (no mask read);
* `+ mask pick`: as `rl_adapters.py` acts, a random set entry of the mask;
* OpenSpiel's loop, as `benches/vecenv.py` times it.

3x OpenSpiel needs a whole decision, env and mask pick included, within a
third of OpenSpiel's: if the floor is above that, no env can meet it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vecenv import pyspiel_rate  # noqa: E402

from ddz.envs.pettingzoo import env as make_env  # noqa: E402


def real_masks(count: int) -> list[np.ndarray]:
    """The masks of `count` decisions of random play on the classic env, so the
    floor's mask pick scans masks laid out as real ones (numpy's nonzero stops
    at the last set entry, so where the legal ids sit matters)."""
    e = make_env("classic")
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    masks: list[np.ndarray] = []
    while len(masks) < count:
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            masks.append(obs["action_mask"].copy())
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        e.reset()
    return masks[:count]


class Nothing(AECEnv):
    """Three agents taking turns for `deal` decisions; observations made
    beforehand (one row, the masks of real play in turn)."""

    metadata = {"name": "nothing_v0", "is_parallelizable": False}

    def __init__(self, deal: int, masks: list[np.ndarray]) -> None:
        super().__init__()
        model = make_env("classic")
        self.possible_agents = list(model.possible_agents)
        self.observation_spaces = dict(model.observation_spaces)
        self.action_spaces = dict(model.action_spaces)
        row = self.observation_spaces[self.possible_agents[0]].sample()["observation"]
        self._views = [{"observation": row, "action_mask": m} for m in masks]
        self._next = 0
        self._deal = deal

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._left = self._deal
        self._seat = 0

    def observe(self, agent):
        return self._views[self._next]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._left -= 1
        self._seat = (self._seat + 1) % 3
        self._next = (self._next + 1) % len(self._views)
        if self._left:
            self._clear_rewards()
        else:
            for i, a in enumerate(self.agents):
                self.rewards[a] = 1.0 if i == 0 else -0.5
                self.terminations[a] = True
        self.agent_selection = self.possible_agents[self._seat]
        self._accumulate_rewards()


def aec_rate(e: AECEnv, seconds: float, pick: bool, decisions_wanted: int = 0) -> float:
    """Decisions/s of the user's loop; `decisions_wanted`: at least that many
    decisions whatever the time (fixed work, for callgrind)."""
    rng = np.random.default_rng(0)
    decisions = 0
    e.reset(seed=0)
    t0 = time.perf_counter()
    while decisions < decisions_wanted if decisions_wanted else time.perf_counter() - t0 < seconds:
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            if pick:
                legal = np.flatnonzero(obs["action_mask"].view(bool))
                e.step(int(legal[int(rng.random() * len(legal))]))
            else:
                e.step(0)
            decisions += 1
        e.reset()
    return decisions / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per row and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deal", type=int, default=40, help="decisions per deal")
    parser.add_argument("--masks", type=int, default=500, help="real masks to cycle through")
    parser.add_argument(
        "--decisions",
        type=int,
        default=0,
        help="fixed work for callgrind: this many decisions of the --only loop, no table",
    )
    parser.add_argument("--only", choices=("bookkeeping", "pick", "ours", "openspiel"))
    args = parser.parse_args()
    nothing = Nothing(args.deal, real_masks(args.masks))
    if args.decisions:
        n = args.decisions
        if args.only == "openspiel":
            pyspiel_rate(0, decisions=n)
        elif args.only == "ours":
            aec_rate(make_env("classic"), 0, pick=True, decisions_wanted=n)
        else:
            aec_rate(nothing, 0, pick=args.only == "pick", decisions_wanted=n)
        return
    print(f"load average at start: {os.getloadavg()}")
    rates: dict[str, list[float]] = {"bookkeeping": [], "+ mask pick": [], "OpenSpiel": []}
    for _ in range(args.rounds):
        rates["bookkeeping"].append(aec_rate(nothing, args.seconds, pick=False))
        rates["+ mask pick"].append(aec_rate(nothing, args.seconds, pick=True))
        spiel = pyspiel_rate(args.seconds)
        if spiel is None:
            raise SystemExit("needs open_spiel (pip install open-spiel)")
        rates["OpenSpiel"].append(spiel)
    med = {k: statistics.median(v) for k, v in rates.items()}
    budget = 1e9 / med["OpenSpiel"] / 3
    for name, rate in med.items():
        rounds = ", ".join(f"{r:,.0f}" for r in rates[name])
        print(f"{name:<14}{rate:>12,.0f} decisions/s {1e9 / rate:>8,.0f} ns/decision  ({rounds})")
    print(f"3x OpenSpiel leaves {budget:,.0f} ns per decision for everything")
    for name in ("bookkeeping", "+ mask pick"):
        print(f"floor '{name}' alone uses {1e9 / med[name] / budget:.2f}x of that budget")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
