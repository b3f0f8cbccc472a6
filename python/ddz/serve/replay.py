"""A finished deal's replay: the open table after every action, from its record.

Every state comes from the engine: the record is checked whole by
`ddz.Game.from_json`, then played again action by action from the same
record with no actions, so the page shows positions and never works one
out (no flow rule is written twice). A frame holds every hand face up, as
a replay is only ever made of a deal that is over.
"""

from __future__ import annotations

import ddz
from ddz.serve.views import public_observation

#: The format of the reply, for clients that keep frames.
FORMAT = "ddz-replay/1"


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
        "stake": game.stake,
        "observation": public,
    }


def frames(record: str) -> dict:
    """The replay of `record` (`Game.to_json()` text): one frame before the
    first action and one after each. A record that is not one, or whose
    deal is not over, raises `ValueError` naming what is wrong."""
    steps: list[dict] = []

    def frame(game: ddz.Game, done: tuple[int, str] | None) -> None:
        steps.append(_frame(game, None if done is None else list(done)))

    # The engine reads and replays the record (RecordError, a ValueError,
    # names a fault), calling `frame` before the first action and after each.
    whole = ddz.Game.replay(record, frame)
    if whole.phase != "over":
        raise ValueError("this record's deal is not over: only finished deals replay")
    rules = whole.rules
    return {
        "format": FORMAT,
        "preset": rules.preset,
        "players": rules.players,
        "seed": whole.seed,
        "roles": rules.roles(),
        "result": whole.result,
        "frames": steps,
    }
