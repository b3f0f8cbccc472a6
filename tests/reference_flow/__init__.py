"""Game flow: dealing, choosing the landlord, trick play and scoring."""

from .auction import PASS
from .flows import FLOWS
from .game import Game, IllegalAction

__all__ = ["FLOWS", "PASS", "Game", "IllegalAction"]
