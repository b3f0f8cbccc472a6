"""`ddz bench`: how fast move generation, batches and simulation run here."""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Callable

import numpy as np
from rich.table import Table

import ddz

from .common import out, rules_of

HANDS = 200
#: Rows of the batch timing: the seeded hands repeated.
BATCH = 20_000


def best_time(work: Callable[[], object], rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def seeded_hands(rules: ddz.Rules) -> np.ndarray:
    """HANDS random hands of the preset's size, the same on every run."""
    rng = random.Random(0)
    deck = [r for r in range(13) for _ in range(4 * rules.decks)] + [13, 14] * rules.decks
    rows = np.zeros((HANDS, 16), dtype=np.uint8)
    for row in rows:
        for r in rng.sample(deck, rules.hand_size):
            row[r] += 1
    return rows


def per_hand(work: Callable[[ddz.Cards, ddz.Move], object], hands: list, prevs: list) -> float:
    """Best time of `work` over every hand, in µs per hand. Results are
    dropped as they come, as a caller's loop would."""

    def run() -> None:
        for hand, prev in zip(hands, prevs):
            work(hand, prev)

    return best_time(run) * 1e6 / len(hands)


def measure(rules: ddz.Rules) -> dict:
    rows = seeded_hands(rules)
    hands = [rules.cards(row) for row in rows]
    leads = [rules.moves(h) for h in hands]
    rng = random.Random(1)
    prevs = [ls[rng.randrange(len(ls))] for ls in leads]
    prevs = prevs[1:] + prevs[:1]  # each hand answers another hand's lead
    # A batch large enough that waking the threads is not what is timed.
    batch = np.tile(rows, (BATCH // HANDS, 1))
    figures = {
        "lead moves, us per hand": per_hand(lambda h, p: rules.moves(h), hands, prevs),
        "lead count_moves, us per hand": per_hand(lambda h, p: rules.count_moves(h), hands, prevs),
        "follow moves, us per hand": per_hand(rules.moves, hands, prevs),
        "count_moves_batch, us per hand": best_time(lambda: rules.count_moves_batch(batch))
        * 1e6
        / len(batch),
    }
    deals = 20_000
    elapsed = best_time(lambda: ddz.simulate(rules, deals, seed=1), rounds=2)
    figures["simulate, deals per second"] = deals / elapsed
    figures["plays_per_lead"] = sum(len(ls) for ls in leads) / HANDS
    return figures


def cmd_bench(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    figures = measure(rules)
    if args.json:
        print(json.dumps({"preset": rules.preset, "hand_size": rules.hand_size, **figures}))
        return 0
    plays = figures.pop("plays_per_lead")
    console = out()
    console.print(
        f"{rules.preset}: {HANDS} seeded {rules.hand_size}-card hands, "
        f"{plays:.0f} leads per hand, {ddz.default_threads()} threads"
    )
    table = Table()
    table.add_column("measure")
    table.add_column("figure", justify="right")
    for key, value in figures.items():
        table.add_row(key, f"{value:,.0f}" if value > 1000 else f"{value:,.2f}")
    console.print(table)
    return 0
