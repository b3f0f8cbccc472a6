"""Time a decision of the search player (``SearchAgent``) at its default budget.

Every preset: deals played by SearchAgent at every seat, each decision with a
choice (two or more legal actions) timed, bidding included: ``act_in`` on the
game's table (what ``ddz.play``, the server and ``ddz play`` call), or with
``--observation`` ``act`` from the observation dict (a table rebuilt from it,
docs/bots.md). Prints p50, p99 and max in ms per
preset, and the process's peak resident memory.

    python benches/bench_search.py                 # the full run (DDZ_SEARCH_DEALS deals, 20)
    DDZ_SEARCH_DEALS=50 python benches/bench_search.py --threads 2 classic

Under pytest (``pytest benches/bench_search.py``) it plays one short classic deal
as a smoke test and checks only that every decision was legal: timing is never
asserted in a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import ddz
from ddz.agents import SearchAgent


def timed_deals(
    preset: str, deals: int, threads: int | None, seed: int = 0, observation: bool = False
) -> list[float]:
    """Milliseconds of every decision with a choice (two or more legal
    actions) of `deals` deals of `preset`: `SearchAgent.act_in` on the game,
    or with `observation` its `act` from the observation dict."""
    rules = ddz.Rules(preset)
    agent = SearchAgent(seed=seed, threads=threads, rules=rules)
    times: list[float] = []
    for index in range(deals):
        game = ddz.Game(rules, seed=seed * 100_003 + index)
        while game.phase != "over":
            seat = game.to_act
            legal = game.legal_actions()
            start = time.perf_counter()
            if observation:
                action = agent.act(game.observation(seat), legal)
            else:
                action = agent.act_in(game)
            if len(legal) > 1:
                times.append((time.perf_counter() - start) * 1000)
            game.step(action)
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--observation", action="store_true", help="time act(observation) instead of act_in(game)"
    )
    parser.add_argument("presets", nargs="*", default=list(ddz.PRESETS))
    args = parser.parse_args()
    deals = int(os.environ.get("DDZ_SEARCH_DEALS", "20"))
    print(f"{'preset':22} {'decisions':>9} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    for preset in args.presets:
        times = timed_deals(preset, deals, args.threads, observation=args.observation)
        p50, p99 = quantile(times, 0.5), quantile(times, 0.99)
        print(f"{preset:22} {len(times):9} {p50:7.2f} {p99:7.2f} {max(times):7.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the process: {peak:.0f} MiB")


def test_search_decisions_short() -> None:
    # The short form: a few decisions of one deal, all legal (Game.step checks).
    times = timed_deals("classic", 1, threads=1)
    assert times
    assert timed_deals("classic", 1, threads=1, observation=True)


if __name__ == "__main__":
    main()
