"""The progress store says what is wrong: every SQLite error is one :class:`ProgressStoreError`
whose ``cause`` and message carry SQLite's own reason; damaged stores are never opened; widgets
play on when the store cannot be written; a report never makes a class."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.classes.report import ClassReport, UnknownClassError
from canasta_tutor.tutor.classes.simulate import simulate
from canasta_tutor.tutor.progress import (Attempt, ProgressStore, ProgressStoreError, course_path,
                                          open_learner_store, read_foreign, store_error)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "assignment-week-1.toml"


def _store(path: Path, attempts: int = 40) -> Path:
    with ProgressStore(path) as store:
        store.record_many(Attempt(f"s{i % 7}", "melds", f"level-{i}", "passed", stars=i % 4,
                                  actions=[{"kind": "action", "text": "draw"}] * 20) for i in range(attempts))
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def _damage_pages(path: Path) -> None:
    """Garbage in the middle of the file (its pages, not its header)."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for offset in range(2 * page + 8, 2 * page + 200, 7):
        data[offset] = 0xEE
    path.write_bytes(bytes(data))


def _read_only_connect(monkeypatch: pytest.MonkeyPatch, access: bool = True) -> None:
    """Every store opened for writing is opened read-only, as on a read-only file system (and, with
    ``access``, the operating system says that no file may be written: root may write any file)."""
    real = sqlite3.connect
    if access:
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode & os.W_OK else real_access(p, mode))

    def connect(database, *args, **kwargs):
        if isinstance(database, str) and database.startswith("file:"):
            return real(database, *args, **kwargs)
        kwargs["uri"] = True
        return real(f"{Path(database).resolve().as_uri()}?mode=ro", *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)


# ------------------------------------------------------------------ one typed error, SQLite's cause
def test_a_store_whose_integrity_check_fails_is_not_opened(tmp_path):
    path = _store(tmp_path / "p.sqlite3")
    _damage_pages(path)
    with pytest.raises(ProgressStoreError) as e:
        ProgressStore(path)
    assert e.value.cause == "corrupt" and "is damaged" in str(e.value)
    with pytest.raises(ProgressStoreError, match="is damaged"):
        read_foreign(path)  # a student's store merged by the report: refused the same way


def test_a_store_missing_a_table_is_damaged_and_class_grade_says_so_in_one_line(tmp_path, capsys):
    path = _store(course_path(tmp_path))
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE best_stars")
    conn.commit()
    conn.close()
    with pytest.raises(ProgressStoreError, match="has no table 'best_stars'") as e:
        ProgressStore(path)
    assert e.value.cause == "corrupt"
    (tmp_path / "submitted").mkdir()
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("warning: ")]
    assert len(err) == 1 and "has no table 'best_stars'" in err[0] and "Traceback" not in err[0]


def test_a_damaged_course_store_gives_class_report_one_line(tmp_path, capsys):
    _store(course_path(tmp_path))
    _damage_pages(course_path(tmp_path))
    assert main(["class", "report", "--course", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta-tutor: error: the progress store") and "is damaged" in err
    assert err.count("\n") == 1


def test_an_error_while_the_report_reads_is_a_store_error(tmp_path):
    simulate(tmp_path, students=2, items=2, seed=1, progress=False)
    with ClassReport(tmp_path) as report:
        other = sqlite3.connect(course_path(tmp_path))
        other.execute("ALTER TABLE attempts RENAME TO gone")
        other.commit()
        other.close()
        with pytest.raises(ProgressStoreError, match=r"\(SQLite: .*no such table"):
            report.refresh()


def test_a_full_disk_is_said_to_be_full(tmp_path):
    path = _store(tmp_path / "p.sqlite3", attempts=2)
    with ProgressStore(path) as store:
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL when it must grow
        big = [{"kind": "action", "text": "x" * 500}] * 200
        with pytest.raises(ProgressStoreError) as e:
            store.record(Attempt("s01", "melds", "big", "passed", stars=1, actions=big))
        assert e.value.cause == "full" and str(e.value).startswith("the disk is full")
        assert "SQLite: database or disk is full" in str(e.value)
        assert store.learners() == [f"s{i}" for i in range(2)]  # nothing of the failed save, and still usable


def test_a_read_only_store_is_said_to_be_read_only_not_foreign(tmp_path, monkeypatch):
    path = _store(tmp_path / "p.sqlite3", attempts=3)
    _read_only_connect(monkeypatch, access=False)  # the system lets it open, SQLite refuses the write
    with ProgressStore(path) as store:
        with pytest.raises(ProgressStoreError) as e:
            store.record(Attempt("s01", "l", "v", "passed"))
    assert e.value.cause == "read-only" and "is read-only here (SQLite: attempt to write a readonly database)" \
        in str(e.value)
    assert "not a canasta-tutor progress store" not in str(e.value)
    _read_only_connect(monkeypatch)  # the system says so at once: the store is not opened for writing
    with pytest.raises(ProgressStoreError, match=r"is read-only here \(the file may not be written\)") as e:
        ProgressStore(path)
    assert e.value.cause == "read-only"
    with ProgressStore(path, read_only=True) as store:  # read-only, it reads, and it writes nothing
        assert len(store.attempts()) == 3


def test_a_locked_store_is_said_to_be_locked(tmp_path):
    path = _store(tmp_path / "p.sqlite3", attempts=1)
    with ProgressStore(path) as store:
        store.conn.execute("PRAGMA busy_timeout = 50")
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another program writing
        try:
            with pytest.raises(ProgressStoreError) as e:
                store.record(Attempt("s01", "l", "v", "passed"))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert e.value.cause == "locked" and "SQLite: database is locked" in str(e.value)
        store.record(Attempt("s01", "l", "v", "passed"))  # and it works once the other is done


@pytest.mark.parametrize("name, message, cause", [
    ("SQLITE_CORRUPT", "database disk image is malformed", "corrupt"),
    ("SQLITE_FULL", "database or disk is full", "full"),
    ("SQLITE_READONLY_DBMOVED", "attempt to write a readonly database", "read-only"),
    ("SQLITE_BUSY", "database is locked", "locked"),
    ("SQLITE_IOERR_WRITE", "disk I/O error", "io"),
    ("SQLITE_CONSTRAINT_UNIQUE", "UNIQUE constraint failed: attempts.uid", "duplicate"),
    ("SQLITE_CONSTRAINT_CHECK", "CHECK constraint failed: stars", "invalid"),
    ("", "file is not a database", "not-a-store"),
])
def test_every_sqlite_error_has_its_cause_and_sqlite_words(name, message, cause):
    e = sqlite3.OperationalError(message)
    if name:
        e.sqlite_errorname = name
    err = store_error("p.sqlite3", e)
    assert isinstance(err, ProgressStoreError) and isinstance(err, OSError)
    assert err.cause == cause and f"(SQLite: {message})" in str(err) and "'p.sqlite3'" in str(err)


# ------------------------------------------------------------------ widgets keep working
def test_the_lesson_widget_plays_on_a_read_only_store_and_says_so(tmp_path, monkeypatch):
    from canasta_tutor.ui.lesson import LessonWidget, course_page

    path = _store(tmp_path / "p.sqlite3", attempts=1)
    with ProgressStore(path) as store:
        store.record(Attempt("learner", "melds", "natural-meld", "passed", stars=2))
    monkeypatch.setenv("CANASTA_TUTOR_PROGRESS", str(path))
    _read_only_connect(monkeypatch)
    w = LessonWidget("melds", hint_fn=None)
    assert w.store is not None and w.store.read_only
    assert w.view["notice"].startswith("Your progress is shown but not saved: ")
    assert w.view["levels"][0]["stars"] == 2  # read from the read-only store
    answer = w.handle({"intent": "act", "text": "meld 7 7 7"})
    assert w.player.run.status == "passed" and answer == w.view["notice"]
    assert answer.startswith("Your stars could not be saved: the progress store") and "read-only" in answer
    assert course_page().store is not None


def test_the_widgets_play_without_any_store_when_none_can_be_opened(tmp_path, monkeypatch):
    from canasta_tutor.ui.lesson import LessonWidget
    from canasta_tutor.ui.puzzle import PuzzleTrainer

    bad = tmp_path / "p.sqlite3"
    bad.write_bytes(b"not a database at all\n" * 100)
    monkeypatch.setenv("CANASTA_TUTOR_PROGRESS", str(bad))
    store, note = open_learner_store()
    assert store is None and note.startswith("Your progress will not be saved: ") and "is not a canasta-tutor" in note
    w = LessonWidget("melds", hint_fn=None)
    assert w.store is None and w.view["notice"].startswith("Your progress will not be saved")
    assert w.handle({"intent": "act", "text": "meld 7 7 7"}) == "passed"
    p = PuzzleTrainer(puzzle="c22-take-the-pack", explain=None)
    assert p.store is None and p.puzzle["notice"].startswith("Your progress will not be saved")
    assert p.handle({"intent": "play", "text": "take 9 9 9"}).startswith("Solved")


# ------------------------------------------------------------------ a report never makes a class
def test_class_report_with_an_unknown_class_makes_nothing(tmp_path, capsys):
    simulate(tmp_path, students=3, items=2, seed=1, progress=False, class_name="monday")
    (tmp_path / "progress").mkdir()
    _store(tmp_path / "progress" / "zoe.sqlite3", attempts=2)  # a student store the report would merge
    assert main(["class", "report", "--course", str(tmp_path), "--class", "TYPO"]) == 2
    err = capsys.readouterr().err
    assert "no class 'TYPO'" in err and "classes: monday" in err and err.count("\n") == 1
    with ProgressStore(course_path(tmp_path)) as store:
        assert store.classes() == ["monday"] and "zoe" not in store.learners()
    with pytest.raises(UnknownClassError):
        ClassReport(tmp_path, class_name="TYPO")
    assert main(["class", "report", "--course", str(tmp_path), "--class", "monday", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["students"] == 3
