"""Every Python block of README.md and docs/*.md runs, and where a
```` ```text ```` block follows it, prints exactly that (docs/testing.md).

Blocks of one page run in order in one namespace, as a reader would type
them. A block that needs an extra or a cluster carries a visible marker
on the line before it, ``<!-- skip-example: why -->``, and is skipped.
Shell and console blocks run too (below, and docs/testing.md).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(
    r"(?P<marker><!-- skip-example: [^>]*-->\n)?```python\n(?P<code>.*?)```\n"
    r"(?:\s*```text\n(?P<shown>.*?)```)?",
    re.DOTALL,
)


def examples(page: Path) -> list[tuple[str, str | None, bool]]:
    text = page.read_text(encoding="utf-8")
    return [(m["code"], m["shown"], m["marker"] is not None) for m in BLOCK.finditer(text)]


PAGES_WITH_CODE = [p for p in PAGES if examples(p)]


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=[p.name for p in PAGES_WITH_CODE])
def test_the_examples_of_a_page_run(page: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__example__"}
    ran = 0
    for i, (code, shown, skipped) in enumerate(examples(page)):
        if skipped:
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{page.name} block {i}", "exec"), namespace)
        if shown is not None:
            assert out.getvalue() == shown, f"{page.name} block {i} printed otherwise"
        ran += 1
    assert ran or all(s for _, _, s in examples(page))


# ---- shell blocks ------------------------------------------------------------
# Every ```sh / ```bash / ```shell / ```console block runs too, with the
# installed `ddz` entry point, in a scratch folder (files a command writes
# stay out of the checkout). In a console
# block, `$ ` starts a command (a line ending in `\` goes on) and the lines
# up to the next `$ ` are its output, checked exactly. Markers on the lines
# before a block: `<!-- skip-example: why -->` skips it; `<!-- skip-output:
# why -->` runs it and checks only that it succeeds; `<!-- output-varies:
# TEXT -->` leaves the lines holding TEXT out of the comparison (timings).
# A `ddz serve` command is started on a free loopback port with a scratch
# database, asked for /healthz and stopped; the rest of its block (a curl
# session whose ids are random) is shown, not run.

SHELL = re.compile(
    r"(?P<markers>(?:<!-- [a-z-]+: [^>]*-->\n)*)```(?:sh|bash|shell|console)\n(?P<body>.*?)```\n",
    re.DOTALL,
)
MARKER = re.compile(r"<!-- (?P<kind>[a-z-]+): (?P<why>[^>]*?) -->")


def shell_blocks(page: Path) -> list[tuple[list[tuple[str, str]], dict[str, str]]]:
    """Each block as its (command, shown output) pairs and its markers."""
    out = []
    for m in SHELL.finditer(page.read_text(encoding="utf-8")):
        markers = {k["kind"]: k["why"] for k in MARKER.finditer(m["markers"])}
        out.append((commands(m["body"]), markers))
    return out


def commands(body: str) -> list[tuple[str, str]]:
    lines = body.splitlines()
    console = any(line.startswith("$ ") for line in lines)
    found: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if console and not line.startswith("$ "):
            if found:
                found[-1][1].append(line)
            continue
        command = line[2:] if console else line
        while command.endswith("\\") and i < len(lines):
            command = command[:-1] + " " + lines[i].strip()
            i += 1
        if command.strip() and not command.lstrip().startswith("#"):
            found.append((command.strip(), []))
    return [(c, "\n".join(shown)) for c, shown in found]


SHELL_PAGES = [p for p in PAGES if shell_blocks(p)]


def environment() -> dict[str, str]:
    import os
    import sys

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(COLUMNS="80", NO_COLOR="1", TERM="dumb")
    return env


def check_server(command: str, tmp: Path) -> None:
    """`ddz serve ...` as written, on a free loopback port: up, healthy, stopped."""
    import shlex
    import socket
    import subprocess
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    words = shlex.split(command.removesuffix("&"))
    for flag in ("--port", "--db", "--host"):
        if flag in words:
            del words[words.index(flag) : words.index(flag) + 2]
    words += ["--host", "127.0.0.1", "--port", str(port), "--db", str(tmp / "ddz.sqlite3")]
    server = subprocess.Popen(
        words, env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    assert r.status == 200
                    return
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, f"{command}: no /healthz within 30 s"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize("page", SHELL_PAGES, ids=[p.name for p in SHELL_PAGES])
def test_the_shell_examples_of_a_page_run(page: Path, tmp_path: Path) -> None:
    import subprocess

    ran = 0
    for i, (cmds, markers) in enumerate(shell_blocks(page)):
        if "skip-example" in markers:
            continue
        serve = [c for c, _ in cmds if c.startswith("ddz serve")]
        if serve:
            check_server(serve[0], tmp_path)
            ran += 1
            continue
        for command, shown in cmds:
            # In a scratch folder: a command that writes a file (--out) must
            # not leave it in the checkout.
            done = subprocess.run(
                command,
                shell=True,
                cwd=tmp_path,
                env=environment(),
                capture_output=True,
                text=True,
                timeout=120,
            )
            where = f"{page.name} shell block {i}: {command}"
            assert done.returncode == 0, f"{where}\n{done.stderr}"
            if shown and "skip-output" not in markers:
                varies = markers.get("output-varies")
                keep = [line.rstrip() for line in shown.splitlines()]
                got = [line.rstrip() for line in done.stdout.rstrip("\n").splitlines()]
                if varies:
                    keep, got = ([x for x in lines if varies not in x] for lines in (keep, got))
                assert got == keep, f"{where} printed otherwise:\n{done.stdout}"
            ran += 1
    assert ran or all("skip-example" in m for _, m in shell_blocks(page))
