"""`ddz.distributed.rollouts`: `VecEnv` workers as Ray actors, each driving
a copy of the user's policy; their trajectories joined as one env's."""

from __future__ import annotations

from typing import Any

import ray
from ray import cloudpickle

import ddz
from ddz import Rules

from .cluster import check_version, connect
from .parts import RETRIES
from .trajectory import Policy, collect, join


class _Worker:
    """One `VecEnv` on one CPU. A run starts from a reset and the policy as
    it was unpickled, so a run redone after a restart is the same run."""

    def __init__(
        self,
        rules: dict,
        envs: int,
        seed: int,
        policy: Policy,
        index: int,
        history: int,
        reward: str,
        version: str,
    ) -> None:
        check_version(version)
        self.env = ddz.VecEnv(
            Rules.from_dict(rules), envs, seed=seed, threads=1, history=history, reward=reward
        )
        for_worker = getattr(policy, "for_worker", None)
        self.policy = for_worker(index) if for_worker is not None else policy

    def run(self, steps: int) -> dict:
        return collect(self.env, self.policy, steps)


#: The actor: one CPU held for the run; a dead worker is restarted and its
#: run redone.
Worker = ray.remote(num_cpus=1, max_restarts=RETRIES, max_task_retries=RETRIES)(_Worker)


def rollouts(
    preset: str | Rules,
    policy: Policy,
    steps: int,
    num_workers: int = 2,
    envs_per_worker: int = 64,
    seed: int = 0,
    address: str | None = None,
    *,
    history: int = 15,
    reward: str = "score",
) -> dict:
    """`steps` steps of `num_workers` Ray actors, each a ``VecEnv`` of
    `envs_per_worker` envs driven by ``policy(obs) -> actions`` (obs: the
    dict of arrays `VecEnv.step` gives; actions: one legal index per env).

    Worker ``w`` plays the series ``seed + w * envs_per_worker ..``, so the
    result has the layout of `collect` on one ``VecEnv(preset,
    num_workers * envs_per_worker, seed)``, env axis worker by worker, and
    equals it when the policy treats each env on its own. The policy is
    pickled (cloudpickle) and each worker gets its own copy; one with a
    ``for_worker(index)`` method is replaced by what that returns on worker
    ``index`` (`RandomPolicy` seeds its stream so). Same arguments, same
    arrays. A worker that dies is restarted and its run redone.
    """
    for name, value, low in (
        ("steps", steps, 0),
        ("num_workers", num_workers, 1),
        ("envs_per_worker", envs_per_worker, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an int >= {low}, not {value!r}")
    if not callable(policy):
        raise TypeError(f"policy must be a callable from observations to actions, not {policy!r}")
    try:
        cloudpickle.dumps(policy)
    except Exception as e:
        raise TypeError(f"policy must be picklable to reach the workers: {e}") from None
    rules = preset if isinstance(preset, Rules) else Rules(preset)
    # One env with the last series checks the seeds, history and reward here,
    # before any Ray call.
    last = seed + num_workers * envs_per_worker - 1
    ddz.VecEnv(rules, 1, seed=last, threads=1, history=history, reward=reward)
    connect(address)
    workers: list[Any] = [
        Worker.remote(
            rules.to_dict(),
            envs_per_worker,
            seed + w * envs_per_worker,
            policy,
            w,
            history,
            reward,
            ddz.__version__,
        )
        for w in range(num_workers)
    ]
    runs = {worker.run.remote(steps): (w, worker) for w, worker in enumerate(workers)}
    done: dict[int, dict] = {}
    try:
        while runs:
            ready, _ = ray.wait(list(runs), num_returns=1)
            w, worker = runs.pop(ready[0])
            done[w] = ray.get(ready[0])
            # Its CPU goes to a worker still waiting for one (more workers
            # than CPUs run in turn).
            ray.kill(worker)
    finally:
        for _w, worker in runs.values():
            ray.kill(worker)
    return join([done[w] for w in range(num_workers)])
