"""Progress kept in the browser, for the course run in a browser tab (JupyterLite's Pyodide kernel, docs/lite.md).

There the kernel's files live in memory and are lost with the tab, except the drive (``/drive``): the site's
files, which JupyterLite keeps in the browser's own storage, so that they survive a reload.  SQLite cannot
keep a store on the drive itself (the drive saves whole files, and SQLite writes pages and keeps a journal
beside its file), so the learner's store stays where it is on a desktop (:func:`progress.default_path`, in
memory here) and the drive holds a copy of it, :data:`DRIVE_FILE`:

- :func:`keep_in_browser`, called when a widget opens the learner's store (:func:`open_learner_store`, which
  the widgets use), brings the copy in: the whole copy when the store is not there yet (a new kernel, after
  a reload), else its attempts that the store lacks (another notebook's kernel saved them since), as a
  teacher merges a student's store;
- after every committed save, the whole store (its bytes, as SQLite serializes the database) is written
  to the copy, once the copy's own new attempts, if another kernel wrote it meanwhile, are merged in;
- the copy is an ordinary progress store: download it from the file browser, and on a desktop
  ``canasta-tutor progress import FILE`` adds its attempts to the store there.

Nothing here runs outside the browser: :data:`IN_BROWSER` is false on a desktop, where
:func:`open_learner_store` is :func:`progress.open_learner_store` and :func:`keep_in_browser` does nothing
unless it is given a store and a drive (the tests do).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import warnings
from pathlib import Path

from . import progress

#: the course runs in Pyodide (JupyterLite's kernel)
IN_BROWSER = sys.platform == "emscripten"
#: where JupyterLite mounts the browser's persistent drive in the kernel
DRIVE = Path("/drive")
#: the store's copy on the drive, at the top of the site's files (the file browser shows it)
DRIVE_FILE = "canasta-tutor-progress.sqlite3"

#: what the widgets say where the browser keeps no files for the site (no drive)
NOT_KEPT = ("Your progress lasts only as long as this tab: the browser keeps no files for this site (it "
            "does when the site is served over HTTPS or from this computer).")

_kept: dict[str, "_Kept"] = {}


class _Kept:
    """A store kept on the drive: its copy, and the digest of the copy's bytes as this kernel last saw them."""

    def __init__(self, store: Path, copy: Path) -> None:
        self.store, self.copy, self.seen = store, copy, ""
        self.busy = False

    def copy_changed(self) -> bool:
        return self.copy.is_file() and _digest(self.copy.read_bytes()) != self.seen

    def merge_copy(self) -> None:
        """Add the copy's attempts that the store lacks (matched by their uid: nothing twice)."""
        data = self.copy.read_bytes()
        scratch = self.store.with_name(self.store.name + ".drive")
        scratch.write_bytes(data)
        self.busy = True  # the merge's own commit writes no copy
        try:
            with progress.ProgressStore(self.store) as store:
                store.merge_from(scratch)
        finally:
            self.busy = False
            scratch.unlink()
        self.seen = _digest(data)

    def save(self, conn: sqlite3.Connection) -> None:
        if self.busy:
            return
        if self.copy_changed():
            self.merge_copy()
        data = conn.serialize()
        self.copy.write_bytes(data)
        self.seen = _digest(data)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _key(path: Path | str) -> str:
    return os.path.realpath(path)


def keep_in_browser(store_path: Path | None = None, drive: Path | None = None) -> Path | None:
    """Keep the learner's store (``store_path``, default :func:`progress.default_path`) in its copy on
    ``drive`` (default :data:`DRIVE`), bringing in what the copy holds first; returns the copy's path, or None
    outside the browser (unless a store is named) or where there is no drive (the page could not start
    JupyterLite's service worker: progress then lasts as long as the kernel)."""
    if not IN_BROWSER and store_path is None:
        return None
    store = Path(store_path) if store_path is not None else progress.default_path()
    drive = DRIVE if drive is None else drive
    if not drive.is_dir():
        return None
    kept = _kept.get(_key(store))
    if kept is None:
        kept = _kept[_key(store)] = _Kept(store, drive / DRIVE_FILE)
        if _save_copy not in progress.AFTER_COMMIT:
            progress.AFTER_COMMIT.append(_save_copy)
    if not store.exists() and kept.copy.is_file():
        store.parent.mkdir(parents=True, exist_ok=True)
        data = kept.copy.read_bytes()
        store.write_bytes(data)
        kept.seen = _digest(data)
    elif kept.copy_changed() and store.exists():
        kept.merge_copy()
    return kept.copy


def open_learner_store(path: str | Path | None = None) -> tuple[progress.ProgressStore | None, str]:
    """:func:`progress.open_learner_store` for the widgets, with the store kept in the browser's drive when they
    run in a browser tab (:func:`keep_in_browser`); where the tab has no drive, the note says that progress
    lasts only as long as the tab (:data:`NOT_KEPT`).  Elsewhere it is :func:`progress.open_learner_store`."""
    note = ""
    if IN_BROWSER:
        target = Path(path) if path is not None else progress.default_path()
        note = "" if keep_in_browser(target) is not None else NOT_KEPT
    store, why = progress.open_learner_store(path)
    return store, why or note


def _save_copy(conn: sqlite3.Connection) -> None:
    """After a commit: write a kept store's whole database to its copy on the drive."""
    name = next((row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"), "")
    kept = _kept.get(_key(name)) if name else None
    if kept is None:
        return
    try:
        kept.save(conn)
    except (OSError, sqlite3.Error, progress.ProgressStoreError) as e:  # the save itself stands: say so, go on
        warnings.warn(f"progress was saved for this notebook but not copied to the browser's storage "
                      f"({kept.copy}): {e}", RuntimeWarning, stacklevel=2)


__all__ = ["DRIVE", "DRIVE_FILE", "IN_BROWSER", "NOT_KEPT", "keep_in_browser", "open_learner_store"]
