"""Pennies from Heaven (R-PEN-1..14): the book, the variant, the packets, the sevens, exact-seven canastas,
the four kinds of canasta and going out, scoring, positions and records, and seeded play.

The held-out rule cases (a position and the engine's answer each) are in tests/test_variant_pennies_cases.py.
"""

from __future__ import annotations

import pytest

from canasta_tutor.engine.rulebook import book_path, parse_rules

BOOK = parse_rules(book_path().read_text(encoding="utf-8"))

#: rule -> the phrases its text must state
FIGURES = {
    "R-PEN-1": ("Six players", "two sides of three", "alternate"),
    "R-PEN-2": ("four 52-card decks", "eight jokers", "216 cards", "eight red threes"),
    "R-PEN-3": ("thirteen cards", "packet of eleven", "face down", "72 cards"),
    "R-PEN-4": ("Nobody looks at a packet", "its owner included", "they themselves complete a canasta",
                "whichever partner started it", "no replacement"),
    "R-PEN-5": ("top two cards", "one discard"),
    "R-PEN-6": ("exactly seven cards", "past seven", "one meld of each rank"),
    "R-PEN-7": ("Wild cards may be melded on their own", "jokers and deuces", "wild canasta",
                "at most one meld of wild cards"),
    "R-PEN-8": ("four kinds of canasta", "natural canasta", "500", "mixed canasta", "300", "wild canasta",
                "1,000", "canasta of sevens", "1,500"),
    "R-PEN-9": ("may not be discarded until each side has a canasta of sevens", "never be the discard",
                "nothing but sevens"),
    "R-PEN-10": ("each of the four kinds", "packet still lies face down may not go out"),
    "R-PEN-11": ("100 each", "1,000 in all", "all eight", "canasta of sevens", "taken off"),
    "R-PEN-12": ("15 below", "50 from 0 to 495", "90 from 500 to 995", "120 from 1,000 to 1,495",
                 "150 from 1,500 up"),
    "R-PEN-13": ("never taken up count against", "Going out earns 100"),
    "R-PEN-14": ("20,000", "R-GAME-2"),
}


@pytest.mark.parametrize("rule", sorted(FIGURES))
def test_the_book_states_the_figures(rule: str) -> None:
    """R-PEN-1..14 are in the Pennies from Heaven section and state their figures."""
    assert BOOK[rule].title == "Pennies from Heaven"
    missing = [p for p in FIGURES[rule] if p not in BOOK[rule].text]
    assert not missing, f"{rule} does not state {missing}"


def test_every_pennies_rule_has_figures() -> None:
    assert sorted(r for r in BOOK if r.startswith("R-PEN-")) == sorted(FIGURES)


# ---------------------------------------------------------------- the variant and the deal
from canasta_tutor.engine.cards import DEUCE, JOKER  # noqa: E402
from canasta_tutor.engine.game import Game  # noqa: E402
from canasta_tutor.engine.invariants import check_invariants  # noqa: E402
from canasta_tutor.engine.pennies import (  # noqa: E402
    FOUR_KINDS_DOWN,
    SEVEN,
    PenniesState,
    can_go_out_pennies,
    canasta_kind,
)
from canasta_tutor.engine.variants import get_variant  # noqa: E402
from canasta_tutor.notation.actions import parse_action  # noqa: E402
from canasta_tutor.notation.position import format_position, parse_position  # noqa: E402

PEN = get_variant("pennies")


def test_six_players_in_two_sides_of_three_sitting_alternately() -> None:
    """R-PEN-1: six seats, two sides, the turn passing from one side to the other at every seat."""
    assert (PEN.players, PEN.n_sides, PEN.side_names) == (6, 2, ("NPW", "ESQ"))
    assert all(PEN.side_of(s) != PEN.side_of(PEN.next_seat(s)) for s in range(6))
    assert PEN.partners(PEN.seats.index("S")) == (PEN.seats.index("E"), PEN.seats.index("Q"))


def test_four_packs_thirteen_cards_and_a_packet_of_eleven() -> None:
    """R-PEN-2, R-PEN-3: 216 cards; thirteen in hand and eleven face down for each player; 72 left (the upcard
    and the first player's red-three replacements come from them)."""
    state = Game(variant="pennies").new_initial_state(seed=5)
    assert isinstance(state, PenniesState)
    assert PEN.num_cards == 216 and len(state.cards_everywhere()) == 216
    assert all(len(p) == 11 for p in state.packets)
    assert [state.hand_size[s] for s in range(6) if state.first_turn_done[s] is False] == [13] * 5
    laid = sum(len(r) for r in state.red3)
    assert len(state.stock) + len(state.pile) == 72 - laid
    assert check_invariants(state) == []


def test_the_draw_is_two_cards() -> None:
    """R-PEN-5: a draw from the stock brings two cards."""
    state = Game(variant="pennies").new_initial_state(seed=5)
    seat = state.turn
    before = state.hand_size[seat]
    state.apply(("draw",))
    assert state.hand_size[seat] == before + 2


def test_minimums_and_target() -> None:
    """R-PEN-12, R-PEN-14: 15, 50, 90, 120, 150 by the side's total; a game of 20,000."""
    assert [PEN.minimum_for(t) for t in (-5, 0, 495, 500, 995, 1000, 1495, 1500, 9000)] == [
        15, 50, 50, 90, 90, 120, 120, 150, 150]
    assert PEN.target == 20000


# ---------------------------------------------------------------- positions
BASE = """canasta-tutor position
variant: pennies
turn: S meld
totals: NPW 0 ESQ 0
packets: N 11 E 11 P 11 S {s_packet} W 11 Q 11
pile: 8S
N: 13 cards
E: 13 cards
P: 13 cards
S: {hand}
W: 13 cards
Q: 13 cards
"""


def position(hand: str, melds: str = "", s_packet: int = 0, extra: str = "") -> PenniesState:
    text = BASE.format(hand=hand, s_packet=s_packet) + (f"melds ESQ: {melds}\n" if melds else "") + extra
    state = parse_position(text)
    assert isinstance(state, PenniesState)
    return state


KINGS = "KS KH KD KC KS KH KD (natural canasta)"


def test_a_seven_is_not_discarded_before_each_side_has_a_canasta_of_sevens() -> None:
    """R-PEN-9: sevens stay in hand until each side has its canasta of sevens; a hand of nothing but sevens may
    let one go (ruling 22)."""
    state = position("7C 7D 9S 9H QH", KINGS)
    err = state.explain(("discard", SEVEN))
    assert err is not None and err.rule == "R-PEN-9"
    assert state.explain(("discard", 5)) is None
    only = position("7C 7D", KINGS)
    assert only.explain(("discard", SEVEN)) is None


def test_a_seven_is_discarded_once_both_sides_have_their_canasta_of_sevens_but_never_to_go_out() -> None:
    """R-PEN-9: with both canastas of sevens down, sevens may be discarded, but a seven is never the card a
    player goes out on: a meld that would leave a lone seven to go out with is refused."""
    sevens = "7S 7H 7D 7C 7S 7H 7D (canasta of sevens)"
    state = position("7C 9S 9H", f"{KINGS}; {sevens}", extra="melds NPW: 7S 7H 7D 7C 7S 7H 7D\n")
    assert state.sevens_free() and state.explain(("discard", SEVEN)) is None
    four = "KS KH KD KC KS KH KD; QS QH QC QD QS 2H 2D; 2S 2H 2D 2C JK JK 2S; " + sevens
    last = position("7C 9S 9H 9D", four, extra="melds NPW: 7S 7H 7D 7C 7S 7H 7D\n")
    err = last.explain(parse_action("meld 9 9 9"))
    assert err is not None and err.rule == "R-PEN-9"
    nine = position("5C 9S 9H 9D", four, extra="melds NPW: 7S 7H 7D 7C 7S 7H 7D\n")
    assert nine.explain(parse_action("meld 9 9 9")) is None


def test_a_canasta_holds_exactly_seven_cards() -> None:
    """R-PEN-6: nothing is added to a canasta, and the pack is not taken onto one."""
    state = position("KD QH QD 9S 9H", KINGS)
    for action in (("add", 9, 9), ("add", 9, JOKER)):
        err = state.explain(action)
        assert err is not None and err.rule == "R-PEN-6", action
    seven = position("QH QD 9S 9H 5C", "QS QH QC QD QS QH 2C")
    err = seven.explain(("add", 8, 8))
    assert err is not None and err.rule == "R-PEN-6"


def test_wild_cards_are_melded_on_their_own() -> None:
    """R-PEN-7: three wild cards start a meld of wild cards, jokers and deuces alike, kept under the rank of
    deuces; a natural card never joins it."""
    state = position("2S 2H JK 5C 5D 9S", KINGS)
    action = parse_action("meld 2 2 JK")
    assert action == ("meld", DEUCE, 2, 1, 0)
    assert state.explain(action) is None
    state.apply(action)
    assert sorted(len(m) for m in state.melds[1][DEUCE]) == [0, 3]
    assert state.explain(("add", DEUCE, 5)) is not None
    assert "2S 2H JK" in format_position(state)


def test_the_packet_is_taken_up_when_its_owner_completes_a_canasta() -> None:
    """R-PEN-4: laying the seventh card of a meld brings the player's packet into the hand, and the turn goes
    on; nobody saw it before."""
    state = position("QC 5C 5D 9S 9H", "QS QH QC QD QS QH", s_packet=11)
    seat = state.variant.seats.index("S")
    assert len(state.packets[seat]) == 11
    size = state.hand_size[seat]
    reds_before = len(state.red3[1])
    state.apply(parse_action("add Q"))
    reds = len(state.red3[1]) - reds_before
    assert state.packets[seat] == [] and state.hand_size[seat] == size - 1 + 11 - reds
    assert state.phase == "meld" and state.turn == seat


def test_four_kinds_of_canasta() -> None:
    """R-PEN-8: natural, mixed, wild and sevens."""
    assert [canasta_kind(k, n, w) for k, (n, w) in FOUR_KINDS_DOWN.items()] == ["natural", "mixed", "wild",
                                                                                  "sevens"]
    assert canasta_kind(SEVEN, 5, 2) == "sevens" and canasta_kind(9, 5, 1) is None


def test_going_out_needs_a_canasta_of_each_kind_and_the_packet_taken_up() -> None:
    """R-PEN-10: a side with three kinds may not go out; one with all four may, but not a player whose
    packet is still face down."""
    c = [0] * 15
    c[5] = 1
    three = {k: v for k, v in FOUR_KINDS_DOWN.items() if k != DEUCE}
    assert can_go_out_pennies(c, FOUR_KINDS_DOWN, PEN_OPTIONS)
    assert not can_go_out_pennies(c, three, PEN_OPTIONS)
    melds = "KS KH KD KC KS KH KD; QS QH QC QD QS 2H 2D; 2S 2H 2D 2C JK JK 2S; 7S 7H 7D 7C 7S 7H 7D"
    state = position("9S", melds)
    assert state.explain(("discard", 5)) is None
    face_down = position("9S 9H", melds, s_packet=11)
    err = face_down.explain(("discard", 5))
    assert err is None  # two cards: a discard that keeps one
    face_down_meld = position("9S 9H 9D 5C", melds, s_packet=11)
    err = face_down_meld.explain(parse_action("meld 9 9 9"))
    assert err is not None and err.rule == "R-PEN-10"
    assert position("9S 9H 9D 5C", melds).explain(parse_action("meld 9 9 9")) is None


def test_the_score_red_threes_and_packets() -> None:
    """R-PEN-8, R-PEN-11, R-PEN-13: the four bonuses; red threes taken off a side with no canasta of sevens; a
    packet never taken up counts against its side."""
    melds = "KS KH KD KC KS KH KD; QS QH QC QD QS 2H 2D; 2S 2H 2D 2C JK JK 2S; 7S 7H 7D 7C 7S 7H 7D"
    state = position("9S", melds, extra="red threes ESQ: 3H 3D\nred threes NPW: 3H\n")
    result = state.score_hand()
    esq, npw = result.sides[1], result.sides[0]
    assert (esq.natural_canastas, esq.mixed_canastas, esq.extra_bonuses) == (1, 1, 2500)
    assert esq.red_threes == 200 and npw.red_threes == -100
    packets_against = sum(CARD_VALUE[c] for s in (0, 2, 4) for c in state.packets[s])
    hands_against = sum(CARD_VALUE[c] for s in (0, 2, 4) for k in state.hands[s] for c in k)
    assert npw.in_hand == -(packets_against + hands_against)


def test_positions_round_trip_and_hide_the_packets() -> None:
    """R-PEN-4: a position gives each packet as a number only, for every reader, and reads back the same."""
    state = Game(variant="pennies").new_initial_state(seed=11)
    text = format_position(state)
    assert "packets: N 11 E 11 P 11 S 11 W 11 Q 11" in text
    assert format_position(parse_position(text)) == text
    view = format_position(state, "S")
    assert "packets: N 11 E 11 P 11 S 11 W 11 Q 11" in view


from canasta_tutor.engine.cards import CARD_VALUE  # noqa: E402
from canasta_tutor.engine.options import RuleOptions  # noqa: E402

PEN_OPTIONS = RuleOptions()


def test_the_first_pennies_lesson_checks_and_the_classic_course_stays(capsys: pytest.CaptureFixture[str]) -> None:
    """R-PEN-4, R-PEN-7, R-PEN-9: the lesson on the packet, the wild meld and the sevens passes `lesson check`
    (every level's solution reaches its goal on the engine), in the families folder, outside the classic
    course's twelve lessons."""
    from pathlib import Path

    from canasta_tutor.cli.main import main

    root = Path(__file__).resolve().parent.parent / "lessons"
    assert main(["lesson", "check", str(root / "families" / "pennies.toml")]) == 0
    assert "3 levels checked" in capsys.readouterr().out
    assert len(sorted(root.glob("*.toml"))) == 12


def test_a_step_that_takes_up_the_packet_reveals_hidden_cards() -> None:
    """R-PEN-4: the step that lays a canasta's seventh card while the player's packet is face down brings cards
    nobody has seen into the hand, so the hint's plan stops there (as at Italian Canasta's face-down pile)."""
    state = position("KC 5C 5D 9S", "KS KH KD KC KS KH", s_packet=11)
    assert state.reveals_hidden(parse_action("add K"))
    assert not state.reveals_hidden(parse_action("discard 5"))
    taken = position("KC 5C 5D 9S", "KS KH KD KC KS KH; QS QH QD QC QS QH QD")
    assert not taken.reveals_hidden(parse_action("add K"))


def test_the_hint_says_a_canasta_brings_the_packet() -> None:
    """R-PEN-4, R-PEN-8: the hint's words for the seventh king name the kind's bonus and the packet it releases."""
    from canasta_tutor.engine.observer import observe
    from canasta_tutor.hint import hint

    state = position("KC 5C 5D 9S", "KS KH KD KC KS KH", s_packet=11)
    answer = hint(observe(state, "S"), seed=0)
    assert answer.best == parse_action("add K")
    words = " ".join(f.text for f in answer.facts)
    assert "+500 (R-PEN-8)" in words and "your packet of 11 cards comes into your hand (R-PEN-4)" in words
