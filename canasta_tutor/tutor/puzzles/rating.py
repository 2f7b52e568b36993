"""Glicko-2 ratings for puzzles and learners.

Written here rather than taken from the ``glicko2`` package on PyPI (2.1.0): that
package's volatility step (its ``_f``) uses the player's rating where the algorithm
uses the rating deviation, ``phi``.  Glickman's worked example starts from a rating
of 1500, where the rating on the internal scale is zero, so the package comes close on
that example (its volatility there, 0.059993, is off in the sixth place) and goes wrong
for every other rating.  It also keeps the system constant as a mutable class attribute
shared by all players.

This module follows Glickman's description of the Glicko-2 system (steps 1 to 8),
with the Illinois variant of regula falsi for the new volatility.  A rating period is
one call of :func:`update` with every result of that period; a player with no result
in a period only sees their deviation grow (:func:`idle`).

>>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                       (Rating(1700, 300), 0.0)])
>>> round(r.rating, 2), round(r.rd, 2), round(r.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper, rounding as it goes, prints 1464.06, 151.52 and 0.05999.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 internal scale: (rating - 1500) / SCALE
BASE = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # system constant: how much the volatility may change
EPSILON = 1e-6
MAX_RD = 350.0


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: the rating, its deviation and the volatility."""

    rating: float = BASE
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - BASE) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` (a learner solving a puzzle)."""
    return _e(player.mu, opponent.mu, opponent.phi)


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

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
    return math.exp(big_a / 2.0)


def update(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results``: pairs of the
    opponent's rating and the score (1 win, 0.5 draw, 0 loss)."""
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score must lie between 0 and 1, not {score!r}")
    if not results:
        return idle(player)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    v_inv = 0.0
    total = 0.0
    for opp, score in results:
        g = _g(opp.phi)
        e = _e(mu, opp.mu, opp.phi)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma2 = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    return Rating(mu2 * SCALE + BASE, min(MAX_RD, phi2 * SCALE), sigma2)


def idle(player: Rating) -> Rating:
    """A rating period with no results: only the deviation grows."""
    phi = math.sqrt(player.phi ** 2 + player.volatility ** 2)
    return Rating(player.rating, min(MAX_RD, phi * SCALE), player.volatility)


def solve(learner: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """One attempt as a game between learner and puzzle: both ratings after it."""
    s = 1.0 if solved else 0.0
    return update(learner, [(puzzle, s)]), update(puzzle, [(learner, 1.0 - s)])


__all__ = ["Rating", "update", "idle", "solve", "expected_score"]
