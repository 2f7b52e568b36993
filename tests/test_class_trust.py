"""A class report a teacher can trust: nothing a student writes runs, and only replayed facts are believed.

- hostile strings (a student id, a display name, a rule and a reason holding HTML and script, a name
  that a spreadsheet reads as a formula, a name with terminal escapes) are shown as text in the HTML
  grid, the standalone page, a student's drill-down, the CSV and the command line;
- a forged store and a log with edited totals in a submission leave the report's row equal to the replay;
- the report reads the course without writing a byte to its store;
- the roster gives who has not started; nbgrader's due dates mark late submissions;
- the standalone page and the drill-down (``class report --html``, ``--student``).

The browser side (the teacher notebook run in JupyterLab on such a class: no dialog fires) is
tests/browser/test_class_browser.py.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.assignments.grading import log_path
from canasta_tutor.tutor.assignments.spec import load_assignment
from canasta_tutor.tutor.assignments.student import HINT, play_item, solution_line
from canasta_tutor.tutor.classes.report import ClassReport
from canasta_tutor.tutor.classes.safe import csv_cell, terminal_text
from canasta_tutor.tutor.progress import Attempt, ProgressStore, course_path

# nbgrader's own Gradebook warns from inside its API when a test adds a submission: not ours to mend
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")

XSS = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"
FORMULA = '=HYPERLINK("http://evil.example","open me")'
TERMINAL = "s04\x1b[2J\x1b[31mred\u202e"
ASSIGNMENT = """
id = "a1"
title = "A1"
[defaults]
points = 10
hint_penalty = 2
[[item]]
lesson = "melds"
level = "natural-meld"
[[item]]
lesson = "melds"
level = "meld-practice"
seed = 7
[[item]]
puzzle = "c22-take-the-pack"
points = 6
"""


def _hostile_course(course: Path) -> None:
    """A course store whose student strings are all hostile (as an old merge or a bug might have left it)."""
    t = "2026-01-05T10:{:02d}:00+00:00"
    with ProgressStore.for_course(course) as store:
        store.add_learner(XSS, SCRIPT)
        store.add_learner(FORMULA, "@SUM(1+1)")
        store.add_learner(TERMINAL)
        for n, who in enumerate((XSS, FORMULA, TERMINAL)):
            for m in range(2):
                store.record(Attempt(who, "melds", "natural-meld", "failed", started=t.format(n * 3 + m),
                                     finished=t.format(n * 3 + m + 1), actions=[
                                         {"kind": "refused", "text": f"meld {XSS}", "rule": f"R-{SCRIPT}",
                                          "reason": f"because {XSS} {SCRIPT}"}]))
        store.record(Attempt(XSS, "puzzles", "c22-take-the-pack", "passed", stars=3, kind="puzzle",
                             started=t.format(20), finished=t.format(21)))


def _no_markup(html: str) -> None:
    assert "<img src=x" not in html and "<script" not in html and "onerror=alert(1)>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "&lt;script&gt;alert(2)&lt;/script&gt;" in html


# ------------------------------------------------------------------ nothing a student writes runs
def test_the_grid_the_page_and_the_drill_down_escape_every_student_string(tmp_path):
    _hostile_course(tmp_path)
    with ClassReport(tmp_path) as r:
        grid = r.styled("stars").to_html()
        assert "<img" not in grid and "&lt;img src=x onerror=alert(1)&gt;" in grid
        _no_markup(r.to_html())
        _no_markup(r.student(XSS)._repr_html_())
        assert r.wrong_moves()["reason"].tolist() == [f"because {XSS} {SCRIPT}"]   # shown as text, not dropped
        for df in (r.summary(), r.wrong_moves(), r.progress(), r.themes(), r.student(XSS).wrong()):
            html = df._repr_html_()   # the notebook's plain tables: pandas escapes them
            assert "<img" not in html and "<script" not in html


def test_csv_cells_a_spreadsheet_would_read_as_formulas_are_text(tmp_path):
    _hostile_course(tmp_path)
    with ClassReport(tmp_path) as r:
        rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    names = {row["student"] for row in rows}
    assert "'" + FORMULA in names and FORMULA not in names
    assert {row["display_name"] for row in rows if row["student"] == "'" + FORMULA} == {"'@SUM(1+1)"}
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row.values())


def test_the_command_line_shows_control_characters_as_escapes(tmp_path, capsys):
    _hostile_course(tmp_path)
    assert main(["class", "report", "--course", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "s04\\x1b[2J\\x1b[31mred" in out
    assert main(["class", "report", "--course", str(tmp_path), "--student", TERMINAL]) == 0
    assert "\x1b" not in capsys.readouterr().out


def test_the_figures_draw_hostile_names_as_plain_text(tmp_path):
    _hostile_course(tmp_path)
    with ProgressStore.for_course(tmp_path) as store:
        store.record(Attempt("$\\frac{a}{$", "melds", "natural-meld", "passed", stars=1,
                             started="2026-01-06T10:00:00+00:00", finished="2026-01-06T10:01:00+00:00"))
    from canasta_tutor.tutor.classes.report import png

    with ClassReport(tmp_path) as r:
        for fig in r.figures().values():
            assert png(fig).startswith(b"\x89PNG")   # matplotlib's mathematics would raise on "$\frac{a}{$"


# ------------------------------------------------------------------ only replayed facts
def _forge_store(path: Path) -> None:
    """A student's store claiming every item solved with three stars, and invented wrong moves."""
    with ProgressStore(path) as store:
        for lesson, level in (("melds", "natural-meld"), ("melds", "meld-practice"), ("puzzles", "c22-take-the-pack")):
            for _ in range(3):
                store.record(Attempt("learner", lesson, level, "passed", stars=3, kind="assignment",
                                     started="2020-01-01T00:00:00+00:00", finished="2020-01-01T09:00:00+00:00",
                                     actions=[{"kind": "refused", "text": "meld 2 2 2", "rule": XSS,
                                               "reason": SCRIPT}]))


def test_a_forged_store_and_edited_totals_leave_the_report_equal_to_the_replay(tmp_path, capsys):
    spec = tmp_path / "a1.toml"
    spec.write_text(ASSIGNMENT, encoding="utf-8")
    a = load_assignment(spec)
    level, practice, puzzle = a.items
    folder = tmp_path / "course" / "submitted" / "s05" / "a1"
    logs = folder / "canasta-log"
    play_item(level, [["discard 5"]], logs, "s05")
    play_item(practice, [[HINT, *solution_line(practice, "s05")]], logs, "s05")
    play_item(puzzle, [["draw"]], logs, "s05")
    for item in a.items:   # every total and status edited to full marks
        data = json.loads(log_path(item, logs).read_text(encoding="utf-8"))
        data["totals"].update(solved=True, hints=0, score=item.points)
        for att in data["attempts"]:
            att.update(status="passed", hints=0)
        log_path(item, logs).write_text(json.dumps(data), encoding="utf-8")
    _forge_store(folder / "progress.sqlite3")
    (tmp_path / "course" / "progress").mkdir()
    _forge_store(tmp_path / "course" / "progress" / "s05.sqlite3")   # the shared folder too
    course = tmp_path / "course"
    assert main(["class", "grade", str(spec), "--course", str(course), "--json"]) == 0
    graded = json.loads(capsys.readouterr().out)["students"][0]
    assert graded["items"] == {"melds-natural-meld": 0, "melds-meld-practice": 8, "puzzle-3": 0}
    with ClassReport(course) as r:
        row = r.cells().set_index("item").loc[:, ["solved", "stars", "hints", "attempts"]]
        # the forged shared store's attempts were replayed: its three "meld 2 2 2" tries fail each level again
        assert row.loc["melds/meld-practice", "solved"] and row.loc["melds/meld-practice", "hints"] == 1
        assert not row.loc["melds/natural-meld", "solved"]
        assert not row.loc["puzzles/c22-take-the-pack", "solved"]
        assert r.table("stars").at["s05", "melds/natural-meld"] == 0
        moves = r.wrong
        assert XSS not in set(moves["rule"]) and SCRIPT not in set(moves["reason"])
        assert all(re.fullmatch(r"(R-[A-Z]+-\d+)?", rule) for rule in moves["rule"])   # the engine's own
        assert "Left out: 1 progress store found in submissions" in r.notes()[0]
        assert r.summary().at["s05", "reported_minutes"] >= 0


def test_the_report_writes_nothing_into_the_course(tmp_path):
    _hostile_course(tmp_path)
    (tmp_path / "progress").mkdir()
    with ProgressStore(tmp_path / "progress" / "zoe.sqlite3") as own:
        own.record(Attempt("learner", "melds", "natural-meld", "passed", stars=3,
                           actions=[{"kind": "action", "text": "meld 7 7 7"}]))
    store = course_path(tmp_path)
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    files = sorted(p.name for p in tmp_path.iterdir())
    with ClassReport(tmp_path) as r:
        r.refresh()
        r.to_html(tmp_path.parent / f"{tmp_path.name}-page.html")
        r.text()
        assert "zoe" in r.students()
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == files


# ------------------------------------------------------------------ the teacher's workflow
@pytest.fixture(scope="module")
def empty_gradebook(tmp_path_factory):
    """An empty nbgrader gradebook, made once (nbgrader runs its `alembic` program, by name, to make one)."""
    from nbgrader.api import Gradebook

    db = tmp_path_factory.mktemp("gradebook") / "gradebook.db"
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + path
    try:
        with Gradebook(f"sqlite:///{db}", "course"):
            pass
    finally:
        os.environ["PATH"] = path
    return db


def _gradebook(course: Path, empty: Path):
    from nbgrader.api import Gradebook

    shutil.copyfile(empty, course / "gradebook.db")
    return Gradebook(f"sqlite:///{course / 'gradebook.db'}", "course")


@pytest.fixture
def graded_course(tmp_path, empty_gradebook):
    """A course with nbgrader's gradebook: a roster of three, a due date, one late submission."""
    course = tmp_path / "course"
    course.mkdir()
    due = datetime(2026, 1, 10, 12, 0)
    with _gradebook(course, empty_gradebook) as gb:
        gb.add_assignment("a1", duedate=due)
        for s in ("s01", "s02", "s03"):
            gb.add_student(s)
        gb.add_submission("a1", "s01", timestamp=due - timedelta(hours=1))
        gb.add_submission("a1", "s02", timestamp=due + timedelta(hours=2, minutes=30))
    with ProgressStore.for_course(course) as store:
        for s in ("s01", "s02"):
            store.record(Attempt(s, "melds", "natural-meld", "passed", stars=3, kind="assignment", assignment="a1",
                                 started="2026-01-09T10:00:00+00:00", finished="2026-01-09T10:02:00+00:00"))
    return course


def test_the_report_lists_who_has_not_started_and_marks_late_submissions(graded_course, capsys):
    with ClassReport(graded_course) as r:
        assert r.students() == ["s01", "s02", "s03"] and r.not_started() == ["s03"]
        assert r.late()[["student", "assignment", "hours_late"]].values.tolist() == [["s02", "a1", 2.5]]
        assert r.summary()["late"].to_dict() == {"s01": "", "s02": "a1 (2.5 h)", "s03": ""}
        assert r.grid().splitlines()[-1] == "s03  ."
        page = r.to_html()
    assert "Not started" in page and re.search(r"<p>s03</p>", page) and "a1 (2.5 h)" in page
    assert main(["class", "report", "--course", str(graded_course)]) == 0
    out = capsys.readouterr().out
    assert "Not started: s03" in out and "a1 (2.5 h)" in out


def test_class_report_html_and_one_students_drill_down(graded_course, tmp_path, capsys):
    page = tmp_path / "report.html"
    assert main(["class", "report", "--course", str(graded_course), "--html", str(page)]) == 0
    assert f"The report as one page: {page}" in capsys.readouterr().out
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<script" not in html and 'id="student-3"' in html
    assert "position: sticky" in html and "not tried" in html
    assert main(["class", "report", "--course", str(graded_course), "--student", "s02", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [i["item"] for i in data["items"]] == ["melds/natural-meld"] and data["wrong_moves"] == []
    assert main(["class", "report", "--course", str(graded_course), "--student", "nobody"]) == 2
    assert "no student 'nobody'" in capsys.readouterr().err


def test_class_grade_fix_writes_the_replayed_score_into_the_gradebook(tmp_path, capsys, empty_gradebook):
    """`--fix` on a gradebook that holds another score than the replay (nbgrader's kernel was fooled)."""
    from nbgrader.api import Gradebook

    spec = tmp_path / "a1.toml"
    spec.write_text(ASSIGNMENT, encoding="utf-8")
    a = load_assignment(spec)
    course = tmp_path / "course"
    assert main(["class", "assign", str(spec), "--course", str(course)]) == 0
    logs = course / "submitted" / "s01" / "a1" / "canasta-log"
    play_item(a.items[0], [["meld 7 7 7"]], logs, "s01")
    with _gradebook(course, empty_gradebook) as gb:   # what autograde would make
        gb.add_assignment("a1")
        gb.add_notebook("a1", "a1")
        for item in a.items:
            gb.add_grade_cell(f"{item.id}-grade", "a1", "a1", max_score=item.points, cell_type="code")
        gb.add_student("s01")
        sub = gb.add_submission("a1", "s01")
        for g in sub.notebooks[0].grades:
            g.auto_score = g.max_score   # full marks: a kernel fooled by the student's own code
        gb.db.commit()
    capsys.readouterr()
    assert main(["class", "grade", str(spec), "--course", str(course), "--no-store"]) == 1
    assert "the gradebook differs from the replay in 2 places (--fix writes" in capsys.readouterr().out
    assert main(["class", "grade", str(spec), "--course", str(course), "--no-store", "--fix"]) == 0
    out = capsys.readouterr().out
    assert "the gradebook now holds the replay's score in 2 places (its manual score):" in out
    assert "  s01: melds-meld-practice: 10 -> 0" in out and "  s01: puzzle-3: 6 -> 0" in out
    assert "the gradebook agrees with the replay for every item" in out
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "course") as gb:
        assert gb.find_submission("a1", "s01").score == 10
    shutil.rmtree(course / "submitted")


# ------------------------------------------------------------------ any string at all
HOSTILE = st.text(alphabet=st.sampled_from(list("<>&\"'=+-@ /ab\t\r\n\x1b\x07\u202e\u200bé$")), min_size=1,
                  max_size=12)


@given(HOSTILE)
def test_no_string_reaches_a_terminal_or_a_spreadsheet_as_anything_but_text(name):
    shown = terminal_text(name)
    assert not any((ord(c) < 32 and c not in "\n\t") or c in "\x7f\u202e\u200b" for c in shown)
    cell = csv_cell(name)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) and cell in (name, "'" + name)


@settings(max_examples=10, deadline=None)
@given(st.lists(HOSTILE.map(lambda s: f"Q{s}Q"), min_size=1, max_size=3, unique=True))
def test_no_student_string_reaches_the_page_as_markup(tmp_path_factory, names):
    """Each name between two Qs, so that a name found in the page is the name, not a piece of markup."""
    course = tmp_path_factory.mktemp("any")
    with ProgressStore.for_course(course) as store:
        for n, name in enumerate(names):
            store.add_learner(name, name)
            store.record(Attempt(name, "melds", "natural-meld", "failed", started=f"2026-01-05T10:0{n}:00+00:00",
                                 finished=f"2026-01-05T10:0{n}:30+00:00",
                                 actions=[{"kind": "refused", "text": name, "rule": name, "reason": name}]))
    with ClassReport(course) as r:
        pages = [r.to_html(), r.styled("stars").to_html(), r.student(names[0])._repr_html_()]
    for page in pages:
        for name in names:
            if set(name) & set("<>&\"'"):
                assert name not in page, name
