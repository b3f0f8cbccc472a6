"""A finished deal's replay: the open table after every action, from its record.

Every state comes from the engine: the record is checked whole by
`ddz.Game.from_json`, then played again action by action from the same
record with no actions, so the page shows positions and never works one
out (no flow rule is written twice). A frame holds every hand face up, as
a replay is only ever made of a deal that is over.
"""

from __future__ import annotations

import json
from typing import Any

import ddz
from ddz.game.game import _reading  # the record's own reading of a play
from ddz.serve.views import public_observation

#: The format of the reply, for clients that keep frames.
FORMAT = "ddz-replay/1"


def _step(game: ddz.Game, rules: ddz.Rules, action: Any) -> str:
    """One record entry, read exactly as `Game.from_json` reads it; returns
    the action's text as the histories write it."""
    if isinstance(action, dict):
        move = _reading(rules, action)
        game.step(move, cards=action.get("ids"))
        return str(move)
    game.step(action)
    return str(action)


def _frame(game: ddz.Game, done: list | None) -> dict:
    """The open table now: every hand, the kitty, and what all seats know alike."""
    players = game.rules.players
    public = public_observation([game.observation(s) for s in range(players)])
    del public["history"]  # the frames' actions are the whole history, in order
    return {
        "action": done,
        "deal": len(game.deals) - 1,  # more than 0 after a redeal
        "phase": game.phase,
        "to_act": None if game.phase == "over" else game.to_act,
        "hands": ["".join(h) for h in game.hands],
        "kitty": "".join(game.kitty),
        "kitty_given": game.kitty_given,
        "observation": public,
    }


def frames(record: str) -> dict:
    """The replay of `record` (`Game.to_json()` text): one frame before the
    first action and one after each. A record that is not one, or whose
    deal is not over, raises `ValueError` naming what is wrong."""
    whole = ddz.Game.from_json(record)  # RecordError (a ValueError) names the fault
    if whole.phase != "over":
        raise ValueError("this record's deal is not over: only finished deals replay")
    data = json.loads(record)
    rules = whole.rules
    game = ddz.Game.from_json(json.dumps({**data, "actions": []}))
    steps = [_frame(game, None)]
    for seat, action in data["actions"]:
        text = _step(game, rules, action)
        steps.append(_frame(game, [seat, text]))
    return {
        "format": FORMAT,
        "preset": rules.preset,
        "players": rules.players,
        "seed": data["seed"],
        "roles": rules.roles(),
        "result": whole.result,
        "frames": steps,
    }
