"""The numpy encoder `ddz.envs.douzero.Env` had before its encoder moved to Rust
(`rust/ddz-core/src/encode/douzero.rs`): kept as the reference the Rust one must
equal, state by state (tests/test_envs_douzero.py). Plays on `ddz.Table`.

`Env(objective)` has the interface of `douzero.env.Env`: `reset()` deals (the
landlord, `landlord`, holds 20 cards and leads; `landlord_down` acts next, then
`landlord_up`), `step(action)` takes one of `obs["legal_actions"]` (DouZero's
card lists: 3..14 for 3..A, 17 for 2, 20 and 30 for the jokers, `[]` to pass)
and returns `(obs, reward, done, {})`, `obs` None once done. The observation
dicts hold `position`, `x_batch`, `z_batch`, `legal_actions`, `x_no_action` and
`z` in DouZero 1.1.0's layout, shapes and dtypes (319 features for the
landlord, 430 for a farmer; `z` is the last 15 plays as 5 x 162).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ddz
from ddz.envs.douzero import (
    DECK,
    OBJECTIVES,
    POSITIONS,
    SLOT_OF_DZ,
    cards_of,
    counts_of,
    encode,
    one_hot,
)

BOMB_KINDS = (12, 13)  # VecEnv kind ids of bomb, king_bomb
RULES = ddz.Rules("classic")


def _text(cards: list[int]) -> str:
    return "".join("3456789TJQKA2XD"[SLOT_OF_DZ[c]] for c in sorted(cards))


class Env:
    """DouZero's `Env(objective)` on ddz: `objective` is "wp" (win +1 / -1), "adp"
    (+-2**bombs) or "logadp" (+-(bombs + 1)), from the landlord's side.
    `seed` seeds the deals `reset()` draws (DouZero draws from numpy's global one)."""

    def __init__(self, objective: str = "wp", seed: int | None = None) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
        self.objective = objective
        self._rng = np.random.default_rng(seed)
        self._names: dict[bytes, list[int]] = {}
        self.infoset: dict[str, str] | None = None  # DouZero's attribute; the position only
        self.rival_move: ddz.Move | None = None  # ddz's reading of the play to beat

    # ------------------------------------------------------------------ DouZero's interface

    def reset(self, card_play_data: dict[str, list[int]] | None = None) -> dict[str, Any]:
        """A new deal: `card_play_data` in DouZero's format (`landlord` 20 cards,
        `landlord_up` and `landlord_down` 17, `three_landlord_cards` 3 of the
        landlord's), else drawn at random."""
        if card_play_data is None:
            deck = list(DECK)
            self._rng.shuffle(deck)
            card_play_data = {
                "landlord": deck[:20],
                "landlord_up": deck[20:37],
                "landlord_down": deck[37:54],
                "three_landlord_cards": deck[17:20],
            }
        hands = self._check(card_play_data)
        kitty = counts_of(list(card_play_data["three_landlord_cards"]))
        rest = hands[0] - kitty
        deal = {
            "first": 0,
            "hands": [_text(cards_of(h)) for h in (rest, hands[1], hands[2])],
            "kitty": _text(cards_of(kitty)),
        }
        self._table = ddz.Table(RULES, deals=[deal])
        self._table.step("bid:3")  # seat 0 takes the kitty and leads
        self._hands = hands.astype(np.int16)
        self._played = np.zeros((3, 16), np.int16)
        self._last = np.zeros((3, 16), np.int16)  # each seat's latest action (pass: zeros)
        self._seq: list[np.ndarray] = []
        self._bombs = 0
        self.rival_move = None
        self._passes = 0
        self._done = False
        return self._observe()

    def step(self, action: list[int]):
        if self._done:
            raise RuntimeError("the deal is over: call reset()")
        key = counts_of(list(action)).tobytes()
        if key not in self._choice:
            raise ValueError(f"{action!r} is not among obs['legal_actions']")
        seat = self._table.to_act
        move = self._legal[self._choice[key]]
        self._table.step(move)
        row = np.frombuffer(key, np.uint8).astype(np.int16)
        self._seq.append(row)
        self._last[seat] = row
        if isinstance(move, str):  # pass
            self._passes += 1
            if self._passes == 2:
                self.rival_move = None
        else:
            self._passes = 0
            self.rival_move = move
            self._hands[seat] -= row
            self._played[seat] += row
            self._bombs += move.is_bomb
        if not self._table.is_over:
            return self._observe(), 0.0, False, {}
        self._done = True
        self.infoset = None
        return None, self._reward(self._hands[0].sum() == 0), True, {}

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _check(data: dict[str, list[int]]) -> np.ndarray:
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

    def _reward(self, landlord_won: bool) -> float:
        sign = 1.0 if landlord_won else -1.0
        if self.objective == "adp":
            return sign * 2.0**self._bombs
        if self.objective == "logadp":
            return sign * (self._bombs + 1.0)
        return sign

    def _legal_rows(self) -> np.ndarray:
        """This moment's distinct card sets (count rows), in ddz's order; `_choice`
        maps each to the legal index it plays."""
        self._legal = legal = self._table.legal_actions()
        cols = legal.arrays()
        kind = cols["kind"]
        # DouZero lists card sets; a set with several readings plays the one with
        # the lowest kind id (333444555666: the trio straight, as DouZero reads it).
        order = np.lexsort((kind,))
        choice: dict[bytes, int] = {}
        for i in order:
            choice.setdefault(cols["cards"][i].tobytes(), int(i))
        self._choice = choice
        return np.frombuffer(b"".join(choice), np.uint8).reshape(-1, 16)

    def _names_of(self, rows: np.ndarray) -> list[list[int]]:
        out = []
        for row in rows:
            key = row.tobytes()
            name = self._names.get(key)
            if name is None:
                name = self._names[key] = cards_of(row)
            out.append(list(name))
        return out

    def _observe(self) -> dict[str, Any]:
        seat = self._table.to_act
        rows = self._legal_rows()
        hands, played, last = self._hands, self._played, self._last
        left = hands.sum(axis=1)
        seq = self._seq
        rival = seq[-1] if seq and seq[-1].any() else (seq[-2] if len(seq) >= 2 else None)
        zero = np.zeros(16, np.int16)
        last_move = zero if rival is None else rival
        others = hands.sum(axis=0) - hands[seat]
        state: tuple[np.ndarray, ...]
        if seat == 0:
            state = (hands[0], others, last_move, played[2], played[1])
            counts = ((int(left[2]), 17), (int(left[1]), 17))
        else:
            mate = 3 - seat  # down (1) and up (2) are partners
            state = (hands[seat], others, played[0], played[mate], last_move, last[0], last[mate])
            counts = ((int(left[0]), 20), (int(left[mate]), 17))
        history = np.zeros((15, 16), np.int16)
        recent = seq[-15:]
        if recent:
            history[15 - len(recent) :] = recent
        # One encoding pass over every count row of the moment.
        k = len(state)
        enc = encode(np.concatenate([np.stack(state), history, rows]))
        tail = [one_hot(n, size) for n, size in counts]
        bombs = np.zeros(15, np.int8)
        bombs[self._bombs] = 1
        x_no_action = np.concatenate([enc[:k].ravel(), *tail, bombs])
        z = enc[k : k + 15].reshape(5, 162)
        m, width = len(rows), len(x_no_action)
        x_batch = np.empty((m, width + 54), np.float32)
        x_batch[:, :width] = x_no_action
        x_batch[:, width:] = enc[k + 15 :]
        self.infoset = {"position": POSITIONS[seat]}
        return {
            "position": POSITIONS[seat],
            "x_batch": x_batch,
            "z_batch": np.repeat(z[np.newaxis].astype(np.float32), m, axis=0),
            "legal_actions": self._names_of(rows),
            "x_no_action": x_no_action,
            "z": z,
        }
