"""Rule tests: canastas (R-CAN-*) and the crosswise sixth card (R-INFO-4)."""

from __future__ import annotations

from helpers_rules import DEUCE, EIGHT, JOKER, QUEEN, P, ok

BASE = """
    dealer: E
    turn: S meld
    totals: NS 0 EW 0
    pile: 9D
    N: 4S
    E: 4H
    S: {s}
    W: 4C
    melds NS: {melds}
    melded-before: S N
"""


def _pos(s="5S 5H 6C", melds="QS QH QD"):
    return P(BASE.format(s=s, melds=melds))


def test_canasta_is_seven_cards_with_four_naturals_R_CAN_1():
    """R-CAN-1: a canasta is a meld of seven or more cards with at least four naturals (its base)."""
    six = _pos(melds="QS QH QD QC JK 2S")
    assert not six.side_has_canasta(0)
    seven = _pos(melds="QS QH QD QC JK 2S 2H")
    assert seven.side_has_canasta(0)
    res = seven.score_hand().sides[0]
    assert res.mixed_canastas == 1
    assert _pos(melds="QS QH QD QC QS QH QD").score_hand().sides[0].natural_canastas == 1


def test_meld_grows_into_canasta_at_seven_R_CAN_1():
    """R-CAN-1: the seventh card makes the meld a canasta (counted in the score)."""
    state = _pos(s="QC 5S 5H", melds="QS QH QD QC QS QH")
    assert state.score_hand().sides[0].natural_canastas == 0
    ok(state, ("add", QUEEN, QUEEN))
    assert state.side_has_canasta(0)
    assert state.score_hand().sides[0].natural_canastas == 1


def test_natural_500_mixed_300_plus_card_values_R_CAN_2():
    """R-CAN-2: a natural canasta earns 500, a mixed one 300, on top of the cards' values."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 0 EW 0
        pile: 9D
        N: 4S
        E: 4H
        S: 5S
        W: 4C
        melds NS: QS QH QD QC QS QH QD; 8S 8H 8D 8C JK 2S 2H
    """)
    res = state.score_hand().sides[0]
    assert res.natural_canastas == 1 and res.mixed_canastas == 1
    assert res.melded == 70 + 40 + 50 + 40
    assert res.total == 500 + 300 + 70 + 130 - 10


def test_adding_to_canasta_scores_cards_not_bonus_R_CAN_3():
    """R-CAN-3: cards may be added to a finished canasta; each scores its value, the bonus stays."""
    state = _pos(s="QC KS 5S 5H", melds="QS QH QD QC QS QH QD")
    before = state.score_hand().sides[0]
    ok(state, ("add", QUEEN, QUEEN))
    after = state.score_hand().sides[0]
    assert after.natural_canastas == 1
    assert after.melded == before.melded + 10


def test_wild_card_makes_natural_canasta_mixed_R_CAN_3():
    """R-CAN-3: a wild card added to a natural canasta makes it mixed: 500 drops to 300."""
    state = _pos(s="JK 5S 5H", melds="QS QH QD QC QS QH QD")
    assert state.score_hand().sides[0].natural_canastas == 1
    ok(state, ("add", QUEEN, JOKER))
    res = state.score_hand().sides[0]
    assert res.natural_canastas == 0 and res.mixed_canastas == 1
    assert res.melded == 70 + 50


RED = set("HD")
BLACK = set("SC")


def test_natural_canasta_shows_red_card_mixed_black_R_CAN_4():
    """R-CAN-4: a natural canasta shows a red card on top, a mixed canasta a black card; when a natural
    canasta becomes mixed, a black card goes on top."""
    state = _pos(s="2C 5S 5H", melds="QS QH QD QC QS QH QD")
    top = state.canasta_top(0, QUEEN)
    assert top is not None and top[1] in RED
    ok(state, ("add", QUEEN, DEUCE))
    top = state.canasta_top(0, QUEEN)
    assert top is not None and top[1] in BLACK
    mixed = _pos(melds="8H 8D 8C 8S JK 2S 2H")
    assert mixed.canasta_top(0, EIGHT)[1] in BLACK
    assert _pos(melds="8H 8D 8C 8S JK 2S").canasta_top(0, EIGHT) is None


def test_crosswise_sixth_card_one_short_R_INFO_4():
    """R-INFO-4: a meld of six cards, one short of a canasta, may be shown with its sixth card
    crosswise; five or seven cards are not."""
    assert _pos(melds="QS QH QD QC JK 2S").one_short(0, QUEEN)
    assert _pos(melds="QS QH QD QC QS QH").one_short(0, QUEEN)
    assert not _pos(melds="QS QH QD QC QS").one_short(0, QUEEN)
    assert not _pos(melds="QS QH QD QC QS QH QD").one_short(0, QUEEN)
    state = _pos(s="QC 5S 5H", melds="QS QH QD QC QS")
    ok(state, ("add", QUEEN, QUEEN))
    assert state.one_short(0, QUEEN)
    assert not state.one_short(1, QUEEN)
