"""Deals per second of ``ddz.distributed.simulate`` on local Ray clusters, and
Ray's cost per task; print a table.

    python benches/distributed.py [--deals N] [--preset P]

On a machine where Ray binds the network address rather than loopback (it
does so whatever ``--node-ip-address`` says), run it in a fresh network
namespace: ``unshare -n sh -c 'ip link set lo up; exec python benches/distributed.py'``.

Rows: ``ddz.simulate`` in this process on 1 and 2 threads (the yardstick);
then a cluster of one node with one CPU, two nodes with one CPU each, and one
node with two CPUs, each playing the same run (default task sizes, about
0.1 s each) after a warm-up run that starts the workers. The cost per task
is measured twice: the latency of one one-deal task after another, and the
extra wall time per task of a run split into one-deal tasks, over the same
deals played locally on as many threads as the cluster has CPUs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ray  # noqa: E402
from compare import machine, version  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

import ddz  # noqa: E402
from ddz import distributed  # noqa: E402
from ddz.distributed import parts as dsim  # noqa: E402

MB = 1024 * 1024


def load() -> str:
    """The machine's load: the figures are only as steady as it is."""
    return f" (load average {os.getloadavg()[0]:.1f})"


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def on_cluster(nodes: list[int], preset: str, deals: int) -> dict:
    """Figures for a cluster of len(nodes) nodes with those CPU counts."""
    small = {"object_store_memory": 100 * MB, "include_dashboard": False}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": nodes[0], **small})
    for cpus in nodes[1:]:
        cluster.add_node(num_cpus=cpus, object_store_memory=100 * MB)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level="WARNING")
    try:
        distributed.simulate(preset, deals // 4, seed=1)  # starts the workers
        seconds = timed(lambda: distributed.simulate(preset, deals, seed=2))
        tasks = len(
            distributed.plan(
                deals,
                None,
                int(distributed.sizing.deals_per_second(ddz.Rules(preset), "random") * 0.1),
            )
        )
        rules = ddz.Rules(preset).to_dict()
        one = dsim._play_part
        ray.get(one.remote(rules, 1, 0, "random", 0, 0, ddz.__version__))
        latency = timed(
            lambda: [
                ray.get(one.remote(rules, 1, 0, "random", 0, k, ddz.__version__))
                for k in range(100)
            ]
        )
        small_tasks = 2000
        split = timed(lambda: distributed.simulate(preset, small_tasks, seed=3, tasks=small_tasks))
        cpus = sum(nodes)
        local = timed(lambda: ddz.simulate(preset, small_tasks, seed=3, threads=cpus))
        return {
            "deals/s": deals / seconds,
            "tasks": tasks,
            "latency ms": latency / 100 * 1000,
            "overhead ms/task": max(0.0, split - local) / small_tasks * 1000 * cpus,
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--preset", default="classic")
    args = parser.parse_args()
    print(f"{machine()}; ddz {version('ddz')}; Ray {ray.__version__}")
    print(f"{args.preset}, random policy, {args.deals:,} deals per run")
    for threads in (1, 2):
        s = timed(lambda t=threads: ddz.simulate(args.preset, args.deals, seed=2, threads=t))
        print(f"  ddz.simulate, {threads} thread(s), no Ray: {args.deals / s:,.0f} deals/s{load()}")
    for label, nodes in (
        ("1 node x 1 CPU", [1]),
        ("2 nodes x 1 CPU", [1, 1]),
        ("1 node x 2 CPUs", [2]),
    ):
        f = on_cluster(nodes, args.preset, args.deals)
        print(
            f"  Ray, {label}: {f['deals/s']:,.0f} deals/s in {f['tasks']} tasks; "
            f"one-deal task {f['latency ms']:.1f} ms end to end, "
            f"{f['overhead ms/task']:.2f} ms of CPU per task in a run of one-deal tasks{load()}"
        )


if __name__ == "__main__":
    main()
