"""Rule tests: the draw for partners and seats (R-SEAT-*)."""

from __future__ import annotations

import random

import pytest

from canasta_tutor import Game
from canasta_tutor.engine.game import draw_for_seats
from canasta_tutor.engine.state import SEATS

_RANK = "23456789TJQKA"
_SUIT_ORDER = "CDHS"  # lowest to highest


def _draw_value(code: str) -> tuple[int, int]:
    return (_RANK.index(code[0]), _SUIT_ORDER.index(code[1]))


@pytest.mark.parametrize("seed", range(40))
def test_seat_draw_ranks_ace_high_then_suits_R_SEAT_1_R_SEAT_3(seed):
    """R-SEAT-1, R-SEAT-3: ace high to two low, ties by suit spades > hearts > diamonds > clubs;
    highest sits South, second North (partner), third West, fourth East."""
    players = ("P1", "P2", "P3", "P4")
    draws, seated = draw_for_seats(random.Random(seed), players)
    final = {d.player: d.card for d in draws if not d.redraw}
    assert set(final) == set(players)
    order = sorted(players, key=lambda p: _draw_value(final[p]), reverse=True)
    by_seat = dict(zip(SEATS, seated, strict=True))
    assert (by_seat["S"], by_seat["N"], by_seat["W"], by_seat["E"]) == tuple(order)


def test_joker_or_identical_card_redraws_R_SEAT_2():
    """R-SEAT-2: a joker, or a card identical to another player's, is drawn again; the final
    cards are never jokers and never identical."""
    saw_redraw = False
    for seed in range(400):
        draws, _ = draw_for_seats(random.Random(seed), ("a", "b", "c", "d"))
        final = [d.card for d in draws if not d.redraw]
        assert len(final) == 4 and "JK" not in final and len(set(final)) == 4
        for d in draws:
            if d.card == "JK":
                assert d.redraw
        if any(d.redraw for d in draws):
            saw_redraw = True
            # every player with a redraw drew again afterwards
            for d in draws:
                if d.redraw:
                    assert any(e.player == d.player and not e.redraw for e in draws)
    assert saw_redraw


def test_highest_drawer_sits_south_and_plays_first_R_SEAT_3():
    """R-SEAT-3: the highest drawer chooses (South) and plays first in the first deal."""
    for seed in range(10):
        state = Game().new_initial_state(seed=seed, players=("a", "b", "c", "d"))
        final = {d.player: d.card for d in state.seat_draws if not d.redraw}
        best = max(final, key=lambda p: _draw_value(final[p]))
        assert state.players[SEATS.index("S")] == best
        assert state.current_seat == "S"
