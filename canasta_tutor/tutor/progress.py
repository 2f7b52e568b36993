"""The progress store: students, classes and every attempt, in one SQLite file.

The file lives in the user's data folder (:func:`default_path`; the
``CANASTA_TUTOR_PROGRESS`` environment variable or a path argument moves it; a
class keeps its store inside the course folder, :func:`course_path`).  Every
save is one transaction in WAL mode, so a process killed during a save loses
nothing saved before it, and the file always opens cleanly.  A file that is not
a progress store gives one clear :class:`ProgressStoreError`, and so does every
error SQLite reports: the error's ``cause`` says what is wrong (the store is
damaged, the disk is full, the file is read-only, another program holds it
locked...) and its message carries SQLite's own words.  A store is opened only
when SQLite's integrity check passes and every table of the schema is there.
A store that may be read but not written opens read-only with
:func:`open_learner_store`, for the widgets, which then say that progress is not saved.

What it holds (schema version 4; a version 1, 2 or 3 file is migrated when opened):

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
  seats' replies;
- ``review_mistakes`` (version 4): the game review's mistakes and blunders, each with its position, the move
  played, the hint's best and the loss (written and read by :mod:`.review_store`);
- ``review_cards`` and ``review_sync`` (version 4): the review queue, one FSRS card per item to review, and
  how far the queue has read the attempts and the mistakes (:mod:`.review_queue`).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "progress.sqlite3")
>>> with ProgressStore(path) as store:
...     _ = store.record(Attempt(learner="s01", lesson="freezing", level="wild-card", status="passed", stars=2))
...     store.add_to_class("monday", "s01")
...     store.stars_for("s01"), store.class_members("monday")
({('freezing', 'wild-card'): 2}, ['s01'])
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import sqlite3
import sys
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterable, TypeVar

from ..engine.errors import CanastaError

#: ``PRAGMA application_id`` of a progress store ("CnTu")
APPLICATION_ID = 0x436E5475
SCHEMA_VERSION = 4
ENV_VAR = "CANASTA_TUTOR_PROGRESS"
#: the store's file name inside a course folder (:func:`course_path`)
COURSE_FILE = "progress.sqlite3"
#: called with the connection after each committed transaction of any store (the browser's copy of the
#: learner's store is written there: :mod:`canasta_tutor.tutor.browser`)
AFTER_COMMIT: list[Callable[[sqlite3.Connection], None]] = []
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

# what version 4 adds to version 3 (also run on a new file): the game review's mistakes (see .review_store)
_V4 = """
CREATE TABLE review_mistakes (
    id          INTEGER PRIMARY KEY,
    learner_id  INTEGER NOT NULL REFERENCES learners(id),
    uid         TEXT NOT NULL UNIQUE,              -- the position, the move and the seed: saved once
    created     TEXT NOT NULL,
    game        TEXT NOT NULL DEFAULT '',          -- where the record came from (a file name, "table")
    seat        TEXT NOT NULL,
    hand        INTEGER NOT NULL,
    ply         INTEGER NOT NULL,                  -- the move's index in the record's actions
    position    TEXT NOT NULL,                     -- the position before the move, in the project's notation
    record      TEXT NOT NULL,                     -- the game record up to the move (replays to the exact game)
    action      TEXT NOT NULL,
    best        TEXT NOT NULL,
    grade       TEXT NOT NULL CHECK (grade IN ('mistake', 'blunder')),
    loss        REAL NOT NULL,
    seed        INTEGER NOT NULL,
    samples     INTEGER,                           -- the search's deals per move (NULL: the hint's own race)
    explanation TEXT NOT NULL DEFAULT ''
);
CREATE INDEX review_mistakes_by_learner ON review_mistakes (learner_id);
CREATE TABLE review_cards (
    learner_id INTEGER NOT NULL REFERENCES learners(id),
    kind       TEXT NOT NULL CHECK (kind IN ('level', 'puzzle', 'mistake')),
    item       TEXT NOT NULL,                      -- lesson/level, a puzzle's id, or a mistake's uid
    card       TEXT NOT NULL,                      -- the FSRS card (fsrs.Card.to_json)
    due        TEXT NOT NULL,                      -- when it is due (ISO 8601, UTC), as in the card
    reviews    INTEGER NOT NULL DEFAULT 0,
    lapses     INTEGER NOT NULL DEFAULT 0,
    learned    INTEGER NOT NULL DEFAULT 0,         -- 1: out of the queue (see .review_queue)
    created    TEXT NOT NULL,
    updated    TEXT NOT NULL,
    PRIMARY KEY (learner_id, kind, item)
);
CREATE TABLE review_sync (
    learner_id INTEGER NOT NULL REFERENCES learners(id),
    source     TEXT NOT NULL CHECK (source IN ('attempts', 'mistakes')),
    last_id    INTEGER NOT NULL,                   -- the last row of the source read into the queue
    PRIMARY KEY (learner_id, source)
)
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


#: what :attr:`ProgressStoreError.cause` may be
CAUSES = ("corrupt", "full", "read-only", "locked", "not-a-store", "newer", "old-version", "missing", "cannot-open",
          "io", "duplicate", "invalid", "other")


class ProgressStoreError(CanastaError, OSError):
    """The progress file cannot be used: ``cause`` (one of :data:`CAUSES`) says why, the message in
    words, with SQLite's own cause where SQLite gave one."""

    def __init__(self, message: str, cause: str = "other") -> None:
        super().__init__(message)
        self.cause = cause

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


#: what reading or writing a store may raise: SQLite's errors, and text SQLite hands over that is not UTF-8
#: (a damaged file's schema, quoted in an error message)
STORE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, UnicodeDecodeError)
_OPEN_ERRORS: tuple[type[Exception], ...] = (*STORE_ERRORS, OSError)

# SQLite's result codes (the primary code, before any extended part), by cause
_CAUSE_OF_CODE = {"SQLITE_CORRUPT": "corrupt", "SQLITE_NOTADB": "not-a-store", "SQLITE_FULL": "full",
                  "SQLITE_READONLY": "read-only", "SQLITE_PERM": "read-only", "SQLITE_BUSY": "locked",
                  "SQLITE_LOCKED": "locked", "SQLITE_CANTOPEN": "cannot-open", "SQLITE_IOERR": "io",
                  "SQLITE_CONSTRAINT": "invalid", "SQLITE_CONSTRAINT_UNIQUE": "duplicate",
                  "SQLITE_CONSTRAINT_PRIMARYKEY": "duplicate"}


def _cause(e: BaseException) -> str:
    name = str(getattr(e, "sqlite_errorname", "") or "")
    if name in _CAUSE_OF_CODE:
        return _CAUSE_OF_CODE[name]
    primary = "_".join(name.split("_")[:2])
    if primary in _CAUSE_OF_CODE:
        return _CAUSE_OF_CODE[primary]
    text = str(e).lower()
    for words, cause in (("malformed", "corrupt"), ("not a database", "not-a-store"), ("disk is full", "full"),
                         ("readonly", "read-only"), ("read-only", "read-only"), ("locked", "locked"),
                         ("unable to open", "cannot-open"), ("disk i/o", "io"), ("unique constraint", "duplicate"),
                         ("constraint failed", "invalid")):
        if words in text:
            return cause
    return "other"


def store_error(path: str | Path, e: BaseException) -> ProgressStoreError:
    """The :class:`ProgressStoreError` for an ``sqlite3`` error (or an ``OSError``) met using the store at
    ``path``: its cause in words, then SQLite's own message."""
    where = repr(str(path))
    said = " ".join(str(e).split())[:200] or type(e).__name__
    if isinstance(e, UnicodeDecodeError):
        cause, said = "corrupt", f"text that is not UTF-8 ({e.reason})"
    elif isinstance(e, OSError) and not isinstance(e, sqlite3.Error):
        cause = "read-only" if isinstance(e, PermissionError) or e.errno == errno.EROFS else (
            "full" if e.errno == errno.ENOSPC else "cannot-open")
        said = e.strerror or said
    else:
        cause = _cause(e)
    text = {
        "corrupt": f"the progress store {where} is damaged (SQLite: {said}); move it away and keep a copy: "
                   f"canasta-tutor starts a new one, or choose another file with ${ENV_VAR}",
        "not-a-store": f"{where} is not a canasta-tutor progress store (SQLite: {said}); move it away or choose "
                       f"another file with ${ENV_VAR}",
        "full": f"the disk is full: the progress store {where} cannot be written (SQLite: {said}); free some space",
        "read-only": f"the progress store {where} is read-only here (SQLite: {said}): progress can be read but "
                     "not saved",
        "locked": f"the progress store {where} is locked by another program (SQLite: {said}); try again when it "
                  "is done",
        "cannot-open": f"cannot open the progress store {where} (SQLite: {said})",
        "io": f"cannot read or write the progress store {where}: the disk failed (SQLite: {said})",
        "duplicate": f"the progress store {where} already holds this attempt (SQLite: {said})",
        "invalid": f"the progress store {where} refused the data as invalid (SQLite: {said})",
    }.get(cause, f"the progress store {where} failed (SQLite: {said})")
    return ProgressStoreError(text, cause)


_F = TypeVar("_F", bound=Callable[..., Any])


def _mapped(method: _F) -> _F:
    """A store method whose ``sqlite3`` errors become one :class:`ProgressStoreError` (see :func:`store_error`)."""
    @functools.wraps(method)
    def wrapper(self: "ProgressStore", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except STORE_ERRORS as e:
            raise store_error(self.path, e) from None
    return wrapper  # type: ignore[return-value]


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


def _unwritable(path: Path) -> str:
    """Why the store at ``path`` cannot be written here ("" when it can): the file, or its folder where
    SQLite must make its ``-wal`` and ``-shm`` files, may not be written (a read-only file system, or
    permissions).  The operating system's answer; SQLite's own comes at the first write."""
    if path.exists() and not os.access(path, os.W_OK):
        return "the file may not be written"
    side = [path.with_name(path.name + x) for x in ("-wal", "-shm")]
    if not os.access(path.parent, os.W_OK) and not all(p.exists() and os.access(p, os.W_OK) for p in side):
        return "its folder may not be written, and SQLite keeps its journal there"
    return ""


def _check_header(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version, after checking that it is a progress store we can read."""
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    if app != APPLICATION_ID:
        raise ProgressStoreError(f"{str(path)!r} is an SQLite file of another program, not a "
                                 f"canasta-tutor progress store; choose another file with ${ENV_VAR}", "not-a-store")
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version < 1:  # the version is set with the tables, in one transaction: a store without one is damaged
        raise ProgressStoreError(f"the progress store {str(path)!r} is damaged: it has no store version; move it "
                                 f"away and keep a copy, or choose another file with ${ENV_VAR}", "corrupt")
    if version > SCHEMA_VERSION:
        raise ProgressStoreError(f"{str(path)!r} was written by a newer canasta-tutor (store version "
                                 f"{version}); update canasta-tutor to open it", "newer")
    return version


#: the columns every store of a schema version has, by table (a later version adds to an earlier one's)
_COLUMNS = {
    1: {"learners": {"id", "name", "created"},
        "attempts": {"id", "learner_id", "kind", "lesson", "level", "seed", "started", "finished", "status",
                     "stars", "tries", "par", "hints", "rating_before", "rating_after"},
        "attempt_actions": {"attempt_id", "n", "kind", "text", "rule"},
        "best_stars": {"learner_id", "lesson", "level", "stars", "updated"}},
    2: {"learners": {"display_name"}, "attempts": {"uid", "themes", "assignment"}, "attempt_actions": {"reason"},
        "classes": {"id", "name", "title", "created"}, "class_members": {"class_id", "learner_id", "joined"}},
    3: {"attempts": {"mode"}},
    4: {"review_mistakes": {"id", "learner_id", "uid", "created", "game", "seat", "hand", "ply", "position", "record",
                            "action", "best", "grade", "loss", "seed", "samples", "explanation"},
        "review_cards": {"learner_id", "kind", "item", "card", "due", "reviews", "lapses", "learned", "created",
                         "updated"},
        "review_sync": {"learner_id", "source", "last_id"}},
}


def _check_sound(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """Refuse a damaged store: SQLite's integrity check must pass and every table and column of the
    file's schema version must be there (a store missing a table is damaged, not empty)."""
    result = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)").fetchall()]
    if result != ["ok"]:
        raise ProgressStoreError(f"the progress store {str(path)!r} is damaged: SQLite's integrity check says "
                                 f"{'; '.join(result)[:300]}; move it away and keep a copy: canasta-tutor starts a "
                                 f"new one, or choose another file with ${ENV_VAR}", "corrupt")
    for v in range(1, version + 1):
        for table, wanted in _COLUMNS[v].items():
            have = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")}
            missing = sorted(wanted - have)
            if missing:
                what = f"has no table {table!r}" if not have else f"has no column {missing[0]!r} in {table!r}"
                raise ProgressStoreError(f"the progress store {str(path)!r} is damaged: it {what} (store version "
                                         f"{version}); move it away and keep a copy, or choose another file with "
                                         f"${ENV_VAR}", "corrupt")


class ProgressStore:
    """A progress store (one SQLite file): open it, :meth:`record` attempts, read them back."""

    def __init__(self, path: str | Path | None = None, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        #: opened read-only: reads work, every write raises a :class:`ProgressStoreError` (cause ``read-only``)
        self.read_only = read_only
        try:
            if read_only:
                if not self.path.is_file():
                    raise ProgressStoreError(f"no progress store at {str(self.path)!r}", "missing")
                self.conn = _open_read_only(self.path, check_same_thread=False)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # a notebook kernel may call from another thread than the one that opened the store;
                # the store is used by one caller at a time, and SQLite serialises the connection
                self.conn = _text(sqlite3.connect(self.path, timeout=10, isolation_level=None,
                                                  check_same_thread=False))
        except _OPEN_ERRORS as e:
            raise (e if isinstance(e, ProgressStoreError) else store_error(self.path, e)) from None
        try:
            self._open()
        except STORE_ERRORS as e:
            self.conn.close()
            raise store_error(self.path, e) from None
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
        if self.read_only:
            version = _check_header(c, self.path)
            _check_sound(c, self.path, version)
            if version < SCHEMA_VERSION:
                raise ProgressStoreError(f"the progress store {str(self.path)!r} is of an older version ({version}): "
                                         "open it once for writing to bring it up to date", "old-version")
            return
        why = _unwritable(self.path)
        if why:  # said now, rather than at the learner's first save (nothing is written to find out)
            raise ProgressStoreError(f"the progress store {str(self.path)!r} is read-only here ({why}): progress "
                                     "can be read but not saved", "read-only")
        app = c.execute("PRAGMA application_id").fetchone()[0]
        tables = c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app == 0 and tables == 0:
            c.execute("PRAGMA journal_mode = WAL")
            with self._transaction():
                if c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                    for statement in _statements(_SCHEMA) + _statements(_V2) + _statements(_V3) + _statements(_V4):
                        c.execute(statement)
                    c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        version = _check_header(c, self.path)
        _check_sound(c, self.path, version)
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = FULL")
        if version < SCHEMA_VERSION:
            self._migrate()
        c.execute("PRAGMA foreign_keys = ON")

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
                version = 3
            if version == 3:
                for statement in _statements(_V4):
                    c.execute(statement)
                c.execute("PRAGMA user_version = 4")

    def _transaction(self) -> "_Transaction":
        return _Transaction(self.conn)

    def transaction(self) -> "_Transaction":
        """``with store.transaction():`` one write of several statements, all or none (a module that keeps its
        own rows in the store, such as :mod:`.review_store`)."""
        if self.read_only:
            raise ProgressStoreError(f"the progress store {str(self.path)!r} was opened read-only", "read-only")
        return _Transaction(self.conn)

    def learner_id(self, name: str) -> int:
        """The learner's row id, adding the learner if new (call inside :meth:`transaction`)."""
        return self._learner_id(name)

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

    @_mapped
    def add_learner(self, name: str, display_name: str = "") -> None:
        """Add a student (or set the display name of one already there)."""
        if not name.strip():
            raise ValueError("a learner needs a name")
        with self._transaction():
            lid = self._learner_id(name)
            if display_name:
                self.conn.execute("UPDATE learners SET display_name = ? WHERE id = ?", (display_name, lid))

    @_mapped
    def add_class(self, name: str, title: str = "") -> None:
        """Add a class (or set the title of one already there)."""
        if not name.strip():
            raise ValueError("a class needs a name")
        with self._transaction():
            cid = self._class_id(name)
            if title:
                self.conn.execute("UPDATE classes SET title = ? WHERE id = ?", (title, cid))

    @_mapped
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

    @_mapped
    def record(self, attempt: Attempt) -> int:
        """Save one attempt and update the learner's best stars: one transaction.  Returns its id."""
        if not attempt.learner.strip():
            raise ValueError("a learner needs a name")
        with self._transaction():
            return self._insert(attempt, self._learner_id(attempt.learner), _now())

    @_mapped
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

    @_mapped
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
    @_mapped
    def learners(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM learners ORDER BY name")]

    @_mapped
    def display_names(self) -> dict[str, str]:
        """Each student's display name (their name when none was given)."""
        return {n: d or n for n, d in self.conn.execute("SELECT name, display_name FROM learners ORDER BY name")}

    @_mapped
    def classes(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM classes ORDER BY name")]

    @_mapped
    def class_members(self, class_name: str) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT l.name FROM class_members m JOIN classes c ON c.id = m.class_id "
            "JOIN learners l ON l.id = m.learner_id WHERE c.name = ? ORDER BY l.name", (class_name,))]

    @_mapped
    def stars_for(self, learner: str) -> dict[tuple[str, str], int]:
        """The learner's best stars by ``(lesson, level)``."""
        rows = self.conn.execute(
            "SELECT b.lesson, b.level, b.stars FROM best_stars b JOIN learners l ON l.id = b.learner_id "
            "WHERE l.name = ? ORDER BY b.lesson, b.level", (learner,))
        return {(lesson, level): int(stars) for lesson, level, stars in rows}

    @_mapped
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

    @_mapped
    def data_version(self) -> int:
        """A number that changes when another connection commits (cheap: a refresh can skip re-reading)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    @_mapped
    def integrity(self) -> str:
        """SQLite's integrity check: ``"ok"`` when the file is sound."""
        return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "ProgressStore":
        return self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def open_learner_store(path: str | Path | None = None) -> tuple[ProgressStore | None, str]:
    """The learner's store for a widget, as far as it can be used: ``(store, "")`` when it opens for
    writing; ``(store opened read-only, note)`` when it can only be read (a read-only file or folder,
    a full disk...); ``(None, note)`` when it cannot be used at all.  The note says, in one line, that
    progress will not be saved and SQLite's reason, so the widget plays on and says so."""
    target = Path(path) if path is not None else default_path()
    try:
        return ProgressStore(target), ""
    except ProgressStoreError as e:
        first = e
    if first.cause in ("read-only", "full", "locked", "io", "cannot-open") and target.is_file():
        try:
            return ProgressStore(target, read_only=True), f"Your progress is shown but not saved: {first}"
        except ProgressStoreError:
            pass
    return None, f"Your progress will not be saved: {first}"


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        if t is not None:
            self._rollback()
            return
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error:  # a full disk or a lock at the commit: nothing of it is kept
            self._rollback()
            raise
        for hook in AFTER_COMMIT:
            hook(self.conn)

    def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite may have rolled back on its own after a full
        disk); a failing rollback never hides the error that called it."""
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _text(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn``, reading text that is not UTF-8 (a damaged file, another program's rows) with U+FFFD in place
    of the bad bytes, so that reading never stops on it; damage to the file itself is the integrity
    check's to find."""
    conn.text_factory = _decode
    return conn


def _open_read_only(path: Path, check_same_thread: bool = True) -> sqlite3.Connection:
    """A read-only connection.  A WAL store whose ``-shm`` index is missing needs a folder it may
    create it in; when the reader may not (a student's folder, read-only to the teacher) and no
    ``-wal`` log is left (the student's server closed the store), the file is read as immutable."""
    uri = path.resolve().as_uri()
    try:
        conn = _text(sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=10, check_same_thread=check_same_thread))
        conn.execute("PRAGMA application_id").fetchone()
        return conn
    except sqlite3.OperationalError as e:
        if path.with_name(path.name + "-wal").exists():
            raise store_error(path, e) from None
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        raise store_error(path, e) from None
    try:
        return _text(sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=10,
                                     check_same_thread=check_same_thread))
    except STORE_ERRORS as e:
        raise store_error(path, e) from None


def connect_read_only(path: str | Path) -> tuple[sqlite3.Connection, int]:
    """A read-only connection to the store at ``path``, and its schema version: for readers that must
    change nothing (the class report, which shows a course's store without writing to it)."""
    path = Path(path)
    if not path.is_file():
        raise ProgressStoreError(f"no progress store at {str(path)!r}", "missing")
    conn = _open_read_only(path)
    try:
        version = _check_header(conn, path)
        _check_sound(conn, path, version)  # a damaged store is not read
        return conn, version
    except STORE_ERRORS as e:
        conn.close()
        raise store_error(path, e) from None
    except ProgressStoreError:
        conn.close()
        raise


def read_foreign(path: Path) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, str]]]]:
    """Every attempt of the store at ``path`` and their actions, read without writing to it (a
    version 1 file is read as it is; its attempts get a ``uid`` made from their contents; an
    attempt from before version 3 has an empty ``mode``)."""
    if not path.is_file():
        raise ProgressStoreError(f"no progress store at {str(path)!r}", "missing")
    conn = _open_read_only(path)
    try:
        version = _check_header(conn, path)
        _check_sound(conn, path, version)
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
    except STORE_ERRORS as e:
        raise store_error(path, e) from None
    finally:
        conn.close()
    for r in rows:
        if not r["uid"]:
            key = "|".join(str(r[k]) for k in ("learner", "kind", "lesson", "level", "seed", "started", "finished",
                                                "status", "stars", "tries", "hints", "id"))
            r["uid"] = hashlib.sha256(key.encode()).hexdigest()[:32]
    return rows, actions


__all__ = ["ProgressStore", "ProgressStoreError", "Attempt", "default_path", "course_path", "read_foreign",
           "store_error", "open_learner_store", "connect_read_only", "CAUSES", "STORE_ERRORS",
           "ENV_VAR", "APPLICATION_ID", "SCHEMA_VERSION", "ACTION_KINDS", "COURSE_FILE"]
