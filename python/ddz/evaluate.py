"""`ddz.evaluate`: player A against player B, every deal played twice with
the seats swapped, with 95% intervals (docs/evaluate.md).

Game 1 of deal i seats A at seat 0 and B at every other seat; game 2 deals
the same cards and seats B at seat 0 and A at every other seat. Built-in
policy names on both sides play in Rust on every core (`ddz.simulate` with
one policy per seat); a batch policy (a callable on `VecEnv`'s observation
arrays, as `VecEnv`'s opponents are) plays every deal at once beside them
(`ddz._ddz.play_seated`, the same per-seat policies); as soon as one side is
a Python agent, every seat is played through `ddz.Game`, the names by their
Python twins.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union, cast

import numpy as np

import ddz
from ddz._ddz import Rules, play_seated
from ddz.agents import decide
from ddz.simulate import simulate
from ddz.types import Evaluation

#: How a deal opens: DouZero's (seat 0 is the landlord, no auction), or the
#: real auction and every decision.
PROTOCOLS = ("douzero", "full")
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: A player: a built-in policy name, an object with `act(observation, legal)`, or a
#: batch policy: a callable given `VecEnv`'s observation arrays of many envs at once
#: and returning one legal index per env.
Player = Union[str, Any]
#: The report's seat columns that name a role, in the order a seat's role is
#: read (a seat in none of them is a farmer); the name each role is given.
ROLE_COLUMNS = (
    ("landlord", "landlord"),
    ("hidden_landlord", "hidden_landlord"),
    ("deputy", "deputy"),
    ("second_landlord", "second_landlord"),
    ("counter_landlord", "counter_landlord"),
    ("open_landlords", "open_landlord"),
    ("hidden_landlords", "hidden_landlord"),
)
FARMER = "farmer"
_GAME_STRIDE = 0xD1B54A32D192ED03  # as the engine's Rng::for_game
_OPENING = {"douzero": "seat0", "full": "auction"}


@dataclass
class Games:
    """What A did in deals `first ..`: one row per deal, one column per game
    of the deal (0: A at seat 0; 1: B at seat 0)."""

    #: `[deals, 2, players]`: the seat's score, its role's index in `roles`,
    #: and whether A played the seat.
    scores: np.ndarray
    roles: np.ndarray
    mine: np.ndarray
    #: `[deals, 2]`: bombs and king bombs played.
    bombs: np.ndarray
    role_names: list[str]

    @staticmethod
    def join(parts: Sequence[Games]) -> Games:
        names = sorted({n for p in parts for n in p.role_names})
        remapped = [np.asarray([names.index(n) for n in p.role_names])[p.roles] for p in parts]
        return Games(
            scores=np.concatenate([p.scores for p in parts]),
            roles=np.concatenate(remapped),
            mine=np.concatenate([p.mine for p in parts]),
            bombs=np.concatenate([p.bombs for p in parts]),
            role_names=names,
        )


def evaluate(
    preset_or_rules: str | Rules,
    a: Player,
    b: Player,
    deals: int,
    seed: int = 0,
    protocol: str = "douzero",
    threads: int | None = None,
) -> Evaluation:
    """A against B over `deals` deals, each played twice with the seats
    swapped; returns a JSON-ready dict (docs/evaluate.md):

    ``overall``: A's ``wp`` (share of games A's seats won, as a total score
    above 0; a tie counts half), ``adp`` (points of a game worth
    ``2 * 2**bombs`` to the side that wins it) and ``score`` (ddz's own
    score of A's seats, summed) per game; ``roles``: the same figures per
    seat A played in each role (``landlord``, ``farmer``, and the roles of
    the multi-seat families). Each figure is ``{"value", "low", "high"}``,
    a 95% interval over the deals. ``protocol="douzero"`` makes seat 0 the
    landlord with the kitty and no auction (one-landlord rule sets:
    classic, two-player, four-player, laizi); ``"full"`` plays the auction
    and every decision.
    """
    rules, names = _checked(preset_or_rules, a, b, deals, seed, protocol)
    games = play(rules, a, b, 0, deals, seed, protocol, threads)
    return summary(games, rules=rules, a=names[0], b=names[1], seed=seed, protocol=protocol)


def _checked(
    preset_or_rules: str | Rules, a: Player, b: Player, deals: int, seed: int, protocol: str
) -> tuple[Rules, tuple[str, str]]:
    rules = preset_or_rules if isinstance(preset_or_rules, Rules) else Rules(preset_or_rules)
    if not isinstance(deals, int) or isinstance(deals, bool) or deals <= 0:
        raise ValueError(f"deals must be a positive int, not {deals!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in 0..2**64, not {seed!r}")
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {PROTOCOLS}, not {protocol!r}")
    if protocol == "douzero" and rules.flow != "one_landlord":
        raise ValueError(
            "the douzero protocol (seat 0 is the landlord, no auction) needs a one-landlord "
            f"rule set (classic, two-player, four-player, laizi), not {rules.preset!r} "
            f"(flow {rules.flow}): use protocol='full'"
        )
    for side, player in (("a", a), ("b", b)):
        if isinstance(player, str):
            ddz.simulate(rules, 0, policy=player)  # names the policies if unknown
        elif not callable(getattr(player, "act", None)) and not callable(player):
            raise TypeError(
                f"{side} must be a policy name, an agent with act(observation, legal) or a "
                f"batch policy fn(obs) -> legal indices, not {player!r}"
            )
    if any(_is_agent(p) for p in (a, b)) and any(_is_batch(p) for p in (a, b)):
        raise TypeError(
            "a batch policy plays beside policy names or batch policies, not beside an agent "
            "with act(observation, legal): the agent plays through ddz.Game, one decision at a time"
        )
    return rules, (name_of(a), name_of(b))


def _is_agent(player: Player) -> bool:
    return not isinstance(player, str) and callable(getattr(player, "act", None))


def _is_batch(player: Player) -> bool:
    return not isinstance(player, str) and not _is_agent(player) and callable(player)


def name_of(player: Player) -> str:
    if isinstance(player, str):
        return player
    if _is_batch(player):
        return getattr(player, "__name__", type(player).__name__)
    return type(player).__name__


def play(
    rules: Rules,
    a: Player,
    b: Player,
    first: int,
    deals: int,
    seed: int,
    protocol: str,
    threads: int | None = None,
) -> Games:
    """Deals `first .. first + deals`, both games each (checked arguments)."""
    n = rules.players
    seatings = [[a] + [b] * (n - 1), [b] + [a] * (n - 1)]
    mine = np.zeros((deals, 2, n), bool)
    mine[:, 0, 0] = True
    mine[:, 1, 1:] = True
    if not (_is_agent(a) or _is_agent(b)):
        runs = [
            _in_rust(rules, seating, first, deals, seed, protocol, threads) for seating in seatings
        ]
        scores = np.stack([r["scores"] for r in runs], axis=1)
        bombs = np.stack([r["bombs"] for r in runs], axis=1)
        reports = [[_report_row(r, i) for r in runs] for i in range(deals)]
    else:
        rows = [
            [
                _play_game(rules, seating, seed, first + i, g, protocol)
                for g, seating in enumerate(seatings)
            ]
            for i in range(deals)
        ]
        scores = np.array([[g[0] for g in row] for row in rows], np.int64).reshape(deals, 2, n)
        bombs = np.array([[g[1] for g in row] for row in rows], np.int64).reshape(deals, 2)
        reports = [[g[2] for g in row] for row in rows]
    names: list[str] = []
    roles = np.zeros((deals, 2, n), np.int64)
    for i, row in enumerate(reports):
        for g, report in enumerate(row):
            for seat, role in enumerate(seat_roles(report, n)):
                if role not in names:
                    names.append(role)
                roles[i, g, seat] = names.index(role)
    return Games(scores=scores, roles=roles, mine=mine, bombs=bombs, role_names=names)


def _in_rust(
    rules: Rules,
    seating: list[Player],
    first: int,
    deals: int,
    seed: int,
    protocol: str,
    threads: int | None,
) -> Mapping[str, Any]:
    """One game of each deal, every seat in Rust: names through `ddz.simulate`; with
    a batch policy, every deal at once, the policy asked for all its envs."""
    if all(isinstance(p, str) for p in seating):
        names = [str(p) for p in seating]
        return simulate(rules, deals, seed, threads, names, first=first, opening=_OPENING[protocol])
    return play_seated(rules, deals, seating, seed, first, protocol, threads)


def _report_row(run: Mapping[str, Any], i: int) -> dict[str, Any]:
    return {key: np.asarray(run[key][i]).tolist() for key, _ in ROLE_COLUMNS}


def seat_roles(report: Mapping[str, Any], players: int) -> list[str]:
    """Each seat's role, read from a deal's report columns."""
    roles = [FARMER] * players
    named = [False] * players
    for key, role in ROLE_COLUMNS:
        value = report.get(key, -1)
        for seat in value if isinstance(value, list) else [value]:
            if 0 <= seat < players and not named[seat]:
                roles[seat], named[seat] = role, True
    return roles


def game_seed(seed: int, index: int) -> int:
    """The `ddz.Game` seed that deals as deal `index` of the series `seed`
    does in `ddz.simulate` (the engine's Rng::for_game)."""
    return seed ^ (index * _GAME_STRIDE % 2**64)


def _play_game(
    rules: Rules, seating: list[Player], seed: int, index: int, game: int, protocol: str
) -> tuple[list[int], int, dict[str, Any]]:
    """One game through `ddz.Game`: (scores, bombs, report)."""
    table = ddz.Game(rules, seed=game_seed(seed, index))
    agents = [_agent(p, seed, index, game, seat) for seat, p in enumerate(seating)]
    if protocol == "douzero":
        table._open_seat0()
    while table.result is None:
        table.step(decide(agents[table.to_act], table))
    bombs = sum(
        1 for _, action, _ in table.actions if isinstance(action, ddz.Move) and action.is_bomb
    )
    report = table.report()
    assert report is not None  # the deal is over
    return list(table.result["scores"]), bombs, report


def _agent(player: Player, seed: int, index: int, game: int, seat: int) -> Any:
    """A Python agent for a seat: agents as given, names by their twins
    (``random`` seeded from the series, deal, game and seat)."""
    if not isinstance(player, str):
        return player
    from ddz import agents

    # A seed of its own for each (series, deal, game, seat), the same on
    # every run and every Python.
    key = f"{seed}:{index}:{game}:{seat}".encode()
    own = int.from_bytes(hashlib.sha256(key).digest()[:8], "little")
    if player == "random":
        return agents.RandomAgent(seed=own)
    if player == "greedy":
        return agents.GreedyAgent()
    searcher = agents.search_agent_named(player, seed=own)
    if searcher is not None:
        return searcher
    twin = getattr(agents, f"{player.capitalize()}Agent", None)
    if twin is None:
        raise ValueError(f"the policy {player!r} has no Python agent to play beside an agent")
    return twin(seed=own)


# ---- figures -------------------------------------------------------------


def interval(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """The ratio sum(values) / sum(counts) over independent clusters (here:
    deals) and its 95% normal interval, the variance by the delta method
    with the n/(n-1) correction; with one unit per cluster this is the
    mean +- 1.96 s/sqrt(n) of the units."""
    values = np.asarray(values, float)
    counts = np.asarray(counts, float)
    keep = counts > 0
    values, counts = values[keep], counts[keep]
    n = len(values)
    if n == 0:
        return {"value": math.nan, "low": math.nan, "high": math.nan}
    total = counts.sum()
    ratio = values.sum() / total
    if n < 2:
        return {"value": ratio, "low": math.nan, "high": math.nan}
    variance = n / (n - 1) * float(((values - ratio * counts) ** 2).sum()) / total**2
    half = Z95 * math.sqrt(variance)
    return {"value": float(ratio), "low": float(ratio - half), "high": float(ratio + half)}


def _figures(win: np.ndarray, points: np.ndarray, score: np.ndarray, counted: np.ndarray) -> dict:
    """Sums over each deal's counted units, then an interval over the deals."""
    axes = tuple(range(1, counted.ndim))
    per_deal = lambda x: (x * counted).sum(axis=axes)  # noqa: E731
    counts = counted.sum(axis=axes)
    return {
        "count": int(counts.sum()),
        "wp": interval(per_deal(win), counts),
        "adp": interval(per_deal(points), counts),
        "score": interval(per_deal(score), counts),
    }


def summary(games: Games, *, rules: Rules, a: str, b: str, seed: int, protocol: str) -> Evaluation:
    """The figures of `games` (docs/evaluate.md)."""
    worth = 2 * 2.0**games.bombs  # [deals, 2]
    # Overall: A's seats together, per game.
    total = (games.scores * games.mine).sum(axis=2)
    win = (total > 0) + 0.5 * (total == 0)
    overall = _figures(win, np.sign(total) * worth, total, np.ones_like(total, bool))
    # Per role: each seat A played in that role.
    seat_win = (games.scores > 0) + 0.5 * (games.scores == 0)
    seat_points = np.sign(games.scores) * worth[:, :, None]
    # A game is one-sided when every seat A played won, or every one lost.
    mine_scores = np.where(games.mine, games.scores, 0)
    won_all = ((mine_scores > 0) | ~games.mine).all(axis=2)
    lost_all = ((mine_scores < 0) | ~games.mine).all(axis=2)
    one_sided = (won_all | lost_all)[:, :, None]
    roles, one_sided_roles = {}, {}
    for r, name in sorted(enumerate(games.role_names), key=lambda x: _role_order(x[1])):
        counted = games.mine & (games.roles == r)
        if counted.any():
            roles[name] = _figures(seat_win, seat_points, games.scores, counted)
        if (counted & one_sided).any():
            figures = _figures(seat_win, seat_points, games.scores, counted & one_sided)
            one_sided_roles[name] = figures
    out = {
        "preset": rules.preset,
        "protocol": protocol,
        "a": a,
        "b": b,
        "deals": int(len(games.bombs)),
        "seed": seed,
        "overall": overall,
        "roles": roles,
        "one_sided_roles": one_sided_roles,
    }
    return cast(Evaluation, out)


def _role_order(name: str) -> tuple[int, str]:
    order = [role for _, role in ROLE_COLUMNS] + [FARMER]
    return (order.index(name) if name in order else len(order), name)
