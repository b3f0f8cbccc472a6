"""The built-in policy ``"rule"`` (the Rust port of RLCard 1.2.0's
`DouDizhuRuleAgentV1`) against RLCard's own agent (docs/bots.md).

    python benches/rule_port.py [--games G] [--deals N] [--seed S] [--json]

1. Action for action: RLCard's env plays its own deals with its own agent;
   at every state a `ddz.Game` on the same deal and history asks the port
   (`Game.policy_choice("rule")`). The agent draws at random only where it
   cannot follow and the seat it follows is not its partner; so each side is
   asked under sixteen random states: a state where both sides answer the same
   one action is *determined*, and there the two must agree; a state where
   both draw is *drawn* (each draws uniformly among all the legal answers,
   pass included); any other outcome counts as a disagreement.
2. Strength: greedy against each in classic, DouZero's protocol (seat 0 the
   landlord with the kitty, no auction; every deal twice, seats swapped):
   ``ddz.evaluate("classic", "greedy", "rule")`` and the same with RLCard's
   agent through the Python adapter (benches/rlcard_rule.py). The two WPs
   must agree within their intervals.

Needs ``pip install rlcard==1.2.0`` (an optional peer): without it the
bench says so and stops. Under pytest (``pytest benches/rule_port.py``) a
short form runs and is skipped without RLCard.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ddz  # noqa: E402

DRAWS = 16


def has_rlcard() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def agree(games: int, seed: int = 0) -> dict[str, int]:
    """Part 1 over `games` of RLCard's deals (see the module docs)."""
    import rlcard
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    from rlcard_rule import ddz_action, table_like

    env = rlcard.make("doudizhu", config={"seed": seed})
    agent = DouDizhuRuleAgentV1()
    tally = dict.fromkeys(("games", "states", "determined", "drawn", "disagree", "unplayable"), 0)
    saved = np.random.get_state()
    try:
        for g in range(games):
            state, player = env.reset()
            table = table_like(env, seed=g)
            tally["games"] += 1
            while not env.is_over():
                tally["states"] += 1
                legal = table.legal_actions()
                theirs = set()
                for k in range(DRAWS):
                    np.random.seed(seed * 7919 + tally["states"] * DRAWS + k)
                    theirs.add(str(agent.step(state)))
                mine = {str(legal[table.policy_choice("rule", seed=k)]) for k in range(DRAWS)}
                want = {ddz_action(a, legal) for a in theirs}
                if len(theirs) == 1 and len(mine) == 1:
                    ok = {str(a) for a in want} == mine
                    tally["determined"] += 1
                    tally["disagree"] += not ok
                elif len(theirs) > 1 and len(mine) > 1:
                    tally["drawn"] += 1
                else:
                    tally["disagree"] += 1
                action = sorted(theirs)[0]
                played = ddz_action(action, legal)
                if played is None:
                    tally["unplayable"] += 1
                    break
                table.step(played)
                state, player = env.step(action, raw_action=True)
    finally:
        np.random.set_state(saved)
    return tally


def strength(deals: int, seed: int) -> dict[str, Any]:
    """Part 2: greedy's WP against the port and against RLCard's agent."""
    from rlcard_rule import RuleAgent

    out: dict[str, Any] = {}
    start = time.perf_counter()
    port = ddz.evaluate("classic", "greedy", "rule", deals=deals, seed=seed, protocol="douzero")
    out["port"] = {"wp": port["overall"]["wp"], "seconds": round(time.perf_counter() - start, 1)}
    start = time.perf_counter()
    theirs = ddz.evaluate(
        "classic", "greedy", RuleAgent(seed), deals=deals, seed=seed, protocol="douzero"
    )
    out["rlcard"] = {
        "wp": theirs["overall"]["wp"],
        "seconds": round(time.perf_counter() - start, 1),
    }
    a, b = port["overall"]["wp"], theirs["overall"]["wp"]
    out["overlap"] = a["low"] <= b["high"] and b["low"] <= a["high"]
    return out


def test_rule_port_short() -> None:
    import pytest

    if not has_rlcard():
        pytest.skip("RLCard 1.2.0 is not installed (an optional peer)")
    tally = agree(3)
    assert tally["states"] > 0 and tally["unplayable"] == 0
    assert tally["disagree"] == 0, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="RLCard deals for part 1")
    parser.add_argument("--deals", type=int, default=2000, help="deals a side for part 2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not has_rlcard():
        print("RLCard 1.2.0 is not installed (pip install rlcard==1.2.0): nothing to compare")
        return
    start = time.perf_counter()
    result: dict[str, Any] = {"agree": agree(args.games, args.seed)}
    result["agree"]["seconds"] = round(time.perf_counter() - start, 1)
    if args.deals > 0:
        result["strength"] = strength(args.deals, args.seed)
    print(json.dumps(result, indent=None if args.json else 2, default=str))


if __name__ == "__main__":
    main()
