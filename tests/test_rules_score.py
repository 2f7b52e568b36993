"""Rule tests: scoring a hand (R-SCORE-*)."""

from __future__ import annotations

from helpers_rules import FIVE, P, ok
from test_rules_game import EW_HAND, NS_HAND, _end

from canasta_tutor.engine.state import minimum_for

def test_bonuses_R_SCORE_1():
    """R-SCORE-1: 500 natural canasta, 300 mixed, 100 per red three (800 for four), 100 going out,
    a further 100 concealed."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 0 EW 0
        pile: 9D
        N: 4S
        E: 4H
        S: 5S
        W: 4C
        melds NS: QS QH QD QC QS QH QD; 8S 8H 8D 8C JK 2S 2H
        melds EW: KS KH KD
        red threes NS: 3H 3D 3H 3D
        melded-before: S N
    """)
    ok(state, ("discard", FIVE))
    ns = state.hand_results[-1].sides[0]
    assert (ns.natural_canastas, ns.mixed_canastas) == (1, 1)
    assert ns.red_threes == 800 and ns.going_out == 100 and ns.concealed == 0
    assert ns.total == 500 + 300 + 800 + 100 + (70 + 130) - 5


def test_points_melded_minus_both_hands_R_SCORE_2():
    """R-SCORE-2: points are every melded card's value minus every card left in both partners' hands."""
    state = _end(0, 0)
    ns, ew = state.hand_results[-1].sides
    assert ns.melded == 70 and ns.in_hand == -5
    assert ew.melded == 70 and ew.in_hand == -10


def test_hand_score_bonus_plus_points_and_can_be_negative_R_SCORE_3():
    """R-SCORE-3: a side's score is its bonuses plus its points, red threes subtracted without a
    meld; the result can be negative."""
    state = _end(0, 0)
    ns, ew = state.hand_results[-1].sides
    for side in (ns, ew):
        bonus = (500 * side.natural_canastas + 300 * side.mixed_canastas + side.red_threes
                 + side.going_out + side.concealed)
        assert side.total == bonus + side.melded + side.in_hand
    assert ns.total == NS_HAND and ew.total == EW_HAND
    neg = P("""
        dealer: E
        turn: S meld
        totals: NS 0 EW 0
        pile: 9D
        N: 4S
        E: JK JK AS
        S: 5S
        W: 4C
        melds NS: QS QH QD QC QS QH QD (natural canasta)
        red threes EW: 3H 3D
        melded-before: S N
    """)
    ok(neg, ("discard", FIVE))
    ew = neg.hand_results[-1].sides[1]
    assert ew.total == -200 - 120 - 5 < 0


def test_score_sheet_running_totals_set_next_minimum_R_SCORE_4():
    """R-SCORE-4: each hand's entry has the score of the hand and the new running total, which sets
    the side's minimum for the next deal (R-MIN-1)."""
    state = _end(1000, -300)
    assert len(state.hand_results) == 1
    assert state.totals == [1000 + NS_HAND, -300 + EW_HAND]
    ok(state, ("deal",))
    assert state.minimums == [minimum_for(1000 + NS_HAND), minimum_for(-300 + EW_HAND)] == [90, 50]


