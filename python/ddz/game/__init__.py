"""Game flow: one deal from the deal to the score, on the Rust table."""

from .game import PASS, Game, IllegalAction

__all__ = ["PASS", "Game", "IllegalAction"]
