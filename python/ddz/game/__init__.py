"""Game flow: dealing, choosing the landlord, trick play and scoring."""

from ddz._ddz import PRESETS as ddz_presets
from ddz._ddz import Table

from .auction import PASS
from .flows import FLOWS
from .game import Game, IllegalAction

#: Presets played on the Rust table (the others run the Python flows).
TABLE_PRESETS = tuple(p for p in ddz_presets if Table.plays(p))

__all__ = ["FLOWS", "PASS", "TABLE_PRESETS", "Game", "IllegalAction"]
