"""The teacher's own pass over the collected logs: replayed outside any student's notebook.

nbgrader runs each student's notebook, so a student's own code runs in the grading kernel
too.  :func:`grade_course` replays every log under ``submitted/<student>/<assignment>/``
with the same rule as the autograded cells, in the teacher's process;
:func:`gradebook_scores` reads what nbgrader's gradebook holds, so the two can be compared,
and :func:`record_attempts` files every replayed attempt in the class's progress store
(``kind="assignment"``), where the class report finds it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..progress import Attempt, ProgressStore, ProgressStoreError
from ..lessons.runner import LevelRun
from ..trainer import PuzzleRun
from ...errors import CanastaError
from .grading import (PUZZLE_STATUS, LOG_DIR, Grade, LogError, attempts_of, log_path, read_log, replay_puzzle,
                      replay_run, score)
from .items import item_level
from .spec import LEVEL, Assignment, Item, puzzle_library


@dataclass
class StudentResult:
    """One student's replayed grades, item by item, and the attempts for the store."""

    student: str
    grades: list[Grade] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def total(self) -> float:
        return float(sum(g.score for g in self.grades))


def students(course: str | Path, assignment_id: str) -> list[str]:
    """The students with a submission of the assignment in the course folder."""
    root = Path(course) / "submitted"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / assignment_id).is_dir())


def _uid(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]


def grade_student(assignment: Assignment, folder: Path, student: str) -> StudentResult:
    """Replay one submission folder (``submitted/<student>/<assignment>``).  A log that cannot be
    read or replayed scores 0 with its reason in the grade's message; the other items are graded."""
    out = StudentResult(student)
    for item in assignment.items:
        path = log_path(item, folder / LOG_DIR)
        g = Grade(item=item.id, points=item.points)
        if not path.exists() and not path.is_symlink():
            g.message = f"no log {path.name} (not played)"
        else:
            try:
                data = read_log(path)
                entries_list = attempts_of(data, path.name, item)
                out.attempts.extend(_replay_item(assignment, item, student, entries_list,
                                                 _times(data, len(entries_list)), g))
            except LogError as e:
                g = Grade(item=item.id, points=item.points, message=str(e))
            except (CanastaError, ValueError, LookupError, TypeError, RecursionError) as e:
                # a replay that breaks: nothing of it counts, and the other items and students go on
                g = Grade(item=item.id, points=item.points, message=f"{path.name}: could not be replayed "
                          f"({type(e).__name__}: {' '.join(str(e).split())[:120]})")
        out.grades.append(g)
    return out


def _replay_item(assignment: Assignment, item: Item, student: str, entries_list: list[list[dict[str, str]]],
                 times: list[tuple[str, str]], g: Grade) -> list[Attempt]:
    """Replay every attempt at ``item``, filling its grade ``g``; the attempts as the store files them."""
    level = item_level(item) if item.kind == LEVEL else None
    g.attempts = len(entries_list)
    filed = []
    for n, entries in enumerate(entries_list):
        if level is None:
            attempt = _puzzle_attempt(replay_puzzle(puzzle_library()[item.puzzle], entries))
        else:
            attempt = _level_attempt(*replay_run(level, item.seed, entries))
        g.statuses.append(attempt.status)
        g.solved = g.solved or attempt.status == "passed"
        g.hints = max(g.hints, attempt.hints)
        filed.append(_filed(attempt, assignment, item, student, n, times[n]))
    g.score = score(item, g.solved, g.hints)
    return filed


def _times(data: Any, n: int) -> list[tuple[str, str]]:
    """Each attempt's start and last action as the student's log wrote them (for the report's time line;
    never for the grade); empty strings where they are missing or not ISO times."""
    attempts = data.get("attempts") if isinstance(data, dict) else None
    if not isinstance(attempts, list):
        attempts = []
    out = []
    for i in range(n):
        a = attempts[i] if i < len(attempts) and isinstance(attempts[i], dict) else {}
        out.append((_iso(a.get("started")), _iso(a.get("last"))))
    return out


def _iso(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 40:
        return ""
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return ""
    return value


def _themes(item: Item) -> list[str]:
    """The item's themes as the progress store files them: a puzzle's own, or the lesson's id."""
    if item.kind == LEVEL:
        return [item.lesson]
    p = puzzle_library().get(item.puzzle)
    return list(p.themes) if p is not None else []


def _level_attempt(run: LevelRun, hints: int) -> Attempt:
    actions = [{k: str(v) for k, v in e.items() if k in ("kind", "text", "rule", "reason")} for e in run.log
               if e.get("kind") in ("action", "refused", "wrong", "reply")]
    stars = max(1, 3 - hints - (1 if run.tries > run.level.par else 0)) if run.status == "passed" else 0
    return Attempt(learner="", lesson=run.level.lesson_id, level=run.level.id, status=run.status, stars=stars,
                   tries=run.tries, par=run.level.par, hints=hints, actions=actions)


def _puzzle_attempt(run: PuzzleRun) -> Attempt:
    actions = [{k: str(v) for k, v in e.items() if k in ("kind", "text", "rule", "reason")} for e in run.tried
               if e.get("kind") != "hint"]
    status = PUZZLE_STATUS[run.status]
    return Attempt(learner="", lesson="puzzles", level=run.puzzle.id, status=status,
                   stars=max(1, 3 - len(run.hints)) if status == "passed" else 0, tries=len(actions),
                   hints=len(run.hints), actions=actions)


def _filed(a: Attempt, assignment: Assignment, item: Item, student: str, n: int, times: tuple[str, str]) -> Attempt:
    """The replayed attempt as the class's store files it."""
    a.learner = student
    a.seed = item.seed
    a.kind = "assignment"
    a.assignment = assignment.id
    a.themes = _themes(item)
    a.started, a.finished = times[0], times[1] or times[0]
    a.uid = _uid(assignment.id, student, item.id, str(n), *[e["text"] for e in a.actions])
    return a


def grade_course(assignment: Assignment, course: str | Path) -> list[StudentResult]:
    """Every submission of the assignment in the course folder, replayed."""
    root = Path(course)
    return [grade_student(assignment, root / "submitted" / s / assignment.id, s)
            for s in students(course, assignment.id)]


def gradebook_scores(course: str | Path, assignment_id: str) -> dict[str, dict[str, float]] | None:
    """nbgrader's scores per student and grade cell (``<item>-grade``), or None without a gradebook."""
    db = Path(course) / "gradebook.db"
    if not db.exists():
        return None
    from nbgrader.api import Gradebook, MissingEntry  # the teacher extra

    out: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{db}") as gb:
        for student in students(course, assignment_id):
            try:
                sub = gb.find_submission(assignment_id, student)
            except MissingEntry:
                continue
            out[student] = {g.name: float(g.score) for nb in sub.notebooks for g in nb.grades}
    return out


def record_attempts(results: list[StudentResult], store: ProgressStore) -> tuple[int, int]:
    """File every replayed attempt in the store; returns (new, already there).  Idempotent: an
    attempt's uid is made from the assignment, the student, the item and the attempt's actions."""
    new = old = 0
    for r in results:
        for a in r.attempts:
            try:
                store.record(a)
                new += 1
            except ProgressStoreError as e:
                if e.cause != "duplicate":  # only an attempt filed before (its uid) is skipped
                    raise
                old += 1
    return new, old


__all__ = ["StudentResult", "grade_course", "grade_student", "gradebook_scores", "record_attempts", "students"]
