"""The widget cell of an assignment item: the lesson or puzzle widget, configured as an exam.

- a lesson level: :class:`AssignmentItemWidget`, the
  :class:`~canasta_tutor.ui.lesson.LessonWidget` showing an
  :class:`~canasta_tutor.tutor.assignments.sessions.ExamLevel` (the item's level on the
  student's own deal);
- a puzzle: :class:`AssignmentPuzzleWidget`, the puzzle trainer
  (:class:`~canasta_tutor.ui.puzzle.PuzzleTrainer`) showing an
  :class:`~canasta_tutor.tutor.assignments.sessions.ExamPuzzle` (the student's puzzle).

The sessions hold the exam's rules and write the student's log (see
:mod:`canasta_tutor.tutor.assignments.sessions`); these classes only pass intents on and draw.
Nothing is saved in the student's own progress store.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> level = {"id": "l1", "number": 1, "kind": "level", "lesson": "melds", "level": "natural-meld", "points": 4,
...          "title": "A natural meld"}
>>> w = AssignmentItemWidget(level, log_dir=folder, student="s01")
>>> w.handle({"intent": "act", "text": "meld 7 7 7"})
'passed'
>>> w.view["exam"]["result"]
'1. A natural meld: solved (1 attempt, replayed): 4 of 4 points'
>>> from canasta_tutor.tutor.assignments.spec import puzzle_ref
>>> puzzle = {"id": "p1", "number": 2, "kind": "puzzle", "puzzle_ref": puzzle_ref("c22-take-the-pack"), "points": 5}
>>> p = AssignmentPuzzleWidget(puzzle, log_dir=folder, student="s01")
>>> p.handle({"intent": "play", "text": "take 9 9 9"})
'Solved: take 9 9 9 is the answer.'
>>> import os; os.environ["CANASTA_TUTOR_STUDENT"] = "s01"
>>> from canasta_tutor.tutor.assignments.grading import grade_item
>>> grade_item(level, folder), grade_item(puzzle, folder)  # doctest: +ELLIPSIS
1. A natural meld: solved (1 attempt, replayed): 4 of 4 points
  The answer: meld 7 7 7
  Why: Three sevens, no wild card: a natural meld.
2. Puzzle 2: solved (1 attempt, replayed): 5 of 5 points
  The answer: take 9 9 9
  Why: A pair of nines takes an eight-card pack. Checked on 2,000 sampled deals: it beats the next best move, ...
(4, 5)
>>> del os.environ["CANASTA_TUTOR_STUDENT"]
"""

from __future__ import annotations

import html
from typing import Any

from ..tutor.display import state_html
from .inline_css import inline_styles
from .lesson import LessonWidget
from .puzzle import PuzzleTrainer
from ..engine.state import SEATS
from ..tutor.assignments.exam import ExamError, student_id
from ..tutor.assignments.grading import LOG_DIR
from ..tutor.assignments.sessions import ExamLevel, ExamPuzzle
from ..tutor.assignments.spec import Item


class AssignmentItemWidget(LessonWidget):
    """One graded lesson level in a notebook; ``item`` is the dict the generated cell carries."""

    def __init__(self, item: dict[str, Any], log_dir: str = LOG_DIR, student: str | None = None,
                 **kwargs: Any) -> None:
        self.item = Item.from_dict(item)
        # every attempt is on the student's one deal: the autograder replays the log on it
        self.exam = ExamLevel(self.item, student or student_id(), log_dir)
        super().__init__(player=self.exam, **kwargs)

    def __repr__(self) -> str:
        return f"AssignmentItemWidget({self.item.label!r}, status={self.player.run.status!r})"

    def handle(self, msg: dict[str, Any]) -> str:
        intent = msg.get("intent") if isinstance(msg, dict) else None
        if intent in ("give_up", "next", "goto"):
            self.notice = ""
            try:
                if intent == "give_up":
                    self.exam.give_up()
                else:
                    raise ExamError("An assignment item is one level.")
            except ExamError as e:
                self.notice = str(e)
            self._refresh()
            return self.notice or self.player.run.status
        return super().handle(msg)

    def _refresh(self) -> None:
        v = self.exam.view()
        v["notice"] = self.notice or self.exam.notice
        self.exam.notice = ""
        self._show(v)


class AssignmentPuzzleWidget(PuzzleTrainer):
    """One graded puzzle in a notebook: the student's puzzle only, as an exam."""

    def __init__(self, item: dict[str, Any], log_dir: str = LOG_DIR, student: str | None = None,
                 **kwargs: Any) -> None:
        self.item = Item.from_dict(item)
        super().__init__(table=ExamPuzzle(self.item, student or student_id(), log_dir), **kwargs)

    def __repr__(self) -> str:
        return f"AssignmentPuzzleWidget({self.item.label!r})"

    def _repr_html_(self) -> str:
        run = self.table.run
        head = (f"<p><b>{html.escape(self.item.label)}</b>: find the best move for your side this hand. "
                "Run the cell to play it.</p>")
        return head + inline_styles(state_html(run.puzzle.state(), seat=SEATS[run.seat]), container=True)


__all__ = ["AssignmentItemWidget", "AssignmentPuzzleWidget"]
