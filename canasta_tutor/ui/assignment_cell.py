"""What the widget cell of an assignment notebook calls: :func:`item_widget`.

Kept apart from :mod:`canasta_tutor.ui.assignment` so that, while nbgrader executes a
notebook (to validate or autograde it), the cell imports nothing heavy and shows no widget.

>>> import os
>>> os.environ["NBGRADER_EXECUTION"] = "autograde"
>>> item_widget({"id": "p1", "kind": "puzzle", "puzzle_ref": "0", "points": 5})
item p1: graded from its log by the next cell
>>> del os.environ["NBGRADER_EXECUTION"]
"""

from __future__ import annotations

import os
from typing import Any

LOG_DIR = "canasta-log"  # the same as canasta_tutor.tutor.assignments.grading.LOG_DIR (a test checks it)


def item_widget(item: dict[str, Any], log_dir: str = LOG_DIR) -> Any:
    """The item's widget; while nbgrader executes the notebook, one line of text instead.

    nbgrader sets ``NBGRADER_EXECUTION`` when it runs a notebook to validate or autograde it; the
    widget would only cost time there, and must never touch the submitted log.
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        print(f"item {str(item.get('id'))[:64]}: graded from its log by the next cell")
        return None
    from .assignment import AssignmentItemWidget, AssignmentPuzzleWidget

    if item.get("kind") == "puzzle":
        return AssignmentPuzzleWidget(item, log_dir)
    return AssignmentItemWidget(item, log_dir)


__all__ = ["item_widget", "LOG_DIR"]
