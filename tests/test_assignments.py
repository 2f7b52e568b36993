"""Assignments: the file format, the item levels, the logs, the replay grading, `class assign` and
`class grade` (without nbgrader; the real nbgrader workflow is in test_nbgrader_workflow.py, and the
exam's rules as the student's widget plays them in test_exam.py)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from canasta_tutor.notation.actions import format_action
from canasta_tutor.cli.main import main
from canasta_tutor.tutor.assignments.grading import (LogError, grade_item, grade_log, log_path, read_attempts,
                                                     replay_attempt, replay_puzzle)
from canasta_tutor.tutor.assignments.items import item_level
from canasta_tutor.tutor.assignments.notebook import assignment_notebook, write_course
from canasta_tutor.tutor.assignments.spec import Item, check_text, load_assignment, parse_assignment, puzzle_library
from canasta_tutor.tutor.assignments.student import GIVE_UP, HINT, play_item, solution_line

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "assignment-week-1.toml"


@pytest.fixture(scope="module")
def week1():
    return load_assignment(EXAMPLE)


STUDENT = "s01"


def _item(**kw):
    base = dict(id="x", kind="level", lesson="melds", level="natural-meld", points=10, hint_penalty=2, number=1,
                assignment="w")
    base.update(kw)
    return Item(**base)


# ------------------------------------------------------------------ the file
def test_example_assignment_loads(week1):
    assert week1.id == "week-1"
    assert len(week1.items) == 10 and week1.points == 95
    kinds = {i.kind for i in week1.items}
    assert kinds == {"level", "puzzle"}
    practice = next(i for i in week1.items if i.level == "meld-practice")
    assert practice.seed == 7 and practice.points == 10 and practice.hint_penalty == 2
    concealed = next(i for i in week1.items if i.id == "concealed")
    assert (concealed.puzzle, concealed.points, concealed.hint_penalty, concealed.title) == \
        ("c14-concealed-go-out", 15, 5, "Going out concealed")


HEAD = 'id = "w"\ntitle = "W"\n'


@pytest.mark.parametrize("body, where, words", [
    ('[[item]]\nlesson = "melds"\nlevel = "nope"\npoints = 1\n', "w.toml:5: item 1.level", "has no level 'nope'"),
    ('[[item]]\nlesson = "nolesson"\nlevel = "a"\npoints = 1\n', "w.toml:4: item 1.lesson", "no lesson 'nolesson'"),
    ('[[item]]\npuzzle = "c99-none"\npoints = 1\n', "w.toml:4: item 1.puzzle", "no puzzle 'c99-none'"),
    ('[[item]]\nlesson = "melds"\nlevel = "natural-meld"\n', "w.toml:3: item 1.points", "required"),
    ('[[item]]\nlesson = "melds"\nlevel = "natural-meld"\npoints = 1\nseed = 3\n', "w.toml:7: item 1.seed",
     "fixed position"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = 1\nseed = 3\n', "w.toml:6: item 1.seed", "fixed position"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\nlesson = "melds"\npoints = 1\n', "w.toml:3: item 1", "give one of"),
    ('[[item]]\ntheme = "no-such-theme"\npoints = 1\n', "w.toml:4: item 1.theme", "no theme"),
    ('[[item]]\ntheme = "frozen-pack"\nrating = [3000, 3500]\npoints = 1\n', "w.toml:3: item 1", "no puzzle"),
    ('[[item]]\nrating = [1500, 1000]\npoints = 1\n', "w.toml:4: item 1.rating", "runs from its lower"),
    ('[[item]]\nlesson = "melds"\npoints = 1\n', "w.toml:3: item 1.level", "required"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = -1\n', "w.toml:5: item 1.points", "less than or equal"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = 1\nbonus = 2\n', "w.toml:3: item 1", "unknown field"),
    ('[[item]]\nid = "a"\npuzzle = "c22-take-the-pack"\npoints = 1\n[[item]]\nid = "a"\npuzzle = "c22-take-the-pack"\n'
     'points = 2\n', "w.toml:8: item 2.id", "also item 1's"),
    ('[[item]]\nid = "a b"\npuzzle = "c22-take-the-pack"\npoints = 1\n', "w.toml:4: item 1.id", "not an ID"),
    ('[defaults]\npoints = "ten"\n[[item]]\npuzzle = "c22-take-the-pack"\n', "w.toml:4: defaults.points",
     "not of type 'number'"),
    ('[[item]\n', "w.toml:3", "not valid TOML"),
])
def test_file_errors_name_file_line_and_field(body, where, words):
    problems = [str(p) for p in check_text(HEAD + body, "w.toml")]
    assert problems, body
    assert problems[0].startswith(where), problems
    assert words in problems[0], problems


def test_missing_top_fields_and_empty_items():
    problems = [str(p) for p in check_text('item = []\n', "w.toml")]
    assert "w.toml:1: id: required, but missing" in problems
    assert "w.toml:1: title: required, but missing" in problems
    assert any(p.startswith("w.toml:1: item:") for p in problems)


def test_every_problem_is_found_in_one_pass_and_items_are_numbered_from_1():
    body = ('[[item]]\nlesson = "melds"\nlevel = "nope"\npoints = -1\n'
            '[[item]]\npuzzle = "c99"\n[[item]]\nlesson = "nolesson"\nlevel = 1\nhint_penalty = "two"\n')
    problems = [str(p) for p in check_text(HEAD + body, "w.toml")]
    assert problems == [
        "w.toml:6: item 1.points: -1 is less than or equal to the minimum of 0",
        "w.toml:12: item 3.hint_penalty: 'two' is not of type 'number'",
        "w.toml:5: item 1.level: lesson 'melds' has no level 'nope'; its levels: natural-meld, mixed-meld, "
        "three-cards, two-naturals, wild-limit, one-meld-per-rank, partners-meld, not-opponents-meld, several-melds, "
        "grow-a-meld, meld-practice",
        "w.toml:7: item 2.points: required, but missing (here or in [defaults])",
        "w.toml:8: item 2.puzzle: no puzzle 'c99' in the puzzle library",
        "w.toml:9: item 3.points: required, but missing (here or in [defaults])",
        "w.toml:10: item 3.lesson: no lesson 'nolesson' in the course; its lessons: canastas, cards, first-strategy, "
        "freezing, going-out, going-out-concealed, initial-meld, melds, red-threes, scoring, stock-runs-out, "
        "taking-the-pack"], problems


def test_a_hint_dearer_than_its_item_and_a_small_pool_are_warnings(tmp_path, capsys):
    from canasta_tutor.tutor.assignments.spec import SMALL_POOL
    from canasta_tutor.tutor.puzzles.library import load_library

    few = sum("last-stock-card" in p.themes for p in load_library())  # one of the rarest themes
    assert 1 < few < SMALL_POOL
    f = tmp_path / "w.toml"
    f.write_text(HEAD + '[[item]]\npuzzle = "c22-take-the-pack"\npoints = 3\nhint_penalty = 4\n'
                 '[[item]]\ntheme = "last-stock-card"\npoints = 2\n', encoding="utf-8")
    assert main(["class", "check", str(f)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: {f}:6: item 1.hint_penalty: a hint costs 4 points, more than the item's 3: one hint "
                   "takes the whole item",
                   f"warning: {f}:7: item 2: only {few} puzzles of theme 'last-stock-card': students will share them "
                   "(a wider band gives each their own)"]


def test_level_by_number_and_custom_id():
    a = parse_assignment(HEAD + '[[item]]\nid = "first"\nlesson = "melds"\nlevel = 1\npoints = 3\n')
    assert (a.items[0].id, a.items[0].level, a.items[0].points, a.items[0].hint_penalty) == \
        ("first", "natural-meld", 3, 0)


def test_item_dicts_round_trip_and_a_puzzle_is_named_by_a_reference(week1):
    for item in week1.items:
        assert Item.from_dict(item.to_dict()) == item
        assert Item.from_dict(item.cell_dict()) == item
        if item.kind == "puzzle" and item.puzzle:
            assert item.puzzle not in json.dumps(item.cell_dict())


def test_students_see_neutral_labels_never_a_puzzle_id(week1):
    puzzles = [i for i in week1.items if i.kind == "puzzle"]
    assert [(i.number, i.id, i.label) for i in puzzles] == [
        (8, "puzzle-8", "Puzzle 8"), (9, "puzzle-9", "Puzzle 9"), (10, "concealed", "Going out concealed")]
    text = json.dumps(assignment_notebook(week1))
    assert not any(i.puzzle in text for i in puzzles if i.puzzle)
    assert puzzles[1].pool and (puzzles[1].theme, puzzles[1].rating) == ("take-frozen-pack", (800.0, 1400.0))


# ------------------------------------------------------------------ levels and puzzles
def test_every_puzzle_replays_as_the_trainer_judges_it():
    for p in puzzle_library().values():
        line = [{"kind": "action", "text": a} for a in p.solution]
        assert replay_puzzle(p, line).status == "solved", p.id
        for alt in p.accept:
            assert replay_puzzle(p, [{"kind": "action", "text": alt}]).status == "solved", p.id
        wrong = [a for a in p.state().legal_actions() if a not in p.answers()]
        if wrong:
            assert replay_puzzle(p, [{"kind": "action", "text": format_action(wrong[0])}]).status == "missed"
        run = replay_puzzle(p, [{"kind": "hint", "text": ""}, *line, {"kind": "hint", "text": ""}])
        assert (run.status, len(run.hints)) == ("solved", 1)


def test_an_illegal_move_in_a_puzzle_is_refused_and_the_attempt_goes_on(tmp_path):
    """As in the trainer (issue 31): the engine refuses it with its rule, and the replay lets the student
    go on as the widget did; the solution after it passes."""
    item = _item(kind="puzzle", puzzle="c22-take-the-pack", id="c22", points=5)
    assert play_item(item, [["discard 4", *solution_line(item)]], tmp_path, STUDENT) == ["passed"]
    g = grade_log(item, tmp_path, student=STUDENT)
    assert (g.statuses, g.score) == (["passed"], 5)


def test_every_example_item_scores_full_points_on_its_solution(tmp_path, week1):
    for item in week1.items:
        assert play_item(item, [solution_line(item, STUDENT)], tmp_path, STUDENT) == ["passed"]
        g = grade_log(item, tmp_path, student=STUDENT)
        assert (g.solved, g.hints, g.score) == (True, 0, item.points), g


# ------------------------------------------------------------------ partial credit
PRACTICE = dict(lesson="melds", level="meld-practice", seed=7)


def test_hints_cost_the_penalty_each(tmp_path):
    item = _item(**PRACTICE, points=10, hint_penalty=3)
    play_item(item, [[HINT, HINT, *solution_line(item, STUDENT)]], tmp_path, STUDENT)
    g = grade_log(item, tmp_path, student=STUDENT)
    assert (g.solved, g.hints, g.score) == (True, 2, 4)


def test_hints_never_take_the_score_below_zero(tmp_path):
    item = _item(**PRACTICE, points=5, hint_penalty=3)
    play_item(item, [[HINT, HINT, HINT, *solution_line(item, STUDENT)]], tmp_path, STUDENT)
    assert grade_log(item, tmp_path, student=STUDENT).score == 0


def test_a_retry_keeps_the_hints_seen(tmp_path):
    item = _item(**PRACTICE, points=10, hint_penalty=2)
    statuses = play_item(item, [[HINT, HINT, "discard 4"], solution_line(item, STUDENT)], tmp_path, STUDENT)
    assert statuses[-1] == "passed"
    g = grade_log(item, tmp_path, student=STUDENT)
    assert (g.solved, g.hints, g.attempts, g.score) == (True, 2, 2, 6)


def test_each_hint_is_charged_once_whatever_the_clicks_and_the_attempts(tmp_path):
    level = _item(**PRACTICE, points=10, hint_penalty=1)
    most = len(item_level(level).hints)
    play_item(level, [[HINT], [HINT] * 9 + ["discard 4"], [HINT, *solution_line(level, STUDENT)]], tmp_path, STUDENT)
    assert grade_log(level, tmp_path, student=STUDENT).hints == most
    puzzle = _item(kind="puzzle", puzzle="c22-take-the-pack", id="c22", points=5, hint_penalty=1)
    play_item(puzzle, [[HINT] * 4 + ["draw"], [HINT, HINT, "take 9 9 9"]], tmp_path, STUDENT)
    g = grade_log(puzzle, tmp_path, student=STUDENT)
    assert (g.solved, g.hints, g.score) == (True, 3, 2)  # three stages: the themes, a nudge, the kind of move
    # a log with the hint entries written many times over: still each hint once
    data = json.loads(log_path(puzzle, tmp_path).read_text(encoding="utf-8"))
    data["attempts"][0]["entries"] = [{"kind": "hint", "text": ""}] * 50 + data["attempts"][0]["entries"]
    log_path(puzzle, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(puzzle, tmp_path, student=STUDENT).hints == 3


def test_hints_after_the_level_ended_do_not_count():
    line = [{"kind": "action", "text": "meld 7 7 7"}]
    assert replay_attempt(item_level(_item()), 0, line + [{"kind": "hint", "text": ""}] * 3) == ("passed", 0)


def test_unsolved_scores_zero(tmp_path):
    item = _item(puzzle="c22-take-the-pack", kind="puzzle", id="c22")
    p = puzzle_library()["c22-take-the-pack"]
    wrong = next(a for a in p.state().legal_actions() if a not in p.answers())
    assert play_item(item, [[format_action(wrong)]], tmp_path, STUDENT) == ["failed"]
    assert grade_log(item, tmp_path, student=STUDENT).score == 0


def test_giving_up_closes_the_item_and_earns_nothing(tmp_path):
    item = _item(**PRACTICE)
    line = solution_line(item, STUDENT)
    assert play_item(item, [["discard 4"], [GIVE_UP], line], tmp_path, STUDENT) == ["open", "open"]
    g = grade_log(item, tmp_path, student=STUDENT)
    assert (g.closed, g.solved, g.score) == ("given up", False, 0)
    assert g.answer == ", ".join(line) and "given up" in g.line()
    # a solve written into the log after the give-up is not read
    data = json.loads(log_path(item, tmp_path).read_text(encoding="utf-8"))
    data["attempts"].append({"entries": [{"kind": "action", "text": t} for t in line]})
    data["attempts"][1]["entries"].append({"kind": "action", "text": line[0]})
    log_path(item, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    g = grade_log(item, tmp_path, student=STUDENT)
    assert (g.score, g.ignored) == (0, 1)


# ------------------------------------------------------------------ tampering
def _log(tmp_path, item):
    return json.loads(log_path(item, tmp_path).read_text(encoding="utf-8"))


def test_edited_totals_earn_nothing(tmp_path):
    item = _item(**PRACTICE)
    play_item(item, [["discard 4"]], tmp_path, STUDENT)
    data = _log(tmp_path, item)
    data["totals"].update(solved=True, hints=0, score=10)
    for a in data["attempts"]:
        a["status"] = "passed"
    log_path(item, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(item, tmp_path, student=STUDENT).score == 0


def test_a_forged_line_must_really_solve(tmp_path):
    item = _item(**PRACTICE)
    play_item(item, [["discard 4"]], tmp_path, STUDENT)
    data = _log(tmp_path, item)
    data["attempts"][0]["entries"] = [{"kind": "action", "text": "meld 4 4 4"}]  # not a solution here
    log_path(item, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(item, tmp_path, student=STUDENT).solved is False


@pytest.mark.parametrize("kind", ["level", "pool"])
def test_a_log_copied_from_another_student_earns_nothing(tmp_path, kind):
    item = (_item(**PRACTICE) if kind == "level" else
            _item(kind="puzzle", lesson="", level="", theme="frozen-pack", rating=(800.0, 1700.0), points=5))
    other = next(b for b in ("s02", "s03", "s04", "s05") if solution_line(item, b) != solution_line(item, STUDENT))
    own_dir, other_dir = tmp_path / STUDENT, tmp_path / other
    assert play_item(item, [solution_line(item, STUDENT)], own_dir, STUDENT) == ["passed"]
    assert grade_log(item, own_dir, student=STUDENT).score == item.points
    other_dir.mkdir()
    log_path(item, other_dir).write_bytes(log_path(item, own_dir).read_bytes())
    g = grade_log(item, other_dir, student=other)
    assert (g.solved, g.score) == (False, 0)
    assert f"played on the deal of student 's01', not of '{other}'" in g.line()
    data = _log(other_dir, item)
    data["student"] = other   # the log's word for who played it changes nothing: the deal is the grader's
    log_path(item, other_dir).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(item, other_dir, student=other).score == 0


def test_each_student_keeps_their_own_deal_and_the_grader_derives_it():
    from canasta_tutor.tutor.assignments.exam import item_puzzle, student_seed

    level = _item(**PRACTICE)
    pool = _item(kind="puzzle", lesson="", level="", theme="frozen-pack", points=5)
    students = [f"s{i:02d}" for i in range(30)]
    seeds = {s: student_seed(level, s) for s in students}
    assert seeds == {s: student_seed(level, s) for s in students} and len(set(seeds.values())) == 30
    puzzles = {s: item_puzzle(pool, s).id for s in students}
    assert puzzles == {s: item_puzzle(pool, s).id for s in students} and len(set(puzzles.values())) > 10
    assert all("frozen-pack" in puzzle_library()[p].themes for p in puzzles.values())
    other = _item(**{**PRACTICE, "assignment": "w2"})
    assert sum(student_seed(other, s) == seeds[s] for s in students) < 3   # another assignment, other deals


@pytest.mark.parametrize("content, words", [
    ("not json", "not a JSON log"),
    ('{"format": 1, "item": "other", "attempts": []}', "the log of item 'other'"),
    ('{"format": 2, "item": "x", "attempts": []}', "not an assignment log"),
    ('{"format": 1, "item": "x", "attempts": {}}', "'attempts' must be a list"),
    ('{"format": 1, "item": "x", "attempts": [{"entries": [3]}]}', "is not an entry"),
    ('{"format": 1, "item": "x", "attempts": [{"entries": "draw"}]}', "must be a list"),
])
def test_a_broken_log_scores_zero_with_a_reason(tmp_path, content, words):
    item = _item()
    log_path(item, tmp_path).parent.mkdir(parents=True, exist_ok=True)
    log_path(item, tmp_path).write_text(content, encoding="utf-8")
    with pytest.raises(LogError, match=r"x\.json"):
        read_attempts(log_path(item, tmp_path), item)
    g = grade_log(item, tmp_path, student=STUDENT)
    assert g.score == 0 and words in g.message


def test_grade_item_prints_to_stdout_only_and_returns_the_score(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_STUDENT", STUDENT)
    item = _item(**PRACTICE, id="m7", title="Practice")
    play_item(item, [[HINT, *solution_line(item, STUDENT)]], tmp_path, STUDENT)
    assert grade_item(item.cell_dict(), tmp_path) == 8
    assert grade_item(_item(id="absent", title="Absent").cell_dict(), tmp_path) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert "1. Practice: solved with 1 hint (1 attempt, replayed): 8 of 10 points\n  The answer: " in out.out
    assert "1. Absent: no log absent.json (not played): 0 of 10 points" in out.out


def test_the_answer_is_printed_for_nbgraders_feedback_once_the_item_is_closed(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CANASTA_TUTOR_STUDENT", STUDENT)
    item = _item(kind="puzzle", puzzle="c22-take-the-pack", id="c22", points=5)
    play_item(item, [["draw"]], tmp_path, STUDENT)
    grade_item(item.cell_dict(), tmp_path)
    assert "The answer" not in capsys.readouterr().out   # still open: the student may try again
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")   # nbgrader grades the submission: it is final
    monkeypatch.chdir(tmp_path)
    (tmp_path / "autograded" / STUDENT / "w").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "autograded" / STUDENT / "w")
    grade_item(item.cell_dict(), tmp_path)
    out = capsys.readouterr().out
    assert "1. Puzzle 1: not solved (1 attempt, replayed): 0 of 5 points" in out
    assert "  The answer: take 9 9 9\n  Why: A pair of nines takes an eight-card pack." in out


def test_grade_item_never_raises(tmp_path, capsys):
    item = _item(id="gone", lesson="no-such-lesson")
    (tmp_path / "gone.json").write_text('{"format": 1, "item": "gone", "attempts": [{"entries": []}]}',
                                        encoding="utf-8")
    assert grade_item(item.to_dict(), tmp_path) == 0
    out = capsys.readouterr()
    assert out.err == "" and "could not be replayed (KeyError" in out.out


# ------------------------------------------------------------------ the notebook and the command
def _call_args(source: str) -> list:
    tree = ast.parse(source)
    calls = [n for n in tree.body if isinstance(n, ast.Expr)]
    assert len(calls) == 1 and isinstance(calls[0].value, ast.Call)
    call = calls[0].value
    return [ast.literal_eval(a) for a in call.args] + [ast.literal_eval(k.value) for k in call.keywords]


def test_notebook_cells(week1):
    nb = assignment_notebook(week1)
    cells = nb["cells"]
    assert len(cells) == 1 + 3 * len(week1.items)
    ids = [c["metadata"]["nbgrader"]["grade_id"] for c in cells]
    assert len(set(ids)) == len(ids) and [c["id"] for c in cells] == ids
    assert all(c["metadata"]["nbgrader"]["locked"] for c in cells)
    graded = [c for c in cells if c["metadata"]["nbgrader"]["grade"]]
    assert [c["metadata"]["nbgrader"]["points"] for c in graded] == [i.points for i in week1.items]
    for cell, item in zip(graded, week1.items, strict=True):
        assert _call_args("".join(cell["source"]))[0] == item.cell_dict()
    heads = ["".join(c["source"]).splitlines()[0] for c in cells if c["cell_type"] == "markdown"][1:]
    assert heads[2] == "## 3. Practice: a pair and a wild card" and heads[7] == "## 8. Puzzle 8"
    assert "own deal" in "".join(cells[3 * 3 - 2]["source"])   # item 3 is generated: each student's own deal


def test_titles_reach_the_cells_only_as_string_literals():
    evil = 'x"); import os; os.system("echo no") #\n'
    a = parse_assignment(HEAD + f'[[item]]\npuzzle = "c22-take-the-pack"\npoints = 1\ntitle = {json.dumps(evil)}\n')
    for cell in assignment_notebook(a)["cells"]:
        if cell["cell_type"] == "code":
            assert _call_args("".join(cell["source"]))[0]["title"] == evil


def test_class_check_and_assign(tmp_path, capsys):
    assert main(["class", "check", str(EXAMPLE)]) == 0
    assert "week-1: 10 items, 95 points" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(HEAD + '[[item]]\npuzzle = "c99"\npoints = 1\n', encoding="utf-8")
    assert main(["class", "check", str(bad)]) == 2
    assert f"{bad}:4: item 1.puzzle: no puzzle 'c99'" in capsys.readouterr().err
    course = tmp_path / "course"
    assert main(["class", "assign", str(EXAMPLE), "--course", str(course)]) == 0
    nb = course / "source" / "week-1" / "week-1.ipynb"
    assert json.loads(nb.read_text(encoding="utf-8"))["nbformat"] == 4
    assert "c.CourseDirectory.course_id = 'course'" in (course / "nbgrader_config.py").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["class", "assign", str(EXAMPLE), "--course", str(course)]) == 2
    assert "exists; use --force" in capsys.readouterr().err
    assert main(["class", "assign", str(EXAMPLE), "--course", str(course), "--force"]) == 0
    assert main(["class", "assign", str(bad), "--course", str(course)]) == 2


def test_the_lessons_of_a_course_folder_can_be_assigned(tmp_path, capsys, monkeypatch):
    """A course folder made by `canasta-tutor course`, its lesson edited by the teacher: `lesson check` and
    `class check` read it, `class assign` ships it beside the notebook, the widget and the grader play it."""
    from canasta_tutor.tutor.assignments.sessions import ExamLevel

    course = tmp_path / "course"
    assert main(["course", str(course)]) == 0
    melds = course / "lessons" / "02-melds.toml"
    text = melds.read_text(encoding="utf-8")
    melds.write_text(text.replace('id = "natural-meld"\ntitle = "A natural meld"',
                                  'id = "natural-meld"\ntitle = "Sevens, as our class plays them"')
                     .replace('id = "grow-a-meld"', 'id = "grow-your-meld"'), encoding="utf-8")
    spec = tmp_path / "a.toml"
    spec.write_text('id = "a"\ntitle = "A"\n[[item]]\nlesson = "melds"\nlevel = "grow-your-meld"\npoints = 2\n'
                    '[[item]]\nlesson = "melds"\nlevel = "natural-meld"\npoints = 2\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["lesson", "check", "--no-play", "--course", str(course)]) == 0
    assert main(["class", "check", str(spec)]) == 2   # the installed course has no such level
    assert main(["class", "check", str(spec), "--course", str(course)]) == 0
    assert main(["class", "assign", str(spec), "--course", str(course)]) == 0
    folder = course / "source" / "a"
    assert (folder / "lessons" / "02-melds.toml").read_text(encoding="utf-8") == melds.read_text(encoding="utf-8")
    cells = json.loads((folder / "a.ipynb").read_text(encoding="utf-8"))["cells"]
    item = Item.from_dict(_call_args("".join(cells[-1]["source"]))[0])
    assert (item.lessons, item.title) == ("lessons", "Sevens, as our class plays them")
    s = ExamLevel(item, STUDENT, str(folder / "canasta-log"))
    assert s.view()["lesson"]["title"] == "Sevens, as our class plays them"
    s.act("meld 7 7 7")
    monkeypatch.setenv("CANASTA_TUTOR_STUDENT", STUDENT)
    assert grade_item(item.cell_dict(), folder / "canasta-log") == 2


def test_write_course_keeps_an_existing_config(tmp_path, week1):
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    written = write_course(week1, tmp_path)
    assert written == [tmp_path / "source" / "week-1" / "week-1.ipynb"]
    assert (tmp_path / "nbgrader_config.py").read_text(encoding="utf-8") == "c = get_config()\n"


def test_the_widget_cell_and_the_grader_use_one_log_folder():
    from canasta_tutor.ui import assignment_cell
    from canasta_tutor.tutor.assignments import grading

    assert assignment_cell.LOG_DIR == grading.LOG_DIR


def test_class_grade_replays_the_submissions_on_each_students_deal_and_fills_the_course_store(tmp_path, capsys):
    from canasta_tutor.tutor.progress import ProgressStore, course_path

    a = load_assignment(EXAMPLE)
    practice = next(i for i in a.items if i.level == "meld-practice")
    puzzle = next(i for i in a.items if i.puzzle == "c22-take-the-pack")
    logs = tmp_path / "submitted" / STUDENT / "week-1" / "canasta-log"
    play_item(practice, [["discard 4"], [HINT, *solution_line(practice, STUDENT)]], logs, STUDENT)
    play_item(puzzle, [["draw"], solution_line(puzzle)], logs, STUDENT)
    (tmp_path / "submitted" / "s02" / "week-1").mkdir(parents=True)
    capsys.readouterr()
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    totals = {s["student"]: s["total"] for s in out["students"]}
    assert totals == {STUDENT: 8 + 5, "s02": 0}
    assert out["gradebook"] is None and out["store"] == {"new": 4, "already": 0}
    with ProgressStore(course_path(tmp_path)) as store:
        rows = store.attempts(STUDENT)
        assert "s02" in store.learners()   # submitted, not started: the report lists them
    assert sorted((r["kind"], r["assignment"], r["lesson"], r["level"], r["status"], r["hints"]) for r in rows) == [
        ("assignment", "week-1", "melds", "meld-practice", "open", 0),
        ("assignment", "week-1", "melds", "meld-practice", "passed", 1),
        ("assignment", "week-1", "puzzles", "c22-take-the-pack", "failed", 0),
        ("assignment", "week-1", "puzzles", "c22-take-the-pack", "passed", 0)]
    logged = _log(logs, puzzle)["attempts"][1]
    stored = [r for r in rows if r["level"] == "c22-take-the-pack"]
    assert (stored[1]["started"], stored[1]["finished"]) == (logged["started"], logged["last"])
    assert stored[1]["themes"] == ["take-open-pack"]
    wrong = stored[0]["actions"][0]
    assert (wrong["kind"], wrong["text"]) == ("wrong", "draw") and "search" not in wrong["reason"]
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["store"] == {"new": 0, "already": 4}


def test_clicks_and_scoring_answers_are_graded_by_replay(tmp_path):
    """A refused click (logged as 'press ...') and a scoring level's answers ('answer ...') replay through the
    engine into the same attempt: the grade comes from the replay, not from the log's word."""
    item = _item(lesson="melds", level="three-cards", seed=0, points=4)
    assert play_item(item, [["press meld KH KD 9H"]], tmp_path, STUDENT) == ["passed"]  # an R-MELD-1 refusal
    assert _log(tmp_path, item)["attempts"][0]["entries"][0]["text"] == "press meld KH KD 9H"
    assert grade_log(item, tmp_path, student=STUDENT).solved
    score = _item(lesson="scoring", level="count-the-hand", seed=0, points=4, id="s")
    line = ["answer 500 100 100 145 -15 830", "answer 500 100 100 165 -15 850"]
    assert play_item(score, [line], tmp_path, STUDENT) == ["passed"]
    g = grade_log(score, tmp_path, student=STUDENT)
    assert g.solved and g.score == 4
