"""An assignment item's lesson level, as the lesson widget shows it and the grader replays it.

(A puzzle item is played in the puzzle trainer and replayed by its
:class:`~canasta_tutor.tutor.puzzles.trainer.PuzzleRun`; see :mod:`.exam`.)

>>> from canasta_tutor.tutor.assignments.spec import Item
>>> level = item_level(Item(id="x", kind="level", lesson="melds", level="natural-meld", points=1))
>>> level.key, level.generated
('melds/natural-meld', False)
"""

from __future__ import annotations

from pathlib import Path

from ..lessons.model import Lesson, Level
from .exam import item_level as _level
from .spec import Item


def item_level(item: Item, lessons_root: str | Path = ".") -> Level:
    """The lesson level of an item: from the course folder's copy (``item.lessons`` under
    ``lessons_root``, the notebook's folder), else from the installed course."""
    return _level(item, lessons_root)


def item_lesson(item: Item, level: Level | None = None) -> Lesson:
    """A one-level lesson holding the item's level (what the lesson widget shows), titled as the item."""
    level = level if level is not None else item_level(item)
    return Lesson(id=level.lesson_id, title=item.label, order=0, summary=level.goal, levels=(level,),
                  file=level.file)


__all__ = ["item_level", "item_lesson"]
