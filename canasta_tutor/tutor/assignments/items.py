"""An assignment item's lesson level, as the lesson widget shows it and the grader replays it.

(A puzzle item is played in the puzzle trainer and replayed by its
:class:`~canasta_tutor.tutor.trainer.PuzzleRun`; see :mod:`.grading`.)

>>> from canasta_tutor.tutor.assignments.spec import Item
>>> level = item_level(Item(id="x", kind="level", lesson="melds", level="natural-meld", points=1))
>>> level.key, level.generated
('melds/natural-meld', False)
"""

from __future__ import annotations

from ..lessons.model import Lesson, Level
from .spec import LEVEL, Item, course_lesson


def item_level(item: Item) -> Level:
    """The lesson level of an item (from the installed course)."""
    if item.kind != LEVEL:
        raise ValueError(f"item {item.id!r} is a puzzle, not a lesson level")
    lesson = course_lesson(item.lesson)
    if lesson is None:
        raise KeyError(f"no lesson {item.lesson!r} in the installed course")
    return lesson.level(item.level)


def item_lesson(item: Item) -> Lesson:
    """A one-level lesson holding the item's level (what the lesson widget shows)."""
    level = item_level(item)
    return Lesson(id=level.lesson_id, title=item.title or level.title, order=0, summary=level.goal,
                  levels=(level,), file=level.file)


__all__ = ["item_level", "item_lesson"]
