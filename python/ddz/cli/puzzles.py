"""`ddz puzzles generate` and `ddz puzzles check`: endgame puzzle files (docs/puzzles.md)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .common import UsageError, err, out, rules_of

FORMATS = ("jsonl", "csv")


def add_puzzles_command(sub: argparse._SubParsersAction) -> None:
    puzzles = sub.add_parser(
        "puzzles",
        help="generate endgame puzzles (残局) with unique solutions, or check a file of them",
        description="Endgame puzzles: the landlord leads and wins against every defence, "
        "by one line only (docs/puzzles.md).",
    )
    actions = puzzles.add_subparsers(dest="puzzles_command", metavar="generate|check")
    gen = actions.add_parser(
        "generate",
        help="generate puzzles to a JSONL or CSV file (default: JSONL to stdout)",
        description="Generate the first N puzzles of a seeded series.",
    )
    gen.add_argument("preset", metavar="PRESET", help="a preset name, e.g. classic")
    gen.add_argument("-n", type=int, default=10, metavar="N", help="puzzles to make (default 10)")
    gen.add_argument("--seed", type=int, default=0, metavar="S", help="series seed (default 0)")
    gen.add_argument("--hands", type=int, choices=(2, 3), default=2, help="2 or 3 open hands")
    gen.add_argument(
        "--forbid",
        nargs="+",
        default=[],
        metavar="KIND",
        help="kinds nobody may play (禁手): trio_single, trio_pair, four_two_singles, "
        "four_two_pairs, plane_singles, plane_pairs",
    )
    gen.add_argument(
        "--cards",
        type=int,
        nargs=2,
        default=None,
        metavar=("MIN", "MAX"),
        help="cards a hand (default 5 10 for two hands, 3 6 for three)",
    )
    gen.add_argument(
        "--source",
        choices=("mixed", "synthetic", "simulated"),
        default="mixed",
        help="candidates from shuffled decks, simulated deals, or both (default)",
    )
    gen.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    gen.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="generate on a Ray cluster (the same puzzles as a local run)",
    )
    gen.add_argument("--out", metavar="FILE", help="write here (.jsonl or .csv); default stdout")
    gen.add_argument("--format", choices=FORMATS, default=None, help="default: from --out's suffix")
    gen.set_defaults(func=cmd_generate)
    chk = actions.add_parser(
        "check",
        help="prove every puzzle of a JSONL file again",
        description="Prove each puzzle again; exit 1 if any fails.",
    )
    chk.add_argument("file", metavar="FILE.jsonl")
    chk.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    chk.set_defaults(func=cmd_check)
    puzzles.set_defaults(func=lambda args: _missing())


def _missing() -> int:
    raise UsageError("ddz puzzles needs generate or check (see ddz puzzles --help)")


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    if args.out and Path(args.out).suffix.lower() == ".csv":
        return "csv"
    return "jsonl"


def cmd_generate(args: argparse.Namespace) -> int:
    from ddz import puzzles

    rules = rules_of(args.preset)
    if args.n < 0:
        raise UsageError(f"-n must be 0 or more, not {args.n}")
    start = time.perf_counter()
    kwargs = dict(
        n=args.n,
        seed=args.seed,
        hands=args.hands,
        forbid=args.forbid or None,
        cards=args.cards,
        source=args.source,
    )
    if args.ray is not None:
        from ddz.distributed import puzzles as ray_puzzles

        made = ray_puzzles.generate(rules, address=args.ray or None, **kwargs)
    else:
        made = puzzles.generate(rules, threads=args.threads, **kwargs)
    write = puzzles.write_csv if _format(args) == "csv" else puzzles.write_jsonl
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="") as f:
            write(made, f)
    else:
        write(made, sys.stdout)
    seconds = time.perf_counter() - start
    note = f"{len(made)} puzzles in {seconds:.1f} s"
    if len(made) < args.n:
        note += f" (asked for {args.n}: the candidate limit ran out)"
    err().print(note + (f", written to {args.out}" if args.out else ""))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from ddz import puzzles

    try:
        ps = puzzles.read(args.file)
    except OSError as e:
        raise UsageError(f"cannot read {args.file}: {e.strerror}") from None
    try:
        ok = puzzles.check_all(ps, threads=args.threads)
    except ValueError as e:
        raise UsageError(f"{args.file}: {e}") from None
    bad = [p.get("id", f"#{i + 1}") for i, (p, good) in enumerate(zip(ps, ok)) if not good]
    if bad:
        out().print(f"{len(bad)} of {len(ps)} puzzles fail: {' '.join(map(str, bad))}")
        return 1
    out().print(f"all {len(ps)} puzzles check")
    return 0
