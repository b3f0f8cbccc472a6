"""The ``ddz`` command line.

::

    ddz moves PRESET HAND [--prev PLAY] [--json]   # legal plays, in hint order
    ddz classify PRESET CARDS [--json]             # every reading of CARDS as one play

Bad input prints one line, ``ddz: error: ...``, to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

import ddz

PROG = "ddz"
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the command line; reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and never print the usage block."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _move_dict(m: ddz.Move) -> dict[str, object]:
    return {
        "cards": str(m.cards),
        "kind": m.kind,
        "rank": m.rank,
        "length": m.length,
        "represents": str(m.represents),
    }


def _rows(moves: Sequence[ddz.Move]) -> list[str]:
    """One aligned line per play: text, kind, rank, and length where it says something."""
    cells = []
    for m in moves:
        extra = f"length {m.length}" if m.length != 1 else ""
        cells.append((str(m), m.kind, f"rank {m.rank}", extra))
    if not cells:
        return []
    widths = [max(len(row[i]) for row in cells) for i in range(3)]
    lines = []
    for row in cells:
        parts = [row[i].ljust(widths[i]) for i in range(3)]
        if row[3]:
            parts.append(row[3])
        lines.append("  ".join(parts).rstrip())
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _rules(preset: str) -> ddz.Rules:
    try:
        return ddz.Rules(preset)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _emit(moves: Sequence[ddz.Move], as_json: bool, summary: str) -> None:
    if as_json:
        print(json.dumps([_move_dict(m) for m in moves]))
        return
    for line in _rows(moves):
        print(line)
    print(summary)


def cmd_moves(args: argparse.Namespace) -> int:
    rules = _rules(args.preset)
    try:
        hand = rules.cards(args.hand)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad hand {args.hand!r}: {e}") from None
    prev = None
    if args.prev is not None:
        try:
            readings = rules.classify(args.prev)
        except (ValueError, TypeError) as e:
            raise UsageError(f"bad --prev {args.prev!r}: {e}") from None
        if not readings:
            shown = str(rules.cards(args.prev)) or "no cards"
            raise UsageError(f"bad --prev {args.prev!r}: {shown} is not a play")
        if len(readings) > 1:
            choices = ", ".join(f"{m.kind} rank {m.rank}" for m in readings)
            raise UsageError(
                f"bad --prev {args.prev!r}: {len(readings)} readings ({choices}); "
                "this command needs a play with one reading"
            )
        prev = readings[0]
    moves = rules.hint(hand, prev)
    summary = _plural(len(moves), "play")
    if prev is not None:
        summary += f" beat {prev} ({prev.kind} rank {prev.rank})"
    _emit(moves, args.json, summary)
    return 0


def cmd_classify(args: argparse.Namespace) -> int:
    rules = _rules(args.preset)
    try:
        readings = rules.classify(args.cards)
    except (ValueError, TypeError) as e:
        raise UsageError(f"bad cards {args.cards!r}: {e}") from None
    if readings:
        summary = _plural(len(readings), "reading")
    else:
        summary = f"{rules.cards(args.cards) or 'no cards'} is not a play"
    _emit(readings, args.json, summary)
    return 0


def build_parser() -> argparse.ArgumentParser:
    presets = ", ".join(ddz.PRESETS)
    parser = _Parser(
        prog=PROG,
        description="Dou Dizhu rules engine: list legal plays and classify cards.",
        epilog=f"presets: {presets}. Cards like '33445566778899TJQKA2XD', '10 J Q', '9h 9s'.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {ddz.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    moves = sub.add_parser(
        "moves",
        help="list the legal plays of a hand (smallest first, bombs last)",
        description="List every legal play from HAND, in the order a game UI suggests them.",
    )
    moves.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    moves.add_argument("hand", metavar="HAND", help="the cards in hand, e.g. 3334445566XD")
    moves.add_argument("--prev", metavar="PLAY", help="the play to beat (one reading only)")
    moves.add_argument("--json", action="store_true", help="print a JSON list of plays")
    moves.set_defaults(func=cmd_moves)

    classify = sub.add_parser(
        "classify",
        help="every reading of some cards as one play",
        description="Print every reading of CARDS as one play (none when it is not a play).",
    )
    classify.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    classify.add_argument("cards", metavar="CARDS", help="the cards, e.g. 333444555666")
    classify.add_argument("--json", action="store_true", help="print a JSON list of readings")
    classify.set_defaults(func=cmd_classify)
    return parser


def _fail(message: str) -> int:
    one_line = " ".join(str(message).split())
    print(f"{PROG}: error: {one_line}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError("a command is required: moves or classify (see ddz --help)")
        return int(args.func(args))
    except UsageError as e:
        return _fail(str(e))
    except (ValueError, TypeError) as e:  # anything the engine rejects that we did not foresee
        return _fail(str(e))
    except BrokenPipeError:
        # `ddz moves ... | head`: stop quietly, and keep Python from complaining at exit.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
