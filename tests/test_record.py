"""Game records: format, parse, replay; tampered records fail naming the line."""

from __future__ import annotations

import random

import pytest

from canasta_tutor import Game, NotationError, RuleOptions
from canasta_tutor.notation.record import (
    Record,
    RecordMismatchError,
    format_record,
    parse_record,
    replay,
    start_totals,
)


def play(state, rng: random.Random, hands: int | None = None, actions: int | None = None):
    done = 0
    count = 0
    while state.phase != "game_over":
        if actions is not None and count >= actions:
            break
        state.apply_unchecked(rng.choice(state.legal_actions()))
        count += 1
        if state.phase in ("hand_over", "game_over"):
            done += 1
            if hands is not None and done >= hands:
                break
    return state


@pytest.fixture(scope="module")
def game_state():
    return play(Game().new_initial_state(21), random.Random(21), hands=3)


def test_round_trip_of_a_played_game(game_state) -> None:
    text = format_record(game_state)
    record = parse_record(text)
    assert record.seed == 21
    assert record.dealer == "draw"
    assert record.seats == tuple(game_state.players)
    assert len(record.actions) == len(game_state.history)
    assert [a for _, a in record.actions] == game_state.history
    assert record.result == tuple(game_state.totals)
    final = replay(record)
    assert final.history == game_state.history
    assert final.totals == game_state.totals
    assert final.hand_results == game_state.hand_results
    assert final.hands == game_state.hands and final.melds == game_state.melds
    assert format_record(final) == text


def test_record_carries_options_totals_and_a_fixed_dealer() -> None:
    opts = RuleOptions(black_three="stops", wild_limit="half")
    state = Game(opts).new_initial_state(5, players=("P1", "P2", "P3", "P4"), totals=(1500, -20), dealer="W")
    play(state, random.Random(5), hands=2)
    text = format_record(state)
    assert "options: black_three=stops wild_limit=half" in text
    assert "players: P1, P2, P3, P4" in text
    assert "totals: 1500 -20" in text
    assert "dealer: W" in text and "seats:" not in text
    record = parse_record(text)
    assert record.options == opts
    assert record.totals == (1500, -20)
    assert start_totals(state) == (1500, -20)
    final = replay(record)
    assert final.totals == state.totals and final.players == ("P1", "P2", "P3", "P4")


def test_draw_for_seats_is_rebuilt_from_the_draw_order() -> None:
    """R-SEAT-1..3: the record gives the players in the order they drew; the draw seats them again."""
    state = Game().new_initial_state(8, players=("P1", "P2", "P3", "P4"))
    play(state, random.Random(8), actions=40)
    record = parse_record(format_record(state))
    assert record.players == ("P1", "P2", "P3", "P4")
    assert replay(record).players == state.players


def test_mid_hand_record_replays() -> None:
    state = play(Game().new_initial_state(9), random.Random(9), actions=57)
    final = replay(parse_record(format_record(state)))
    assert final.history == state.history and final.phase == state.phase


def _tamper(text: str, old: str, new: str, occurrence: int = 1) -> tuple[str, int]:
    """Replace the ``occurrence``-th line equal to ``old``; return the text and its line number."""
    lines = text.splitlines()
    seen = 0
    for i, line in enumerate(lines):
        if line == old:
            seen += 1
            if seen == occurrence:
                lines[i] = new
                return "\n".join(lines) + "\n", i + 1
    raise AssertionError(f"no line {old!r}")


def test_tampered_result_fails_with_its_line(game_state) -> None:
    text = format_record(game_state)
    result_line = next(line for line in text.splitlines() if line.startswith("result:"))
    bad, no = _tamper(text, result_line, "result: NS 1 EW 2")
    with pytest.raises(RecordMismatchError) as info:
        replay(parse_record(bad))
    assert info.value.line == no
    assert f"line {no}" in str(info.value)
    # without the check, it replays
    assert replay(parse_record(bad), check_result=False).totals == game_state.totals


def test_illegal_action_names_line_and_rule(game_state) -> None:
    text = format_record(game_state)
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line[:1] in "NESW" and line[1:] == " draw")
    seat = lines[i].split()[0]
    lines[i] = f"{seat} meld K K K"     # melding before drawing (R-TURN-2)
    with pytest.raises(NotationError) as info:
        replay(parse_record("\n".join(lines)))
    assert info.value.line == i + 1
    assert "illegal" in str(info.value) and "[R-" in str(info.value)


def test_wrong_seat_names_line(game_state) -> None:
    text = format_record(game_state)
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("S "))
    lines[i] = "N" + lines[i][1:]
    with pytest.raises(NotationError) as info:
        replay(parse_record("\n".join(lines)))
    assert info.value.line == i + 1 and info.value.field == "seat"
    assert "S's turn" in str(info.value)


def test_tampered_seed_fails_somewhere() -> None:
    state = play(Game().new_initial_state(3), random.Random(3), hands=1)
    text = format_record(state).replace("seed: 3", "seed: 4")
    with pytest.raises(NotationError) as info:
        replay(parse_record(text))
    assert info.value.line is not None or info.value.field == "seats"


@pytest.mark.parametrize("text, line, field", [
    ("seed: x\n", 1, "seed"),
    ("seed: 1\nseed: 2\n", 2, "seed"),
    ("seed: 1\noptions: black_three=maybe\n", 2, "options"),
    ("seed: 1\nplayers: A, B, C\n", 2, "players"),
    ("seed: 1\nplayers: A, A, B, C\n", 2, "players"),
    ("seed: 1\ntotals: 1 2 3\n", 2, "totals"),
    ("seed: 1\ndealer: X\n", 2, "dealer"),
    ("seed: 1\ncolour: blue\n", 2, "colour"),
    ("seed: 1\nactions:\nS draw\nS meld K Q K\n", 4, "actions"),
    ("seed: 1\nactions:\nQ draw\n", 3, "actions"),
    ("seed: 1\n# comment\njust words\n", 3, None),
])
def test_malformed_record_names_line_and_field(text: str, line: int, field: str | None) -> None:
    with pytest.raises(NotationError) as info:
        parse_record(text)
    assert info.value.line == line
    assert info.value.field == field


def test_record_needs_a_seed() -> None:
    with pytest.raises(NotationError, match="seed"):
        parse_record("# nothing\nactions:\n")


def test_minimal_record_defaults() -> None:
    record = parse_record("seed: 12\nactions:\nS draw\n")
    assert record == Record(seed=12, actions=[("S", ("draw",))], action_lines=[3])
    state = replay(record)
    assert state.phase == "meld" and state.current_seat == "S"


def test_comments_and_result_forms() -> None:
    record = parse_record("seed: 12   # the seed\nactions:\n# a comment\nS draw  # first\nresult: 0 0\n")
    assert record.result == (0, 0) and record.result_line == 5
    assert replay(record).totals == [0, 0]
