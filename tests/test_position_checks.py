"""Every reproducer of the notation-hardening issue: impossible positions refused, round trips,
bounded input, messages in our notation."""

from __future__ import annotations

import random
import time

import pytest

from canasta_tutor import Game, ImpossiblePositionError, NotationError
from canasta_tutor.notation.actions import parse_action
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import EXAMPLE, format_position, parse_position, validate_position
from canasta_tutor.notation.record import format_record, parse_record

HEAD = """\
dealer: E
totals: NS 0 EW 0
pile: 9D 5S
"""


def _refused(text: str) -> ImpossiblePositionError:
    with pytest.raises(ImpossiblePositionError) as info:
        parse_position(text)
    err = info.value
    assert err.line is not None and err.field, f"no line or field in {err}"
    return err


# ------------------------------------------------------- dead ends and flags
def test_told_yes_with_a_hand_that_cannot_go_out() -> None:
    """`turn: S meld answer=yes` with S holding 4D 5C: no legal action, so refused."""
    text = HEAD + "turn: S meld answer=yes\nN: 11\nE: 11\nS: 4D 5C\nW: 11\n"
    err = _refused(text)
    assert "asked" in str(err) or "answer" in str(err)
    err = _refused(text.replace("answer=yes", "asked-after-draw answer=yes"))
    assert err.field == "turn" and err.line == 4


def test_answer_without_asked() -> None:
    err = _refused(HEAD + "turn: S draw answer=yes\nN: 11\nE: 11\nS: 11\nW: 11\n")
    assert "without a question" in err.message and err.field == "turn"


def test_negative_pending_and_pending_without_melds() -> None:
    assert "negative" in _refused(HEAD + "turn: S meld melded pending=-30\nN: 11\nE: 11\nS: 9\nW: 11\n"
                                  "melds NS: KS KH KD\n").message
    assert "no melds" in _refused(HEAD + "turn: S meld pending=30\nN: 11\nE: 11\nS: 9\nW: 11\n").message


def test_shown_with_an_empty_pile() -> None:
    text = "dealer: E\nturn: S draw shown pending=40\npile: -\nN: 11\nE: 11\nS: 8\nW: 11\nmelds NS: KS KH KD KC\n"
    assert "pile is empty" in _refused(text).message


def test_acting_seat_in_first_turn() -> None:
    err = _refused(HEAD + "turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\nfirst-turn: S W N E\n")
    assert err.field == "first-turn" and "S" in err.message


def test_black_threes_on_the_table_in_the_draw_phase() -> None:
    err = _refused(HEAD + "turn: S draw\nN: 11\nE: 11\nS: 8\nW: 11\nmelds NS: 3S 3C 3S\n")
    assert "black threes" in err.message and err.field == "melds ns"


def test_game_over_at_nothing_to_nothing() -> None:
    err = _refused(HEAD + "turn: S game_over\nN: 11\nE: 11\nS: 11\nW: 11\n")
    assert "5000" in err.message


def test_game_still_played_at_5000() -> None:
    text = HEAD.replace("NS 0 EW 0", "NS 5100 EW 300") + "turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\n"
    assert _refused(text).field == "totals"


def test_red_three_in_the_middle_of_the_pile() -> None:
    err = _refused(HEAD.replace("pile: 9D 5S", "pile: 9D 3H 5S") + "turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\n")
    assert "red three" in err.message and err.field == "pile"
    # at the bottom, as the upcard, it is fine
    parse_position(HEAD.replace("pile: 9D 5S", "pile: 3H* 9D 5S") + "turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\n")


def test_hands_that_do_not_add_up() -> None:
    """Four hands of 27 cards and an empty stock: 108 cards, but nobody took a pack."""
    deck = [r + s for r in "23456789TJQKA" for s in "SHDC"] * 2 + ["JK"] * 4
    rng = random.Random(1)
    rng.shuffle(deck)
    deck = [c for c in deck if c[0] != "3" or c[1] in "SC"] + [c for c in deck if c[0] == "3" and c[1] in "HD"]
    reds = [c for c in deck if c[0] == "3" and c[1] in "HD"]
    rest = [c for c in deck if c not in reds]
    hands = [rest[i::4] for i in range(4)]
    lines = [f"{seat}: {' '.join(h)}" for seat, h in zip("NESW", hands, strict=True)]
    lines.append("red threes NS: " + " ".join(reds))
    text = "dealer: E\nturn: S draw\npile: -\nstock: -\n" + "\n".join(lines) + "\n"
    err = _refused(text)
    assert "at most" in err.message


def test_a_view_of_the_project_output_is_playable() -> None:
    """deal --seed 704344, South draws and melds: North's view parses to a playable state."""
    state = Game().new_initial_state(seed=704344)
    for text in ("draw", "meld Q Q 2", "meld K K JK"):
        state.apply(parse_action(text))
    for seat in "NESW":
        view = parse_position(observe(state, seat).position_text)
        assert view.legal_actions()


# ------------------------------------------------------------- round trips
def test_hand_over_with_first_turn_round_trips() -> None:
    state = Game().new_initial_state(seed=3)
    rng = random.Random(0)
    while state.phase != "hand_over" and state.phase != "game_over":
        state.apply(rng.choice(state.legal_actions()))
    text = format_position(state)
    assert format_position(parse_position(text)) == text


@pytest.mark.parametrize("name", ["A#1", "A\rB", "A\u2028B", " P1", "P1,P2", "", "x" * 41])
def test_player_names_that_cannot_be_written_are_refused(name: str) -> None:
    with pytest.raises(NotationError, match=r"player name|players"):
        Game().new_initial_state(seed=1, players=(name, "B", "C", "D"))


def test_player_names_with_inner_spaces_round_trip() -> None:
    state = Game().new_initial_state(seed=1, players=("Player 1", "P2", "P3", "P4"))
    assert sorted(parse_position(format_position(state)).players) == sorted(state.players)
    assert parse_record(format_record(state)).players == ("Player 1", "P2", "P3", "P4")


def test_duplicate_players_are_a_clear_error() -> None:
    with pytest.raises(NotationError, match="must differ"):
        Game().new_initial_state(players=("A", "A", "B", "C"))


def test_add_with_a_kind_past_the_last() -> None:
    state = Game().new_initial_state(seed=2)
    err = state.explain(("add", 9, 15))
    assert err is not None and err.rule == "R-TURN-2"
    with pytest.raises(Exception) as info:
        state.apply(("add", 9, 15))
    assert not isinstance(info.value, IndexError)


def test_a_meld_of_24_kings_is_named_in_our_notation() -> None:
    state = Game().new_initial_state(seed=2)
    state.apply(("draw",))
    err = state.explain(parse_action("meld " + " ".join(["K"] * 24)))
    assert err is not None and "('meld'" not in str(err)


# --------------------------------------------------------------- the stock
def test_stock_top_round_trips_and_is_drawn_first() -> None:
    text = EXAMPLE.replace("stock: 54", "stock: 54 top 3H 6S")
    state = parse_position(text)
    out = format_position(state)
    assert "stock: 54 top 3H 6S" in out
    assert format_position(parse_position(out)) == out
    state.apply(("draw",))
    assert "6S" in state.hand("S") and len(state.stock) == 52
    assert "stock: 52\n" in format_position(state)  # the named cards are gone


def test_empty_stock_round_trips() -> None:
    """A hand played down to the last stock card: 'stock: 0' is written and read back."""
    for seed in range(40):
        state = Game().new_initial_state(seed=seed)
        rng = random.Random(seed)
        while state.phase in ("draw", "meld", "answer") and state.stock:
            state.apply(rng.choice(state.legal_actions()))
        if state.phase in ("draw", "meld", "answer"):
            break
    else:
        pytest.fail("no hand ran out of stock")
    text = format_position(state)
    assert "stock: 0\n" in text
    again = parse_position(text)
    assert again.stock == [] and format_position(again) == text and again.legal_actions()
    assert parse_position(text.replace("stock: 0", "stock: -")).stock == []


def test_stock_top_needs_a_count_at_least_as_big() -> None:
    with pytest.raises(ImpossiblePositionError, match="named on top"):
        parse_position(EXAMPLE.replace("stock: 54", "stock: 1 top 3H 6S"))
    with pytest.raises(NotationError, match="top"):
        parse_position(EXAMPLE.replace("stock: 54", "stock: many top 3H"))


# ---------------------------------------------------------- bounded input
def test_many_open_parentheses_are_fast() -> None:
    text = EXAMPLE + "melds NS: " + "(" * 60_000 + "\n"
    start = time.perf_counter()
    with pytest.raises(NotationError):
        parse_position(text)
    assert time.perf_counter() - start < 2


def test_huge_count_is_our_own_error() -> None:
    for digits in (4300, 1000):
        with pytest.raises(NotationError) as info:
            parse_position(EXAMPLE.replace("N: 11", "N: " + "9" * digits))
        err = info.value
        assert err.line == 7 and err.field == "N" and ("too large" in err.message or "long" in err.message)
        assert len(str(err)) < 300
    with pytest.raises(NotationError, match="too large"):
        parse_position(EXAMPLE.replace("N: 11", "N: " + "9" * 1000))


def test_long_input_is_refused_with_a_clear_message() -> None:
    with pytest.raises(NotationError, match="characters"):
        parse_position(EXAMPLE + "# " + "x" * 200_000 + "\n")
    with pytest.raises(NotationError, match="line is"):
        parse_position(EXAMPLE + "# " + "x" * 5_000 + "\n")


def test_byte_order_mark_is_accepted() -> None:
    assert parse_position("\ufeff" + EXAMPLE).current_seat == "S"


def test_long_action_text_is_cut_in_the_message() -> None:
    with pytest.raises(NotationError) as info:
        parse_action("meld " + "Z" * 100_000)
    assert len(str(info.value)) < 1000


def test_validate_position_is_callable_on_a_state() -> None:
    state = Game().new_initial_state(seed=9)
    validate_position(state)
    state.hand_size[0] = 30
    with pytest.raises(ImpossiblePositionError):
        validate_position(state)
