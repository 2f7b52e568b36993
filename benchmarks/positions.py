"""Decision points taken from seeded self-play, for the hint benchmarks.

Games are played by the rules-of-thumb bot; every few decisions where the
seat to act has a real choice (two or more legal actions) a position is kept,
so all phases of a turn appear: draw or take, melding, discarding, the
question "may I go out?" and its answer.
"""

from __future__ import annotations

import random

from canasta_tutor.bots.expert import rot_policy
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER, State


def sample_positions(count: int, seed: int = 0, every: int = 5, variant: str = "classic") -> list[State]:
    """``count`` states with a real choice, from rules-of-thumb games of ``variant`` seeded ``seed``,
    ``seed+1``...  The seat before South deals (classic: East), so South plays first."""
    rng = random.Random(seed)
    out: list[State] = []
    game_seed = seed
    game = Game(variant=variant)
    seats = game.variant.seats
    dealer = seats[(seats.index("S") - 1) % len(seats)]
    while len(out) < count:
        state = game.new_initial_state(seed=game_seed, dealer=dealer)
        game_seed += 1
        step = 0
        while state.phase not in (HAND_OVER, GAME_OVER) and len(out) < count:
            legal = state.legal_actions()
            if len(legal) > 1:
                step += 1
                if step % every == 0 or (state.phase in ("answer", "draw") and rng.random() < 0.5):
                    out.append(state.copy())
            # now and then ask, so the partner's answer appears among the positions
            if ("ask",) in legal and rng.random() < 0.5:
                state.apply_unchecked(("ask",))
                continue
            state.apply_unchecked(rot_policy(state, state.actor))
    return out


def first_turn_positions(count: int, seed: int = 0, variant: str = "classic") -> list[State]:
    """``count`` first-turn positions: games ``seed``, ``seed+1``... dealt (the seat before South deals,
    so South plays first), South draws from the stock, and the position is South's meld phase with the
    drawn card in hand (12 cards in classic): the position learners meet most, one per game."""
    out: list[State] = []
    game = Game(variant=variant)
    seats = game.variant.seats
    dealer = seats[(seats.index("S") - 1) % len(seats)]
    game_seed = seed
    while len(out) < count:
        state = game.new_initial_state(seed=game_seed, dealer=dealer)
        game_seed += 1
        first = state.actor
        while state.actor == first and state.phase == "draw":
            legal = state.legal_actions()
            draws = [a for a in legal if a[0] == "draw"]
            state.apply_unchecked(draws[0] if draws else legal[0])
        if state.actor == first and state.phase == "meld" and len(state.legal_actions()) > 1:
            out.append(state)
    return out


#: the named position sets of the hint benchmarks: the mix of every phase, and the first turn's meld phase
POSITION_SETS = {"mix": sample_positions, "first-turn": first_turn_positions}
