"""Rule tests: the initial meld minimum (R-MIN-*)."""

from __future__ import annotations

import pytest
from helpers_rules import (
    ACE, DEUCE, FIVE, FOUR, JOKER, KING, NINE, QUEEN, P, ok, refuse,
)

from canasta_tutor.engine.observer import observe

HAND = """
    dealer: E
    turn: S meld
    totals: NS {ns} EW 0
    pile: 9D
    N: 11
    E: 11
    S: {s}
    W: 11
"""


def _pos(ns=0, s="KS KH KD 5C 6C 7C 8C 9S TS JS 4H", extra=""):
    return P(HAND.format(ns=ns, s=s) + extra)


@pytest.mark.parametrize(
    "total,minimum",
    [(-2000, 15), (-5, 15), (0, 50), (5, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120)],
)
def test_minimum_bands_R_MIN_1(total, minimum):
    """R-MIN-1: below 0: 15; 0..1,495: 50; 1,500..2,995: 90; 3,000 up: 120."""
    state = _pos(ns=total)
    assert state.minimums[0] == minimum
    assert observe(state, "S").minimums[0] == minimum
    assert observe(state, "N").minimums[1] == 50


def test_initial_meld_below_minimum_refused_R_MIN_1():
    """R-MIN-1: with a total of 1,500 the initial meld needs 90: three kings (30) are refused, and
    the message gives the minimum."""
    state = _pos(ns=1500)
    refuse(state, ("meld", KING, 3, 0, 0), "R-MIN-1", "90")


def test_negative_total_needs_only_15_R_MIN_1():
    """R-MIN-1: below 0 the minimum is 15: three fives (15) make the initial meld."""
    state = _pos(ns=-100, s="5C 5S 5H 7C 8C 9S TS JS 4H KS KH")
    ok(state, ("meld", FIVE, 3, 0, 0))
    assert state.initial[0] and not state.frozen_for(0)
    ok(state, ("discard", FOUR))


def test_exactly_the_minimum_is_enough_R_MIN_1():
    """R-MIN-1: a count equal to the minimum is enough (50 with a total of 0)."""
    state = _pos(ns=0, s="9S 9H 9C 4S 4H 4D 4C 7C TS JS KH")
    ok(state, ("meld", NINE, 3, 0, 0))
    refuse(state, ("discard", KING), "R-MIN-1", "50")
    ok(state, ("meld", FOUR, 3, 0, 0))
    refuse(state, ("discard", KING), "R-MIN-1", "50")
    ok(state, ("add", FOUR, FOUR))  # 30 + 20 = 50
    assert state.initial[0]
    ok(state, ("discard", KING))


def test_several_melds_add_up_to_the_minimum_R_MIN_2():
    """R-MIN-2: several melds in the same turn add their counts to reach the minimum."""
    state = _pos(ns=1500, s="KS KH KD AS AH JK 7C 8C 9S TS 4H")
    ok(state, ("meld", KING, 3, 0, 0))  # 30: not enough alone, but more can follow
    assert not state.initial[0]
    refuse(state, ("discard", FOUR), "R-MIN-1", "90")
    ok(state, ("meld", ACE, 2, 1, 0))  # 30 + 90 = 120 >= 90
    assert state.initial[0]
    ok(state, ("discard", FOUR))
    assert state.current_seat == "W"


def test_additions_count_toward_the_minimum_R_MIN_2():
    """R-MIN-2: cards added to a meld laid in the same turn count too."""
    state = _pos(ns=0, s="KS KH KD KC QS 7C 8C 9S TS 4H 2S")
    ok(state, ("meld", KING, 3, 0, 0))
    ok(state, ("add", KING, KING))  # 40
    refuse(state, ("discard", FOUR), "R-MIN-1")
    ok(state, ("add", KING, DEUCE))  # 60
    ok(state, ("discard", FOUR))


def test_red_three_bonus_does_not_count_R_MIN_2():
    """R-MIN-2: red-three bonuses never count toward the minimum."""
    state = _pos(ns=0, extra="    red threes NS: 3H 3D 3H 3D\n")
    refuse(state, ("meld", KING, 3, 0, 0), "R-MIN-1", "50")


def test_canasta_bonus_does_not_count_R_MIN_2():
    """R-MIN-2: a canasta's bonus does not count: seven fours (35) are short of 120."""
    state = _pos(ns=3000, s="4S 4S 4H 4H 4D 4D 4C 9S TS JS 5H")
    refuse(state, ("meld", FOUR, 3, 0, 0), "R-MIN-1", "120")


TAKE = """
    dealer: E
    turn: S draw
    totals: NS {ns} EW 0
    pile: {pile}
    N: 11
    E: 11
    S: {s}
    W: 11
"""


def test_only_top_card_of_pile_counts_R_MIN_3_R_PACK_5():
    """R-MIN-3, R-PACK-5: the pile's top card counts toward the minimum, no other pile card: three
    kings (30) are short of 50 even though the pile holds two nines South could meld."""
    state = P(TAKE.format(ns=0, pile="9S 9D KH", s="KS KD 9C 5C 6C 7C 8C TS JS 4H 4S"))
    e = refuse(state, ("take", KING, 2, 0, 0), "R-PACK-5", "50", "top card")
    assert "30" in str(e)


def test_top_card_counts_R_MIN_3():
    """R-MIN-3: the top card's value counts: two aces in hand and an ace on top make 60 >= 50."""
    state = P(TAKE.format(ns=0, pile="9S 9D AH", s="AS AD 5C 6C 7C 8C TS JS 4H 4S 9C"))
    ok(state, ("take", ACE, 2, 0, 0))
    assert state.initial[0]
    assert state.meld_summary(0)[ACE] == (3, 0)
    # the nines from the pile can now be melded without any minimum
    ok(state, ("meld", NINE, 3, 0, 0))


def test_after_initial_meld_no_minimum_R_MIN_4():
    """R-MIN-4: once the side's initial meld is down, either partner melds with no minimum."""
    state = _pos(ns=3000, s="5C 5S 5H 7C 8C 9S TS JS 4H KS KH", extra="    melds NS: QS QH QD\n")
    ok(state, ("meld", FIVE, 3, 0, 0))
    ok(state, ("discard", FOUR))
    assert state.current_seat == "W"


def test_minimum_fixed_for_the_deal_and_follows_totals_R_MIN_5_R_MIN_1():
    """R-MIN-5, R-MIN-1, R-SCORE-4: the minimum is set when the deal starts and stays for the deal;
    the next deal's minimum follows the new running total."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 1400 EW 0
        pile: 9D
        N: 4S
        E: 11
        S: QC JK
        W: 11
        melds NS: QS QH QD QC QS QH; AS AH AD AC AS AH AD
        melded-before: S N
    """)
    assert state.minimums == [50, 50]
    ok(state, ("add", QUEEN, QUEEN))
    assert state.minimums == [50, 50]  # a canasta made during the deal changes nothing
    ok(state, ("add", QUEEN, JOKER))
    assert state.phase == "hand_over"
    assert state.totals[0] >= 1500
    ok(state, ("deal",))
    assert state.minimums == [90, 15 if state.totals[1] < 0 else 50]
    assert observe(state, "W").minimums[0] == 90
