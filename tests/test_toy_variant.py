"""A variant is one description: a new one, described here and nowhere else, is dealt, played, written down,
hinted and shown at the table by the modules as they are (issue 32).

The toy variant below is a quick two-handed game with three packs; it is registered for these tests only.
Nothing in the notation, the bots, the hint, the tutor or the widgets names it: each takes what differs from
the variant (or from the state's own methods, as Samba's numbered melds do).
"""

from __future__ import annotations

import random

import pytest

from canasta_tutor.bots import make_state_policy
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.observer import observe
from canasta_tutor.engine.state import RULES, State, UnknownRulesError, register_rules
from canasta_tutor.engine.variants import VARIANTS, Variant
from canasta_tutor.hint import hint
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.tutor.display import state_html
from canasta_tutor.tutor.session import TableSession

TOY = Variant(name="toy", rule_area="", players=2, seats="NS", sides=(0, 1), packs=3, jokers=6, hand_size=13,
              draw=1, canastas_to_go_out=1, target=3000, hint_playouts=60)


class ToyState(State):
    """The rules of a variant that its fields cannot say would live here, in the variant's own module: the
    state class its description names (``rules="toy"``).  This one keeps the classic rules, so that the tests
    below show only where the class is chosen: from the description, in every layer."""

    __slots__ = ()


TOY_RULES = Variant(name="toy-rules", rule_area="", players=4, seats="NESW", sides=(0, 1, 0, 1), packs=2, jokers=4,
                    hand_size=11, draw=1, canastas_to_go_out=1, rules="toy", hint_playouts=60)


@pytest.fixture(autouse=True)
def toy():
    VARIANTS["toy"] = TOY
    VARIANTS["toy-rules"] = TOY_RULES
    register_rules("toy", ToyState)
    try:
        yield TOY
    finally:
        del VARIANTS["toy"], VARIANTS["toy-rules"], RULES["toy"]


def test_the_toy_is_dealt_from_its_description():
    state = Game(variant="toy").new_initial_state(seed=5)
    assert state.variant is TOY
    assert len(state.hands) == 2
    assert [sum(map(len, h)) for h in state.hands] == [13, 13]
    assert len(state.cards_everywhere()) == 3 * 52 + 6


def test_the_toy_plays_whole_hands_with_no_invariant_broken():
    report = run_selfplay(hands=3, seed=2, variant="toy")
    assert report.violations == 0


def test_the_toy_is_written_and_read_back_as_a_position():
    state = Game(variant="toy").new_initial_state(seed=7)
    rng = random.Random(7)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    text = format_position(state)
    assert "variant: toy" in text
    assert format_position(parse_position(text)) == text


def test_the_bots_and_the_hint_play_the_toy_from_an_observation():
    state = Game(variant="toy").new_initial_state(seed=3)
    seat = state.actor
    assert seat is not None
    obs = observe(state, seat)
    rebuilt = state_from_observation(obs)
    assert rebuilt.variant is TOY
    assert sorted(rebuilt.legal_actions()) == sorted(state.legal_actions())
    for name in ("random", "rules-of-thumb"):
        assert make_state_policy(name, seed=1)(state, seat) in state.legal_actions()
    h = hint(obs, samples=4, seed=1)
    assert h.best in state.legal_actions()
    assert h.explanation


def test_the_table_seats_a_learner_at_the_toy():
    session = TableSession(seed=4, seat="S", variant="toy")
    view = session.view()
    assert view["variant"] == "toy"
    assert len(view["hand"]) == 13
    assert "<table" in state_html(session.state)


def test_a_variant_that_names_its_own_rules_is_played_by_them_in_every_layer():
    state = Game(variant="toy-rules").new_initial_state(seed=6)
    assert type(state) is ToyState
    assert type(state.copy()) is ToyState
    seat = state.actor
    assert seat is not None
    assert type(state_from_observation(observe(state, seat))) is ToyState
    assert type(parse_position(format_position(state))) is ToyState
    assert type(TableSession(seed=6, seat="S", variant="toy-rules").state) is ToyState
    assert run_selfplay(hands=1, seed=6, variant="toy-rules").violations == 0


def test_a_variant_whose_rules_are_not_registered_is_refused_by_name():
    lost = Variant(name="lost", rule_area="", players=2, seats="NS", sides=(0, 1), packs=2, jokers=4, hand_size=15,
                   draw=2, canastas_to_go_out=2, rules="no-such-rules")
    with pytest.raises(UnknownRulesError, match="variant 'lost' plays by the rules 'no-such-rules'"):
        Game(variant=lost).new_initial_state(seed=1)
