"""Pinned decisions of the bots and the hint, reduced to digests.

The rules-of-thumb policy (the search's playout policy), the expert's search and the hint
read one seat's :class:`~canasta_tutor.engine.observer.Observation`; reworking how that observation
is built (from a state inside playouts, or from the seat's observation) must not change a
single decision.  Seeded games and searches are replayed here and reduced to digests: every
rules-of-thumb action with its principles, the expert's candidates, playout values and
choices, and the hint's whole answer apart from its timing.  When a change is meant to
change play, recompute the digests with ``_digests()`` and say so in the commit.
"""

from __future__ import annotations

import hashlib
import random

from canasta_tutor import Game
from canasta_tutor.bots.expert import ExpertBot, candidate_actions, rot_policy, sample_values
from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot
from canasta_tutor.hint import grade, hint
from canasta_tutor.engine.observer import observe
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER, State


def _rot_games_digest() -> str:
    """Seeded rules-of-thumb hands, each decision taken from the seat's observation."""
    h = hashlib.sha256()
    bot = RulesOfThumbBot()
    for seed in (1, 2, 3):
        state = Game().new_initial_state(seed=seed, dealer="E")
        while state.phase not in (HAND_OVER, GAME_OVER):
            seat = state.actor
            assert seat is not None
            action, principles = bot.decide(observe(state, seat))
            assert action == rot_policy(state, seat)
            h.update(repr((action, principles)).encode())
            state.apply(action)
        h.update(repr(state.hand_results[-1]).encode())
    return h.hexdigest()[:16]


def _decision_points(seed: int, every: int, count: int) -> list[State]:
    """Decision points with a real choice from a seeded rules-of-thumb hand."""
    state = Game().new_initial_state(seed=seed, dealer="E")
    rng = random.Random(seed)
    out: list[State] = []
    while state.phase not in (HAND_OVER, GAME_OVER) and len(out) < count:
        legal = state.legal_actions()
        n = len(state.history)
        if len(legal) > 1 and (n % every == 0 or state.phase == "answer" or (state.phase == "draw" and n % 4 == 1)):
            out.append(state.copy())
        if ("ask",) in legal and rng.random() < 0.5:
            state.apply_unchecked(("ask",))
            continue
        seat = state.actor
        assert seat is not None
        state.apply_unchecked(rot_policy(state, seat))
    return out


def _expert_digest() -> str:
    """The expert's candidates and playout values on a state, and its choices from the observation."""
    h = hashlib.sha256()
    for state in _decision_points(21, 9, 6):
        seat = state.actor
        assert seat is not None
        cands = candidate_actions(state, seat)
        values = sample_values(state, seat, cands, iterations=5, seed=len(state.history))
        choice = ExpertBot(iterations=5, seed=3)(observe(state, seat))
        # the expert's own search cuts its classic playouts off after two rounds (Variant.playout_turns)
        cut = sample_values(state, seat, cands, iterations=5, seed=len(state.history), turns=8)
        h.update(repr((cands, values, choice)).encode())
        h.update(repr(cut).encode())
    return h.hexdigest()[:16]


def _hint_digest() -> str:
    """The hint's whole answer (not its timing) and a grade, from the seat's observation."""
    h = hashlib.sha256()
    for state in _decision_points(31, 8, 5):
        obs = observe(state, state.actor)
        d = hint(obs, samples=6, seed=2).to_dict()
        del d["elapsed_ms"]
        g = grade(obs, obs.legal_actions[-1], samples=6, seed=1).to_dict()
        h.update(repr((d, g)).encode())
    return h.hexdigest()[:16]


def test_rules_of_thumb_games_are_pinned() -> None:
    assert _rot_games_digest() == "4af4e9b226742b91"


def test_expert_decisions_are_pinned() -> None:
    assert _expert_digest() == "d74c1b00d062dd57"


def test_hints_are_pinned() -> None:
    assert _hint_digest() == "30cc88cb429654f2"


def _digests() -> None:  # pragma: no cover - run by hand after a deliberate change of play
    print("rules-of-thumb", _rot_games_digest())
    print("expert", _expert_digest())
    print("hint", _hint_digest())


if __name__ == "__main__":  # pragma: no cover
    _digests()
