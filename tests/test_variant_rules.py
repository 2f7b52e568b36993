"""Rule tests for the variants: the two-, three- and six-handed adaptations (R-TWO-*, R-THREE-*, R-SIX-*),
Italian Canasta (R-ITAL-*) and Samba (R-SAMBA-*).

Each rule's key figures are written once, in ``FIGURES``; the tests check that the rule book's text
states them, so that a figure changed in one place and not the other is caught.  The engine does not
play Italian Canasta or Samba yet, so their rules are checked as data: the figures, the arithmetic of
the decks and the minimum bands.
"""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from canasta_tutor.rulebook import book_path, parse_rules
from canasta_tutor.variants import CLASSIC, Variant, get_variant

BOOK = parse_rules(book_path().read_text(encoding="utf-8"))

#: rule -> (the section title, the phrases its text must state)
FIGURES: dict[str, tuple[str, tuple[str, ...]]] = {
    "R-TWO-1": ("Two-handed Canasta", ("Two players", "plays alone", "108")),
    "R-TWO-2": ("Two-handed Canasta", ("fifteen cards",)),
    "R-TWO-3": ("Two-handed Canasta", ("top two cards", "single discard", "replaced at once")),
    "R-TWO-4": ("Two-handed Canasta", ("single card", "that card alone", "R-STOCK-2")),
    "R-TWO-5": ("Two-handed Canasta", ("at least two canastas", "R-OUT-1", "R-CONC-1")),
    "R-THREE-1": ("Three-handed Canasta", ("Three players", "plays alone", "108", "to the left")),
    "R-THREE-2": ("Three-handed Canasta", ("thirteen cards", "one card", "one canasta")),
    "R-THREE-3": ("Three-handed Canasta", ("one column per player", "5,000", "highest total wins", "another deal")),
    "R-SIX-1": ("Six-handed Canasta", ("three sides of two", "three seats apart")),
    "R-SIX-2": ("Six-handed Canasta", ("three 52-card decks", "six jokers", "162 cards", "six red threes")),
    "R-SIX-3": ("Six-handed Canasta", ("thirteen cards", "one card")),
    "R-SIX-4": ("Six-handed Canasta", ("at least two canastas", "R-OUT-1", "R-CONC-1")),
    "R-SIX-5": ("Six-handed Canasta", ("100 for each red three", "four or fewer", "1,000", "1,200", "R-RED-5")),
    "R-SIX-6": ("Six-handed Canasta", ("one column per side", "7,500", "highest total wins", "R-MIN-1")),
    "R-ITAL-1": ("Italian Canasta", ("three 52-card decks", "six jokers", "162 cards")),
    "R-ITAL-2": ("Italian Canasta", ("fifteen cards",)),
    "R-ITAL-3": ("Italian Canasta", ("red threes", "only then", "count (R-CARDS-3)", "face down")),
    "R-ITAL-4": ("Italian Canasta", ("frozen for everyone at all times", "natural pair", "R-PACK-4")),
    "R-ITAL-5": ("Italian Canasta", ("top two cards", "one discard")),
    "R-ITAL-6": ("Italian Canasta", ("rank of their own", "no joker", "seven cards", "may not use a deuce")),
    "R-ITAL-7": ("Italian Canasta", ("no wild card", "5,000 to 7,495 needs 160", "7,500 to 9,995 needs 180",
                                     "10,000 up needs 200")),
    "R-ITAL-8": ("Italian Canasta", ("at least two canastas", "other than a canasta of deuces")),
    "R-ITAL-9": ("Italian Canasta", ("100", "one to three", "200 each", "four or more", "going out earns 300",
                                     "concealed earns nothing more")),
    "R-ITAL-10": ("Italian Canasta", ("1,000 for five canastas", "four are natural and one mixed",
                                      "2,000 for five natural canastas", "2,000 for ten canastas",
                                      "3,000 for a canasta of seven deuces", "only for the side that goes out")),
    "R-ITAL-11": ("Italian Canasta", ("12,000",)),
    "R-SAMBA-1": ("Samba", ("three 52-card decks", "six jokers", "162 cards", "six of them are red threes")),
    "R-SAMBA-2": ("Samba", ("fifteen cards", "top two cards", "one discard")),
    "R-SAMBA-3": ("Samba", ("sequence", "one suit", "four (lowest)", "ace (highest)", "no wild card",
                            "seven cards at most", "counts as a canasta")),
    "R-SAMBA-4": ("Samba", ("at most two wild cards", "at least five natural cards", "no wild card may be added")),
    "R-SAMBA-5": ("Samba", ("more than one set of the same rank", "join two of its sets")),
    "R-SAMBA-6": ("Samba", ("natural pair", "not yet a canasta", "never be taken with one natural and one wild",
                            "start a sequence")),
    "R-SAMBA-7": ("Samba", ("at least two canastas", "sambas included")),
    "R-SAMBA-8": ("Samba", ("3,000 to 6,995 it is 120", "7,000 up it is 160")),
    "R-SAMBA-9": ("Samba", ("1,500 for each samba", "200 for going out", "nothing more for going out concealed",
                            "100 for each red three", "1,000 in all", "all six", "at least two canastas")),
    "R-SAMBA-10": ("Samba", ("10,000",)),
}


@pytest.mark.parametrize("rule", sorted(FIGURES))
def test_the_book_states_the_figures(rule: str) -> None:
    """Every variant rule (R-TWO-1..5, R-THREE-1..3, R-SIX-1..6, R-ITAL-1..11, R-SAMBA-1..10) is in its
    section and states its figures."""
    title, phrases = FIGURES[rule]
    assert rule in BOOK, f"{rule} is not defined in the rule book"
    assert BOOK[rule].title == title
    missing = [p for p in phrases if p not in BOOK[rule].text]
    assert not missing, f"{rule} does not state {missing}: {BOOK[rule].text}"


def test_every_variant_rule_has_figures() -> None:
    """No rule of the TWO, THREE, SIX, ITAL or SAMBA areas is left out of ``FIGURES``."""
    areas = ("R-TWO-", "R-THREE-", "R-SIX-", "R-ITAL-", "R-SAMBA-")
    assert sorted(r for r in BOOK if r.startswith(areas)) == sorted(FIGURES)


def _number(text: str) -> int:
    return int(text.replace(",", ""))


@pytest.mark.parametrize("rule", ["R-SIX-2", "R-ITAL-1", "R-SAMBA-1"])
def test_three_decks_and_six_jokers_make_162_cards(rule: str) -> None:
    """R-SIX-2, R-ITAL-1, R-SAMBA-1: the deck the rule names adds up to the total it states."""
    text = BOOK[rule].text
    assert "three 52-card decks" in text and "six jokers" in text
    total = re.search(r"(\d+) cards in all", text)
    assert total is not None and int(total.group(1)) == 3 * 52 + 6


def _bands(text: str) -> list[tuple[int, int | None, int]]:
    """``(lowest total, highest total or None for "up", minimum)`` for each band a rule's text states."""
    bands = [(_number(lo), _number(hi), _number(need))
             for lo, hi, need in re.findall(r"([\d,]+) to ([\d,]+) (?:needs|it is) (\d+)", text)]
    bands += [(_number(lo), None, _number(need)) for lo, need in re.findall(r"([\d,]+) up (?:needs|it is) (\d+)", text)]
    return sorted(bands)


@pytest.mark.parametrize("rule, below, bands", [
    # below: the classic band (R-MIN-1) that the rule's first band follows, as (highest total, minimum)
    ("R-ITAL-7", (4995, 120), [(5000, 7495, 160), (7500, 9995, 180), (10000, None, 200)]),
    ("R-SAMBA-8", (2995, 90), [(3000, 6995, 120), (7000, None, 160)]),
])
def test_the_higher_minimum_bands_leave_no_gap(rule: str, below: tuple[int, int],
                                               bands: list[tuple[int, int | None, int]]) -> None:
    """R-ITAL-7 and R-SAMBA-8: the bands the rule states follow the classic ones (R-MIN-1) with no gap or
    overlap (totals move in steps of 5), the last one is open-ended, and the minimum rises band by band."""
    assert "from 1,500 to 2,995 it is 90; from 3,000 up it is 120" in BOOK["R-MIN-1"].text
    stated = _bands(BOOK[rule].text)
    assert stated == bands
    tops = [below[0]] + [hi for _, hi, _ in stated[:-1]]
    assert [lo for lo, _, _ in stated] == [top + 5 for top in tops if top is not None]
    assert stated[-1][1] is None
    needs = [below[1]] + [need for _, _, need in stated]
    assert all(a < b for a, b in pairwise(needs))


# ------------------------------------------------------------------ the Variant data (canasta_tutor.variants)
def _turn_order(v: Variant) -> list[int]:
    seat, order = 0, []
    for _ in range(v.players):
        order.append(seat)
        seat = v.next_seat(seat)
    return order


def test_two_handed_players_R_TWO_1() -> None:
    """R-TWO-1: two players, each alone (no partners, no "partner, may I go out?"), the classic 108 cards,
    the turn alternating."""
    v = get_variant("two-handed")
    assert (v.players, v.n_sides, v.partnerships) == (2, 2, False)
    assert [v.partners(s) for s in range(2)] == [(), ()]
    assert (v.packs, v.jokers, v.num_cards) == (2, 4, 108)
    assert _turn_order(v) == [0, 1] and v.next_seat(1) == 0


def test_two_handed_deal_R_TWO_2() -> None:
    """R-TWO-2: fifteen cards each."""
    assert get_variant("two-handed").hand_size == 15 and CLASSIC.hand_size == 11


def test_two_handed_draw_R_TWO_3() -> None:
    """R-TWO-3: two cards drawn from the stock per turn (the classic game draws one)."""
    assert get_variant("two-handed").draw == 2 and CLASSIC.draw == 1


def test_two_handed_go_out_R_TWO_5() -> None:
    """R-TWO-5: two canastas to go out."""
    v = get_variant("two-handed")
    assert v.canastas_to_go_out == 2 and CLASSIC.canastas_to_go_out == 1


def test_two_handed_keeps_the_classic_tables() -> None:
    """"Everything else is classic" after R-TWO-5: minimums (R-MIN-1), bonuses (R-SCORE-1, R-RED-4) and
    the game of 5,000 (R-GAME-1)."""
    v = get_variant("two-handed")
    assert v.bonuses == CLASSIC.bonuses and v.target == CLASSIC.target == 5000
    assert [v.minimum_for(t) for t in (-5, 0, 1500, 3000)] == [15, 50, 90, 120]


def test_three_handed_players_R_THREE_1() -> None:
    """R-THREE-1: three players, each alone, the classic 108 cards, the turn passing round the three."""
    v = get_variant("three-handed")
    assert (v.players, v.n_sides, v.partnerships) == (3, 3, False)
    assert [v.partners(s) for s in range(3)] == [(), (), ()]
    assert sorted(v.side_of(s) for s in range(3)) == [0, 1, 2]
    assert (v.packs, v.jokers, v.num_cards) == (2, 4, 108)
    assert _turn_order(v) == [0, 1, 2] and v.next_seat(2) == 0


def test_three_handed_deal_R_THREE_2() -> None:
    """R-THREE-2: thirteen cards each; the draw stays at one card and one canasta still goes out."""
    v = get_variant("three-handed")
    assert (v.hand_size, v.draw, v.canastas_to_go_out) == (13, 1, 1)


def test_three_handed_game_R_THREE_3() -> None:
    """R-THREE-3: one total per player (three sides), the game of 5,000, the classic bonuses."""
    v = get_variant("three-handed")
    assert v.n_sides == 3 and v.target == 5000 and v.bonuses == CLASSIC.bonuses


def test_six_handed_sides_R_SIX_1() -> None:
    """R-SIX-1: three sides of two; partners three seats apart, so the turn goes through the sides in the
    same order twice a round."""
    v = get_variant("six-handed")
    assert (v.players, v.n_sides, v.partnerships) == (6, 3, True)
    assert [v.partners(s) for s in range(6)] == [((s + 3) % 6,) for s in range(6)]
    assert [v.side_of(s) for s in _turn_order(v)] == [0, 1, 2, 0, 1, 2]


def test_six_handed_deck_R_SIX_2() -> None:
    """R-SIX-2: three 52-card decks and six jokers, 162 cards."""
    v = get_variant("six-handed")
    assert (v.packs, v.jokers, v.num_cards) == (3, 6, 162)


def test_six_handed_deal_R_SIX_3() -> None:
    """R-SIX-3: thirteen cards each; one card drawn."""
    v = get_variant("six-handed")
    assert (v.hand_size, v.draw) == (13, 1)


def test_six_handed_go_out_R_SIX_4() -> None:
    """R-SIX-4: two canastas to go out."""
    assert get_variant("six-handed").canastas_to_go_out == 2


def test_six_handed_red_threes_R_SIX_5() -> None:
    """R-SIX-5: 100 each up to four, 1,000 in all for five, 1,200 for six (classic: 800 for four)."""
    v = get_variant("six-handed")
    assert [v.red_three_bonus(n) for n in range(7)] == [0, 100, 200, 300, 400, 1000, 1200]
    assert CLASSIC.red_three_bonus(4) == 800


def test_six_handed_game_R_SIX_6() -> None:
    """R-SIX-6: a game of 7,500 with the classic minimum bands (120 from 3,000 up)."""
    v = get_variant("six-handed")
    assert v.target == 7500
    assert [v.minimum_for(t) for t in (-5, 0, 1495, 1500, 2995, 3000, 7495, 7500)] == \
        [CLASSIC.minimum_for(t) for t in (-5, 0, 1495, 1500, 2995, 3000, 7495, 7500)] == \
        [15, 50, 50, 90, 90, 120, 120, 120]
