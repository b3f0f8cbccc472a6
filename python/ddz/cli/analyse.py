"""`ddz analyse RECORD.json`: the search's post-game analysis of a deal
(`ddz.analyse`): each decision's win rate, the best candidate, the loss,
mistakes and blunders, and each seat's accuracy, as a table or JSON."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.table import Table

import ddz
from ddz.analysis import ANALYSIS_PLAYOUTS, Analysis

from .common import UsageError, out

#: The colour of each judgement in the table.
STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}


def add_analyse_command(sub: argparse._SubParsersAction) -> None:
    command = sub.add_parser(
        "analyse",
        help="analyse a finished deal: win rates, mistakes and accuracy per seat",
        description="Search every decision of a game record (Game.to_json()) from its seat's "
        "information and print the played action's win rate, the best candidate's, the loss, "
        "inaccuracies, mistakes and blunders (5, 10 and 15 points of win rate) and each "
        "seat's accuracy, as lichess does for chess (docs/bots.md#analysis).",
    )
    command.add_argument("record", metavar="RECORD.json", help="a game record file")
    command.add_argument(
        "--seat", type=int, action="append", help="analyse this seat only (repeatable)"
    )
    command.add_argument(
        "--playouts",
        type=int,
        default=None,
        help=f"playouts a decision (default {ANALYSIS_PLAYOUTS})",
    )
    command.add_argument("--seed", type=int, default=0, help="the same seed, the same analysis")
    command.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    command.add_argument("--json", action="store_true", help="print the analysis as JSON")
    command.set_defaults(func=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    path = Path(args.record)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot read {args.record}: {e.strerror or e}") from None
    try:
        players = ddz.Game.from_json(text).rules.players
    except ValueError as e:
        raise UsageError(f"{args.record} is not a game record: {e}") from None
    for seat in args.seat or []:
        if not 0 <= seat < players:
            raise UsageError(f"--seat must be 0..{players - 1}, not {seat}")
    try:
        analysis = ddz.analyse(
            text, seats=args.seat, playouts=args.playouts, seed=args.seed, threads=args.threads
        )
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(analysis.to_json())
    else:
        console = out()
        console.print(decisions_table(analysis))
        console.print(accuracy_line(analysis))
    return 0


def decisions_table(analysis: Analysis) -> Table:
    table = Table(title="decisions (win rate of the seat's side, from its information)")
    for name, justify in (
        ("#", "right"),
        ("seat", "right"),
        ("played", "left"),
        ("wp", "right"),
        ("best", "left"),
        ("loss", "right"),
        ("judgement", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in analysis.decisions:
        best = d["candidates"][0] if d["candidates"] else None
        shown_best = f"{best['action']} ({best['wp']:.2f})" if best else "-"
        verdict = d["judgement"] or ""
        if d["threw_forced_win"]:
            verdict = (verdict + ", " if verdict else "") + "threw a forced win"
        style = STYLES.get(d["judgement"] or "", "")
        table.add_row(
            str(d["number"]),
            str(d["seat"]),
            d["played"],
            f"{d['wp']:.2f}",
            shown_best,
            f"{d['loss']:.2f}",
            f"[{style}]{verdict}[/{style}]" if style else verdict,
        )
    return table


def accuracy_line(analysis: Analysis) -> str:
    if not analysis.accuracy:
        return "accuracy: no decision with a choice"
    parts = [f"seat {s} {a:.1f}" for s, a in analysis.accuracy.items()]
    return "accuracy: " + ", ".join(parts)
