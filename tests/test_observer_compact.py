"""One class for what a seat may know: the compact observation the search builds for every
decision of a playout gives the same values as the full snapshot the bots are given."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest

from canasta_tutor import Game, RuleOptions
from canasta_tutor.bots.rules_of_thumb import decide
from canasta_tutor.engine.cards import CARD_KIND
from canasta_tutor.engine.observer import FIELDS, HISTORY_TAIL, observe, observe_compact


def _states(seed: int, options: str = ""):
    """Every state of a seeded hand of random play, with the seat to act."""
    state = Game(RuleOptions.parse(options)).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while state.phase not in ("hand_over", "game_over"):
        yield state, state.actor
        state.apply(rng.choice(state.legal_actions()))
    yield state, state.actor


@pytest.mark.parametrize("seed,options", [(0, ""), (1, ""), (2, "black_three=stops wild_limit=half")])
def test_compact_observation_equals_the_full_snapshot(seed: int, options: str) -> None:
    for state, seat in _states(seed, options):
        full, fast = observe(state, seat), observe_compact(state, seat)
        assert all(fast.known_of(i) == full.known_of(i) == full.known[i] for i in range(4))
        for name in FIELDS:
            if name != "position_text":
                assert getattr(fast, name) == getattr(full, name), name
        assert decide(fast) == decide(full)


def test_compact_fields_of_the_snapshot() -> None:
    for state, seat in _states(3):
        obs = observe(state, seat)
        assert obs.hand_counts == tuple(state.hand_counts(seat))
        assert obs.pile_size == len(obs.pile) == len(state.pile)
        assert obs.pile_top == (CARD_KIND[state.pile[-1]] if state.pile else -1)
        assert obs.red_three_counts == (len(obs.red_threes[0]), len(obs.red_threes[1]))
        assert obs.history_tail == obs.history[-HISTORY_TAIL:]
        assert obs.meld_summary == (state.meld_summary(0), state.meld_summary(1))
        assert obs.side == seat & 1
        assert obs.frozen_for(0) == state.frozen_for(0) and obs.frozen_for(1) == state.frozen_for(1)


def test_the_snapshot_keeps_no_list_of_the_state() -> None:
    """A full observation stays as it was when the state moves on; it holds none of the state's lists."""
    state = Game().new_initial_state(seed=4)
    seat = state.actor
    obs = observe(state, seat)
    before = {name: getattr(obs, name) for name in FIELDS}
    assert not any(name.startswith("_") for name in vars(obs))
    rng = random.Random(4)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    assert {name: getattr(obs, name) for name in FIELDS} == before


def test_observations_are_read_only() -> None:
    state = Game().new_initial_state(seed=6)
    for obs in (observe(state, 0), observe_compact(state, state.actor)):
        with pytest.raises(FrozenInstanceError):
            obs.seat = 1  # type: ignore[misc]
        with pytest.raises(FrozenInstanceError):
            del obs.phase  # type: ignore[misc]


def test_a_compact_observation_has_no_position_text() -> None:
    state = Game().new_initial_state(seed=7)
    fast = observe_compact(state, state.actor)
    with pytest.raises(AttributeError, match="observe"):
        _ = fast.position_text
    assert "N: 11 cards" in observe(state, state.actor).position_text
