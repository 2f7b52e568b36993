"""Rule tests for the variants: the two-, three- and six-handed adaptations (R-TWO-*, R-THREE-*, R-SIX-*).

Each rule's key figures are written once, in ``FIGURES``; the tests check that the rule book's text
states them, so that a figure changed in one place and not the other is caught.
"""

from __future__ import annotations

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
}


@pytest.mark.parametrize("rule", sorted(FIGURES))
def test_the_book_states_the_figures(rule: str) -> None:
    """Every variant rule (R-TWO-1..5, R-THREE-1..3, R-SIX-1..6) is in its section and states its figures."""
    title, phrases = FIGURES[rule]
    assert rule in BOOK, f"{rule} is not defined in the rule book"
    assert BOOK[rule].title == title
    missing = [p for p in phrases if p not in BOOK[rule].text]
    assert not missing, f"{rule} does not state {missing}: {BOOK[rule].text}"


def test_every_variant_rule_has_figures() -> None:
    """No rule of the TWO, THREE or SIX areas is left out of ``FIGURES``."""
    areas = ("R-TWO-", "R-THREE-", "R-SIX-")
    assert sorted(r for r in BOOK if r.startswith(areas)) == sorted(FIGURES)
