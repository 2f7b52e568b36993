"""The class report and the simulated class: tables checked against a hand-made store, the
simulation reproducible and made of real engine refusals, refresh while students work, CSV,
figures, and the ``class report`` / ``class simulate`` commands."""

from __future__ import annotations

import io
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.classes.report import ClassReport, png
from canasta_tutor.tutor.classes.simulate import SimulationError, plan, simulate, tempting_refusals
from canasta_tutor.tutor.lessons.course import known_rules
from canasta_tutor.tutor.progress import Attempt, ProgressStore, course_path


def _t(minute: int) -> str:
    return f"2026-01-05T10:{minute:02d}:00+00:00"


def _hand_made(course: Path) -> None:
    """Two students, three items (two lesson levels of one lesson, one puzzle)."""
    with ProgressStore.for_course(course) as store:
        store.add_learner("s05", "Student Five")
        store.add_to_class("monday", "s05", "s06")
        store.add_to_class("tuesday", "s07")
        rec = store.record
        rec(Attempt("s05", "freezing", "one", "failed", started=_t(0), finished=_t(2), hints=1, actions=[
            {"kind": "refused", "text": "take 9 9", "rule": "R-PACK-4", "reason": "not melded yet"},
            {"kind": "action", "text": "draw"}]))
        rec(Attempt("s05", "freezing", "one", "passed", stars=2, started=_t(3), finished=_t(4)))
        rec(Attempt("s05", "puzzles", "c01-frozen-by-wild-card", "passed", stars=3, kind="puzzle",
                    started=_t(5), finished=_t(6), rating_before=1500.0, rating_after=1540.0))
        rec(Attempt("s06", "freezing", "one", "failed", started=_t(1), finished=_t(5), hints=2, actions=[
            {"kind": "refused", "text": "take 9 9", "rule": "R-PACK-4", "reason": "not melded yet"},
            {"kind": "refused", "text": "discard 4", "rule": "R-TURN-2", "reason": "draw first"}]))
        rec(Attempt("s06", "freezing", "two", "passed", stars=3, started=_t(6), finished=_t(7)))
        rec(Attempt("s06", "puzzles", "c01-frozen-by-wild-card", "failed", kind="puzzle", started=_t(8),
                    finished=_t(9), rating_before=1500.0, rating_after=1460.0, themes=["frozen-pack"], actions=[
                        {"kind": "wrong", "text": "draw", "rule": "", "reason": "leaves the pack"}]))
        rec(Attempt("s07", "freezing", "two", "passed", stars=1, started=_t(2), finished=_t(3)))
        # the puzzle trainer saves a solved puzzle with no stars
        rec(Attempt("s07", "puzzles", "c01-frozen-by-wild-card", "passed", kind="puzzle", started=_t(4),
                    finished=_t(5)))


def test_the_tables_match_a_hand_made_store(tmp_path: Path) -> None:
    _hand_made(tmp_path)
    with ClassReport(tmp_path, class_name="monday") as r:
        assert r.students() == ["s05", "s06"]
        assert r.items() == ["freezing/one", "puzzles/c01-frozen-by-wild-card", "freezing/two"]
        stars = r.table("stars")
        assert stars.loc["s05"].tolist()[:2] == [2, 3] and pd.isna(stars.at["s05", "freezing/two"])
        assert r.table("solved").loc["s06"].tolist() == [False, False, True]
        assert r.table("hints").at["s05", "freezing/one"] == 1 and r.table("hints").at["s06", "freezing/one"] == 2
        assert r.table("seconds").at["s05", "freezing/one"] == 180   # 2 + 1 minutes over two attempts
        assert r.table("attempts").at["s05", "freezing/one"] == 2
        assert r.grid().splitlines() == ["s05  23.", "s06  xx3"]
        with pytest.raises(ValueError, match="unknown measure"):
            r.table("luck")
        themes = r.themes()
        # the level's theme is its lesson; the puzzle's come from the library, or from the attempt
        assert set(themes.index) >= {"freezing", "frozen-pack"}
        assert themes.at["freezing", "kind"] == "lesson" and themes.at["freezing", "students"] == 2
        assert themes.at["freezing", "first_try"] == pytest.approx(1 / 3, abs=0.01)   # s05/one, s06/one, s06/two
        wrong = r.wrong_moves().set_index("item")
        assert wrong.at["freezing/one", "move"] == "take 9 9" and wrong.at["freezing/one", "times"] == 2
        assert wrong.at["freezing/one", "students"] == 2 and wrong.at["freezing/one", "rule"] == "R-PACK-4"
        assert wrong.at["freezing/one", "all_wrong"] == 3
        assert "puzzles/c01-frozen-by-wild-card" not in wrong.index   # one student's wrong move only
        one = r.wrong_moves(min_students=1).set_index("item")
        assert one.at["puzzles/c01-frozen-by-wild-card", "reason"] == "leaves the pack"
        prog = r.progress()
        assert prog.at["s05", "rating_change"] == 40.0 and prog.at["s06", "rating_change"] == -40.0
        assert prog.at["s05", "solved"] == 2 and prog.at["s06", "solved"] == 1
        tl = r.timeline()
        assert tl[tl["student"] == "s05"]["solved_items"].tolist() == [0, 1, 2]
    with ClassReport(tmp_path) as everyone:
        assert everyone.students() == ["s05", "s06", "s07"]
        assert everyone.items()[1] == "freezing/two" and everyone.grid().splitlines()[2] == "s07  .1+"


def test_refresh_rereads_only_what_changed_and_replays_shared_stores(tmp_path: Path) -> None:
    _hand_made(tmp_path)
    with ClassReport(tmp_path) as r:
        assert r.refresh() is False
        n = len(r.attempts)
        with ProgressStore.for_course(tmp_path) as other:   # the teacher's tools filing an attempt
            other.record(Attempt("s07", "freezing", "one", "passed", stars=3, started=_t(10), finished=_t(11)))
        assert r.refresh() is True and len(r.attempts) == n + 1
        assert r.table("stars").at["s07", "freezing/one"] == 3
        # a store collected by nbgrader is never read; one in the shared folder is replayed
        sub = tmp_path / "submitted" / "s08" / "week1" / "progress.sqlite3"
        sub.parent.mkdir(parents=True)
        with ProgressStore(sub) as own:
            own.record(Attempt("learner", "melds", "natural-meld", "passed", stars=3, started=_t(12),
                               finished=_t(13), actions=[{"kind": "action", "text": "meld 7 7 7"}]))
        (tmp_path / "progress").mkdir()
        with ProgressStore(tmp_path / "progress" / "s09.sqlite3") as own:
            own.record(Attempt("learner", "melds", "natural-meld", "passed", stars=3, started=_t(14),
                               finished=_t(15), hints=0, actions=[{"kind": "hint", "text": "?"},
                                                                 {"kind": "action", "text": "meld 7 7 7"}]))
        assert r.refresh() is True
        assert "s09" in r.students() and "s08" not in r.students() and "learner" not in r.students()
        assert r.table("stars").at["s09", "melds/natural-meld"] == 2   # the replay saw the hint the store left out
        assert r.notes() == ["Left out: 1 progress store found in submissions (a submission is graded from its "
                             "logs, by `class grade`)."]
        assert r.refresh() is False   # nothing new: the student stores are not read again
        assert len(r.attempts) == n + 2


def test_csv_export_is_the_students_by_items_rows(tmp_path: Path) -> None:
    _hand_made(tmp_path)
    with ClassReport(tmp_path) as r:
        text = r.to_csv(tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_text() == text
    df = pd.read_csv(io.StringIO(text))
    assert list(df.columns[:10]) == ["student", "item", "display_name", "kind", "themes", "solved", "stars",
                                     "hints", "reported_seconds", "attempts"]
    s05 = df[(df["student"] == "s05") & (df["item"] == "freezing/one")].iloc[0]
    assert (s05["display_name"], s05["stars"], s05["reported_seconds"], s05["attempts"]) == ("Student Five", 2, 180, 2)
    assert len(df) == 7   # s05 2 items, s06 3, s07 2


def test_the_figures_draw_without_pyplot_or_a_widget(tmp_path: Path) -> None:
    _hand_made(tmp_path)
    with ClassReport(tmp_path) as r:
        for fig in [*r.figures().values(), r.progress_plot(lines_up_to=1), r.heatmap("seconds")]:
            assert png(fig).startswith(b"\x89PNG")
        panels = r.progress_plot()   # a small class: one panel per student, named
        assert [t.get_text() for t in panels.axes[0].texts] == ["s05 (+40)", "s06 (-40)", "s07"]
        band = r.progress_plot(lines_up_to=1).axes[0]   # a large class: median and percentile band
        assert [t.get_text() for t in band.get_legend().get_texts()] == ["10th to 90th percentile", "median"]
    code = ("import sys, canasta_tutor.tutor.classes.report as r, canasta_tutor.tutor.classes.simulate; "
            "bad = [m for m in ('anywidget', 'ipywidgets', 'matplotlib.pyplot', 'matplotlib') if m in sys.modules]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"   # matplotlib is imported only when a figure is drawn


def test_the_html_heatmap_is_stable_and_coloured(tmp_path: Path) -> None:
    _hand_made(tmp_path)
    with ClassReport(tmp_path, class_name="monday") as r:
        html = r.styled("stars").to_html()
        assert html == r.styled("stars").to_html()   # fixed ids: a notebook's stored output stays the same
        assert "background-color" in html and "T_canasta-stars" in html
        cells = re.findall(r'<td id="T_canasta-stars_row0_col(\d)" class="[^"]*" >([^<]*)</td>', html)
        assert cells == [("0", "2"), ("1", "3"), ("2", "")]   # s05: 2 stars, 3 stars, not tried
        s06 = re.findall(r'<td id="T_canasta-stars_row1_col(\d)" class="[^"]*" >([^<]*)</td>', html)
        assert s06 == [("0", "\u2717"), ("1", "\u2717"), ("2", "3")]   # tried and not solved: not blank
        assert "position: sticky" in html   # the headers stay in view


def test_an_empty_course_gives_an_empty_report(tmp_path: Path) -> None:
    with ClassReport(tmp_path) as r:
        assert r.items() == [] and r.table("stars").empty and r.wrong_moves().empty
        assert "No attempts yet" in r.text()


# ------------------------------------------------------------------ the simulated class
@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    course = tmp_path_factory.mktemp("course")
    simulate(course, students=4, items=8, seed=5, progress=False)
    return course


def _rows(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT a.uid, l.name, a.lesson, a.level, a.status, a.stars, a.hints, a.started, "
                            "a.finished, a.rating_after, group_concat(x.kind || ':' || x.text || ':' || x.rule, '|') "
                            "FROM attempts a JOIN learners l ON l.id = a.learner_id LEFT JOIN attempt_actions x "
                            "ON x.attempt_id = a.id GROUP BY a.id ORDER BY a.uid").fetchall()
    finally:
        conn.close()


def test_simulate_is_seeded_reproducible_and_idempotent(simulated: Path, tmp_path: Path) -> None:
    again = simulate(tmp_path, students=4, items=8, seed=5, progress=False)
    assert _rows(course_path(simulated)) == _rows(again.path)
    assert simulate(tmp_path, students=4, items=8, seed=5, progress=False).attempts == 0
    other = simulate(tmp_path / "b", students=4, items=8, seed=6, progress=False)
    assert _rows(other.path) != _rows(again.path)


def test_simulated_attempts_are_real_lesson_levels_and_puzzles_with_engine_rules(simulated: Path) -> None:
    items = plan(8, 5)
    assert {i.kind for i in items} == {"lesson", "puzzle"} and len(items) == 8
    with ProgressStore.for_course(simulated) as store:
        attempts = store.attempts()
        assert store.class_members(simulated.name) == ["s01", "s02", "s03", "s04"]
    keys = {(i.lesson, i.level) for i in items}
    assert {(a["lesson"], a["level"]) for a in attempts} <= keys
    rules = known_rules()
    refused = [x for a in attempts for x in a["actions"] if x["kind"] == "refused" and x["rule"]]
    assert refused, "the simulated class tries moves the engine refuses"
    assert all(x["rule"] in rules and x["reason"] for x in refused)
    puzzles = [a for a in attempts if a["kind"] == "puzzle"]
    assert puzzles and all(a["rating_before"] is not None and a["rating_after"] is not None for a in puzzles)
    assert all(a["themes"] for a in attempts)
    with ClassReport(simulated) as r:
        assert r.table("stars").shape == (4, 8)
        assert not r.wrong_moves().empty


def test_tempting_refusals_are_refused_by_the_engine() -> None:
    from canasta_tutor.tutor.puzzles.library import load_library

    p = load_library()[0]
    state = p.state()
    assert state.actor is not None
    found = tempting_refusals(state, state.actor)
    assert found
    for action, rule, reason in found:
        err = state.explain(action)
        assert err is not None and (err.rule, err.reason) == (rule, reason)


def test_simulate_refuses_an_impossible_plan(tmp_path: Path) -> None:
    with pytest.raises(SimulationError, match="--items must lie between 1 and"):
        simulate(tmp_path, students=2, items=10_000, progress=False)


# ------------------------------------------------------------------ the commands
def test_class_simulate_and_report_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    course = tmp_path / "course"
    assert main(["class", "simulate", "--course", str(course), "--students", "3", "--items", "4", "--seed", "2",
                 "--no-progress"]) == 0
    assert "3 students x 4 items (simulated)" in capsys.readouterr().out
    assert main(["class", "report", "--course", str(course), "--csv", str(tmp_path / "r.csv")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 students, 4 items, ") and "Per theme" in out and "Most common wrong move" in out
    assert len(pd.read_csv(tmp_path / "r.csv")) >= 3 * 1
    assert main(["class", "report", "--course", str(course), "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["students"] == 3 and len(data["items"]) == 4 and set(data["per_student"]) == {"s01", "s02", "s03"}
    assert main(["class", "report", "--course", str(course), "--class", "nope"]) == 2
    assert "no class 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"these are my notes\n" * 300, b""])
def test_a_corrupt_course_store_is_one_line_at_the_command_line(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "progress.sqlite3").write_bytes(content)
    if not content:   # an empty file is a new store: damage a real one instead
        with ProgressStore(tmp_path / "progress.sqlite3") as s:
            s.record(Attempt("s05", "l", "v", "passed", stars=1))
            s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        data = bytearray((tmp_path / "progress.sqlite3").read_bytes())
        data[:16] = b"garbage garbage!"
        (tmp_path / "progress.sqlite3").write_bytes(bytes(data))
    proc = subprocess.run([sys.executable, "-m", "canasta_tutor", "class", "report", "--course", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "is not a canasta-tutor progress store" in proc.stderr


def test_a_missing_course_folder_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["class", "report", "--course", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.strip() == f"canasta-tutor: error: no course folder {str(tmp_path / 'nowhere')!r}"


def test_simulate_gives_the_same_class_in_another_process(simulated: Path, tmp_path: Path) -> None:
    """Nothing in the simulation depends on Python's per-process hash seed or on the clock."""
    code = ("import sys; from canasta_tutor.tutor.classes.simulate import simulate; "
            "simulate(sys.argv[1], students=4, items=8, seed=5, progress=False)")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, env={**os.environ,
                                                                                  "PYTHONHASHSEED": "12345"})
    assert _rows(course_path(tmp_path)) == _rows(course_path(simulated))


def test_the_demo_class_loads_once_and_reports(tmp_path: Path) -> None:
    from canasta_tutor.tutor.classes.simulate import DEMO_ARGS, load_demo

    first = load_demo(tmp_path)
    assert (first.students, first.items) == (DEMO_ARGS["students"], DEMO_ARGS["items"]) and first.attempts > 100
    assert load_demo(tmp_path).attempts == 0
    with ClassReport(tmp_path, class_name="demo-class") as r:
        assert r.table("stars").shape == (12, 16)
        assert r.store.display_names()["s01"].startswith("Student 01 (")
        assert not r.wrong_moves().empty and r.wrong_moves()["rule"].str.startswith("R-").any()


def test_class_simulate_demo_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["class", "simulate", "--demo", "--course", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("12 students x 16 items (the demo class): ")
    assert main(["class", "report", "--course", str(tmp_path), "--class", "demo-class"]) == 0
    assert capsys.readouterr().out.startswith("12 students, 16 items, ")
