"""nbgrader source notebooks for an assignment, in the course layout nbgrader expects.

:func:`write_course` writes ``source/<assignment>/<assignment>.ipynb`` under a course folder
(and an ``nbgrader_config.py`` when there is none).  The notebook has, for each item:

- a locked Markdown cell: the item's number and title (a puzzle's is neutral, "Puzzle 4", never
  its ID, which may name the answer), its points and what a hint costs;
- a locked widget cell: the item in the lesson or puzzle widget as an exam, which writes the
  student's log (``canasta-log/<item>.json``, submitted with the notebook);
- a locked, autograded test cell worth the item's points: it replays the log from the item's
  seed (:func:`~canasta_tutor.tutor.assignments.grading.grade_item`) and its output is the score,
  which nbgrader takes as partial credit.

Cells carry the item as a Python literal of strings and numbers only (``repr``), never code
from the assignment file; a puzzle is named by a reference, not its ID.  When the course folder
has its own ``lessons/`` (made by ``canasta-tutor course`` and edited by the teacher), the
lesson files the assignment uses are copied beside the notebook (``lessons/``): nbgrader
releases them with it, and puts its own copy back before it autogrades.

>>> from canasta_tutor.tutor.assignments.spec import Assignment, Item
>>> a = Assignment(id="w1", title="Week 1", items=(Item(id="p", kind="puzzle", points=5, puzzle="c22-take-the-pack",
...                assignment="w1", number=1),))
>>> nb = assignment_notebook(a)
>>> [(c["cell_type"], c["metadata"]["nbgrader"]["grade_id"], c["metadata"]["nbgrader"].get("points"))
...  for c in nb["cells"]]
[('markdown', 'w1-intro', None), ('markdown', 'p-title', None), ('code', 'p-widget', None), ('code', 'p-grade', 5)]
>>> "c22" in json.dumps(nb)     # the puzzle's ID, which may name the answer, is nowhere in the notebook
False
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..atomicfile import write_atomic
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

INTRO = """Play each item below in its widget. Every action, refusal, hint and give-up is written to
the folder `{log_dir}/` beside this notebook: **submit that folder with the notebook**
(nbgrader's *submit* takes the whole assignment folder).

- Each item is one position. A wrong move is marked wrong, with the rule or the reason, but the
  answer stays hidden: *Try again* as often as you like.
- An item is solved when one of your attempts reaches its goal. It earns its points minus the
  item's hint penalty for each hint you opened. Each hint is charged once, whatever the attempts;
  the button says what a hint costs, and turns off when no new hint is left.
- *Give up* closes the item and shows the answer and why: a given-up item earns nothing.
- Some items deal each student their own cards: your deal is made for your nbgrader student id.
- Your grade comes from replaying your logged actions through the game engine. Editing the log's
  totals or a cell's output changes nothing. The widget warns you long before your log could fill up."""


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
    what = "A lesson level" if item.kind == LEVEL else "A puzzle"
    own = " on your own deal" if item.pool or (item.kind == LEVEL and _generated(item)) else ""
    penalty = (f"; each hint costs {item.hint_penalty:g} point{'s' if item.hint_penalty != 1 else ''}"
               if item.hint_penalty else "; hints are free")
    return (f"## {n}. {_md_escape(item.label)}\n\n"
            f"{what}{own}: **{item.points:g} point{'s' if item.points != 1 else ''}**{penalty}.")


def _generated(item: Item) -> bool:
    from .exam import item_level

    try:
        return item_level(item).generated
    except (KeyError, ValueError):
        return False


def widget_source(item: Item, log_dir: str = LOG_DIR) -> str:
    return ("from canasta_tutor.ui.assignment_cell import item_widget\n\n"
            f"item_widget({item.cell_dict()!r}, log_dir={log_dir!r})\n")


def grade_source(item: Item, log_dir: str = LOG_DIR) -> str:
    return ("# Autograded: replays your logged actions on your deal of this item; the output is your score.\n"
            "from canasta_tutor.tutor.assignments.grading import grade_item\n\n"
            f"grade_item({item.cell_dict()!r}, log_dir={log_dir!r})\n")


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
    version in its gradebook, so regenerate before releasing, not after).  When the course folder
    has its own ``lessons/``, the lesson files the assignment's levels use are copied beside the
    notebook, and its items read their levels there.
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
    copied = _copy_lessons(assignment, root / "lessons", folder / LESSONS)
    if copied:
        written += copied
        assignment = replace(assignment, items=tuple(replace(i, lessons=LESSONS) if i.kind == LEVEL else i
                                                     for i in assignment.items))
    write_atomic(target, json.dumps(assignment_notebook(assignment, log_dir), indent=1, ensure_ascii=False) + "\n")
    written.append(target)
    return written


#: the folder, beside the notebook, of the course's own lesson files
LESSONS = "lessons"


def _copy_lessons(assignment: Assignment, lessons: Path, dest: Path) -> list[Path]:
    """Copy the course folder's lesson files that the assignment uses (none without a ``lessons/``)."""
    from ...notation.textinput import read_bytes
    from ..lessons.course import lesson_files
    from ..lessons.loader import MAX_CONTENT_BYTES, load_lesson

    used = {i.lesson for i in assignment.items if i.kind == LEVEL}
    if not used or not lessons.is_dir():
        return []
    out = []
    for f in lesson_files(lessons):
        if load_lesson(f).id in used:
            dest.mkdir(parents=True, exist_ok=True)
            write_atomic(dest / f.name, read_bytes(f, MAX_CONTENT_BYTES))  # whole, never half a lesson
            out.append(dest / f.name)
    return out


__all__ = ["LESSONS", "CONFIG", "assignment_notebook", "grade_source", "widget_source", "write_course"]
