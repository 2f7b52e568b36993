"""The plain-text position format: round trips, teacher positions, observer views, errors."""

from __future__ import annotations

import re

import pytest
from helpers_rules import KING, NINE, ok

from canasta_tutor import Game, ImpossiblePositionError, NotationError, RuleOptions
from canasta_tutor.engine.cards import CARD_CODE
from canasta_tutor.notation.position import EXAMPLE, format_position, parse_position

TEACHER = """
# South to play: can she take the pack?
dealer: E
turn: S draw
totals: NS 1200 EW 300
pile: 5H 2C* 9D 9S
N: 11
E: 9
S: 9H 9C KH KD KS 4D 7C JK
W: 10
melds EW: QH QS QD JK; 8H 8D 8S 8C 8H 8D 8S (natural canasta)
red threes EW: 3H
"""


def test_teacher_position_parses():
    """A hand-written teacher position: seats, phase, pile with its freeze, melds and red threes."""
    state = parse_position(TEACHER)
    assert state.current_seat == "S" and state.phase == "draw"
    assert state.totals == [1200, 300] and state.minimums == [50, 50]
    assert [CARD_CODE[c] for c in state.pile] == ["5H", "2C", "9D", "9S"]
    assert state.freeze_at == 1 and state.frozen_for(0) and state.frozen_for(1)
    assert sorted(state.hand("S")) == sorted(["9H", "9C", "KH", "KD", "KS", "4D", "7C", "JK"])
    assert [state.hand_size[i] for i in range(4)] == [11, 9, 8, 10]
    assert state.meld_summary(1) == {QUEEN_KIND: (3, 1), EIGHT_KIND: (7, 0)}
    assert [CARD_CODE[c] for c in state.red3[1]] == ["3H"]
    assert sorted(state.cards_everywhere()) == list(range(108))
    assert len(state.stock) == 108 - 4 - 38 - 11 - 1
    assert ("take", NINE, 2, 1, 0) in state.legal_actions()


QUEEN_KIND, EIGHT_KIND = 8, 4


def test_round_trip_teacher_and_example():
    """format(parse(text)) is stable: format(parse(format(s))) == format(s)."""
    for text in (TEACHER, EXAMPLE):
        state = parse_position(text)
        out = format_position(state)
        again = parse_position(out)
        assert format_position(again) == out
        assert sorted(again.legal_actions()) == sorted(state.legal_actions())
        for seat in "NESW":
            assert again.hand(seat) == state.hand(seat)


@pytest.mark.parametrize("seed", range(5))
def test_round_trip_new_games(seed):
    """A freshly dealt game round-trips, with options, first-turn seats and seed kept."""
    opts = RuleOptions(black_three="stops", upcard_chain="wild_only", wild_limit="half", round_totals=True)
    state = Game(opts).new_initial_state(seed=seed)
    text = format_position(state)
    assert "options: black_three=stops upcard_chain=wild_only wild_limit=half round_totals=true" in text
    parsed = parse_position(text)
    assert parsed.options == opts
    assert format_position(parsed) == text
    assert sorted(parsed.legal_actions()) == sorted(state.legal_actions())


def test_hands_given_as_counts_are_filled():
    """Hands given as counts (``11`` or ``11 cards``) are filled from the unnamed cards, the same way
    every time, never with a red three after the first turn."""
    text = TEACHER.replace("N: 11", "N: 11 cards")
    a, b = parse_position(text), parse_position(text)
    assert a.hand("N") == b.hand("N") and len(a.hand("N")) == 11
    for seat in "NEW":
        assert "3H" not in a.hand(seat) and "3D" not in a.hand(seat)
    assert sorted(a.cards_everywhere()) == list(range(108))


def test_rank_alone_means_any_card_of_that_rank():
    """A rank alone (``K``) stands for any king."""
    state = parse_position(TEACHER.replace("S: 9H 9C KH KD KS", "S: 9H 9C K K K"))
    assert state.hand_counts("S")[KING] == 3


def test_observer_view_hides_other_hands():
    """format_position(state, seat) shows that seat's hand and only counts for the others."""
    state = parse_position(TEACHER)
    ok(state, ("take", NINE, 2, 1, 0))
    view = format_position(state, "E")
    lines = {ln.split(":")[0]: ln for ln in view.splitlines() if re.match(r"^[NESW]:", ln)}
    assert lines["E"] == "E: " + " ".join(state.hand("E"))
    for seat in "NSW":
        assert re.fullmatch(rf"{seat}: \d+ cards( known:( \S+)+)?", lines[seat]), lines[seat]
    assert "known:" in lines["S"]  # South took the pack: the pile's cards are known to be there
    for code in state.hand("S"):
        assert f" {code}" not in lines["S"]
    # the view is itself a position
    parse_position(view)


@pytest.mark.parametrize(
    "text,line,field",
    [
        ("turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\nfoo: 3\n", 6, "foo"),
        ("turn: S draw\nN: 11\nE: 11\nS: 7X\nW: 11\n", 4, "S"),
        ("turn: S jump\nN: 11\nE: 11\nS: 11\nW: 11\n", 1, "turn"),
        ("turn: Q draw\nN: 11\nE: 11\nS: 11\nW: 11\n", 1, "turn"),
        ("turn: S draw\ntotals: NS x EW 0\nN: 11\nE: 11\nS: 11\nW: 11\n", 2, "totals"),
        ("turn: S draw\ndealer: X\nN: 11\nE: 11\nS: 11\nW: 11\n", 2, "dealer"),
        ("turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\npile: 9D ZZ\n", 6, "pile"),
        ("turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\noptions: black_three=maybe\n", 6, "options"),
        ("turn: S draw\nN: 11\nN: 11\nE: 11\nS: 11\nW: 11\n", 3, "n"),
        ("turn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\nmelds NS: QS QH QD (pure)\n", 6, "melds ns"),
    ],
)
def test_malformed_input_names_line_and_field(text, line, field):
    """Malformed input raises NotationError naming the line and the field."""
    with pytest.raises(NotationError) as info:
        parse_position(text)
    err = info.value
    assert not isinstance(err, ImpossiblePositionError)
    assert err.line == line
    assert (err.field or "").lower() == field.lower()
    assert f"line {line}" in str(err)


def test_missing_required_line():
    """A position without its hands or turn is malformed, naming the missing key."""
    with pytest.raises(NotationError) as info:
        parse_position("turn: S draw\nN: 11\nE: 11\nS: 11\n")
    assert info.value.field == "w"
    with pytest.raises(NotationError):
        parse_position("no colon here\n")


BASE = """
dealer: E
turn: S draw
totals: NS 0 EW 0
pile: 9D
N: 11
E: 11
S: {s}
W: 11
{extra}
"""


def _impossible(s="4S 5S 6S 7S 8S TS JS 9S KS AS 4H", extra="", stock=None):
    text = BASE.format(s=s, extra=extra)
    if stock is not None:
        text += f"stock: {stock}\n"
    with pytest.raises(ImpossiblePositionError) as info:
        parse_position(text)
    return info.value


def test_five_jokers_impossible():
    """Five jokers: there are only four."""
    err = _impossible(s="JK JK JK JK JK 4S 5S 6S 7S 8S 9S")
    assert "joker" in str(err) and err.field == "S" and err.line == 8


def test_112_cards_impossible():
    """A position holding 112 cards in all (a game has 108)."""
    state = parse_position(BASE.format(s="4S 5S 6S 7S 8S TS JS 9S KS AS 4H", extra=""))
    n = len(state.stock)
    err = _impossible(stock=n + 4)
    assert "112" in str(err) and "108" in str(err) and err.field == "stock"


def test_meld_with_four_wild_cards_impossible():
    """A meld with four wild cards breaks R-MELD-2."""
    err = _impossible(extra="melds NS: QS QH JK JK 2S 2H")
    assert "wild" in str(err) and err.field.lower() == "melds ns"


def test_natural_canasta_with_deuce_impossible():
    """A canasta marked natural that holds a deuce."""
    err = _impossible(extra="melds NS: QS QH QD QC QS QH 2S (natural canasta)")
    assert "natural" in str(err) and "wild" in str(err)


def test_red_three_in_hand_after_first_turn_impossible():
    """A red three in a hand after that player's first turn (R-RED-1)."""
    err = _impossible(s="3H 5S 6S 7S 8S TS JS QS KS AS 4H")
    assert "red three" in str(err) and err.field == "S"
    # allowed while the seat still waits for its first turn (dealer E: S plays first, then W, N, E)
    text = BASE.format(s="4S 5S 6S 7S 8S TS JS 9S KS AS 4H", extra="first-turn: W N E")
    state = parse_position(text.replace("W: 11", "W: 3H 5H 6H 7H 8H TH JH QH KH AH 4D"))
    assert "3H" in state.hand("W")
    # but the seat playing now has had its first turn
    err = _impossible(s="3H 5S 6S 7S 8S TS JS QS KS AS 4H", extra="first-turn: S W N E")
    assert "first turn" in str(err) and err.field == "first-turn"


def test_two_melds_of_same_rank_impossible():
    """Two melds of the same rank for one side (R-MELD-7)."""
    err = _impossible(extra="melds NS: QS QH QD; QC QS QH")
    assert "two melds" in str(err) and err.field.lower() == "melds ns"


def test_meld_of_wild_cards_only_impossible():
    """A meld of wild cards only (R-MELD-3)."""
    err = _impossible(extra="melds EW: JK 2S 2H")
    assert "wild" in str(err) and err.field.lower() == "melds ew"


def test_other_impossible_positions():
    """More impossible positions: a third copy of a card, a red three melded, a wrong freeze mark."""
    assert "two decks" in str(_impossible(s="AS AS AS 5S 6S 7S 8S TS JS QS KS"))
    assert "red three" in str(_impossible(extra="melds NS: 3H 3D 3H"))
    text = BASE.format(s="4S 5S 6S 7S 8S TS JS 9S KS AS 4H", extra="").replace("pile: 9D", "pile: 9D* 8D")
    with pytest.raises(ImpossiblePositionError):
        parse_position(text)
