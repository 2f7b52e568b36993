"""The fast legal-action listing agrees with the one check, in order.

``State.legal_actions`` takes short cuts (it skips checks that cannot fail and
shares the hand counts between candidates).  Here every state along biased
random play, under each rule option, is listed both ways: the fast list must be
exactly the structural candidates that :meth:`State.explain` accepts, in the
same order (the order decides which action a seeded random player picks, so the
golden records depend on it).
"""

from __future__ import annotations

import random

import pytest

from canasta_tutor import Game, RuleOptions


def _reference(state) -> list[tuple]:
    return [a for a in state._candidates() if state.explain(a) is None]


def _choose(rng: random.Random, legal: list[tuple]) -> tuple:
    # favour taking, melding, asking and answering so that the rarer branches are visited
    rich = [a for a in legal if a[0] in ("take", "meld", "add", "ask", "yes", "no", "pass")]
    if rich and rng.random() < 0.6:
        return rng.choice(rich)
    return rng.choice(legal)


@pytest.mark.parametrize("options", ["", "black_three=stops", "wild_limit=half", "upcard_chain=wild_only"])
def test_fast_listing_is_the_checked_candidates_in_order(options: str) -> None:
    opts = RuleOptions.parse(options)
    rng = random.Random(7)
    verbs: set[str] = set()
    states = 0
    for game_seed in range(30, 36):
        state = Game(opts).new_initial_state(game_seed)
        hands = 0
        while state.phase != "game_over" and hands < 3:
            legal = state.legal_actions()
            assert legal == _reference(state), (game_seed, state.deal_no, len(state.history))
            verbs.update(a[0] for a in legal)
            states += 1
            state.apply_unchecked(_choose(rng, legal))
            hands += state.phase in ("hand_over", "game_over")
    assert states > 500
    assert {"draw", "take", "meld", "add", "discard", "ask", "yes", "no", "deal"} <= verbs
