"""The Jupyter server extension (canasta_tutor/jupyter_ext): its endpoints, served by a real
``jupyter server`` with a token (one per module, about three seconds to start), and the
course placement that never overwrites a learner's change.

The browser tests of the whole extension, from the built wheel in a fresh virtual
environment, are in ``tests/browser/test_extension_browser.py``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from canasta_tutor.jupyter_ext.panel import course_listing, progress_report, store_fingerprint
from canasta_tutor.jupyter_ext.placement import MANIFEST, PlacementError, course_notebooks, place_course
from canasta_tutor.tutor.progress import Attempt, ProgressStore, ProgressStoreError

TOKEN = "canasta-test-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url: str, root: Path, store: Path, log: Path) -> None:
        self.url, self.root, self.store, self.log = url, root, store, log

    def call(self, path: str, method: str = "GET", token: str | None = TOKEN,
             headers: dict[str, str] | None = None) -> tuple[int, dict, dict]:
        """(status, JSON body or {}, headers) of a request to ``/canasta-tutor/api/<path>``."""
        req = urllib.request.Request(f"{self.url}/canasta-tutor/api/{path}", method=method,
                                     data=b"{}" if method == "POST" else None, headers=dict(headers or {}))
        if token:
            req.add_header("Authorization", f"token {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                body, status, hdrs = r.read(), r.status, dict(r.headers)
        except urllib.error.HTTPError as e:
            body, status, hdrs = e.read(), e.code, dict(e.headers)
        try:
            data = json.loads(body) if body else {}
        except ValueError:
            data = {"not-json": body[:200].decode(errors="replace")}
        return status, data, hdrs


# A real Jupyter server in a child process (seconds of CPU to start): the tests that talk to it are marked slow,
# so `make test` runs them; the quick loop keeps the course placement and the progress report, called directly.
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("jupyter-ext")
    root, home, store = tmp / "root", tmp / "home", tmp / "data" / "progress.sqlite3"
    root.mkdir()
    port = _free_port()
    env = {**os.environ, "CANASTA_TUTOR_PROGRESS": str(store), "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTER_DATA_DIR": str(home / "data")}
    log = tmp / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyter", "server", "--no-browser", "--ip=127.0.0.1",
                                 f"--port={port}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}",
                                 f"--IdentityProvider.token={TOKEN}", "--allow-root"],
                                env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    srv = Server(f"http://127.0.0.1:{port}", root, store, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if srv.call("course")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield srv
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def _pass_level(store: Path, lesson: str = "cards", level: str = "a-turn", stars: int = 3) -> None:
    with ProgressStore(store) as s:
        s.record(Attempt(learner="learner", lesson=lesson, level=level, status="passed", stars=stars))


# ---------------------------------------------------------------- the endpoints


@pytest.mark.slow
@pytest.mark.parametrize("path,method", [("course", "GET"), ("course", "POST"), ("progress", "GET"),
                                         ("rules", "GET")])
def test_requests_without_the_token_are_refused(server, path, method):
    status, _, _ = server.call(path, method, token=None)
    assert status == 403
    status, _, _ = server.call(path, method, token="not-the-token")
    assert status == 403
    assert not (server.root / "canasta-tutor").exists()  # a refused POST placed nothing


@pytest.mark.slow
def test_the_course_lists_every_lesson_with_its_notebook(server):
    status, course, _ = server.call("course")
    assert status == 200
    assert len(course["lessons"]) >= 12
    assert course["start"] == "canasta-tutor/index.ipynb"
    assert course["pages"]["rules"] == "canasta-tutor/rules.md"
    files = course_notebooks()
    for lesson in course["lessons"]:
        assert lesson["notebook"].removeprefix("canasta-tutor/") in files, lesson
        assert lesson["max_stars"] == 3 * lesson["levels"] > 0


@pytest.mark.slow
def test_a_missing_store_is_a_clear_json_error_and_is_not_created(server):
    server.store.unlink(missing_ok=True)
    status, data, headers = server.call("progress")
    assert status == 404
    assert data["error"] == "no-store"
    assert "once you finish a level" in data["message"]
    assert not server.store.exists()  # reading never creates the store
    status, _, _ = server.call("progress", headers={"If-None-Match": headers["Etag"]})
    assert status == 304  # the panel's polls while there is no store cost nothing


@pytest.mark.slow
def test_a_damaged_store_is_a_clear_json_error(server):
    server.store.parent.mkdir(parents=True, exist_ok=True)
    server.store.write_bytes(b"this is not a database, it is a text file the learner saved here" * 40)
    try:
        status, data, _ = server.call("progress")
        assert status == 500
        assert data["error"] == "damaged-store"
        assert data["message"].startswith("Your progress cannot be read:")
        assert "progress store" in data["message"] and str(server.store.name) in data["message"]
    finally:
        server.store.unlink()


@pytest.mark.slow
def test_progress_shows_a_new_star_and_answers_304_while_nothing_changed(server):
    server.store.unlink(missing_ok=True)
    _pass_level(server.store, stars=2)
    status, data, headers = server.call("progress")
    assert status == 200
    assert data["lessons"]["cards"]["stars"] == 2 and data["lessons"]["cards"]["solved"] == 1
    assert data["puzzles"] == {"tried": 0, "solved": 0, "rating": None, "deviation": None}
    # a level passed with fewer than three stars is in the review queue (issue 35), due in minutes
    assert set(data["review"]) == {"due", "overdue", "today", "queued"} and data["review"]["queued"] == 1
    tag = headers["Etag"]
    status, _, _ = server.call("progress", headers={"If-None-Match": tag})
    assert status == 304
    _pass_level(server.store, level="ace-counts-twenty", stars=3)
    status, data, headers = server.call("progress", headers={"If-None-Match": tag})
    assert status == 200 and headers["Etag"] != tag
    assert data["lessons"]["cards"]["stars"] == 5 and data["stars"] == 5
    server.store.unlink()


@pytest.mark.slow
def test_the_rule_book_endpoint_gives_every_rule_number(server):
    status, data, _ = server.call("rules")
    assert status == 200
    assert "R-PACK-4" in data["rules"] and "**R-PACK-4**" in data["markdown"]


@pytest.mark.slow
def test_placing_the_course_never_overwrites_an_edited_notebook(server):
    status, first, _ = server.call("course", "POST")
    assert status == 200 and first["placed"]
    folder = server.root / "canasta-tutor"
    assert "index.ipynb" in first["placement"]["written"]
    lesson = folder / "lessons" / "01-cards.ipynb"
    edited = lesson.read_text().replace("Lesson 1", "Lesson 1 (my notes: deuces are wild)")
    lesson.write_text(edited)
    status, again, _ = server.call("course", "POST")
    assert status == 200
    assert again["placement"]["written"] == []
    assert again["placement"]["kept"] == ["lessons/01-cards.ipynb"]
    assert lesson.read_text() == edited


# ---------------------------------------------------------------- placement and the panel's data


def test_placement_brings_untouched_files_up_to_date_and_respects_deletions(tmp_path):
    dest = tmp_path / "canasta-tutor"
    place_course(dest)
    manifest = json.loads((dest / MANIFEST).read_text())
    # an older package's copy of the start page, untouched by the learner since it was written
    old = b'{"cells": [], "note": "an older version"}'
    (dest / "index.ipynb").write_bytes(old)
    import hashlib

    manifest["files"]["index.ipynb"] = hashlib.sha256(old).hexdigest()
    (dest / MANIFEST).write_text(json.dumps(manifest))
    (dest / "play.ipynb").unlink()                     # the learner deleted the card table
    mine = dest / "lessons" / "02-melds.ipynb"
    mine.write_text("my own version")                  # and rewrote a lesson
    done = place_course(dest)
    assert done.written == ["index.ipynb"]
    assert (dest / "index.ipynb").read_bytes() == course_notebooks()["index.ipynb"].read_bytes()
    assert done.deleted == ["play.ipynb"] and not (dest / "play.ipynb").exists()
    assert done.kept == ["lessons/02-melds.ipynb"] and mine.read_text() == "my own version"
    assert done.current == len(course_notebooks()) - 3


def test_placement_keeps_a_file_that_was_there_before_and_refuses_a_file_as_folder(tmp_path):
    dest = tmp_path / "canasta-tutor"
    dest.mkdir()
    (dest / "welcome.ipynb").write_text("the learner's own welcome")
    done = place_course(dest)
    assert "welcome.ipynb" in done.kept
    assert (dest / "welcome.ipynb").read_text() == "the learner's own welcome"
    assert place_course(dest).written == []            # the second time writes nothing
    with pytest.raises(PlacementError, match="is not a folder"):
        place_course(dest / "welcome.ipynb")


def test_progress_report_reads_the_puzzle_rating(tmp_path):
    from canasta_tutor.tutor.puzzles.library import load_library

    store = tmp_path / "progress.sqlite3"
    puzzle = load_library()[0]
    with ProgressStore(store) as s:
        s.record(Attempt(learner="learner", kind="puzzle", lesson="puzzles", level=puzzle.id, status="passed"))
    data = progress_report(store)
    assert data["puzzles"]["tried"] == 1 and data["puzzles"]["solved"] == 1
    assert data["puzzles"]["rating"] > 1500
    assert store_fingerprint(store) is not None and store_fingerprint(tmp_path / "none") is None


def test_progress_report_raises_the_store_error_for_a_damaged_file(tmp_path):
    bad = tmp_path / "progress.sqlite3"
    bad.write_bytes(b"\x00garbage" * 100)
    with pytest.raises(ProgressStoreError):
        progress_report(bad)


def test_course_listing_without_a_folder_uses_root_paths():
    course = course_listing("")
    assert course["start"] == "index.ipynb"
    assert course["lessons"][0]["notebook"] == "lessons/01-cards.ipynb"
