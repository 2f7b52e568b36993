"""The widget cell of an assignment item, writing the student's log as the student plays.

- a lesson level: :class:`AssignmentItemWidget`, a thin layer over
  :class:`~canasta_tutor.lesson_widget.LessonWidget` on the item's level with the item's seed;
- a puzzle: :class:`AssignmentPuzzleWidget`, the puzzle trainer
  (:class:`~canasta_tutor.puzzle_widget.PuzzleTrainer`) held on the item's puzzle ("next"
  opens it again, as a new attempt).

After every intent the :class:`~canasta_tutor.tutor.assignments.grading.ItemRecorder` writes
the log the autograder replays.  Nothing is saved in the student's own progress store.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> level = {"id": "l1", "kind": "level", "lesson": "melds", "level": "natural-meld", "points": 4}
>>> w = AssignmentItemWidget(level, log_dir=folder, hint_fn=None)
>>> w.handle({"intent": "act", "text": "meld 7 7 7"})
'passed'
>>> puzzle = {"id": "p1", "kind": "puzzle", "puzzle": "c22-take-the-pack", "points": 5}
>>> p = AssignmentPuzzleWidget(puzzle, log_dir=folder, explain=None)
>>> p.handle({"intent": "play", "text": "take 9 9 9"})
'Solved: take 9 9 9 is the answer.'
>>> from canasta_tutor.tutor.assignments.grading import grade_item
>>> grade_item(level, folder), grade_item(puzzle, folder)
l1: solved (1 attempt, replayed): 4 of 4 points
p1: solved (1 attempt, replayed): 5 of 5 points
(4, 5)
"""

from __future__ import annotations

from typing import Any

from .lesson_widget import LessonWidget
from .puzzle_widget import PuzzleTrainer
from .tutor.puzzle_session import PuzzleTable
from .tutor.trainer import ExplainFn, hint_explanation
from .tutor.assignments.grading import LOG_DIR, ItemRecorder
from .tutor.assignments.items import item_lesson
from .tutor.assignments.spec import Item
from .tutor.lessons.runner import HintFn, default_hint


class AssignmentItemWidget(LessonWidget):
    """One assignment item in a notebook; ``item`` is the dict the generated cell carries."""

    def __init__(self, item: dict[str, Any], log_dir: str = LOG_DIR, hint_fn: HintFn | None = default_hint,
                 **kwargs: Any) -> None:
        self.item = Item.from_dict(item)
        self.recorder = ItemRecorder(self.item, log_dir)
        # every attempt is on the item's one deal: the autograder replays the log on it
        super().__init__(item_lesson(self.item), learner="student", store=None, seed=self.item.seed, level=1,
                         hint_fn=hint_fn, new_deals=False, **kwargs)

    def handle(self, msg: dict[str, Any]) -> str:
        answer = super().handle(msg)
        try:
            self.recorder.observe(self.player.run)
        except OSError as e:
            self.notice = f"Your log could not be written: {e}"
            self._refresh()
            return self.notice
        return answer


class AssignmentPuzzleWidget(PuzzleTrainer):
    """One puzzle item in a notebook: the puzzle trainer on the item's puzzle only."""

    def __init__(self, item: dict[str, Any], log_dir: str = LOG_DIR, explain: ExplainFn | None = hint_explanation,
                 **kwargs: Any) -> None:
        self.item = Item.from_dict(item)
        self.recorder = ItemRecorder(self.item, log_dir)
        super().__init__(learner="student", store=None, puzzle=self.item.puzzle, explain=explain, **kwargs)

    def handle(self, msg: Any) -> str:
        name = msg.get("intent", msg.get("type")) if isinstance(msg, dict) else None
        if name in ("next", "theme", "streak"):
            old = self.table.session
            self.table = PuzzleTable(self.trainer, puzzle=self.item.puzzle, four_colour=self.table.four_colour)
            self.table.session.rev = self.table.session.action_rev = old.rev + 1  # the front end waits for a newer one
            self.table.notice = "The same puzzle again: this item is one puzzle."
            self._sync()
            return self.table.notice
        text = super().handle(msg)
        try:
            self.recorder.observe(self.table.run)
        except OSError as e:
            text = self.table._notice(f"Your log could not be written: {e}")
            self._sync()
        return text


__all__ = ["AssignmentItemWidget", "AssignmentPuzzleWidget"]
