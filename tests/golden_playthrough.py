"""Golden playthroughs: a few deals per preset written as readable text.

`tests/test_golden.py` diffs them against `tests/golden/<preset>.txt`, so a
change of behaviour shows in review. To change them on purpose (a rule
fixed, a view key added), regenerate and review the diff::

    DDZ_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden.py

A plain module next to the tests (imported as ``golden_playthrough``).
"""

from __future__ import annotations

import json
from pathlib import Path

import ddz
from ddz.agents import GreedyAgent, RandomAgent

GOLDEN = Path(__file__).resolve().parent / "golden"
#: Deal seeds per preset: random agents on the first, greedy ones on the second.
SEEDS = (1, 2)
REGENERATE_ENV = "DDZ_REGENERATE_GOLDEN"


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _action(action: object, ids: str | None) -> str:
    if isinstance(action, ddz.Move):
        return f"{action} ({action.kind} {action.rank} x{action.length}) cards {ids}"
    return str(action)


def _view(game: ddz.Game, seat: int) -> str:
    """A seat's view; the legal actions as their count (their order shows in
    the greedy deal's actions, their set in the conformance suite)."""
    obs = dict(game.observation(seat))
    legal = obs.pop("legal_actions", None)
    shown = _json(obs)
    return f"view {seat}: {shown}" + (f" +{len(legal)} legal" if legal is not None else "")


def playthrough(preset: str, seed: int) -> list[str]:
    """One deal as lines: the deal, every action, every seat's view when the
    play phase begins and at the end, the result."""
    game = ddz.Game(preset, seed=seed)
    n = game.rules.players
    if seed == SEEDS[0]:
        agents: list = [RandomAgent(seed * 7 + i) for i in range(n)]
    else:
        agents = [GreedyAgent() for _ in range(n)]
    lines = [f"== {preset} seed {seed} ({type(agents[0]).__name__})"]
    views_shown = False
    while game.phase != "over":
        if game.phase == "play" and not views_shown:
            lines.append("-- views when the play begins")
            lines += [_view(game, s) for s in range(n)]
            views_shown = True
        seat = game.to_act
        game.step(agents[seat].act(game.observation(seat), game.legal_actions()))
    lines.append("-- deals")
    lines += [f"deal: {_json(d)}" for d in game.deals]
    lines.append("-- actions")
    lines += [f"{seat}: {_action(a, ids)}" for seat, a, ids in game.actions]
    lines.append("-- views at the end")
    lines += [_view(game, s) for s in range(n)]
    lines.append(f"result: {_json(game.result)}")
    return lines


def render(preset: str) -> str:
    head = [
        f"# Golden playthroughs of {preset!r}: diffed by tests/test_golden.py.",
        f"# Regenerate on purpose: {REGENERATE_ENV}=1 python -m pytest tests/test_golden.py",
    ]
    body = [line for seed in SEEDS for line in playthrough(preset, seed)]
    return "\n".join(head + body) + "\n"


def path_of(preset: str) -> Path:
    return GOLDEN / f"{preset}.txt"
