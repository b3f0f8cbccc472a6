"""`ddz.simulate`: whole deals played in Rust, results as numpy arrays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union, cast

import numpy as np

from ddz._ddz import Rules
from ddz._ddz import simulate as _simulate
from ddz.types import SimulateResult

#: A policy for every seat (a name), or one per seat: a list by seat, or a
#: dict from seat to name covering every seat.
Policies = Union[str, Sequence[str], Mapping[int, str]]
#: How a deal opens: "auction" (every decision the policies'), or "seat0"
#: (DouZero's evaluation: seat 0 is the landlord, a script answers the
#: auction; one-landlord rule sets only).
OPENINGS = ("auction", "seat0")


def simulate(
    preset_or_rules: str | Rules,
    games: int,
    seed: int = 0,
    threads: int | None = None,
    policy: Policies = "random",
    record: int = 0,
    *,
    first: int = 0,
    opening: str = "auction",
) -> SimulateResult:
    """Play `games` deals with built-in policies (``"random"``, ``"greedy"``
    or ``"search"``, the search player at its default budget: docs/bots.md)
    on every core; the same seed gives the same results whatever `threads`
    (for ``"search"``: while no decision reaches its time limit).

    ``policy`` is one name for every seat, or one per seat: a list by seat
    or a dict ``{seat: name}`` naming every seat. With one name the seats'
    choices draw from one generator per deal (as they always have); with a
    list or dict every seat draws from its own, so what one seat's policy
    draws never changes another seat's choices (so ``["random"] * 3`` plays
    other, equally random, choices than ``"random"``; the deals are the
    same). ``opening="seat0"`` opens every deal as DouZero's evaluation does
    (seat 0 is the landlord and takes the kitty; a script answers the
    auction and declines every option); it needs a one-landlord rule set.

    Returns a dict of numpy arrays, one row per deal: ``landlord``,
    ``winner_side`` (0: the landlord's side won, 1: the farmers),
    ``turns`` (plays and passes), ``bombs``, ``multiplier`` and ``scores``
    (``int64[games, players]``). In ``five-player``, ``landlord`` is the open
    landlord, and two more arrays say ``hidden_landlord`` (-1 when the open
    landlord plays alone, 1 v 4) and whether the partnership was
    ``revealed`` by the end (a reveal, or the marked card's copy played).
    In ``five-player-3deck``, ``landlord`` is the main landlord, ``deputy``
    the called friend (-1 for a solo or an auto-win) and ``revealed`` whether
    the called card was shown in play.
    ``threads`` is 1 to 256; a run whose arrays would not fit in the memory
    available raises ``MemoryError`` before any deal is played, and Ctrl-C
    stops a run between blocks of deals (docs/limits.md).
    In ``six-player-2v4``, ``landlord`` is the big landlord and
    ``second_landlord`` the secret mark's holder; in ``six-player-teams``,
    ``landlord`` is the main landlord (``winner_side`` 0: the main side won)
    and ``counter_landlord`` the counter landlord (-1 for a solo deal).
    In ``six-player-3v3`` and ``six-player-3v3-kitty``, ``landlord`` is the
    marked card's receiver (``winner_side`` 0: the landlords won);
    ``open_landlords`` (``int64[games, 3]``) lists the open landlords in the
    order named, the receiver first, and ``hidden_landlords``
    (``int64[games, 2]``) the hidden ones, both padded with -1 (the
    source-000 auto-win names the receiver alone); ``revealed``
    (``bool[games, 2]``) says whether that hidden landlord played a copy of
    the marked card.
    The role columns follow the rule set's ``flow`` (and, for ``two_marks``,
    ``farmers_pick_sides``), never its preset name, so a custom rule set
    gets the columns of the flow it plays.
    Every preset's output holds every one of these keys: a role a preset
    does not have is -1 in every row (``hidden_landlord``, ``deputy``,
    ``second_landlord``, ``counter_landlord`` as ``int64[games]``,
    ``open_landlords`` ``int64[games, 3]``, ``hidden_landlords``
    ``int64[games, 2]``), and ``revealed`` is all False where nothing is
    hidden (``bool[games]``, ``bool[games, 2]`` in the 3 v 3 presets).
    With ``record=k`` it also holds
    ``records``: the first k deals as `Game` records, which
    ``ddz.Game.from_json`` replays. ``first`` starts the series at that deal,
    so a long run can be played in parts with the same results.
    """
    rules = preset_or_rules if isinstance(preset_or_rules, Rules) else Rules(preset_or_rules)
    if not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a non-negative int, not {games!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in 0..2**64, not {seed!r}")
    if opening not in OPENINGS:
        raise ValueError(f"opening must be one of {OPENINGS}, not {opening!r}")
    raw = _simulate(
        rules, games, seed, threads, seat_policies(policy, rules.players), record, first, opening
    )
    records = raw.pop("records")  # each deal's record text, written by the engine
    out = {
        "landlord": raw.pop("landlord"),
        # 1 where the farmers won, with no temporary wider than a byte.
        "winner_side": np.logical_not(raw.pop("landlord_won")).view(np.uint8),
    }
    # The rest as the engine lays them out: the same keys for every rule
    # set, each family's report columns, -1 (or False) where it has none.
    out.update(raw)
    if record:
        out["records"] = records
    return cast(SimulateResult, out)


def seat_policies(policy: Policies, players: int) -> str | list[str]:
    """A name as it is; a list or a dict as the list of one name per seat."""
    if isinstance(policy, str):
        return policy
    if isinstance(policy, Mapping):
        seats = set(policy)
        if seats != set(range(players)):
            named = sorted(seats, key=str)
            raise ValueError(f"a policy dict names every seat 0..{players - 1} once, not {named}")
        policy = [policy[s] for s in range(players)]
    if not isinstance(policy, Sequence) or not all(isinstance(p, str) for p in policy):
        raise ValueError(f"policy must be a name, a list or a dict of names, not {policy!r}")
    if len(policy) != players:
        raise ValueError(
            f"policy lists one policy per seat: this rule set has {players} seats, "
            f"the list names {len(policy)}"
        )
    return list(policy)
