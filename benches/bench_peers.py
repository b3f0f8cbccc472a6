"""Move generation of the peer engines RLCard and OpenSpiel on the benches' seeded hands.

Run ``pytest benches --benchmark-enable``: the groups ``lead-20``, ``follow-20`` and
``follow-17`` are those of ``bench_movegen.py`` (ddz and DouZero), so the engines line up.
OpenSpiel's follow-17 runs on the hands whose previous play it has (no four-with-two), in
its own group with ddz on the same hands.  The normal test run (``--benchmark-disable``)
runs each once as a smoke test; a peer that is not installed is skipped.  The states are
built as ``benches/peers.py`` builds them (see there).
"""

from __future__ import annotations

import functools

import pytest
from _hands import bench_cases, ddz_moves
from peers import OpenSpielPeer, RLCardPeer

import ddz

RULES = ddz.Rules("classic")
SECTIONS = (("lead", 20), ("follow", 20), ("follow", 17))


@functools.cache
def cases(size: int):
    return bench_cases(RULES, size)


@functools.cache
def rlcard_prep(mode: str, size: int):
    peer = RLCardPeer()
    return peer, peer.prepare(cases(size), mode == "follow")


@functools.cache
def openspiel_states(mode: str, size: int):
    peer = OpenSpielPeer()
    if mode == "lead":
        return peer, peer.lead_states(cases(size)), list(range(len(cases(size))))
    return (peer, *peer.follow17_states(cases(size)))


@pytest.mark.parametrize(("mode", "size"), SECTIONS, ids=[f"{m}-{s}" for m, s in SECTIONS])
def test_rlcard_generator(benchmark, mode, size):
    pytest.importorskip("rlcard")
    benchmark.group = f"{mode}-{size}"
    peer, prep = rlcard_prep(mode, size)
    n = benchmark(peer.generator, prep, mode == "follow")
    assert n > 0


@pytest.mark.parametrize(("mode", "size"), SECTIONS, ids=[f"{m}-{s}" for m, s in SECTIONS])
def test_rlcard_env_step(benchmark, mode, size):
    pytest.importorskip("rlcard")
    benchmark.group = f"{mode}-{size}"
    peer, prep = rlcard_prep(mode, size)
    n = benchmark(peer.env_step, prep, mode == "follow")
    assert n == peer.generator(prep, mode == "follow")


def test_openspiel_lead(benchmark):
    pytest.importorskip("pyspiel")
    benchmark.group = "lead-20"
    peer, states, _ = openspiel_states("lead", 20)
    assert benchmark(peer.legal, states, False) > 0


def test_openspiel_follow(benchmark):
    pytest.importorskip("pyspiel")
    peer, states, kept = openspiel_states("follow", 17)
    benchmark.group = f"follow-17, OpenSpiel's {len(kept)} hands"
    assert benchmark(peer.legal, states, True) > 0


def test_ddz_on_openspiel_follow_hands(benchmark):
    pytest.importorskip("pyspiel")
    _, _, kept = openspiel_states("follow", 17)
    benchmark.group = f"follow-17, OpenSpiel's {len(kept)} hands"
    subset = [cases(17)[i] for i in kept]
    assert benchmark(ddz_moves, RULES, subset, True) > 0
