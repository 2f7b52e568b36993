"""Rule tests: the turn (R-TURN-*)."""

from __future__ import annotations

from helpers_rules import FIVE, KING, NINE, QUEEN, SEVEN, P, ok, refuse

from canasta_tutor import Game
from canasta_tutor.engine.cards import CARD_CODE

BASIC = """
    dealer: E
    turn: S draw
    totals: NS -100 EW 0
    pile: 9D
    N: 11
    E: 11
    S: 5C 6C 7C 8C TS TH KS KH KD AS AH
    W: 11
"""


def test_first_turn_is_left_of_dealer_then_clockwise_R_TURN_1():
    """R-TURN-1: the player on the dealer's left plays first, then the turn passes to the left."""
    for dealer, first in (("E", "S"), ("S", "W"), ("W", "N"), ("N", "E")):
        state = Game().new_initial_state(seed=4, dealer=dealer)
        assert state.current_seat == first
    state = Game().new_initial_state(seed=4, dealer="E")
    seats = [state.current_seat]
    for _ in range(7):
        ok(state, ("draw",))
        discard = next(a for a in state.legal_actions() if a[0] == "discard")
        ok(state, discard)
        if state.phase != "draw":
            break
        seats.append(state.current_seat)
    order = "SWNE" * 2
    assert "".join(seats) == order[: len(seats)]


def test_draw_then_meld_then_discard_R_TURN_2():
    """R-TURN-2: a turn is draw, meld, discard in that order; the discard ends the turn."""
    state = P(BASIC)
    refuse(state, ("discard", FIVE), "R-TURN-2")
    refuse(state, ("meld", KING, 3, 0, 0), "R-TURN-2", "draw")
    ok(state, ("draw",))
    assert state.phase == "meld" and state.current_seat == "S"
    refuse(state, ("draw",), "R-TURN-2", "already")
    ok(state, ("meld", KING, 3, 0, 0))
    refuse(state, ("take", NINE, 2, 0, 0), "R-TURN-2")
    ok(state, ("discard", FIVE))
    assert state.current_seat == "W" and state.phase == "draw"


def test_discard_only_from_hand_R_TURN_2():
    """R-TURN-2: the discard comes from the hand, never from a meld: a kind not held can't be
    discarded even when the side has it on the table."""
    state = P(BASIC.replace("turn: S draw", "turn: S meld") + "    melds NS: QH QS QD\n")
    refuse(state, ("discard", QUEEN), "R-TURN-2", "queen")


def test_single_pile_every_discard_on_top_R_TURN_3():
    """R-TURN-3: one discard pile; every discard goes on top, over the upcard."""
    state = P(BASIC)
    ok(state, ("draw",))
    ok(state, ("discard", SEVEN))
    assert [CARD_CODE[c] for c in state.pile] == ["9D", "7C"]
    ok(state, ("draw",))
    w_card = next(a for a in state.legal_actions() if a[0] == "discard")
    ok(state, w_card)
    assert len(state.pile) == 3 and CARD_CODE[state.pile[0]] == "9D" and CARD_CODE[state.pile[1]] == "7C"
