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
