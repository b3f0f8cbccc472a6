"""Reinforcement-learning adapters over `ddz.VecEnv` (docs/rl.md).

Import the one you need; each brings its own optional library (the `rl`
extra: ``pip install 'ddz[rl]'``) and `import ddz` brings none of them:

- `ddz.envs.pettingzoo`: an AEC env for every preset (`env(preset, **options)`);
- `ddz.envs.gymnasium`: `SeatEnv(preset, seat, opponents=...)`, one seat against agents;
- `ddz.envs.douzero`: `Env(objective)`, DouZero's classic env and encoding (numpy only).
"""
