"""The progress store: each learner's attempts and best stars, in one SQLite file.

The file lives in the user's data folder (:func:`default_path`; the
``CANASTA_TUTOR_PROGRESS`` environment variable or a path argument moves it).
Every save is one transaction in WAL mode, so a process killed during a save
loses nothing saved before it, and the file always opens cleanly.  A file that
is not a progress store gives one clear :class:`ProgressStoreError`.

The schema is meant to grow with the class tools: an attempt records its
learner, the level (or later a puzzle or an assignment: ``kind``), the seed,
the result, the stars, the hints and the ratings before and after; its
actions, refused ones with their rule and the hints asked, are rows of
``attempt_actions``.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "progress.sqlite3")
>>> with ProgressStore(path) as store:
...     _ = store.record(Attempt(learner="ada", lesson="freezing", level="wild-card", status="passed", stars=2))
...     store.stars_for("ada")
{('freezing', 'wild-card'): 2}
"""

from __future__ import annotations

import os
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

from ..errors import CanastaError

#: ``PRAGMA application_id`` of a progress store ("CnTu")
APPLICATION_ID = 0x436E5475
SCHEMA_VERSION = 1
ENV_VAR = "CANASTA_TUTOR_PROGRESS"

_SCHEMA = """
CREATE TABLE learners (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
CREATE TABLE attempts (
    id            INTEGER PRIMARY KEY,
    learner_id    INTEGER NOT NULL REFERENCES learners(id),
    kind          TEXT NOT NULL DEFAULT 'lesson',   -- lesson (later also puzzle, assignment)
    lesson        TEXT NOT NULL,
    level         TEXT NOT NULL,
    seed          INTEGER NOT NULL DEFAULT 0,
    started       TEXT NOT NULL,
    finished      TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'open')),
    stars         INTEGER NOT NULL DEFAULT 0 CHECK (stars BETWEEN 0 AND 3),
    tries         INTEGER NOT NULL DEFAULT 0,
    par           INTEGER,
    hints         INTEGER NOT NULL DEFAULT 0,
    rating_before REAL,
    rating_after  REAL
);
CREATE INDEX attempts_by_learner ON attempts (learner_id, lesson, level);
CREATE TABLE attempt_actions (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id),
    n          INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('action', 'refused', 'hint', 'reply')),
    text       TEXT NOT NULL,
    rule       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (attempt_id, n)
);
CREATE TABLE best_stars (
    learner_id INTEGER NOT NULL REFERENCES learners(id),
    lesson     TEXT NOT NULL,
    level      TEXT NOT NULL,
    stars      INTEGER NOT NULL CHECK (stars BETWEEN 0 AND 3),
    updated    TEXT NOT NULL,
    PRIMARY KEY (learner_id, lesson, level)
);
"""


class ProgressStoreError(CanastaError, OSError):
    """The progress file cannot be used (not a progress store, damaged, or a newer version)."""


@dataclass
class Attempt:
    """One attempt at a level, as saved.  ``actions`` holds ``{"kind", "text", "rule"}`` dicts."""

    learner: str
    lesson: str
    level: str
    status: str
    stars: int = 0
    seed: int = 0
    tries: int = 0
    par: int | None = None
    hints: int = 0
    actions: list[dict[str, str]] = field(default_factory=list)
    kind: str = "lesson"
    started: str = ""
    finished: str = ""
    rating_before: float | None = None
    rating_after: float | None = None


def default_path() -> Path:
    """Where the progress store lives: ``$CANASTA_TUTOR_PROGRESS``, else the user's data folder."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "canasta-tutor" / "progress.sqlite3"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ProgressStore:
    """A learner progress store (one SQLite file)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # a notebook kernel may call from another thread than the one that opened the store;
            # the store is used by one caller at a time, and SQLite serialises the connection
            self.conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise ProgressStoreError(f"cannot open the progress store {str(self.path)!r}: {e}") from None
        try:
            self._open()
        except sqlite3.DatabaseError as e:
            self.conn.close()
            raise ProgressStoreError(f"{str(self.path)!r} is not a canasta-tutor progress store ({e}); move it "
                                     f"away or choose another file with ${ENV_VAR}") from None
        except ProgressStoreError:
            self.conn.close()
            raise

    def _open(self) -> None:
        c = self.conn
        c.execute("PRAGMA busy_timeout = 10000")
        app = c.execute("PRAGMA application_id").fetchone()[0]
        tables = c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app == 0 and tables == 0:
            c.execute("PRAGMA journal_mode = WAL")
            c.execute("BEGIN IMMEDIATE")
            try:
                if c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            c.execute(statement)
                    c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            app = c.execute("PRAGMA application_id").fetchone()[0]
        if app != APPLICATION_ID:
            raise ProgressStoreError(f"{str(self.path)!r} is an SQLite file of another program, not a "
                                     f"canasta-tutor progress store; choose another file with ${ENV_VAR}")
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ProgressStoreError(f"{str(self.path)!r} was written by a newer canasta-tutor (store version "
                                     f"{version}); update canasta-tutor to open it")
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = FULL")
        c.execute("PRAGMA foreign_keys = ON")
        c.execute("SELECT count(*) FROM attempts").fetchone()

    # ------------------------------------------------------------------ writes
    def _learner_id(self, name: str) -> int:
        row = self.conn.execute("SELECT id FROM learners WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        cur = self.conn.execute("INSERT INTO learners (name, created) VALUES (?, ?)", (name, _now()))
        return int(cur.lastrowid or 0)

    def record(self, attempt: Attempt) -> int:
        """Save one attempt and update the learner's best stars: one transaction.  Returns its id."""
        if not attempt.learner.strip():
            raise ValueError("a learner needs a name")
        now = _now()
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            lid = self._learner_id(attempt.learner)
            cur = c.execute(
                "INSERT INTO attempts (learner_id, kind, lesson, level, seed, started, finished, status, stars, "
                "tries, par, hints, rating_before, rating_after) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (lid, attempt.kind, attempt.lesson, attempt.level, attempt.seed, attempt.started or now,
                 attempt.finished or now, attempt.status, attempt.stars, attempt.tries, attempt.par, attempt.hints,
                 attempt.rating_before, attempt.rating_after))
            aid = int(cur.lastrowid or 0)
            c.executemany("INSERT INTO attempt_actions (attempt_id, n, kind, text, rule) VALUES (?,?,?,?,?)",
                          [(aid, n, a.get("kind", "action"), a.get("text", ""), a.get("rule", ""))
                           for n, a in enumerate(attempt.actions)])
            if attempt.status == "passed":
                c.execute("INSERT INTO best_stars (learner_id, lesson, level, stars, updated) VALUES (?,?,?,?,?) "
                          "ON CONFLICT (learner_id, lesson, level) DO UPDATE SET stars = excluded.stars, "
                          "updated = excluded.updated WHERE excluded.stars > best_stars.stars",
                          (lid, attempt.lesson, attempt.level, attempt.stars, now))
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        return aid

    # ------------------------------------------------------------------- reads
    def learners(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM learners ORDER BY name")]

    def stars_for(self, learner: str) -> dict[tuple[str, str], int]:
        """The learner's best stars by ``(lesson, level)``."""
        rows = self.conn.execute(
            "SELECT b.lesson, b.level, b.stars FROM best_stars b JOIN learners l ON l.id = b.learner_id "
            "WHERE l.name = ? ORDER BY b.lesson, b.level", (learner,))
        return {(lesson, level): int(stars) for lesson, level, stars in rows}

    def attempts(self, learner: str | None = None) -> list[dict[str, Any]]:
        """Saved attempts (oldest first), each with its actions."""
        sql = ("SELECT a.*, l.name AS learner FROM attempts a JOIN learners l ON l.id = a.learner_id"
               + (" WHERE l.name = ?" if learner is not None else "") + " ORDER BY a.id")
        cur = self.conn.execute(sql, (learner,) if learner is not None else ())
        names = [d[0] for d in cur.description]
        out = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        for a in out:
            a["actions"] = [{"kind": k, "text": t, "rule": r} for k, t, r in self.conn.execute(
                "SELECT kind, text, rule FROM attempt_actions WHERE attempt_id = ? ORDER BY n", (a["id"],))]
        return out

    def integrity(self) -> str:
        """SQLite's integrity check: ``"ok"`` when the file is sound."""
        return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "ProgressStore":
        return self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


__all__ = ["ProgressStore", "ProgressStoreError", "Attempt", "default_path", "ENV_VAR", "APPLICATION_ID"]
