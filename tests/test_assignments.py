"""Assignments: the file format, the item levels, the logs, the replay grading and `class assign`
(without nbgrader; the real nbgrader workflow is in test_nbgrader_workflow.py)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from canasta_tutor.actions import format_action
from canasta_tutor.cli import main
from canasta_tutor.tutor.assignments.grading import (ItemRecorder, LogError, grade_item, grade_log, log_path,
                                                     read_attempts, replay_attempt, replay_puzzle)
from canasta_tutor.tutor.assignments.items import item_level
from canasta_tutor.tutor.assignments.notebook import assignment_notebook, write_course
from canasta_tutor.tutor.assignments.spec import Item, check_text, load_assignment, parse_assignment, puzzle_library
from canasta_tutor.tutor.assignments.student import HINT, play_item, solution_line

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "assignment-week-1.toml"


@pytest.fixture(scope="module")
def week1():
    return load_assignment(EXAMPLE)


def _item(**kw):
    base = dict(id="x", kind="level", lesson="melds", level="natural-meld", points=10, hint_penalty=2)
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
    ('[[item]]\nlesson = "melds"\nlevel = "nope"\npoints = 1\n', "w.toml:5: item[0].level", "has no level 'nope'"),
    ('[[item]]\nlesson = "nolesson"\nlevel = "a"\npoints = 1\n', "w.toml:4: item[0].lesson", "no lesson 'nolesson'"),
    ('[[item]]\npuzzle = "c99-none"\npoints = 1\n', "w.toml:4: item[0].puzzle", "no puzzle 'c99-none'"),
    ('[[item]]\nlesson = "melds"\nlevel = "natural-meld"\n', "w.toml:3: item[0].points", "required"),
    ('[[item]]\nlesson = "melds"\nlevel = "natural-meld"\npoints = 1\nseed = 3\n', "w.toml:7: item[0].seed",
     "fixed position"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = 1\nseed = 3\n', "w.toml:6: item[0].seed", "fixed position"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\nlesson = "melds"\npoints = 1\n', "w.toml:3: item[0]", "not both"),
    ('[[item]]\nlesson = "melds"\npoints = 1\n', "w.toml:3: item[0].level", "required"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = -1\n', "w.toml:5: item[0].points", "less than or equal"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = 1\nbonus = 2\n', "w.toml:3: item[0]", "unknown field"),
    ('[[item]]\npuzzle = "c22-take-the-pack"\npoints = 1\n[[item]]\npuzzle = "c22-take-the-pack"\npoints = 2\n',
     "w.toml:6: item[1]", "also item 1"),
    ('[[item]]\nid = "a b"\npuzzle = "c22-take-the-pack"\npoints = 1\n', "w.toml:4: item[0].id", "not an ID"),
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


def test_level_by_number_and_custom_id():
    a = parse_assignment(HEAD + '[[item]]\nid = "first"\nlesson = "melds"\nlevel = 1\npoints = 3\n')
    assert (a.items[0].id, a.items[0].level, a.items[0].points, a.items[0].hint_penalty) == \
        ("first", "natural-meld", 3, 0)


def test_item_dict_round_trip(week1):
    for item in week1.items:
        assert Item.from_dict(item.to_dict()) == item


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
    assert play_item(item, [["discard 4", *solution_line(item)]], tmp_path) == ["passed"]
    g = grade_log(item, tmp_path)
    assert (g.statuses, g.score) == (["passed"], 5)


def test_every_example_item_scores_full_points_on_its_solution(tmp_path, week1):
    for item in week1.items:
        assert play_item(item, [solution_line(item)], tmp_path) == ["passed"]
        g = grade_log(item, tmp_path)
        assert (g.solved, g.hints, g.score) == (True, 0, item.points), g


# ------------------------------------------------------------------ partial credit
def test_hints_cost_the_penalty_each(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7, points=10, hint_penalty=3)
    play_item(item, [[HINT, HINT, *solution_line(item)]], tmp_path)
    g = grade_log(item, tmp_path)
    assert (g.solved, g.hints, g.score) == (True, 2, 4)


def test_hints_never_take_the_score_below_zero(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7, points=5, hint_penalty=3)
    play_item(item, [[HINT, HINT, HINT, *solution_line(item)]], tmp_path)
    assert grade_log(item, tmp_path).score == 0


def test_a_retry_does_not_wash_out_hints(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7, points=10, hint_penalty=2)
    statuses = play_item(item, [[HINT, HINT, "discard 4"], solution_line(item)], tmp_path)
    assert statuses[-1] == "passed"
    g = grade_log(item, tmp_path)
    assert (g.solved, g.hints, g.attempts, g.score) == (True, 2, 2, 6)


def test_hints_after_the_level_ended_do_not_count():
    item = _item(lesson="melds", level="meld-practice", seed=7)
    line = [{"kind": "action", "text": a} for a in solution_line(item)]
    assert replay_attempt(item_level(item), 7, line + [{"kind": "hint", "text": ""}] * 3) == ("passed", 0)


def test_unsolved_scores_zero(tmp_path):
    item = _item(puzzle="c22-take-the-pack", kind="puzzle", id="c22")
    p = puzzle_library()["c22-take-the-pack"]
    wrong = next(a for a in p.state().legal_actions() if a not in p.answers())
    assert play_item(item, [[format_action(wrong)]], tmp_path) == ["failed"]
    assert grade_log(item, tmp_path).score == 0


# ------------------------------------------------------------------ tampering
def _log(tmp_path, item):
    return json.loads(log_path(item, tmp_path).read_text(encoding="utf-8"))


def test_edited_totals_earn_nothing(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7)
    play_item(item, [["discard 4"]], tmp_path)
    data = _log(tmp_path, item)
    data["totals"].update(solved=True, hints=0, score=10)
    for a in data["attempts"]:
        a["status"] = "passed"
    log_path(item, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(item, tmp_path).score == 0


def test_deleting_the_wrong_try_is_not_needed_but_a_forged_line_must_really_solve(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7)
    play_item(item, [["discard 4"]], tmp_path)
    data = _log(tmp_path, item)
    data["attempts"][0]["entries"] = [{"kind": "action", "text": "meld 4 4 4"}]  # not a solution here
    log_path(item, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(item, tmp_path).solved is False


def test_the_seed_in_the_log_is_ignored(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7)
    other = _item(lesson="melds", level="meld-practice", seed=8)
    line7, line8 = solution_line(item), solution_line(other)
    assert line7 != line8
    play_item(other, [line8], tmp_path)  # played on another deal, logged under the same item id
    data = _log(tmp_path, other)
    data["seed"] = 7
    log_path(item, tmp_path).write_text(json.dumps(data), encoding="utf-8")
    assert grade_log(item, tmp_path).solved is False


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
    g = grade_log(item, tmp_path)
    assert g.score == 0 and words in g.message


def test_grade_item_prints_to_stdout_only_and_returns_the_score(tmp_path, capsys):
    item = _item(lesson="melds", level="meld-practice", seed=7, id="m7")
    play_item(item, [[HINT, *solution_line(item)]], tmp_path)
    assert grade_item(item.to_dict(), tmp_path) == 8
    assert grade_item(_item(id="absent").to_dict(), tmp_path) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert "m7: solved with 1 hint (1 attempt, replayed): 8 of 10 points" in out.out
    assert "absent: no log absent.json (not played): 0 of 10 points" in out.out


def test_grade_item_never_raises(tmp_path, capsys):
    item = _item(id="gone", lesson="no-such-lesson")
    (tmp_path / "gone.json").write_text('{"format": 1, "item": "gone", "attempts": [{"entries": []}]}',
                                        encoding="utf-8")
    assert grade_item(item.to_dict(), tmp_path) == 0
    out = capsys.readouterr()
    assert out.err == "" and "gone: could not be replayed (KeyError" in out.out


# ------------------------------------------------------------------ the recorder
def test_the_recorder_writes_nothing_before_the_first_action_and_keeps_earlier_attempts(tmp_path):
    item = _item(lesson="melds", level="meld-practice", seed=7)
    from canasta_tutor.tutor.assignments.items import item_lesson
    from canasta_tutor.tutor.lessons.player import LessonPlayer

    player = LessonPlayer(item_lesson(item), "student", None, item.seed, hint_fn=None)
    rec = ItemRecorder(item, tmp_path)
    assert rec.observe(player.run) is False and not log_path(item, tmp_path).exists()
    player.act("discard 4")
    assert rec.observe(player.run) is True
    # a new kernel: a new recorder continues the log
    player2 = LessonPlayer(item_lesson(item), "student", None, item.seed, hint_fn=None)
    rec2 = ItemRecorder(item, tmp_path)
    rec2.observe(player2.run)
    for a in solution_line(item):
        player2.act(a)
    rec2.observe(player2.run)
    data = _log(tmp_path, item)
    assert len(data["attempts"]) == 2 and data["totals"]["solved"] is True
    assert grade_log(item, tmp_path).attempts == 2


def test_an_unreadable_log_is_moved_aside_not_lost(tmp_path):
    item = _item()
    path = log_path(item, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{broken", encoding="utf-8")
    ItemRecorder(item, tmp_path)
    assert not path.exists()
    assert [p.read_text(encoding="utf-8") for p in tmp_path.glob("x.unreadable-*.json")] == ["{broken"]


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
        assert _call_args("".join(cell["source"]))[0] == item.to_dict()


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
    assert f"{bad}:4: item[0].puzzle: no puzzle 'c99'" in capsys.readouterr().err
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


def test_write_course_keeps_an_existing_config(tmp_path, week1):
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    written = write_course(week1, tmp_path)
    assert written == [tmp_path / "source" / "week-1" / "week-1.ipynb"]
    assert (tmp_path / "nbgrader_config.py").read_text(encoding="utf-8") == "c = get_config()\n"


def test_the_widget_cell_and_the_grader_use_one_log_folder():
    from canasta_tutor import assignment_cell
    from canasta_tutor.tutor.assignments import grading

    assert assignment_cell.LOG_DIR == grading.LOG_DIR


def test_class_grade_replays_the_submissions_and_fills_the_course_store(tmp_path, capsys):
    from canasta_tutor.tutor.progress import ProgressStore, course_path

    a = load_assignment(EXAMPLE)
    practice = next(i for i in a.items if i.level == "meld-practice")
    puzzle = next(i for i in a.items if i.puzzle == "c22-take-the-pack")
    logs = tmp_path / "submitted" / "ann" / "week-1" / "canasta-log"
    play_item(practice, [["discard 4"], [HINT, *solution_line(practice)]], logs)
    play_item(puzzle, [solution_line(puzzle)], logs)
    (tmp_path / "submitted" / "bob" / "week-1").mkdir(parents=True)
    capsys.readouterr()
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    totals = {s["student"]: s["total"] for s in out["students"]}
    assert totals == {"ann": 8 + 5, "bob": 0}
    assert out["gradebook"] is None and out["store"] == {"new": 3, "already": 0}
    with ProgressStore(course_path(tmp_path)) as store:
        rows = store.attempts("ann")
    assert sorted((r["kind"], r["assignment"], r["lesson"], r["level"], r["status"], r["hints"]) for r in rows) == [
        ("assignment", "week-1", "melds", "meld-practice", "open", 0),
        ("assignment", "week-1", "melds", "meld-practice", "passed", 1),
        ("assignment", "week-1", "puzzles", "c22-take-the-pack", "passed", 0)]
    logged = _log(logs, puzzle)["attempts"][0]
    stored = next(r for r in rows if r["level"] == "c22-take-the-pack")
    assert (stored["started"], stored["finished"]) == (logged["started"], logged["last"])
    assert stored["themes"] == ["take-open-pack"]
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["store"] == {"new": 0, "already": 3}


def test_the_puzzle_widget_of_an_item_stays_on_its_puzzle_and_logs_each_attempt(tmp_path):
    from canasta_tutor.assignment_widget import AssignmentPuzzleWidget

    item = _item(kind="puzzle", puzzle="c22-take-the-pack", id="c22", points=5, hint_penalty=2)
    w = AssignmentPuzzleWidget(item.to_dict(), log_dir=str(tmp_path), explain=None)
    assert not log_path(item, tmp_path).exists()
    w.handle({"intent": "hint"})
    w.handle({"intent": "play", "text": "draw"})
    assert w.table.run.status == "missed"
    for intent in ("next", "theme", "streak"):
        again = w.handle({"intent": intent, "theme": "", "on": True})
        assert again == "The same puzzle again: this item is one puzzle."
        assert w.table.run.puzzle.id == "c22-take-the-pack" and w.table.run.status == "open"
    w.handle({"intent": "play", "text": "take 9 9 9"})
    assert w.table.run.status == "solved"
    g = grade_log(item, tmp_path)
    assert (g.statuses, g.hints, g.score) == (["failed", "passed"], 1, 3)


def test_clicks_and_scoring_answers_are_graded_by_replay(tmp_path):
    """A refused click (logged as 'press ...') and a scoring level's answers ('answer ...') replay through the
    engine into the same attempt: the grade comes from the replay, not from the log's word."""
    item = _item(lesson="melds", level="three-cards", seed=0, points=4)
    assert play_item(item, [["press meld KH KD 9H"]], tmp_path) == ["passed"]  # an R-MELD-1 refusal
    assert _log(tmp_path, item)["attempts"][0]["entries"][0]["text"] == "press meld KH KD 9H"
    assert grade_log(item, tmp_path).solved
    score = _item(lesson="scoring", level="count-the-hand", seed=0, points=4, id="s")
    line = ["answer 500 100 100 145 -15 830", "answer 500 100 100 165 -15 850"]
    assert play_item(score, [line], tmp_path) == ["passed"]
    g = grade_log(score, tmp_path)
    assert g.solved and g.score == 4
