"""Rule tests: cards and players (R-CARDS-*)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers_rules import (
    ACE, BLACK_THREE, DEUCE, FOUR, RED_THREE, P,
    refuse,
)

from canasta_tutor import Game
from canasta_tutor.engine.cards import CARD_CODE, CARD_KIND, KIND_VALUES, NUM_CARDS, parse_card
from canasta_tutor.engine.state import SEATS


# ------------------------------------------------------------------ R-CARDS
def test_108_cards_two_decks_four_jokers_R_CARDS_1():
    """R-CARDS-1: two 52-card decks and four jokers, 108 cards, all in play after the deal."""
    assert NUM_CARDS == 108
    codes = Counter(CARD_CODE)
    assert codes["JK"] == 4
    for rank in "23456789TJQKA":
        for suit in "SHDC":
            assert codes[rank + suit] == 2
    state = Game().new_initial_state(seed=11)
    cards = state.cards_everywhere()
    assert sorted(cards) == list(range(108))


def test_four_players_two_fixed_sides_partners_opposite_R_CARDS_1():
    """R-CARDS-1: four seats; N and S are one side, E and W the other (partners face each other).
    Both partners' leftover cards count against their own side (the hand's score as it stands)."""
    state = P("""
        dealer: E
        turn: S draw
        totals: NS 0 EW 0
        pile: 9D
        N: KS
        E: 5S 5C
        S: AS
        W: JK
    """)
    res = state.score_hand().sides
    assert res[0].in_hand == -(10 + 20)  # N's king and S's ace
    assert res[1].in_hand == -(5 + 5 + 50)  # E's fives and W's joker
    assert SEATS == "NESW"


def test_wild_and_natural_cards_R_CARDS_2():
    """R-CARDS-2: jokers and deuces are wild (they join a meld of any natural rank); fours to aces are
    natural; threes are neither (a red three is never melded, a black three only going out)."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 0 EW 0
        pile: 9D
        N: 11
        E: 11
        S: 4S 4H 2C AS AH JK 3S 3C 3S 7C 8D
        W: 11
    """)
    legal = state.legal_actions()
    assert ("meld", FOUR, 2, 0, 1) in legal  # a deuce stands for a four
    assert ("meld", ACE, 2, 1, 0) in legal  # a joker stands for an ace
    refuse(state, ("meld", DEUCE, 0, 1, 2), "R-MELD-3", "wild")
    refuse(state, ("meld", RED_THREE, 3, 0, 0), "R-RED-1")
    refuse(state, ("meld", BLACK_THREE, 3, 0, 0), "R-MELD-4", "black three")
    assert ("discard", BLACK_THREE) in legal


@pytest.mark.parametrize(
    "code,value",
    [("JK", 50), ("2S", 20), ("AH", 20), ("KD", 10), ("QC", 10), ("JS", 10), ("TH", 10), ("9D", 10),
     ("8C", 10), ("7S", 5), ("6H", 5), ("5D", 5), ("4C", 5), ("3S", 5), ("3C", 5), ("3H", 0), ("3D", 0)],
)
def test_card_values_R_CARDS_3(code, value):
    """R-CARDS-3: joker 50, deuce 20, ace 20, K..8 10, 7..4 5, black three 5, red three no count."""
    assert KIND_VALUES[CARD_KIND[parse_card(code)]] == value


def test_card_values_in_the_score_R_CARDS_3():
    """R-CARDS-3: the counts are what a hand scores: each card left in hand costs its value."""
    state = P("""
        dealer: E
        turn: S draw
        totals: NS 0 EW 0
        pile: 9D
        N: JK 2S AH KD 9C 8C
        E: 7S 6H 5D 4C 3S
        S: 3C
        W: 9S
        melds NS: QH QS QD
        melds EW: TH TS TD
    """)
    res = state.score_hand().sides
    assert res[0].in_hand == -(50 + 20 + 20 + 10 + 10 + 10 + 5)
    assert res[1].in_hand == -(5 + 5 + 5 + 5 + 5 + 10)
    assert res[0].melded == 30 and res[1].melded == 30
