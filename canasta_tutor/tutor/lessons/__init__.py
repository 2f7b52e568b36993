"""Guided lessons: the lesson files (``lessons/*.toml``, see ``lessons/FORMAT.md``), their
checks, the predicate library, generated setups and the level runner.

Nothing here imports a widget; the lesson widget and the command line are thin
shells over :class:`~canasta_tutor.tutor.lessons.runner.LevelRun`.
"""

from .loader import LessonFormatError, check_text, load_lesson, parse_lesson
from .model import Lesson, Level, Problem

__all__ = ["Lesson", "Level", "Problem", "LessonFormatError", "check_text", "load_lesson", "parse_lesson"]
