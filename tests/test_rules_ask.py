"""Rule tests: "Partner, may I go out?" (R-ASK-*) and ruling 5."""

from __future__ import annotations

from helpers_rules import FIVE, KING, NINE, P, ok, refuse

POS = """
    dealer: E
    turn: S {phase}
    totals: NS 0 EW 0
    pile: 4S 9D
    N: 5C 6C 7C
    E: 11
    S: {s}
    W: 11
    melds NS: {melds}
    melded-before: S N
"""
CANASTA = "KS KH KD; QS QH QD QC QS QH QD (natural canasta)"


def _pos(s="5S 5H 5D", phase="draw", melds=CANASTA):
    return P(POS.format(s=s, phase=phase, melds=melds))


def test_ask_before_or_after_drawing_when_able_to_go_out_R_ASK_1():
    """R-ASK-1: a player who can go out may ask before drawing or after drawing."""
    before = _pos()
    assert ("ask",) in before.legal_actions()
    ok(before, ("ask",))
    assert before.phase == "answer" and before.current_seat == "N"
    after = _pos(s="5S 5H 5D 8C", phase="meld")
    assert ("ask",) in after.legal_actions()
    ok(after, ("ask",))
    assert after.current_seat == "N"


def test_ask_only_when_able_to_go_out_R_ASK_1():
    """R-ASK-1 (ruling 5): the question is offered only to a player who could go out this turn."""
    state = _pos(melds="KS KH KD")  # no canasta: can't go out
    refuse(state, ("ask",), "R-ASK-1", "go out")
    state = _pos(s="5S 5H 6D 8C", phase="meld")  # can't meld the whole hand with one discard
    refuse(state, ("ask",), "R-ASK-1")


def test_partner_answers_yes_or_no_R_ASK_2():
    """R-ASK-2: the partner must answer plainly yes or no; nothing else is allowed meanwhile."""
    state = _pos()
    ok(state, ("ask",))
    assert sorted(state.legal_actions()) == [("no",), ("yes",)]
    refuse(state, ("draw",), "R-ASK-2", "answer")
    refuse(state, ("discard", FIVE), "R-ASK-2")
    fresh = _pos()
    refuse(fresh, ("yes",), "R-ASK-2", "asked")
    refuse(fresh, ("no",), "R-ASK-2")


def test_yes_binds_to_go_out_R_ASK_3():
    """R-ASK-3: after "yes" the player must go out in this turn."""
    state = _pos()
    play = [("ask",), ("yes",), ("draw",)]
    for a in play:
        ok(state, a)
    assert state.current_seat == "S" and state.phase == "meld"
    refuse(state, ("discard", FIVE), "R-ASK-3", "yes")
    ok(state, ("meld", FIVE, 3, 0, 0))
    last = next(a for a in state.legal_actions() if a[0] == "discard")
    ok(state, last)
    assert state.phase == "hand_over" and state.hand_results[-1].went_out == "S"


def test_no_forbids_going_out_R_ASK_3():
    """R-ASK-3: after "no" the player may not go out in this turn."""
    state = _pos(s="5S 5H 5D 8C", phase="meld")
    ok(state, ("ask",))
    ok(state, ("no",))
    assert state.current_seat == "S" and state.phase == "meld"
    refuse(state, ("meld", FIVE, 3, 0, 0), "R-ASK-3", "no")
    ok(state, ("discard", FIVE))
    assert state.current_seat == "W"


def test_no_answer_forbids_last_discard_R_ASK_3():
    """R-ASK-3: after "no", discarding the last card (going out) is refused too."""
    state = _pos(s="5S", phase="meld")
    ok(state, ("ask",))
    ok(state, ("no",))
    refuse(state, ("discard", FIVE), "R-ASK-3", "no")


def test_ask_only_once_R_ASK_3():
    """R-ASK-3: the answer binds for the turn; the player can't ask again for another answer."""
    state = _pos()
    ok(state, ("ask",))
    ok(state, ("no",))
    ok(state, ("draw",))
    refuse(state, ("ask",), "R-ASK-3", "already")


def test_no_asking_after_melding_R_ASK_4():
    """R-ASK-4: a player may not ask after melding any card in the turn."""
    state = _pos(s="5S 5H 5D 8C KC", phase="meld")
    assert ("ask",) in state.legal_actions()
    ok(state, ("add", KING, KING))
    refuse(state, ("ask",), "R-ASK-4", "meld")


def test_no_asking_after_taking_the_pack_R_ASK_4():
    """R-ASK-4: a player may not ask after taking the pack."""
    state = _pos(s="5S 5H 9S 9C", melds=CANASTA)
    ok(state, ("take", NINE, 2, 0, 0))
    refuse(state, ("ask",), "R-ASK-4", "pack")


def test_no_asking_after_showing_melds_to_take_R_ASK_4():
    """R-ASK-4: showing a pair or melds to take the pack is showing intent: no asking after."""
    state = P("""
        dealer: E
        turn: S draw
        totals: NS 0 EW 0
        pile: 4S 9D
        N: 11
        E: 11
        S: 9S 9C AS AH AD 5C 6C 7C 8C TC 4C
        W: 11
    """)
    ok(state, ("meld", 10, 3, 0, 0))  # show three aces
    refuse(state, ("ask",), "R-ASK-4", "show")


def test_drawing_does_not_stop_asking_R_ASK_4():
    """R-ASK-4 (ruling 5): drawing from the stock does not stop a player from asking."""
    state = _pos()
    ok(state, ("draw",))
    assert ("ask",) in state.legal_actions()


def test_go_out_without_asking_R_ASK_5():
    """R-ASK-5: asking is never required: a player may go out without asking."""
    state = _pos()
    ok(state, ("draw",))
    ok(state, ("meld", FIVE, 3, 0, 0))
    last = next(a for a in state.legal_actions() if a[0] == "discard")
    ok(state, last)
    assert state.phase == "hand_over"
    assert ("ask",) not in state.history
