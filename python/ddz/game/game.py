"""`Game`: one deal from the deal to the score, on the Rust table.

Every rule of a deal lives in `ddz_core::table` (docs/table.md); `Game` adds
the rule set, the seed and the record. `phase`, `to_act`, `legal_actions()`,
`step()`, `observation()` and `result` are the table's own methods, so a
step costs one call into Rust.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Union

import ddz
from ddz import _ddz
from ddz._ddz import IllegalAction, Table

Action = Union[str, ddz.Move]
#: The pass action.
PASS = "pass"
#: The record format `to_json` writes, and every format `from_json` reads
#: (the engine's: docs/game.md#records).
FORMAT: str = _ddz.RECORD_FORMAT
FORMATS: tuple[str, ...] = _ddz.RECORD_FORMATS


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

    def __repr__(self) -> str:
        """What a person at the prompt wants first: which deal, where it
        stands, and the result once over. Only public facts (hand sizes,
        not hands), so a repr can be logged or shown to any seat."""
        head = f"Game({self.rules!r}, seed={self.seed}), deal {len(self.deals)}"
        if self.phase == "over":
            result = self.result
            assert result is not None  # set once the deal is over
            seats = result["winners"]
            named = ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"
            who = f"seat {seats[0]} wins" if len(seats) == 1 else f"seats {named} win"
            return f"<{head}: over, {who} at ×{result['multiplier']}, scores {result['scores']}>"
        left = [len(self.counts(s)) for s in range(self.rules.players)]
        return f"<{head}: {self.phase}, seat {self.to_act} to act, cards left {left}>"

    # ---- records -------------------------------------------------------
    def to_json(self) -> str:
        """The record (docs/game.md#records), written by the engine."""
        return self._record_json(self.seed)

    @classmethod
    def from_json(cls, record: str) -> Game:
        """Replay a record of `to_json`; a record that is not one raises
        `ddz.RecordError` (a ValueError) naming what is wrong."""
        game: Game = cls._from_record(record)
        return game

    @classmethod
    def replay(cls, record: str, each: Callable[[Game, tuple[int, str] | None], object]) -> Game:
        """As `from_json`, calling `each(game, None)` before the first action
        and `each(game, (seat, action))` after each (the action as the
        history writes it): a replay's every step, read by the engine."""
        game: Game = cls._from_record(record, each)
        return game


__all__ = ["FORMAT", "FORMATS", "Game", "IllegalAction"]
