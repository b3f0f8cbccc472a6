"""The fixed action table of the one-deck presets: every decision an id.

Ids 0-20 are the words (pass, the three bids, then the other decisions in
`VecEnv.kind_names` order); every distinct play a seat could ever hold
follows, one id per reading. A reading is keyed by its kind, rank, length,
cards and represents, the same five columns `VecEnv` lists legal actions
in, so one `searchsorted` maps a moment's legal actions to their ids.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import ddz

PASS_KIND = 14
BID_KIND = 15
#: `(kind id, rank)` of the word actions, in id order.
WORDS: tuple[tuple[int, int], ...] = (
    (PASS_KIND, 0),
    (BID_KIND, 1),
    (BID_KIND, 2),
    (BID_KIND, 3),
    *((k, 0) for k in range(BID_KIND + 1, len(ddz.VecEnv.kind_names))),
)
KEY_BYTES = 36
SLOTS = "3456789TJQKA2XDL"  # a play's rank slot -> `Move.rank`


def keys(
    kind: np.ndarray,
    rank: np.ndarray,
    length: np.ndarray,
    cards: np.ndarray,
    represents: np.ndarray,
) -> np.ndarray:
    """One fixed-width byte string per action; a trailing 0xFF keeps numpy's
    `S` dtype from trimming meaningful zero bytes."""
    buf = np.empty((len(kind), KEY_BYTES), np.uint8)
    buf[:, 0] = kind.view(np.uint8)
    buf[:, 1] = rank.view(np.uint8)
    buf[:, 2] = length.view(np.uint8)
    buf[:, 3:19] = cards
    buf[:, 19:35] = represents
    buf[:, 35] = 0xFF
    return buf.view(f"S{KEY_BYTES}").ravel()


def legal_keys(obs: dict[str, np.ndarray], lo: int, hi: int) -> np.ndarray:
    """The keys of legal rows `lo..hi` of a `VecEnv` observation."""
    return keys(
        obs["legal_kind"][lo:hi],
        obs["legal_rank"][lo:hi],
        obs["legal_length"][lo:hi],
        obs["legal_cards"][lo:hi],
        obs["legal_represents"][lo:hi],
    )


def enumerable(rules: ddz.Rules) -> bool:
    """Can every play get its own id? One deck: classic, two-player, laizi."""
    return rules.decks == 1


class ActionTable:
    """Every decision of a one-deck rule set, numbered (docs/rl.md)."""

    def __init__(self, rules: ddz.Rules) -> None:
        if not enumerable(rules):
            raise ValueError(
                f"{rules.preset!r} has {rules.decks} decks: its plays are too many to number;"
                " use the candidate-list form (actions='candidates')"
            )
        self.rules = rules
        deck = np.array([4] * 13 + [1, 1, rules.laizi], np.uint8)
        plays = rules.moves(deck).arrays()
        # A play larger than the most cards a seat can hold never happens.
        hold = rules.hand_size + rules.kitty
        keep = plays["cards"].sum(axis=1) <= hold
        w = len(WORDS)
        word_kind = np.array([k for k, _ in WORDS], np.int8)
        word_rank = np.array([r for _, r in WORDS], np.int8)
        zeros = np.zeros((w, 16), np.uint8)
        all_keys = np.concatenate(
            [
                keys(word_kind, word_rank, np.zeros(w, np.int8), zeros, zeros),
                keys(*(plays[c][keep] for c in ("kind", "rank", "length", "cards", "represents"))),
            ]
        )
        self._ids = np.argsort(all_keys, kind="stable")
        self._sorted = all_keys[self._ids]
        if (self._sorted[1:] == self._sorted[:-1]).any():
            raise AssertionError("two actions share a key")
        self._pos = np.empty_like(self._ids)
        self._pos[self._ids] = np.arange(len(self._ids))

    def __len__(self) -> int:
        return len(self._ids)

    def key_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Every action's key bytes (uint8[n, 36]) and its id (int64[n])."""
        return self._sorted.view(np.uint8).reshape(-1, KEY_BYTES), self._ids

    def ids(self, action_keys: np.ndarray) -> np.ndarray:
        """The ids of actions given by their `keys`."""
        at = np.searchsorted(self._sorted, action_keys)
        at[at == len(self._sorted)] = 0
        if not (self._sorted[at] == action_keys).all():
            raise AssertionError("a legal action is missing from the action table")
        return self._ids[at]

    def columns(self, ids: np.ndarray) -> dict[str, np.ndarray]:
        """`kind`, `rank`, `length`, `cards`, `represents` of some ids."""
        raw = self._sorted[self._pos[np.asarray(ids, np.int64)]].view(np.uint8)
        raw = raw.reshape(-1, KEY_BYTES)
        return {
            "kind": raw[:, 0].view(np.int8),
            "rank": raw[:, 1].view(np.int8),
            "length": raw[:, 2].view(np.int8),
            "cards": raw[:, 3:19],
            "represents": raw[:, 19:35],
        }

    def action(self, action_id: int) -> Any:
        """The id's decision as `Game` takes it: a `Move`, or its word."""
        if not 0 <= action_id < len(self):
            raise ValueError(f"no action id {action_id}: ids are 0..{len(self) - 1}")
        c = self.columns(np.array([action_id]))
        kind = int(c["kind"][0])
        if kind == BID_KIND:
            return f"bid:{int(c['rank'][0])}"
        if kind >= PASS_KIND:
            return ddz.VecEnv.kind_names[kind]
        rank, length = int(c["rank"][0]), int(c["length"][0])
        want = (ddz.VecEnv.kind_names[kind], SLOTS[rank], length, c["represents"][0].tobytes())
        for m in self.rules.classify(c["cards"][0]):
            if (m.kind, m.rank, m.length, m.represents.counts.tobytes()) == want:
                return m
        raise AssertionError(f"action id {action_id} has no reading")


@functools.lru_cache(maxsize=8)
def _table_for(rules_json: str) -> ActionTable:
    return ActionTable(ddz.Rules.from_json(rules_json))


def action_table(rules: ddz.Rules) -> ActionTable:
    """The rule set's table, built once per process (laizi's takes seconds)."""
    return _table_for(rules.to_json())
