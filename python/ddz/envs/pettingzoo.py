"""PettingZoo environments for every preset (docs/rl.md): the AEC env (`env`) and
its parallel form (`parallel_env`), both stepping `ddz.VecEnv`.

from ddz.envs.pettingzoo import env
e = env("classic")
e.reset(seed=0)
for agent in e.agent_iter():
    obs, reward, terminated, truncated, info = e.last()
    action = None if terminated else e.action_space(agent).sample(obs["action_mask"])
    e.step(action)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped,unused-ignore]

import ddz
from ddz._ddz import ActionMasks
from ddz.envs._deal import DealInPlay, rules_of
from ddz.envs._forms import DEFAULT_CANDIDATES, TableForm, make_form, seat_space

__all__ = ["DdzEnv", "DdzParallelEnv", "env", "parallel_env", "raw_env"]
RENDER_MODES = ("human", "ansi")


class _Seats:
    """What both PettingZoo forms are made of: the rule set, the deal in play on
    a one-env `VecEnv`, the action form, the agents (the seats) and their spaces."""

    render_mode: str | None

    def _set_up(
        self,
        preset: str | ddz.Rules,
        actions: str | None,
        max_candidates: int,
        history: int,
        reward: str,
        max_redeals: int | None,
        max_decisions: int | None,
        render_mode: str | None,
        rule_options: dict[str, Any],
    ) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = rules_of(preset, rule_options)
        self._deal = DealInPlay(
            self.rules,
            history=history,
            reward=reward,
            max_redeals=max_redeals,
            max_decisions=max_decisions,
        )
        self.form = make_form(self.rules, actions, max_candidates)
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        obs_space = seat_space(self._deal, self.form)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.form.size) for a in self.possible_agents}

    @property
    def action_table(self):
        """The id -> decision table of the table form (`.action(id)`); None otherwise."""
        return getattr(self.form, "table", None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._deal.text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


class DdzEnv(_Seats, AECEnv):
    """One deal after another of a preset; agents `player_0 ..` are the seats."""

    metadata = {"name": "ddz_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        preset: str | ddz.Rules = "classic",
        *,
        actions: str | None = None,
        max_candidates: int = DEFAULT_CANDIDATES,
        history: int = 15,
        reward: str = "score",
        max_redeals: int | None = 10,
        max_decisions: int | None = None,
        render_mode: str | None = None,
        **rule_options: Any,
    ) -> None:
        AECEnv.__init__(self)
        self._set_up(
            preset,
            actions,
            max_candidates,
            history,
            reward,
            max_redeals,
            max_decisions,
            render_mode,
            rule_options,
        )
        self._masks = self._in_place() if isinstance(self.form, TableForm) else None
        self._begin()

    def _in_place(self) -> ActionMasks:
        """The table form steps in Rust into arrays made here once: per seat, its
        observation row and its mask, which only the changed entries rewrite."""
        row = self._deal.row()
        rows = [{k: v.copy() for k, v in row.items()} for _ in self.possible_agents]
        masks = [np.zeros(self.form.size, np.int8) for _ in self.possible_agents]
        self._views = [{"observation": r, "action_mask": m} for r, m in zip(rows, masks)]
        return ActionMasks(self._deal.vec, rows, masks)

    def _begin(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._latest: dict[str, dict[str, Any]] = {}
        self._observe_now()

    def _observe_now(self) -> None:
        if self._masks is not None:
            self._show(self._masks.restart())
            return
        extra, mask, self._picks = self.form.encode(self._deal.obs)
        self._seat = self._deal.seat
        agent = self.possible_agents[self._seat]
        self.agent_selection = agent
        self._latest[agent] = {
            "observation": {**self._deal.row(), **extra},
            "action_mask": mask,
        }

    def _show(self, seat: int) -> None:
        """Seat `seat` is to act; its arrays hold its observation."""
        self._seat = seat
        agent = self.agent_selection = self.possible_agents[seat]
        self._latest[agent] = self._views[seat]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._deal.reset(seed)
        self._begin()

    def observe(self, agent: str) -> dict[str, Any] | None:
        """The agent's observation at its latest turn (the current one for the agent to
        act); None for an agent that has not acted yet in this deal."""
        return self._latest.get(agent)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int (an action id), not {action!r}")
        masks = self._masks
        if masks is not None:
            index = masks.legal_index(self._seat, int(action))
        else:
            index = self.form.legal_index(int(action), self._picks)
        if index is None:
            raise ValueError(
                f"action {action} is not legal for {agent} now (see observation['action_mask'])"
            )
        self._cumulative_rewards[agent] = 0.0
        if masks is None:
            ended = self._deal.step(index)
        else:
            # The table form steps `VecEnv` by the action id itself.
            out = masks.step(int(action))
            if isinstance(out, int):
                self._deal.fresh, ended = False, None
            else:
                ended = self._deal.ended(*out)
        if ended is None:
            self._clear_rewards()
            if masks is None:
                self._observe_now()
            else:
                self._show(out)  # type: ignore[arg-type]  # an int while the deal goes on
        else:
            seat_rewards, result = ended
            # A deal cut short (`max_redeals`, `max_decisions`) is truncated.
            done = self.truncations if result["truncated"] else self.terminations
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(seat_rewards[i])
                done[a] = True
                self.infos[a] = {"result": result}
            self._agent_selector_after_end()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _agent_selector_after_end(self) -> None:
        # Every agent is done: each takes one `None` step, from the next seat on.
        seat = self.possible_agents.index(self.agent_selection)
        self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]

    def _was_dead_step(self, action: Any) -> None:
        super()._was_dead_step(action)
        if self.agents and self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]


def raw_env(preset: str | ddz.Rules = "classic", **options: Any) -> DdzEnv:
    return DdzEnv(preset, **options)


def env(preset: str | ddz.Rules = "classic", **options: Any) -> DdzEnv:
    """The AEC env of a preset (or a `Rules`). Options: `actions` ("table" or
    "candidates"; default: table for classic, two-player, laizi), `max_candidates`,
    `history`, `reward` ("score" or "win"), `render_mode`; anything else is a rule
    option (`ddz.Rules(preset, **options)`)."""
    return DdzEnv(preset, **options)


class DdzParallelEnv(_Seats, ParallelEnv):
    """The parallel form: every live agent is given an observation at every step,
    and one action each is taken, of which only the agent to act's is played (the
    others are ignored, as in PettingZoo's turn-based conversion). Each agent's
    observation is its own view of the deal now (`VecEnv.observe_seat`); only the
    agent to act has a mask with ones (and, in the candidate form, candidates).
    `infos[agent]["active_agent"]` names the agent to act. When the deal ends (or is
    cut) every agent is terminated (or truncated), with the rewards and
    `infos[agent]["result"]`, and the observations are each agent's last ones.
    Options are the AEC env's (`env`), and `illegal`: with "raise" (the default) an
    action outside the acting agent's mask raises `ValueError`; with "penalty" it is
    refused, nothing moves, the acting agent gets `illegal_reward` (-1.0) and
    `infos[agent]["illegal_action"]` is True (so PettingZoo's own tests, which sample
    without the mask, run: `parallel_seed_test`)."""

    metadata = {"name": "ddz_parallel_v0", "render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        preset: str | ddz.Rules = "classic",
        *,
        actions: str | None = None,
        max_candidates: int = DEFAULT_CANDIDATES,
        history: int = 15,
        reward: str = "score",
        max_redeals: int | None = 10,
        max_decisions: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        **rule_options: Any,
    ) -> None:
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        self._illegal, self._illegal_reward = illegal, float(illegal_reward)
        self._set_up(
            preset,
            actions,
            max_candidates,
            history,
            reward,
            max_redeals,
            max_decisions,
            render_mode,
            rule_options,
        )
        self._blank = self.form.blank()
        self.agents: list[str] = []
        self._last: dict[str, Any] = {}

    def _observations(self) -> dict[str, Any]:
        deal = self._deal
        seat = deal.seat
        extra, mask, self._picks = self.form.encode(deal.obs)
        out = {}
        for s, agent in enumerate(self.possible_agents):
            if s == seat:
                out[agent] = {"observation": {**deal.row(), **extra}, "action_mask": mask}
            else:
                view = deal.vec.observe_seat(0, s)
                blank = {k: v.copy() for k, v in self._blank.items()}
                nothing = np.zeros(self.form.size, np.int8)
                out[agent] = {"observation": {**view, **blank}, "action_mask": nothing}
        self._last = out
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        active = self.possible_agents[self._deal.seat]
        return {a: {"active_agent": active} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._deal.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            return {}, {}, {}, {}, {}
        agent = self.possible_agents[self._deal.seat]
        if agent not in actions:
            raise ValueError(f"no action for {agent}, the agent to act")
        action = actions[agent]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int (an action id), not {action!r}")
        index = self.form.legal_index(int(action), self._picks)
        if index is None:
            if self._illegal == "raise":
                raise ValueError(
                    f"action {action} is not legal for {agent} now (see observation['action_mask'])"
                )
            return self._refused(agent)
        # The table form steps `VecEnv` by the action id itself.
        if isinstance(self.form, TableForm):
            ended = self._deal.step(int(action), by="id")
        else:
            ended = self._deal.step(index)
        live = self.agents
        if ended is None:
            zeros = dict.fromkeys(live, 0.0)
            flags = dict.fromkeys(live, False)
            obs = self._observations()
            if self.render_mode == "human":
                self.render()
            return obs, zeros, flags, dict(flags), self._infos()
        seat_rewards, result = ended
        cut = bool(result["truncated"])
        rewards = {a: float(seat_rewards[i]) for i, a in enumerate(self.possible_agents)}
        terminated = dict.fromkeys(live, not cut)
        truncated = dict.fromkeys(live, cut)
        infos = {a: {"result": result} for a in live}
        last = {
            a: {**o, "action_mask": np.zeros(self.form.size, np.int8)}
            for a, o in self._last.items()
        }
        self.agents = []
        return last, rewards, terminated, truncated, infos

    def _refused(self, agent: str):
        """An illegal action in the penalty mode: nothing moves, the same
        observations again, `illegal_reward` to the agent to act."""
        live = self.agents
        obs = {
            a: {
                "observation": {k: v.copy() for k, v in o["observation"].items()},
                "action_mask": o["action_mask"].copy(),
            }
            for a, o in self._last.items()
        }
        rewards = {a: (self._illegal_reward if a == agent else 0.0) for a in live}
        flags = dict.fromkeys(live, False)
        infos = self._infos()
        infos[agent]["illegal_action"] = True
        return obs, rewards, flags, dict(flags), infos


def parallel_env(preset: str | ddz.Rules = "classic", **options: Any) -> DdzParallelEnv:
    """The parallel env of a preset (or a `Rules`), with the AEC env's options."""
    return DdzParallelEnv(preset, **options)
