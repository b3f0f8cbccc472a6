"""Reinforcement-learning adapters over `ddz.VecEnv` (docs/rl.md).

Import the one you need; each brings its own optional library (the `rl`
extra: ``pip install 'ddz[rl]'``) and `import ddz` brings none of them:

- `ddz.envs.pettingzoo`: an AEC env for every preset (`env(preset, **options)`),
  and its parallel form (`parallel_env(preset, **options)`);
- `ddz.envs.gymnasium`: `SeatEnv(preset, seat, opponents=...)`, one seat against
  agents, and `VectorSeatEnv(preset, num_envs, seat, opponents=...)`, a
  `gymnasium.vector.VectorEnv` stepped in one call;
- `ddz.envs.douzero`: `Env(objective)`, DouZero's classic env and encoding (numpy only).

`action_table(preset)` (numpy only) is the fixed action ids every one of them,
and `VecEnv`'s `legal_ids`, use.
"""

from ddz.envs._actions import ActionTable, action_table

__all__ = ["ActionTable", "action_table"]
