"""A student driven from Python: plays assignment items exactly as the widget does, and logs them.

For tests, benchmarks and a teacher's dry run: a lesson level is played through the
:class:`~canasta_tutor.tutor.assignments.sessions.ExamLevel` and a puzzle through the
:class:`~canasta_tutor.tutor.assignments.sessions.ExamPuzzle`, the sessions the item's widget
shows, so the log written is the widget's, on the student's own deal.

>>> import tempfile
>>> from canasta_tutor.tutor.assignments.spec import Item
>>> from canasta_tutor.tutor.assignments.grading import grade_log
>>> item = Item(id="m", kind="level", lesson="melds", level="meld-practice", seed=7, points=10, hint_penalty=2)
>>> folder = tempfile.mkdtemp()
>>> play_item(item, [["discard 4"], [HINT, *solution_line(item, "s01")]], folder, "s01")
['open', 'passed']
>>> g = grade_log(item, folder, student="s01")
>>> g.solved, g.hints, g.score
(True, 1, 8)
>>> grade_log(item, folder, student="s02").solved    # the same log on another student's deal
False
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..lessons.model import Level
from ..lessons.runner import OPEN, LevelRun
from .exam import PUZZLE_STATUS, ExamError, item_level, item_puzzle, student_seed
from .grading import LOG_DIR
from .sessions import ExamLevel, ExamPuzzle
from .spec import PUZZLE, Item

#: a step that opens the next hint instead of playing an action
HINT = "?hint"
#: a step that gives the item up
GIVE_UP = "?give-up"


def solution_line(item: Item, student: str = "student", level: Level | None = None) -> list[str]:
    """The item's first solution line on the student's deal (a puzzle's: its whole solution)."""
    if item.kind == PUZZLE:
        return list(item_puzzle(item, student).solution)
    level = level if level is not None else item_level(item)
    run = LevelRun(level, student_seed(item, student, level), hint_fn=None)
    return [run.fill(a) for a in level.solutions[0]]


def play_item(item: Item, attempts: Sequence[Sequence[str]], log_dir: str | Path = LOG_DIR,
              student: str = "student") -> list[str]:
    """Play ``attempts`` (each a list of actions, :data:`HINT` and :data:`GIVE_UP` steps; each after the
    first is a retry) and log them in ``log_dir``; returns each attempt's status (``open``, ``passed``
    or ``failed``).  Steps the item refuses (after the attempt or the item closed, a hint when none is
    left) are skipped, as a click on a button that is off."""
    if item.kind == PUZZLE:
        return _play_puzzle(item, attempts, str(log_dir), student)
    s = ExamLevel(item, student, str(log_dir))
    statuses = []
    for n, steps in enumerate(attempts):
        if n:
            try:
                s.retry()
            except ExamError:
                break
        for step in steps:
            if s.run.status != OPEN or s.closed:
                break
            try:
                if step == HINT:
                    s.hint()
                elif step == GIVE_UP:
                    s.give_up()
                else:
                    s.act(step)
            except ExamError:
                continue
        statuses.append(s.run.status)
    return statuses


def _play_puzzle(item: Item, attempts: Sequence[Sequence[str]], log_dir: str, student: str) -> list[str]:
    t = ExamPuzzle(item, student, log_dir)
    statuses = []
    for n, steps in enumerate(attempts):
        if n and (t.closed or t.handle({"intent": "retry"}) != f"Attempt {t.attempt_no}."):
            break
        for step in steps:
            if t.run.over or t.closed:
                break
            t.handle({"intent": "hint"} if step == HINT else {"intent": "give_up"} if step == GIVE_UP
                     else {"intent": "play", "text": step})
        statuses.append(PUZZLE_STATUS[t.run.status])
    return statuses


__all__ = ["GIVE_UP", "HINT", "play_item", "solution_line"]
