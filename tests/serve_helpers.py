"""A real `ddz serve` for the server's tests: uvicorn in a subprocess on a
free 127.0.0.1 port, waited for, and always stopped.

A plain module next to the tests, imported as ``serve_helpers`` (see
``game_helpers.py``).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

START_SECONDS = 20
STOP_SECONDS = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`ddz serve --db DB`, listening on 127.0.0.1 until stopped. `prelude`,
    if given, is Python run in the server's process first (say, to add a bot
    kind to ddz.serve.bots.BOT_KINDS)."""

    def __init__(
        self, db: Path, *args: str, port: int | None = None, prelude: str | None = None
    ) -> None:
        self.db = db
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(db.with_suffix(".log"), "ab")
        argv = ["serve", "--port", str(self.port), "--db", str(db), *args]
        if prelude is None:
            command = [sys.executable, "-m", "ddz", *argv]
        else:
            run = f"{prelude}\nfrom ddz.cli import main\nraise SystemExit(main({argv!r}))"
            command = [sys.executable, "-c", run]
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=self.base, timeout=10)
        self._wait_up()

    def _wait_up(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ddz serve exited with {self.proc.returncode}: {self.logged()}")
            try:
                if self.http.get("/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"ddz serve did not answer within {START_SECONDS} s")

    def logged(self) -> str:
        self.log.flush()
        return self.db.with_suffix(".log").read_text(errors="replace")[-3000:]

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(STOP_SECONDS)
        self.http.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(STOP_SECONDS)
        self.http.close()
        self.log.close()

    # ---- the API ------------------------------------------------------------
    def create(self, preset: str, **body) -> tuple[str, dict[str, str]]:
        made = self.make(preset, **body)
        return made["id"], made["tokens"]

    def make(self, preset: str, **body) -> dict:
        """POST /tables: the whole reply (id, tokens, owner). The bots answer
        inside each request (bot_delay_ms 0) unless the test asks for pacing."""
        body.setdefault("bot_delay_ms", 0)
        reply = self.http.post("/tables", json={"preset": preset, **body})
        assert reply.status_code == 201, reply.text
        return reply.json()

    def view(self, table: str, token: str) -> dict:
        reply = self.http.get(f"/tables/{table}/view", headers=bearer(token))
        assert reply.status_code == 200, reply.text
        return reply.json()

    def act(self, table: str, token: str, action: str, key: str, **extra) -> httpx.Response:
        return self.http.post(
            f"/tables/{table}/actions",
            json={"action": action, "key": key, **extra},
            headers=bearer(token),
        )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(reply: httpx.Response, status: int) -> str:
    """The error sentence of a JSON error reply with `status`."""
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"].startswith("application/json")
    body = reply.json()
    assert set(body) == {"error"} and body["error"], body
    assert "Traceback" not in body["error"]
    return body["error"]
