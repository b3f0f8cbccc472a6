"""`ddz eval`: one built-in policy against another, every deal played twice
with the seats swapped (`ddz.evaluate`), as a table or JSON."""

from __future__ import annotations

import argparse
import json

from rich.table import Table

import ddz
from ddz.evaluate import PROTOCOLS
from ddz.types import Evaluation, Figure, Figures

from .common import UsageError, out, rules_of

#: The most threads a run may ask for (as the library's ``threads=``).
MAX_THREADS = 256


def add_eval_command(sub: argparse._SubParsersAction) -> None:
    presets = ", ".join(ddz.PRESETS)
    command = sub.add_parser(
        "eval",
        help="measure one built-in policy against another (WP, ADP, scores)",
        description="Play N deals twice each, A at seat 0 and B at the others, then the "
        "other way round, and print A's win rate, DouZero's ADP and ddz's score with 95% "
        "intervals, overall and per role (docs/evaluate.md).",
    )
    command.add_argument("preset", metavar="PRESET", help=f"rule set: {presets}")
    command.add_argument(
        "a",
        metavar="A",
        help="the policy measured: random, greedy, search, ... (docs/bots.md lists them all)",
    )
    command.add_argument("b", metavar="B", help="the policy it plays against")
    command.add_argument("-n", "--deals", type=int, default=1000, help="deals (each played twice)")
    command.add_argument("--seed", type=int, default=0, help="the same seed gives the same deals")
    command.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default="douzero",
        help="douzero: seat 0 is the landlord, no auction (one-landlord presets); "
        "full: the auction and every decision",
    )
    command.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    command.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play on a Ray cluster: ADDRESS, else RAY_ADDRESS, else a local one",
    )
    command.add_argument("--json", action="store_true", help="print the figures as JSON")
    command.set_defaults(func=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    if args.deals < 1:
        raise UsageError("-n must be at least 1")
    if args.threads is not None and not 1 <= args.threads <= MAX_THREADS:
        raise UsageError(f"--threads must be between 1 and {MAX_THREADS}, not {args.threads}")
    if args.threads is not None and args.ray is not None:
        raise UsageError("--threads does not apply with --ray: each Ray task plays on one CPU")
    try:
        if args.ray is not None:
            figures = on_ray(rules, args)
        else:
            figures = ddz.evaluate(
                rules,
                args.a,
                args.b,
                args.deals,
                seed=args.seed,
                protocol=args.protocol,
                threads=args.threads,
            )
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps(figures))
    else:
        # Where A sat on both sides of some games (the full protocol's
        # multi-seat presets), the one-sided figures are the ones to read:
        # they come first, and the all-games table says why it differs.
        one_sided = one_sided_table(figures)
        if one_sided is not None:
            out().print(one_sided)
        out().print(figures_table(figures, one_sided is not None))
    return 0


def on_ray(rules: ddz.Rules, args: argparse.Namespace) -> Evaluation:
    """`ddz.distributed.evaluate` on the cluster --ray names (bare --ray:
    RAY_ADDRESS, else a local cluster)."""
    try:
        from ddz.distributed import cluster, evaluation
    except ImportError as e:
        raise UsageError(str(e)) from None
    try:
        cluster.connect(args.ray or None, quiet=True)
    except ConnectionError as e:
        raise UsageError(f"cannot join the Ray cluster at {args.ray!r}: {e}") from None
    return evaluation.evaluate(
        rules, args.a, args.b, args.deals, seed=args.seed, protocol=args.protocol
    )


def _shown(f: Figure, points: bool) -> str:
    """The value and the half-width of its interval."""
    half = (f["high"] - f["low"]) / 2
    if points:
        return f"{f['value']:+.2f} ± {half:.2f}"
    return f"{f['value']:.3f} ± {half:.3f}"


ADP_IN_WORDS = (
    "95% intervals. WP: the share of games A won. ADP: A's average points a game when "
    "each game is worth 2, doubled by every bomb (DouZero's measure). score: A's "
    "points under ddz's own scoring (bids, bombs, spring)."
)


def figures_table(figures: Evaluation, after_one_sided: bool = False) -> Table:
    rows = [*figures["roles"].items(), ("overall", figures["overall"])]
    title = (
        f"{figures['preset']}: {figures['a']} (A) vs {figures['b']}, {figures['protocol']}, "
        f"{figures['deals']:,} deals x 2, seed {figures['seed']}"
    )
    caption = ADP_IN_WORDS
    if after_one_sided:
        title = "every game: " + title
        caption += (
            " Over every game A's rates by role sit near one half, because in some games A "
            "held seats on both sides and so won and lost at once."
        )
    return _table(title, caption, rows)


def one_sided_table(figures: Evaluation) -> Table | None:
    """The roles over the games where all of A's seats sat on one side, when
    that leaves some games out: in the others A plays against itself, and its
    win rates by role pull towards one half (docs/evaluate.md)."""
    if figures["one_sided_roles"] == figures["roles"]:
        return None
    return _table(
        f"{figures['preset']}: {figures['a']} (A) vs {figures['b']}, {figures['protocol']}, "
        f"{figures['deals']:,} deals x 2, seed {figures['seed']}: the games where all of A's "
        "seats were on one side",
        "",
        list(figures["one_sided_roles"].items()),
    )


def _table(title: str, caption: str, rows: list[tuple[str, Figures]]) -> Table:
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    for name in ("A as", "over", "WP", "ADP", "score"):
        table.add_column(name, justify="left" if name == "A as" else "right")
    for role, f in rows:
        # A role's figures count seats (two farmers a deal); overall counts games.
        unit = "game" if role == "overall" else "seat"
        table.add_row(
            role,
            f"{f['count']:,} {unit}{'' if f['count'] == 1 else 's'}",
            _shown(f["wp"], False),
            _shown(f["adp"], True),
            _shown(f["score"], True),
        )
    return table
