"""Assignment files: TOML written by a teacher, checked by a JSON Schema and against the course.

An assignment lists items: lesson levels (``lesson`` and ``level``, from the course's
``lessons/``, or from a course folder's own, edited copy) and puzzles: one puzzle
(``puzzle``, an ID from ``puzzles/``) or a pool (``theme`` and/or ``rating``, a band of
puzzle ratings), from which each student gets their own puzzle.  Each item has its points,
its hint penalty (points taken off per hint the student opened) and, for a generated level,
the seed that, with the student's id, picks each student's deal.  The file is data:
``tomllib`` reads it, ``assignment.schema.json`` checks its shape, then every referenced lesson
level and puzzle must exist.  Every problem is found in one pass and names the file, the line
and the field; items are numbered from 1, as everywhere else.

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
... [[item]]
... theme = "frozen-pack"
... rating = [800, 1400]
... '''
>>> a = parse_assignment(text, "week-1.toml")
>>> for i in a.items: print(i.number, i.id, i.kind, i.points, i.hint_penalty, i.seed, i.title)
1 melds-natural-meld level 10 2 0 A natural meld
2 melds-meld-practice level 10 2 7 Practice: a pair and a wild card
3 puzzle-3 puzzle 5 2 0 Puzzle 3
4 puzzle-4 puzzle 10 2 0 Puzzle 4
>>> bad = 'id = "w"\\ntitle = "W"\\n[[item]]\\nlesson = "melds"\\nlevel = "nope"\\npoints = -1\\n'
>>> for p in check_text(bad, "w.toml"): print(p)
w.toml:6: item 1.points: -1 is less than or equal to the minimum of 0
w.toml:5: item 1.level: lesson 'melds' has no level 'nope'; its levels: natural-meld, mixed-meld, ...
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

from ...engine.errors import CanastaError
from ..lessons.loader import ProblemList, cut_text, import_jsonschema, parse_toml, read_content
from ..lessons.locate import locate
from ..lessons.model import Lesson, Level, Problem
from ..puzzles.library import Puzzle

SCHEMA_PATH = Path(__file__).with_name("assignment.schema.json")
#: the most points (or hint penalty) an item may carry, as the schema says
MAX_POINTS = 1000
LEVEL, PUZZLE = "level", "puzzle"
#: a pool with fewer puzzles than this is checked with a warning: students will share puzzles
SMALL_POOL = 5


class AssignmentFormatError(CanastaError, ValueError):
    """An assignment file with errors; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = str(problems[0]) if problems else "invalid assignment"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first + more)


@dataclass(frozen=True)
class Item:
    """One item of an assignment: a lesson level, a puzzle or a pool of puzzles, with its points and
    hint penalty.  ``number`` is its place in the file, from 1; ``lessons`` the folder, beside the
    notebook, holding the course's own copy of the item's lesson ("" for the installed course)."""

    id: str
    kind: str  # LEVEL or PUZZLE
    points: float
    hint_penalty: float = 0
    seed: int = 0
    lesson: str = ""
    level: str = ""  # the level's id
    puzzle: str = ""  # one puzzle's ID; empty for a pool
    title: str = ""
    assignment: str = ""
    number: int = 0
    theme: str = ""  # a pool: the puzzles of this theme ...
    rating: tuple[float, ...] = ()  # ... rated from rating[0] to rating[1] (empty: any rating)
    lessons: str = ""

    @property
    def pool(self) -> bool:
        """Whether each student gets their own puzzle from a pool (a theme and a rating band)."""
        return self.kind == PUZZLE and not self.puzzle

    @property
    def label(self) -> str:
        """What students see: the title, or a neutral label ("Puzzle 4"), never an ID."""
        return self.title or (f"Puzzle {self.number}" if self.kind == PUZZLE else f"Item {self.number}")

    def to_dict(self) -> dict[str, Any]:
        """The item as plain data (str and numbers only), for the teacher's tools and JSON."""
        out: dict[str, Any] = {"assignment": self.assignment, "id": self.id, "number": self.number,
                               "kind": self.kind}
        if self.kind == LEVEL:
            out.update(lesson=self.lesson, level=self.level, seed=self.seed)
            if self.lessons:
                out["lessons"] = self.lessons
        elif self.pool:
            out.update(theme=self.theme, rating=list(self.rating))
        else:
            out["puzzle"] = self.puzzle
        out.update(points=self.points, hint_penalty=self.hint_penalty, title=self.title)
        return out

    def cell_dict(self) -> dict[str, Any]:
        """The item as the notebook's cells carry it, in view of the student: a puzzle is named by
        a reference (:func:`puzzle_ref`), never by its ID, which may name the answer."""
        out = self.to_dict()
        if "puzzle" in out:
            out["puzzle_ref"] = puzzle_ref(out.pop("puzzle"))
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Item":
        pooled = "theme" in data or "rating" in data
        kind = str(data.get("kind", PUZZLE if "puzzle" in data or "puzzle_ref" in data or pooled else LEVEL))
        if kind not in (LEVEL, PUZZLE):
            raise AssignmentFormatError([Problem("<item>", None, "kind", f"unknown item kind {kind!r}")])
        puzzle = str(data.get("puzzle", ""))
        if "puzzle_ref" in data:
            puzzle = puzzle_by_ref(str(data["puzzle_ref"]))
        rating = data.get("rating") or ()
        return cls(id=str(data["id"]), kind=kind, points=_finite(data["points"], "points"),
                   hint_penalty=_finite(data.get("hint_penalty", 0), "hint_penalty"),
                   seed=int(data.get("seed", 0)), lesson=str(data.get("lesson", "")),
                   level=str(data.get("level", "")), puzzle=puzzle, title=str(data.get("title", "")),
                   assignment=str(data.get("assignment", "")), number=int(data.get("number", 0)),
                   theme=str(data.get("theme", "")), rating=tuple(float(x) for x in rating),
                   lessons=str(data.get("lessons", "")))

    @property
    def key(self) -> str:
        """``lesson/level``, ``puzzles/ID``, or for a pool ``<assignment>/<item id>``: the item as the
        progress store and the class report name it."""
        if self.kind == LEVEL:
            return f"{self.lesson}/{self.level}"
        return f"{self.assignment}/{self.id}" if self.pool else f"puzzles/{self.puzzle}"


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


def puzzle_ref(puzzle_id: str) -> str:
    """A puzzle's reference in a student's notebook: a digest of its ID, which names no answer."""
    import hashlib

    return hashlib.sha256(f"canasta-tutor puzzle {puzzle_id}".encode()).hexdigest()[:16]


def puzzle_by_ref(ref: str) -> str:
    """The ID of the library's puzzle with this reference."""
    found = {puzzle_ref(pid): pid for pid in puzzle_library()}.get(ref)
    if found is None:
        raise AssignmentFormatError([Problem("<item>", None, "puzzle_ref",
                                             f"no puzzle of the installed library has the reference {ref[:20]!r}")])
    return found


def pool_puzzles(theme: str, rating: Sequence[float] = (), library: dict[str, Puzzle] | None = None) -> list[Puzzle]:
    """The puzzles of a pool, in ID order: those with ``theme`` (any, when empty) rated inside ``rating``."""
    lib = puzzle_library() if library is None else library
    lo, hi = (rating[0], rating[1]) if len(rating) == 2 else (float("-inf"), float("inf"))
    return sorted((p for p in lib.values() if (not theme or theme in p.themes) and lo <= p.rating <= hi),
                  key=lambda p: p.id)


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


def folder_lessons(folder: str | Path) -> dict[str, Lesson]:
    """The lessons of a folder of lesson files (a course folder's ``lessons/``) by id."""
    from ..lessons.course import lesson_files
    from ..lessons.loader import load_lesson

    return {lesson.id: lesson for lesson in (load_lesson(f) for f in lesson_files(Path(folder)))}


def course_folder_lessons(course: str | Path | None) -> list[Lesson] | None:
    """The lessons of a course folder made by ``canasta-tutor course`` (its ``lessons/``, as the
    teacher edited them), or None when there is no such folder: then the installed course counts."""
    if course is None or not (Path(course) / "lessons").is_dir():
        return None
    return list(folder_lessons(Path(course) / "lessons").values())


@lru_cache(maxsize=1)
def puzzle_library() -> dict[str, Puzzle]:
    """The installed puzzle library by ID (read once per process)."""
    from ..puzzles.library import load_library

    return {p.id: p for p in load_library()}


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The assignment JSON Schema shipped with the package."""
    with SCHEMA_PATH.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def item_field(path: Sequence[str | int]) -> str:
    """A field path as the teacher reads it, items numbered from 1: ``item 3.level``."""
    out = ""
    for k, part in enumerate(path):
        if isinstance(part, int):
            out += f" {part + 1}" if k and path[k - 1] == "item" else f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class _Check(ProblemList):
    """The lesson files' checker, with items numbered from 1 and a list of warnings."""

    def __init__(self, text: str, file: str) -> None:
        super().__init__(text, file)
        self.warnings: list[Problem] = []
        self.bad: set[tuple[str | int, ...]] = set()  # fields with a schema problem: checked no further

    def add(self, path: list[str | int], message: str, line: int | None = None) -> None:
        self.problems.append(Problem(self.file, line or locate(self.text, path) or 1, item_field(path),
                                     cut_text(message, 300)))
        self.bad.add(tuple(path))

    def warn(self, path: list[str | int], message: str) -> None:
        self.warnings.append(Problem(self.file, locate(self.text, path) or 1, item_field(path), cut_text(message, 300)))

    def ok(self, *path: str | int) -> bool:
        """Whether no schema problem was found at ``path`` (or at a field inside it)."""
        n = len(path)
        return not any(b[:n] == path for b in self.bad)


def _schema_problems(data: Any, chk: _Check) -> None:
    validator = import_jsonschema().Draft202012Validator(schema())
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(err.absolute_path)
        if err.validator == "required":
            m = re.match(r"'([^']+)' is a required property", err.message)
            chk.add(path + [m.group(1)] if m else path, "required, but missing", line=locate(chk.text, path) or 1)
        elif err.validator == "additionalProperties":
            chk.add(path, err.message.replace("Additional properties are not allowed", "unknown field"))
        elif err.validator == "pattern":
            chk.add(path, f"{cut_text(repr(err.instance), 80)} is not an ID (letters, digits, '-' and '_', at most 64)")
        elif err.validator == "oneOf":
            chk.add(path, f"{cut_text(repr(err.instance), 80)} is neither a level id nor a level number from 1")
        else:
            chk.add(path, err.message)


def check_text(text: str, file: str = "<assignment>", lessons: list[Lesson] | None = None,
               puzzle_ids: set[str] | None = None) -> list[Problem]:
    """Every problem of an assignment file's text (``lessons``/``puzzle_ids``: default the course's)."""
    return _check(text, file, lessons, puzzle_ids)[1]


def check_warnings(text: str, file: str = "<assignment>", lessons: list[Lesson] | None = None,
                   puzzle_ids: set[str] | None = None) -> tuple[list[Problem], list[Problem]]:
    """The problems and the warnings of an assignment file's text (a warning does not stop the file:
    a hint penalty above the item's points, a small pool)."""
    _, problems, warnings = _check(text, file, lessons, puzzle_ids)
    return problems, warnings


def _check(text: str, file: str, lessons: list[Lesson] | None,
           puzzle_ids: set[str] | None) -> tuple[Assignment | None, list[Problem], list[Problem]]:
    chk = _Check(text, file)
    data, problem = parse_toml(text, file)  # within limits: no nan or inf, no huge number, no deep nesting
    if problem is not None or data is None:
        return None, [problem or Problem(file, None, "", "not an assignment")], []
    _schema_problems(data, chk)
    by_id = {lesson.id: lesson for lesson in lessons} if lessons is not None else course_lessons()
    if puzzle_ids is None:
        puzzle_ids = set(puzzle_library())
    defaults = data.get("defaults", {}) if isinstance(data.get("defaults"), dict) else {}
    good_defaults = {k: v for k, v in defaults.items() if chk.ok("defaults", k)}
    raw_items: list[Any] = data["item"] if isinstance(data.get("item"), list) else []
    assignment_id: str = data["id"] if chk.ok("id") and isinstance(data.get("id"), str) else ""
    items: list[Item] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_items):
        if not isinstance(raw, dict):
            continue
        item = _item(raw, i, good_defaults, by_id, puzzle_ids, assignment_id, chk)
        if item is None:
            continue
        if item.id in seen:
            chk.add(["item", i, "id"] if "id" in raw else ["item", i],
                    f"item id {item.id!r} is also item {seen[item.id] + 1}'s; give one of them its own 'id'")
        seen.setdefault(item.id, i)
        items.append(item)
    if chk.problems:
        return None, chk.problems, chk.warnings
    return (Assignment(id=data["id"], title=data["title"], items=tuple(items), intro=data.get("intro", ""),
                       file=file), [], chk.warnings)


def _item(raw: dict[str, Any], i: int, defaults: dict[str, Any], lessons: dict[str, Lesson],
          puzzle_ids: set[str], assignment: str, chk: _Check) -> Item | None:
    """One item, checked field by field (every problem is reported; None when any was found)."""
    here: list[str | int] = ["item", i]
    before = len(chk.problems)
    has_level = "lesson" in raw or "level" in raw
    has_pool = "theme" in raw or "rating" in raw
    if sum((has_level, "puzzle" in raw, has_pool)) != 1:
        chk.add(here, "give one of: 'lesson' and 'level' (a lesson level), 'puzzle' (a puzzle ID), or 'theme' "
                      "and/or 'rating' (a pool of puzzles, one for each student)")
        return None
    points = raw.get("points", defaults.get("points"))
    if points is None and chk.ok(*here, "points"):
        chk.add(here + ["points"], "required, but missing (here or in [defaults])")
    penalty = raw.get("hint_penalty", defaults.get("hint_penalty", 0))
    if not chk.ok(*here, "points") or not chk.ok(*here, "hint_penalty"):
        points = penalty = None
    number = i + 1
    title = raw.get("title", "") if chk.ok(*here, "title") else ""
    item: Item | None = None
    if not has_level:
        item = _puzzle_item(raw, here, number, assignment, puzzle_ids, chk)
    else:
        item = _level_item(raw, here, number, assignment, lessons, chk)
    if isinstance(points, (int, float)) and isinstance(penalty, (int, float)) and penalty > points:
        chk.warn(here + ["hint_penalty"], f"a hint costs {penalty:g} points, more than the item's {points:g}: "
                                          "one hint takes the whole item")
    if item is None or len(chk.problems) > before or not chk.ok(*here) or not isinstance(points, (int, float)):
        return None
    return replace(item, points=points, hint_penalty=penalty or 0, title=title or item.title)


def _puzzle_item(raw: dict[str, Any], here: list[str | int], number: int, assignment: str, puzzle_ids: set[str],
                 chk: _Check) -> Item | None:
    if "seed" in raw:
        chk.add(here + ["seed"], "a puzzle has a fixed position: a seed changes nothing (leave it out)")
    ident = raw.get("id", f"puzzle-{number}") if chk.ok(*here, "id") else f"puzzle-{number}"
    if "puzzle" in raw:
        if chk.ok(*here, "puzzle") and raw["puzzle"] not in puzzle_ids:
            chk.add(here + ["puzzle"], f"no puzzle {raw['puzzle']!r} in the puzzle library")
        return Item(id=ident, kind=PUZZLE, points=0, puzzle=str(raw["puzzle"]), title=f"Puzzle {number}",
                    assignment=assignment, number=number)
    from ..puzzles.themes import THEMES

    theme = raw.get("theme", "")
    rating = raw.get("rating", [])
    if theme and chk.ok(*here, "theme") and theme not in THEMES:
        chk.add(here + ["theme"], f"no theme {theme!r}; the themes: " + ", ".join(sorted(THEMES)))
        return None
    if rating and chk.ok(*here, "rating") and rating[0] > rating[1]:
        chk.add(here + ["rating"], f"the band {rating} runs from its lower rating to its higher one: "
                                   f"[{rating[1]}, {rating[0]}]")
        return None
    if not chk.ok(*here, "theme") or not chk.ok(*here, "rating"):
        return None
    library = {pid: p for pid, p in puzzle_library().items() if pid in puzzle_ids}
    pool = pool_puzzles(theme, rating, library)
    what = (f"theme {theme!r}" if theme else "any theme") + (f" rated {rating[0]:g} to {rating[1]:g}" if rating else "")
    if not pool:
        chk.add(here, f"no puzzle of the library is of {what}: widen the rating band or choose another theme")
        return None
    if len(pool) < SMALL_POOL:
        chk.warn(here, f"only {len(pool)} puzzle{'s' if len(pool) != 1 else ''} of {what}: students will share "
                       "them (a wider band gives each their own)")
    return Item(id=ident, kind=PUZZLE, points=0, title=f"Puzzle {number}", assignment=assignment, number=number,
                theme=theme, rating=tuple(float(x) for x in rating))


def _level_item(raw: dict[str, Any], here: list[str | int], number: int, assignment: str,
                lessons: dict[str, Lesson], chk: _Check) -> Item | None:
    for key in ("lesson", "level"):
        if key not in raw:
            chk.add(here + [key], "required, but missing (a lesson level needs 'lesson' and 'level')")
    if not ("lesson" in raw and "level" in raw and chk.ok(*here, "lesson") and chk.ok(*here, "level")):
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
    if level.generated:
        answers = distinct_answers(level)
        if answers < FEW_ANSWERS:
            chk.warn(here + ["level"], f"level {level.key} deals only {answers} different answers over {ANSWER_SEEDS} "
                                       "deals: students' own deals often share one, so a log copied from another "
                                       "student may still solve it (a pool of puzzles gives each student their own)")
    ident = raw.get("id", f"{lesson.id}-{level.id}") if chk.ok(*here, "id") else f"{lesson.id}-{level.id}"
    seed = raw.get("seed", 0) if chk.ok(*here, "seed") else 0
    return Item(id=ident, kind=LEVEL, points=0, seed=seed, lesson=lesson.id, level=level.id, title=level.title,
                assignment=assignment, number=number)


#: a generated level whose deals give fewer different answers than this is checked with a warning
FEW_ANSWERS = 30
ANSWER_SEEDS = 200


def distinct_answers(level: Level, seeds: int = ANSWER_SEEDS) -> int:
    """How many different first solution lines a generated level's deals give (over ``seeds`` seeds)."""
    from ..lessons.generate import GenerationError, fill, generate

    found = set()
    for seed in range(seeds):
        assert level.generate is not None
        try:
            deal = generate(level.generate, level.seat, seed)
        except GenerationError:
            continue
        found.add(tuple(fill(a, deal.values) for a in level.solutions[0]) if level.solutions else ())
    return len(found)


def parse_assignment(text: str, file: str = "<assignment>", lessons: list[Lesson] | None = None,
                     puzzle_ids: set[str] | None = None) -> Assignment:
    """An assignment from its text; raises :class:`AssignmentFormatError` listing every problem."""
    assignment, problems, _ = _check(text, file, lessons, puzzle_ids)
    if problems or assignment is None:
        raise AssignmentFormatError(problems)
    return assignment


def load_assignment(path: str | Path, lessons: list[Lesson] | None = None,
                    puzzle_ids: set[str] | None = None) -> Assignment:
    """Read and check one assignment file."""
    return load_checked(path, lessons, puzzle_ids)[0]


def load_checked(path: str | Path, lessons: list[Lesson] | None = None,
                 puzzle_ids: set[str] | None = None) -> tuple[Assignment, list[Problem]]:
    """Read and check one assignment file: the assignment and its warnings (read within limits: a regular
    file of at most :data:`~canasta_tutor.tutor.lessons.loader.MAX_CONTENT_BYTES`, UTF-8)."""
    text, problem = read_content(path)
    if problem is not None:
        raise AssignmentFormatError([problem])
    assignment, problems, warnings = _check(text, str(path), lessons, puzzle_ids)
    if problems or assignment is None:
        raise AssignmentFormatError(problems)
    return assignment, warnings


__all__ = ["Assignment", "AssignmentFormatError", "Item", "LEVEL", "PUZZLE", "check_text", "check_warnings",
           "course_folder_lessons", "folder_lessons", "item_field", "load_assignment", "load_checked",
           "parse_assignment", "pool_puzzles", "puzzle_by_ref", "puzzle_ref", "schema", "SCHEMA_PATH"]
