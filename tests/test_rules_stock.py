"""Rule tests: when the stock runs out (R-STOCK-*)."""

from __future__ import annotations

from helpers_rules import EIGHT, KING, SEVEN, full, ok, refuse

from canasta_tutor.engine.cards import CARD_CODE

BASE = """
    dealer: E
    turn: S draw
    totals: NS 0 EW 0
    pile: 4S 9H
    N: 5S 5H 6S 6H 8S 8H TS TH JS JH QS
    S: 7C KS KH KD 5D 6D 8D TD JD QD AS
    W: {w}
    melds NS: KC KC KD
    {melds_ew}
    red threes NS: 3H
    red threes EW: 3H 3D
"""


def _pos(stock, w="7S 7H 4C AD AC 9C 9D JC QC 5C 6C", melds_ew="melds EW: 7D 7D 7C", extra_red="3D"):
    text = BASE.format(w=w, melds_ew=melds_ew)
    stock = stock.split()
    if extra_red and extra_red not in stock:
        text = text.replace("red threes NS: 3H", f"red threes NS: 3H {extra_red}")
    return full(text, stock, filler="E")


def test_last_stock_card_red_three_ends_play_R_STOCK_1():
    """R-STOCK-1: when the stock's last card is a red three, the drawer lays it out (it scores) and
    play ends at once: no meld, no discard."""
    state = _pos("3D")
    assert len(state.stock) == 1
    state.apply(("draw",))
    assert state.phase == "hand_over"
    assert sorted(CARD_CODE[c] for c in state.red3[0]) == ["3D", "3H"]
    res = state.hand_results[-1]
    assert res.went_out is None
    assert res.sides[0].red_threes == 200
    refuse(state, ("discard", SEVEN), "R-OUT-4")
    refuse(state, ("meld", KING, 3, 0, 0), "R-OUT-4")


def test_play_goes_on_after_last_card_drawn_R_STOCK_2():
    """R-STOCK-2: when the last stock card is not a red three, the drawer plays the turn as usual."""
    state = _pos("8C")
    ok(state, ("draw",))
    assert state.stock == [] and state.phase == "meld"
    ok(state, ("add", KING, KING))  # the drawer still melds ...
    ok(state, ("discard", EIGHT))  # ... and discards
    # W holds no eight and EW have no meld of eights: W cannot take, so play ends (R-STOCK-3)
    assert state.phase == "hand_over" and len(state.hand_results) == 1


def test_forced_take_when_top_card_fits_a_meld_R_STOCK_2():
    """R-STOCK-2: with the stock empty a player must take the pile when its top card can be added to
    a meld of their side and the pile is not frozen: no drawing, no declining."""
    state = _pos("8C")
    ok(state, ("draw",))
    ok(state, ("discard", SEVEN))  # 7C onto an unfrozen pile; EW have a meld of sevens
    assert state.current_seat == "W" and state.phase == "draw"
    refuse(state, ("draw",), "R-STOCK-2", "stock is empty")
    refuse(state, ("pass",), "R-STOCK-2", "must take")
    # the draw's refusal never offers declining, which is refused too here
    assert "decline it" not in state.explain(("draw",)).reason
    assert "may not decline the pack" in state.explain(("draw",)).reason
    assert ("take", SEVEN, 0, 0, 0) in state.legal_actions()
    assert ("pass",) not in state.legal_actions()
    ok(state, ("take", SEVEN, 0, 0, 0))
    assert state.meld_summary(1)[SEVEN] == (4, 0)


def test_one_card_hand_not_forced_on_one_card_pile_R_STOCK_2_R_PACK_7():
    """R-STOCK-2, R-PACK-7: a player holding one card is not forced (nor allowed) to take a pile of
    one card; they may decline."""
    text = """
        dealer: E
        turn: W draw
        totals: NS 0 EW 0
        pile: 7C
        N: 5S 5H 6S 6H 8S 8H TS TH JS JH QS
        S: 7S
        W: 7H
        melds NS: KC KC KD
        melds EW: 7D 7D 7C
        red threes NS: 3H 3D
        red threes EW: 3H 3D
    """
    state = full(text, [], filler="E")
    refuse(state, ("take", SEVEN, 0, 0, 0), "R-PACK-7")
    ok(state, ("pass",))
    assert state.phase == "hand_over"


def test_not_forced_to_start_a_new_meld_R_STOCK_3():
    """R-STOCK-3: no player is forced to take the pile to start a new meld with its top card; the
    player may decline ("pass"), and the hand is then scored."""
    state = _pos("8C", melds_ew="melds EW: AH AH AD")
    ok(state, ("draw",))
    ok(state, ("discard", SEVEN))  # W holds 7S 7H but EW have no meld of sevens
    legal = state.legal_actions()
    assert ("pass",) in legal and ("take", SEVEN, 2, 0, 0) in legal
    assert ("draw",) not in legal
    ok(state, ("pass",))
    assert state.phase == "hand_over"
    assert len(state.hand_results) == 1
    assert state.hand_results[-1].went_out is None


def test_play_ends_when_player_cannot_take_R_STOCK_3():
    """R-STOCK-3: with the stock empty, play ends when the player in turn cannot take the pile."""
    state = _pos("8C", w="4C AD AC 9C 9D JC QC 5C 6C TC TC", melds_ew="melds EW: AH AH AD")
    ok(state, ("draw",))
    ok(state, ("discard", SEVEN))
    assert state.phase == "hand_over"
    assert state.hand_results[-1].went_out is None


def test_pass_refused_while_stock_has_cards_R_STOCK_3():
    """R-STOCK-3: declining the pile is only for an empty stock."""
    state = _pos("8C 8C")
    refuse(state, ("pass",), "R-STOCK-3", "stock is empty")
