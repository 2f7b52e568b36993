"""Rule tests: freezing the pile (R-FRZ-*), including option black_three."""

from __future__ import annotations

import pytest
from helpers_rules import (
    BLACK_THREE, DEUCE, FIVE, FOUR, NINE, P, ok, refuse,
)

from canasta_tutor import ImpossiblePositionError
from canasta_tutor.notation.position import format_position


def _pile_line(state):
    return next(ln for ln in format_position(state).splitlines() if ln.startswith("pile:"))


POS = """
    {options}
    dealer: E
    turn: {turn}
    totals: NS 0 EW 0
    pile: {pile}
    N: 9C 9C JK 5S 6S 7S 8S TS JS QS 4H
    E: 9H AH JK 5H 6H 7H 8H TH JH QH 4C
    S: 9S 9D 2S 5D 6D 7D 8D TD JD QD 4D
    W: 9S 9D 2S 5C 6C 7C 8C TC JC QC 4S
    {melds}
"""


def _pos(pile="4S 9H", turn="S draw", melds="", options=""):
    return P(POS.format(pile=pile, turn=turn, melds=melds, options=options))


def test_frozen_against_side_without_initial_meld_R_FRZ_1():
    """R-FRZ-1: until a side has its initial meld the pile is frozen against it (only a natural pair
    takes it); the other side, with its meld down, may take it with one natural and a wild card."""
    state = _pos(melds="melds EW: KS KH KD")
    assert state.frozen_for(0) and not state.frozen_for(1)
    refuse(state, ("take", NINE, 1, 0, 1), "R-PACK-4", "natural pair")


def test_initial_meld_unfreezes_for_both_partners_R_FRZ_1():
    """R-FRZ-1: the initial meld unfreezes the pile for both partners of the side."""
    state = _pos(turn="N draw", melds="melds NS: KS KH KD\n    melded-before: S")
    assert not state.frozen_for(0)
    ok(state, ("take", NINE, 1, 1, 0))  # N, who has not melded, uses way (b)
    assert state.meld_summary(0)[NINE] == (2, 1)


def test_wild_discard_freezes_for_everyone_R_FRZ_2():
    """R-FRZ-2: a wild card discarded onto the pile freezes it for both sides; it is marked."""
    state = _pos(turn="S meld", melds="melds NS: KS KH KD\n    melds EW: QS QH QD")
    assert not state.frozen_for(0) and not state.frozen_for(1)
    ok(state, ("discard", DEUCE))
    assert state.frozen_for(0) and state.frozen_for(1)
    assert "2S*" in _pile_line(state)
    ok(state, ("draw",))
    ok(state, ("discard", NINE))  # W covers the deuce with a natural nine
    assert state.frozen_for(0)
    # N holds 9 9 JK: the frozen pile needs the natural pair
    ok(state, ("draw",))
    ok(state, ("discard", FOUR))
    assert state.current_seat == "E" and state.frozen_for(1)
    refuse(state, ("take", FOUR, 1, 1, 0), "R-PACK-4", "natural pair")


def test_black_three_discard_freezes_by_default_R_FRZ_3():
    """R-FRZ-3 (black_three=freezes): a discarded black three freezes the pile for everyone; once
    covered, only a natural pair takes it."""
    state = _pos(pile="4S 3C 9H", melds="melds NS: KS KH KD")
    assert state.frozen_for(0) and state.frozen_for(1)
    assert "3C*" in _pile_line(state)
    refuse(state, ("take", NINE, 1, 0, 1), "R-PACK-4", "natural pair")
    ok(state, ("take", NINE, 2, 0, 0))


def test_black_three_stops_only_until_covered_R_FRZ_3():
    """R-FRZ-3 (black_three=stops): a black three only blocks the pile until covered; then the
    pile can be taken in all the ways of R-PACK-2."""
    state = _pos(pile="4S 3C 9H", melds="melds NS: KS KH KD", options="options: black_three=stops")
    assert not state.frozen_for(0)
    assert "*" not in _pile_line(state)
    ok(state, ("take", NINE, 1, 0, 1))
    blocked = _pos(pile="4S 9H 3C", melds="melds NS: KS KH KD", options="options: black_three=stops")
    refuse(blocked, ("take", BLACK_THREE, 2, 0, 0), "R-PACK-3")


def test_black_three_discard_with_stops_does_not_freeze_R_FRZ_3():
    """R-FRZ-3 (black_three=stops): discarding a black three does not freeze the pile."""
    text = POS.format(pile="4S 9H", turn="S meld", melds="melds NS: KS KH KD\n    melds EW: QS QH QD",
                      options="options: black_three=stops").replace("S: 9S 9D 2S", "S: 9S 3S 2S")
    state = P(text)
    ok(state, ("discard", BLACK_THREE))
    assert not state.frozen_for(1)
    text = text.replace("options: black_three=stops", "")
    state = P(text)
    ok(state, ("discard", BLACK_THREE))
    assert state.frozen_for(1) and state.frozen_for(0)


def test_frozen_until_taken_then_new_pile_unfrozen_R_FRZ_4():
    """R-FRZ-4: a pile frozen for everyone stays frozen however many cards are discarded on it, until
    taken; the next discard starts a new, unfrozen pile."""
    state = _pos(pile="4S JK 5C 6C 7C 8C TC 9H", melds="melds NS: KS KH KD\n    melds EW: QS QH QD")
    assert state.frozen_for(0) and state.frozen_for(1)
    assert "JK*" in _pile_line(state)
    ok(state, ("take", NINE, 2, 0, 0))
    assert state.pile == [] and not state.frozen_for(0) and not state.frozen_for(1)
    ok(state, ("discard", FIVE))
    assert not state.frozen_for(1) and "*" not in _pile_line(state)


def test_new_pile_frozen_when_first_discard_freezes_R_FRZ_4():
    """R-FRZ-4: the new pile starts frozen if the discard that begins it freezes it."""
    state = _pos(pile="4S JK 9H", melds="melds NS: KS KH KD\n    melds EW: QS QH QD")
    ok(state, ("take", NINE, 2, 0, 0))
    ok(state, ("discard", DEUCE))
    assert state.frozen_for(1) and "2S*" in _pile_line(state)


def test_lowest_freezing_card_is_marked_crosswise_R_FRZ_5():
    """R-FRZ-5: the lowest freezing card in the pile is the one shown crosswise."""
    state = _pos(pile="4S 2C 8D JK 7H", melds="melds NS: KS KH KD")
    assert _pile_line(state) == "pile: 4S 2C* 8D JK 7H"
    with pytest.raises(ImpossiblePositionError) as info:
        _pos(pile="4S 2C 8D JK* 7H")
    assert "2C" in str(info.value) and info.value.field == "pile"
    with pytest.raises(ImpossiblePositionError):
        _pos(pile="4S 8D* 7H")
