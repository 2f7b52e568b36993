"""Rule tests: red threes (R-RED-*)."""

from __future__ import annotations

import pytest
from helpers_rules import FIVE, KING, NINE, RED_THREE, P, ok, refuse

from canasta_tutor import Game
from canasta_tutor.engine.cards import CARD_CODE, CARD_KIND


def _codes(cards):
    return sorted(CARD_CODE[c] for c in cards)


# North dealt, so East plays first; South, West and North still wait for their first turn.
FIRST_TURN = """
    dealer: N
    turn: E meld
    totals: NS 0 EW 0
    pile: 9D
    first-turn: S W N
    N: 4S 4H 4D 5S 5H 5D 6S 6H 6D 7S 7H
    S: 3H 8S 8H 8D 9S 9H TS TH TD JS JH
    E: KS KH KD QS QH QD AS AH AD 5C 6C
    W: 11
    red threes EW: 3H
"""


def test_dealt_red_three_laid_and_replaced_at_first_turn_R_RED_1():
    """R-RED-1: a dealt red three is laid out at the player's first turn and replaced from the
    stock; a replacement that is again a red three is laid out and replaced too."""
    state = P(FIRST_TURN + "    stock: 62 top 3D 3D 7C 4C\n")
    assert state.hand_counts("S")[RED_THREE] == 1
    ok(state, ("discard", FIVE))  # E ends the turn; South's first turn starts
    assert state.current_seat == "S" and state.phase == "draw"
    assert _codes(state.red3[0]) == ["3D", "3D", "3H"]
    assert state.hand_counts("S")[RED_THREE] == 0
    assert "7C" in state.hand("S") and state.hand_size[2] == 11
    assert CARD_CODE[state.stock[-1]] == "4C" and len(state.stock) == 59
    assert sorted(state.cards_everywhere()) == list(range(108))


@pytest.mark.parametrize("seed", range(200))
def test_red_threes_never_in_hand_after_first_turn_R_RED_1(seed):
    """R-RED-1: after the deal the first player holds no red three (laid out, replaced, hand of 11)."""
    state = Game().new_initial_state(seed=seed)
    first = state.actor
    assert state.hand_counts(first)[RED_THREE] == 0
    assert state.hand_size[first] == 11


def test_first_player_red_three_found_by_scan_R_RED_1():
    """R-RED-1: in some deal the first player was dealt red threes: they lie before the side."""
    for seed in range(400):
        state = Game().new_initial_state(seed=seed)
        if state.red3[0] and CARD_KIND[state.pile[0]] != RED_THREE:
            assert state.hand_size[2] == 11
            assert all(CARD_KIND[c] == RED_THREE for c in state.red3[0])
            return
    pytest.fail("no deal with a red three for South")


def test_red_three_drawn_is_laid_and_replaced_R_RED_2():
    """R-RED-2: a red three drawn from the stock is laid out at once and replaced."""
    text = FIRST_TURN.replace("turn: E meld", "turn: S draw").replace("first-turn: S W N\n", "").replace(
        "S: 3H 8S", "S: 4C 8S")
    state = P(text + "    stock: 62 top 3D 3D 7C 3H\n")
    ok(state, ("draw",))
    assert _codes(state.red3[0]) == ["3D", "3D"]
    assert "7C" in state.hand("S")
    assert state.hand_size[2] == 12 and state.phase == "meld"


def test_red_three_in_taken_pile_laid_without_replacement_R_RED_3():
    """R-RED-3: a red three inside a taken pile (here turned up in the upcard chain) is laid out
    before the side with no replacement from the stock."""
    state = P("""
        dealer: E
        turn: S draw
        totals: NS -100 EW 0
        pile: 3H* 9D 9S
        N: 11
        E: 11
        S: 9H 9C KS KH KD 4S 5S 6S 7S 8S TS
        W: 11
    """)
    stock = [CARD_CODE[c] for c in state.stock]
    ok(state, ("take", NINE, 2, 0, 0))
    assert _codes(state.red3[0]) == ["3H"]
    assert [CARD_CODE[c] for c in state.stock] == stock
    assert state.hand_counts("S")[RED_THREE] == 0
    assert state.hand_size[2] == 11 - 2 + 1  # the 9D came into the hand, the 3H did not
    assert state.meld_summary(0)[NINE] == (3, 0)


def _score_position(reds_ns: str, melds_ns: str) -> str:
    return f"""
        dealer: E
        turn: S draw
        totals: NS 0 EW 0
        pile: 9D
        N: 4S
        E: 4H
        S: 4D
        W: 4C
        {melds_ns}
        {reds_ns}
    """


@pytest.mark.parametrize("reds,value", [("3H", 100), ("3H 3D", 200), ("3H 3D 3H", 300), ("3H 3D 3H 3D", 800)])
def test_red_three_bonus_and_all_four_800_R_RED_4(reds, value):
    """R-RED-4: each red three is 100; a side with all four scores 800."""
    state = P(_score_position(f"red threes NS: {reds}", "melds NS: KS KH KD"))
    res = state.score_hand().sides[0]
    assert res.red_threes == value
    assert res.total == value + 30 - 10


@pytest.mark.parametrize("reds,value", [("3H", -100), ("3H 3D", -200), ("3H 3D 3H 3D", -800)])
def test_red_threes_count_against_a_side_without_meld_R_RED_5(reds, value):
    """R-RED-5: a side that made no meld has its red threes taken off (two cost 200, four 800)."""
    state = P(_score_position(f"red threes NS: {reds}", ""))
    res = state.score_hand().sides[0]
    assert res.red_threes == value
    assert res.total == value - 10


def test_red_threes_settled_at_hand_end_R_RED_5():
    """R-RED-5: the red threes are settled when the hand ends: a side that melded gets them added."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 0 EW 0
        pile: 9D
        N: 5S 5H
        E: 4H
        S: KS
        W: 4C
        melds NS: QS QH QD QC QS QH QD (natural canasta); KH KD KC
        red threes NS: 3H 3D
        red threes EW: 3H
    """)
    ok(state, ("add", KING, KING))
    assert state.phase == "hand_over"
    ns, ew = state.hand_results[-1].sides
    assert ns.red_threes == 200 and ew.red_threes == -100
    assert state.totals == [ns.total, ew.total]
    refuse(state, ("meld", RED_THREE, 3, 0, 0), "R-OUT-4")


def test_a_red_three_is_never_discarded_R_RED_1():
    """R-RED-1: red threes are laid out, never held: discarding one is refused under the red-three
    rule, not as a card the hand happens to lack (R-TURN-2)."""
    state = P(FIRST_TURN + "    stock: 62 top 3D 7C 4C\n")
    ok(state, ("discard", FIVE))
    ok(state, ("draw",))
    refuse(state, ("discard", RED_THREE), "R-RED-1", "never discarded")
