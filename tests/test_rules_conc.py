"""Rule tests: going out concealed (R-CONC-*)."""

from __future__ import annotations

from helpers_rules import FIVE, FOUR, KING, NINE, P, ok, refuse

POS = """
    dealer: E
    turn: S {phase}
    totals: NS {ns} EW 0
    pile: {pile}
    N: 6S 6H
    E: 11
    S: {s}
    W: 11
    {melds}
    {before}
"""

SEVEN_FOURS = "4S 4S 4H 4H 4D 4D 4C"


def _pos(s, phase="meld", ns=0, pile="7D 9D", melds="", before=""):
    return P(POS.format(s=s, phase=phase, ns=ns, pile=pile, melds=melds, before=before))


def _meld_fours(state):
    ok(state, ("meld", FOUR, 3, 0, 0))
    for _ in range(4):
        ok(state, ("add", FOUR, FOUR))


def test_concealed_going_out_R_CONC_1_R_CONC_3():
    """R-CONC-1, R-CONC-3: melding the whole hand in one turn, a canasta included, with no earlier
    meld: going out concealed scores 100 + 100 = 200."""
    state = _pos(SEVEN_FOURS + " KS KH KD 9C", melds="melds NS: QS QH QD")
    _meld_fours(state)
    ok(state, ("meld", KING, 3, 0, 0))
    ok(state, ("discard", NINE))
    res = state.hand_results[-1]
    assert res.went_out == "S" and res.concealed
    ns = res.sides[0]
    assert ns.going_out == 100 and ns.concealed == 100
    assert ns.going_out + ns.concealed == 200
    assert ns.total == 500 + 35 + 30 + 30 + 200 - 10


def test_not_concealed_after_earlier_meld_R_CONC_1():
    """R-CONC-1: a player who melded (or added to partner's melds) earlier in the deal does not go
    out concealed: 100 only."""
    state = _pos(SEVEN_FOURS + " KS KH KD 9C", melds="melds NS: QS QH QD", before="melded-before: S")
    _meld_fours(state)
    ok(state, ("meld", KING, 3, 0, 0))
    ok(state, ("discard", NINE))
    res = state.hand_results[-1]
    assert not res.concealed
    assert res.sides[0].going_out == 100 and res.sides[0].concealed == 0


def test_concealed_from_stock_needs_no_minimum_R_CONC_2():
    """R-CONC-2: if the partner has not made the initial meld, a player going out concealed after
    drawing from the stock need not reach the minimum (here 50 of 90)."""
    state = _pos(SEVEN_FOURS + " 5S 5H 5D", ns=1500)
    assert state.minimums[0] == 90
    _meld_fours(state)
    ok(state, ("meld", FIVE, 3, 0, 0))
    assert state.phase == "hand_over"
    res = state.hand_results[-1]
    assert res.concealed and res.sides[0].concealed == 100


def test_concealed_after_taking_pack_needs_minimum_R_CONC_2():
    """R-CONC-2: going out concealed after taking the pack, the minimum must be reached: 4s and 5s
    count 50, short of 90, so the pack can't be taken."""
    state = _pos(SEVEN_FOURS + " 5S 5H", phase="draw", ns=1500, pile="9D 5C")
    refuse(state, ("take", FIVE, 2, 0, 0), ("R-PACK-5", "R-CONC-2", "R-MIN-1"), "90")


def test_concealed_after_taking_pack_with_minimum_R_CONC_2():
    """R-CONC-2: with the minimum reached (50 with a total of 0) the pack may be taken and the player
    goes out concealed."""
    state = _pos(SEVEN_FOURS + " 5S 5H", phase="draw", ns=0, pile="9D 5C")
    _meld_fours(state)  # shown before taking: 35
    ok(state, ("take", FIVE, 2, 0, 0))  # + 15 = 50
    ok(state, ("discard", NINE))
    res = state.hand_results[-1]
    assert res.went_out == "S" and res.concealed
    assert res.sides[0].going_out + res.sides[0].concealed == 200


def test_concealed_going_out_by_melding_everything_R_CONC_1_R_CONC_3():
    """R-CONC-1, R-CONC-3: going out concealed with no discard at all: bonus 200 in all."""
    state = _pos(SEVEN_FOURS + " KS KH KD", melds="melds NS: QS QH QD")
    _meld_fours(state)
    ok(state, ("meld", KING, 3, 0, 0))
    res = state.hand_results[-1]
    assert res.went_out == "S" and res.concealed
    ns = res.sides[0]
    assert ns.going_out == 100 and ns.concealed == 100
    assert ns.total == 500 + 35 + 30 + 30 + 200 - 10  # N still holds 6S 6H
