"""The progress store: students, classes and every attempt, in one SQLite file.

The file lives in the user's data folder (:func:`default_path`; the
``CANASTA_TUTOR_PROGRESS`` environment variable or a path argument moves it; a
class keeps its store inside the course folder, :func:`course_path`).  Every
save is one transaction in WAL mode, so a process killed during a save loses
nothing saved before it, and the file always opens cleanly.  A file that is not
a progress store gives one clear :class:`ProgressStoreError`.

What it holds (schema version 3; a version 1 or 2 file is migrated when opened):

- ``learners``: the students, by name (a login or nbgrader's student id), with
  an optional display name;
- ``classes`` and ``class_members``: a class and who is in it;
- ``attempts``: one row per attempt at an item (a lesson level, a puzzle
  -- ``lesson="puzzles"``, ``level=<puzzle id>`` -- or an assignment item:
  ``kind``), with its start and end, the result (``status``: passed means
  solved), the stars, the hints, the learner's rating before and after, the
  item's themes and the assignment it belonged to, and for a puzzle the trainer's
  ``mode`` (``rated``, ``streak`` or ``timed``; empty for other items and for
  attempts saved before version 3); ``uid`` names it across files, so merging
  a student's store into the course's twice adds nothing;
- ``attempt_actions``: what happened in the attempt, in order: the learner's
  accepted actions, refused ones with the engine's rule and reason, legal but
  wrong ones (played: a puzzle's wrong answer, or a move after which a level
  cannot be passed) with the hint's reason, the hints shown and the other
  seats' replies.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "progress.sqlite3")
>>> with ProgressStore(path) as store:
...     _ = store.record(Attempt(learner="ada", lesson="freezing", level="wild-card", status="passed", stars=2))
...     store.add_to_class("monday", "ada")
...     store.stars_for("ada"), store.class_members("monday")
({('freezing', 'wild-card'): 2}, ['ada'])
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Iterable

from ..errors import CanastaError

#: ``PRAGMA application_id`` of a progress store ("CnTu")
APPLICATION_ID = 0x436E5475
SCHEMA_VERSION = 3
ENV_VAR = "CANASTA_TUTOR_PROGRESS"
#: the store's file name inside a course folder (:func:`course_path`)
COURSE_FILE = "progress.sqlite3"
#: what an attempt's action row may be
ACTION_KINDS = ("action", "refused", "wrong", "hint", "reply")

_ACTIONS_TABLE = """
CREATE TABLE attempt_actions (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id),
    n          INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('action', 'refused', 'wrong', 'hint', 'reply')),
    text       TEXT NOT NULL,
    rule       TEXT NOT NULL DEFAULT '',   -- the engine's rule number of a refused action
    reason     TEXT NOT NULL DEFAULT '',   -- the engine's reason (refused) or the hint's (wrong)
    PRIMARY KEY (attempt_id, n)
)"""

_SCHEMA = """
CREATE TABLE learners (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    created      TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT ''
);
CREATE TABLE attempts (
    id            INTEGER PRIMARY KEY,
    learner_id    INTEGER NOT NULL REFERENCES learners(id),
    kind          TEXT NOT NULL DEFAULT 'lesson',   -- lesson, puzzle or assignment
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
    rating_after  REAL,
    uid           TEXT NOT NULL DEFAULT '',
    themes        TEXT NOT NULL DEFAULT '',         -- space separated
    assignment    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX attempts_by_learner ON attempts (learner_id, lesson, level);
""" + _ACTIONS_TABLE + """;
CREATE TABLE best_stars (
    learner_id INTEGER NOT NULL REFERENCES learners(id),
    lesson     TEXT NOT NULL,
    level      TEXT NOT NULL,
    stars      INTEGER NOT NULL CHECK (stars BETWEEN 0 AND 3),
    updated    TEXT NOT NULL,
    PRIMARY KEY (learner_id, lesson, level)
);
"""

# what version 2 adds to version 1, in order (also run after _SCHEMA on a new file, from "CREATE TABLE classes")
_V2 = """
CREATE TABLE classes (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    title   TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL
);
CREATE TABLE class_members (
    class_id   INTEGER NOT NULL REFERENCES classes(id),
    learner_id INTEGER NOT NULL REFERENCES learners(id),
    joined     TEXT NOT NULL,
    PRIMARY KEY (class_id, learner_id)
);
CREATE UNIQUE INDEX attempts_by_uid ON attempts (uid);
CREATE INDEX attempts_by_item ON attempts (lesson, level)
"""

# what version 3 adds to version 2 (also run on a new file)
_V3 = """
ALTER TABLE attempts ADD COLUMN mode TEXT NOT NULL DEFAULT ''
"""

_MIGRATE_1_TO_2 = """
ALTER TABLE learners ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
ALTER TABLE attempts ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE attempts ADD COLUMN themes TEXT NOT NULL DEFAULT '';
ALTER TABLE attempts ADD COLUMN assignment TEXT NOT NULL DEFAULT '';
UPDATE attempts SET uid = lower(hex(randomblob(16)));
ALTER TABLE attempt_actions RENAME TO attempt_actions_v1;
""" + _ACTIONS_TABLE + """;
INSERT INTO attempt_actions (attempt_id, n, kind, text, rule)
    SELECT attempt_id, n, kind, text, rule FROM attempt_actions_v1;
DROP TABLE attempt_actions_v1;
""" + _V2


class ProgressStoreError(CanastaError, OSError):
    """The progress file cannot be used (not a progress store, damaged, or a newer version)."""


@dataclass
class Attempt:
    """One attempt at an item, as saved.

    ``actions`` holds ``{"kind", "text", "rule", "reason"}`` dicts (``kind`` one of
    :data:`ACTION_KINDS`; ``rule`` and ``reason`` may be left out).  ``themes`` are
    the item's themes (a puzzle's, or the lesson's id); ``uid`` is made when saved."""

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
    themes: list[str] = field(default_factory=list)
    assignment: str = ""
    uid: str = ""
    mode: str = ""  # a puzzle's trainer mode: rated, streak or timed


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


def course_path(course: str | Path) -> Path:
    """The class's store inside the course folder ``course`` (nbgrader's course directory)."""
    return Path(course) / COURSE_FILE


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _statements(script: str) -> list[str]:
    return [s for s in script.split(";") if s.strip()]


def _not_a_store(path: Path, e: BaseException) -> ProgressStoreError:
    return ProgressStoreError(f"{str(path)!r} is not a canasta-tutor progress store ({e}); move it "
                              f"away or choose another file with ${ENV_VAR}")


def _check_header(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version, after checking that it is a progress store we can read."""
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    if app != APPLICATION_ID:
        raise ProgressStoreError(f"{str(path)!r} is an SQLite file of another program, not a "
                                 f"canasta-tutor progress store; choose another file with ${ENV_VAR}")
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise ProgressStoreError(f"{str(path)!r} was written by a newer canasta-tutor (store version "
                                 f"{version}); update canasta-tutor to open it")
    return version


class ProgressStore:
    """A progress store (one SQLite file): open it, :meth:`record` attempts, read them back."""

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
            raise _not_a_store(self.path, e) from None
        except ProgressStoreError:
            self.conn.close()
            raise

    @classmethod
    def for_course(cls, course: str | Path) -> "ProgressStore":
        """The store of the class taught from the course folder ``course``."""
        return cls(course_path(course))

    def _open(self) -> None:
        c = self.conn
        c.execute("PRAGMA busy_timeout = 10000")
        app = c.execute("PRAGMA application_id").fetchone()[0]
        tables = c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app == 0 and tables == 0:
            c.execute("PRAGMA journal_mode = WAL")
            with self._transaction():
                if c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                    for statement in _statements(_SCHEMA) + _statements(_V2) + _statements(_V3):
                        c.execute(statement)
                    c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        version = _check_header(c, self.path)
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = FULL")
        if version < SCHEMA_VERSION:
            self._migrate()
        c.execute("PRAGMA foreign_keys = ON")
        c.execute("SELECT count(*) FROM attempts").fetchone()

    def _migrate(self) -> None:
        """Bring an older file up to :data:`SCHEMA_VERSION`: one transaction, so a process killed
        during it leaves the old version, and another process opening the file at once waits."""
        c = self.conn
        with self._transaction():
            version = int(c.execute("PRAGMA user_version").fetchone()[0])
            if version == 1:
                for statement in _statements(_MIGRATE_1_TO_2):
                    c.execute(statement)
                c.execute("PRAGMA user_version = 2")
                version = 2
            if version == 2:
                for statement in _statements(_V3):
                    c.execute(statement)
                c.execute("PRAGMA user_version = 3")

    def _transaction(self) -> "_Transaction":
        return _Transaction(self.conn)

    # ------------------------------------------------------------------ writes
    def _learner_id(self, name: str) -> int:
        row = self.conn.execute("SELECT id FROM learners WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        cur = self.conn.execute("INSERT INTO learners (name, created) VALUES (?, ?)", (name, _now()))
        return int(cur.lastrowid or 0)

    def _class_id(self, name: str) -> int:
        row = self.conn.execute("SELECT id FROM classes WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        cur = self.conn.execute("INSERT INTO classes (name, created) VALUES (?, ?)", (name, _now()))
        return int(cur.lastrowid or 0)

    def add_learner(self, name: str, display_name: str = "") -> None:
        """Add a student (or set the display name of one already there)."""
        if not name.strip():
            raise ValueError("a learner needs a name")
        with self._transaction():
            lid = self._learner_id(name)
            if display_name:
                self.conn.execute("UPDATE learners SET display_name = ? WHERE id = ?", (display_name, lid))

    def add_class(self, name: str, title: str = "") -> None:
        """Add a class (or set the title of one already there)."""
        if not name.strip():
            raise ValueError("a class needs a name")
        with self._transaction():
            cid = self._class_id(name)
            if title:
                self.conn.execute("UPDATE classes SET title = ? WHERE id = ?", (title, cid))

    def add_to_class(self, class_name: str, *learners: str) -> None:
        """Put students in a class (each added to the store if new): one transaction."""
        if not class_name.strip() or any(not n.strip() for n in learners):
            raise ValueError("a class and each learner need a name")
        with self._transaction():
            cid = self._class_id(class_name)
            now = _now()
            for name in learners:
                self.conn.execute("INSERT OR IGNORE INTO class_members (class_id, learner_id, joined) "
                                  "VALUES (?,?,?)", (cid, self._learner_id(name), now))

    def record(self, attempt: Attempt) -> int:
        """Save one attempt and update the learner's best stars: one transaction.  Returns its id."""
        if not attempt.learner.strip():
            raise ValueError("a learner needs a name")
        with self._transaction():
            return self._insert(attempt, self._learner_id(attempt.learner), _now())

    def record_many(self, attempts: Iterable[Attempt]) -> int:
        """Save several attempts in one transaction (an import, or a simulated class): all or none.
        Returns how many.  A learner's live attempts go through :meth:`record`, one by one."""
        n = 0
        with self._transaction():
            now = _now()
            for attempt in attempts:
                if not attempt.learner.strip():
                    raise ValueError("a learner needs a name")
                self._insert(attempt, self._learner_id(attempt.learner), now)
                n += 1
        return n

    def _insert(self, attempt: Attempt, lid: int, now: str) -> int:
        c = self.conn
        uid = attempt.uid or uuid.uuid4().hex
        cur = c.execute(
            "INSERT INTO attempts (learner_id, kind, lesson, level, seed, started, finished, status, stars, "
            "tries, par, hints, rating_before, rating_after, uid, themes, assignment, mode) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (lid, attempt.kind, attempt.lesson, attempt.level, attempt.seed, attempt.started or now,
             attempt.finished or now, attempt.status, attempt.stars, attempt.tries, attempt.par, attempt.hints,
             attempt.rating_before, attempt.rating_after, uid, " ".join(attempt.themes), attempt.assignment,
             attempt.mode))
        aid = int(cur.lastrowid or 0)
        c.executemany("INSERT INTO attempt_actions (attempt_id, n, kind, text, rule, reason) VALUES (?,?,?,?,?,?)",
                      [(aid, n, a.get("kind", "action"), a.get("text", ""), a.get("rule", "") or "",
                        a.get("reason", "") or "") for n, a in enumerate(attempt.actions)])
        if attempt.status == "passed":
            c.execute("INSERT INTO best_stars (learner_id, lesson, level, stars, updated) VALUES (?,?,?,?,?) "
                      "ON CONFLICT (learner_id, lesson, level) DO UPDATE SET stars = excluded.stars, "
                      "updated = excluded.updated WHERE excluded.stars > best_stars.stars",
                      (lid, attempt.lesson, attempt.level, attempt.stars, now))
        return aid

    def merge_from(self, path: str | Path, as_learner: str | None = None, class_name: str | None = None) -> int:
        """Copy the attempts of another store (a student's, say) that this one lacks; returns how many.

        The other file is only read (it may sit in a folder the teacher cannot write).  Attempts
        are matched by ``uid``, so merging the same file again adds nothing.  ``as_learner``
        files every attempt under that name (a student's own store may call them "learner");
        ``class_name`` puts the learners merged into that class.  One transaction."""
        src = Path(path)
        rows, actions = read_foreign(src)
        have = self.conn.execute  # one lookup in the uid index per attempt: cheap however big this store is
        new = [r for r in rows if have("SELECT 1 FROM attempts WHERE uid = ?", (r["uid"],)).fetchone() is None]
        learners = sorted({as_learner or r["learner"] for r in rows})
        with self._transaction():
            now = _now()
            for r in new:
                lid = self._learner_id(as_learner or r["learner"])
                self._insert(Attempt(learner="", lesson=r["lesson"], level=r["level"], status=r["status"],
                                     stars=r["stars"], seed=r["seed"], tries=r["tries"], par=r["par"],
                                     hints=r["hints"], actions=actions.get(r["id"], []), kind=r["kind"],
                                     started=r["started"], finished=r["finished"],
                                     rating_before=r["rating_before"], rating_after=r["rating_after"],
                                     themes=r["themes"].split(), assignment=r["assignment"], uid=r["uid"],
                                     mode=r["mode"]),
                             lid, now)
            if class_name:
                cid = self._class_id(class_name)
                for name in learners:
                    self.conn.execute("INSERT OR IGNORE INTO class_members (class_id, learner_id, joined) "
                                      "VALUES (?,?,?)", (cid, self._learner_id(name), now))
        return len(new)

    # ------------------------------------------------------------------- reads
    def learners(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM learners ORDER BY name")]

    def display_names(self) -> dict[str, str]:
        """Each student's display name (their name when none was given)."""
        return {n: d or n for n, d in self.conn.execute("SELECT name, display_name FROM learners ORDER BY name")}

    def classes(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM classes ORDER BY name")]

    def class_members(self, class_name: str) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT l.name FROM class_members m JOIN classes c ON c.id = m.class_id "
            "JOIN learners l ON l.id = m.learner_id WHERE c.name = ? ORDER BY l.name", (class_name,))]

    def stars_for(self, learner: str) -> dict[tuple[str, str], int]:
        """The learner's best stars by ``(lesson, level)``."""
        rows = self.conn.execute(
            "SELECT b.lesson, b.level, b.stars FROM best_stars b JOIN learners l ON l.id = b.learner_id "
            "WHERE l.name = ? ORDER BY b.lesson, b.level", (learner,))
        return {(lesson, level): int(stars) for lesson, level, stars in rows}

    def attempts(self, learner: str | None = None) -> list[dict[str, Any]]:
        """Saved attempts (oldest first), each with its actions (``themes`` as a list)."""
        where = " WHERE l.name = ?" if learner is not None else ""
        params = (learner,) if learner is not None else ()
        cur = self.conn.execute("SELECT a.*, l.name AS learner FROM attempts a JOIN learners l ON l.id = a.learner_id"
                                + where + " ORDER BY a.id", params)
        names = [d[0] for d in cur.description]
        out = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        by_id: dict[int, list[dict[str, str]]] = {a["id"]: [] for a in out}
        for aid, k, t, r, why in self.conn.execute(
                "SELECT x.attempt_id, x.kind, x.text, x.rule, x.reason FROM attempt_actions x "
                "JOIN attempts a ON a.id = x.attempt_id JOIN learners l ON l.id = a.learner_id"
                + where + " ORDER BY x.attempt_id, x.n", params):
            by_id[aid].append({"kind": k, "text": t, "rule": r, "reason": why})
        for a in out:
            a["actions"] = by_id[a["id"]]
            a["themes"] = a["themes"].split()
        return out

    def data_version(self) -> int:
        """A number that changes when another connection commits (cheap: a refresh can skip re-reading)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def integrity(self) -> str:
        """SQLite's integrity check: ``"ok"`` when the file is sound."""
        return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "ProgressStore":
        return self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.conn.execute("COMMIT" if t is None else "ROLLBACK")


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection.  A WAL store whose ``-shm`` index is missing needs a folder it may
    create it in; when the reader may not (a student's folder, read-only to the teacher) and no
    ``-wal`` log is left (the student's server closed the store), the file is read as immutable."""
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=10)
        conn.execute("PRAGMA application_id").fetchone()
        return conn
    except sqlite3.OperationalError as e:
        if path.with_name(path.name + "-wal").exists():
            raise ProgressStoreError(f"cannot read the progress store {str(path)!r}: {e}") from None
    except sqlite3.DatabaseError as e:
        raise _not_a_store(path, e) from None
    try:
        return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=10)
    except sqlite3.Error as e:
        raise ProgressStoreError(f"cannot open the progress store {str(path)!r}: {e}") from None


def connect_read_only(path: str | Path) -> tuple[sqlite3.Connection, int]:
    """A read-only connection to the store at ``path``, and its schema version: for readers that must
    change nothing (the class report, which shows a course's store without writing to it)."""
    path = Path(path)
    if not path.is_file():
        raise ProgressStoreError(f"no progress store at {str(path)!r}")
    conn = _open_read_only(path)
    try:
        return conn, _check_header(conn, path)
    except sqlite3.DatabaseError as e:
        conn.close()
        raise _not_a_store(path, e) from None
    except ProgressStoreError:
        conn.close()
        raise


def read_foreign(path: Path) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, str]]]]:
    """Every attempt of the store at ``path`` and their actions, read without writing to it (a
    version 1 file is read as it is; its attempts get a ``uid`` made from their contents; an
    attempt from before version 3 has an empty ``mode``)."""
    if not path.is_file():
        raise ProgressStoreError(f"no progress store at {str(path)!r}")
    conn = _open_read_only(path)
    try:
        version = _check_header(conn, path)
        extra = "" if version >= 2 else ", '' AS uid, '' AS themes, '' AS assignment"
        extra += "" if version >= 3 else ", '' AS mode"
        cur = conn.execute(f"SELECT a.*{extra}, l.name AS learner FROM attempts a "
                           "JOIN learners l ON l.id = a.learner_id ORDER BY a.id")
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, row, strict=False)) for row in cur.fetchall()]
        reason = "reason" if version >= 2 else "''"
        actions: dict[int, list[dict[str, str]]] = {}
        for aid, k, t, r, why in conn.execute(f"SELECT attempt_id, kind, text, rule, {reason} "
                                              "FROM attempt_actions ORDER BY attempt_id, n"):
            actions.setdefault(aid, []).append({"kind": k, "text": t, "rule": r, "reason": why})
    except sqlite3.DatabaseError as e:
        raise _not_a_store(path, e) from None
    finally:
        conn.close()
    for r in rows:
        if not r["uid"]:
            key = "|".join(str(r[k]) for k in ("learner", "kind", "lesson", "level", "seed", "started", "finished",
                                                "status", "stars", "tries", "hints", "id"))
            r["uid"] = hashlib.sha256(key.encode()).hexdigest()[:32]
    return rows, actions


__all__ = ["ProgressStore", "ProgressStoreError", "Attempt", "default_path", "course_path", "read_foreign",
           "connect_read_only",
           "ENV_VAR", "APPLICATION_ID", "SCHEMA_VERSION", "ACTION_KINDS", "COURSE_FILE"]
