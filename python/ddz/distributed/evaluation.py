"""`ddz.distributed.evaluate`: `ddz.evaluate` split by deal index into Ray
tasks. Every deal and every seat's choices are seeded from (seed, deal
index), so the parts joined in order give the local figures exactly."""

from __future__ import annotations

from typing import Any

import ray

import ddz
from ddz import Rules
from ddz.evaluate import Games, Player, _checked, play, summary

from .cluster import check_version, connect, total_cpus
from .parts import RETRIES, plan

#: Tasks per CPU of the cluster when `tasks` is not given: enough to keep
#: every worker busy when some parts take longer than others.
TASKS_PER_CPU = 4


@ray.remote(num_cpus=1, max_retries=RETRIES)
def _evaluate_part(
    rules: dict,
    a: Player,
    b: Player,
    first: int,
    size: int,
    seed: int,
    protocol: str,
    version: str,
) -> Games:
    """Deals `first .. first+size-1`, both games each, on one thread."""
    check_version(version)
    return play(Rules.from_dict(rules), a, b, first, size, seed, protocol, threads=1)


def evaluate(
    preset_or_rules: str | Rules,
    a: Player,
    b: Player,
    deals: int,
    seed: int = 0,
    protocol: str = "douzero",
    tasks: int | None = None,
    address: str | None = None,
) -> dict[str, Any]:
    """`ddz.evaluate` over a Ray cluster: the same figures as
    ``ddz.evaluate(preset_or_rules, a, b, deals, seed, protocol)``, whatever
    the nodes and `tasks` (default: four per CPU of the cluster).

    Built-in policy names play in Rust on each worker. Agents are pickled to
    the workers (each task gets its own copy), so the figures equal the
    local ones when the agents keep nothing from deal to deal (as
    `GreedyAgent`); `address` as in `ddz.distributed.simulate`.
    """
    rules, names = _checked(preset_or_rules, a, b, deals, seed, protocol)
    if tasks is not None and (isinstance(tasks, bool) or not isinstance(tasks, int) or tasks < 1):
        raise ValueError(f"tasks must be a positive int or None, not {tasks!r}")
    connect(address)
    parts = plan(deals, tasks if tasks is not None else TASKS_PER_CPU * total_cpus())
    rules_dict = rules.to_dict()
    refs = [
        _evaluate_part.remote(rules_dict, a, b, first, size, seed, protocol, ddz.__version__)
        for first, size in parts
    ]
    try:
        done = ray.get(refs)
    except BaseException:
        # Ctrl-C or a failed part: the parts still pending are not wanted
        # (only those: cancelling a finished task trips Ray up).
        ready, pending = ray.wait(refs, num_returns=len(refs), timeout=0)
        for ref in pending:
            ray.cancel(ref, force=False)
        raise
    games = Games.join(done)
    return summary(games, rules=rules, a=names[0], b=names[1], seed=seed, protocol=protocol)
