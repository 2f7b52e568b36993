"""The teacher's own pass over the collected logs: replayed outside any student's notebook.

nbgrader runs each student's notebook, so a student's own code runs in the grading kernel
too.  :func:`grade_course` replays every log under ``submitted/<student>/<assignment>/``
with the same rules as the autograded cells (:mod:`.exam`), on each student's own deal (the
student is the submission's folder), in the teacher's process; :func:`gradebook_scores`
reads what nbgrader's gradebook holds, so the two can be compared, :func:`fix_gradebook`
writes the replay's score where they differ, and :func:`record_attempts` files every
replayed attempt in the class's progress store (``kind="assignment"``), where the class
report finds it.  What is filed is what the replay shows: the status, the hints, the
engine's rule and reason for a refused move, and, for a puzzle's wrong answer, the reason
in words (the hint's detectors).  Only the attempts' times come from the student's log: the
report says so where it shows them.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..lessons.model import Level
from ..lessons.runner import LevelRun
from ...engine.errors import CanastaError
from ..progress import Attempt, ProgressStore, ProgressStoreError
from ..puzzles.trainer import PuzzleRun
from .exam import (GIVE_UP, PUZZLE_STATUS, answer_and_why, item_level, item_puzzle, replay_item_log, score,
                   teacher_wrong_reason)
from .grading import LOG_DIR, Grade, LogError, attempts_of, log_path, logged_student, personal_deal, read_log
from .spec import LEVEL, Assignment, Item


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


def course_levels(assignment: Assignment, lessons: list[Any] | None = None) -> dict[str, Level]:
    """Each level item's level (from ``lessons``, a course folder's, else from the installed course)."""
    by_id = {lesson.id: lesson for lesson in lessons} if lessons is not None else None
    out = {}
    for item in assignment.items:
        if item.kind == LEVEL:
            out[item.id] = by_id[item.lesson].level(item.level) if by_id is not None else item_level(item)
    return out


def grade_student(assignment: Assignment, folder: Path, student: str,
                  levels: dict[str, Level] | None = None) -> StudentResult:
    """Replay one submission folder (``submitted/<student>/<assignment>``) on the student's own deals."""
    levels = course_levels(assignment) if levels is None else levels
    out = StudentResult(student)
    for item in assignment.items:
        level = levels.get(item.id)
        path = log_path(item, folder / LOG_DIR)
        label = f"{item.number}. {item.label}" if item.number else item.label
        g = Grade(item=item.id, points=item.points, label=label)
        if not path.exists() and not path.is_symlink():
            g.message = f"no log {path.name} (not played)"
        else:
            try:
                out.attempts.extend(_replay_log(assignment, item, student, level, path, g))
            except LogError as e:
                g = Grade(item=item.id, points=item.points, label=label, message=str(e))
            except (CanastaError, ValueError, LookupError, TypeError, RecursionError) as e:
                # a replay that breaks: nothing of it counts, and the other items and students go on
                g = Grade(item=item.id, points=item.points, label=label, message=f"{path.name}: could not be "
                          f"replayed ({type(e).__name__}: {' '.join(str(e).split())[:120]})")
        out.grades.append(g)
    return out


def _replay_log(assignment: Assignment, item: Item, student: str, level: Level | None, path: Path,
                g: Grade) -> list[Attempt]:
    """Replay the log at ``path`` (read once, within limits), filling the grade ``g``; the attempts as the
    store files them.  Raises :class:`LogError` for a log that cannot be read."""
    data = read_log(path)
    entries_list = attempts_of(data, path.name, item)
    r = replay_item_log(item, entries_list, student, level)
    g.attempts, g.statuses, g.solved, g.hints = len(entries_list), r.statuses, r.solved, r.hints
    g.closed, g.ignored = r.closed, r.ignored
    g.score = score(item, g.solved, g.hints)
    if r.closed:
        g.answer, g.why = answer_and_why(item, student, level)
    played_as = logged_student(path)
    if played_as and played_as != student and not g.solved and personal_deal(item, level):
        g.message = (f"played on the deal of student {played_as[:40]!r}, not of {student[:40]!r} (a log is "
                     "graded on the deal of the student who submits it)")
    times = _times(data, len(entries_list))
    filed = []
    for n, (run, entries) in enumerate(zip(r.runs, entries_list, strict=False)):
        given_up = any(e["kind"] == GIVE_UP for e in entries)
        if isinstance(run, PuzzleRun):
            attempt = _puzzle_attempt(run, r.attempt_hints[n], given_up)
        else:
            attempt = _level_attempt(run, r.attempt_hints[n], given_up)
        filed.append(_filed(attempt, assignment, item, student, n, times[n]))
    return filed


def _times(data: Any, n: int) -> list[tuple[str, str]]:
    """Each attempt's start and last action as the student's log ``data`` wrote them (for the report's time
    line, labelled there as reported by the student; never for the grade); empty strings where they are
    missing or not ISO times."""
    attempts = data.get("attempts") if isinstance(data, dict) else None
    out = []
    for i in range(n):
        a = attempts[i] if isinstance(attempts, list) and i < len(attempts) and isinstance(attempts[i], dict) else {}
        out.append((_iso(a.get("started")), _iso(a.get("last"))))
    return out


def _iso(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 40:
        return ""
    try:
        stamp = datetime.fromisoformat(value)
    except ValueError:
        return ""
    return value if stamp.tzinfo is not None else ""


def _level_attempt(run: LevelRun, hints: int, given_up: bool) -> Attempt:
    actions = [{k: str(v) for k, v in e.items() if k in ("kind", "text", "rule", "reason")} for e in run.log
               if e.get("kind") in ("action", "refused", "wrong", "reply")]
    passed = run.status == "passed"
    stars = max(1, 3 - hints - (1 if run.tries > run.level.par else 0)) if passed else 0
    return Attempt(learner="", lesson=run.level.lesson_id, level=run.level.id, seed=run.seed,
                   status="failed" if given_up and not passed else run.status, stars=stars, tries=run.tries,
                   par=run.level.par, hints=hints, actions=actions)


def _puzzle_attempt(run: PuzzleRun, hints: int, given_up: bool) -> Attempt:
    actions = []
    for e in run.tried:
        if e.get("kind") not in ("action", "refused", "wrong"):
            continue
        row = {k: str(v) for k, v in e.items() if k in ("kind", "text", "rule", "reason")}
        if row["kind"] == "wrong":  # the reason in words, from the teacher's side
            row["reason"] = teacher_wrong_reason(run.puzzle, row["text"])
        actions.append(row)
    status = "failed" if given_up and run.status != "solved" else PUZZLE_STATUS[run.status]
    return Attempt(learner="", lesson="puzzles", level=run.puzzle.id, status=status,
                   stars=max(1, 3 - hints) if status == "passed" else 0, tries=len(actions), hints=hints,
                   actions=actions)


def _filed(a: Attempt, assignment: Assignment, item: Item, student: str, n: int, times: tuple[str, str]) -> Attempt:
    """The replayed attempt as the class's store files it (a pool's under the item, not the puzzle)."""
    a.learner = student
    a.kind = "assignment"
    a.assignment = assignment.id
    if item.kind == LEVEL:
        a.themes = [item.lesson]
    else:
        a.themes = list(item_puzzle(item, student).themes)
        if item.pool:  # the item, not the puzzle: each student had their own
            a.lesson, a.level, a.mode = assignment.id, item.id, "pool"
    a.started, a.finished = times[0], times[1] or times[0]
    a.uid = _uid(assignment.id, student, item.id, str(n), *[e["text"] for e in a.actions])
    return a


def grade_course(assignment: Assignment, course: str | Path, lessons: list[Any] | None = None) -> list[StudentResult]:
    """Every submission of the assignment in the course folder, replayed (``lessons``: the course
    folder's own lessons, when it has them)."""
    root = Path(course)
    levels = course_levels(assignment, lessons)
    return [grade_student(assignment, root / "submitted" / s / assignment.id, s, levels)
            for s in students(course, assignment.id)]


def identical_logs(assignment: Assignment, course: str | Path) -> list[tuple[str, list[str]]]:
    """The items whose log is the same in several students' submissions (the same attempts, entries and
    times): (item id, the students).  A log copied from another student earns nothing where the deal is
    the student's own, but a generated level deals few different answers; this lists the copies."""
    root = Path(course)
    out = []
    for item in assignment.items:
        seen: dict[str, list[str]] = {}
        for s in students(course, assignment.id):
            path = log_path(item, root / "submitted" / s / assignment.id / LOG_DIR)
            try:
                attempts = read_log(path).get("attempts")  # within limits, as the grader reads it
            except (LogError, AttributeError):
                continue
            if attempts:
                key = hashlib.sha256(json.dumps(attempts, sort_keys=True).encode("utf-8")).hexdigest()
                seen.setdefault(key, []).append(s)
        out += [(item.id, group) for group in seen.values() if len(group) > 1]
    return out


# ------------------------------------------------------------------ nbgrader's gradebook
def _course_id(db: Path) -> str:
    """The gradebook's course id (opening it under another id would add a course to it)."""
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT id FROM course ORDER BY id LIMIT 1").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        row = None
    return str(row[0]) if row else "default_course"


def gradebook_scores(course: str | Path, assignment_id: str) -> dict[str, dict[str, float]] | None:
    """nbgrader's scores per student and grade cell (``<item>-grade``), or None without a gradebook."""
    db = Path(course) / "gradebook.db"
    if not db.exists():
        return None
    from nbgrader.api import Gradebook, MissingEntry  # the teacher extra

    out: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{db}", _course_id(db)) as gb:
        for student in students(course, assignment_id):
            try:
                sub = gb.find_submission(assignment_id, student)
            except MissingEntry:
                continue
            out[student] = {g.name: float(g.score) for nb in sub.notebooks for g in nb.grades}
    return out


def differences(results: list[StudentResult], book: dict[str, dict[str, float]]) -> list[tuple[str, str, Any, float]]:
    """Where nbgrader's gradebook and the replay differ: (student, item, gradebook score or None, replay)."""
    out: list[tuple[str, str, Any, float]] = []
    for r in results:
        cells = book.get(r.student)
        if cells is None:
            out.append((r.student, "", None, r.total))
            continue
        for g in r.grades:
            got = cells.get(f"{g.item}-grade")
            if got is None or abs(got - g.score) > 1e-6:
                out.append((r.student, g.item, got, g.score))
    return out


def fix_gradebook(course: str | Path, assignment_id: str, results: list[StudentResult]) -> list[str]:
    """Write the replayed score into nbgrader's gradebook (its manual score, which nbgrader shows and
    exports in place of the autograded one) wherever the two differ; returns what was changed."""
    from nbgrader.api import Gradebook, MissingEntry  # the teacher extra

    db = Path(course) / "gradebook.db"
    changed = []
    with Gradebook(f"sqlite:///{db}", _course_id(db)) as gb:
        for r in results:
            try:
                sub = gb.find_submission(assignment_id, r.student)
            except MissingEntry:
                continue
            cells = {g.name: g for nb in sub.notebooks for g in nb.grades}
            for g in r.grades:
                cell = cells.get(f"{g.item}-grade")
                if cell is None or abs(float(cell.score) - g.score) <= 1e-6:
                    continue
                changed.append(f"{r.student}: {g.item}: {float(cell.score):g} -> {g.score:g}")
                cell.manual_score = g.score
        gb.db.commit()
    return changed


def record_attempts(results: list[StudentResult], store: ProgressStore) -> tuple[int, int]:
    """File every replayed attempt in the store, and every student who submitted (so the report lists
    those who have not started); returns (new, already there).  Idempotent: an attempt's uid is made
    from the assignment, the student, the item and the attempt's actions."""
    new = old = 0
    for r in results:
        if r.student not in store.display_names():
            store.add_learner(r.student)
        for a in r.attempts:
            try:
                store.record(a)
                new += 1
            except ProgressStoreError as e:
                if e.cause != "duplicate":  # only an attempt filed before (its uid) is skipped
                    raise
                old += 1
    return new, old


__all__ = ["StudentResult", "course_levels", "differences", "fix_gradebook", "grade_course", "grade_student",
           "identical_logs",
           "gradebook_scores", "record_attempts", "students"]
