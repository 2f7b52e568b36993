"""A variant is one description: a new one, described here and nowhere else, is dealt, played, written down,
hinted and shown at the table by the modules as they are (issue 32).

The toy variants below are registered for these tests only: a quick two-handed game with three packs, one
that names its own (classic) rules, and a relative of Samba whose melds are a numbered list with sequences,
as far from classic melds as any variant's (played by its own state class, a subclass of Samba's, with its
own hand size and wild-card cap).  Nothing in the notation, the bots, the hint, the tutor or the widgets
names them: each takes what differs from the variant's fields (``numbered_melds``, ``hint_few_deals``, ...)
or from the state's own methods (``listed_melds``, ``sequence_suit``, ...).
"""

from __future__ import annotations

import random

import pytest

from canasta_tutor.bots import make_state_policy
from canasta_tutor.bots.native import PURE_ENV
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.cards import ALL_CARD_CODES
from canasta_tutor.engine.errors import ImpossiblePositionError
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.observer import observe
from canasta_tutor.engine.samba import SambaState
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


class ToySequencesState(SambaState):
    """The rules of a relative of Samba (as Bolivia is): numbered melds and sequences, in a class of the
    variant's own module that subclasses Samba's; what differs here is said by the variant's fields."""

    __slots__ = ()


TOY_SEQUENCES = Variant(name="toy-sequences", rule_area="SAMBA", players=4, seats="NESW", sides=(0, 1, 0, 1),
                        packs=3, jokers=6, hand_size=13, draw=2, canastas_to_go_out=2, go_out_rule="R-SAMBA-7",
                        rules="toy-sequences", sequences=True, numbered_melds=True, set_wild_cap=1,
                        samba_bonus=1500, red_threes_need_canastas=2, hint_playouts=12, hint_min_round=2,
                        hint_few_deals=4)


@pytest.fixture(autouse=True)
def toy():
    VARIANTS["toy"] = TOY
    VARIANTS["toy-rules"] = TOY_RULES
    VARIANTS["toy-sequences"] = TOY_SEQUENCES
    register_rules("toy", ToyState)
    register_rules("toy-sequences", ToySequencesState)
    try:
        yield TOY
    finally:
        del VARIANTS["toy"], VARIANTS["toy-rules"], VARIANTS["toy-sequences"], RULES["toy"], RULES["toy-sequences"]


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


def _listed(state: State, side: int) -> list[tuple[int, list[str]]]:
    """A side's numbered melds: each its suit (-1 for a set) and its cards' codes."""
    return [(m.suit, sorted(ALL_CARD_CODES[c] for c in m.naturals + m.wilds)) for m in state.listed_melds(side)]


def _with_listed_melds(seed: int) -> State:
    """A toy-sequences game played by the rules of thumb until both sides have melds on their numbered lists
    and a sequence lies on the table."""
    state = Game(variant="toy-sequences").new_initial_state(seed=seed)
    policy = make_state_policy("rules-of-thumb", seed=seed)
    for _ in range(3000):
        melds = [state.listed_melds(side) for side in range(2)]
        if all(melds) and any(m.is_sequence for side in melds for m in side) and state.phase == "draw":
            return state
        if state.phase in ("hand_over", "game_over"):
            state = Game(variant="toy-sequences").new_initial_state(seed=seed + 1000)
            continue
        seat = state.actor
        assert seat is not None
        state.apply(policy(state, seat))
    raise AssertionError("no sequence was melded in 3,000 actions")


def test_a_variant_with_numbered_melds_and_sequences_is_dealt_and_played_by_its_own_class():
    state = Game(variant="toy-sequences").new_initial_state(seed=2)
    assert type(state) is ToySequencesState and type(state.copy()) is ToySequencesState
    assert [sum(map(len, h)) for h in state.hands] == [13] * 4
    assert run_selfplay(hands=2, seed=2, variant="toy-sequences").violations == 0


def test_its_numbered_melds_are_written_down_in_order_and_read_back():
    state = _with_listed_melds(3)
    text = format_position(state)
    assert "variant: toy-sequences" in text
    back = parse_position(text)
    assert type(back) is ToySequencesState
    assert format_position(back) == text
    for side in range(2):
        assert _listed(back, side) == _listed(state, side)


def test_its_wild_card_cap_is_the_variants_own_when_a_position_is_read():
    """set_wild_cap=1 here (Samba's is 2): a set with two wild cards is no toy-sequences meld (R-SAMBA-4)."""
    state = _with_listed_melds(3)
    text = format_position(state)
    line = next(x for x in text.splitlines() if x.startswith("melds NS: "))
    wrong = text.replace(line, line + "; Q Q Q 2C JK")
    with pytest.raises(ImpossiblePositionError, match="a set may hold at most 1"):
        parse_position(wrong)


def test_the_bots_and_the_hint_play_it_from_an_observation(monkeypatch):
    # a state class defined outside the package cannot cross into the compiled search (bots/transfer.py names
    # a class by its module in the package): this test's search runs in plain Python.  A variant's own module
    # in engine/ is in the compiled copy's import closure, as Samba's is.
    monkeypatch.setenv(PURE_ENV, "1")
    state = _with_listed_melds(5)
    seat = state.actor
    assert seat is not None
    obs = observe(state, seat)
    rebuilt = state_from_observation(obs)
    assert type(rebuilt) is ToySequencesState
    assert sorted(rebuilt.legal_actions()) == sorted(state.legal_actions())
    assert _listed(rebuilt, 0) == _listed(state, 0)
    for name in ("random", "rules-of-thumb", "expert"):
        assert make_state_policy(name, seed=1)(state, seat) in state.legal_actions()
    h = hint(obs, samples=2, seed=1)
    assert h.best in state.legal_actions()
    assert h.explanation


def test_the_table_numbers_its_melds_and_offers_join():
    session = TableSession(seed=5, seat="S", variant="toy-sequences", state=_with_listed_melds(5))
    view = session.view()
    assert view["variant"] == "toy-sequences"
    assert "join" in view["buttons"] and "join_from" in view
    for side in view["melds"]:
        assert [m["kind"] for m in side] == [f"m{i + 1}" for i in range(len(side))]
    assert any(m["sequence"] for side in view["melds"] for m in side)
    assert "join" not in TableSession(seed=5, seat="S", variant="toy").view()["buttons"]
