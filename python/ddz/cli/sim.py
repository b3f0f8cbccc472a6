"""`ddz simulate`: many deals in Rust, a progress bar on a terminal, and a
summary table (or JSON)."""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import ddz

from .common import UsageError, err, out, rules_of

#: Deals per call to `ddz.simulate`: small enough for a lively progress bar,
#: large enough that the calls cost nothing. The series does not depend on it.
CHUNK = 20_000
#: Percentiles of the landlord's score shown between its min and max.
SCORE_PERCENTILES = (10, 50, 90)


def run_in_parts(rules: ddz.Rules, args: argparse.Namespace) -> tuple[dict, float]:
    """All the deals, in parts of CHUNK, with a progress bar on a terminal
    (none when stderr is piped or the output is JSON)."""
    console = err()
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=args.json or not console.is_terminal,
    )
    parts: list[dict] = []
    start = time.perf_counter()
    with progress:
        task = progress.add_task("simulate", total=args.games)
        done = 0
        while done < args.games:
            size = min(CHUNK, args.games - done)
            parts.append(
                ddz.simulate(
                    rules,
                    size,
                    seed=args.seed,
                    threads=args.threads,
                    policy=args.policy,
                    first=done,
                )
            )
            done += size
            progress.update(task, completed=done)
    elapsed = time.perf_counter() - start
    merged = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return merged, elapsed


def summarise(rules: ddz.Rules, args: argparse.Namespace, res: dict, elapsed: float) -> dict:
    landlord_scores = res["scores"][np.arange(args.games), res["landlord"]]
    return {
        "preset": rules.preset,
        "games": args.games,
        "seed": args.seed,
        "policy": args.policy,
        "landlord_win_rate": float((res["winner_side"] == 0).mean()),
        "farmer_win_rate": float((res["winner_side"] == 1).mean()),
        "mean_turns": float(res["turns"].mean()),
        "bombs_per_deal": float(res["bombs"].mean()),
        "mean_multiplier": float(res["multiplier"].mean()),
        "landlord_score": {
            "mean": float(landlord_scores.mean()),
            "min": int(landlord_scores.min()),
            **{f"p{q}": float(np.percentile(landlord_scores, q)) for q in SCORE_PERCENTILES},
            "max": int(landlord_scores.max()),
        },
        "deals_per_second": args.games / elapsed if elapsed > 0 else None,
    }


def summary_table(s: dict) -> Table:
    score = s["landlord_score"]
    table = Table(
        title=f"{s['preset']}, {s['policy']} policy, seed {s['seed']}",
        show_header=False,
        title_justify="left",
    )
    table.add_column(style="bold")
    table.add_column(justify="right")
    rows = [
        ("deals", f"{s['games']:,}"),
        ("landlord side wins", f"{s['landlord_win_rate']:.1%}"),
        ("farmer side wins", f"{s['farmer_win_rate']:.1%}"),
        ("mean turns", f"{s['mean_turns']:.1f}"),
        ("bombs per deal", f"{s['bombs_per_deal']:.2f}"),
        ("mean multiplier", f"{s['mean_multiplier']:.2f}"),
        ("landlord score, mean", f"{score['mean']:+.2f}"),
        (
            "landlord score, min / 10% / median / 90% / max",
            " / ".join(
                [f"{score['min']:+d}"]
                + [f"{score[f'p{q}']:+.0f}" for q in SCORE_PERCENTILES]
                + [f"{score['max']:+d}"]
            ),
        ),
        ("deals per second", f"{s['deals_per_second']:,.0f}"),
    ]
    for key, value in rows:
        table.add_row(key, value)
    return table


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    if args.games < 1:
        raise UsageError("-n must be at least 1")
    try:
        res, elapsed = run_in_parts(rules, args)
    except ValueError as e:
        raise UsageError(str(e)) from None
    summary = summarise(rules, args, res, elapsed)
    if args.json:
        print(json.dumps(summary))
    else:
        out().print(summary_table(summary))
    return 0
