"""A built-in policy for `rollouts`: uniform over the legal actions."""

from __future__ import annotations

import numpy as np


class RandomPolicy:
    """Uniform over each env's legal actions, from its own generator.

    `rollouts` calls ``for_worker(index)`` on each worker's copy, so every
    worker draws its own stream from ``(seed, index)`` rather than all of
    them repeating one.
    """

    def __init__(self, seed: int = 0, worker: int = 0) -> None:
        self.seed = seed
        self.worker = worker
        self._rng = np.random.default_rng([seed, worker])

    def for_worker(self, index: int) -> RandomPolicy:
        return RandomPolicy(self.seed, index)

    def __call__(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        counts = np.diff(obs["legal_offsets"])
        return (self._rng.random(len(counts)) * counts).astype(np.int64)
