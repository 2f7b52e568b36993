"""Starting ratings: weaker solvers try a puzzle, and their solve rates rate it."""

from __future__ import annotations

from pathlib import Path

from canasta_tutor.tutor.puzzles.library import parse_puzzles
from canasta_tutor.tutor.puzzles.starting_rating import SOLVERS, rating_from_rates, solve_rates, starting_rating

COMPOSED = Path(__file__).resolve().parent.parent / "puzzles" / "composed.txt"


def _rates(random: int, rot: int, h8: int, h32: int) -> dict[str, tuple[int, int]]:
    return {"random": (random, 4), "rules-of-thumb": (rot, 1), "hint-8": (h8, 4), "hint-32": (h32, 4)}


def test_the_solvers_are_ordered_by_strength() -> None:
    assert [s.rating for s in SOLVERS] == sorted(s.rating for s in SOLVERS)
    assert [s.name for s in SOLVERS] == ["random", "rules-of-thumb", "hint-8", "hint-32"]


def test_fewer_solvers_finding_the_answer_means_a_harder_puzzle() -> None:
    ladder = [_rates(4, 1, 4, 4), _rates(1, 1, 4, 4), _rates(1, 0, 4, 4), _rates(0, 0, 2, 4), _rates(0, 0, 1, 2),
              _rates(0, 0, 0, 0)]
    ratings = [rating_from_rates(r) for r in ladder]
    assert [r.rating for r in ratings] == sorted(r.rating for r in ratings)
    assert ratings[0].rating < 1000 < 1900 < ratings[-1].rating
    assert all(r.rd < 350 for r in ratings)  # the attempts tell something


def test_a_forced_puzzle_is_found_by_every_solver() -> None:
    forced = next(p for p in parse_puzzles(COMPOSED.read_text(encoding="utf-8"), "composed.txt")
                  if p.verification.forced)
    rates = solve_rates(forced.state(), forced.answers(), seeds=2)
    assert rates == {"random": (2, 2), "rules-of-thumb": (1, 1), "hint-8": (2, 2), "hint-32": (2, 2)}


def test_the_starting_rating_is_seeded_and_whole() -> None:
    p = next(p for p in parse_puzzles(COMPOSED.read_text(encoding="utf-8"), "composed.txt")
             if not p.verification.forced)
    a = starting_rating(p.state(), p.answers(), seeds=2)
    b = starting_rating(p.state(), p.answers(), seeds=2)
    assert a == b and a.rating == round(a.rating) and a.rd == round(a.rd)
    assert 500 < a.rating < 2500 and 0 < a.rd < 350
