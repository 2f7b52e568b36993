"""The course's lesson files, whatever of them exist: they load, every solution line passes,
every declared wrong line gets its feedback, generated levels deal legal, solvable positions,
and every rule number quoted exists in the rule book (seeds/rules.md)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from canasta_tutor.tutor.lessons.check import check_level_play, solve
from canasta_tutor.tutor.lessons.course import course_paths, known_rules, lesson_files
from canasta_tutor.tutor.lessons.loader import LessonFormatError, check_course, load_lesson
from canasta_tutor.tutor.lessons.model import Lesson, Level

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "lessons").glob("*.toml"))
#: seeds per generated level in the default run; the slow sweep uses 200
QUICK_SEEDS = int(os.environ.get("LESSON_SEEDS", "12"))


def _load() -> list[Lesson]:
    out = []
    for f in FILES:
        try:
            out.append(load_lesson(f))
        except LessonFormatError:
            pass  # reported by test_every_lesson_file_is_valid
    return out


LESSONS = _load()
LEVELS: list[Level] = [lv for lesson in LESSONS for lv in lesson.levels]
GENERATED = [lv for lv in LEVELS if lv.generated]


def test_course_is_found_from_the_checkout() -> None:
    assert course_paths()["lessons"].resolve() == (ROOT / "lessons").resolve() or \
        (course_paths()["lessons"] / "FORMAT.md").is_file()
    assert lesson_files() or not FILES


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_every_lesson_file_is_valid(path: Path) -> None:
    try:
        load_lesson(path)
    except LessonFormatError as e:
        pytest.fail("\n".join(str(p) for p in e.problems))


def test_lesson_ids_and_orders_are_unique() -> None:
    assert check_course(LESSONS) == []
    orders = [lesson.order for lesson in LESSONS]
    assert len(orders) == len(set(orders)), f"two lessons share an order: {sorted(orders)}"


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_every_rule_number_quoted_exists_in_the_rule_book(path: Path) -> None:
    rules = known_rules(ROOT / "seeds" / "rules.md")
    quoted = set(re.findall(r"R-[A-Z]+-\d+", path.read_text(encoding="utf-8")))
    assert sorted(quoted - rules) == []


@pytest.mark.parametrize("level", LEVELS, ids=[lv.key for lv in LEVELS])
def test_solution_and_wrong_lines(level: Level) -> None:
    """Every solution line passes the level; every declared wrong line gets its declared feedback."""
    problems = check_level_play(level, seeds=range(3))
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("level", LEVELS, ids=[lv.key for lv in LEVELS])
def test_a_solution_within_par_is_found_by_search(level: Level) -> None:
    result = solve(level, seed=0)
    assert result.found is not None, f"{level.key}: no line within par {level.par} ({result.nodes} actions tried)"
    assert len(result.found) <= level.par


def _sweep(level: Level, seeds: range) -> list[str]:
    bad = []
    for seed in seeds:
        result = solve(level, seed=seed, max_nodes=3000)
        if result.found is None:
            bad.append(f"seed {seed}: no solution within par {level.par} ({result.nodes} actions tried)")
    return bad


@pytest.mark.parametrize("level", GENERATED, ids=[lv.key for lv in GENERATED])
def test_generated_levels_deal_solvable_positions(level: Level) -> None:
    assert _sweep(level, range(QUICK_SEEDS)) == []


@pytest.mark.slow
@pytest.mark.parametrize("level", GENERATED, ids=[lv.key for lv in GENERATED])
def test_generated_levels_over_200_seeds(level: Level) -> None:
    assert _sweep(level, range(200)) == []


def test_every_rule_of_the_core_areas_is_taught_by_a_level() -> None:
    """Issue: every rule of MELD, MIN, FRZ, PACK, OUT and CONC is taught by at least one level."""
    from canasta_tutor.tutor.lessons.check import coverage

    rules = known_rules(ROOT / "seeds" / "rules.md")
    core = {r for r in rules if r.split("-")[1] in ("MELD", "MIN", "FRZ", "PACK", "OUT", "CONC")}
    taught = set(coverage(LESSONS))
    assert sorted(core - taught) == []


def test_the_course_has_at_least_12_lessons_and_72_levels() -> None:
    """The issue's size of the course; it also keeps the parametrized tests above from running empty."""
    assert len(LESSONS) == len(FILES) >= 12
    assert len(LEVELS) >= 72
    assert GENERATED, "no generated level: the sweep over seeds would test nothing"


def test_the_four_lessons_the_mission_names_have_the_most_levels() -> None:
    """Melds, freezing the pack, taking the pack and going out concealed (orders 2, 5, 6, 9)."""
    sizes = {lesson.order: len(lesson.levels) for lesson in LESSONS}
    named = [sizes[n] for n in (2, 5, 6, 9)]
    others = [size for order, size in sizes.items() if order not in (2, 5, 6, 9)]
    assert min(named) > max(others), sizes
