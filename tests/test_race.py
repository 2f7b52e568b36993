"""The hint's race: successive halving on shared sampled deals (``bots.expert.race``)."""

from __future__ import annotations

import pytest

from canasta_tutor import Game
from canasta_tutor.bots.expert import (
    candidate_actions,
    pick,
    race,
    race_values,
    rot_policy,
    sample_values,
    summarize,
)
from canasta_tutor.hint import analyse, grade, hint
from canasta_tutor.observer import observe
from canasta_tutor.state import State
from canasta_tutor.variants import CLASSIC


def _position(wanted: int) -> State:
    """A seeded rules-of-thumb position whose wide candidate list has ``wanted`` actions."""
    for seed in range(1, 40):
        state = Game().new_initial_state(seed=seed, dealer="E")
        for _ in range(120):
            seat = state.actor
            assert seat is not None
            if len(candidate_actions(state, seat, wide=True)) == wanted:
                return state
            state.apply_unchecked(rot_policy(state, seat))
    raise AssertionError(f"no position with {wanted} candidates")


def test_eight_candidates_halve_twice():
    state = _position(8)
    seat = state.actor
    assert seat is not None
    cands = candidate_actions(state, seat, wide=True)
    values = race_values(state, seat, cands, 240, seed=4)
    # three rounds of 80 playouts: 8 x 10, then 4 x 20, then 2 x 40
    assert sorted(len(v) for v in values) == [10, 10, 10, 10, 30, 30, 70, 70]
    assert sum(len(v) for v in values) == 240


def test_a_race_is_the_even_search_cut_short():
    """Every candidate is played on the first deals of the same sequence as the even search."""
    state = _position(5)
    seat = state.actor
    assert seat is not None
    cands = candidate_actions(state, seat, wide=True)
    raced = race_values(state, seat, cands, 120, seed=9)
    even = sample_values(state, seat, cands, max(len(v) for v in raced), seed=9)
    for r, e in zip(raced, even, strict=True):
        assert r == e[: len(r)]


def test_survivors_rank_first_and_gaps_are_paired():
    values = [[10.0] * 4, [0.0] * 8, [5.0, 7.0, 5.0, 7.0, 5.0, 7.0, 5.0, 7.0]]
    est = summarize([("a",), ("b",), ("c",)], values)
    # "a" has the best mean but was dropped after four deals: the survivors rank first
    assert [e.action for e in est] == [("c",), ("b",), ("a",)]
    assert est[1].gap == pytest.approx(6.0)
    assert est[2].samples == 4
    assert est[2].gap == pytest.approx(-4.0)  # c less a on the four deals both played


def test_one_candidate_and_two():
    state = _position(2)
    seat = state.actor
    assert seat is not None
    cands = candidate_actions(state, seat, wide=True)
    assert [len(v) for v in race_values(state, seat, cands, 240, seed=1)] == [120, 120]
    assert [len(v) for v in race_values(state, seat, cands[:1], 30, seed=1)] == [30]


def test_race_is_deterministic_and_the_default_hint_races():
    state = _position(8)
    seat = state.actor
    assert seat is not None
    cands = candidate_actions(state, seat, wide=True)
    a = race(state, seat, cands, 160, seed=3)
    b = race(state, seat, cands, 160, seed=3)
    assert [(e.action, e.mean, e.samples) for e in a] == [(e.action, e.mean, e.samples) for e in b]
    obs = observe(state, seat)
    _, est = analyse(obs, seed=0)
    # classic declares its budget (cut-off playouts); each round's share is rounded down
    budget = CLASSIC.hint_playouts
    assert budget is not None and 0.95 * budget <= sum(e.samples for e in est) <= budget
    h = hint(obs, seed=0)
    assert h.best == est[0].action and h.samples == est[0].samples > budget / len(est)
    for alt, e in zip(h.alternatives, est[1:], strict=False):
        assert alt.gap == pytest.approx(e.gap)


def test_grade_of_a_dropped_move_uses_the_paired_gap():
    state = _position(8)
    seat = state.actor
    assert seat is not None
    obs = observe(state, seat)
    _, est = analyse(obs, seed=0)
    dropped = est[-1]
    g = grade(obs, dropped.action, seed=0)
    assert g.loss == pytest.approx(max(0.0, dropped.gap - dropped.diff_stderr))


def test_the_expert_race_keeps_the_rules_of_thumb_choice_in_every_round():
    """``keep_first``: the first candidate (the rules-of-thumb choice) is never dropped; the
    challengers are halved, and the budget is the same as an even split."""
    state = _position(8)
    seat = state.actor
    assert seat is not None
    cands = candidate_actions(state, seat, wide=True)
    values = race_values(state, seat, cands, 8 * 48, seed=4, min_round=1, keep_first=True)
    # three rounds of 128 playouts: 8 x 16, then the first and 4 challengers x 25, then the first and 2 x 42
    assert len(values[0]) == 16 + 25 + 42
    assert sorted(len(v) for v in values[1:]) == [16, 16, 16, 41, 41, 83, 83]
    assert sum(len(v) for v in values) <= 8 * 48
    even = sample_values(state, seat, cands, 16, seed=4)
    assert [v[:16] for v in values] == even


def test_pick_only_lets_a_challenger_played_on_every_deal_overrule():
    cands = [("draw",), ("take",), ("discard", "K")]
    # the dropped third looks far better on its few deals, but it was not played on them all
    values = [[0.0, 0.0, 0.0, 0.0], [10.0, 12.0, 11.0, 13.0], [500.0, 600.0]]
    assert pick(cands, values, z=1.0) == ("take",)
    # a challenger within its noise does not overrule the first
    values = [[0.0, 0.0, 0.0, 0.0], [40.0, -40.0, 30.0, -20.0], [500.0, 600.0]]
    assert pick(cands, values, z=1.0) == ("draw",)
