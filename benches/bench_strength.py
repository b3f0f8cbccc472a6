"""The strength ladder of docs/bots.md: built-in players and RLCard 1.2.0's
rule agent against each other, classic, DouZero's protocol (seat 0 is the
landlord with the kitty, no auction; every deal played twice, the seats
swapped), through `ddz.evaluate`.

    python benches/bench_strength.py [--deals N] [--seed S] [--json] [--only NAME ...]
    python benches/bench_strength.py --every-preset [--deals N] [--observation] [--presets P ...]

Rows: the rule agent against random, greedy against random, the rule agent
against greedy; and, where the engine has the ``"search"`` policy, search
against each of them. `--every-preset` plays every preset in the full
protocol (the auction too): search against greedy, or greedy against random
where there is no search yet; with `--observation` the search decides
through `act` alone, on a table rebuilt from each observation. The rule
agent plays through an adapter from the `ddz.Game` observation
(benches/rlcard_rule.py), checked first against RLCard's own env. Under
pytest a short form runs (a few deals, the adapter on a few games);
``DDZ_STRENGTH=full`` runs the full one there too. Needs ``pip install
rlcard==1.2.0``; the rows with the rule agent are skipped without it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ddz  # noqa: E402

#: Deals a side of the full ladder (issue 26: 2,000).
FULL_DEALS = 2000
#: The short form under pytest.
SHORT_DEALS = 5
#: The short every-preset run: two deals each, one a core (the search at
#: its full budget takes seconds a deal in the multi-seat presets).
SHORT_PRESET_DEALS = 2
SHORT_CHECK_GAMES = 6
FULL_CHECK_GAMES = 500


def has_rlcard() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def has_search() -> bool:
    """Whether the engine has the ``"search"`` policy (issue 26, item 1)."""
    try:
        ddz.simulate("classic", 0, policy="search")
    except ValueError:
        return False
    return hasattr(ddz.agents, "SearchAgent")


def rule_agent(seed: int) -> Any:
    from rlcard_rule import RuleAgent

    return RuleAgent(seed)


#: The ladder: (row name, A, B), A and B a policy name or a maker of an agent.
Player = str | Callable[[int], Any]


def rows() -> list[tuple[str, Player, Player]]:
    out: list[tuple[str, Player, Player]] = []
    if has_rlcard():
        out.append(("rule agent vs random", rule_agent, "random"))
    out.append(("greedy vs random", "greedy", "random"))
    if has_rlcard():
        out.append(("rule agent vs greedy", rule_agent, "greedy"))
    if has_search():
        out.append(("search vs random", "search", "random"))
        out.append(("search vs greedy", "search", "greedy"))
        if has_rlcard():
            out.append(("search vs rule agent", "search", rule_agent))
    return out


def ladder(deals: int, seed: int = 0, only: list[str] | None = None) -> list[dict[str, Any]]:
    """Each row's `ddz.evaluate` figures, with its seconds."""
    out = []
    for name, a, b in rows():
        if only and name not in only:
            continue
        start = time.perf_counter()
        made = [p if isinstance(p, str) else p(seed) for p in (a, b)]
        figures = dict(
            ddz.evaluate("classic", made[0], made[1], deals, seed=seed, protocol="douzero")
        )
        figures["row"] = name
        figures["seconds"] = round(time.perf_counter() - start, 1)
        out.append(figures)
    return out


class ActOnly:
    """SearchAgent through `act` alone (it has no `act_in`, so
    `ddz.evaluate` hands it the observation dict): each decision searches
    a table rebuilt from the observation, on one thread."""

    def __init__(self, seed: int) -> None:
        self.agent = ddz.agents.SearchAgent(seed=seed, threads=1)

    def act(self, observation: Any, legal: Any) -> Any:
        return self.agent.act(observation, legal)


def every_preset(
    deals: int, seed: int = 0, observation: bool = False, presets: list[str] | None = None
) -> list[dict[str, Any]]:
    """Every preset (or `presets`) in the full protocol (the auction and
    every decision): search against greedy where the engine has search
    (with `observation`, through `ActOnly`), else greedy against random."""
    a, b = ("search", "greedy") if has_search() else ("greedy", "random")
    out = []
    for preset in presets or ddz.PRESETS:
        start = time.perf_counter()
        player = ActOnly(seed) if observation and a == "search" else a
        figures = dict(ddz.evaluate(preset, player, b, deals, seed=seed, protocol="full"))
        figures["row"] = f"{a}{' (act)' if player is not a else ''} vs {b}"
        figures["seconds"] = round(time.perf_counter() - start, 1)
        out.append(figures)
    return out


def preset_table(results: list[dict[str, Any]]) -> str:
    """Per preset: A's WP in every role it played, and its mean score."""
    lines = [
        "| preset | A vs B | WP by role | WP by role, one-sided games | WP | score |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        by_role = lambda key, r=r: ", ".join(  # noqa: E731
            f"{k} {v['wp']['value']:.3f}" for k, v in r[key].items()
        )
        overall = r["overall"]
        half = (overall["score"]["high"] - overall["score"]["low"]) / 2
        lines.append(
            f"| {r['preset']} | {r['row']} | {by_role('roles')} | {by_role('one_sided_roles')} | "
            f"{overall['wp']['value']:.3f} | {overall['score']['value']:+.2f} ± {half:.2f} |"
        )
    return "\n".join(lines)


def table(results: list[dict[str, Any]]) -> str:
    """The ladder as docs/bots.md's Markdown table."""
    lines = [
        "| A vs B | WP as landlord | WP as farmers | WP | ADP | score |",
        "|---|---|---|---|---|---|",
    ]

    def shown(f: dict, signed: bool = False) -> str:
        half = (f["high"] - f["low"]) / 2
        return f"{f['value']:+.2f} ± {half:.2f}" if signed else f"{f['value']:.3f} ± {half:.3f}"

    for r in results:
        lord, farmer, overall = r["roles"]["landlord"], r["roles"]["farmer"], r["overall"]
        lines.append(
            f"| {r['row']} | {shown(lord['wp'])} | {shown(farmer['wp'])} | "
            f"{shown(overall['wp'])} | {shown(overall['adp'], True)} | "
            f"{shown(overall['score'], True)} |"
        )
    return "\n".join(lines)


def full() -> bool:
    return os.environ.get("DDZ_STRENGTH") == "full"


# ---- under pytest ----------------------------------------------------------


def test_the_rule_agents_adapter_agrees_with_rlcards_env() -> None:
    pytest.importorskip("rlcard")
    from rlcard_rule import check

    tally = check(FULL_CHECK_GAMES if full() else SHORT_CHECK_GAMES, seed=3)
    assert tally["states"] > 0 and tally["unplayable"] == 0
    assert tally["actions_differ"] == 0, tally
    # The only field that may differ: a lead's plays, where ddz allows a
    # bomb with both jokers as its two singles and RLCard does not.
    assert tally["fields_differ"] == tally["legal_differ"], tally


def test_the_ladder_short() -> None:
    results = ladder(FULL_DEALS if full() else SHORT_DEALS, seed=1)
    assert [r["row"] for r in results] == [name for name, _, _ in rows()]
    for r in results:
        assert set(r["roles"]) == {"landlord", "farmer"}
        for f in (r["overall"], *r["roles"].values()):
            assert 0 <= f["wp"]["value"] <= 1
    print("\n" + table(results))


def test_every_preset_in_the_full_protocol_short() -> None:
    results = every_preset(FULL_DEALS if full() else SHORT_PRESET_DEALS, seed=1)
    assert [r["preset"] for r in results] == list(ddz.PRESETS)
    # Which roles A held in so few games is up to the time-limited search;
    # every game gives A some role, and every figure is a share.
    for r in results:
        assert r["roles"] and r["overall"]["count"] == 2 * SHORT_PRESET_DEALS
        assert all(0 <= f["wp"]["value"] <= 1 for f in (r["overall"], *r["roles"].values()))
    print("\n" + preset_table(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=FULL_DEALS, help="deals a side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check-games", type=int, default=FULL_CHECK_GAMES)
    parser.add_argument("--only", nargs="*", help="row names, e.g. 'greedy vs random'")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--every-preset",
        action="store_true",
        help="every preset in the full protocol (search vs greedy, else greedy vs random)",
    )
    parser.add_argument(
        "--observation",
        action="store_true",
        help="with --every-preset: the search plays through act, from the observation alone",
    )
    parser.add_argument("--presets", nargs="*", help="with --every-preset: these presets only")
    args = parser.parse_args()
    if args.every_preset:
        results = every_preset(args.deals, args.seed, args.observation, args.presets)
        print(json.dumps(results) if args.json else preset_table(results))
        return
    if has_rlcard() and args.check_games:
        from rlcard_rule import check

        print("adapter against RLCard's env:", check(args.check_games, seed=args.seed), flush=True)
    results = ladder(args.deals, args.seed, args.only)
    print(json.dumps(results) if args.json else table(results))


if __name__ == "__main__":
    main()
