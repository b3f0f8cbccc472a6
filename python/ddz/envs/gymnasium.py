"""Gymnasium envs: one seat of a preset against opponents (docs/rl.md).

`SeatEnv` is one deal at a time (a `gymnasium.Env`, `check_env` passes); `VectorSeatEnv`
is a `gymnasium.vector.VectorEnv` of many deals stepped in one call, the opponents
played inside the step in Rust.

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
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import ddz
from ddz.envs._deal import DealInPlay, rules_of
from ddz.envs._forms import DEFAULT_CANDIDATES, make_form, seat_space
from ddz.envs._opponents import Policy, policy_of
from ddz.envs._spaces import row_space

__all__ = ["SeatEnv", "VectorSeatEnv"]


class SeatEnv(gymnasium.Env):
    """Seat `seat` of each deal is the learner; `opponents` play the other seats.

    `opponents`: one spec for every other seat or a list of one per other seat (in seat
    order); a spec is "random", "greedy", "rule", "search", "search:playouts=N", a
    `ddz.agents`-style agent (`act(observation,
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
        max_redeals: int | None = 10,
        max_decisions: int | None = None,
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
        self._deal = DealInPlay(
            self.rules,
            history=history,
            reward=reward,
            max_redeals=max_redeals,
            max_decisions=max_decisions,
        )
        self.form = make_form(self.rules, actions, max_candidates)
        self.observation_space = seat_space(self._deal, self.form)
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
        action = _scalar_action(action)
        index = self.form.legal_index(action, self._picks)
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
        cut = bool(result["truncated"])
        # VecEnv has already dealt the next deal; the final observation is the
        # last one this seat acted on, the end is in info["result"].
        return _copy(self._last), reward, not cut, cut, {"result": result}

    def render(self) -> str | None:
        return self._deal.text() if self.render_mode == "ansi" else None


def _scalar_action(action: Any) -> int:
    """An action id as an int: a Python or numpy integer, or a 0-d integer array (what
    `action_space.sample()` and a policy's `argmax` give); else a TypeError."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an int (an action id), not {action!r}")
    return int(action)


def _copy(obs: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, dict) else v.copy() for k, v in obs.items()}


class VectorSeatEnv(VectorEnv):
    """`num_envs` deals stepped in one call (`ddz.VecEnv`): seat `seat` of each is
    the learner, every other seat is played inside the step by `opponents`.

    `opponents` is `VecEnv`'s: a built-in policy (`"random"`, `"greedy"`, `"rule"`,
    `"search"`, `"search:playouts=N"`), a `ddz.agents.SearchAgent`
    or a callable given the observation arrays of all the envs it plays now and
    returning one legal index per env; one for every other seat or a list of one per
    other seat, in seat order.

    - Observations: a dict of arrays, first axis the env, holding every `VecEnv`
      observation key but the legal actions (the learner's view), and with
      `action_mask=True` a dense `action_mask` (bool, one column per action id).
    - Actions: one action id per env (`single_action_space` is `Discrete(A)`,
      `A = len(ddz.envs.action_table(preset))`), the id of a legal action.
    - The legal actions of each env are in `infos`, as `VecEnv` lists them:
      `legal_offsets` (env `i`'s rows are `legal_offsets[i]:legal_offsets[i+1]`),
      `legal_ids`, `legal_cards`, `legal_represents`, `legal_kind`, `legal_rank`,
      `legal_length`.
    - Rewards are the learner's (`reward="score"` or `"win"`), in the step that
      ends its deal; `truncated` marks a deal cut by `max_redeals`/`max_decisions`.
    - Autoreset: `AutoresetMode.SAME_STEP`. An env whose deal ended or was cut
      already shows its next deal; the learner's view of the ended one is in
      `infos["final_obs"]` (a dict of arrays, rows valid where `infos["_final_obs"]`),
      its result in `infos` (`scores`, `winners`, `multiplier`, `length`, `deal` (the
      deal's number in the env's series: `VecEnv`'s `episode`, renamed so that
      `gymnasium.wrappers.vector.RecordEpisodeStatistics` can write `episode`),
      `landlord`, `bombs`).
    - An illegal id raises `ValueError` (`ddz.IllegalAction`) and no env moves:
      sample legal ids from `infos`, or with `action_mask=True` from the mask.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        preset: str | ddz.Rules = "classic",
        num_envs: int = 256,
        seat: int = 0,
        opponents: Any = "random",
        *,
        action_mask: bool = False,
        history: int = 15,
        reward: str = "score",
        protocol: str = "full",
        max_redeals: int | None = 10,
        max_decisions: int | None = None,
        threads: int | None = None,
        copy: bool = True,
        **rule_options: Any,
    ) -> None:
        self.rules = rules_of(preset, rule_options)
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be an int from 0 to {n - 1}, not {seat!r}")
        self.seat = seat
        self.num_envs = num_envs
        self.vec = ddz.VecEnv(
            self.rules,
            num_envs,
            threads=threads,
            seats=[seat],
            opponents=opponents,
            protocol=protocol,
            history=history,
            reward=reward,
            reward_for="acting",
            max_redeals=max_redeals,
            max_decisions=max_decisions,
            legal_ids=True,
            action_mask=action_mask,
            final_obs=True,
            step_api="gymnasium",
            copy=copy,
        )
        obs = self.vec.observe()
        self._keys = tuple(k for k in obs if not k.startswith("legal_") and k != "action_mask")
        table = self.vec.action_table
        assert table is not None  # (legal_ids=True)
        self.action_table = table
        inner = row_space({k: obs[k][0] for k in self._keys}, self.rules)
        if action_mask:
            inner.spaces["action_mask"] = spaces.Box(0, 1, (len(table),), np.bool_)
        self._mask = action_mask
        self.single_observation_space = inner
        self.single_action_space = spaces.Discrete(len(table))
        self.observation_space = batch_space(inner, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()

    def _split(self, obs: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The learner's observation arrays, and the legal actions for `infos`."""
        out = {k: obs[k] for k in self._keys}
        if self._mask:
            out["action_mask"] = obs["action_mask"]
        legal = {k: v for k, v in obs.items() if k.startswith("legal_")}
        return out, legal

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Every env to a new deal: the deals of series `seed` (as `VecEnv(seed=...)`
        deals them), or without a seed a series drawn from the last seeded reset."""
        if options:
            raise ValueError(f"VectorSeatEnv.reset takes no options, not {options!r}")
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            obs = self.vec.reset(seed)
        else:
            obs = self.vec.reset(int(self._rng.integers(2**63)))
        return self._split(obs)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, rewards, terminated, truncated, info = self.vec.step(actions, by="id")
        out, infos = self._split(obs)
        # Gymnasium's RecordEpisodeStatistics writes infos["episode"]: the deal's
        # number in the env's series is infos["deal"] here.
        info["deal"] = info.pop("episode")
        infos.update(info)
        infos["_final_obs"] = terminated | truncated
        return out, rewards, terminated, truncated, infos

    def close(self, **kwargs: Any) -> None:
        pass
