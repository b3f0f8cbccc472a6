"""The Ray scenarios of tests/test_distributed.py, run in one process on one
cluster (a head node and a second node, one CPU each), so Ray's start-up is
paid once. Run alone in a fresh network namespace, where Ray binds 127.0.0.1:

    unshare -n sh -c 'ip link set lo up; exec python tests/ray_scenarios.py OUT'

Writes one JSON line per scenario to OUT: ``{"name", "ok", "detail"}``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Callable

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import numpy as np  # noqa: E402
import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: E402

import ddz  # noqa: E402
from ddz import distributed  # noqa: E402
from ddz.distributed import parts as dsim  # noqa: E402
from ddz.distributed.trajectory import join  # noqa: E402

MB = 1024 * 1024
#: Small nodes: the tests need little, and the machine is shared.
NODE = {"num_cpus": 1, "object_store_memory": 80 * MB, "memory": 512 * MB}
SCENARIOS: list[tuple[str, Callable[[str], None]]] = []


def scenario(fn: Callable[[str], None]) -> Callable[[str], None]:
    SCENARIOS.append((fn.__name__, fn))
    return fn


def assert_same_run(got: dict, want: dict) -> None:
    """Every array equal with its dtype and shape, the records equal."""
    assert list(got) == list(want), (list(got), list(want))
    for key, value in want.items():
        if key == "records":
            assert got[key] == value, "records differ"
            continue
        assert got[key].dtype == value.dtype, (key, got[key].dtype, value.dtype)
        assert got[key].shape == value.shape, (key, got[key].shape, value.shape)
        assert np.array_equal(got[key], value), key


def assert_same_arrays(got: dict, want: dict, path: str = "") -> None:
    assert sorted(got) == sorted(want), (path, sorted(got), sorted(want))
    for key, value in want.items():
        if isinstance(value, dict):
            assert_same_arrays(got[key], value, f"{path}{key}.")
        else:
            assert got[key].dtype == value.dtype and got[key].shape == value.shape, path + key
            assert np.array_equal(got[key], value), path + key


@scenario
def two_nodes(address: str) -> None:
    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2, alive
    assert all(n["NodeManagerAddress"] == "127.0.0.1" for n in alive), alive


@scenario
def simulate_equals_local_whatever_the_tasks(address: str) -> None:
    cases = [
        ("classic", 3000, 7, "random", None, 0),
        ("classic", 3000, 7, "random", 1, 0),
        ("classic", 3000, 7, "random", 5, 0),
        ("classic", 300, 21, "random", 7, 100),  # the records span three parts
        ("classic", 60, 2, "greedy", 60, 60),  # one deal per task
        ("laizi", 500, 3, "random", 4, 30),
        ("five-player", 400, 9, "random", 3, 10),
        ("five-player-3deck", 200, 1, "random", 3, 0),
        ("six-player-3v3", 300, 4, "random", 6, 5),
        ("six-player-teams", 200, 2, "greedy", 2, 0),
        ("two-player", 500, 8, "random", None, 500),
    ]
    for preset, games, seed, policy, tasks, record in cases:
        want = ddz.simulate(preset, games, seed=seed, policy=policy, record=record)
        got = distributed.simulate(preset, games, seed, policy, tasks=tasks, record=record)
        try:
            assert_same_run(got, want)
        except AssertionError as e:
            raise AssertionError(f"{preset} games={games} tasks={tasks}: {e}") from None
    # A rule set with options travels as its dict.
    rules = ddz.Rules("classic", spring=False, sequences="classic")
    assert_same_run(distributed.simulate(rules, 500, 3, tasks=4), ddz.simulate(rules, 500, 3))
    empty = distributed.simulate("classic", 0, 1)
    assert_same_run(empty, ddz.simulate("classic", 0, 1))


@scenario
def each_node_plays_the_same_deals(address: str) -> None:
    rules = ddz.Rules("classic").to_dict()
    want = ddz.simulate("classic", 200, seed=4, record=3, first=1000)
    for node in (n for n in ray.nodes() if n["Alive"]):
        pinned = dsim._play_part.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
        )
        got = ray.get(pinned.remote(rules, 200, 4, "random", 3, 1000, ddz.__version__))
        assert_same_run(got, want)


@scenario
def evaluate_equals_local_whatever_the_tasks(address: str) -> None:
    from ddz.agents import GreedyAgent

    cases = [
        ("classic", "greedy", "random", 300, 5, "douzero", None),
        ("classic", "random", "greedy", 301, 6, "douzero", 7),
        ("laizi", "greedy", "random", 100, 2, "douzero", 3),
        ("five-player", "greedy", "random", 120, 1, "full", 4),
        ("six-player-3v3", "random", "greedy", 60, 3, "full", 2),
        ("classic", GreedyAgent(), "greedy", 20, 4, "douzero", 3),  # through ddz.Game
    ]
    for preset, a, b, deals, seed, protocol, tasks in cases:
        want = ddz.evaluate(preset, a, b, deals, seed=seed, protocol=protocol)
        got = distributed.evaluate(preset, a, b, deals, seed=seed, protocol=protocol, tasks=tasks)
        assert got == want, (preset, protocol, tasks, got, want)


@scenario
def puzzles_equal_local_whatever_the_blocks(address: str) -> None:
    from ddz import puzzles
    from ddz.distributed import puzzles as ray_puzzles

    for hands, cards, block in ((2, (4, 7), 5), (3, (2, 4), 16)):
        want = puzzles.generate("classic", n=4, seed=3, hands=hands, cards=cards, threads=1)
        got = ray_puzzles.generate("classic", n=4, seed=3, hands=hands, cards=cards, block=block)
        assert got == want, (hands, block)


@scenario
def a_node_with_another_ddz_refuses(address: str) -> None:
    ref = dsim._play_part.remote(ddz.Rules().to_dict(), 5, 0, "random", 0, 0, "0.0.0-other")
    try:
        ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        assert "install the same ddz on every node" in str(e), str(e)
    else:
        raise AssertionError("a task from a driver with another ddz ran")


def run_ddz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ddz", *args], capture_output=True, text=True, timeout=60
    )


def without_speed(table: str) -> list[str]:
    """The summary table's lines but the speed, which differs run to run."""
    return [line for line in table.splitlines() if "deals per second" not in line]


@scenario
def cli_summary_and_progress_bar_as_local(address: str) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from test_cli import run_with_stderr_on_a_terminal

    args = ("simulate", "classic", "-n", "4000", "--seed", "9")
    local = run_ddz(*args)
    # On a terminal: the same bar as a local run, then the same table.
    stdout, stderr = run_with_stderr_on_a_terminal(*args, "--ray", address)
    assert "simulating" in stderr and "4000/4000" in stderr, stderr
    assert local.returncode == 0 and "landlord side wins" in stdout, stdout
    assert without_speed(stdout) == without_speed(local.stdout), (stdout, local.stdout)
    both = run_ddz(*args, "--threads", "2", "--ray", address)
    assert both.returncode == 2 and "--threads does not apply with --ray" in both.stderr


def row_wise(obs: dict) -> np.ndarray:
    """A policy that looks at each env alone: the same choice for the same
    observation, whichever worker or batch it is in."""
    counts = np.diff(obs["legal_offsets"])
    salt = obs["hand"].astype(np.int64).sum(1) * 7 + obs["cards_left"].astype(np.int64).sum(1)
    return salt % counts


@scenario
def rollouts_equal_one_local_env(address: str) -> None:
    # A lambda too: any callable cloudpickle takes will do. Three workers on
    # two CPUs: the third runs when a CPU is free.
    got = distributed.rollouts("five-player", lambda obs: row_wise(obs), 150, 3, 2, seed=17)
    want = distributed.collect(ddz.VecEnv("five-player", 6, seed=17), row_wise, 150)
    assert_same_arrays(got, want)
    assert got["terminated"].any(), "no deal ended: a weak check"
    assert got["actions"].shape == (150, 6)


@scenario
def rollouts_of_a_random_policy_are_its_local_workers_runs(address: str) -> None:
    # Each worker's own stream, from (seed, worker): the same arrays as the
    # workers' runs replayed here, hence the same for the same seed.
    policy = distributed.RandomPolicy(3)
    got = distributed.rollouts("classic", policy, 120, 2, 4, seed=5)
    want = join(
        [
            distributed.collect(ddz.VecEnv("classic", 4, seed=5 + 4 * w), policy.for_worker(w), 120)
            for w in range(2)
        ]
    )
    assert_same_arrays(got, want)
    assert len(np.unique(got["actions"])) > 2, "not the uniform policy"
    assert got["terminated"].any(), "no deal ended: a weak check"


def processes_titled(prefix: str) -> list[int]:
    """Pids whose command line (Ray's process title) starts with `prefix`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if cmdline.startswith(prefix.encode()):
                found.append(int(entry.name))
    return found


def kill_one_mid_run(title: str, run: Callable[[], dict]) -> tuple[dict, int]:
    """Run `run` in a thread, SIGKILL the first process titled `title` while
    it runs, and return the run's result and the pid killed."""
    result: dict = {}

    def target() -> None:
        try:
            result["value"] = run()
        except BaseException as e:  # reported below
            result["error"] = e

    thread = threading.Thread(target=target)
    thread.start()
    killed = 0
    deadline = time.monotonic() + 30
    while not killed and thread.is_alive() and time.monotonic() < deadline:
        for pid in processes_titled(title):
            os.kill(pid, signal.SIGKILL)
            killed = pid
            break
        time.sleep(0.005)
    thread.join(60)
    if "error" in result:
        raise result["error"]
    assert killed, f"no process titled {title!r} was seen running"
    return result["value"], killed


@scenario
def a_killed_task_is_retried_and_the_run_is_the_same(address: str) -> None:
    want = ddz.simulate("classic", 12_000, seed=23, record=2)
    got, pid = kill_one_mid_run(
        "ray::_play_part", lambda: distributed.simulate("classic", 12_000, 23, tasks=8, record=2)
    )
    assert_same_run(got, want)


@scenario
def a_killed_rollout_worker_is_restarted_and_the_run_is_the_same(address: str) -> None:
    want = distributed.collect(ddz.VecEnv("classic", 8, seed=2), row_wise, 1500)
    got, pid = kill_one_mid_run(
        "ray::_Worker.run", lambda: distributed.rollouts("classic", row_wise, 1500, 2, 4, seed=2)
    )
    assert_same_arrays(got, want)


@scenario
def joins_the_cluster_by_address_or_by_ray_address(address: str) -> None:
    want = ddz.simulate("classic", 500, seed=6)
    for how in ("address", "RAY_ADDRESS"):
        ray.shutdown()
        if how == "address":
            got = distributed.simulate("classic", 500, 6, tasks=3, address=address)
        else:
            os.environ["RAY_ADDRESS"] = address
            try:
                got = distributed.simulate("classic", 500, 6, tasks=3)
            finally:
                del os.environ["RAY_ADDRESS"]
        assert ray.is_initialized() and len(ray.nodes()) == 2, how
        assert_same_run(got, want)


def main() -> None:
    out = open(sys.argv[1], "w")
    only = set(sys.argv[2:])
    t0 = time.monotonic()
    cluster = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False})
    cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level="WARNING")
    out.write(json.dumps({"name": "_cluster_start", "seconds": round(time.monotonic() - t0, 2)}))
    out.write("\n")
    try:
        for name, fn in SCENARIOS:
            if only and name not in only:
                continue
            start = time.monotonic()
            try:
                fn(cluster.address)
                ok, detail = True, ""
            except BaseException:
                ok, detail = False, traceback.format_exc()
            seconds = round(time.monotonic() - start, 2)
            line = {"name": name, "ok": ok, "detail": detail, "seconds": seconds}
            out.write(json.dumps(line) + "\n")
            out.flush()
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    main()
