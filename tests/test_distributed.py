"""`ddz.distributed` (docs/distributed.md): the checks that need no cluster
here, and the Ray scenarios of tests/ray_scenarios.py run once, in a fresh
network namespace, on a real two-node cluster."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ddz

HERE = Path(__file__).parent
#: The whole cluster run: Ray's start-up, two nodes, every scenario.
#: A guard against a hang, not a speed check: the run takes about a minute
#: (over three on this 2-core machine at a load average of 20).
CLUSTER_TIMEOUT = 420

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install '.[ray]')",
)


def test_import_ddz_never_imports_ray() -> None:
    code = (
        "import sys, ddz; ddz.simulate('classic', 5); ddz.VecEnv('classic', 2).reset(); "
        "import ddz.cli; assert 'ray' not in sys.modules, 'ray imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@needs_ray
def test_plan_covers_the_run_in_order_without_empty_parts() -> None:
    from ddz.distributed import plan

    for games in (1, 2, 7, 100, 12_345):
        for tasks in (None, 1, 3, 7, 100, 20_000):
            parts = plan(games, tasks, deals_per_task=500)
            want = min(tasks, games) if tasks else -(-games // 500)
            assert len(parts) == want
            assert parts[0][0] == 0 and all(size >= 1 for _, size in parts)
            assert all(a + n == b for (a, n), (b, _) in zip(parts, parts[1:]))
            assert sum(size for _, size in parts) == games
            assert max(n for _, n in parts) - min(n for _, n in parts) <= 1 or tasks is None


@needs_ray
def test_workers_trajectories_join_as_one_wide_env() -> None:
    from ddz.distributed import collect
    from ddz.distributed.trajectory import join

    def policy(obs: dict) -> np.ndarray:
        counts = np.diff(obs["legal_offsets"])
        return (obs["hand"].astype(np.int64).sum(1) + obs["multiplier"]) % counts

    for preset, steps in (("classic", 90), ("six-player-3v3", 300)):
        wide = collect(ddz.VecEnv(preset, 7, seed=40), policy, steps)
        parts = [
            collect(ddz.VecEnv(preset, n, seed=40 + first), policy, steps)
            for first, n in ((0, 3), (3, 1), (4, 3))
        ]
        joined = join(parts)
        assert sorted(joined["obs"]) == sorted(wide["obs"])
        for key, value in wide["obs"].items():
            assert joined["obs"][key].dtype == value.dtype
            assert np.array_equal(joined["obs"][key], value), key
        for key in ("actions", "rewards", "terminated"):
            assert np.array_equal(joined[key], wide[key]), key
        assert wide["terminated"].any()
        offsets = wide["obs"]["legal_offsets"]
        assert offsets.shape == (steps * 7 + 1,) and offsets[-1] == len(wide["obs"]["legal_kind"])
        # Every action taken is within its (step, env)'s legal rows.
        assert (wide["actions"].ravel() < np.diff(offsets)).all()


@needs_ray
def test_collect_keeps_copies_and_the_first_observation() -> None:
    from ddz.distributed import collect

    env = ddz.VecEnv("classic", 3, seed=1)
    first = {k: v.copy() for k, v in env.reset().items()}
    run = collect(env, lambda obs: np.zeros(3, np.int64), 5)
    for key in ("hand", "seat", "phase", "roles"):
        assert np.array_equal(run["obs"][key][0], first[key]), key
    n0 = first["legal_offsets"][-1]
    assert np.array_equal(run["obs"]["legal_kind"][:n0], first["legal_kind"])
    empty = collect(env, lambda obs: np.zeros(3, np.int64), 0)
    assert empty["actions"].shape == (0, 3) and empty["obs"]["legal_offsets"].tolist() == [0]


@needs_ray
def test_random_policy_gives_each_worker_its_own_stream() -> None:
    from ddz.distributed import RandomPolicy

    obs = {"legal_offsets": np.arange(0, 1001, 10)}  # 100 envs of 10 actions
    a, b = RandomPolicy(3).for_worker(0), RandomPolicy(3).for_worker(1)
    assert not np.array_equal(a(obs), b(obs))
    assert np.array_equal(RandomPolicy(3).for_worker(1)(obs), RandomPolicy(3, 1)(obs))
    draws = RandomPolicy(0)(obs)
    assert draws.min() >= 0 and draws.max() <= 9


@needs_ray
def test_bad_arguments_are_refused_before_any_ray_call() -> None:
    import ray

    from ddz import distributed

    for args, kwargs, needle in [
        (("nope", 10), {}, "nope"),
        (("classic", -1), {}, "games"),
        (("classic", 1.5), {}, "games"),
        (("classic", 10), {"tasks": 0}, "tasks"),
        (("classic", 10), {"record": -2}, "record"),
        (("classic", 10), {"policy": "smart"}, "smart"),
        (("classic", 10, -1), {}, "seed"),
    ]:
        with pytest.raises(ValueError, match=needle):
            distributed.simulate(*args, **kwargs)
    policy = distributed.RandomPolicy()
    for args, kwargs, error, needle in [
        (("classic", policy, -1), {}, ValueError, "steps"),
        (("classic", policy, 5, 0), {}, ValueError, "num_workers"),
        (("classic", policy, 5, 1, 0), {}, ValueError, "envs_per_worker"),
        (("classic", "random", 5), {}, TypeError, "callable"),
        (("classic", policy, 5), {"reward": "gold"}, ValueError, "gold"),
        (("nope", policy, 5), {}, ValueError, "nope"),
    ]:
        with pytest.raises(error, match=needle):
            distributed.rollouts(*args, **kwargs)
    for args, kwargs, needle in [
        (("nope", "greedy", "random", 10), {}, "nope"),
        (("classic", "greedy", "smart", 10), {}, "smart"),
        (("classic", "greedy", "random", 0), {}, "deals"),
        (("five-player", "greedy", "random", 10), {}, "one-landlord"),
        (("classic", "greedy", "random", 10), {"tasks": 0}, "tasks"),
    ]:
        with pytest.raises(ValueError, match=needle):
            distributed.evaluate(*args, **kwargs)
    import threading

    lock = threading.Lock()
    with pytest.raises(TypeError, match="picklable"):
        distributed.rollouts("classic", lambda obs, lock=lock: obs["seat"] * 0, 5)
    assert not ray.is_initialized()


def _in_a_fresh_network() -> list[str] | None:
    """The command prefix that runs a process in a new network namespace
    with loopback up (Ray then binds 127.0.0.1), or None where that is not
    allowed."""
    if shutil.which("unshare") is None:
        return None
    for prefix in (["unshare", "-n"], ["unshare", "-rn"]):
        probe = subprocess.run(
            [*prefix, "sh", "-c", "ip link set lo up"], capture_output=True, timeout=10
        )
        if probe.returncode == 0:
            return prefix
    return None


@pytest.fixture(scope="module")
def cluster_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    prefix = _in_a_fresh_network()
    if prefix is None:
        pytest.skip("cannot make a network namespace (unshare -n) to keep Ray on 127.0.0.1")
    out = tmp_path_factory.mktemp("ray") / "results.jsonl"
    script = f"ip link set lo up; exec {sys.executable} {HERE / 'ray_scenarios.py'} {out}"
    p = subprocess.run(
        [*prefix, "sh", "-c", script], capture_output=True, text=True, timeout=CLUSTER_TIMEOUT
    )
    lines = out.read_text().splitlines() if out.exists() else []
    # Lines named with a leading "_" are timings, not scenarios.
    results = {r["name"]: r for r in map(json.loads, lines) if not r["name"].startswith("_")}
    if p.returncode != 0 and not results:
        pytest.fail(f"the Ray scenarios did not run:\n{p.stderr[-3000:]}")
    return results


SCENARIOS = [
    "two_nodes",
    "simulate_equals_local_whatever_the_tasks",
    "each_node_plays_the_same_deals",
    "evaluate_equals_local_whatever_the_tasks",
    "a_node_with_another_ddz_refuses",
    "cli_summary_and_progress_bar_as_local",
    "rollouts_equal_one_local_env",
    "rollouts_of_a_random_policy_are_its_local_workers_runs",
    "a_killed_task_is_retried_and_the_run_is_the_same",
    "a_killed_rollout_worker_is_restarted_and_the_run_is_the_same",
    "joins_the_cluster_by_address_or_by_ray_address",
    "puzzles_equal_local_whatever_the_blocks",
]


@needs_ray
@pytest.mark.parametrize("name", SCENARIOS)
def test_on_a_two_node_cluster(cluster_results: dict[str, dict], name: str) -> None:
    assert name in cluster_results, f"scenario {name} did not report (see the fixture)"
    result = cluster_results[name]
    assert result["ok"], result["detail"]


@needs_ray
def test_every_scenario_is_checked(cluster_results: dict[str, dict]) -> None:
    assert sorted(cluster_results) == sorted(SCENARIOS)


def test_without_ray_the_package_and_the_cli_say_how_to_install_it() -> None:
    # `sys.modules["ray"] = None` makes `import ray` fail as if not installed.
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "try:\n"
        "    import ddz.distributed\n"
        "except ImportError as e:\n"
        "    assert \"pip install 'ddz[ray]'\" in str(e), e\n"
        "else:\n"
        "    raise AssertionError('imported')\n"
        "from ddz.cli import main\n"
        "sys.exit(main(['simulate', 'classic', '-n', '10', '--ray']))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ddz: error: "), p.stderr
    assert "pip install 'ddz[ray]'" in lines[0]
    assert p.stdout == ""
