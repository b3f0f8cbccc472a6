"""Built-in agents: each picks one of the legal actions it is offered."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ddz.game import PASS


class RandomAgent:
    """Uniformly random among the legal actions (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: dict, legal: Sequence):
        return legal[self._rng.randrange(len(legal))]


class GreedyAgent:
    """Plays its smallest play that beats, else passes; leads its smallest
    play; bids the lowest bid open and declines every other option."""

    def act(self, observation: dict, legal: Sequence):
        if observation["phase"] == "play":
            return legal[0]  # hint order: smallest first, bombs last; PASS last
        bids = [a for a in legal if isinstance(a, str) and (a.startswith("bid:") or a == "call")]
        if bids:
            return bids[0]
        declines = [a for a in legal if isinstance(a, str) and a.startswith("no-")]
        return declines[0] if declines else (PASS if PASS in legal else legal[0])
