"""Rule tests: taking the pack (R-PACK-*)."""

from __future__ import annotations

import pytest
from helpers_rules import (
    ACE, BLACK_THREE, DEUCE, EIGHT, FIVE, JACK, JOKER, KING, NINE, RED_THREE, SEVEN, P, ok, refuse,
)


POS = """
    {options}
    dealer: E
    turn: S draw
    totals: NS {ns} EW 0
    pile: {pile}
    N: 11
    E: 11
    S: {s}
    W: 11
    {melds}
"""

S_HAND = "9S 9D JK 5D 6D 7D 8D TD JD QD 4D"


def _pos(pile="4S 5H 9H", s=S_HAND, melds="melds NS: KS KH KD", ns=0, options=""):
    return P(POS.format(pile=pile, s=s, melds=melds, ns=ns, options=options))


def test_take_top_card_to_meld_and_whole_pile_R_PACK_1_R_PACK_6():
    """R-PACK-1, R-PACK-6: the top card is melded at once and the rest of the pile goes into the
    hand; those cards may be melded that turn, and the turn ends with a discard."""
    state = _pos(pile="5S 5C 7H 9H")
    ok(state, ("take", NINE, 2, 0, 0))
    assert state.pile == []
    assert state.meld_summary(0)[NINE] == (3, 0)
    assert state.hand_size[2] == 11 - 2 + 3
    assert state.phase == "meld"
    ok(state, ("meld", FIVE, 3, 0, 0))  # two fives from the pile and one from the hand
    ok(state, ("discard", SEVEN))
    assert state.current_seat == "W"


def test_top_card_must_be_the_melded_kind_R_PACK_1():
    """R-PACK-1: only the top card may be taken to meld; naming another rank is refused."""
    state = _pos()
    refuse(state, ("take", FIVE, 2, 0, 0), "R-PACK-1", "top card", "not a 5")
    refuse(state, ("take", ACE, 2, 0, 0), "R-PACK-1", "not an ace")  # the article read with the name


def test_empty_pile_cannot_be_taken_R_PACK_1():
    """R-PACK-1: there is nothing to take from an empty pile."""
    state = _pos(pile="-")
    refuse(state, ("take", NINE, 2, 0, 0), "R-PACK-1", "empty")


def test_three_ways_to_take_an_unfrozen_pack_R_PACK_2():
    """R-PACK-2: an unfrozen pile is taken (a) with a natural pair, (b) with one natural and a wild
    card, or (c) by adding the top card to the side's meld of that rank."""
    state = _pos()
    legal = state.legal_actions()
    assert ("take", NINE, 2, 0, 0) in legal  # (a)
    assert ("take", NINE, 1, 1, 0) in legal  # (b)
    a = _pos()
    ok(a, ("take", NINE, 2, 0, 0))
    assert a.meld_summary(0)[NINE] == (3, 0)
    b = _pos()
    ok(b, ("take", NINE, 1, 1, 0))
    assert b.meld_summary(0)[NINE] == (2, 1)
    c = _pos(pile="4S 5H KC")
    ok(c, ("take", KING, 0, 0, 0))  # (c)
    assert c.meld_summary(0)[KING] == (4, 0)


def test_way_b_refused_without_pair_or_wild_R_PACK_2():
    """R-PACK-2: without a meld of that rank, one natural alone can't take the pile."""
    state = _pos(s="9S 5S JD 5D 6D 7D 8D TD JD QD 4D")
    refuse(state, ("take", NINE, 1, 0, 0), "R-PACK-2")
    refuse(state, ("take", NINE, 0, 0, 0), "R-PACK-2", "no meld")
    refuse(state, ("take", NINE, 1, 1, 0), "R-PACK-2", "one 9")


def test_pair_goes_onto_existing_meld_R_PACK_2():
    """R-PACK-2: in ways (a) and (b), if the side already has a meld of that rank, the cards go
    onto it: taking the top king with a natural pair of kings adds all three to the meld."""
    state = _pos(pile="4S 5H KC", s="KS KD JK 5D 6D 7D 8D TD JD QD 4D", melds="melds NS: KH KH KD")
    ok(state, ("take", KING, 2, 0, 0))
    assert state.meld_summary(0)[KING] == (6, 0)


def test_wild_card_on_top_blocks_R_PACK_3():
    """R-PACK-3: the pile can't be taken while a wild card lies on top."""
    for top in ("JK", "2C"):
        state = _pos(pile=f"4S 9H {top}")
        assert not any(a[0] == "take" for a in state.legal_actions())
        kind = JOKER if top == "JK" else DEUCE
        refuse(state, ("take", kind, 2, 0, 0), "R-PACK-3", "natural card")
        refuse(state, ("take", NINE, 2, 0, 0), "R-PACK-3")


def test_black_three_on_top_blocks_R_PACK_3():
    """R-PACK-3: a black three on top blocks the pile, under either black_three option."""
    for options in ("", "options: black_three=stops"):
        state = _pos(pile="4S 9H 3C", options=options, s="3S 3C 9D JK 5D 6D 7D 8D TD JD QD")
        refuse(state, ("take", BLACK_THREE, 2, 0, 0), "R-PACK-3")


def test_red_three_on_top_blocks_R_PACK_3():
    """R-PACK-3: a red three on top (left as upcard with upcard_chain=wild_only) blocks the pile."""
    state = _pos(pile="3D", options="options: upcard_chain=wild_only")
    refuse(state, ("take", RED_THREE, 2, 0, 0), "R-PACK-3")
    assert ("draw",) in state.legal_actions()


def test_frozen_pile_only_with_natural_pair_R_PACK_4():
    """R-PACK-4: a pile frozen for everyone is taken only with a natural pair: not with one natural
    and a wild card, nor by adding the top card to a meld."""
    state = _pos(pile="4S 2C 5H 9H", melds="melds NS: KS KH KD; 9C 9C 9H")
    refuse(state, ("take", NINE, 0, 0, 0), "R-PACK-4", "natural pair")
    refuse(state, ("take", NINE, 1, 1, 0), "R-PACK-4", "natural pair")
    ok(state, ("take", NINE, 2, 0, 0))
    assert state.meld_summary(0)[NINE] == (6, 0)


def test_frozen_against_side_only_with_natural_pair_R_PACK_4():
    """R-PACK-4: frozen against a side with no initial meld: only the natural pair of way (a)."""
    state = _pos(melds="", ns=-100)
    refuse(state, ("take", NINE, 1, 1, 0), "R-PACK-4", "natural pair")
    ok(state, ("take", NINE, 2, 0, 0))


def test_show_melds_before_taking_for_initial_meld_R_PACK_5():
    """R-PACK-5: for an initial meld, show the pair plus other melds from the hand needed for the
    minimum before touching the pile; then the pile must be taken."""
    state = _pos(melds="", s="9S 9D AS AH AD 5D 6D 7D 8D TD 4D")
    refuse(state, ("take", NINE, 2, 0, 0), "R-PACK-5", "50")  # 30 alone
    ok(state, ("meld", ACE, 3, 0, 0))  # shown: 60
    refuse(state, ("draw",), "R-PACK-5", "take")
    refuse(state, ("ask",), "R-ASK-4")
    ok(state, ("take", NINE, 2, 0, 0))
    assert state.initial[0]
    assert state.meld_summary(0) == {ACE: (3, 0), NINE: (3, 0)}
    assert state.hand_size[2] == 11 - 5 + 2  # 4S 5H came in


def test_show_of_top_rank_and_hopeless_show_refused_R_PACK_5():
    """R-PACK-5: the matching pair goes down with the top card (not as a separate show), and a show
    that cannot reach the minimum with the top card is refused."""
    state = _pos(melds="", s="9S 9D 9C 5S 5H 5D 6D 7D TD 4D 4C", ns=1500)
    refuse(state, ("meld", NINE, 3, 0, 0), "R-PACK-5")
    refuse(state, ("meld", FIVE, 3, 0, 0), "R-PACK-5", "90")


def test_show_counts_the_take_as_top_card_and_natural_pair_R_PACK_5():
    """R-PACK-5 (with R-FRZ-1, R-OUT-2): a show is weighed with the take it leads to, the top card and the
    natural pair melded together.  With 6H 6C 4S 2H left and the top card a six, the side needing 120 has
    shown 95: six six six makes 110, and six six six with the deuce makes 130 but leaves one card.  The
    show of the fives is refused; no show may leave the turn with no legal move (found by a six-handed
    soak, where the check had let the six pair split to keep a six)."""
    state = _pos(melds="", pile="6S", s="6H 6C 4S 2H 9S 9D 9C JK 5S 5H 5D", ns=3000)
    ok(state, ("meld", NINE, 2, 1, 0))  # shown: 70
    ok(state, ("add", NINE, NINE))  # shown: 80
    refuse(state, ("meld", FIVE, 3, 0, 0), "R-OUT-2", "natural pair")
    for a in state.legal_actions():
        after = state.copy()
        after.apply(a)
        assert after.legal_actions(), f"after {a} no move is legal"


def test_only_shown_cards_and_top_card_count_R_PACK_5_R_MIN_3():
    """R-PACK-5, R-MIN-3: cards in the pile below the top never count toward the minimum."""
    state = _pos(melds="", pile="AS AH KC 9H", s="9S 9D 5D 6D 7D 8D TD JD QD 4D 4C")
    refuse(state, ("take", NINE, 2, 0, 0), "R-PACK-5", "top card")


def test_one_card_hand_cannot_take_one_card_pile_R_PACK_7():
    """R-PACK-7: a player holding one card may not take a pile of one card."""
    state = _pos(pile="KC", s="KS", melds="melds NS: KH KH KD; QS QS QH QH QD QD QC (natural canasta)")
    assert not any(a[0] == "take" for a in state.legal_actions())
    refuse(state, ("take", KING, 0, 0, 0), "R-PACK-7", "one card")
    two = _pos(pile="5C KC", s="KS", melds="melds NS: KH KH KD; QS QS QH QH QD QD QC (natural canasta)")
    ok(two, ("take", KING, 0, 0, 0))


def test_named_pack_checks_share_one_check_R_PACK_4():
    """R-PACK-4: can_take_pack / verify_take_pack / take_pack give the same answer as explain()."""
    from canasta_tutor.engine.errors import IllegalActionError
    from canasta_tutor.notation.position import format_position, parse_position

    s = parse_position("turn: S draw\npile: 5H 7C 8D 2C 9D\nN: 11\nE: 11\n"
                       "S: 9H 4D 5S 6C 7D JS QS KD AH 3S JK\nW: 11\nmelds NS: KH KS KC\n")
    before = format_position(s)
    assert not s.can_take_pack(1, 1, 0)
    with pytest.raises(IllegalActionError) as e:
        s.take_pack(1, 1, 0)
    assert e.value.rule == "R-PACK-4"
    assert str(e.value) == ("You can't take the pack: it is frozen (2♣ inside), so you need a natural pair "
                            "of 9s; you hold one 9 and one joker [R-PACK-4]")
    assert format_position(s) == before
    assert s.explain(("take", 5, 1, 1, 0)).reason == e.value.reason


def test_frozen_take_naming_fewer_than_the_pair_held_says_both_R_PACK_4():
    """R-PACK-4: a frozen pack taken with one jack while the hand holds two is refused with words that
    do not clash ("you need a natural pair; you hold 2 jacks" read as a contradiction): the hand's
    jacks and the cards this take names are both said."""
    s = P("turn: S draw\npile: 5H 2C 9D JD\nN: 11\nE: 11\nS: JH JS 8C 8D 4S 5S 6S 7S 9S 2D KH\nW: 11\n"
          "melds NS: KC KD KS\n")
    err = s.explain(("take", JACK, 1, 0, 0))
    assert err is not None and err.rule == "R-PACK-4"
    assert err.reason.endswith("so you need a natural pair of jacks from your hand (you hold 2 jacks and "
                               "one deuce), and this take uses one jack")
    err = s.explain(("take", JACK, 0, 0, 0))
    assert err is not None and err.reason.endswith("and this take uses none of them")
    # with an 8 on top: one 8 and a deuce named, two 8s and a deuce held
    s = P("turn: S draw\npile: 5H 2C 9D 8H\nN: 11\nE: 11\nS: JH JS 8C 8D 4S 5S 6S 7S 9S 2D KH\nW: 11\n"
          "melds NS: KC KD KS\n")
    err = s.explain(("take", EIGHT, 1, 0, 1))
    assert err is not None and err.rule == "R-PACK-4"
    assert "(you hold 2 8s and one deuce), and this take uses one 8 and one deuce" in err.reason


def test_a_frozen_take_short_of_the_pair_in_hand_still_says_what_is_held_R_PACK_4():
    """R-PACK-4: with one jack in hand the refusal says so, as before."""
    s = P("turn: S draw\npile: 5H 2C 9D JD\nN: 11\nE: 11\nS: JH 8S 8C 8D 4S 5S 6S 7S 9S 2D KH\nW: 11\n"
          "melds NS: KC KD KS\n")
    err = s.explain(("take", JACK, 1, 0, 0))
    assert err is not None and err.reason.endswith("; you hold one jack and one deuce")
