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
from canasta_tutor.tutor.progress import ENV_VAR, Attempt, ProgressStore, ProgressStoreError, default_path


def test_stars_per_level_per_learner_keep_the_best(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record(Attempt("ada", "freezing", "one", "passed", stars=2))
        store.record(Attempt("ada", "freezing", "one", "passed", stars=1))   # worse: best stays 2
        store.record(Attempt("ada", "freezing", "two", "failed"))            # failed: no stars entry
        store.record(Attempt("bob", "freezing", "one", "passed", stars=3))
        assert store.stars_for("ada") == {("freezing", "one"): 2}
        assert store.stars_for("bob") == {("freezing", "one"): 3}
        assert store.learners() == ["ada", "bob"]
        assert len(store.attempts("ada")) == 3


def test_a_played_level_is_saved_with_its_actions_and_rules(tmp_path: Path) -> None:
    level = parse_lesson(DEMO, "demo.toml").levels[0]
    run = LevelRun(level, hint_fn=None)
    run.play("discard 4")       # refused: R-TURN-2
    run.play("take 9 9 9")
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record(run.attempt("ada"))
        (saved,) = store.attempts("ada")
    assert saved["status"] == "passed" and saved["lesson"] == "demo" and saved["level"] == "take-frozen"
    assert saved["tries"] == 2 and saved["par"] == 1
    refused = [a for a in saved["actions"] if a["kind"] == "refused"]
    assert refused == [{"kind": "refused", "text": "discard 4", "rule": "R-TURN-2"}]


def test_store_survives_reopening_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record(Attempt("ada", "l", "v", "passed", stars=3))
    with ProgressStore(path) as store:
        assert store.stars_for("ada") == {("l", "v"): 3}
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.integrity() == "ok"


def test_a_failed_save_leaves_nothing_behind(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        with pytest.raises(sqlite3.IntegrityError):
            store.record(Attempt("ada", "l", "v", "passed", stars=7))  # CHECK (stars BETWEEN 0 AND 3)
        assert store.attempts() == [] and store.stars_for("ada") == {}


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
        store.record(Attempt("ada", "l", "v", "passed", stars=3))
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
                store.record(Attempt("ada", "l", "v", "passed", stars=2))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        t = threading.Thread(target=save)
        t.start()
        t.join()
        assert errors == [] and store.stars_for("ada") == {("l", "v"): 2}
