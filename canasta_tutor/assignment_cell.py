"""The assignment cell's old path, kept for the nbgrader notebooks a teacher has already released: their
first cell reads ``from canasta_tutor.assignment_cell import item_widget``.  New notebooks import from
:mod:`canasta_tutor.ui.assignment_cell`."""

from .ui.assignment_cell import LOG_DIR, item_widget

__all__ = ["item_widget", "LOG_DIR"]
