"""Game flow: one deal from the deal to the score, on the Rust table."""

from ddz._ddz import PRESETS as ddz_presets
from ddz._ddz import Table

from .game import PASS, Game, IllegalAction

#: Presets played on the Rust table: every preset.
TABLE_PRESETS = tuple(p for p in ddz_presets if Table.plays(p))

__all__ = ["PASS", "TABLE_PRESETS", "Game", "IllegalAction"]
