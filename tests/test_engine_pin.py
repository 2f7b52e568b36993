"""Pinned games: the engine's speed work must not change a single action or score.

Seeded random self-play (as the speed benchmark plays it) and seeded expert searches are
replayed and reduced to digests: every legal-action list in order (a seeded random player's
choice depends on the order), every action chosen, every hand's score, and the expert's
playout values.  A faster engine must give exactly the same digests.  When a rule change
is meant to change play, recompute the digests with ``_digests()`` and say so in the commit.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from canasta_tutor import Game, RuleOptions
from canasta_tutor.bots.expert import ExpertBot, candidate_actions, rot_policy, sample_values
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER, State


def _random_game_digest(options: str, seed: int, hands: int) -> str:
    """Digest of ``hands`` hands of uniform random play: the legal lists, the choices, the scores."""
    h = hashlib.sha256()
    state = Game(RuleOptions.parse(options)).new_initial_state(seed)
    rng = random.Random(seed)
    done = 0
    while done < hands and state.phase != GAME_OVER:
        legal = state.legal_actions()
        action = rng.choice(legal)
        h.update(repr((legal, action)).encode())
        state.apply_unchecked(action)
        if state.phase in (HAND_OVER, GAME_OVER):
            done += 1
            h.update(repr((state.hand_results[-1], state.totals, len(state.stock))).encode())
    return h.hexdigest()[:16]


RANDOM_GAMES = {
    ("", 1, 12): "8ccb7b074bee3fe8",
    ("", 2, 12): "6dd3ceafd5a7ff74",
    ("", 3, 12): "2ae3d643b7a4d3b9",
    ("", 2024, 12): "746876ff286400ee",
    ("black_three=stops", 5, 6): "f75bac38d184c3ba",
    ("wild_limit=half", 6, 6): "a2f4c40e3e20e680",
    ("upcard_chain=wild_only round_totals=true", 7, 6): "9c8383fe9a3597eb",
    ("upcard_chain=wild_or_red_three black_three=stops wild_limit=half", 8, 6): "fd132dff89e68825",
}


@pytest.mark.parametrize("key", sorted(RANDOM_GAMES))
def test_seeded_random_play_is_pinned(key: tuple[str, int, int]) -> None:
    assert _random_game_digest(*key) == RANDOM_GAMES[key]


def test_selfplay_driver_is_pinned() -> None:
    """The benchmark's own driver: the number of actions and games of a seeded run."""
    report = run_selfplay(hands=60, seed=1, check=False)
    assert (report.hands, report.actions, report.games) == (60, 8081, 8)


def _expert_states() -> list[tuple[State, int]]:
    """Decision points of a seeded rules-of-thumb hand with several legal actions."""
    state = Game().new_initial_state(seed=11, dealer="E")
    out: list[tuple[State, int]] = []
    while state.phase not in (HAND_OVER, GAME_OVER):
        seat = state.actor
        assert seat is not None
        if len(state.legal_actions()) > 2 and len(state.history) % 7 == 0:
            out.append((state.copy(), seat))
        state.apply_unchecked(rot_policy(state, seat))
    return out[:5]


def _expert_digest() -> str:
    """A digest of the expert's candidates, playout values and choices at the seeded decision points."""
    h = hashlib.sha256()
    for state, seat in _expert_states():
        cands = candidate_actions(state, seat)
        values = sample_values(state, seat, cands, iterations=6, seed=len(state.history))
        choice = ExpertBot(iterations=6, seed=3).act(state.copy(), seat)
        # the expert's own search cuts its classic playouts off after two rounds (Variant.playout_turns)
        cut = sample_values(state, seat, cands, iterations=6, seed=len(state.history), turns=8)
        h.update(repr((cands, values, choice)).encode())
        h.update(repr(cut).encode())
    return h.hexdigest()[:16]


def test_expert_search_is_pinned() -> None:
    """The expert's candidates, playout values and choices at seeded decision points."""
    assert _expert_digest() == "ead0d5e0187ab639"


def test_shuffle_is_random_shuffle() -> None:
    """The deal's shuffle takes the same draws as random.shuffle and leaves the same order; a
    generator of another type shuffles its own way."""
    from canasta_tutor.engine.cards import shuffle

    for seed in range(30):
        a, b = random.Random(seed), random.Random(seed)
        x, y = list(range(108)), list(range(108))
        a.shuffle(x)
        shuffle(b, y)
        assert x == y and a.random() == b.random()

    class Reversing(random.Random):
        def shuffle(self, x, *args, **kwargs):  # type: ignore[no-untyped-def]
            x.reverse()

    z = [1, 2, 3]
    shuffle(Reversing(1), z)
    assert z == [3, 2, 1]


def _digests() -> None:  # pragma: no cover - run by hand after a deliberate rule change
    for key in sorted(RANDOM_GAMES):
        print(key, _random_game_digest(*key))
    r = run_selfplay(hands=60, seed=1, check=False)
    print("selfplay", r.hands, r.actions, r.games)
    print("expert", _expert_digest(), len(_expert_states()))


if __name__ == "__main__":  # pragma: no cover
    _digests()
