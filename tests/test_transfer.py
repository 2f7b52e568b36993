"""A state crosses into the search's compiled copy as plain data (canasta_tutor/bots/transfer.py) and comes back
the same, in every variant, with finished hands and the draw for seats in it."""

from __future__ import annotations

import json
import random

import pytest

from canasta_tutor import Game
from canasta_tutor.engine.options import RuleOptions
from canasta_tutor.bots.transfer import TAG, from_plain, to_plain
from canasta_tutor.engine.variants import VARIANTS, Variant, get_variant


def _played(variant: str, seed: int, actions: int) -> object:
    """A game of ``variant`` after up to ``actions`` random actions (across hands)."""
    rng = random.Random(seed)
    state = Game(RuleOptions.parse("black_three=stops"), variant=variant).new_initial_state(seed=seed)
    for _ in range(actions):
        if state.phase == "game_over":
            break
        state.apply_unchecked(rng.choice(state.legal_actions()))
    return state


def _is_plain(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return all(map(_is_plain, value))
    if isinstance(value, dict):
        return all(_is_plain(k) and _is_plain(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_state_crosses_as_plain_data_and_comes_back_the_same(variant):
    state = _played(variant, 4, 400)  # a hand or more: hand results to carry
    plain = to_plain(state)
    assert _is_plain(plain)
    back = from_plain(plain)
    assert type(back) is type(state)
    assert back.variant is state.variant and back.options == state.options
    assert to_plain(back) == plain
    assert str(back) == str(state)
    assert back.legal_actions() == state.legal_actions()
    assert back.hands is not state.hands and back.hands == state.hands  # copied, not shared


def test_the_draw_for_seats_and_finished_hands_cross_too():
    state = _played("classic", 9, 300)
    assert state.seat_draws and state.hand_results
    back = from_plain(to_plain(state))
    assert back.hand_results == state.hand_results
    assert back.seat_draws == state.seat_draws
    assert back.players == state.players


def test_an_unregistered_variant_crosses_by_its_fields():
    import dataclasses

    mine = dataclasses.replace(get_variant("classic"), name="house", target=3000)
    back = from_plain(to_plain(mine))
    assert isinstance(back, Variant) and back == mine and back is not mine


def test_what_is_not_the_package_s_does_not_cross():
    with pytest.raises(TypeError, match="cannot cross"):
        to_plain(json.JSONDecoder())
    assert to_plain(("discard", 3)) == ("discard", 3) and TAG not in to_plain(("discard", 3))
