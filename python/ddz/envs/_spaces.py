"""Gymnasium spaces of a `VecEnv` observation row (docs/rl.md): one bound per key."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

import ddz

CARD_ROWS = {
    "hand",
    "played",
    "seen_hands",
    "kitty",
    "to_beat",
    "trick",
    "recent",
    "legal_cards",
    "legal_represents",
}
KIND_KEYS = {"to_beat_kind", "recent_kind", "legal_kind"}


def bounds(key: str, dtype: np.dtype, rules: ddz.Rules) -> tuple[Any, Any]:
    players = rules.players
    if key == "roles":
        # One column per declared role, bounded by its type (docs/roles.md).
        low, high = zip(*(r["column_bounds"] for r in rules.roles())) if rules.roles() else ((), ())
        return np.array(low, dtype), np.array(high, dtype)
    if dtype == np.bool_:
        return 0, 1
    if key in CARD_ROWS:
        return 0, 4 * rules.decks + rules.laizi  # a laizi bomb stands for up to 4 + laizi
    if key == "seat":
        return 0, players - 1
    if key in ("to_beat_seat", "recent_seat"):
        return -1, players - 1
    if key == "phase":
        return 0, len(ddz.VecEnv.phase_names) - 1
    if key in KIND_KEYS:
        return -1, len(ddz.VecEnv.kind_names) - 1
    if key in ("trick_state", "side"):
        return -1, 1
    if key == "cards_left":
        return 0, 54 * rules.decks + rules.laizi
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def box(key: str, sample: np.ndarray, rules: ddz.Rules, shape: tuple[int, ...] | None = None):
    low, high = bounds(key, sample.dtype, rules)
    return spaces.Box(low, high, sample.shape if shape is None else shape, sample.dtype)


def row_space(row: dict[str, np.ndarray], rules: ddz.Rules) -> spaces.Dict:
    """The space of `DealInPlay.row()`'s dict (shapes fixed by the rule set and `history`)."""
    return spaces.Dict({k: box(k, v, rules) for k, v in row.items()})
