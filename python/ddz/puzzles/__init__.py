"""Endgame puzzles (残局) with proven unique solutions (docs/puzzles.md).

    ps = ddz.puzzles.generate("classic", n=10, seed=0, hands=2)
    ps[0]["hands"], ps[0]["line"], ps[0]["rating"], ps[0]["themes"]
    ddz.puzzles.check(ps[0])   # True: proved again from the hands

Seat 0, the landlord, leads and goes out first against every defence. The
landlord's play at each of its turns on the main line is the only winning
one, up to the choice of kickers (the play that goes out may have equals);
the defence on the main line resists longest. The analysis is the core's
(``ddz._ddz.analyse_puzzles``); this package deals the candidates, tags
themes, rates, and reads and writes puzzle files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ddz._ddz import Rules, analyse_puzzles, default_threads
from ddz._ddz import longest_reply as _longest_reply

from . import rating, themes
from .candidates import candidate
from .files import CSV_COLUMNS, KEYS, read, write_csv, write_jsonl

__all__ = [
    "CSV_COLUMNS",
    "KEYS",
    "check",
    "check_all",
    "from_positions",
    "generate",
    "longest_reply",
    "puzzle_id",
    "read",
    "search_block",
    "write_csv",
    "write_jsonl",
]

#: Default card counts a hand, by number of hands.
DEFAULT_CARDS = {2: (5, 10), 3: (3, 6)}
#: Budgets of one candidate's analysis: positions a solve may search, and
#: positions the longest-defence walk may measure. A candidate over budget
#: is skipped (so is a candidate `check` cannot prove within them).
MAX_NODES = 2_000_000
MAX_STEPS = 20_000
#: The shortest puzzle kept: the landlord's moves on the main line.
MIN_LENGTH = 2
SOURCES = ("mixed", "synthetic", "simulated")


def puzzle_id(preset: str, hands: Sequence[str], forbid: Sequence[str]) -> str:
    """A stable id from the position (the line follows from it): 10 hex digits."""
    text = json.dumps({"preset": preset, "hands": list(hands), "forbid": sorted(forbid)})
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def landlord_moves(found: dict[str, Any]) -> int:
    """The landlord's decisions on the main line: its moves, less the
    passes it was forced to make (no play could answer)."""
    return sum(1 for (seat, _), n in zip(found["line"], found["choices"]) if seat == 0 and n > 1)


def _rules(preset: str | Rules) -> Rules:
    return preset if isinstance(preset, Rules) else Rules(preset)


def _checked_forbid(forbid: Iterable[str] | None) -> list[str]:
    if forbid is None:
        return []
    if isinstance(forbid, str):
        raise ValueError("forbid takes a list of kind names, e.g. ['trio_single'], not one string")
    return sorted(set(forbid))


def _checked_cards(cards: Sequence[int] | None, hands: int) -> tuple[int, int]:
    if cards is None:
        return DEFAULT_CARDS[hands]
    try:
        lo, hi = (int(c) for c in cards)
    except (TypeError, ValueError):
        raise ValueError(f"cards must be (min, max) cards a hand, not {cards!r}") from None
    if not 1 <= lo <= hi:
        raise ValueError(f"cards must be (min, max) with 1 <= min <= max, not {cards!r}")
    return lo, hi


def _build(
    rules: Rules, hands: list[str], forbid: list[str], found: dict[str, Any], source: str
) -> dict[str, Any] | None:
    """The puzzle from an analysis, or None when the position is not one."""
    if not found.get("win") or "refused" in found or not found["unique"]:
        return None
    line = [[seat, action] for seat, action in found["line"]]
    length = landlord_moves(found)
    if length < MIN_LENGTH or found["losing_first_moves"] == 0:
        return None
    preset = rules.preset
    return {
        "id": puzzle_id(preset, hands, forbid),
        "preset": preset,
        "hands": hands,
        "forbid": forbid,
        "line": line,
        "length": length,
        "plays": found["plays"],
        "first_moves": found["first_moves"],
        "losing_first_moves": found["losing_first_moves"],
        "themes": themes.tag(rules, hands, line, found["kinds"], forbid, length),
        "rating": rating.prior(
            length,
            found["first_moves"],
            found["losing_first_moves"],
            found["greedy_fails"],
            found["fewest_fails"],
            len(hands),
        ),
        "rating_deviation": rating.DEVIATION,
        "source": source,
    }


def search_block(
    rules: Rules,
    seed: int,
    first: int,
    size: int,
    hands: int,
    forbid: list[str],
    cards: tuple[int, int],
    source: str,
    threads: int,
) -> list[tuple[int, dict[str, Any]]]:
    """The puzzles among candidates `first .. first+size-1`, with their
    index. What `generate` and its Ray version run on each block."""
    lo, hi = cards
    made = [candidate(rules, seed, i, hands, lo, hi, source) for i in range(first, first + size)]
    todo = [(i, h, s) for i, (h, s) in zip(range(first, first + size), made) if h is not None]
    found = analyse_puzzles(
        rules,
        [h for _, h, _ in todo],
        forbid=forbid,
        max_nodes=MAX_NODES,
        max_steps=MAX_STEPS,
        threads=threads,
    )
    out = []
    for (i, h, s), f in zip(todo, found, strict=True):
        p = _build(rules, h, forbid, f, s) if f is not None else None
        if p is not None:
            out.append((i, p))
    return out


def _arguments(
    preset: str | Rules,
    n: int,
    seed: int,
    hands: int,
    forbid: Iterable[str] | None,
    cards: Sequence[int] | None,
    source: str,
) -> tuple[Rules, list[str], tuple[int, int]]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be an int >= 0, not {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, not {seed!r}")
    if hands not in (2, 3):
        raise ValueError(f"hands must be 2 or 3, not {hands!r}")
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    return _rules(preset), _checked_forbid(forbid), _checked_cards(cards, hands)


def generate(
    preset: str | Rules = "classic",
    n: int = 10,
    seed: int = 0,
    hands: int = 2,
    forbid: Iterable[str] | None = None,
    cards: Sequence[int] | None = None,
    *,
    source: str = "mixed",
    threads: int | None = None,
    max_candidates: int | None = None,
) -> list[dict[str, Any]]:
    """`n` puzzles of `preset`: the first `n` of the series `seed` (the
    same list on any number of threads, or on Ray through
    `ddz.distributed.puzzles`). `hands`: 2, or 3 (the landlord against two
    farmers, every hand open); `forbid`: kinds nobody may play (禁手);
    `cards`: (min, max) cards a hand (default (5, 10) for two hands, (3, 6)
    for three); `source`: "synthetic" (hands dealt from a shuffled deck),
    "simulated" (the first endgame of a simulated deal where the landlord
    leads) or "mixed" (one candidate in four simulated). Stops after
    `max_candidates` candidates (default 2,000 a puzzle asked) and then
    returns fewer than `n`."""
    rules, forbid_list, lohi = _arguments(preset, n, seed, hands, forbid, cards, source)
    threads = default_threads() if threads is None else max(1, int(threads))
    limit = max_candidates if max_candidates is not None else 2000 * max(n, 1)
    block = max(16, 8 * threads)
    out: list[dict[str, Any]] = []
    first = 0
    while len(out) < n and first < limit:
        size = min(block, limit - first)
        for _, p in search_block(
            rules, seed, first, size, hands, forbid_list, lohi, source, threads
        ):
            if len(out) < n:
                out.append(p)
        first += size
    return out


def from_positions(
    preset: str | Rules,
    positions: Iterable[Sequence[str]],
    forbid: Iterable[str] | None = None,
    *,
    source: str = "given",
    threads: int | None = None,
) -> list[dict[str, Any]]:
    """The puzzles among given positions (each 2 or 3 hands, seat 0 the
    landlord to lead), in their order: endgames from recorded deals, or a
    collection to grade. A position that is no puzzle is left out."""
    rules, forbid_list = _rules(preset), _checked_forbid(forbid)
    hands = [[str(h) for h in pos] for pos in positions]
    for h in hands:
        if len(h) not in (2, 3):
            raise ValueError(f"a position is 2 or 3 hands, not {len(h)}: {h!r}")
    threads = default_threads() if threads is None else max(1, int(threads))
    found = analyse_puzzles(
        rules, hands, forbid=forbid_list, max_nodes=MAX_NODES, max_steps=MAX_STEPS, threads=threads
    )
    out = []
    for h, f in zip(hands, found, strict=True):
        p = _build(rules, h, forbid_list, f, source) if f is not None else None
        if p is not None:
            out.append(p)
    return out


def _checked_puzzle(p: Any) -> None:
    if not isinstance(p, dict):
        raise ValueError(f"a puzzle is a dict, not {type(p).__name__}")
    missing = [k for k in ("hands", "line") if k not in p]
    if missing:
        raise ValueError(f"the puzzle has no {', '.join(missing)}")
    if not isinstance(p["hands"], list) or len(p["hands"]) not in (2, 3):
        raise ValueError("a puzzle's hands are a list of 2 or 3 card texts")


def longest_reply(
    preset: str | Rules,
    hands: Sequence[str],
    to_move: int = 1,
    prev: Any = None,
    prev_by: int | None = None,
    forbid: Iterable[str] | None = None,
) -> str | None:
    """The defence's reply that resists longest (the most plays before the
    landlord goes out), at a position the landlord's side wins with the
    defence to move: its cards, or ``"pass"``. This is how the main line
    defends; a server playing a puzzle uses it off the main line too. None
    when the analysis runs out of its budget, or when the position is not
    one (the landlord to move, or the defence winning); ValueError on bad
    hands or seats, as ``rules.solve``."""
    if isinstance(hands, str):
        raise ValueError("hands must be a list of 2 or 3 hands")
    return _longest_reply(
        _rules(preset),
        [str(h) for h in hands],
        to_move,
        prev=prev,
        prev_by=prev_by,
        forbid=_checked_forbid(forbid),
        max_nodes=MAX_NODES,
        max_steps=MAX_STEPS,
    )


def check(p: dict[str, Any]) -> bool:
    """Prove `p` again from its hands: the landlord wins, the solution is
    unique, and the main line, the losing first moves and the id are the
    ones recorded. False when any of that fails (or the proof runs out of
    its budget); ValueError when `p` is not a puzzle dict."""
    return check_all([p], threads=1)[0]


def check_all(ps: Sequence[dict[str, Any]], threads: int | None = None) -> list[bool]:
    """`check` of each puzzle, the proofs on `threads` threads (default: every core)."""
    for p in ps:
        _checked_puzzle(p)
    threads = default_threads() if threads is None else max(1, int(threads))
    groups: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for i, p in enumerate(ps):
        key = (str(p.get("preset", "classic")), tuple(_checked_forbid(p.get("forbid"))))
        groups.setdefault(key, []).append(i)
    out = [False] * len(ps)
    for (preset, forbid), members in groups.items():
        rules = _rules(preset)
        hands = [[str(h) for h in ps[i]["hands"]] for i in members]
        found = analyse_puzzles(
            rules,
            hands,
            forbid=list(forbid),
            max_nodes=MAX_NODES,
            max_steps=MAX_STEPS,
            threads=threads,
        )
        for i, h, f in zip(members, hands, found, strict=True):
            out[i] = _matches(ps[i], f, rules.preset, h, list(forbid))
    return out


def _matches(
    p: dict[str, Any],
    found: dict[str, Any] | None,
    preset: str,
    hands: list[str],
    forbid: list[str],
) -> bool:
    if found is None or not found.get("win") or "refused" in found or not found["unique"]:
        return False
    line = [[seat, action] for seat, action in found["line"]]
    try:
        recorded = [[int(seat), str(action)] for seat, action in p["line"]]
    except (TypeError, ValueError):
        return False
    if line != recorded:
        return False
    if "losing_first_moves" in p and p["losing_first_moves"] != found["losing_first_moves"]:
        return False
    return "id" not in p or p["id"] == puzzle_id(preset, hands, forbid)
