"""Glicko-2: Glickman's worked example and the properties a rating system must keep."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.tutor.puzzles.rating import Rating, expected_score, idle, solve, update

OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickman_worked_example() -> None:
    # the paper rounds as it goes and prints 1464.06, 151.52, 0.05999; exact arithmetic gives
    # 1464.0507, 151.5165, 0.0599960
    r = update(Rating(1500, 200, 0.06), OPPONENTS)
    assert r.rating == pytest.approx(1464.06, abs=0.015)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=0.00001)
    assert r.volatility == pytest.approx(0.059996, abs=0.000001)


def test_volatility_step_uses_the_deviation_not_the_rating() -> None:
    # the step the PyPI package gets wrong: away from 1500 its volatility comes out 0.060004
    r = update(Rating(2100, 200, 0.06), OPPONENTS)
    assert r.volatility == pytest.approx(0.0600207, abs=1e-6)
    assert r.rating == pytest.approx(1803.888, abs=0.01)


def test_idle_period_grows_only_the_deviation() -> None:
    r = idle(Rating(1600, 100, 0.06))
    assert r.rating == 1600 and r.volatility == 0.06
    assert r.rd == pytest.approx(math.sqrt(100**2 + (0.06 * 173.7178) ** 2))
    assert update(Rating(1600, 100), []) == r


def test_bad_score_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(Rating(), [(Rating(), 2.0)])


def test_expected_score_is_symmetric_for_equal_deviations() -> None:
    a, b = Rating(1700, 80), Rating(1500, 80)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert expected_score(a, b) > 0.5


@given(st.floats(800, 2600), st.floats(30, 350), st.floats(800, 2600), st.floats(30, 350), st.booleans())
def test_solving_raises_the_learner_and_lowers_the_puzzle(lr: float, ld: float, pr: float, pd: float,
                                                         ok: bool) -> None:
    learner, puzzle = solve(Rating(lr, ld), Rating(pr, pd), ok)
    if ok:
        assert learner.rating > lr and puzzle.rating < pr
    else:
        assert learner.rating < lr and puzzle.rating > pr
    assert learner.rd <= 350 and puzzle.rd <= 350
