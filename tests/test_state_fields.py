"""A state's fields are declared once (SHARED_FIELDS, LIST_FIELDS, NESTED_FIELDS in canasta_tutor.engine.state):
the class's slots are their sum, and a copy shares no list with its original."""

from __future__ import annotations

import random

import pytest

from canasta_tutor.engine.game import Game
from canasta_tutor.engine.samba import SambaState
from canasta_tutor.engine.state import LIST_FIELDS, NESTED_FIELDS, SHARED_FIELDS, State

DECLARED = SHARED_FIELDS + LIST_FIELDS + NESTED_FIELDS


def test_the_declaration_is_the_slots():
    assert len(set(DECLARED)) == len(DECLARED)
    assert State.__slots__ == DECLARED


def _played(variant: str, seed: int, moves: int) -> State:
    state = Game(variant=variant).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("variant", ["classic", "six-handed", "italian", "samba"])
def test_a_copy_has_every_field_and_shares_no_list(variant):
    state = _played(variant, 3, 40)
    copy = state.copy()
    assert type(copy) is type(state)
    for name in DECLARED:
        assert getattr(copy, name) == getattr(state, name), name
    for name in LIST_FIELDS + NESTED_FIELDS:
        assert getattr(copy, name) is not getattr(state, name), name
    for name in ("hands", "red3", "known"):
        for mine, theirs in zip(getattr(copy, name), getattr(state, name), strict=True):
            assert mine is not theirs, name
    for side_copy, side in zip(copy.melds, state.melds, strict=True):
        for kind, meld in side.items():
            assert side_copy[kind][0] is not meld[0] and side_copy[kind][1] is not meld[1]
    copy.apply(copy.legal_actions()[0])
    assert str(state) == str(_played(variant, 3, 40))  # the original did not move


def test_samba_copies_its_own_melds_too():
    state = _played("samba", 5, 60)
    assert isinstance(state, SambaState)
    copy = state.copy()
    for side_copy, side in zip(copy.smelds, state.smelds, strict=True):
        for mine, theirs in zip(side_copy, side, strict=True):
            assert mine is not theirs and mine.cards() == theirs.cards()


def test_the_state_made_from_an_observation_takes_every_declared_field_one_way():
    """state_from_observation (canasta_tutor.bots.sampling) takes each declared field from the observation by
    name, from the observation's cards, or as a new state sets it: each field in exactly one of its tables."""
    from canasta_tutor.bots.sampling import AS_NEW, FROM_CARDS, FROM_OBSERVATION

    ways = FROM_OBSERVATION + FROM_CARDS + AS_NEW
    assert sorted(ways) == sorted(DECLARED)
    assert len(set(ways)) == len(ways)


@pytest.mark.parametrize("variant", ["classic", "italian", "samba", "five-handed"])
def test_the_state_made_from_an_observation_has_its_public_fields(variant):
    from canasta_tutor.bots.sampling import FROM_OBSERVATION, state_from_observation
    from canasta_tutor.engine.observer import observe

    state = _played(variant, 4, 50)
    seat = state.actor
    assert seat is not None
    rebuilt = state_from_observation(observe(state, seat))
    assert type(rebuilt) is type(state)
    for name in FROM_OBSERVATION:
        assert getattr(rebuilt, name) == getattr(state, name), name
        if name in LIST_FIELDS:
            assert getattr(rebuilt, name) is not getattr(state, name), name
    assert sorted(rebuilt.hand(seat)) == sorted(state.hand(seat))
    assert rebuilt.hand_size == state.hand_size and rebuilt.deal_no == state.deal_no
    assert sorted(rebuilt.legal_actions()) == sorted(state.legal_actions())
