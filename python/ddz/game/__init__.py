"""Game flow: dealing, choosing the landlord, trick play and scoring."""

from .auction import PASS
from .game import FLOWS, Game, IllegalAction

__all__ = ["FLOWS", "PASS", "Game", "IllegalAction"]
