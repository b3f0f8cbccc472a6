"""A core install (`pip install .`: numpy and rich, no extra) runs every
core command and the README's examples; what needs an extra says which in
one line and exits 2.

CI installs every extra, so two stand-ins for a machine without them:
- the commands run with tests/core_only/sitecustomize.py first on their
  path, which makes every installed package outside ddz's core
  requirements unimportable (starlette, uvicorn, ray, gymnasium, ...);
- a fresh virtualenv that holds nothing but ddz, numpy, rich and rich's
  own requirements (linked from this environment) runs `python -m ddz`.
"""

from __future__ import annotations

import importlib.metadata as metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from core_only.closure import core_closure

import ddz
from ddz.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
CORE_ONLY = Path(__file__).resolve().parent / "core_only"
EXTRA_LINE = re.compile(r"^ddz: error: .*pip install 'ddz\[(serve|ray|rl)\]'")


def core_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CORE_ONLY), env.get("PYTHONPATH")]))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(COLUMNS="100", NO_COLOR="1", TERM="dumb")
    return env


def run(args: list[str] | str, stdin: str = "", env=None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        args,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        env=env or core_env(),
        cwd=kw.pop("cwd", ROOT),
        shell=isinstance(args, str),
        **kw,
    )


def assert_ok(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, f"{done.args}: exit {done.returncode}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr


def test_the_blocker_blocks_the_extras_and_keeps_the_core() -> None:
    probe = (
        "import importlib, json\n"
        "names = ['starlette', 'fastapi', 'uvicorn', 'pydantic', 'httpx', 'websockets',\n"
        "         'ray', 'gymnasium', 'pettingzoo', 'selenium', 'orjson', 'numpy', 'rich']\n"
        "got = {}\n"
        "for n in names:\n"
        "    try:\n"
        "        importlib.import_module(n); got[n] = True\n"
        "    except ImportError:\n"
        "        got[n] = False\n"
        "print(json.dumps(got))\n"
    )
    done = run([sys.executable, "-c", probe])
    assert_ok(done)
    got = json.loads(done.stdout)
    assert got.pop("numpy") and got.pop("rich")
    assert not any(got.values()), f"importable in the core-only run: {got}"


def subcommands() -> list[str]:
    parser = build_parser()
    (group,) = [a for a in parser._actions if a.dest == "command"]
    return sorted(group.choices)


def test_every_help_works_without_extras() -> None:
    assert_ok(run(["ddz", "--help"]))
    assert_ok(run([sys.executable, "-m", "ddz", "--help"]))
    names = subcommands()
    assert {"moves", "simulate", "eval", "serve", "replay", "solve"} <= set(names)
    for name in names:
        done = run(["ddz", name, "--help"])
        assert_ok(done)
        assert done.stdout.startswith(f"usage: ddz {name}"), done.stdout[:200]


def test_the_readmes_first_command_as_written() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)\n```", readme, re.DOTALL)
    assert first is not None
    install, _, command = first[1].partition(" && ")
    assert install.strip() == "pip install ."  # the core install, no extra
    done = run(command)
    assert_ok(done)
    assert "six-player-2v4" in done.stdout and "100,000" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["moves", "classic", "3334445566XD", "--prev", "8889"],
        ["classify", "classic", "333444555666"],
        ["simulate", "laizi", "-n", "2000", "--seed", "3"],
        ["eval", "classic", "greedy", "random", "-n", "20"],
        ["solve", "classic", "DAQQJJT999844", "X22AAT886633"],
        ["bench", "classic"],
    ],
    ids=lambda a: a[0],
)
def test_core_commands_run_without_extras(args: list[str]) -> None:
    done = run(["ddz", *args])
    assert_ok(done)
    assert done.stdout.strip()


def test_play_runs_without_extras() -> None:
    done = run(["ddz", "play", "classic", "--seed", "1"], stdin="")
    assert_ok(done)
    assert "your hand" in done.stdout


def test_replay_falls_back_to_text_without_the_serve_extra(tmp_path: Path) -> None:
    game = ddz.play("classic", [ddz.agents.GreedyAgent()] * 3, seed=3)
    record = tmp_path / "deal.json"
    record.write_text(game.to_json(), encoding="utf-8")
    done = run(["ddz", "replay", str(record), "--no-browser"])
    assert_ok(done)
    assert "pip install 'ddz[serve]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    played = [f"seat {s}: {a.replace(':', ' ')}" for s, a in game.history]
    assert all(p in done.stdout for p in played)
    assert f"scores {game.result['scores']}" in done.stdout


@pytest.mark.parametrize(
    "args",
    [["serve"], ["serve", "--port", "0"], ["simulate", "classic", "-n", "10", "--ray"]],
    ids=["serve", "serve-port", "simulate-ray"],
)
def test_a_command_that_needs_an_extra_says_which_in_one_line(args: list[str]) -> None:
    done = run(["ddz", *args])
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and EXTRA_LINE.match(lines[0]), done.stderr
    assert done.stdout == ""


def readme_python_blocks() -> list[str]:
    from test_docs_examples import examples

    return [code for code, _, skipped in examples(ROOT / "README.md") if not skipped]


def test_the_readmes_python_blocks_run_without_extras() -> None:
    blocks = readme_python_blocks()
    assert blocks
    # The README says its blocks run in order, as one session: so here too.
    done = run([sys.executable, "-c", "\n".join(blocks)])
    assert_ok(done)


# ---- a virtualenv with the core requirements alone ----------------------------


def core_distributions() -> set[str]:
    return core_closure() - {"ddz"}


def link_distribution(name: str, site: Path) -> None:
    dist = metadata.distribution(name)
    tops = {Path(str(f)).parts[0] for f in dist.files or []}
    for top in tops:
        if top.endswith(".dist-info") or top.startswith(".."):
            continue
        source = Path(str(dist.locate_file(top)))
        if source.exists() and not (site / top).exists():
            (site / top).symlink_to(source)


def test_a_fresh_virtualenv_with_the_core_requirements_only(tmp_path: Path) -> None:
    home = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    site = Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
        ).stdout.strip()
    )
    for name in core_distributions():
        link_distribution(name, site)
    package = importlib.util.find_spec("ddz")
    assert package and package.submodule_search_locations
    (site / "ddz").symlink_to(Path(list(package.submodule_search_locations)[0]))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(COLUMNS="100", NO_COLOR="1", TERM="dumb")

    modules = run([str(python), "-c", "import ddz, sys; print(sorted(sys.modules))"], env=env)
    assert_ok(modules)
    done = run([str(python), "-m", "ddz", "simulate", "six-player-2v4", "-n", "1000"], env=env)
    assert_ok(done)
    served = run([str(python), "-m", "ddz", "serve"], env=env)
    assert served.returncode == 2 and EXTRA_LINE.match(served.stderr.strip()), served.stderr
    for name in ("starlette", "uvicorn", "ray", "gymnasium"):
        found = run([str(python), "-c", f"import {name}"], env=env)
        assert found.returncode != 0, f"{name} is importable in the core-only virtualenv"
