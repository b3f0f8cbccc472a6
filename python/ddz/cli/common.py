"""What every subcommand shares: the usage error, preset lookup and the
terminal (rich consoles for stdout and stderr)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console

import ddz


class UsageError(Exception):
    """Bad input from the command line; reported as one line, exit status 2."""


def rules_of(preset: str) -> ddz.Rules:
    try:
        return ddz.Rules(preset)
    except ValueError as e:
        raise UsageError(str(e)) from None


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def out() -> Console:
    """A console on the current stdout. Made per call so that tests which
    swap `sys.stdout` see the output; colour only on a terminal."""
    return Console(file=sys.stdout, highlight=False)


def err() -> Console:
    return Console(file=sys.stderr, highlight=False)


def when_listening(server: Any, say: Callable[[], None]) -> None:
    """Call `say()` once the uvicorn `server` listens, not before, so that
    whoever reads what it prints (a person, a script, a test) can connect
    at once; uvicorn's own banner is below the log level we run it at."""
    startup = server.startup

    async def startup_then_say(sockets: Any = None) -> None:
        await startup(sockets=sockets)
        if server.started:
            say()

    server.startup = startup_then_say
