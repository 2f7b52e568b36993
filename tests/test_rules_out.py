"""Rule tests: going out (R-OUT-*)."""

from __future__ import annotations

from helpers_rules import FIVE, JOKER, KING, P, ok, refuse

POS = """
    dealer: E
    turn: S meld
    totals: NS 0 EW 0
    pile: 9D
    N: 4S 4H
    E: 11
    S: {s}
    W: 11
    melds NS: {melds}
    melded-before: S N
"""
NO_CANASTA = "KS KH KD"
CANASTA = "KS KH KD; QS QH QD QC QS QH QD (natural canasta)"


def _pos(s, melds=NO_CANASTA):
    return P(POS.format(s=s, melds=melds))


def test_going_out_needs_a_canasta_R_OUT_1():
    """R-OUT-1: a player may part with their last card only if the side has a canasta."""
    # taking the pack with the last two cards would empty the hand with no canasta on the table
    state = P(POS.format(s="KC KC", melds=NO_CANASTA).replace("turn: S meld", "turn: S draw").replace(
        "pile: 9D", "pile: KD"))
    refuse(state, ("take", KING, 2, 0, 0), "R-OUT-1", "canasta")
    ok(state, ("take", KING, 0, 0, 0))
    # nor may the last card but one go down while the side cannot go out
    state = _pos("KC 5S")
    refuse(state, ("add", KING, KING), "R-OUT-2", "go out")


def test_going_out_by_discard_with_canasta_R_OUT_1():
    """R-OUT-1: with a canasta on the table the last card may be discarded to go out."""
    state = _pos("5S", melds=CANASTA)
    ok(state, ("discard", FIVE))
    assert state.phase == "hand_over"
    assert state.hand_results[-1].went_out == "S"
    assert state.hand_results[-1].sides[0].going_out == 100


def test_complete_canasta_and_go_out_same_turn_R_OUT_1():
    """R-OUT-1: a side may complete its first canasta in the going-out turn."""
    state = _pos("KC KC KS 5S", melds="KS KH KD KD")
    ok(state, ("add", KING, KING))
    ok(state, ("add", KING, KING))
    assert not state.side_has_canasta(0)
    ok(state, ("add", KING, KING))  # seven kings: a canasta, one card left
    ok(state, ("discard", FIVE))
    assert state.phase == "hand_over"
    assert state.hand_results[-1].sides[0].natural_canastas == 1


def test_must_keep_a_card_while_side_cannot_go_out_R_OUT_2():
    """R-OUT-2: with no canasta, no meld, addition or discard may leave the hand empty, nor leave a
    single card that would have to be discarded."""
    state = _pos("KC 5S")
    refuse(state, ("add", KING, KING), "R-OUT-2", "one card")
    ok(state, ("discard", FIVE))
    assert state.hand_size[2] == 1


def test_go_out_without_discard_R_OUT_3():
    """R-OUT-3: a player who goes out need not discard: melding every card ends the hand."""
    state = _pos("KC JK", melds=CANASTA)
    ok(state, ("add", KING, KING))
    ok(state, ("add", KING, JOKER))
    assert state.phase == "hand_over"
    assert state.hand_results[-1].went_out == "S"
    assert len(state.pile) == 1  # nothing was discarded


def test_hand_over_after_going_out_R_OUT_4():
    """R-OUT-4: as soon as a player goes out the hand is over: nobody plays again, both sides score."""
    state = _pos("5S", melds=CANASTA)
    ok(state, ("discard", FIVE))
    assert state.phase == "hand_over"
    assert state.legal_actions() == [("deal",)]
    refuse(state, ("draw",), "R-OUT-4", "over")
    refuse(state, ("discard", FIVE), "R-OUT-4")
    res = state.hand_results[-1]
    assert state.totals == [res.sides[0].total, res.sides[1].total]
    assert res.sides[1].total < 0  # EW scored too: their cards in hand count against them


def test_no_dead_end_after_meld_toward_minimum_R_OUT_2_R_MIN_1():
    """R-OUT-2, R-MIN-1: an offered meld must leave the turn finishable.  South (minimum 120, 80 shown
    this turn) holds 4 4 2 7 K 9: melding 4 4 2 brings 110 and adding the king 120, which leaves a card
    to discard and one to keep; discarding at 110 would be short of the minimum.  Every listed action
    must lead to a state that still has a legal action."""
    state = P("""
        dealer: S
        turn: S meld melded pending=80
        totals: NS 4030 EW 3335
        pile: 8H JC 7S 9C 9C 5D 5C 6D
        N: 4H 6S 6C 8D TH JH QS KD AH AD AC
        E: 5H 5H 7H 7D 8H 8D 9H JS QS QD JK
        S: 4D 4C 2H 7C KS 9S
        W: 3S 4S 5S TH TD TD TC QD AD AC 2C
        melds NS: JD JC 2S; KH KD KC KC
        red threes NS: 3D
        red threes EW: 3D
    """)
    assert state.minimums[0] == 120 and not state.initial[0]
    assert state.legal_actions()
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        assert child.phase in ("hand_over", "game_over") or child.legal_actions(), (
            f"{action} leads to a dead end: no legal action")
