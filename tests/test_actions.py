"""Action notation: canonical text, round trips, and errors that quote the input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor import Game, NotationError
from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.engine.cards import BLACK_THREE, DEUCE, JOKER, NUM_KINDS, RED_THREE, parse_kind

K = parse_kind("K")
SEVEN = parse_kind("7")
TEN = parse_kind("T")


@pytest.mark.parametrize("text, action", [
    ("draw", ("draw",)),
    ("ask", ("ask",)),
    ("yes", ("yes",)),
    ("no", ("no",)),
    ("pass", ("pass",)),
    ("deal", ("deal",)),
    ("take K K K", ("take", K, 2, 0, 0)),
    ("take K", ("take", K, 0, 0, 0)),
    ("take K K JK", ("take", K, 1, 1, 0)),
    ("take K K 2", ("take", K, 1, 0, 1)),
    ("take K K K K JK 2", ("take", K, 3, 1, 1)),
    ("meld K K K", ("meld", K, 3, 0, 0)),
    ("meld K K JK", ("meld", K, 2, 1, 0)),
    ("meld K K 2", ("meld", K, 2, 0, 1)),
    ("meld 3 3 3", ("meld", BLACK_THREE, 3, 0, 0)),
    ("add K", ("add", K, K)),
    ("add JK to K", ("add", K, JOKER)),
    ("add 2 to K", ("add", K, DEUCE)),
    ("add 3", ("add", BLACK_THREE, BLACK_THREE)),
    ("discard 7", ("discard", SEVEN)),
    ("discard JK", ("discard", JOKER)),
    ("discard 2", ("discard", DEUCE)),
    ("discard 3", ("discard", BLACK_THREE)),
])
def test_canonical_forms(text: str, action: tuple) -> None:
    assert parse_action(text) == action
    assert format_action(action) == text


@pytest.mark.parametrize("text, canonical", [
    ("DRAW", "draw"),
    ("  take   k k k ", "take K K K"),
    ("meld 10 10 10", "meld T T T"),
    ("meld th tc 10d", "meld T T T"),
    ("meld JK K K", "meld K K JK"),          # wild cards may come first in a meld
    ("meld 2 JK K K", "meld K K JK 2"),
    ("take K 2 JK K", "take K K JK 2"),      # naturals, then jokers, then deuces
    ("add joker to k", "add JK to K"),
    ("add 2s onto 7h", "add 2 to 7"),
    ("discard 7H", "discard 7"),
    ("discard 3s", "discard 3"),
    ("take K, K, K", "take K K K"),
    ("meld 3C 3S 3", "meld 3 3 3"),
])
def test_lenient_input_formats_canonically(text: str, canonical: str) -> None:
    assert format_action(parse_action(text)) == canonical


def test_red_three_has_a_token() -> None:
    """Red threes never appear in legal actions (R-RED-1), but a learner may still type one."""
    assert parse_action("discard 3H") == ("discard", RED_THREE)
    assert format_action(("discard", RED_THREE)) == "discard R3"
    assert parse_action("discard R3") == ("discard", RED_THREE)


@pytest.mark.parametrize("text, why", [
    ("", "empty action"),
    ("   ", "empty action"),
    ("meld K Q K", "a meld holds one rank"),
    ("meld", "name the cards"),
    ("take", "name the pile's top card"),
    ("take K Q Q", "a meld holds one rank"),
    ("add", "add one card at a time"),
    ("add K Q", "add one card at a time"),
    ("add JK K", "add one card at a time"),
    ("add JK to", "add one card at a time"),
    ("discard", "discard exactly one card"),
    ("discard K K", "discard exactly one card"),
    ("discard Z", "not a card kind"),
    ("meld K K 1", "not a card kind"),
    ("draw K", "takes no cards"),
    ("pass now", "takes no cards"),
    ("fold", "unknown action"),
    ("meld K K XX", "not a card kind"),
])
def test_malformed_text_raises_notation_error_quoting_it(text: str, why: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    message = str(info.value)
    assert repr(text) in message
    assert why in message


def test_error_message_example() -> None:
    with pytest.raises(NotationError, match=r"^'meld K Q K': a meld holds one rank"):
        parse_action("meld K Q K")


@pytest.mark.parametrize("text, action", [("meld 2 2 JK", ("meld", DEUCE, 2, 1, 0)),
                                          ("meld JK JK", ("meld", JOKER, 0, 2, 0)),
                                          ("meld JK JK 2", ("meld", DEUCE, 1, 2, 0))])
def test_wild_cards_alone_are_an_action_the_engine_refuses_under_r_meld_3(text: str, action: tuple) -> None:
    """R-MELD-3: wild cards never make a meld on their own.  Typed, they are an action (not a notation
    error, which would count no try and cite no rule) that the engine refuses with its rule."""
    assert parse_action(text) == action
    assert parse_action(format_action(action)) == action
    state = Game().new_initial_state(seed=1)
    state.apply(("draw",))
    err = state.explain(action)
    assert err is not None and err.rule == "R-MELD-3"


@pytest.mark.parametrize("bad", [(), ("draw", 1), ("fold",), ("meld", K, 3), ("discard", 99), ("add", K),
                                 ("meld", JOKER, 3, 0, 0), ("meld", K, 0, 3, 0), ("take", JOKER, 0, 1, 0),
                                 "draw", ("take", K, -1, 0, 0)])
def test_format_refuses_what_is_not_a_writable_action(bad: object) -> None:
    with pytest.raises(NotationError):
        format_action(bad)  # type: ignore[arg-type]


def _random_states(count: int, seed: int):
    """States met in random play (several games), each with its legal actions."""
    rng = random.Random(seed)
    game_seed = seed
    state = Game().new_initial_state(game_seed)
    for _ in range(count):
        legal = state.legal_actions()
        yield state, legal
        if not legal:
            game_seed += 1
            state = Game().new_initial_state(game_seed)
            continue
        state.apply_unchecked(rng.choice(legal))
        if state.phase == "game_over":
            game_seed += 1
            state = Game().new_initial_state(game_seed)


def test_round_trip_every_legal_action_of_random_play() -> None:
    """parse(format(a)) == a for every action the engine lists, over a few thousand states."""
    seen: set[tuple] = set()
    for _state, legal in _random_states(4000, seed=11):
        for a in legal:
            text = format_action(a)
            assert parse_action(text) == a, text
            assert format_action(parse_action(text)) == text
            seen.add(a)
    verbs = {a[0] for a in seen}
    assert verbs >= {"draw", "take", "meld", "add", "discard", "ask", "yes", "no", "deal"}
    assert len(seen) > 120


_KINDS = st.integers(0, NUM_KINDS - 1)
_NAT_OR_B3 = st.sampled_from([*range(11), BLACK_THREE])
_COUNT = st.integers(0, 6)

_actions = st.one_of(
    st.sampled_from([("draw",), ("ask",), ("yes",), ("no",), ("pass",), ("deal",)]),
    st.builds(lambda k: ("discard", k), _KINDS),
    st.builds(lambda k, w: ("add", k, w), _KINDS, _KINDS),
    st.builds(lambda k, n, j, d: ("meld", k, n, j, d), _NAT_OR_B3, st.integers(1, 6), _COUNT, _COUNT),
    st.builds(lambda k, n, j, d: ("take", k, n, j, d), _NAT_OR_B3, _COUNT, _COUNT, _COUNT),
    st.builds(lambda n: ("take", JOKER, n, 0, 0), _COUNT),
    st.builds(lambda n, j: ("take", DEUCE, n, j, 0), _COUNT, _COUNT),
)


@given(_actions)
def test_round_trip_property(a: tuple) -> None:
    """Any writable action tuple survives format then parse, and its text is a fixed point."""
    text = format_action(a)
    assert parse_action(text) == a
    assert format_action(parse_action(text)) == text
    assert text == text.strip() and "  " not in text


@given(st.text(max_size=30))
def test_parse_never_crashes_on_junk(text: str) -> None:
    """Junk either parses to something that formats canonically, or raises NotationError."""
    try:
        a = parse_action(text)
    except NotationError as e:
        assert repr(text) in str(e) or "not action text" in str(e)
        return
    assert parse_action(format_action(a)) == a
