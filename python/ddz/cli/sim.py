"""`ddz simulate`: many deals in Rust, a progress bar on a terminal, and a
summary table (or JSON)."""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import ddz

from .common import UsageError, err, out, rules_of

#: The most threads a run may ask for (as the library's ``threads=``).
MAX_THREADS = 256

#: Deals per call to `ddz.simulate`: small enough for a lively progress bar,
#: large enough that the calls cost nothing. The series does not depend on it.
CHUNK = 20_000
#: Percentiles of the landlord's score shown between its min and max.
SCORE_PERCENTILES = (10, 50, 90)


class Tally:
    """The summary of a run, added to part by part: sums and a histogram
    of the landlord's scores (a few hundred distinct values at most), so a
    run of any length keeps no memory per deal."""

    def __init__(self) -> None:
        self.games = 0
        self.landlord_wins = 0
        self.turns = 0
        self.bombs = 0
        self.multiplier = 0
        self.scores: Counter[int] = Counter()

    def add(self, part: Mapping[str, Any]) -> None:
        n = len(part["turns"])
        self.games += n
        self.landlord_wins += int((part["winner_side"] == 0).sum())
        self.turns += int(part["turns"].sum())
        self.bombs += int(part["bombs"].sum())
        self.multiplier += int(part["multiplier"].sum())
        landlord_scores = part["scores"][np.arange(n), part["landlord"]]
        values, counts = np.unique(landlord_scores, return_counts=True)
        self.scores.update(dict(zip(values.tolist(), counts.tolist())))

    def percentile(self, q: float) -> float:
        """As ``np.percentile`` (linear interpolation) of every score."""
        values = sorted(self.scores)
        ends = np.cumsum([self.scores[v] for v in values])
        at = q / 100 * (self.games - 1)
        lo, hi = (
            values[int(np.searchsorted(ends, k, side="right"))] for k in (at // 1, -(-at // 1))
        )
        return lo + (hi - lo) * (at % 1)

    def mean_score(self) -> float:
        return sum(v * c for v, c in self.scores.items()) / self.games


def run_in_parts(rules: ddz.Rules, args: argparse.Namespace) -> tuple[Tally, float]:
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
    tally = Tally()
    start = time.perf_counter()
    with progress:
        task = progress.add_task("simulate", total=args.games)
        for part in parts_of_run(rules, args):
            tally.add(part)
            progress.advance(task, len(part["turns"]))
    elapsed = time.perf_counter() - start
    return tally, elapsed


def parts_of_run(rules: ddz.Rules, args: argparse.Namespace) -> Iterator[Mapping[str, Any]]:
    """The run's deals in parts: local calls of CHUNK deals, or with --ray the
    Ray tasks' parts as they finish (the summary does not depend on the order)."""
    if args.ray is not None:
        yield from ray_parts(rules, args)
        return
    done = 0
    while done < args.games:
        size = min(CHUNK, args.games - done)
        yield ddz.simulate(
            rules, size, seed=args.seed, threads=args.threads, policy=args.policy, first=done
        )
        done += size


def ray_parts(rules: ddz.Rules, args: argparse.Namespace) -> Iterator[Mapping[str, Any]]:
    """The parts of `ddz.distributed.simulate` on the cluster --ray names
    (bare --ray: RAY_ADDRESS, else a local cluster)."""
    try:
        from ddz.distributed import cluster, parts
    except ImportError as e:
        raise UsageError(str(e)) from None
    try:
        cluster.connect(args.ray or None, quiet=True)
    except ConnectionError as e:
        raise UsageError(f"cannot join the Ray cluster at {args.ray!r}: {e}") from None
    for _first, part in parts.iter_parts(rules, args.games, args.seed, args.policy):
        yield part


def summarise(rules: ddz.Rules, args: argparse.Namespace, t: Tally, elapsed: float) -> dict:
    return {
        "preset": rules.preset,
        "games": args.games,
        "seed": args.seed,
        "policy": args.policy,
        "landlord_win_rate": t.landlord_wins / t.games,
        "farmer_win_rate": 1 - t.landlord_wins / t.games,
        "mean_turns": t.turns / t.games,
        "bombs_per_deal": t.bombs / t.games,
        "mean_multiplier": t.multiplier / t.games,
        "landlord_score": {
            "mean": t.mean_score(),
            "min": min(t.scores),
            **{f"p{q}": float(t.percentile(q)) for q in SCORE_PERCENTILES},
            "max": max(t.scores),
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
    if args.threads is not None and not 1 <= args.threads <= MAX_THREADS:
        raise UsageError(f"--threads must be between 1 and {MAX_THREADS}, not {args.threads}")
    if args.threads is not None and args.ray is not None:
        raise UsageError("--threads does not apply with --ray: each Ray task plays on one CPU")
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
