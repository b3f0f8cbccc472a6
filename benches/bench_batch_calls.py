"""The fixed cost of one batch call: a batch whose work is nothing (one-card
hands) against the same hands counted one call at a time.

Run ``pytest benches/bench_batch_calls.py --benchmark-enable``; the normal
test run runs each once as a smoke test. The figure for docs/performance.md is the
median of ``count_moves_batch`` on 1 and on 64 rows: a call that wakes no
thread pool (64 rows or fewer run on the calling thread) and reuses the
pool kept for its thread count otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest
from _hands import bench_cases

import ddz

RULES = ddz.Rules("classic")
ONE_CARD = RULES.cards("3").counts


@pytest.mark.parametrize("rows", [1, 64, 4096])
def test_count_moves_batch_call(benchmark, rows):
    benchmark.group = "batch-call"
    hands = np.stack([ONE_CARD] * rows)
    counts = benchmark(RULES.count_moves_batch, hands)
    assert (counts == 1).all()


@pytest.mark.parametrize("rows", [1, 64])
def test_moves_batch_call(benchmark, rows):
    benchmark.group = "batch-call"
    hands = np.stack([ONE_CARD] * rows)
    offsets, plays = benchmark(RULES.moves_batch, hands)
    assert len(plays) == rows and offsets[-1] == rows


def test_count_moves_batch_call_two_threads(benchmark):
    benchmark.group = "batch-call"
    hands = np.stack([ONE_CARD] * 4096)
    counts = benchmark(RULES.count_moves_batch, hands, threads=2)
    assert (counts == 1).all()


def test_count_moves_batch_20000_leads(benchmark):
    """The issue's batch figure: 20,000 rows of 20-card classic leads (the 200
    bench hands, 100 times), every core; docs/performance.md gives the median per hand."""
    benchmark.group = "batch-20000"
    cases = bench_cases(RULES, 20)
    hands = np.tile(np.stack([np.asarray(c.hand.counts) for c in cases]), (100, 1))
    counts = benchmark(RULES.count_moves_batch, hands)
    assert len(counts) == 20_000 and (counts > 0).all()
