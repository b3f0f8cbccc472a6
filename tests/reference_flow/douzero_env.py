"""The numpy encoder `ddz.envs.douzero.Env` had before its encoder moved to Rust
(`rust/ddz-core/src/encode/douzero.rs`): kept as the reference the Rust one must
equal, state by state (tests/test_douzero_encoder.py). Plays on `ddz.Table`. Its interface
is `ddz.envs.douzero.Env`'s (docs/rl.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ddz
from ddz.envs.douzero import (
    OBJECTIVES,
    POSITIONS,
    SLOT_OF_DZ,
    cards_of,
    check_deal,
    counts_of,
    encode,
    one_hot,
    random_deal,
    reward,
)

RULES = ddz.Rules("classic")


def _text(cards: list[int]) -> str:
    return "".join("3456789TJQKA2XD"[SLOT_OF_DZ[c]] for c in sorted(cards))


class Env:
    """The numpy `ddz.envs.douzero.Env`: the same arguments and interface."""

    def __init__(self, objective: str = "wp", seed: int | None = None) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
        self.objective = objective
        self._rng = np.random.default_rng(seed)
        self._names: dict[bytes, list[int]] = {}
        self.infoset: dict[str, str] | None = None
        self.rival_move: ddz.Move | None = None

    def reset(self, card_play_data: dict[str, list[int]] | None = None) -> dict[str, Any]:
        if card_play_data is None:
            card_play_data = random_deal(self._rng)
        hands = check_deal(card_play_data)
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
        return None, reward(self.objective, self._hands[0].sum() == 0, self._bombs), True, {}

    # ------------------------------------------------------------------ helpers

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
