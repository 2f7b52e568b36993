"""Coupled draws in the cut-off search (``bots.expert.playout`` with ``orders``): a seat drawing
from the stock takes the first cards of its own random order still there, so two candidates played
out on the same deal draw the same cards even when one of them shifts the stock by a turn."""

from __future__ import annotations

import random
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor import Game
from canasta_tutor.bots.expert import (
    _apply,
    _stack_draw,
    draw_orders,
    race_values,
    rot_policy,
    sample_line_values,
    sample_values,
)
from canasta_tutor.bots.sampling import sample_hidden
from canasta_tutor.engine.cards import CARD_KIND, RED_THREE
from canasta_tutor.engine.state import DRAW, State


@given(st.lists(st.integers(0, 107), min_size=1, max_size=60, unique=True), st.randoms(use_true_random=False),
       st.sampled_from([1, 2]), st.integers(0, 20))
def test_the_seats_next_cards_go_on_top_and_nothing_else_moves(stock, rnd, draw_n, gone):
    order = stock[:]
    rnd.shuffle(order)
    stock = stock[gone:] or stock[-1:]  # cards already drawn are still in the order, and skipped
    s = SimpleNamespace(stock=stock[:], stock_fixed=-1, draw_n=draw_n)
    _stack_draw(s, order)  # type: ignore[arg-type]
    expected_top = []
    for c in (c for c in order if c in stock):  # up to the draw_n-th card that is not a red three
        expected_top.append(c)
        if sum(CARD_KIND[x] != RED_THREE for x in expected_top) == draw_n:
            break
    assert sorted(s.stock) == sorted(stock)
    assert s.stock[::-1][: len(expected_top)] == expected_top  # the stock's last card is drawn first
    rest = [c for c in stock if c not in expected_top]
    assert s.stock[: len(rest)] == rest  # the other cards keep their order


def test_cards_named_on_top_of_the_stock_are_drawn_as_named():
    s = SimpleNamespace(stock=[1, 2, 3, 4], stock_fixed=2, draw_n=2)
    _stack_draw(s, [1, 2, 3, 4])  # type: ignore[arg-type]
    assert s.stock == [1, 2, 3, 4]


def _take_or_draw() -> State:
    """A seeded rules-of-thumb position where the seat to draw may also take the pack."""
    for seed in range(1, 60):
        state = Game().new_initial_state(seed=seed, dealer="E")
        for _ in range(200):
            seat = state.actor
            assert seat is not None
            legal = state.legal_actions()
            if state.phase == DRAW and ("draw",) in legal and any(a[0] == "take" for a in legal):
                return state
            state.apply_unchecked(rot_policy(state, seat))
    raise AssertionError("no position where the pack can be taken")


def _drawn(s: State, orders: list[list[int]] | None) -> list[int]:
    """Draw for the seat to draw; the cards it drew (red threes laid down included)."""
    seat = s.turn
    before = sorted(c for kind in s.hands[seat] for c in kind) + s.red3[s.sides[seat]]
    _apply(s, ("draw",), orders)
    after = sorted(c for kind in s.hands[seat] for c in kind) + s.red3[s.sides[seat]]
    for c in before:
        after.remove(c)
    return sorted(after)


def _next_seats_draw(state: State, first: tuple, orders: list[list[int]] | None) -> tuple[list[int], list[int]]:
    """Play ``first`` (a take or a draw), then the rules of thumb to the end of the turn: the cards the
    seat drew this turn (none after a take) and those the next seat draws."""
    s = state.copy()
    if first == ("draw",):
        mine = _drawn(s, orders)
    else:
        mine = []
        _apply(s, first, orders)
    seat = s.turn
    while s.turn == seat:
        actor = s.actor
        assert actor is not None
        _apply(s, rot_policy(s, actor), orders)
    assert s.phase == DRAW
    return mine, _drawn(s, orders)


def test_the_next_seat_draws_the_same_cards_whether_the_pack_was_taken_or_not():
    """Only a card the seat itself drew instead of taking the pack can be missing from the next seat's draw."""
    state = _take_or_draw()
    seat = state.actor
    assert seat is not None
    take = next(a for a in state.legal_actions() if a[0] == "take")
    same = {"coupled": 0, "plain": 0}
    for i in range(20):
        det = sample_hidden(state, seat, random.Random(i))
        assert det is not None
        orders = draw_orders(det, random.Random(100 + i))
        for name, o in (("coupled", orders), ("plain", None)):
            _, after_take = _next_seats_draw(det, take, o)
            mine, after_draw = _next_seats_draw(det, ("draw",), o)
            same[name] += after_take == after_draw
            if name == "coupled":
                assert set(after_take) - set(after_draw) <= set(mine)
    assert same["coupled"] >= 18
    assert same["plain"] <= 2  # a shared stock shifts: after a take, the next seat draws the drawer's cards


def test_only_the_cut_off_search_couples_and_the_race_stays_the_even_search_cut_short():
    state = _take_or_draw()
    seat = state.actor
    assert seat is not None
    cands = [("draw",), next(a for a in state.legal_actions() if a[0] == "take")]
    raced = race_values(state, seat, cands, 48, seed=5, turns=8)
    even = sample_values(state, seat, cands, max(len(v) for v in raced), seed=5, turns=8)
    for r, e in zip(raced, even, strict=True):
        assert r == e[: len(r)]
    # without ``turns`` the draws are not coupled: the puzzles' verified values are those of plain play
    lines = [(a,) for a in cands]
    assert sample_line_values(state, seat, lines, 6, seed=5) == sample_values(state, seat, cands, 6, seed=5)


def test_draw_orders_are_one_shuffle_of_the_stock_per_seat():
    state = Game().new_initial_state(seed=3, dealer="E")
    orders = draw_orders(state, random.Random(1))
    assert len(orders) == len(state.hand_size)
    assert all(sorted(o) == sorted(state.stock) for o in orders)
    assert orders[0] != orders[1]
