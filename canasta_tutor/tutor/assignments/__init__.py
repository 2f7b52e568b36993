"""Assignments for a class: the assignment file, the item levels, the logs and their grading,
and the nbgrader source notebooks (see ``docs/assignments.md``)."""
