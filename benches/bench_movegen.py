"""Move-generation throughput, ddz against DouZero 1.1.0, on the same seeded hands.

Run ``pytest benches --benchmark-enable``; the normal test run (``--benchmark-disable``)
runs each once as a smoke test.  Every benchmark processes the whole fixed list of
``BENCH_HANDS`` hands per round, so the times of one group compare directly; the
groups are ``lead-17``, ``follow-17``, ``lead-20``, ``follow-20``.  DouZero's follow is
its own ``get_legal_card_play_actions`` (move_detector + move_selector, bombs, pass).
"""

from __future__ import annotations

import pytest
from _hands import HAND_SIZES, bench_cases, ddz_count, ddz_moves, douzero_moves

import ddz

RULES = ddz.Rules("classic")
CASES = {size: bench_cases(RULES, size) for size in HAND_SIZES}
MODES = ("lead", "follow")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", HAND_SIZES)
def test_ddz_moves(benchmark, size, mode):
    benchmark.group = f"{mode}-{size}"
    n = benchmark(ddz_moves, RULES, CASES[size], mode == "follow")
    assert n > 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", HAND_SIZES)
def test_ddz_count_moves(benchmark, size, mode):
    benchmark.group = f"{mode}-{size}"
    n = benchmark(ddz_count, RULES, CASES[size], mode == "follow")
    assert n == ddz_moves(RULES, CASES[size], mode == "follow")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", HAND_SIZES)
def test_douzero_moves(benchmark, size, mode):
    pytest.importorskip("douzero")
    benchmark.group = f"{mode}-{size}"
    n = benchmark(douzero_moves, CASES[size], mode == "follow")
    assert n > 0
