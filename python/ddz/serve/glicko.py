"""Glicko-2 for one game at a time (Glickman, "Example of the Glicko-2 system").

The puzzle mode rates a puzzle and a player against each other on the
player's first attempt, as lichess does: a solve is a win for the player and
a loss for the puzzle. Pure Python, no state: a rating goes in, a rating
comes out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Glicko-2's scale factor between the Glicko scale and its own.
SCALE = 173.7178
#: The system constant: how much the volatility may change (lichess's puzzles).
TAU = 0.75
#: Convergence tolerance of the volatility's iteration (the paper's value).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 500.0
    volatility: float = 0.09


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)


def update(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """`player` after one rating period with `results`: (opponent, score)
    pairs, score 1 for a win, 0 for a loss, 0.5 for a draw (steps 1-8)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:  # step 6 alone: only the deviation grows
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, grown * SCALE, sigma)
    v_inverse = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        if score not in (0, 0.5, 1):
            raise ValueError(f"a score is 0, 0.5 or 1, not {score!r}")
        mu_j = (opponent.rating - 1500.0) / SCALE
        g = _g(opponent.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inverse += g * g * expected * (1.0 - expected)
        delta_sum += g * (score - expected)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6-8: the new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    return Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma)


def game(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """Both sides after one decisive game, each rated against the other's
    rating from before it."""
    return update(winner, [(loser, 1.0)]), update(loser, [(winner, 0.0)])
