"""Where the course lives: the lesson files, the course notebooks and the rule book.

In an installed wheel they sit inside the package (``canasta_tutor/course/`` and
``canasta_tutor/seeds/rules.md``,
put there by the wheel build); in a source checkout they are the repository's
``lessons/``, ``notebooks/`` and ``seeds/rules.md``.  :func:`copy_course`
copies the course into a folder for a learner or a teacher.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..atomicfile import UnsafePathError, inside, write_atomic
from ...engine.errors import CanastaError

_PACKAGE = Path(__file__).resolve().parents[2]  # canasta_tutor/
_RULE_ID = re.compile(r"\*\*(R-[A-Z]+-\d+)\*\*")


class CourseError(CanastaError, ValueError):
    """The course cannot be found or copied."""


def course_paths() -> dict[str, Path]:
    """The course's ``lessons``, ``notebooks`` and ``rules`` (the rule book file)."""
    inside = _PACKAGE / "course"
    if (inside / "lessons").is_dir():
        return {"lessons": inside / "lessons", "notebooks": inside / "notebooks",
                "rules": _PACKAGE / "seeds" / "rules.md"}
    root = _PACKAGE.parent
    return {"lessons": root / "lessons", "notebooks": root / "notebooks", "rules": root / "seeds" / "rules.md"}


def lesson_files(folder: Path | None = None) -> list[Path]:
    """The lesson files of a folder (default: the course's), in file-name order; a folder that does
    not exist is a :class:`CourseError`, never an empty course."""
    folder = folder or course_paths()["lessons"]
    if not folder.is_dir():
        what = f"{str(folder)!r} is not a folder" if folder.exists() else f"no folder {str(folder)!r}"
        raise CourseError(f"{what}: give the folder of the lesson files")
    return sorted(p for p in folder.glob("*.toml") if p.is_file())


@lru_cache(maxsize=4)
def known_rules(path: Path | None = None) -> frozenset[str]:
    """The rule numbers the rule book defines (each written in bold where it is stated)."""
    path = path or course_paths()["rules"]
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise CourseError(f"cannot read the rule book {path.name!r}: {e.strerror}") from None
    return frozenset(_RULE_ID.findall(text))


def copy_course(dest: Path, force: bool = False) -> list[Path]:
    """Copy the lesson files and the course notebooks into ``dest``; returns the files written.

    ``dest`` may exist only if it is empty, unless ``force`` is given (then
    files of the course overwrite files of the same name; nothing else is removed).
    Each file is written whole or not at all (:func:`~canasta_tutor.tutor.atomicfile.write_atomic`),
    and never through a symbolic link: a folder below ``dest`` that is a link is refused before
    anything is written, so the copy stays inside ``dest``.
    """
    paths = course_paths()
    if not paths["lessons"].is_dir():
        raise CourseError("the course is not installed with this package (no lessons folder)")
    if dest.exists() and not dest.is_dir():
        raise CourseError(f"{str(dest)!r} exists and is not a folder")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise CourseError(f"{str(dest)!r} already exists and is not empty; use --force to overwrite the "
                          "course files in it")
    plan: list[tuple[Path, Path]] = []
    for name in ("lessons", "notebooks"):
        src = paths[name]
        if not src.is_dir():
            continue
        for f in sorted(src.rglob("*")):
            rel = f.relative_to(src)
            if not f.is_file() or any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
                continue
            plan.append((f, dest / name / rel))
    try:
        for _, target in plan:  # every folder checked before the first file is written
            inside(dest, target)
    except UnsafePathError as e:
        raise CourseError(str(e)) from None
    written: list[Path] = []
    for f, target in plan:
        target.parent.mkdir(parents=True, exist_ok=True)
        inside(dest, target)  # (again: a folder made meanwhile)
        write_atomic(target, f.read_bytes())
        written.append(target)
    return written


__all__ = ["CourseError", "course_paths", "lesson_files", "known_rules", "copy_course"]
