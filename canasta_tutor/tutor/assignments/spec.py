"""Assignment files: TOML written by a teacher, checked by a JSON Schema and against the course.

An assignment lists items: lesson levels (``lesson`` and ``level``, from the course's
``lessons/``) and puzzles (``puzzle``, an ID from ``puzzles/``), each with its points, its
hint penalty (points taken off per hint the student opened) and, for a generated level, the
seed of its deal.  The file is data: ``tomllib`` reads it, ``assignment.schema.json`` checks
its shape, then every referenced lesson level and puzzle must exist.  Every problem names
the file, the line and the field.

>>> text = '''
... id = "week-1"
... title = "Week 1"
... [defaults]
... points = 10
... hint_penalty = 2
... [[item]]
... lesson = "melds"
... level = "natural-meld"
... [[item]]
... lesson = "melds"
... level = "meld-practice"
... seed = 7
... [[item]]
... puzzle = "c22-take-the-pack"
... points = 5
... '''
>>> a = parse_assignment(text, "week-1.toml")
>>> for i in a.items: print(i.id, i.kind, i.points, i.hint_penalty, i.seed)
melds-natural-meld level 10 2 0
melds-meld-practice level 10 2 7
c22-take-the-pack puzzle 5 2 0
>>> bad = 'id = "w"\\ntitle = "W"\\n[[item]]\\nlesson = "melds"\\nlevel = "nope"\\npoints = 1\\n'
>>> for p in check_text(bad, "w.toml"): print(p)
w.toml:5: item[0].level: lesson 'melds' has no level 'nope'; its levels: natural-meld, mixed-meld, ...
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import CanastaError
from ..lessons.loader import _Checker, _cut, _jsonschema, parse_toml, read_content
from ..lessons.locate import format_field, locate
from ..lessons.model import Lesson, Problem
from ..puzzles import Puzzle

SCHEMA_PATH = Path(__file__).with_name("assignment.schema.json")
#: the most points (or hint penalty) an item may carry, as the schema says
MAX_POINTS = 1000
LEVEL, PUZZLE = "level", "puzzle"


class AssignmentFormatError(CanastaError, ValueError):
    """An assignment file with errors; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = str(problems[0]) if problems else "invalid assignment"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first + more)


@dataclass(frozen=True)
class Item:
    """One item of an assignment: a lesson level or a puzzle, with its points and hint penalty."""

    id: str
    kind: str  # LEVEL or PUZZLE
    points: float
    hint_penalty: float = 0
    seed: int = 0
    lesson: str = ""
    level: str = ""  # the level's id
    puzzle: str = ""
    title: str = ""
    assignment: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The item as plain data (str and numbers only), as the notebook cells and the logs carry it."""
        out: dict[str, Any] = {"assignment": self.assignment, "id": self.id, "kind": self.kind}
        if self.kind == LEVEL:
            out.update(lesson=self.lesson, level=self.level, seed=self.seed)
        else:
            out["puzzle"] = self.puzzle
        out.update(points=self.points, hint_penalty=self.hint_penalty, title=self.title)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Item":
        kind = str(data.get("kind", PUZZLE if "puzzle" in data else LEVEL))
        if kind not in (LEVEL, PUZZLE):
            raise AssignmentFormatError([Problem("<item>", None, "kind", f"unknown item kind {kind!r}")])
        return cls(id=str(data["id"]), kind=kind, points=_finite(data["points"], "points"),
                   hint_penalty=_finite(data.get("hint_penalty", 0), "hint_penalty"),
                   seed=int(data.get("seed", 0)), lesson=str(data.get("lesson", "")),
                   level=str(data.get("level", "")), puzzle=str(data.get("puzzle", "")),
                   title=str(data.get("title", "")), assignment=str(data.get("assignment", "")))

    @property
    def key(self) -> str:
        """``lesson/level`` or ``puzzles/ID``, as the progress store names it."""
        return f"{self.lesson}/{self.level}" if self.kind == LEVEL else f"puzzles/{self.puzzle}"


def _finite(value: Any, name: str) -> float:
    """A number of points: finite, from 0 to 1000 (as the schema says), never a bool or text."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= MAX_POINTS:
        raise AssignmentFormatError([Problem("<item>", None, name, f"{str(value)[:40]!r} is not a number of points "
                                             f"from 0 to {MAX_POINTS}")])
    return value


@dataclass(frozen=True)
class Assignment:
    """An assignment file, checked."""

    id: str
    title: str
    items: tuple[Item, ...]
    intro: str = ""
    file: str = ""

    @property
    def points(self) -> float:
        return sum(i.points for i in self.items)


@lru_cache(maxsize=1)
def course_lessons() -> dict[str, Lesson]:
    """The installed course's lessons by id (read once per process)."""
    from ..lessons.player import load_course

    return {lesson.id: lesson for lesson in load_course()}


@lru_cache(maxsize=None)
def course_lesson(lesson_id: str) -> Lesson | None:
    """One lesson of the installed course by id: its own file when the file name ends in the id
    (``02-melds.toml``), which is quicker than reading the whole course; None when there is none."""
    from ..lessons.course import lesson_files
    from ..lessons.loader import load_lesson

    for f in lesson_files():
        if f.stem == lesson_id or f.stem.endswith(f"-{lesson_id}"):
            lesson = load_lesson(f)
            if lesson.id == lesson_id:
                return lesson
    return course_lessons().get(lesson_id)


@lru_cache(maxsize=1)
def puzzle_library() -> dict[str, Puzzle]:
    """The installed puzzle library by ID (read once per process)."""
    from ..puzzles import load_library

    return {p.id: p for p in load_library()}


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The assignment JSON Schema shipped with the package."""
    with SCHEMA_PATH.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def _schema_problems(data: Any, chk: _Checker) -> None:
    validator = _jsonschema().Draft202012Validator(schema())
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(err.absolute_path)
        if err.validator == "required":
            m = re.match(r"'([^']+)' is a required property", err.message)
            chk.problems.append(Problem(chk.file, locate(chk.text, path) or 1,
                                        format_field(path + [m.group(1)] if m else path), "required, but missing"))
        elif err.validator == "additionalProperties":
            chk.add(path, err.message.replace("Additional properties are not allowed", "unknown field"))
        elif err.validator == "pattern":
            chk.add(path, f"{_cut(repr(err.instance), 80)} is not an ID (letters, digits, '-' and '_', at most 64)")
        elif err.validator == "oneOf":
            chk.add(path, f"{_cut(repr(err.instance), 80)} is neither a level id nor a level number from 1")
        else:
            chk.add(path, err.message)


def check_text(text: str, file: str = "<assignment>", lessons: list[Lesson] | None = None,
               puzzle_ids: set[str] | None = None) -> list[Problem]:
    """Every problem of an assignment file's text (``lessons``/``puzzle_ids``: default the course's)."""
    return _check(text, file, lessons, puzzle_ids)[1]


def _check(text: str, file: str, lessons: list[Lesson] | None,
           puzzle_ids: set[str] | None) -> tuple[Assignment | None, list[Problem]]:
    chk = _Checker(text, file)
    data, problem = parse_toml(text, file)
    if problem is not None or data is None:
        return None, [problem or Problem(file, None, "", "not an assignment")]
    _schema_problems(data, chk)
    if chk.problems:
        return None, chk.problems
    by_id = {lesson.id: lesson for lesson in lessons} if lessons is not None else course_lessons()
    if puzzle_ids is None:
        puzzle_ids = set(puzzle_library())
    defaults = data.get("defaults", {})
    items: list[Item] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(data["item"]):
        item = _item(raw, ["item", i], defaults, by_id, puzzle_ids, data["id"], chk)
        if item is None:
            continue
        if item.id in seen:
            chk.add(["item", i, "id"] if "id" in raw else ["item", i],
                    f"item id {item.id!r} is also item {seen[item.id] + 1}; give one of them its own 'id'")
        seen.setdefault(item.id, i)
        items.append(item)
    if chk.problems:
        return None, chk.problems
    return Assignment(id=data["id"], title=data["title"], items=tuple(items), intro=data.get("intro", ""),
                      file=file), []


def _item(raw: dict[str, Any], here: list[str | int], defaults: dict[str, Any], lessons: dict[str, Lesson],
          puzzle_ids: set[str], assignment: str, chk: _Checker) -> Item | None:
    n = len(chk.problems)
    has_level = "lesson" in raw or "level" in raw
    if has_level == ("puzzle" in raw):
        chk.add(here, "give either 'lesson' and 'level' (a lesson level) or 'puzzle' (a puzzle ID)"
                + (", not both" if has_level else ""))
        return None
    points = raw.get("points", defaults.get("points"))
    if points is None:
        chk.add(here + ["points"], "required, but missing (here or in [defaults])")
        points = 0
    penalty = raw.get("hint_penalty", defaults.get("hint_penalty", 0))
    title = raw.get("title", "")
    if "puzzle" in raw:
        if raw["puzzle"] not in puzzle_ids:
            chk.add(here + ["puzzle"], f"no puzzle {raw['puzzle']!r} in the puzzle library")
        if "seed" in raw:
            chk.add(here + ["seed"], "a puzzle has a fixed position: a seed changes nothing (leave it out)")
        if len(chk.problems) > n:
            return None
        return Item(id=raw.get("id", raw["puzzle"]), kind=PUZZLE, points=points, hint_penalty=penalty,
                    puzzle=raw["puzzle"], title=title or f"Puzzle {raw['puzzle']}", assignment=assignment)
    for key in ("lesson", "level"):
        if key not in raw:
            chk.add(here + [key], "required, but missing (a lesson level needs 'lesson' and 'level')")
    if len(chk.problems) > n:
        return None
    lesson = lessons.get(raw["lesson"])
    if lesson is None:
        chk.add(here + ["lesson"], f"no lesson {raw['lesson']!r} in the course; its lessons: "
                                   + ", ".join(sorted(lessons)))
        return None
    try:
        level = lesson.level(raw["level"])
    except KeyError as e:
        chk.add(here + ["level"], str(e.args[0]))
        return None
    if "seed" in raw and not level.generated:
        chk.add(here + ["seed"], f"level {level.key} has a fixed position: a seed changes nothing (leave it out)")
        return None
    return Item(id=raw.get("id", f"{lesson.id}-{level.id}"), kind=LEVEL, points=points, hint_penalty=penalty,
                seed=raw.get("seed", 0), lesson=lesson.id, level=level.id, title=title or level.title,
                assignment=assignment)


def parse_assignment(text: str, file: str = "<assignment>", lessons: list[Lesson] | None = None,
                     puzzle_ids: set[str] | None = None) -> Assignment:
    """An assignment from its text; raises :class:`AssignmentFormatError` listing every problem."""
    assignment, problems = _check(text, file, lessons, puzzle_ids)
    if problems or assignment is None:
        raise AssignmentFormatError(problems)
    return assignment


def load_assignment(path: str | Path, lessons: list[Lesson] | None = None,
                    puzzle_ids: set[str] | None = None) -> Assignment:
    """Read and check one assignment file (read within limits: a regular file of at most
    :data:`~canasta_tutor.tutor.lessons.loader.MAX_CONTENT_BYTES`, UTF-8)."""
    text, problem = read_content(path)
    if problem is not None:
        raise AssignmentFormatError([problem])
    return parse_assignment(text, str(path), lessons, puzzle_ids)


__all__ = ["Assignment", "AssignmentFormatError", "Item", "LEVEL", "PUZZLE", "check_text", "load_assignment",
           "parse_assignment", "schema", "SCHEMA_PATH"]
