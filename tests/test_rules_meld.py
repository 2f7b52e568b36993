"""Rule tests: melds (R-MELD-*), including option wild_limit."""

from __future__ import annotations

from helpers_rules import (
    ACE, BLACK_THREE, DEUCE, EIGHT, FIVE, JACK, JOKER, KING, NINE, QUEEN, SEVEN, TEN, P, ok, refuse,
)

MELD = """
    dealer: E
    turn: S meld
    totals: NS 0 EW 0
    pile: 9D
    N: 11
    E: 11
    S: KS KH 2S JK 7C 8C 9C 5S 5H 5D TS
    W: 11
    melds NS: QS QH QD
    melds EW: AS AH AD
"""


def test_meld_needs_three_cards_R_MELD_1():
    """R-MELD-1: a meld has at least three cards of one rank; two kings alone are no meld."""
    state = P(MELD)
    refuse(state, ("meld", KING, 2, 0, 0), "R-MELD-1", "three")


def test_one_natural_is_no_meld_R_MELD_1_R_MELD_2():
    """R-MELD-1, R-MELD-2: a single natural card is not a meld (refused by either rule)."""
    state = P(MELD)
    refuse(state, ("meld", TEN, 1, 1, 1), ("R-MELD-1", "R-MELD-2"), "natural")


def test_sequences_are_never_melds_R_MELD_1():
    """R-MELD-1: 7C 8C 9C is a run, not a meld: no action melds it, and none of those ranks can be
    melded from one card."""
    state = P(MELD)
    for a in state.legal_actions():
        if a[0] == "meld":
            assert a[1] not in (SEVEN, EIGHT, NINE)
    refuse(state, ("meld", SEVEN, 1, 0, 0), ("R-MELD-1", "R-MELD-2"))


def test_meld_of_three_of_a_kind_and_with_wild_R_MELD_1_R_MELD_2():
    """R-MELD-1, R-MELD-2: three fives, or two kings and a wild card, are melds."""
    state = P(MELD)
    legal = state.legal_actions()
    assert ("meld", FIVE, 3, 0, 0) in legal
    assert ("meld", KING, 2, 1, 0) in legal and ("meld", KING, 2, 0, 1) in legal
    ok(state, ("meld", KING, 2, 1, 0))
    assert state.meld_summary(0)[KING] == (2, 1)


def test_two_naturals_needed_R_MELD_2():
    """R-MELD-2: every meld needs at least two natural cards."""
    state = P(MELD)
    refuse(state, ("meld", TEN, 1, 1, 1), ("R-MELD-2", "R-MELD-1"), "two natural")


def test_at_most_three_wild_cards_R_MELD_2():
    """R-MELD-2: a meld holds at most three wild cards however long it grows."""
    state = P(MELD.replace("melds NS: QS QH QD", "melds NS: QS QH QD QC QS 2H 2D JK"))
    assert ("add", QUEEN, JOKER) not in state.legal_actions()
    refuse(state, ("add", QUEEN, JOKER), "R-MELD-2", "wild")
    refuse(state, ("add", QUEEN, DEUCE), "R-MELD-2", "wild")


def test_three_wild_cards_allowed_by_default_R_MELD_2():
    """R-MELD-2 (wild_limit=three): a four-card meld may hold two wild cards, and a meld three."""
    state = P(MELD.replace("S: KS KH 2S JK", "S: KS KH 2S JK JK 2H"))
    ok(state, ("meld", KING, 2, 1, 0))
    ok(state, ("add", KING, DEUCE))
    ok(state, ("add", KING, JOKER))
    assert state.meld_summary(0)[KING] == (2, 3)
    refuse(state, ("add", KING, DEUCE), "R-MELD-2")


HALF = "options: wild_limit=half\n" + MELD


def test_half_one_wild_per_two_naturals_R_MELD_2():
    """R-MELD-2 (wild_limit=half): at most one wild card for every two naturals: a four-card meld
    holds only one wild card."""
    state = P(HALF.replace("S: KS KH 2S JK", "S: KS KH 2S JK JK 2H"))
    ok(state, ("meld", KING, 2, 1, 0))
    refuse(state, ("add", KING, DEUCE), "R-MELD-2", "wild")
    refuse(state, ("add", KING, JOKER), "R-MELD-2", "wild")


def test_half_seven_card_canasta_at_most_two_wild_R_MELD_2():
    """R-MELD-2 (wild_limit=half): a seven-card canasta holds at most two wild cards; a third needs
    six naturals; never more than three."""
    state = P(HALF.replace("melds NS: QS QH QD", "melds NS: QS QH QD QC 2H JK")
              .replace("S: KS KH 2S JK", "S: KS KH 2S JK QS QH QD QC"))
    refuse(state, ("add", QUEEN, JOKER), "R-MELD-2")
    ok(state, ("add", QUEEN, QUEEN))
    refuse(state, ("add", QUEEN, DEUCE), "R-MELD-2")
    ok(state, ("add", QUEEN, QUEEN))  # six naturals now
    ok(state, ("add", QUEEN, DEUCE))
    assert state.meld_summary(0)[QUEEN] == (6, 3)
    ok(state, ("add", QUEEN, QUEEN))
    ok(state, ("add", QUEEN, QUEEN))
    refuse(state, ("add", QUEEN, JOKER), "R-MELD-2")  # eight naturals, still three wild at most


def test_half_three_card_meld_one_wild_R_MELD_2():
    """R-MELD-2 (wild_limit=half): a three-card meld of two naturals and one wild card is valid."""
    state = P(HALF)
    assert ("meld", KING, 2, 1, 0) in state.legal_actions()
    refuse(state, ("meld", KING, 1, 1, 1), ("R-MELD-2", "R-MELD-1"))


def test_wild_cards_never_melded_alone_R_MELD_3():
    """R-MELD-3: wild cards never make a meld on their own."""
    state = P(MELD.replace("S: KS KH 2S JK", "S: KS KH 2S JK JK 2H"))
    refuse(state, ("meld", JOKER, 0, 2, 1), "R-MELD-3", "wild")
    refuse(state, ("meld", DEUCE, 0, 1, 2), "R-MELD-3", "wild")
    refuse(state, ("meld", DEUCE, 3, 0, 0), "R-MELD-3")


def test_wild_card_stands_for_the_meld_rank_R_MELD_3():
    """R-MELD-3: a wild card added to a meld stands for a card of that rank (the meld grows)."""
    state = P(MELD)
    ok(state, ("add", QUEEN, JOKER))
    assert state.meld_summary(0)[QUEEN] == (3, 1)
    refuse(state, ("add", QUEEN, KING), "R-MELD-1", "king")


B3 = """
    dealer: E
    turn: S meld
    totals: NS 0 EW 0
    pile: 9D
    N: 11
    E: 11
    S: 3S 3C 3S 9C
    W: 11
    melds NS: QS QH QD QC QS QH QD (natural canasta)
"""


def test_black_threes_only_when_going_out_R_MELD_4():
    """R-MELD-4: black threes are melded only by a player going out in that turn."""
    state = P(B3.replace("S: 3S 3C 3S 9C", "S: 3S 3C 3S 9C 8C"))
    refuse(state, ("meld", BLACK_THREE, 3, 0, 0), "R-MELD-4", "go out")
    # no canasta for the side: never
    state = P(B3.replace("QS QH QD QC QS QH QD (natural canasta)", "QS QH QD"))
    refuse(state, ("meld", BLACK_THREE, 3, 0, 0), ("R-MELD-4", "R-OUT-1"))


def test_black_threes_melded_when_going_out_R_MELD_4_R_OUT_1():
    """R-MELD-4: three black threes may be melded by a player who then goes out (here by discarding)."""
    state = P(B3)
    ok(state, ("meld", BLACK_THREE, 3, 0, 0))
    refuse(state, ("add", QUEEN, QUEEN), ("R-MELD-8", "R-MELD-1", "R-TURN-2"))
    ok(state, ("discard", NINE))
    assert state.phase == "hand_over"
    assert state.hand_results[-1].went_out == "S"
    assert state.hand_results[-1].sides[0].melded == 7 * 10 + 3 * 5


def test_four_black_threes_going_out_by_melding_R_MELD_4_R_OUT_3():
    """R-MELD-4: up to four black threes, no wild card; melding them all goes out."""
    state = P(B3.replace("S: 3S 3C 3S 9C", "S: 3S 3C 3S 3C JK"))
    refuse(state, ("meld", BLACK_THREE, 2, 1, 0), "R-MELD-4", "wild")
    ok(state, ("meld", BLACK_THREE, 3, 0, 0))
    refuse(state, ("add", BLACK_THREE, JOKER), "R-MELD-4")
    ok(state, ("add", BLACK_THREE, BLACK_THREE))
    ok(state, ("add", QUEEN, JOKER))
    assert state.phase == "hand_over"


def test_black_three_otherwise_held_or_discarded_R_MELD_4():
    """R-MELD-4: at other times a black three can only be held or discarded."""
    state = P(B3.replace("S: 3S 3C 3S 9C", "S: 3S 3C 3S 9C 8C"))
    assert ("discard", BLACK_THREE) in state.legal_actions()
    assert not any(a[0] in ("meld", "add") and a[1] == BLACK_THREE for a in state.legal_actions())


def test_black_threes_melded_then_must_go_out_R_MELD_4():
    """R-MELD-4: after melding black threes the player must go out that turn."""
    state = P(B3.replace("S: 3S 3C 3S 9C", "S: 3S 3C 3S QC 8C"))
    ok(state, ("meld", BLACK_THREE, 3, 0, 0))
    refuse(state, ("discard", EIGHT), "R-MELD-4", "go out")
    ok(state, ("add", QUEEN, QUEEN))
    ok(state, ("discard", EIGHT))
    assert state.phase == "hand_over"


def test_cards_in_hand_score_minus_even_if_meldable_R_MELD_5():
    """R-MELD-5: only cards laid on the table score plus; cards in hand score minus even when they
    would make a valid meld."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 0 EW 0
        pile: 9D
        N: KS KH KD
        E: 4C
        S: QC
        W: 4S
        melds NS: QS QH QD QC QS QH QD (natural canasta)
        melded-before: S
    """)
    ok(state, ("add", QUEEN, QUEEN))
    ns = state.hand_results[-1].sides[0]
    assert ns.in_hand == -30
    assert ns.concealed == 0
    assert ns.total == 500 + 80 + 100 - 30


def test_several_melds_and_additions_in_one_turn_R_MELD_6():
    """R-MELD-6: in one turn, any number of new melds and additions, in several ranks."""
    state = P(MELD.replace("S: KS KH 2S JK 7C 8C 9C 5S 5H 5D TS", "S: KS KH 2S JK 7C 8C 9C 5S 5H 5D TS QC"))
    ok(state, ("meld", FIVE, 3, 0, 0))
    ok(state, ("meld", KING, 2, 0, 1))
    ok(state, ("add", QUEEN, QUEEN))
    ok(state, ("add", KING, JOKER))
    summary = state.meld_summary(0)
    assert summary[FIVE] == (3, 0) and summary[KING] == (2, 2) and summary[QUEEN] == (4, 0)
    ok(state, ("discard", SEVEN))


def test_one_meld_per_rank_per_side_R_MELD_7():
    """R-MELD-7: a side has one meld of each rank: more queens go onto it, not a second meld."""
    state = P(MELD.replace("S: KS KH 2S JK", "S: KS KH 2S JK QC QS QH"))
    refuse(state, ("meld", QUEEN, 3, 0, 0), "R-MELD-7", "add")
    refuse(state, ("meld", QUEEN, 2, 1, 0), "R-MELD-7")
    assert ("add", QUEEN, QUEEN) in state.legal_actions()


def test_may_meld_a_rank_the_opponents_have_R_MELD_7():
    """R-MELD-7: a side may meld a rank the opponents have already melded."""
    state = P(MELD.replace("S: KS KH 2S JK", "S: KS KH 2S JK AC AS"))
    ok(state, ("meld", ACE, 2, 1, 0))
    assert ACE in state.meld_summary(0) and ACE in state.meld_summary(1)


def test_partners_melds_are_shared_R_MELD_7_R_MELD_8():
    """R-MELD-7, R-MELD-8: the side's melds belong to both partners: South adds to the meld North
    laid (both in one column), whichever partner laid it."""
    state = P(MELD.replace("S: KS KH 2S JK", "S: KS KH 2S JK QC") + "    melded-before: N\n")
    ok(state, ("add", QUEEN, QUEEN))
    ok(state, ("add", QUEEN, DEUCE))
    assert state.meld_summary(0)[QUEEN] == (4, 1)


def test_never_add_to_opponents_melds_R_MELD_8():
    """R-MELD-8: cards may never be added to the opponents' melds."""
    state = P(MELD.replace("S: KS KH 2S JK", "S: KS KH 2S JK AC"))
    refuse(state, ("add", ACE, ACE), "R-MELD-8", "opponents")
    refuse(state, ("add", ACE, JOKER), "R-MELD-8", "opponents")
    refuse(state, ("add", KING, KING), "R-MELD-8")


def test_addition_must_keep_the_meld_valid_R_MELD_8():
    """R-MELD-8: an addition is allowed only while the meld stays valid (R-MELD-2, R-MELD-3)."""
    state = P(MELD.replace("melds NS: QS QH QD", "melds NS: QS QH 2D JK 2C"))
    refuse(state, ("add", QUEEN, JOKER), "R-MELD-2")
    refuse(state, ("add", QUEEN, KING), "R-MELD-1")


def test_cards_of_two_ranks_are_not_one_meld_R_MELD_1():
    """R-MELD-1: a meld holds one rank.  A selection of two sevens and a jack is not one meld, and the
    engine says so naming the cards (a front end asks before it finds the actions)."""
    state = P(MELD)
    err = state.explain_one_meld([SEVEN, SEVEN, JACK])
    assert err is not None and err.rule == "R-MELD-1"
    assert err.reason == "A meld holds cards of one rank, and these are two 7s and one jack"
    err = state.explain_one_meld([KING, KING, QUEEN, JOKER, DEUCE])
    assert err is not None and err.reason.endswith("one queen, two kings and two wild cards")
    assert state.explain_one_meld([KING, KING, JOKER, DEUCE]) is None
    assert state.explain_one_meld([JOKER, DEUCE]) is None  # wild cards alone: R-MELD-3's own refusal
