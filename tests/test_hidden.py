"""Hidden cards filled consistently with the turn flags (canasta_tutor.engine.hidden)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor import Game
from canasta_tutor.engine.cards import CARD_KIND, NUM_KINDS, RED_THREE
from canasta_tutor.engine.errors import ImpossiblePositionError
from canasta_tutor.engine.hidden import fill_hidden, turn_problem, unseen_for


def _walk(seed: int, steps: int, rng: random.Random):
    """States of one hand played with random legal actions, favouring asks, yeses and melds."""
    state = Game().new_initial_state(seed=seed)
    for _ in range(steps):
        if state.phase in ("hand_over", "game_over"):
            return
        yield state
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] in ("ask", "yes", "meld", "take")]
        state.apply(rng.choice(keen if keen and rng.random() < 0.6 else legal))


def test_filling_keeps_what_the_seat_sees_and_the_counts() -> None:
    state = Game().new_initial_state(seed=11)
    view = state.copy()
    fill_hidden(view, [0, 1, 3], unseen_for(state, "S"), random.Random(5))
    assert view.hand("S") == state.hand("S")
    assert view.hand_size == state.hand_size
    assert len(view.stock) == len(state.stock)
    assert sorted(view.cards_everywhere()) == list(range(108))


def test_same_rng_same_filling() -> None:
    state = Game().new_initial_state(seed=12)
    a, b = state.copy(), state.copy()
    fill_hidden(a, "NEW", unseen_for(state, "S"), random.Random(9))
    fill_hidden(b, "NEW", unseen_for(state, "S"), random.Random(9))
    assert str(a) == str(b) and a.stock == b.stock


def test_stock_top_is_drawn_first() -> None:
    state = Game().new_initial_state(seed=13)
    top = state.stock[-2:][::-1]  # next card first
    hidden = [c for c in unseen_for(state, "S") if c not in top]
    view = state.copy()
    fill_hidden(view, "NEW", hidden, random.Random(1), stock_top=top)
    assert view.stock[-1] == top[0] and view.stock[-2] == top[1]


def test_no_red_three_after_a_first_turn() -> None:
    rng = random.Random(2)
    for state in _walk(14, 60, rng):
        for seat in range(4):
            view = state.copy()
            fill_hidden(view, [o for o in range(4) if o != seat], unseen_for(state, seat), rng)
            for o in range(4):
                if state.first_turn_done[o]:
                    assert not any(CARD_KIND[c] == RED_THREE for k in view.hands[o] for c in k)


def test_every_seat_view_of_random_play_is_refilled_playable() -> None:
    """The flags (asked, yes, pending, shown, black threes) shape the hidden hand of the player to move."""
    rng = random.Random(3)
    shaped = 0
    for seed in range(8):
        for state in _walk(seed, 300, rng):
            assert turn_problem(state) is None
            for seat in range(4):
                if seat == state.turn:
                    continue
                view = state.copy()
                fill_hidden(view, [o for o in range(4) if o != seat], unseen_for(state, seat), rng)
                assert turn_problem(view) is None, str(state)
                assert view.legal_actions()
                shaped += bool(state.asked or state.must_out or state.shown or state.pending)
    assert shaped > 20


def test_told_yes_means_a_hand_that_can_go_out() -> None:
    rng = random.Random(4)
    found = 0
    for seed in range(30):
        for state in _walk(seed, 300, rng):
            if state.phase == "meld" and state.answer is True:
                found += 1
                for trial in range(5):
                    view = state.copy()
                    hidden = [c for k in state.hands[state.turn] for c in k] + state.stock
                    fill_hidden(view, [state.turn], hidden, random.Random(trial))
                    assert view.legal_actions()
                break
    assert found


def test_counts_that_do_not_add_up_are_refused() -> None:
    state = Game().new_initial_state(seed=15)
    with pytest.raises(ImpossiblePositionError, match="unseen"):
        fill_hidden(state.copy(), "NEW", unseen_for(state, "S")[:20], random.Random(0))


@given(st.lists(st.integers(min_value=0, max_value=5), min_size=NUM_KINDS, max_size=NUM_KINDS),
       st.booleans(), st.integers(min_value=0, max_value=2**32))
def test_pool_draw_is_random_choices(counts: list[int], red_threes: bool, seed: int) -> None:
    """The pool's random card takes the generator's one draw that random.choices would, weighted by
    the kinds' counts, and gives the card choices would pick; None when nothing may be drawn."""
    from canasta_tutor.engine.hidden import _Pool

    cards = [c for k, n in enumerate(counts) for c in [i for i, kind in enumerate(CARD_KIND) if kind == k][:n]]
    pool = _Pool(cards, random.Random(0))
    kinds = [k for k in range(NUM_KINDS) if pool.by_kind[k] and (red_threes or k != RED_THREE)]
    expected_rng = random.Random(seed)
    expected = (pool.by_kind[expected_rng.choices(kinds, [len(pool.by_kind[k]) for k in kinds])[0]][-1]
                if kinds else None)
    rng = random.Random(seed)
    assert pool.take_any(rng, red_threes) == expected
    assert rng.random() == expected_rng.random()  # the same draws were taken
