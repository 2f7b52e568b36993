"""The bots' compact view is the observation in kind counts: built from a state inside playouts
or from the seat's observation, it is the same view."""

from __future__ import annotations

import random

from canasta_tutor import Game
from canasta_tutor.bots.view import view_of_observation, view_of_state
from canasta_tutor.observer import observe


def test_view_from_state_equals_view_from_observation():
    for seed in (0, 1):
        state = Game().new_initial_state(seed=seed)
        rng = random.Random(seed)
        while state.phase not in ("hand_over", "game_over"):
            seat = state.actor
            a, b = view_of_state(state, seat), view_of_observation(observe(state, seat))
            # the observation shows the seat its whole hand where the state keeps only the public part
            b.known[seat] = list(a.known[seat])
            assert a == b
            state.apply(rng.choice(state.legal_actions()))
