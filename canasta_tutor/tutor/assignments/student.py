"""A student driven from Python: plays assignment items as the widget would, and logs them.

For tests, benchmarks and a teacher's dry run: a lesson level is played through the
:class:`~canasta_tutor.tutor.lessons.player.LessonPlayer` (the object the lesson widget
shows), a puzzle through the :class:`~canasta_tutor.tutor.puzzle_session.PuzzleTable` (the
puzzle widget's), and the :class:`~canasta_tutor.tutor.assignments.grading.ItemRecorder`
writes the log after every step, exactly as the widget cell does.

>>> import tempfile
>>> from canasta_tutor.tutor.assignments.spec import Item
>>> from canasta_tutor.tutor.assignments.grading import grade_log
>>> item = Item(id="m", kind="level", lesson="melds", level="meld-practice", seed=7, points=10, hint_penalty=2)
>>> folder = tempfile.mkdtemp()
>>> play_item(item, [["discard 4"], [HINT, *solution_line(item)]], folder)
['open', 'passed']
>>> g = grade_log(item, folder)
>>> g.solved, g.hints, g.score
(True, 1, 8)
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..lessons.player import LessonPlayer
from ..lessons.runner import OPEN, LevelRun
from ..puzzle_session import PuzzleTable
from ..trainer import Trainer
from .grading import LOG_DIR, PUZZLE_STATUS, ItemRecorder
from .items import item_lesson, item_level
from .spec import PUZZLE, Item, puzzle_library

#: a step that opens the next hint instead of playing an action
HINT = "?hint"


def solution_line(item: Item) -> list[str]:
    """The item's first solution line, filled in for its seed (a puzzle's: its whole solution)."""
    if item.kind == PUZZLE:
        return list(puzzle_library()[item.puzzle].solution)
    run = LevelRun(item_level(item), item.seed, hint_fn=None)
    return [run.fill(a) for a in run.level.solutions[0]]


def play_item(item: Item, attempts: Sequence[Sequence[str]], log_dir: str | Path = LOG_DIR) -> list[str]:
    """Play ``attempts`` (each a list of actions and :data:`HINT` steps; each after the first is a
    retry) and log them in ``log_dir``; returns each attempt's status (``open``, ``passed`` or
    ``failed``).  Steps after an attempt ends are skipped."""
    if item.kind == PUZZLE:
        return _play_puzzle(item, attempts, log_dir)
    player = LessonPlayer(item_lesson(item), "student", None, item.seed, hint_fn=None, new_deals=False)
    recorder = ItemRecorder(item, log_dir)
    statuses = []
    for n, steps in enumerate(attempts):
        if n:
            player.retry()
        recorder.observe(player.run)
        for step in steps:
            if player.run.status != OPEN:
                break
            if step == HINT:
                player.hint()
            else:
                player.act(step)
            recorder.observe(player.run)
        statuses.append(player.run.status)
    return statuses


def _play_puzzle(item: Item, attempts: Sequence[Sequence[str]], log_dir: str | Path) -> list[str]:
    trainer = Trainer([puzzle_library()[item.puzzle]], "student", None, explain=None)
    recorder = ItemRecorder(item, log_dir)
    statuses = []
    for steps in attempts:
        table = PuzzleTable(trainer, puzzle=item.puzzle)
        for step in steps:
            if table.run.over:
                break
            table.handle({"intent": "hint"} if step == HINT else {"intent": "play", "text": step})
            recorder.observe(table.run)
        statuses.append(PUZZLE_STATUS[table.run.status])
    return statuses


__all__ = ["HINT", "play_item", "solution_line"]
