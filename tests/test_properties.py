"""Property tests of the engine over random seeds and random play (hypothesis).

Each example deals a seeded game under random rule options and plays a random
prefix of legal actions (biased toward taking, melding and adding, so that
packs, canastas and going out happen), checking at every step:

- card conservation: 108 distinct card ids (R-CARDS-1);
- the one check: ``explain(a) is None`` exactly for ``a`` in ``legal_actions()``,
  every listed action applies with the checked ``apply``, listing changes nothing;
- random illegal actions of the right shapes are refused with a rule ID and
  leave the state unchanged;
- positions round-trip through the text format with the same legal actions;
- the scoring identity at every hand end (R-SCORE-1..3, R-RED-5).
"""

from __future__ import annotations

import random
import re

import pytest
from helpers_rules import snap
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor import Game, IllegalActionError, RuleOptions
from canasta_tutor.notation.position import format_position, parse_position
from test_fuzz import sized

RULE_RE = re.compile(r"^R-[A-Z]+-[0-9]+$")

options_st = st.builds(
    RuleOptions,
    black_three=st.sampled_from(["freezes", "stops"]),
    upcard_chain=st.sampled_from(["wild_or_three", "wild_or_red_three", "wild_only"]),
    wild_limit=st.sampled_from(["three", "half"]),
    round_totals=st.booleans(),
)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _choose(rng: random.Random, legal: list) -> tuple:
    rich = [a for a in legal if a[0] in ("take", "meld", "add", "yes", "deal")]
    if rich and rng.random() < 0.75:
        return rng.choice(rich)
    return rng.choice(legal)


def _check_hand_end(before_totals, state) -> None:
    """The scoring identity of R-SCORE-1..3 for the hand that just ended."""
    res = state.hand_results[-1]
    for side, entry in enumerate(res.sides):
        bonus = (500 * entry.natural_canastas + 300 * entry.mixed_canastas + entry.red_threes
                 + entry.going_out + entry.concealed)
        assert entry.total == bonus + entry.melded + entry.in_hand
        assert entry.in_hand <= 0 <= entry.melded
        assert entry.going_out in (0, 100) and entry.concealed in (0, 100)
        if entry.concealed:
            assert entry.going_out == 100
        reds = len(state.red3[side])
        value = 800 if reds == 4 else 100 * reds
        has_meld = bool(state.meld_summary(side))
        assert entry.red_threes == (value if has_meld else -value)
        assert before_totals[side] + entry.total == state.totals[side]
    # both partners' hands count against their side
    for side in (0, 1):
        hand_value = 0
        for seat in (side, side + 2):
            counts = state.hand_counts(seat)
            values = (5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50, 5, 0)
            hand_value += sum(n * v for n, v in zip(counts, values, strict=True))
        assert res.sides[side].in_hand == -hand_value


def _walk(seed, options, steps, visit):
    state = Game(options).new_initial_state(seed=seed)
    rng = random.Random(seed * 1_000_003 + steps)
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal:
            assert state.phase == "game_over", (
                f"dead end: no legal action after {state.history[-3:]} in\n{format_position(state)}")
            break
        visit(state, legal, rng)
        action = _choose(rng, legal)
        totals = list(state.totals)
        n_results = len(state.hand_results)
        state.apply(action)
        assert sorted(state.cards_everywhere()) == list(range(108))
        if len(state.hand_results) > n_results:
            assert state.phase in ("hand_over", "game_over")
            _check_hand_end(totals, state)
    return state


@settings(max_examples=sized(60), **SETTINGS)
@given(seed=st.integers(0, 10**6), options=options_st, steps=st.integers(0, 160))
def test_conservation_and_every_legal_action_applies(seed, options, steps):
    """R-CARDS-1 and the one check: 108 distinct cards after every action; every listed legal action
    has explain() None and applies with the checked apply; listing does not change the state."""

    def visit(state, legal, rng):
        before = snap(state)
        again = state.legal_actions()
        assert again == legal
        assert snap(state) == before, "legal_actions() changed the state"
        assert len(set(legal)) == len(legal), "an action is listed twice"
        for a in legal:
            assert state.explain(a) is None
            child = state.copy()
            child.apply(a)
            assert sorted(child.cards_everywhere()) == list(range(108))
        assert snap(state) == before

    _walk(seed, options, steps, visit)


def _random_action(rng: random.Random) -> tuple:
    verb = rng.choice(["take", "meld", "add", "discard", "draw", "ask", "yes", "no", "pass", "deal"])
    small = lambda: rng.randint(0, 4)  # noqa: E731
    kind = lambda: rng.randint(0, 14)  # noqa: E731
    if verb in ("take", "meld"):
        return (verb, kind(), small(), small(), small())
    if verb == "add":
        return (verb, kind(), kind())
    if verb == "discard":
        return (verb, kind())
    return (verb,)


@pytest.mark.slow
@settings(max_examples=sized(60), **SETTINGS)
@given(seed=st.integers(0, 10**6), options=options_st, steps=st.integers(0, 160))
def test_illegal_actions_refused_with_rule_and_no_change(seed, options, steps):
    """Random actions of the right shapes that are not listed as legal are refused with an
    IllegalActionError naming a rule (R-AREA-N), and leave the state exactly unchanged; the one
    check agrees: explain(a) is None exactly for the listed actions."""

    def visit(state, legal, rng):
        legal_set = set(legal)
        for _ in range(12):
            a = _random_action(rng)
            err = state.explain(a)
            if a in legal_set:
                assert err is None
                continue
            assert err is not None, f"{a} not listed but explain() is None"
            assert RULE_RE.match(err.rule), err.rule
            before = snap(state)
            try:
                state.apply(a)
            except IllegalActionError as e:
                assert e.rule == err.rule and RULE_RE.match(e.rule)
                assert str(e).endswith(f"[{e.rule}]")
            else:
                raise AssertionError(f"{a} was applied although refused by explain()")
            assert snap(state) == before, f"refused {a} changed the state"

    _walk(seed, options, steps, visit)


@settings(max_examples=sized(40), **SETTINGS)
@given(seed=st.integers(0, 10**6), options=options_st, steps=st.integers(0, 160))
def test_position_round_trip(seed, options, steps):
    """format(parse(format(s))) == format(s), and the parsed state has the same legal actions."""

    def visit(state, legal, rng):
        if rng.random() > 0.25:
            return
        text = format_position(state)
        parsed = parse_position(text)
        assert format_position(parsed) == text
        assert sorted(parsed.legal_actions()) == sorted(legal)
        for seat in "NESW":
            assert parse_position(text).hand(seat) == state.hand(seat)

    _walk(seed, options, steps, visit)


@settings(max_examples=15, **SETTINGS)
@given(seed=st.integers(0, 10**6), options=options_st)
def test_whole_games_score_identity(seed, options):
    """R-SCORE-1..4, R-GAME-1: over long random play, every hand end satisfies the scoring identity,
    totals are the sum of the hands' scores, and a finished game has a winner at 5,000 or more."""
    state = _walk(seed, options, 1500, lambda s, legal, rng: None)
    sums = [0, 0]
    for res in state.hand_results:
        for side in (0, 1):
            sums[side] += res.sides[side].total
    assert sums == list(state.totals)
    if state.phase == "game_over":
        assert max(state.totals) >= 5000
        assert state.totals[state.winner] > state.totals[1 - state.winner]
