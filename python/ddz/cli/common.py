"""What every subcommand shares: the usage error, preset lookup and the
terminal (rich consoles for stdout and stderr)."""

from __future__ import annotations

import sys

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
