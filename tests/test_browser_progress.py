"""Progress kept in the browser's drive (canasta_tutor.tutor.browser, docs/lite.md), exercised here with a folder
standing for the drive and two store paths standing for two kernels' memory; and the copy imported on a desktop
with ``canasta-tutor progress import``."""

from __future__ import annotations

import json
import sqlite3

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor import browser, progress
from canasta_tutor.tutor.browser import open_learner_store
from canasta_tutor.tutor.progress import Attempt, ProgressStore, ProgressStoreError


@pytest.fixture
def drive(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "AFTER_COMMIT", [])
    monkeypatch.setattr(browser, "_kept", {})
    d = tmp_path / "drive"
    d.mkdir()
    return d


def _kernel(tmp_path, name: str, drive) -> ProgressStore:
    """A kernel's store: kept in ``drive``, then opened as a widget opens it."""
    store = tmp_path / name / "progress.sqlite3"
    assert browser.keep_in_browser(store, drive) == drive / browser.DRIVE_FILE
    return ProgressStore(store)


def _passed(level: str, stars: int) -> Attempt:
    return Attempt(learner="learner", lesson="cards", level=level, status="passed", stars=stars)


def test_every_save_is_copied_to_the_drive_and_a_new_kernel_starts_from_it(tmp_path, drive):
    with _kernel(tmp_path, "first", drive) as store:
        store.record(_passed("a-turn", 3))
    copy = drive / browser.DRIVE_FILE
    with ProgressStore(copy, read_only=True) as kept:  # the copy is an ordinary store
        assert kept.stars_for("learner") == {("cards", "a-turn"): 3}
    browser._kept.clear()  # a reload: a new kernel, whose memory holds no store
    with _kernel(tmp_path, "after-reload", drive) as store:
        assert store.stars_for("learner") == {("cards", "a-turn"): 3}


def test_two_kernels_lose_none_of_each_others_attempts(tmp_path, drive):
    a = _kernel(tmp_path, "lesson", drive)
    b = _kernel(tmp_path, "start-page", drive)
    a.record(_passed("a-turn", 3))
    b.record(_passed("first-meld", 2))  # b's save merges a's attempt from the copy before writing it
    a.close()
    b.close()
    with ProgressStore(drive / browser.DRIVE_FILE, read_only=True) as kept:
        assert kept.stars_for("learner") == {("cards", "a-turn"): 3, ("cards", "first-meld"): 2}
    # a kernel opened again brings in what another saved since
    with _kernel(tmp_path, "lesson", drive) as store:
        assert store.stars_for("learner") == {("cards", "a-turn"): 3, ("cards", "first-meld"): 2}
        assert len(store.attempts("learner")) == 2


def test_no_drive_keeps_nothing_and_a_desktop_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "AFTER_COMMIT", [])
    assert browser.keep_in_browser(tmp_path / "p.sqlite3", tmp_path / "no-drive") is None
    assert not browser.IN_BROWSER
    assert browser.keep_in_browser() is None
    assert progress.AFTER_COMMIT == []


def test_the_copy_imports_on_a_desktop_once(tmp_path, drive, capsys):
    with _kernel(tmp_path, "k", drive) as store:
        store.record(_passed("a-turn", 3))
        store.record(_passed("first-meld", 1))
    desk = tmp_path / "desktop.sqlite3"
    args = ["progress", "import", str(drive / browser.DRIVE_FILE), "--store", str(desk), "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == {"file": args[2], "store": str(desk), "added": 2,
                                                   "levels_with_stars": 2}
    assert main(args) == 0  # again: nothing new
    assert json.loads(capsys.readouterr().out)["added"] == 0
    with ProgressStore(desk) as store:
        assert store.stars_for("learner") == {("cards", "a-turn"): 3, ("cards", "first-meld"): 1}


def test_a_file_that_is_not_a_store_is_refused_with_its_name(tmp_path, capsys):
    bad = tmp_path / "notes.sqlite3"
    sqlite3.connect(bad).execute("CREATE TABLE t (x)").connection.close()
    assert main(["progress", "import", str(bad), "--store", str(tmp_path / "d.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "not a canasta-tutor progress store" in err
    with pytest.raises(ProgressStoreError):
        ProgressStore(tmp_path / "d.sqlite3").merge_from(bad)


def test_the_widgets_store_in_a_browser_is_kept_or_says_it_is_not(tmp_path, drive, monkeypatch):
    assert browser.open_learner_store(tmp_path / "desk" / "progress.sqlite3")[1] == ""  # a desktop: no drive, no note
    monkeypatch.setattr(browser, "IN_BROWSER", True)  # as the widgets see a browser tab
    monkeypatch.setattr(browser, "DRIVE", tmp_path / "no-drive")
    store, note = open_learner_store(tmp_path / "tab" / "progress.sqlite3")
    assert note == browser.NOT_KEPT and store is not None and not store.read_only
    store.close()
    monkeypatch.setattr(browser, "DRIVE", drive)
    store, note = open_learner_store(tmp_path / "kept" / "progress.sqlite3")
    assert note == "" and store is not None
    with store:
        store.record(_passed("a-turn", 2))
    with ProgressStore(drive / browser.DRIVE_FILE, read_only=True) as kept:
        assert kept.stars_for("learner") == {("cards", "a-turn"): 2}


def test_a_copy_that_cannot_be_written_leaves_the_save_and_says_so(tmp_path, drive, monkeypatch):
    with _kernel(tmp_path, "k", drive) as store:
        monkeypatch.setattr(browser._Kept, "save", lambda self, conn: (_ for _ in ()).throw(OSError(28, "quota")))
        with pytest.warns(RuntimeWarning, match="not copied to the browser's storage"):
            store.record(_passed("a-turn", 3))
        assert store.stars_for("learner") == {("cards", "a-turn"): 3}
