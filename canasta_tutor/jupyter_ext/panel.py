"""What the Jupyter side panel shows, as JSON-ready dicts: the course (each lesson and its
notebook) and the learner's progress (each lesson's stars, the puzzle rating, the review cards due).

Nothing here knows of a web server: :mod:`.handlers` serves these dicts, and the tests
call them directly.  Progress is read through the progress store's public reading API
(:class:`~canasta_tutor.tutor.progress.ProgressStore`), never written: a store that is
not there yet is reported as such (:class:`NoStoreYet`) rather than created.

>>> course = course_listing("canasta-tutor")
>>> len(course["lessons"]) >= 12, course["start"]
(True, 'canasta-tutor/index.ipynb')
>>> course["lessons"][0]["notebook"]
'canasta-tutor/lessons/01-cards.ipynb'
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__
from ..engine.errors import CanastaError
from ..engine.rulebook import rules
from ..tutor.lessons.player import course_overview, load_course
from ..tutor.progress import ProgressStore, ProgressStoreError
from ..tutor.review_queue import counts
from .placement import course_notebooks

#: the learner the course notebooks save stars for (``LessonWidget``'s and ``PuzzleTrainer``'s default)
LEARNER = "learner"

#: the course's other notebooks, by what the launcher and the panel call them; ``review`` is
#: issue 35's review notebook, listed once the course has it
PAGES = {"start": "index.ipynb", "welcome": "welcome.ipynb", "play": "play.ipynb", "puzzles": "puzzles.ipynb",
         "rules": "rules.md", "review": "review.ipynb"}


class NoStoreYet(CanastaError, LookupError):
    """The learner has no progress store yet: nothing was played on this computer."""


def _join(folder: str, rel: str) -> str:
    return (PurePosixPath(folder) / rel).as_posix() if folder else rel


@lru_cache(maxsize=1)
def _lessons() -> tuple[Any, ...]:
    return tuple(load_course())


def course_listing(folder: str) -> dict[str, Any]:
    """The course as the panel lists it: every lesson with its notebook's path (inside ``folder``,
    a path of the Jupyter root) and the course's other pages that exist."""
    files = course_notebooks()
    lessons = []
    for lesson in _lessons():
        rel = f"lessons/{Path(lesson.file).stem}.ipynb"
        lessons.append({"id": lesson.id, "title": lesson.title, "summary": lesson.summary, "order": lesson.order,
                        "levels": len(lesson.levels), "max_stars": 3 * len(lesson.levels),
                        "notebook": _join(folder, rel) if rel in files else None})
    pages = {name: _join(folder, rel) for name, rel in PAGES.items() if rel in files}
    primer = "lessons/00-rules-primer.ipynb"
    if primer in files:
        pages["primer"] = _join(folder, primer)
    # the rule numbers the rule book defines: the lab extension links them wherever they are written
    return {"version": __version__, "folder": folder, "start": pages.get("start"), "pages": pages,
            "lessons": lessons, "rules": sorted(rules())}


@lru_cache(maxsize=1)
def _puzzles() -> tuple[Any, ...]:
    from ..tutor.puzzles.library import load_library

    return tuple(load_library())


def store_fingerprint(path: Path) -> str | None:
    """A short text that changes whenever the store's files change (None when there is no store):
    an HTTP ETag, so the panel's polling costs two ``stat`` calls while nothing was played."""
    parts = []
    for p in (path, path.with_name(path.name + "-wal")):
        try:
            st = os.stat(p)
        except FileNotFoundError:
            if p == path:
                return None
            continue
        parts.append(f"{st.st_mtime_ns:x}-{st.st_size:x}")
    return f'"{__version__}-' + "-".join(parts) + '"'


def progress_report(path: Path, learner: str = LEARNER) -> dict[str, Any]:
    """The learner's stars per lesson and puzzle rating, from the store at ``path``.

    Raises :class:`NoStoreYet` when there is no file there, and the store's own
    :class:`~canasta_tutor.tutor.progress.ProgressStoreError` when the file is not a
    readable progress store.
    """
    if not path.is_file():
        raise NoStoreYet("No progress yet: your stars show here once you finish a level of a lesson.")
    from ..tutor.puzzles.trainer import replay_ratings

    try:
        store = ProgressStore(path)
    except ProgressStoreError as e:
        if e.cause != "read-only":
            raise
        store = ProgressStore(path, read_only=True)  # a store that may not be written is still shown
    with store:
        lessons = course_overview(_lessons(), learner, store)
        attempts = store.attempts()
        review = counts(store, learner)  # read only: the answers not yet synced are applied in memory
    learners, _ = replay_ratings(attempts, _puzzles())
    mine = [a for a in attempts if a.get("kind") == "puzzle" and a.get("learner") == learner]
    rating = learners.get(learner)
    puzzles = {"tried": len(mine), "solved": sum(1 for a in mine if a.get("status") == "passed"),
               "rating": round(rating.rating) if rating else None,
               "deviation": round(rating.rd) if rating else None}
    return {"learner": learner,
            "lessons": {r["id"]: {"stars": r["stars"], "max_stars": r["max_stars"], "solved": r["solved"],
                                  "levels": r["levels"]} for r in lessons},
            "stars": sum(r["stars"] for r in lessons), "max_stars": sum(r["max_stars"] for r in lessons),
            "puzzles": puzzles,
            # the cards due for review (issue 35): the panel shows "due" with a link to the course's
            # review.ipynb (PAGES["review"])
            "review": review}


__all__ = ["LEARNER", "PAGES", "NoStoreYet", "course_listing", "progress_report", "store_fingerprint"]
