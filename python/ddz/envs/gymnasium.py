"""Gymnasium single-agent env: one seat of a preset against agents (docs/rl.md).

from ddz.envs.gymnasium import SeatEnv
env = SeatEnv("classic", seat=0, opponents="random")
obs, info = env.reset(seed=0)
obs, reward, terminated, truncated, info = env.step(env.action_space.sample(obs["action_mask"]))
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import ddz
from ddz.envs._deal import Deal, rules_of
from ddz.envs._forms import DEFAULT_CANDIDATES, make_form
from ddz.envs._opponents import Policy, policy_of
from ddz.envs._spaces import row_space

__all__ = ["SeatEnv"]


class SeatEnv(gymnasium.Env):
    """Seat `seat` of each deal is the learner; `opponents` play the other seats.

    `opponents`: one spec for every other seat or a list of one per other seat (in seat
    order); a spec is "random", "greedy", a `ddz.agents`-style agent (`act(observation,
    legal)`) or a callable `fn(obs) -> legal index` on the seat's one-env `VecEnv`
    observation. The observation and actions are `ddz.envs.pettingzoo`'s.

    An action outside the mask is refused: nothing moves, the step returns the same
    observation with reward `illegal_reward` and `info["illegal_action"]`; with
    `illegal="raise"` it raises `ValueError` instead (the state is unchanged either way).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        preset: str | ddz.Rules = "classic",
        seat: int = 0,
        opponents: Any = "random",
        *,
        actions: str | None = None,
        max_candidates: int = DEFAULT_CANDIDATES,
        history: int = 15,
        reward: str = "score",
        render_mode: str | None = None,
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        **rule_options: Any,
    ) -> None:
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
        self._illegal, self._illegal_reward = illegal, float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = rules_of(preset, rule_options)
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be an int from 0 to {n - 1}, not {seat!r}")
        self.seat = seat
        specs = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"opponents lists {len(specs)} seats; {self.rules.preset} has {n - 1}")
        self._specs = dict(zip([s for s in range(n) if s != seat], specs))
        self._seat_opponents(0)
        self._deal = Deal(self.rules, history=history, reward=reward)
        self.form = make_form(self.rules, actions, max_candidates)
        inner = row_space(self._deal.row(), self.rules)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Dict({**inner.spaces, **self.form.extra_space}),
                "action_mask": spaces.Box(0, 1, (self.form.size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.form.size)

    def _seat_opponents(self, seed: int) -> None:
        # Random opponents draw from the reset's seed, so a seeded reset replays.
        self._opponents: dict[int, Policy] = {
            s: policy_of(spec, seed=[seed, s]) for s, spec in self._specs.items()
        }

    @property
    def action_table(self):
        """The id -> decision table of the table form (`.action(id)`); None otherwise."""
        return getattr(self.form, "table", None)

    def _observation(self) -> dict[str, Any]:
        extra, mask, self._picks = self.form.encode(self._deal.obs)
        return {"observation": {**self._deal.row(), **extra}, "action_mask": mask}

    def _to_my_turn(self) -> tuple[float, dict[str, Any]] | None:
        """Let the other seats act until this seat's turn; the seat's reward and the
        result if the deal ends first."""
        deal = self._deal
        while deal.seat != self.seat:
            ended = deal.step(self._opponents[deal.seat](deal))
            if ended is not None:
                rewards, result = ended
                return float(rewards[self.seat]), result
        return None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._seat_opponents(seed)
        self._deal.reset(seed)
        # A deal that ends before this seat acts teaches nothing: deal on.
        while self._to_my_turn() is not None:
            self._deal.reset()
        self._done = False
        self._last = self._observation()
        return self._last, {}

    def step(self, action: Any):
        if self._done:
            raise RuntimeError("the deal is over: call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int (an action id), not {action!r}")
        index = self.form.legal_index(int(action), self._picks)
        if index is None:
            if self._illegal == "raise" or not self.action_space.contains(action):
                raise ValueError(f"action {action} is not legal now (see obs['action_mask'])")
            # Refused: nothing moves, the same observation again, a penalty.
            again = _copy(self._last)
            return again, self._illegal_reward, False, False, {"illegal_action": True}
        stepped = self._deal.step(index)
        if stepped is not None:
            rewards, result = stepped
            ended: tuple[float, dict[str, Any]] | None = (float(rewards[self.seat]), result)
        else:
            ended = self._to_my_turn()
        if ended is None:
            self._last = self._observation()
            return self._last, 0.0, False, False, {}
        self._done = True
        reward, result = ended
        # VecEnv has already dealt the next deal; the final observation is the
        # last one this seat acted on, the end is in info["result"].
        return _copy(self._last), reward, True, False, {"result": result}

    def render(self) -> str | None:
        return self._deal.text() if self.render_mode == "ansi" else None


def _copy(obs: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, dict) else v.copy() for k, v in obs.items()}
