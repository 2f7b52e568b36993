"""The widget cell of an assignment item: the lesson widget on one level, writing the student's log.

A thin layer over :class:`~canasta_tutor.lesson_widget.LessonWidget`: the item's level (a
lesson level, or a puzzle as a one-move level) with the item's seed, and after every intent
the :class:`~canasta_tutor.tutor.assignments.grading.ItemRecorder` writes the log the
autograder replays.  Nothing is saved in the student's own progress store.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> w = AssignmentItemWidget({"id": "p1", "kind": "puzzle", "puzzle": "c22-take-the-pack", "points": 5},
...                          log_dir=folder, hint_fn=None)
>>> w.handle({"intent": "act", "text": "take 9 9 9"})
'passed'
>>> from canasta_tutor.tutor.assignments.grading import grade_item
>>> grade_item({"id": "p1", "kind": "puzzle", "puzzle": "c22-take-the-pack", "points": 5}, folder)
p1: solved (1 attempt, replayed): 5 of 5 points
5
"""

from __future__ import annotations

from typing import Any

from .lesson_widget import LessonWidget
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
        super().__init__(item_lesson(self.item), learner="student", store=None, seed=self.item.seed, level=1,
                         hint_fn=hint_fn, **kwargs)

    def handle(self, msg: dict[str, Any]) -> str:
        answer = super().handle(msg)
        try:
            self.recorder.observe(self.player.run)
        except OSError as e:
            self.notice = f"Your log could not be written: {e}"
            self._refresh()
            return self.notice
        return answer


__all__ = ["AssignmentItemWidget"]
