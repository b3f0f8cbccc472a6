"""`ddz solve`: the verdict of an open-hand endgame and a line of play."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time

import ddz

from .common import UsageError, out, rules_of
from .query import move_dict, the_one_reading

#: Seconds before the first progress line, then between lines.
PROGRESS_EVERY = 1.0


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "hands", metavar="HAND", nargs="+", help="two or three hands (three: seat 0 the landlord)"
    )
    command.add_argument("--prev", metavar="PLAY", help="the play to beat (default: a lead)")
    command.add_argument(
        "--prev-by",
        type=int,
        default=None,
        metavar="SEAT",
        help="who made --prev (default: the seat before)",
    )
    command.add_argument(
        "--to-move", type=int, default=0, metavar="SEAT", help="the seat to move (default 0)"
    )
    command.add_argument(
        "--forbid",
        default="",
        metavar="KIND,...",
        help="kinds nobody may play: trio_single, trio_pair, four_two_singles, "
        "four_two_pairs, plane_singles, plane_pairs",
    )
    command.add_argument(
        "--max-nodes", type=int, default=None, help="give up after this many positions"
    )
    command.add_argument("--max-seconds", type=float, default=None, help="give up after this long")
    command.add_argument("--all", action="store_true", help="list every winning first play")
    command.add_argument(
        "--threads", type=int, default=None, help="threads for the root search (default: all cores)"
    )
    command.add_argument("--json", action="store_true", help="print the result as JSON")


def _action_text(action: ddz.Move | str) -> str:
    return "pass" if isinstance(action, str) else str(action)


def _action_json(action: ddz.Move | str) -> object:
    return "pass" if isinstance(action, str) else move_dict(action)


def _solve_with_progress(run) -> ddz.Solution:
    """Run the search in a thread (it releases the GIL) and say how long it
    has been going once it passes a second."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["result"] = run()
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    worker = threading.Thread(target=target, daemon=True)
    start = time.monotonic()
    worker.start()
    worker.join(PROGRESS_EVERY)
    while worker.is_alive():
        print(f"searching... {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
        worker.join(PROGRESS_EVERY)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["result"]  # type: ignore[return-value]


def cmd_solve(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    if len(args.hands) not in (2, 3):
        raise UsageError(f"ddz solve takes 2 or 3 hands, not {len(args.hands)}")
    hands = []
    for text in args.hands:
        try:
            hands.append(rules.cards(text))
        except (ValueError, TypeError) as e:
            raise UsageError(f"bad hand {text!r}: {e}") from None
    prev = None if args.prev is None else the_one_reading(rules, args.prev)
    forbid = [k.strip() for k in args.forbid.split(",") if k.strip()]

    def run() -> ddz.Solution:
        return rules.solve(
            hands,
            to_move=args.to_move,
            prev=prev,
            forbid=forbid,
            max_nodes=args.max_nodes,
            max_seconds=args.max_seconds,
            all=args.all,
            prev_by=args.prev_by,
            threads=args.threads,
            line=True,
        )

    solution = _solve_with_progress(run)
    side = (
        "the landlord"
        if len(hands) == 3 and args.to_move == 0
        else ("the farmers" if len(hands) == 3 else f"seat {args.to_move}")
    )
    if args.json:
        print(
            json.dumps(
                {
                    "hands": [str(h) for h in hands],
                    "to_move": args.to_move,
                    "prev": None if prev is None else str(prev),
                    "forbid": forbid,
                    "win": solution.win,
                    "plays": [_action_json(a) for a in solution.plays],
                    "line": [{"seat": s, "play": _action_json(a)} for s, a in solution.line],
                    "nodes": solution.nodes,
                    "seconds": solution.seconds,
                }
            )
        )
        return 0
    console = out()
    verdict = {True: "wins", False: "loses", None: "unknown (the budget ran out)"}[solution.win]
    console.print(
        f"{side} to move {verdict}: {solution.nodes:,} positions in {solution.seconds:.3f} s"
    )
    if solution.plays:
        label = "winning plays" if args.all else "winning play"
        console.print(f"{label}: {', '.join(_action_text(a) for a in solution.plays)}")
    if solution.line:
        console.print("line of play (the winner's winning plays against the loser's best tries):")
        for i, (seat, action) in enumerate(solution.line, 1):
            console.print(f"  {i:>2}. seat {seat}: {_action_text(action)}")
    return 0
