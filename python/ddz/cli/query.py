"""`ddz moves` and `ddz classify`: plays as aligned columns, or JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from rich.table import Table

import ddz

from .common import UsageError, out, plural, rules_of


def move_dict(m: ddz.Move) -> dict[str, object]:
    return {
        "cards": str(m.cards),
        "kind": m.kind,
        "rank": m.rank,
        "length": m.length,
        "represents": str(m.represents),
    }


def plays_table(moves: Sequence[ddz.Move]) -> Table:
    """One row per play: text, kind, rank, and the length where it says
    something. No borders, so the output still splits on whitespace."""
    grid = Table.grid(padding=(0, 2))
    for _ in range(4):
        grid.add_column(no_wrap=True)
    for m in moves:
        length = f"length {m.length}" if m.length != 1 else ""
        grid.add_row(str(m), m.kind, f"rank {m.rank}", length)
    return grid


def emit(moves: Sequence[ddz.Move], as_json: bool, summary: str) -> None:
    if as_json:
        print(json.dumps([move_dict(m) for m in moves]))
        return
    console = out()
    if moves:
        # Rendered off screen and right-trimmed: rich pads every cell, and
        # the lines must not wrap even when piped (80 columns).
        with console.capture() as table:
            console.print(plays_table(moves), width=1000, crop=False)
        for line in table.get().splitlines():
            print(line.rstrip())
    print(summary)


def the_one_reading(rules: ddz.Rules, text: str) -> ddz.Move:
    """`--prev` must be a play with a single reading."""
    try:
        readings = rules.classify(text)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad --prev {text!r}: {e}") from None
    if not readings:
        shown = str(rules.cards(text)) or "no cards"
        raise UsageError(f"bad --prev {text!r}: {shown} is not a play")
    if len(readings) > 1:
        choices = ", ".join(f"{m.kind} rank {m.rank}" for m in readings)
        raise UsageError(
            f"bad --prev {text!r}: {len(readings)} readings ({choices}); "
            "this command needs a play with one reading"
        )
    return readings[0]


def cmd_moves(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    try:
        hand = rules.cards(args.hand)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad hand {args.hand!r}: {e}") from None
    prev = None if args.prev is None else the_one_reading(rules, args.prev)
    moves = rules.hint(hand, prev)
    summary = plural(len(moves), "play")
    if prev is not None:
        summary += f" beat {prev} ({prev.kind} rank {prev.rank})"
    emit(moves, args.json, summary)
    return 0


def cmd_classify(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    try:
        readings = rules.classify(args.cards)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad cards {args.cards!r}: {e}") from None
    if readings:
        summary = plural(len(readings), "reading")
    else:
        summary = f"{rules.cards(args.cards) or 'no cards'} is not a play"
    emit(readings, args.json, summary)
    return 0
