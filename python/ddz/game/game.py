"""`Game`: one deal from the deal to the score, on the Rust table.

Every rule of a deal lives in `ddz_core::table` (docs/table.md); `Game` adds
the rule set, the seed and the record. `phase`, `to_act`, `legal_actions()`,
`step()`, `observation()` and `result` are the table's own methods, so a
step costs one call into Rust.
"""

from __future__ import annotations

import json
import random
from typing import Any, Union

import ddz
from ddz._ddz import IllegalAction, Table
from ddz.errors import RecordError

Action = Union[str, ddz.Move]
#: The pass action.
PASS = "pass"
#: The record format `to_json` writes. Version 2 added the rule options of
#: the table (older rule dicts take their preset's values for them).
FORMAT = "ddz-game/2"
#: Every record format `from_json` reads.
FORMATS = ("ddz-game/1", FORMAT)


def _rules(preset_or_rules: str | ddz.Rules) -> ddz.Rules:
    if isinstance(preset_or_rules, ddz.Rules):
        return preset_or_rules
    return ddz.Rules(preset_or_rules)


class Game(Table):
    """One deal: `Game(preset_or_rules, seed=None, deal=None)`.

    `seed` (any int; random when None) draws the deals; `deal` gives the
    first one (``{"hands": [...], "kitty": "...", "first": 0}``)."""

    rules: ddz.Rules
    seed: int

    def __new__(
        cls,
        preset_or_rules: str | ddz.Rules = "classic",
        seed: int | None = None,
        deal: dict | None = None,
        *,
        _deals: list[dict] | None = None,
    ) -> Any:
        rules = _rules(preset_or_rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an int, not {seed!r}")
        deals = ([deal] if deal is not None else []) + list(_deals or [])
        game: Game = super().__new__(cls, rules, seed % 2**64, deals)  # type: ignore[assignment]
        game.rules = rules
        game.seed = seed
        return game

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass  # everything is set up by __new__

    # ---- records -------------------------------------------------------
    def to_json(self) -> str:
        return _record(self.rules, self.seed, self.deals, self.actions)

    @classmethod
    def from_json(cls, record: str) -> Game:
        """Replay a record of `to_json`; a record that is not one raises
        `ddz.RecordError` (a ValueError) naming what is wrong."""
        return _replay(record)


def _record(rules: ddz.Rules, seed: int, deals: list, actions: list) -> str:
    entries = []
    for seat, action, ids in actions:
        if isinstance(action, ddz.Move):
            entry: object = {
                "play": str(action.cards),
                "kind": action.kind,
                "rank": action.rank,
                "length": action.length,
                "ids": ids,
            }
        else:
            entry = action
        entries.append([seat, entry])
    return json.dumps(
        {
            "format": FORMAT,
            "rules": rules.to_dict(),
            "seed": seed,
            "deals": deals,
            "actions": entries,
        }
    )


def _replay(record: str) -> Any:
    if not isinstance(record, (str, bytes, bytearray)):
        raise RecordError(f"a game record is JSON text, not {type(record).__name__}")
    try:
        data = json.loads(record)
    except ValueError as e:
        raise RecordError(f"a game record is JSON text: {e}") from e
    if not isinstance(data, dict):
        raise RecordError(f"a game record is a JSON object, not {type(data).__name__}")
    fmt = data.get("format")
    if fmt not in FORMATS:
        raise RecordError(
            f"not a game record this version reads: format {fmt!r}; it reads {', '.join(FORMATS)}"
        )
    for key, kind in (("rules", dict), ("seed", int), ("deals", list), ("actions", list)):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError(f"the record's {key!r} must be a {kind.__name__}, not {value!r}")
    if not all(isinstance(d, dict) for d in data["deals"]):
        raise RecordError("the record's 'deals' must all be deal dicts")
    try:
        rules = ddz.Rules.from_dict(data["rules"])
        game = Game(rules, seed=data["seed"], _deals=data["deals"])
    except ValueError as e:  # a RulesError or CardError, kept as the cause
        raise RecordError(f"the record's rules or deals: {e}") from e
    for i, item in enumerate(data["actions"]):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise RecordError(f"record action {i} must be [seat, action], not {item!r}")
        seat, action = item
        if game.phase == "over":
            raise RecordError(f"record action {i} comes after the end of the deal")
        if seat != game.to_act:
            raise RecordError(
                f"record out of turn: seat {seat}, expected {game.to_act}",
                seat=seat,
                phase=game.phase,
            )
        phase = game.phase
        try:
            if isinstance(action, dict):
                ids = action.get("ids")
                if ids is not None and not isinstance(ids, str):
                    raise RecordError(f"'ids' must be card text, not {ids!r}")
                game.step(_reading(rules, action), cards=ids)
            elif isinstance(action, str):
                game.step(action)
            else:
                raise RecordError(f"an action is a word or a play dict, not {action!r}")
        except ValueError as e:
            raise RecordError(
                f"record action {i} ({action!r}): {e}", text=repr(action), seat=seat, phase=phase
            ) from e
    return game


def _reading(rules: ddz.Rules, play: dict) -> ddz.Move:
    """The Move a record's play names."""
    try:
        wanted = (play["kind"], play["rank"], play["length"])
        readings = rules.classify(play["play"])
    except (KeyError, TypeError) as e:
        raise RecordError(f"a play needs 'play', 'kind', 'rank' and 'length': {e}") from None
    for m in readings:
        if (m.kind, m.rank, m.length) == wanted:
            return m
    raise RecordError(f"record holds a play that is no reading: {play}")


__all__ = ["FORMAT", "FORMATS", "Game", "IllegalAction"]
