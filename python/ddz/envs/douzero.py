"""DouZero's classic environment on ddz's table, its encoder in Rust (docs/rl.md).

`Env(objective)` has the interface of `douzero.env.Env`: `reset()` deals (the
landlord, `landlord`, holds 20 cards and leads; `landlord_down` acts next, then
`landlord_up`), `step(action)` takes one of `obs["legal_actions"]` (DouZero's
card lists: 3..14 for 3..A, 17 for 2, 20 and 30 for the jokers, `[]` to pass)
and returns `(obs, reward, done, {})`, `obs` None once done. The observation
dicts hold `position`, `x_batch`, `z_batch`, `legal_actions`, `x_no_action` and
`z` in DouZero 1.1.0's layout, shapes and dtypes (319 features for the
landlord, 430 for a farmer; `z` is the last 15 plays as 5 x 162). The game and
the features are `rust/ddz-core/src/encode/douzero.rs`; this module only checks
arguments and names things.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ddz
from ddz._ddz import DouZeroCore

POSITIONS = ("landlord", "landlord_down", "landlord_up")  # by seat: the order of play
OBJECTIVES = ("wp", "adp", "logadp")
DZ_OF_SLOT = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
SLOT_OF_DZ = {v: i for i, v in enumerate(DZ_OF_SLOT)}
DECK = [v for v in DZ_OF_SLOT[:13] for _ in range(4)] + [20, 30]
SEED_LIMIT = 2**63
THERMO = np.array([[0] * 4, [1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1] * 4], np.int8)


def encode(counts: np.ndarray) -> np.ndarray:
    """Count rows `[..., 16]` -> DouZero's 54 card features: 4 thermometer bits per
    rank 3..2 (rank-major, as its `_cards2array`), then the two jokers (what the
    Rust encoder computes for every row of `x_batch`; for users' own buffers)."""
    counts = np.asarray(counts)
    out = np.empty((*counts.shape[:-1], 54), np.int8)
    out[..., :52] = THERMO[counts[..., :13]].reshape(*counts.shape[:-1], 52)
    out[..., 52:] = counts[..., 13:15]
    return out


def one_hot(n: int, size: int) -> np.ndarray:
    out = np.zeros(size, np.int8)
    out[n - 1] = 1  # as DouZero: 0 cards would set the last bit
    return out


def counts_of(cards: list[int]) -> np.ndarray:
    out = np.zeros(16, np.uint8)
    for c in cards:
        if c not in SLOT_OF_DZ:
            raise ValueError(f"{c!r} is no DouZero card (3..14, 17, 20, 30)")
        out[SLOT_OF_DZ[c]] += 1
    return out


def cards_of(counts: np.ndarray) -> list[int]:
    return [DZ_OF_SLOT[s] for s in range(15) for _ in range(int(counts[s]))]


def check_deal(data: dict[str, list[int]]) -> np.ndarray:
    """A deal in DouZero's format, checked: the hands as count rows, by seat."""
    want = {"landlord": 20, "landlord_up": 17, "landlord_down": 17, "three_landlord_cards": 3}
    if not isinstance(data, dict) or set(data) != set(want):
        raise ValueError(f"card_play_data needs exactly the keys {sorted(want)}")
    for k, n in want.items():
        if len(data[k]) != n:
            raise ValueError(f"card_play_data[{k!r}] has {len(data[k])} cards, not {n}")
    hands = np.stack([counts_of(list(data[p])) for p in POSITIONS])
    full = counts_of(DECK)
    if not (hands.sum(axis=0) == full).all():
        raise ValueError("card_play_data is not one whole 54-card deck")
    if not (counts_of(list(data["three_landlord_cards"])) <= hands[0]).all():
        raise ValueError("three_landlord_cards must be among the landlord's cards")
    return hands


def reward(objective: str, landlord_won: bool, bombs: int) -> float:
    """The landlord's reward under `objective` (DouZero's `_get_reward`)."""
    sign = 1.0 if landlord_won else -1.0
    if objective == "adp":
        return sign * 2.0**bombs
    if objective == "logadp":
        return sign * (bombs + 1.0)
    return sign


def random_deal(rng) -> dict[str, list[int]]:
    """A shuffled deal in DouZero's format from `rng` (a `random.Random`), laid
    out as DouZero's own reset deals it."""
    deck = list(DECK)
    rng.shuffle(deck)
    return {
        "landlord": deck[:20],
        "landlord_up": deck[20:37],
        "landlord_down": deck[37:54],
        "three_landlord_cards": deck[17:20],
    }


class Env:
    """DouZero's `Env(objective)` on ddz: `objective` is "wp" (win +1 / -1), "adp"
    (+-2**bombs) or "logadp" (+-(bombs + 1)), from the landlord's side.
    `seed` seeds the deals `reset()` draws (DouZero draws from numpy's global one)."""

    def __init__(self, objective: str = "wp", seed: int | None = None) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
        self.objective = objective
        self._core = DouZeroCore(int(np.random.default_rng(seed).integers(SEED_LIMIT)))
        self._done = True
        self.infoset: dict[str, str] | None = None  # DouZero's attribute; the position only

    # ------------------------------------------------------------------ DouZero's interface

    def reset(self, card_play_data: dict[str, list[int]] | None = None) -> dict[str, Any]:
        """A new deal: `card_play_data` in DouZero's format (`landlord` 20 cards,
        `landlord_up` and `landlord_down` 17, `three_landlord_cards` 3 of the
        landlord's), else drawn at random."""
        if card_play_data is None:
            self._core.deal()
        else:
            hands = check_deal(card_play_data)
            kitty = counts_of(list(card_play_data["three_landlord_cards"]))
            self._core.reset(hands.tolist(), kitty.tolist())
        self._done = False
        return self._observe()

    def step(self, action: list[int]):
        if self._done:
            raise RuntimeError("the deal is over: call reset()")
        landlord_won = self._core.step(action)
        if landlord_won is None:
            return self._observe(), 0.0, False, {}
        self._done = True
        self.infoset = None
        return None, reward(self.objective, landlord_won, self._core.bombs), True, {}

    @property
    def rival_move(self) -> ddz.Move | None:
        """ddz's reading of the play to beat (None when leading)."""
        return self._core.rival_move()

    @property
    def _hands(self) -> np.ndarray:
        """Each seat's hand as count rows (int16[3, 16]), by seat."""
        return self._core.hands()

    # ------------------------------------------------------------------ helpers

    def _observe(self) -> dict[str, Any]:
        seat, x_batch, z_batch, x_no_action, z, legal = self._core.observe()
        position = POSITIONS[seat]
        self.infoset = {"position": position}
        return {
            "position": position,
            "x_batch": x_batch,
            "z_batch": z_batch,
            "legal_actions": legal,
            "x_no_action": x_no_action,
            "z": z,
        }
