"""Move-generation throughput of every preset on seeded full-size hands.

Run ``pytest benches/bench_presets.py --benchmark-enable``; the normal test run
(``--benchmark-disable``) runs each once as a smoke test.  One group per preset; each
benchmark processes the whole list of ``PRESET_HANDS`` hands of one size
(``preset_sizes``: the dealt hand, then each landlord hand) per round, or, for
``pathological``, the preset's hands with the most plays (``PATHOLOGICAL``) once each.
``benches/presets.py`` prints the same numbers per hand as a table.
"""

from __future__ import annotations

import pytest
from _hands import PATHOLOGICAL, ddz_count, ddz_moves, preset_cases, preset_sizes

import ddz

RULES = {p: ddz.Rules(p) for p in ddz.PRESETS}
CASES = {(p, size): preset_cases(p, size) for p in ddz.PRESETS for size in preset_sizes(p)}
OPS = {
    "moves": lambda rules, cases, follow: ddz_moves(rules, cases, follow),
    "list(moves)": lambda rules, cases, follow: ddz_moves(rules, cases, follow, True),
    "count_moves": lambda rules, cases, follow: ddz_count(rules, cases, follow),
}


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("mode", ("lead", "follow"))
@pytest.mark.parametrize(("preset", "size"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_preset_movegen(benchmark, preset, size, mode, op):
    benchmark.group = preset
    benchmark.name = f"{mode}-{size} {op}"
    rules = RULES[preset]
    n = benchmark(OPS[op], rules, CASES[preset, size], mode == "follow")
    assert n == ddz_moves(rules, CASES[preset, size], mode == "follow")


PATHOLOGICAL_OPS = {
    "moves": lambda rules, hands: sum(len(rules.moves(h)) for h in hands),
    "list(moves)": lambda rules, hands: sum(len(list(rules.moves(h))) for h in hands),
    "count_moves": lambda rules, hands: sum(rules.count_moves(h) for h in hands),
}


@pytest.mark.parametrize("op", PATHOLOGICAL_OPS)
@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_preset_pathological(benchmark, preset, op):
    benchmark.group = preset
    benchmark.name = f"pathological {op}"
    rules = RULES[preset]
    hands = [rules.cards(text) for text in PATHOLOGICAL[preset]]
    n = benchmark(PATHOLOGICAL_OPS[op], rules, hands)
    assert n == sum(len(rules.moves(h)) for h in hands)
