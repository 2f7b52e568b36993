"""nbgrader source notebooks for an assignment, in the course layout nbgrader expects.

:func:`write_course` writes ``source/<assignment>/<assignment>.ipynb`` under a course folder
(and an ``nbgrader_config.py`` when there is none).  The notebook has, for each item:

- a locked Markdown cell: the item's title, points and hint penalty;
- a locked widget cell: the item in the lesson widget, which writes the student's log
  (``canasta-log/<item>.json``, submitted with the notebook);
- a locked, autograded test cell worth the item's points: it replays the log from the item's
  seed (:func:`~canasta_tutor.tutor.assignments.grading.grade_item`) and its output is the score,
  which nbgrader takes as partial credit.

Cells carry the item as a Python literal of strings and numbers only (``repr``), never code
from the assignment file.

>>> from canasta_tutor.tutor.assignments.spec import Assignment, Item
>>> a = Assignment(id="w1", title="Week 1", items=(Item(id="p", kind="puzzle", points=5, puzzle="c22-take-the-pack",
...                assignment="w1"),))
>>> nb = assignment_notebook(a)
>>> [(c["cell_type"], c["metadata"]["nbgrader"]["grade_id"], c["metadata"]["nbgrader"].get("points"))
...  for c in nb["cells"]]
[('markdown', 'w1-intro', None), ('markdown', 'p-title', None), ('code', 'p-widget', None), ('code', 'p-grade', 5)]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...atomicfile import write_atomic
from .grading import LOG_DIR
from .spec import LEVEL, Assignment, Item

NBGRADER_SCHEMA = 3

CONFIG = '''\
# nbgrader's settings for this course (written by `canasta-tutor class assign`; edit freely).
c = get_config()  # noqa: F821 - nbgrader provides get_config
c.CourseDirectory.course_id = {course!r}
# A notebook of ten items replays in seconds; this only stops a runaway kernel.
c.Execute.timeout = 300
'''

INTRO = """Play each item below in its widget. Every action, refusal and hint you make is written to
the folder `{log_dir}/` beside this notebook: **submit that folder with the notebook**
(nbgrader's *submit* takes the whole assignment folder).

Your grade comes from replaying your logged actions through the game engine from each item's own
deal. An item is solved when one of your attempts reaches its goal; it then earns its points minus
the item's hint penalty for each hint you opened (counting the most hints opened in any one attempt).
Retrying is free. Editing the log's totals or a cell's output changes nothing."""


def _source(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    return lines


def _meta(grade_id: str, points: float | None = None) -> dict[str, Any]:
    nb: dict[str, Any] = {"grade": points is not None, "grade_id": grade_id, "locked": True,
                          "schema_version": NBGRADER_SCHEMA, "solution": False, "task": False}
    if points is not None:
        nb["points"] = points
    return {"nbgrader": nb}


def _markdown(cell_id: str, text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": cell_id, "metadata": _meta(cell_id), "source": _source(text)}


def _code(cell_id: str, text: str, points: float | None = None) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": _meta(cell_id, points),
            "outputs": [], "source": _source(text)}


def _md_escape(text: str) -> str:
    out = text.replace("\\", "\\\\")
    for ch in "*_`[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return out


def _item_head(n: int, item: Item) -> str:
    what = f"lesson `{item.lesson}`, level `{item.level}`" if item.kind == LEVEL else f"puzzle `{item.puzzle}`"
    seed = f", deal {item.seed}" if item.kind == LEVEL and item.seed else ""
    penalty = (f"; each hint costs {item.hint_penalty:g} point{'s' if item.hint_penalty != 1 else ''}"
               if item.hint_penalty else "; hints are free")
    return (f"## {n}. {_md_escape(item.title or item.id)}\n\n"
            f"{what}{seed}: **{item.points:g} point{'s' if item.points != 1 else ''}**{penalty}.")


def widget_source(item: Item, log_dir: str = LOG_DIR) -> str:
    return ("from canasta_tutor.assignment_cell import item_widget\n\n"
            f"item_widget({item.to_dict()!r}, log_dir={log_dir!r})\n")


def grade_source(item: Item, log_dir: str = LOG_DIR) -> str:
    return ("# Autograded: replays your logged actions from this item's deal; the output is your score.\n"
            "from canasta_tutor.tutor.assignments.grading import grade_item\n\n"
            f"grade_item({item.to_dict()!r}, log_dir={log_dir!r})\n")


def assignment_notebook(assignment: Assignment, log_dir: str = LOG_DIR) -> dict[str, Any]:
    """The nbgrader source notebook of an assignment (nbformat 4.5, as a JSON-ready dict)."""
    intro = f"# {_md_escape(assignment.title)}\n\n"
    if assignment.intro:
        intro += assignment.intro.strip() + "\n\n"
    intro += INTRO.format(log_dir=log_dir)
    cells = [_markdown(f"{assignment.id}-intro", intro)]
    for n, item in enumerate(assignment.items, 1):
        cells.append(_markdown(f"{item.id}-title", _item_head(n, item)))
        cells.append(_code(f"{item.id}-widget", widget_source(item, log_dir)))
        cells.append(_code(f"{item.id}-grade", grade_source(item, log_dir), points=item.points))
    return {"cells": cells, "metadata": {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}


def write_course(assignment: Assignment, course: str | Path, force: bool = False,
                 log_dir: str = LOG_DIR) -> list[Path]:
    """Write the source notebook (and ``nbgrader_config.py`` if missing); returns the files written.

    An existing source notebook is replaced only with ``force`` (nbgrader keeps the released
    version in its gradebook, so regenerate before releasing, not after).
    """
    root = Path(course)
    folder = root / "source" / assignment.id
    target = folder / f"{assignment.id}.ipynb"
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists; use --force to replace it")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    config = root / "nbgrader_config.py"
    if not config.exists():
        write_atomic(config, CONFIG.format(course=root.resolve().name))
        written.append(config)
    write_atomic(target, json.dumps(assignment_notebook(assignment, log_dir), indent=1, ensure_ascii=False) + "\n")
    written.append(target)
    return written


__all__ = ["CONFIG", "assignment_notebook", "grade_source", "widget_source", "write_course"]
