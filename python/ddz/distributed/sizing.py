"""How fast one thread plays a rule set here: the yardstick for task sizes."""

from __future__ import annotations

import json
import time

import ddz

#: Timing stops once a probe has run this long (seconds).
PROBE_SECONDS = 0.02
#: Deals in the first probe; doubled until the probe is long enough.
PROBE_START = 16
_rates: dict[tuple[str, str], float] = {}


def deals_per_second(rules: ddz.Rules, policy: str) -> float:
    """Deals per second on one thread, timed once per rule set and policy in
    this process (a few tens of milliseconds)."""
    key = (json.dumps(rules.to_dict(), sort_keys=True), policy)
    if key not in _rates:
        n = PROBE_START
        while True:
            start = time.perf_counter()
            ddz.simulate(rules, n, seed=0, threads=1, policy=policy)
            elapsed = time.perf_counter() - start
            if elapsed >= PROBE_SECONDS:
                break
            n *= 2
        _rates[key] = n / elapsed
    return _rates[key]
