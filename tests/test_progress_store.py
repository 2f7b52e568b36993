"""The progress store: stars per level per learner, atomic saves, a writer killed mid-run
loses nothing it committed, and a foreign or damaged file gives one clear error."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from canasta_tutor.tutor.lessons.runner import DEMO, LevelRun
from canasta_tutor.tutor.lessons.loader import parse_lesson
from canasta_tutor.tutor.progress import ENV_VAR, Attempt, ProgressStore, ProgressStoreError, default_path, read_foreign


def test_stars_per_level_per_learner_keep_the_best(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record(Attempt("s03", "freezing", "one", "passed", stars=2))
        store.record(Attempt("s03", "freezing", "one", "passed", stars=1))   # worse: best stays 2
        store.record(Attempt("s03", "freezing", "two", "failed"))            # failed: no stars entry
        store.record(Attempt("s04", "freezing", "one", "passed", stars=3))
        assert store.stars_for("s03") == {("freezing", "one"): 2}
        assert store.stars_for("s04") == {("freezing", "one"): 3}
        assert store.learners() == ["s03", "s04"]
        assert len(store.attempts("s03")) == 3


def test_a_played_level_is_saved_with_its_actions_and_rules(tmp_path: Path) -> None:
    level = parse_lesson(DEMO, "demo.toml").levels[0]
    run = LevelRun(level, hint_fn=None)
    run.play("discard 4")       # refused: R-TURN-2
    run.play("take 9 9 9")
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record(run.attempt("s03"))
        (saved,) = store.attempts("s03")
    assert saved["status"] == "passed" and saved["lesson"] == "demo" and saved["level"] == "take-frozen"
    assert saved["tries"] == 2 and saved["par"] == 1
    refused = [a for a in saved["actions"] if a["kind"] == "refused"]
    assert refused == [{"kind": "refused", "text": "discard 4", "rule": "R-TURN-2",
                        "reason": "Draw from the stock or take the pack before discarding"}]  # the engine's reason


def test_store_survives_reopening_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record(Attempt("s03", "l", "v", "passed", stars=3))
    with ProgressStore(path) as store:
        assert store.stars_for("s03") == {("l", "v"): 3}
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.integrity() == "ok"


def test_a_failed_save_leaves_nothing_behind(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        with pytest.raises(ProgressStoreError, match=r"refused the data as invalid \(SQLite: CHECK constraint") as e:
            store.record(Attempt("s03", "l", "v", "passed", stars=7))  # CHECK (stars BETWEEN 0 AND 3)
        assert e.value.cause == "invalid"
        assert store.attempts() == [] and store.stars_for("s03") == {}


def test_path_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "x" / "progress.db"))
    assert default_path() == tmp_path / "x" / "progress.db"
    with ProgressStore() as store:
        assert store.path == tmp_path / "x" / "progress.db"
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform.startswith("linux"):
        assert default_path() == tmp_path / "data" / "canasta-tutor" / "progress.sqlite3"


def test_a_file_that_is_not_a_database_gives_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    with pytest.raises(ProgressStoreError, match="is not a canasta-tutor progress store"):
        ProgressStore(path)


def test_another_programs_sqlite_file_gives_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE songs (title TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(ProgressStoreError, match="another program"):
        ProgressStore(path)


def test_a_damaged_store_gives_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record(Attempt("s03", "l", "v", "passed", stars=3))
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[0:16] = b"garbage garbage!"
    path.write_bytes(bytes(data))
    with pytest.raises(ProgressStoreError):
        ProgressStore(path)


WRITER = """
import sys
from canasta_tutor.tutor.progress import Attempt, ProgressStore
store = ProgressStore(sys.argv[1])
n = 0
while True:
    actions = [{"kind": "action", "text": f"discard {k % 9 + 4}"} for k in range(40)]
    aid = store.record(Attempt("learner%d" % (n % 3), "lesson", "level%d" % n, "passed", stars=n % 3 + 1,
                               tries=n, actions=actions))
    print(aid, n, flush=True)
    n += 1
"""


def test_a_writer_killed_mid_run_loses_nothing_committed(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    committed: list[tuple[int, int]] = []
    deadline = time.monotonic() + 60
    try:
        assert proc.stdout is not None
        while len(committed) < 25 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            aid, n = line.split()
            committed.append((int(aid), int(n)))
    finally:
        os.kill(proc.pid, signal.SIGKILL)   # mid-run: the writer is in its loop, saving
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert len(committed) >= 25
    with ProgressStore(path) as store:
        assert store.integrity() == "ok"
        saved = {a["id"]: a for a in store.attempts()}
        for aid, n in committed:
            a = saved[aid]
            assert (a["level"], a["tries"], a["stars"]) == (f"level{n}", n, n % 3 + 1)
            assert len(a["actions"]) == 40
        # every attempt in the file is whole: all its 40 actions or none of it
        assert all(len(a["actions"]) == 40 for a in saved.values())
        for _aid, n in committed:
            assert store.stars_for(f"learner{n % 3}")[("lesson", f"level{n}")] == n % 3 + 1


def test_a_store_opened_in_one_thread_saves_from_another(tmp_path: Path) -> None:
    """A notebook kernel may handle a widget's message on another thread than the cell that made it."""
    import threading

    with ProgressStore(tmp_path / "p.sqlite3") as store:
        errors: list[BaseException] = []

        def save() -> None:
            try:
                store.record(Attempt("s03", "l", "v", "passed", stars=2))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        t = threading.Thread(target=save)
        t.start()
        t.join()
        assert errors == [] and store.stars_for("s03") == {("l", "v"): 2}


# ------------------------------------------------------------------ schema 2: students, classes, attempts

V1_SCHEMA = """
CREATE TABLE learners (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL);
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY, learner_id INTEGER NOT NULL REFERENCES learners(id),
    kind TEXT NOT NULL DEFAULT 'lesson', lesson TEXT NOT NULL, level TEXT NOT NULL,
    seed INTEGER NOT NULL DEFAULT 0, started TEXT NOT NULL, finished TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'open')),
    stars INTEGER NOT NULL DEFAULT 0 CHECK (stars BETWEEN 0 AND 3), tries INTEGER NOT NULL DEFAULT 0,
    par INTEGER, hints INTEGER NOT NULL DEFAULT 0, rating_before REAL, rating_after REAL);
CREATE INDEX attempts_by_learner ON attempts (learner_id, lesson, level);
CREATE TABLE attempt_actions (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id), n INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'refused', 'hint', 'reply')), text TEXT NOT NULL,
    rule TEXT NOT NULL DEFAULT '', PRIMARY KEY (attempt_id, n));
CREATE TABLE best_stars (
    learner_id INTEGER NOT NULL REFERENCES learners(id), lesson TEXT NOT NULL, level TEXT NOT NULL,
    stars INTEGER NOT NULL CHECK (stars BETWEEN 0 AND 3), updated TEXT NOT NULL,
    PRIMARY KEY (learner_id, lesson, level));
INSERT INTO learners VALUES (1, 's03', '2026-01-05T10:00:00+00:00');
INSERT INTO attempts VALUES (1, 1, 'lesson', 'freezing', 'one', 3, '2026-01-05T10:00:00+00:00',
    '2026-01-05T10:02:00+00:00', 'passed', 2, 2, 1, 0, NULL, NULL);
INSERT INTO attempt_actions VALUES (1, 0, 'refused', 'discard 4', 'R-TURN-2');
INSERT INTO attempt_actions VALUES (1, 1, 'action', 'take 9 9 9', '');
INSERT INTO best_stars VALUES (1, 'freezing', 'one', 2, '2026-01-05T10:02:00+00:00');
PRAGMA application_id = 1131304053;
PRAGMA user_version = 1;
"""


def _v1_store(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def test_a_version_1_store_is_migrated_and_keeps_its_attempts(tmp_path: Path) -> None:
    from canasta_tutor.tutor.progress import SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    _v1_store(path)
    with ProgressStore(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert store.integrity() == "ok"
        (old,) = store.attempts("s03")
        assert (old["lesson"], old["level"], old["stars"], old["seed"]) == ("freezing", "one", 2, 3)
        assert old["actions"][0] == {"kind": "refused", "text": "discard 4", "rule": "R-TURN-2", "reason": ""}
        assert len(old["uid"]) == 32 and old["themes"] == [] and old["assignment"] == "" and old["mode"] == ""
        assert store.stars_for("s03") == {("freezing", "one"): 2}
        # the new parts work on the migrated file
        store.record(Attempt("s03", "puzzles", "c01", "failed", kind="puzzle", themes=["frozen-pack"],
                             actions=[{"kind": "wrong", "text": "draw", "reason": "the pack is worth more"}]))
        store.add_to_class("monday", "s03", "s04")
        assert store.class_members("monday") == ["s03", "s04"]
    with ProgressStore(path) as store:   # reopening does not migrate again
        assert store.attempts()[0]["uid"] == old["uid"]


def _v2_store(path: Path) -> None:
    """A version 2 store (no ``mode``, none of version 4's review tables) with one puzzle attempt."""
    with ProgressStore(path) as store:
        store.record(Attempt("s03", "puzzles", "c01", "passed", kind="puzzle", themes=["frozen-pack"],
                             actions=[{"kind": "action", "text": "draw"}]))
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE attempts DROP COLUMN mode")
    for table in ("review_mistakes", "review_cards", "review_sync"):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def test_a_version_2_store_is_migrated_and_its_attempts_have_no_mode(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite3"
    _v2_store(path)
    rows, _ = read_foreign(path)  # read as it is, without writing
    assert rows[0]["mode"] == "" and rows[0]["level"] == "c01"
    with ProgressStore(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 4
        assert store.integrity() == "ok"
        store.record(Attempt("s03", "puzzles", "c02", "failed", kind="puzzle", mode="timed"))
        assert [(a["level"], a["mode"]) for a in store.attempts("s03")] == [("c01", ""), ("c02", "timed")]
    with ProgressStore(tmp_path / "course.sqlite3") as course:  # the mode travels with a merge
        assert course.merge_from(path) == 2
        assert [a["mode"] for a in course.attempts()] == ["", "timed"]


def test_students_classes_and_the_attempts_fields(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.add_learner("s01", "Student One")
        store.add_class("monday", "Monday evening")
        store.add_to_class("monday", "s01", "s02")
        store.add_to_class("tuesday", "s02")
        aid = store.record(Attempt("s01", "puzzles", "c01-frozen-by-a-deuce", "passed", stars=3, kind="puzzle",
                                   started="2026-01-05T10:00:00+00:00", finished="2026-01-05T10:00:40+00:00",
                                   hints=1, rating_before=1500.0, rating_after=1532.5, themes=["frozen-pack"],
                                   assignment="week1", actions=[
                                       {"kind": "refused", "text": "take 9 9", "rule": "R-PACK-3",
                                        "reason": "the pack is frozen"},
                                       {"kind": "hint", "text": "Look at the pile."},
                                       {"kind": "action", "text": "draw"}]))
        assert store.classes() == ["monday", "tuesday"]
        assert store.class_members("monday") == ["s01", "s02"] and store.class_members("tuesday") == ["s02"]
        assert store.display_names() == {"s01": "Student One", "s02": "s02"}
        (a,) = store.attempts("s01")
        assert a["id"] == aid and a["kind"] == "puzzle" and a["assignment"] == "week1"
        assert a["themes"] == ["frozen-pack"] and (a["rating_before"], a["rating_after"]) == (1500.0, 1532.5)
        assert (a["started"], a["finished"], a["hints"]) == ("2026-01-05T10:00:00+00:00",
                                                             "2026-01-05T10:00:40+00:00", 1)
        assert a["actions"][0] == {"kind": "refused", "text": "take 9 9", "rule": "R-PACK-3",
                                   "reason": "the pack is frozen"}
        assert [x["kind"] for x in a["actions"]] == ["refused", "hint", "action"]
        with pytest.raises(ProgressStoreError, match="CHECK constraint failed: kind IN"):   # not an action kind
            store.record(Attempt("s01", "l", "v", "failed", actions=[{"kind": "shout", "text": "!"}]))
        assert len(store.attempts()) == 1


def test_merging_a_students_store_is_idempotent_and_reads_only(tmp_path: Path) -> None:
    course = tmp_path / "course"
    student = tmp_path / "s01.sqlite3"
    with ProgressStore(student) as store:
        store.record(Attempt("learner", "freezing", "one", "passed", stars=3,
                             actions=[{"kind": "action", "text": "take 9 9 9"}]))
        store.record(Attempt("learner", "puzzles", "c02", "failed", kind="puzzle"))
    old = tmp_path / "s02.sqlite3"
    _v1_store(old)
    student.chmod(0o444)
    try:
        with ProgressStore.for_course(course) as store:
            assert store.path == course / "progress.sqlite3"
            assert store.merge_from(student, as_learner="s01", class_name="monday") == 2
            assert store.merge_from(student, as_learner="s01", class_name="monday") == 0
            assert store.merge_from(old, class_name="monday") == 1
            assert store.merge_from(old, class_name="monday") == 0
            assert store.class_members("monday") == ["s01", "s03"]
            assert store.stars_for("s01") == {("freezing", "one"): 3}
            assert [x["text"] for x in store.attempts("s01")[0]["actions"]] == ["take 9 9 9"]
            assert store.learners() == ["s01", "s03"]
    finally:
        student.chmod(0o644)
    with ProgressStore(old) as store:   # merging read the old file without migrating it ... until now
        assert len(store.attempts()) == 1
    with pytest.raises(ProgressStoreError, match="no progress store"):
        ProgressStore(tmp_path / "x.sqlite3").merge_from(tmp_path / "missing.sqlite3")


def test_merging_a_foreign_file_gives_one_clear_error(tmp_path: Path) -> None:
    notes = tmp_path / "notes.sqlite3"
    notes.write_bytes(b"not a database at all\n" * 100)
    with ProgressStore(tmp_path / "p.sqlite3") as store, pytest.raises(ProgressStoreError, match="is not a"):
        store.merge_from(notes)


def test_a_newer_store_is_refused_with_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(ProgressStoreError, match="newer canasta-tutor"):
        ProgressStore(path)


WRITER_N = """
import sys
from canasta_tutor.tutor.progress import Attempt, ProgressStore
store = ProgressStore(sys.argv[1])
who, n = sys.argv[2], int(sys.argv[3])
for k in range(n):
    store.record(Attempt(who, "lesson", f"level{k}", "passed", stars=k % 3 + 1, tries=k,
                         actions=[{"kind": "action", "text": "draw"}] * 5))
"""


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    n = 150
    procs = [subprocess.Popen([sys.executable, "-c", WRITER_N, str(path), who, str(n)]) for who in ("s03", "s04")]
    for p in procs:
        assert p.wait(timeout=120) == 0
    with ProgressStore(path) as store:
        assert store.integrity() == "ok"
        for who in ("s03", "s04"):
            mine = store.attempts(who)
            assert sorted(a["tries"] for a in mine) == list(range(n))
            assert all(len(a["actions"]) == 5 for a in mine)
            assert len(store.stars_for(who)) == n


def test_two_processes_opening_a_version_1_store_at_once_migrate_it_once(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _v1_store(path)
    code = ("import sys; from canasta_tutor.tutor.progress import ProgressStore; "
            "s = ProgressStore(sys.argv[1]); print(len(s.attempts()))")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0] and outs == ["1", "1"]
    with ProgressStore(path) as store:
        assert store.integrity() == "ok" and len(store.attempts()) == 1


def test_data_version_moves_when_another_connection_commits(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as reader, ProgressStore(path) as writer:
        v = reader.data_version()
        assert reader.data_version() == v
        writer.record(Attempt("s03", "l", "v", "passed", stars=1))
        assert reader.data_version() != v


def test_merging_a_store_whose_folder_the_reader_may_not_write(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed WAL store in a read-only folder: the ``-shm`` index cannot be made, so it is read as immutable."""
    student = tmp_path / "s01.sqlite3"
    with ProgressStore(student) as store:
        store.record(Attempt("learner", "freezing", "one", "passed", stars=3))
    assert not (tmp_path / "s01.sqlite3-wal").exists()
    real = sqlite3.connect
    uris: list[str] = []

    def connect(database: str, *args: object, **kwargs: object) -> sqlite3.Connection:
        uris.append(str(database))
        if "mode=ro" in str(database) and "immutable=1" not in str(database):
            raise sqlite3.OperationalError("unable to open database file")   # what a read-only folder gives
        return real(database, *args, **kwargs)   # type: ignore[arg-type]

    with ProgressStore(tmp_path / "course.sqlite3") as course:
        monkeypatch.setattr(sqlite3, "connect", connect)
        assert course.merge_from(student, as_learner="s01") == 1
        monkeypatch.undo()
        assert course.stars_for("s01") == {("freezing", "one"): 3}
    assert any("immutable=1" in u for u in uris)
