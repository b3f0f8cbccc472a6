"""One deal at a time on a one-env `VecEnv`: what the single-game adapters share."""

from __future__ import annotations

from typing import Any

import numpy as np

import ddz

LEGAL_KEYS = (
    "legal_cards",
    "legal_represents",
    "legal_kind",
    "legal_rank",
    "legal_length",
)
SEED_LIMIT = 2**63


def rules_of(preset_or_rules: str | ddz.Rules, options: dict[str, Any]) -> ddz.Rules:
    if isinstance(preset_or_rules, ddz.Rules):
        if options:
            raise TypeError(f"rule options {sorted(options)} go with a preset name, not a Rules")
        return preset_or_rules
    if not isinstance(preset_or_rules, str):
        raise TypeError(f"a preset name or a ddz.Rules, not {preset_or_rules!r}")
    return ddz.Rules(preset_or_rules, **options)


class DealInPlay:
    """The deal in play and its latest observation (the seat to act's).

    `reset(seed)` starts series `seed` (as `VecEnv.reset`); `reset()` goes on
    to a new deal: the next of the series when the last one has just ended,
    else a series drawn from the `seed` of the last seeded reset.
    """

    def __init__(
        self,
        rules: ddz.Rules,
        *,
        history: int,
        reward: str,
        seed: int = 0,
        max_redeals: int | None = 10,
        max_decisions: int | None = None,
    ) -> None:
        self.rules = rules
        self.vec = ddz.VecEnv(
            rules,
            1,
            seed=seed,
            threads=1,
            history=history,
            reward=reward,
            max_redeals=max_redeals,
            max_decisions=max_decisions,
            legal_ids=True,
        )
        self.players = rules.players
        self._index = np.zeros(1, np.int64)
        self._rng = np.random.default_rng(seed)
        self.obs = self.vec.observe()
        self._row_keys = tuple(
            k for k in self.obs if k not in ("legal_offsets", "legal_ids") and k not in LEGAL_KEYS
        )
        self.fresh = True

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
                raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {seed!r}")
            self._rng = np.random.default_rng(int(seed))
            self.obs = self.vec.reset(int(seed))
        elif not self.fresh:
            self.obs = self.vec.reset(int(self._rng.integers(SEED_LIMIT)))
        self.fresh = True

    @property
    def seat(self) -> int:
        return int(self.obs["seat"][0])

    @property
    def legal_count(self) -> int:
        return int(self.obs["legal_offsets"][1])

    def step(self, action: int, by: str = "index") -> tuple[np.ndarray, dict[str, Any]] | None:
        """Take legal action `action` (an index, or with `by="id"` an action id);
        `(rewards by seat, result)` when the deal ends or is cut (`result["truncated"]`)."""
        self._index[0] = action
        obs, rewards, done, info = self.vec.step(self._index, by=by)
        self.obs = obs
        self.fresh = bool(done[0])
        return self.ended(rewards, info) if self.fresh else None

    def ended(
        self, rewards: np.ndarray, info: dict[str, np.ndarray]
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """`(rewards by seat, result)` of the deal a step has just ended or cut."""
        self.fresh = True
        result = {k: v[0].tolist() for k, v in info.items()}
        return rewards[0].astype(np.float64), result

    def row(self) -> dict[str, np.ndarray]:
        """The seat to act's observation without the legal-action columns."""
        obs = self.obs
        return {k: obs[k][0, ...] for k in self._row_keys}

    def text(self) -> str:
        """The seat to act's view, for `render`."""
        o = self.vec.observation(0)
        return (
            f"{self.rules.preset}: seat {o['to_act']} to act ({o['phase']}), hand"
            f" {''.join(o['hand'])}, to beat {o['to_beat'] or '-'}, hands {o['hand_sizes']}"
        )
