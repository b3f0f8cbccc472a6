"""The difficulty prior of a new puzzle (docs/puzzles.md#rating).

Players' first attempts move a puzzle's rating by Glicko-2 later; this is
where it starts: a rating from what the analysis saw, with the deviation
of a new lichess puzzle (500)."""

from __future__ import annotations

#: A new puzzle's rating deviation (lichess: 500).
DEVIATION = 500
#: The prior is kept inside this range.
LOWEST, HIGHEST = 600, 2600


def prior(
    length: int,
    first_moves: int,
    losing_first_moves: int,
    greedy_fails: bool,
    fewest_fails: bool,
    hands: int,
) -> int:
    """A rating from the landlord's moves to find (`length`), the share of
    first moves that lose, and whether the core's greedy player and the
    fewest-plays heuristic fail the puzzle; three-hand puzzles start higher."""
    share = losing_first_moves / first_moves if first_moves else 0.0
    r = 900 + 90 * min(length, 12) + 500 * share
    r += 200 * greedy_fails + 300 * fewest_fails + 100 * (hands == 3)
    return int(round(min(HIGHEST, max(LOWEST, r))))
