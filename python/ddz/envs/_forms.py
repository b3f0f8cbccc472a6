"""The two action forms of the single-game adapters (docs/rl.md).

- `TableForm`: a fixed id per decision (`ActionTable`, `VecEnv`'s `legal_ids`) and
  a mask over all ids; the default of the one-deck presets, available for every one.
- `CandidateForm`: the action is a slot in this moment's candidate list, whose
  features (count rows, kind, rank, length) the observation carries; for every
  preset, the only form of the multi-deck ones.

Both encode a `VecEnv` observation into `(extra observation keys, mask, picks)`
and map an action back to a legal index with `picks`.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

import ddz
from ddz.envs._actions import PASS_KIND, action_table, enumerable
from ddz.envs._deal import LEGAL_KEYS, DealInPlay
from ddz.envs._spaces import bounds, row_space

DEFAULT_CANDIDATES = 2048


class TableForm:
    name = "table"

    def __init__(self, rules: ddz.Rules) -> None:
        self.table = action_table(rules)
        self.size = len(self.table)
        self.extra_space: dict[str, spaces.Space] = {}

    def encode(self, obs: dict[str, np.ndarray]):
        ids = obs["legal_ids"][: int(obs["legal_offsets"][1])]
        mask = np.zeros(self.size, np.int8)
        mask[ids] = 1
        return {}, mask, ids

    def blank(self) -> dict[str, np.ndarray]:
        """The extra keys of a seat with nothing to decide: none."""
        return {}

    def legal_index(self, action: int, picks: np.ndarray) -> int | None:
        # A list's `index` beats numpy's per-call cost on a handful of ids.
        ids = picks.tolist()
        return ids.index(action) if action in ids else None


class CandidateForm:
    name = "candidates"

    def __init__(self, rules: ddz.Rules, max_candidates: int) -> None:
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int):
            raise TypeError(f"max_candidates must be an int, not {max_candidates!r}")
        if max_candidates < 32:
            raise ValueError(f"max_candidates must be at least 32, not {max_candidates}")
        self.size = c = max_candidates
        dtypes = {"legal_cards": np.uint8, "legal_represents": np.uint8}
        shapes = {"legal_cards": (c, 16), "legal_represents": (c, 16)}
        self.extra_space = {}
        for key in LEGAL_KEYS:
            dtype = np.dtype(dtypes.get(key, np.int8))
            low, high = bounds(key, dtype, rules)
            if key == "legal_kind":
                low = -1  # padding
            self.extra_space[key] = spaces.Box(low, high, shapes.get(key, (c,)), dtype)

    def encode(self, obs: dict[str, np.ndarray]):
        m = int(obs["legal_offsets"][1])
        c = self.size
        if m <= c:
            picks = np.arange(m)
        else:
            # Too many: keep every word (pass, ...) and the first plays.
            words = np.flatnonzero(obs["legal_kind"][:m] >= PASS_KIND)
            plays = np.flatnonzero(obs["legal_kind"][:m] < PASS_KIND)[: c - len(words)]
            picks = np.concatenate([plays, words])
        k = len(picks)
        extra = {}
        for key in LEGAL_KEYS:
            col = obs[key]
            out = np.zeros((c, *col.shape[1:]), col.dtype)
            out[:k] = col[picks]
            extra[key] = out
        extra["legal_kind"][k:] = -1
        mask = np.zeros(c, np.int8)
        mask[:k] = 1
        return extra, mask, picks

    def blank(self) -> dict[str, np.ndarray]:
        """The extra keys of a seat with nothing to decide: every slot padding."""
        out = {k: np.zeros(space.shape, space.dtype) for k, space in self.extra_space.items()}
        out["legal_kind"][:] = -1
        return out

    def legal_index(self, action: int, picks: np.ndarray) -> int | None:
        return int(picks[action]) if 0 <= action < len(picks) else None


def make_form(rules: ddz.Rules, actions: str | None, max_candidates: int):
    """`actions`: "table", "candidates", or None (table where the plays can be numbered)."""
    if actions is None:
        actions = "table" if enumerable(rules) else "candidates"
    if actions == "table":
        return TableForm(rules)
    if actions == "candidates":
        return CandidateForm(rules, max_candidates)
    raise ValueError(f"actions must be 'table' or 'candidates', not {actions!r}")


def seat_space(deal: DealInPlay, form: TableForm | CandidateForm) -> spaces.Dict:
    """A seat's observation space in the single-game adapters:
    `{"observation": {row keys and the form's own}, "action_mask": int8[size]}`."""
    inner = row_space(deal.row(), deal.rules)
    return spaces.Dict(
        {
            "observation": spaces.Dict({**inner.spaces, **form.extra_space}),
            "action_mask": spaces.Box(0, 1, (form.size,), np.int8),
        }
    )
