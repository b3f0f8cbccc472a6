"""The solver bench's interval for the peer / ddz ratio (benches/solver_peer.py)."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))

from solver_peer import ratio_interval  # noqa: E402


def test_rounds_that_agree_give_a_point():
    peer = [0.150] * 6
    ddz = [[0.005, 0.005, 0.005]] * 6
    assert ratio_interval(peer, ddz) == (30.0, 30.0)


def test_the_interval_holds_the_ratio_and_widens_with_the_rounds():
    peer = [0.080, 0.210, 0.140, 0.160, 0.100, 0.200]
    ddz = [[0.0045, 0.0046], [0.0065, 0.0066], [0.0050, 0.0051]] * 2
    low, high = ratio_interval(peer, ddz)
    whole = statistics.median(peer) / statistics.median([t for ts in ddz for t in ts])
    assert low < whole < high
    # No draw goes past the slowest peer run over the fastest solve, or the reverse.
    every = [t for ts in ddz for t in ts]
    assert min(peer) / max(every) <= low and high <= max(peer) / min(every)
