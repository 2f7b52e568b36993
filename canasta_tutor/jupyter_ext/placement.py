"""Placing the course's notebooks in the learner's Jupyter root, and keeping them current
without ever overwriting a file the learner changed.

:func:`place_course` copies the course notebooks (the start page, the lessons, the
puzzles, the card table and the rule book: the package's ``notebooks`` folder, the
same files ``canasta-tutor course`` puts in its ``notebooks/`` folder) into one folder,
``canasta-tutor/`` of the Jupyter root by default.  A manifest in that folder
(:data:`MANIFEST`) keeps the SHA-256 of every file as it was written, so a later call
(after an upgrade of the package) can tell the three cases apart:

- a file the learner has not touched since it was written (its hash is the manifest's):
  brought up to the package's version;
- a file the learner changed (ran and saved a notebook, edited it): left alone, always;
- a file the learner deleted: left deleted (delete the whole folder to start afresh).

A file that was there before the manifest, with other content, is the learner's too.
Every write is atomic (a temporary file in the same folder, then a rename), so a
killed server never leaves half a notebook.

>>> import tempfile
>>> dest = Path(tempfile.mkdtemp()) / "canasta-tutor"
>>> first = place_course(dest)
>>> (dest / "index.ipynb").is_file(), len(first.written) > 10, first.kept
(True, True, [])
>>> (dest / "index.ipynb").write_text("{}")   # the learner saves the start page
2
>>> again = place_course(dest)
>>> again.written, again.kept, (dest / "index.ipynb").read_text()
([], ['index.ipynb'], '{}')
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .. import __version__
from ..engine.errors import CanastaError
from ..tutor.lessons.course import course_paths

#: the folder of the Jupyter root the course goes to
COURSE_FOLDER = "canasta-tutor"
#: the manifest of what was written, inside the course folder (hidden from the file browser)
MANIFEST = ".canasta-tutor-course.json"


class PlacementError(CanastaError, OSError):
    """The course cannot be placed: the folder is a file, or cannot be written."""


@dataclass
class Placement:
    """What :func:`place_course` did, by path inside the course folder."""

    folder: Path
    written: list[str] = field(default_factory=list)   # new, or brought up to date
    kept: list[str] = field(default_factory=list)      # the learner's changes, left alone
    deleted: list[str] = field(default_factory=list)   # deleted by the learner, left deleted
    current: int = 0                                   # already the package's version

    def to_dict(self) -> dict[str, object]:
        return {"written": self.written, "kept": self.kept, "deleted": self.deleted, "current": self.current}


def course_notebooks() -> dict[str, Path]:
    """The course's files to place, by their path inside the course folder (``lessons/01-cards.ipynb``)."""
    src = course_paths()["notebooks"]
    if not src.is_dir():
        raise PlacementError("the course's notebooks are not installed with this package")
    files: dict[str, Path] = {}
    for f in sorted(src.rglob("*")):
        rel = f.relative_to(src)
        if f.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            files[PurePosixPath(*rel.parts).as_posix()] = f
    return files


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha(path: Path) -> str | None:
    try:
        return _sha(path.read_bytes())
    except FileNotFoundError:
        return None


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # no manifest yet, or a damaged one: trust nothing in it
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {str(k): str(v) for k, v in files.items() if isinstance(v, str)}


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def place_course(folder: Path) -> Placement:
    """Put the course's notebooks in ``folder`` (made if missing); never overwrite a learner's change."""
    if folder.exists() and not folder.is_dir():
        raise PlacementError(f"{folder.name!r} exists and is not a folder: the course cannot be placed there")
    files = course_notebooks()
    manifest = _read_manifest(folder)
    result = Placement(folder)
    record: dict[str, str] = {}
    try:
        for rel, src in files.items():
            data = src.read_bytes()
            new = _sha(data)
            target = folder / rel
            now = _file_sha(target)
            written = manifest.get(rel)
            if now is None and written is not None:       # the learner deleted it
                result.deleted.append(rel)
                record[rel] = written
            elif now is None or (now == written and now != new):  # missing, or ours and out of date
                _atomic_write(target, data)
                result.written.append(rel)
                record[rel] = new
            elif now == new:
                result.current += 1
                record[rel] = new
            else:                                          # changed by the learner, or theirs from before
                result.kept.append(rel)
                if written is not None:
                    record[rel] = written
        if record != manifest:
            body = {"package": "canasta-tutor", "version": __version__, "files": record}
            _atomic_write(folder / MANIFEST, (json.dumps(body, indent=1, sort_keys=True) + "\n").encode())
    except OSError as e:
        raise PlacementError(f"cannot place the course in {folder.name!r}: {e.strerror or e}") from None
    return result


__all__ = ["COURSE_FOLDER", "MANIFEST", "Placement", "PlacementError", "course_notebooks", "place_course"]
