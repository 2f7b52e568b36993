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
