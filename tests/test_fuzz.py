"""Fuzzing the notation: generated and mutated positions and records, seat views of self-play.

Every input either raises a clean :class:`NotationError` (or its :class:`ImpossiblePositionError`)
or gives a position that reads back to itself and, while the hand is played, has a legal action.

The default run is sized to a few seconds.  A longer run::

    CANASTA_FUZZ=long .venv/bin/python -m pytest -p no:cacheprovider tests/test_fuzz.py

tries many more inputs (see ``EXAMPLES``); the soak of seat views also has a ``slow`` long form.
``make test-fast`` sets ``CANASTA_FUZZ=quick``: there every property test that sizes its run with
:func:`examples` or :func:`sized` tries a quarter of its inputs (at least ten), and ``make test`` tries them all.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor import Game, NotationError
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.notation.record import format_record, parse_record, replay
from canasta_tutor.engine.state import State

LONG = os.environ.get("CANASTA_FUZZ") == "long"
#: The quick loop (``make test-fast``): the same properties on fewer inputs.
QUICK = os.environ.get("CANASTA_FUZZ") == "quick"
#: Inputs each fuzz test tries: (default run, CANASTA_FUZZ=long).
EXAMPLES = {"positions": (300, 6000), "records": (150, 3000), "views": (40, 600),
            "variant positions": (80, 1600), "variant records": (60, 1200), "messages": (60, 1200),
            "lessons": (40, 800), "lesson bytes": (30, 600), "assignments": (80, 1600), "logs": (60, 1200),
            "stores": (60, 1200), "record files": (60, 1200)}
SETTINGS = dict(deadline=None, derandomize=not LONG, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def sized(count: int) -> int:
    """``count`` inputs, or a quarter of them (at least ten) in the quick loop."""
    return max(10, count // 4) if QUICK else count


def examples(name: str) -> int:
    return EXAMPLES[name][1] if LONG else sized(EXAMPLES[name][0])


PLAYING = ("draw", "meld", "answer")


def _played(seed: int, steps: int) -> State:
    """A state after up to ``steps`` random legal actions from a seeded deal (asks and melds favoured)."""
    state = Game().new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase == "game_over":
            break
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] in ("ask", "yes", "meld", "take")]
        state.apply(rng.choice(keen if keen and rng.random() < 0.5 else legal))
    return state


def _check_position_text(text: str) -> None:
    """The property: a clean notation error, or a position that passes the engine's invariants (all
    but those that need the game's history), round-trips and can be played."""
    try:
        state = parse_position(text)
    except NotationError as e:
        assert str(e) and len(str(e)) < 1200
        return
    assert check_invariants(state, history=False) == [], text
    out = format_position(state)
    again = parse_position(out)
    assert format_position(again) == out
    assert check_invariants(again, history=False) == []
    if state.phase in PLAYING:
        assert state.legal_actions(), f"no legal action in\n{out}"
        assert again.legal_actions()


# -------------------------------------------------------------- mutations
TOKENS = ["-", "0", "1", "11", "-5", "99", "9" * 30, "(", ")", ";", ":", "*", "#", "JK", "2C", "3H", "3D",
          "3S", "KS", "K", "10", "AH", "5C", "XX", "asked", "asked-after-draw", "answer=yes", "answer=no",
          "melded", "took-pack", "shown", "pending=40", "pending=-1", "went-out", "draw", "meld", "answer",
          "hand_over", "game_over", "N", "E", "S", "W", "NS", "EW", "top", "cards", "(natural canasta)",
          "(mixed canasta)", "known:", "\ufeff", "\u2028", "\r", "é", "first-turn:", "melded-before:",
          "stock:", "pile:", "melds NS:", "red threes EW:", "totals:", "5000", "NS 5000 EW 0"]


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    text = draw(base)
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["drop", "dup", "swap", "token", "insert", "cut", "junk"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "drop" and lines:
            lines.pop(i)
        elif op == "dup" and lines:
            lines.insert(i, lines[i])
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "token" and lines:
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(st.sampled_from(TOKENS))
            lines[i] = " ".join(words)
        elif op == "insert" and lines:
            words = lines[i].split(" ")
            words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(TOKENS)))
            lines[i] = " ".join(words)
        elif op == "cut" and lines:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "junk":
            lines.insert(i, draw(st.text(max_size=30)))
    return "\n".join(lines)


@st.composite
def positions(draw: st.DrawFn) -> str:
    """The text of a reachable position: the full state, or one seat's view."""
    state = _played(draw(st.integers(0, 10**6)), draw(st.integers(0, 160)))
    seat = draw(st.sampled_from([None, 0, 1, 2, 3]))
    return format_position(state) if seat is None else observe(state, seat).position_text


@settings(max_examples=examples("positions"), **SETTINGS)
@given(mutated(positions()))
def test_mutated_positions_are_refused_cleanly_or_playable(text: str) -> None:
    _check_position_text(text)


@settings(max_examples=examples("views"), **SETTINGS)
@given(positions())
def test_generated_positions_read_back(text: str) -> None:
    state = parse_position(text)
    assert format_position(parse_position(format_position(state))) == format_position(state)
    if state.phase in PLAYING:
        assert state.legal_actions()


# ----------------------------------------------------------------- records
@st.composite
def records(draw: st.DrawFn) -> str:
    state = _played(draw(st.integers(0, 10**6)), draw(st.integers(0, 120)))
    return format_record(state)


@settings(max_examples=examples("records"), **SETTINGS)
@given(mutated(records()))
def test_mutated_records_are_refused_cleanly_or_replay(text: str) -> None:
    try:
        record = parse_record(text)
        state = replay(record)
    except NotationError as e:
        assert str(e) and len(str(e)) < 1200
        return
    again = replay(parse_record(format_record(state, start=record.totals)))
    assert again.history == state.history and again.totals == state.totals


# ------------------------------------------------ seat views in self-play
def _soak(games: int, seed: int) -> int:
    """Every seat's view of every state of ``games`` random hands parses to a playable state that
    reads back to itself; returns the number of views checked."""
    checked = 0
    rng = random.Random(seed)
    for g in range(games):
        state = Game().new_initial_state(seed=seed * 1000 + g)
        while state.phase in PLAYING:
            for seat in range(4):
                text = observe(state, seat).position_text
                view = parse_position(text)
                assert view.legal_actions(), text
                assert view.current_seat == state.current_seat
                assert format_position(view, seat) == text
                checked += 1
            legal = state.legal_actions()
            keen = [a for a in legal if a[0] in ("ask", "yes", "meld", "take")]
            state.apply(rng.choice(keen if keen and rng.random() < 0.5 else legal))
    return checked


def test_seat_views_of_self_play_parse_to_playable_states() -> None:
    assert _soak(games=2, seed=1) > 300


@pytest.mark.slow
def test_seat_views_of_self_play_soak() -> None:
    assert _soak(games=60, seed=2) > 10_000
