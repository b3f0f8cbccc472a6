"""The search's view of a deal for people: ranked hints (`hint`) and a
post-game analysis (`analyse`) with win rates, mistakes and accuracy, after
lichess's analysis of a chess game (docs/bots.md#analysis).

A candidate's ``wp`` is the search's estimate of the share of deals its
seat's side wins after it, from what that seat could see (the hidden cards
dealt again at random, consistently with the play so far); ``low`` and
``high`` bound it at 95%. A decision's ``loss`` is the best candidate's wp
minus the played action's, and its judgement comes from that loss, in win
rate, at thresholds settable through ``thresholds`` (lichess's: 0.05
inaccuracy, 0.10 mistake, 0.15 blunder). A seat's accuracy is lichess's
game accuracy over its decisions: each decision scores
``103.1668 * exp(-0.04354 * loss_in_percent) - 3.1669 + 1`` clamped to 0..100
(100 for no loss), and the seat's figure is the mean of those scores
weighted by the volatility of its win rates and their harmonic mean.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ddz._ddz import Table, analyse_record, default_threads

#: Win-rate losses (0..1) from which a decision is an inaccuracy, a mistake,
#: a blunder (lichess's 5, 10 and 15 Win% points).
THRESHOLDS = (0.05, 0.10, 0.15)
JUDGEMENTS = ("inaccuracy", "mistake", "blunder")
#: The hint's default work: playouts and a time limit (ms).
HINT_PLAYOUTS = 2000
HINT_BUDGET_MS = 250
#: The analysis's default work per decision.
ANALYSIS_PLAYOUTS = 800
#: The solver's bound per position when asking for a forced win.
SOLVE_NODES = 200_000


def _seed(seed: int | None) -> int:
    if seed is None:
        return random.SystemRandom().getrandbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int or None, not {seed!r}")
    return seed % 2**64


def _budget(
    budget_ms: float | None,
    playouts: int | None,
    default_ms: float | None,
    default_playouts: int,
) -> tuple[int, int | None]:
    """Playouts and the time limit in µs, checked, each the default where not
    given (the default time only when neither is given)."""
    if playouts is not None and (
        isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1
    ):
        raise ValueError(f"playouts must be a positive int, not {playouts!r}")
    if budget_ms is not None and (
        isinstance(budget_ms, bool) or not isinstance(budget_ms, (int, float)) or budget_ms < 0
    ):
        raise ValueError(f"budget_ms must be a number at least 0, not {budget_ms!r}")
    ms = default_ms if budget_ms is None and playouts is None else budget_ms
    budget_us = None if ms is None else min(int(ms * 1000), 2**32 - 1)
    return (default_playouts if playouts is None else playouts), budget_us


def _check_k(k: object) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive int, not {k!r}")


def hint(
    game: Table,
    seat: int,
    k: int = 3,
    budget_ms: float | None = None,
    playouts: int | None = None,
    seed: int | None = None,
) -> list[dict[str, Any]]:
    """The search's `k` best actions for `seat`, which must be the seat to
    act on `game` (a `ddz.Game`), best first: ``{"action", "wp", "low",
    "high"}``, the action as `game.legal_actions()` gives it. It reads only
    what `seat` may see. The default work is `HINT_PLAYOUTS` playouts within
    `HINT_BUDGET_MS` ms; ``playouts`` alone lifts the time limit (then a
    seed gives the same answer on any machine)."""
    if not isinstance(game, Table):
        raise TypeError(f"game must be a ddz.Game, not {type(game).__name__}")
    if game.phase == "over":
        raise ValueError("the deal is over: there is nothing to hint")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ValueError(f"seat must be an int, not {seat!r}")
    if seat != game.to_act:
        raise ValueError(f"seat {seat} is not to act (seat {game.to_act} is)")
    _check_k(k)
    playouts, budget_us = _budget(budget_ms, playouts, HINT_BUDGET_MS, HINT_PLAYOUTS)
    ranked = game._rank(
        k=k,
        seed=_seed(seed),
        playouts=playouts,
        budget_us=0 if budget_us is None else budget_us,
        threads=min(default_threads(), 255),
    )
    legal = game.legal_actions()
    return [
        {"action": legal[i], "wp": wp, "low": low, "high": high} for i, wp, low, high in ranked[:k]
    ]


def judgement(loss: float, thresholds: Sequence[float] = THRESHOLDS) -> str | None:
    """None, "inaccuracy", "mistake" or "blunder" for a loss of win rate."""
    verdict = None
    for name, at in zip(JUDGEMENTS, thresholds):
        if loss >= at - 1e-12:
            verdict = name
    return verdict


def move_accuracy(before: float, after: float) -> float:
    """lichess's accuracy of one move from the mover's win% before and after
    it (0..100 each): 100 when it did not drop."""
    if after >= before:
        return 100.0
    drop = before - after
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1))


def seat_accuracy(pairs: Sequence[tuple[float, float]]) -> float | None:
    """lichess's game accuracy of one player from its moves' (before, after)
    win% pairs: the mean of the volatility-weighted mean and the harmonic
    mean of the move accuracies. Each move's weight is the standard
    deviation (clamped to 0.5..12) of the player's win% in a window around
    it; the window is a tenth of the moves, 2 to 8 of them."""
    if not pairs:
        return None
    accuracies = [move_accuracy(b, a) for b, a in pairs]
    series = [pairs[0][0]] + [a for _, a in pairs]
    size = min(8, max(2, len(pairs) // 10))
    windows = [series[:size]] * max(0, min(size, len(series)) - 2)
    windows += [series[i : i + size] for i in range(max(1, len(series) - size + 1))]
    weights = [min(12.0, max(0.5, statistics.pstdev(w) if len(w) > 1 else 0.0)) for w in windows][
        : len(accuracies)
    ]
    weights += [weights[-1]] * (len(accuracies) - len(weights))
    weighted = sum(x * w for x, w in zip(accuracies, weights)) / sum(weights)
    harmonic = len(accuracies) / sum(1 / max(x, 1e-9) for x in accuracies)
    return (weighted + harmonic) / 2


@dataclass
class Analysis:
    """What `analyse` found: ``decisions`` in the order played (dicts of
    ``number``, ``seat``, ``played``, ``candidates``, ``wp``, ``loss``,
    ``judgement`` and ``threw_forced_win``), each seat's ``accuracy``
    (0..100), and the settings it ran with."""

    decisions: list[dict[str, Any]]
    accuracy: dict[int, float]
    thresholds: tuple[float, float, float]
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The analysis as JSON text (seats as strings in ``accuracy``)."""
        return json.dumps(
            {
                "decisions": self.decisions,
                "accuracy": {str(s): a for s, a in self.accuracy.items()},
                "thresholds": list(self.thresholds),
                "settings": self.settings,
            }
        )


def analyse(
    game_or_record: Any,
    seats: int | Sequence[int] | None = None,
    budget_ms: float | None = None,
    playouts: int | None = None,
    seed: int | None = None,
    *,
    k: int = 3,
    thresholds: Sequence[float] = THRESHOLDS,
    threads: int | None = None,
    solve_nodes: int = SOLVE_NODES,
) -> Analysis:
    """Analyse every decision with a choice of `seats` (None: every seat),
    auction included, in a finished or unfinished deal: a `ddz.Game`, or a
    record (its JSON text, or the dict it parses to). Each decision is
    searched from its seat's information: its `k` best candidates and the
    played action, each ``{"action", "wp", "low", "high"}`` (the action's
    text), on the same fresh samples; ``loss``, the best candidate's wp
    minus the played action's (0 at least); the judgement at `thresholds`
    (inaccuracy, mistake, blunder); ``threw_forced_win``, where the exact
    solver, given every hand, answers within `solve_nodes` positions both
    before and after the action (else None): whether the seat's side held
    a forced win before the action and not after.

    The work per decision is ``playouts`` (default `ANALYSIS_PLAYOUTS`) and,
    if given, ``budget_ms``; the decisions share `threads` (None: every
    core). Without a time limit the result is the same for a `seed` on any
    machine and any number of threads."""
    record = _record_text(game_or_record)
    chosen = _seats(seats)
    _check_k(k)
    limits = tuple(float(t) for t in thresholds)
    if len(limits) != 3 or not 0 < limits[0] <= limits[1] <= limits[2] <= 1:
        raise ValueError(
            f"thresholds must be three increasing win-rate losses in (0, 1], not {thresholds!r}"
        )
    if threads is not None and (isinstance(threads, bool) or not 1 <= threads <= 1024):
        raise ValueError(f"threads must be 1 to 1024, not {threads!r}")
    if isinstance(solve_nodes, bool) or not isinstance(solve_nodes, int) or solve_nodes < 0:
        raise ValueError(f"solve_nodes must be an int at least 0, not {solve_nodes!r}")
    playouts, budget_us = _budget(budget_ms, playouts, None, ANALYSIS_PLAYOUTS)
    used_seed = _seed(seed)
    raw = analyse_record(
        record,
        chosen,
        k=k,
        seed=used_seed,
        playouts=playouts,
        budget_us=0 if budget_us is None else budget_us,
        threads=threads,
        solve_nodes=solve_nodes,
    )
    decisions = [_decision(d, limits) for d in raw]
    pairs: dict[int, list[tuple[float, float]]] = {}
    for d in decisions:
        pairs.setdefault(d["seat"], []).append((100 * d["best_wp"], 100 * d["wp"]))
    accuracy = {s: a for s, p in sorted(pairs.items()) if (a := seat_accuracy(p)) is not None}
    settings = {
        "seats": chosen,
        "k": k,
        "playouts": playouts,
        "budget_ms": None if budget_us is None else budget_us / 1000,
        "seed": used_seed,
        "solve_nodes": solve_nodes,
    }
    return Analysis(decisions, accuracy, limits, settings)  # type: ignore[arg-type]


def _record_text(game_or_record: Any) -> str:
    if isinstance(game_or_record, Table):
        to_json = getattr(game_or_record, "to_json", None)
        if to_json is None:
            raise TypeError("analyse takes a ddz.Game (a bare Table keeps no seed)")
        return str(to_json())
    if isinstance(game_or_record, dict):
        return json.dumps(game_or_record)
    if isinstance(game_or_record, (str, bytes, bytearray)):
        return (
            game_or_record
            if isinstance(game_or_record, str)
            else bytes(game_or_record).decode("utf-8", "replace")
        )
    raise TypeError(
        f"analyse takes a ddz.Game or a game record (JSON text or dict), "
        f"not {type(game_or_record).__name__}"
    )


def _seats(seats: int | Sequence[int] | None) -> list[int]:
    if seats is None:
        return []
    listed = [seats] if isinstance(seats, int) else list(seats)
    for s in listed:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 16:
            raise ValueError(f"seats must be seat numbers, not {seats!r}")
    if not listed:
        raise ValueError("seats must name at least one seat (None: every seat)")
    return sorted(set(listed))


def _decision(raw: dict[str, Any], thresholds: tuple[float, ...]) -> dict[str, Any]:
    candidates = [
        {"action": a, "wp": wp, "low": low, "high": high}
        for a, wp, low, high, _ in raw["candidates"]
    ]
    played = next((c for c in candidates if c["action"] == raw["played"]), None)
    # The first candidate is the search's choice (ordered on other samples
    # than its win rate's: see rank.rs).
    best = candidates[0]["wp"] if candidates else 0.5
    wp = played["wp"] if played is not None else best
    loss = max(0.0, best - wp)
    before, after = raw["win_before"], raw["win_after"]
    if before is False:
        threw: bool | None = False
    elif before is True and after is not None:
        threw = not after
    else:
        threw = None
    return {
        "number": raw["number"],
        "seat": raw["seat"],
        "played": raw["played"],
        "candidates": candidates,
        "wp": wp,
        "best_wp": best,
        "loss": loss,
        "judgement": judgement(loss, thresholds),
        "threw_forced_win": threw,
    }
