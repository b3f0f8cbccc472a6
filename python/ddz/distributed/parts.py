"""`ddz.distributed.simulate`: `ddz.simulate` split by deal index into Ray
tasks. Every deal is seeded from (seed, deal index) alone, so the parts
joined in order are the local run, bit for bit (docs/distributed.md)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import ray

import ddz
from ddz import Rules
from ddz.types import SimulateResult

from .cluster import check_version, connect, total_cpus
from .sizing import deals_per_second

#: Seconds of play a task aims for when `tasks` is not given: Ray costs a
#: few milliseconds per task (docs/performance.md), a few percent of this, while a short
#: run still spreads over many workers.
TASK_SECONDS = 0.1
#: Times Ray reruns a task whose worker process or node died.
RETRIES = 3
#: Tasks in flight per CPU of the cluster: enough to keep every worker busy,
#: few enough that finished parts do not pile up in the object store.
IN_FLIGHT_PER_CPU = 2


@ray.remote(num_cpus=1, max_retries=RETRIES)
def _play_part(
    rules: dict, size: int, seed: int, policy: str, record: int, first: int, version: str
) -> SimulateResult:
    """Deals `first .. first+size-1` of the series, on one thread (the CPU Ray
    gave this task)."""
    check_version(version)
    return ddz.simulate(
        Rules.from_dict(rules),
        size,
        seed=seed,
        threads=1,
        policy=policy,
        record=record,
        first=first,
    )


def plan(games: int, tasks: int | None = None, deals_per_task: int = 1) -> list[tuple[int, int]]:
    """The parts of a run as ``(first, size)``: `tasks` equal parts (never an
    empty one), or else parts of `deals_per_task` deals."""
    if tasks is None:
        tasks = math.ceil(games / max(1, deals_per_task))
    tasks = max(1, min(tasks, games))
    base, extra = divmod(games, tasks)
    parts, first = [], 0
    for i in range(tasks):
        size = base + (i < extra)
        parts.append((first, size))
        first += size
    return parts


def _rules(preset_or_rules: str | Rules) -> Rules:
    return preset_or_rules if isinstance(preset_or_rules, Rules) else Rules(preset_or_rules)


def _checked(
    preset_or_rules: str | Rules, games: int, seed: int, policy: str, tasks: int | None, record: int
) -> Rules:
    """Every argument checked on the driver, before any Ray call."""
    rules = _rules(preset_or_rules)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a non-negative int, not {games!r}")
    if tasks is not None and (isinstance(tasks, bool) or not isinstance(tasks, int) or tasks < 1):
        raise ValueError(f"tasks must be a positive int or None, not {tasks!r}")
    if isinstance(record, bool) or not isinstance(record, int) or record < 0:
        raise ValueError(f"record must be a non-negative int, not {record!r}")
    # No deal played: the local call checks the seed and the policy.
    ddz.simulate(rules, 0, seed=seed, threads=1, policy=policy)
    return rules


def iter_parts(
    preset_or_rules: str | Rules,
    games: int,
    seed: int = 0,
    policy: str = "random",
    tasks: int | None = None,
    address: str | None = None,
    record: int = 0,
) -> Iterator[tuple[int, SimulateResult]]:
    """The parts of a run as ``(first deal, arrays)``, as they finish (not in
    order). Ctrl-C, or leaving the loop early, cancels the tasks left."""
    rules = _checked(preset_or_rules, games, seed, policy, tasks, record)
    if games == 0:
        return
    if tasks is None:
        parts = plan(games, None, math.ceil(deals_per_second(rules, policy) * TASK_SECONDS))
    else:
        parts = plan(games, tasks)
    connect(address)
    rules_dict = rules.to_dict()
    window = IN_FLIGHT_PER_CPU * total_cpus()
    todo = iter(parts)
    running: dict[ray.ObjectRef, int] = {}
    try:
        while True:
            for first, size in todo:
                keep = max(0, min(size, record - first))
                ref = _play_part.remote(
                    rules_dict, size, seed, policy, keep, first, ddz.__version__
                )
                running[ref] = first
                if len(running) >= window:
                    break
            if not running:
                return
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                yield running.pop(ref), ray.get(ref)
    finally:
        for ref in running:
            ray.cancel(ref, force=False)


def simulate(
    preset_or_rules: str | Rules,
    games: int,
    seed: int = 0,
    policy: str = "random",
    tasks: int | None = None,
    address: str | None = None,
    record: int = 0,
) -> SimulateResult:
    """`ddz.simulate` over a Ray cluster: the same dict of arrays, equal bit
    for bit to ``ddz.simulate(preset_or_rules, games, seed, policy=policy,
    record=record)`` whatever the nodes and `tasks`.

    The games are split by index range into `tasks` Ray tasks (default:
    parts of about 0.1 s each, by a short timed run on this machine), each
    on one CPU. ``address`` is a head node's ``HOST:PORT`` (else
    ``RAY_ADDRESS``, else a local cluster is started); a process already
    connected to Ray stays on its cluster. A task whose worker dies is
    rerun (up to 3 times).
    """
    parts = dict(iter_parts(preset_or_rules, games, seed, policy, tasks, address, record))
    if not parts:  # no deal: the local call gives the empty arrays
        rules = _rules(preset_or_rules)
        return ddz.simulate(rules, 0, seed=seed, threads=1, policy=policy, record=record)
    ordered: list[dict[str, Any]] = [dict(parts[first]) for first in sorted(parts)]
    out: dict[str, Any] = {
        key: np.concatenate([part[key] for part in ordered])
        for key in ordered[0]
        if key != "records"
    }
    if record:
        out["records"] = [r for part in ordered for r in part.get("records", [])]
    return cast(SimulateResult, out)
