"""The rules of a graded item, shared by the student's widget and the grader: who the student is,
their own deal, and how an item's attempts are replayed.

- **The student.** :func:`student_id` is nbgrader's own student id for this server: the login,
  or JupyterHub's user name where the login is the shared ``jovyan`` (nbgrader's exchange submits
  under it); ``CANASTA_TUTOR_STUDENT`` overrides it.  While nbgrader autogrades, the grader's
  student is the submission's folder (:func:`grading_student`), never anything the log says.
- **Their own deal.** A generated lesson level is dealt from :func:`student_seed`: a digest of
  the student id, the assignment, the item and the item's seed in the file.  A pool item (a theme
  and a rating band) gives each student one of its puzzles, by the same digest
  (:func:`item_puzzle`).  Reopening the notebook gives the same deal; the grader derives it the
  same way, so a log copied from another student replays on the wrong deal.
- **An item is an exam.** Its attempts are read in order (:func:`replay_item_log`): an attempt
  that reaches the goal closes the item, solved; a ``give_up`` entry closes it, unsolved (the
  student was shown the answer); anything after the item closed is not read.  Hints belong to the
  item, not to an attempt: each hint entry opens the next hint while one is left and costs the
  penalty once; a click with no new hint left costs nothing.  The score is ``points -
  hint_penalty * hints`` when solved (at least 0), else 0.

>>> from canasta_tutor.tutor.assignments.spec import Item
>>> item = Item(id="m", kind="level", lesson="melds", level="meld-practice", seed=7, points=10, assignment="w1")
>>> student_seed(item, "s01") == student_seed(item, "s01") != student_seed(item, "s02")
True
>>> pool = Item(id="p", kind="puzzle", theme="frozen-pack", points=5, assignment="w1")
>>> item_puzzle(pool, "s01").id == item_puzzle(pool, "s01").id
True
"""

from __future__ import annotations

import getpass
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...notation.actions import format_action, parse_action
from ...engine.errors import CanastaError, NotationError
from ..lessons.model import Lesson, Level
from ..lessons.runner import FAILED, OPEN, PASSED, LevelRun
from ..puzzles.library import Puzzle
from ..puzzles.trainer import MISSED, SOLVED, PuzzleRun, TrainerError
from .spec import LEVEL, PUZZLE, Item, course_lesson, folder_lessons, pool_puzzles, puzzle_library

STUDENT_ENV = "CANASTA_TUTOR_STUDENT"
GIVE_UP = "give_up"
#: the deals a generated level can have per item: the lesson generator's seeds run below 10,000
DEALS = 10_000
#: a puzzle run's status as a level's
PUZZLE_STATUS = {SOLVED: PASSED, MISSED: FAILED, OPEN: OPEN}
SOLVED_ITEM, GIVEN_UP = "solved", "given up"


class ExamError(CanastaError, ValueError):
    """A request a graded item refuses (a closed item, a full log, an intent of the trainer)."""


# ------------------------------------------------------------------ the student and the deal
def student_id() -> str:
    """The student's id as nbgrader's exchange knows it: ``$CANASTA_TUTOR_STUDENT``, else the login
    (JupyterHub's user name when the login is ``jovyan``, as nbgrader's ``get_username``)."""
    forced = os.environ.get(STUDENT_ENV, "").strip()
    if forced:
        return forced
    try:
        import pwd

        name = pwd.getpwuid(os.getuid())[0]
    except (ImportError, KeyError):
        name = getpass.getuser()
    return os.environ.get("JUPYTERHUB_USER", name) if name == "jovyan" else name


def grading_student() -> str:
    """The student being graded: while nbgrader autogrades, the submission's folder
    (``autograded/<student>/<assignment>/``, where nbgrader runs the notebook); else :func:`student_id`."""
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        return Path.cwd().parent.name
    return student_id()


def _digest(*parts: object) -> int:
    text = "\x1f".join(str(p) for p in parts)
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


def student_seed(item: Item, student: str, level: Level | None = None) -> int:
    """The seed of the student's deal of a generated level (the item's own seed for a fixed one)."""
    if item.kind != LEVEL or not (level if level is not None else item_level(item)).generated:
        return item.seed
    return _digest("deal", student, item.assignment, item.id, item.seed) % DEALS


def item_puzzle(item: Item, student: str) -> Puzzle:
    """The student's puzzle: the item's own, or their own from its pool."""
    if item.kind != PUZZLE:
        raise ValueError(f"item {item.id!r} is a lesson level, not a puzzle")
    if item.puzzle:
        return puzzle_library()[item.puzzle]
    pool = pool_puzzles(item.theme, item.rating)
    if not pool:
        raise KeyError(f"item {item.id!r}: no puzzle of the installed library is in its pool")
    return pool[_digest("pool", student, item.assignment, item.id) % len(pool)]


def personal(item: Item) -> bool:
    """Whether each student gets their own deal of the item (a generated level, or a pool)."""
    return item.pool or (item.kind == LEVEL and item_level(item).generated)


def item_level(item: Item, lessons_root: str | Path = ".") -> Level:
    """The lesson level of an item: from the course folder's copy beside the notebook
    (``item.lessons``, under ``lessons_root``), else from the installed course."""
    if item.kind != LEVEL:
        raise ValueError(f"item {item.id!r} is a puzzle, not a lesson level")
    lesson: Lesson | None
    if item.lessons:
        lesson = _folder_lessons(str(Path(lessons_root) / item.lessons)).get(item.lesson)
        where = f"the lessons folder {item.lessons!r}"
    else:
        lesson, where = course_lesson(item.lesson), "the installed course"
    if lesson is None:
        raise KeyError(f"no lesson {item.lesson!r} in {where}")
    return lesson.level(item.level)


_FOLDERS: dict[str, tuple[float, dict[str, Lesson]]] = {}


def _folder_lessons(folder: str) -> dict[str, Lesson]:
    """A lessons folder's lessons, read again only when a file in it changed."""
    path = Path(folder)
    stamp = max((f.stat().st_mtime for f in path.glob("*.toml")), default=0.0)
    cached = _FOLDERS.get(folder)
    if cached is None or cached[0] != stamp:
        cached = (stamp, folder_lessons(path))
        _FOLDERS[folder] = cached
    return cached[1]


# ------------------------------------------------------------------ hints
def level_hint_count(level: Level) -> int | None:
    """How many hints a level has (its written hints), or None when the engine's hint gives them."""
    return len(level.hints) if level.hints else None


def puzzle_hint_count(puzzle: Puzzle) -> int:
    """How many hints a puzzle has (the puzzle trainer's stages)."""
    return len(PuzzleRun(puzzle, explain=None).hint_stages())


# ------------------------------------------------------------------ replaying an item
@dataclass
class ItemReplay:
    """An item's attempts replayed: each attempt's run and status, the hints charged, how it closed."""

    statuses: list[str] = field(default_factory=list)
    runs: list[Any] = field(default_factory=list)  # LevelRun or PuzzleRun, one per attempt read
    attempt_hints: list[int] = field(default_factory=list)  # new hints opened in each attempt
    hints: int = 0
    closed: str = ""  # SOLVED_ITEM, GIVEN_UP, or "" while open
    ignored: int = 0  # attempts after the item closed, not read

    @property
    def solved(self) -> bool:
        return self.closed == SOLVED_ITEM


def replay_item_log(item: Item, attempts: list[list[dict[str, str]]], student: str,
                    level: Level | None = None) -> ItemReplay:
    """Replay an item's attempts (their learner entries, in order) on the student's deal."""
    out = ItemReplay()
    if item.kind == PUZZLE:
        puzzle = item_puzzle(item, student)
        most: int | None = puzzle_hint_count(puzzle)
    else:
        level = level if level is not None else item_level(item)
        seed = student_seed(item, student, level)
        most = level_hint_count(level)
    for entries in attempts:
        if out.closed:
            out.ignored += 1
            continue
        before = out.hints
        if item.kind == PUZZLE:
            run: Any = _replay_puzzle(puzzle, entries, out)
            status = PUZZLE_STATUS[run.status]
        else:
            assert level is not None
            run = _replay_level(level, seed, entries, out, most)
            status = run.status
        out.runs.append(run)
        out.statuses.append(status)
        out.attempt_hints.append(out.hints - before)
        if status == PASSED and out.closed != GIVEN_UP:
            out.closed = SOLVED_ITEM
    return out


def _hint_left(out: ItemReplay, most: int | None) -> bool:
    return most is None or out.hints < most


def _replay_level(level: Level, seed: int, entries: list[dict[str, str]], out: ItemReplay,
                  most: int | None) -> LevelRun:
    run = LevelRun(level, seed, hint_fn=None)
    run.judge_wrong = False  # explaining a wrong move is the player's feedback, not part of the grade
    run.hints_used = out.hints
    for e in entries:
        if e["kind"] == GIVE_UP:
            out.closed = GIVEN_UP
            break
        if run.status != OPEN:
            break
        if e["kind"] == "hint":
            if _hint_left(out, most):
                out.hints += 1
                run.hints_used = out.hints
        else:
            run.play(e["text"])
    return run


def _replay_puzzle(puzzle: Puzzle, entries: list[dict[str, str]], out: ItemReplay) -> PuzzleRun:
    run = PuzzleRun(puzzle, explain=None)
    stages = run.hint_stages()
    run.hints = stages[:out.hints]
    for e in entries:
        if e["kind"] == GIVE_UP:
            out.closed = GIVEN_UP
            break
        if run.over:
            break
        if e["kind"] == "hint":
            if out.hints < len(stages):
                run.hint()
                out.hints += 1
        else:
            try:
                run.play(e["text"])
            except TrainerError:  # not an action at all: the widget never logs one
                continue
    return run


def score(item: Item, solved: bool, hints: int) -> float:
    """The partial credit rule: ``points - hint_penalty * hints`` when solved, at least 0; else 0."""
    if not solved:
        return 0
    value = item.points - item.hint_penalty * hints
    return max(0, round(value, 4) if isinstance(value, float) else value)


# ------------------------------------------------------------------ the answer, once an item is closed
def answer_and_why(item: Item, student: str, level: Level | None = None) -> tuple[str, str]:
    """The item's answer on the student's deal, and why, in words (shown once the item is closed)."""
    if item.kind == PUZZLE:
        return puzzle_answer(item_puzzle(item, student))
    level = level if level is not None else item_level(item)
    run = LevelRun(level, student_seed(item, student, level), hint_fn=None)
    line = ", ".join(run.solutions[0]) if run.solutions else ""
    return line, _plain(run.fill(level.conclusion))


def puzzle_answer(p: Puzzle) -> tuple[str, str]:
    """A puzzle's answer and why: its note, or what the hint's detectors see in the answer, and the
    verification's comparison with the next best move."""
    from ...hint.detectors import GOOD, move_facts
    from ...engine.observer import observe
    from ...engine.state import SEATS

    answer = ", ".join(p.solution) + (f" (also accepted: {', '.join(p.accept)})" if p.accept else "")
    why = [p.note] if p.note else []
    if not why:
        state = p.state()
        assert state.actor is not None
        try:
            action = parse_action(p.solution[0])
            why = [f.text for f in move_facts(observe(state, SEATS[state.actor]), action, state) if f.kind == GOOD][:2]
        except (CanastaError, ValueError, KeyError, IndexError):
            why = []
    v = p.verification
    if v.forced:
        why.append("It is the only legal move.")
    elif v.samples:
        why.append(f"Checked on {v.samples:,} sampled deals: it beats the next best move, {v.second}, by about "
                   f"{v.difference:.0f} points this hand.")
    return answer, " ".join(why)


def wrong_reason(puzzle: Puzzle, state_before: Any, action: Any) -> str:
    """Why a legal move is not a puzzle's answer, in words and without naming the answer: the costs
    the hint's detectors find in it (a rule number where a rule is the reason)."""
    from ...hint.detectors import BAD, move_facts
    from ...engine.observer import observe
    from ...engine.state import SEATS

    seat = state_before.actor
    try:
        facts = [f.text for f in move_facts(observe(state_before, SEATS[seat]), action, state_before)
                 if f.kind == BAD]
    except (CanastaError, ValueError, KeyError, IndexError):
        facts = []
    return " ".join(facts[:2]) or "It is legal, but there is a better move here."


def level_wrong_reason(state: Any, seat: str, action: tuple, expected: tuple | None, seed: int) -> str:
    """Why a legal move leaves a level's goal out of reach, in words and without naming the level's
    move: the costs the hint's detectors find in it (a ``why_fn`` of the level runner)."""
    from ...hint.detectors import BAD, move_facts
    from ...engine.observer import observe

    try:
        facts = [f.text for f in move_facts(observe(state, seat), action, state) if f.kind == BAD]
    except (CanastaError, ValueError, KeyError, IndexError):
        facts = []
    head = "After this move the goal cannot be reached any more."
    return " ".join([head, *facts[:2]])


def teacher_wrong_reason(puzzle: Puzzle, text: str) -> str:
    """Why a move is not the puzzle's answer, for the teacher: the costs the hint's detectors find
    in it, else the answer and the puzzle's note; in words, with no search figures."""
    try:
        action = parse_action(text)
    except NotationError:
        return ""
    state = puzzle.state()
    why = wrong_reason(puzzle, state, action)
    if why.startswith("It is legal"):
        why = f"The answer is {format_action(parse_action(puzzle.solution[0]))}." + (f" {puzzle.note}"
                                                                                   if puzzle.note else "")
    return why


def _plain(markdown: str) -> str:
    """Lesson Markdown as one line of plain text."""
    return " ".join(markdown.replace("**", "").replace("`", "").split())


__all__ = ["ExamError", "GIVE_UP", "GIVEN_UP", "ItemReplay", "PUZZLE_STATUS", "SOLVED_ITEM", "STUDENT_ENV",
           "answer_and_why", "grading_student", "item_level", "item_puzzle", "level_hint_count",
           "level_wrong_reason", "personal", "puzzle_answer", "puzzle_hint_count", "replay_item_log", "score",
           "student_id", "student_seed", "teacher_wrong_reason", "wrong_reason"]
