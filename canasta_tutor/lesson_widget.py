"""The lesson widget's old path, kept for notebooks written before the layer packages (a learner's copy of
a lesson notebook reads ``from canasta_tutor.lesson_widget import LessonWidget``).  New code imports from
:mod:`canasta_tutor.ui.lesson`."""

from .ui.lesson import LessonWidget, course_page

__all__ = ["LessonWidget", "course_page"]
