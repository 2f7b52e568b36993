"""The real nbgrader workflow: `class assign`, `nbgrader generate_assignment`, students simulated by
driving the lesson player and saving their notebooks and logs, `nbgrader autograde`, and the scores
read back from nbgrader's gradebook (nbgrader comes with the `teacher` extra, which `make test`
installs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from canasta_tutor.notation.actions import format_action
from canasta_tutor.cli.main import main
from canasta_tutor.tutor.assignments.grading import log_path
from canasta_tutor.tutor.assignments.spec import load_assignment, puzzle_library
from canasta_tutor.tutor.assignments.student import HINT, play_item, solution_line

pytestmark = pytest.mark.slow

ASSIGNMENT = """
id = "a1"
title = "Assignment 1"

[defaults]
points = 10
hint_penalty = 3

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
hint_penalty = 2
"""


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")  # nbgrader runs `alembic`
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _wrong_move(item) -> str:
    p = puzzle_library()[item.puzzle]
    return format_action(next(a for a in p.state().legal_actions() if a not in p.answers()))


def _submit(course: Path, student: str) -> Path:
    folder = course / "submitted" / student / "a1"
    folder.mkdir(parents=True)
    shutil.copy(course / "release" / "a1" / "a1.ipynb", folder / "a1.ipynb")
    (folder / "timestamp.txt").write_text("2026-11-30 08:00:00.000000 UTC", encoding="utf-8")
    return folder


def _tamper_notebook(path: Path) -> None:
    """Every graded cell's source and output claim full points."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("grade"):
            points = meta["points"]
            cell["source"] = [f"{points}\n"]
            cell["outputs"] = [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                "data": {"text/plain": str(points)}}]
    path.write_text(json.dumps(nb), encoding="utf-8")


def _tamper_log(path: Path, points: float) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["totals"].update(solved=True, hints=0, score=points)
    for attempt in data["attempts"]:
        attempt["status"] = "passed"
        attempt["hints"] = 0
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    spec = course / "a1.toml"
    spec.write_text(ASSIGNMENT, encoding="utf-8")
    assert main(["class", "assign", str(spec), "--course", str(course)]) == 0
    nbgrader(course, "generate_assignment", "a1")
    a = load_assignment(spec)
    level, practice, puzzle = a.items

    # full: every item solved without a hint, each on the student's own deal
    folder = _submit(course, "full")
    for item in a.items:
        assert play_item(item, [solution_line(item, "full")], folder / "canasta-log", "full") == ["passed"]

    # hinted: two hints then solved on a retry; the puzzle with one hint; the practice level not played
    folder = _submit(course, "hinted")
    assert play_item(level, [[HINT, HINT, "discard 4"], solution_line(level, "hinted")], folder / "canasta-log",
                     "hinted")[-1] == "passed"
    assert play_item(puzzle, [[HINT, *solution_line(puzzle)]], folder / "canasta-log", "hinted") == ["passed"]

    # tampered: wrong moves, then the log's totals and the notebook's graded cells edited to full marks
    folder = _submit(course, "tampered")
    play_item(level, [["discard 4"]], folder / "canasta-log", "tampered")
    play_item(practice, [["discard 4"]], folder / "canasta-log", "tampered")
    assert play_item(puzzle, [[_wrong_move(puzzle)]], folder / "canasta-log", "tampered") == ["failed"]

    # copied: the full student's logs, submitted by another student (the generated level's deal is theirs;
    # it deals few different answers, so a student whose answer differs is chosen)
    copier = next(s for s in ("copied", "copier", "copy-cat", "cribber") if solution_line(practice, s)
                  != solution_line(practice, "full"))
    folder = _submit(course, copier)
    shutil.copytree(course / "submitted" / "full" / "a1" / "canasta-log", folder / "canasta-log")
    for item in a.items:
        _tamper_log(log_path(item, folder / "canasta-log"), item.points)
    _tamper_notebook(folder / "a1.ipynb")

    # no log at all, only the notebook
    _submit(course, "nolog")

    # code added to the notebook that replaces the grader in the kernel: only the teacher's replay sees it
    folder = _submit(course, "injected")
    nb = json.loads((folder / "a1.ipynb").read_text(encoding="utf-8"))
    nb["cells"].insert(1, {"cell_type": "code", "execution_count": None, "id": "mine", "metadata": {}, "outputs": [],
                           "source": ["import canasta_tutor.tutor.assignments.grading as g\n",
                                      "g.grade_item = lambda item, log_dir='': item['points']\n"]})
    (folder / "a1.ipynb").write_text(json.dumps(nb), encoding="utf-8")

    nbgrader(course, "autograde", "a1")
    nbgrader(course, "generate_feedback", "a1")
    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student in ("full", "hinted", "tampered", "nolog", "injected", copier):
            sub = gb.find_submission("a1", student)
            cells = {g.name: g.score for g in sub.notebooks[0].grades}
            scores[student] = (sub.score, sub.max_score, cells)
    scores["copied"] = scores[copier]
    return course, scores, spec, copier


def test_full_marks_from_the_replay(graded):
    _, scores, _, _ = graded
    total, most, cells = scores["full"]
    assert (total, most) == (26, 26)
    assert cells == {"melds-natural-meld-grade": 10, "melds-meld-practice-grade": 10, "puzzle-3-grade": 6}


def test_hints_give_the_partial_credit_of_the_file(graded):
    _, scores, _, _ = graded
    total, _, cells = scores["hinted"]
    # 10 - 2 hints x 3 (seen before the retry, still counted); 6 - 1 hint x 2; not played: 0
    assert cells == {"melds-natural-meld-grade": 4, "melds-meld-practice-grade": 0, "puzzle-3-grade": 4}
    assert total == 8


def test_a_tampered_submission_gets_no_credit(graded):
    course, scores, _, _ = graded
    total, _, cells = scores["tampered"]
    assert total == 0 and set(cells.values()) == {0}
    # nbgrader put the locked test cells back, and the replay's words are in the autograded notebook
    nb = json.loads((course / "autograded" / "tampered" / "a1" / "a1.ipynb").read_text(encoding="utf-8"))
    text = json.dumps(nb)
    assert "3. Puzzle 3: not solved (1 attempt, replayed): 0 of 6 points" in text
    assert "The answer: take 9 9 9" in text   # the submission is final: nbgrader's feedback shows the answer


def test_a_log_copied_from_another_student_earns_nothing_on_their_own_deal(graded):
    course, scores, _, copier = graded
    _, _, cells = scores["copied"]
    # the fixed level and the fixed puzzle are the same for everyone; the generated level is dealt per student
    assert cells == {"melds-natural-meld-grade": 10, "melds-meld-practice-grade": 0, "puzzle-3-grade": 6}
    nb = json.loads((course / "autograded" / copier / "a1" / "a1.ipynb").read_text(encoding="utf-8"))
    assert f"played on the deal of student 'full', not of '{copier}'" in json.dumps(nb)


def test_nbgraders_feedback_shows_each_item_solved_or_not_and_the_answer(graded):
    course, _, _, _ = graded
    page = (course / "feedback" / "hinted" / "a1" / "a1.html").read_text(encoding="utf-8")
    assert "1. A natural meld: solved with 2 hints (2 attempts, replayed): 4 of 10 points" in page
    assert "The answer: meld 7 7 7" in page and "2. Practice: a pair and a wild card: no log" in page
    assert "3. Puzzle 3: solved with 1 hint (1 attempt, replayed): 4 of 6 points" in page
    assert "The answer: take 9 9 9" in page


def test_no_log_scores_zero(graded):
    _, scores, _, _ = graded
    assert scores["nolog"][0] == 0


def test_class_grade_agrees_with_the_gradebook_except_where_the_kernel_was_fooled(graded, capsys):
    course, scores, spec, copier = graded
    assert scores["injected"][0] == 26  # nbgrader ran the student's cell, which replaced the grader
    capsys.readouterr()
    assert main(["class", "grade", str(spec), "--course", str(course), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    totals = {s["student"]: s["total"] for s in out["students"]}
    assert totals == {"full": 26, "hinted": 8, "tampered": 0, "nolog": 0, "injected": 0, copier: 16}
    assert {(c["item"], tuple(c["students"])) for c in out["identical_logs"]} == {
        (item, tuple(sorted((copier, "full")))) for item in ("melds-natural-meld", "melds-meld-practice", "puzzle-3")}
    differences = out["gradebook"]["differences"]
    assert differences and all(d.startswith("injected: ") for d in differences)
    assert out["store"]["new"] > 0
