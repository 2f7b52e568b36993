"""A graded item is an exam, not a trainer: the assignment widgets' sessions, without a browser
(tests/browser/test_class_browser.py clicks the same widgets in JupyterLab).

- only the item: the trainer's intents (next, theme, streak, timed run) are refused, and the panel
  shows no ID, rating, theme or streak;
- a wrong move says why, never the answer, while the item is open; the answer once it is closed,
  and a given-up item earns nothing;
- a hint is charged once, the button is off when no new hint is left, and says its cost in points;
- the log's limits are warned before and never passed: an honest student is never zeroed in silence;
  an unreadable log is reported.
"""

from __future__ import annotations

import json

import pytest

from canasta_tutor.ui.assignment import AssignmentItemWidget, AssignmentPuzzleWidget
from canasta_tutor.tutor.assignments import grading
from canasta_tutor.tutor.assignments.exam import ExamError
from canasta_tutor.tutor.assignments.grading import grade_log, log_path
from canasta_tutor.tutor.assignments.sessions import ExamLevel, ExamPuzzle
from canasta_tutor.tutor.assignments.spec import Item

STUDENT = "s01"
PUZZLE = Item(id="p4", kind="puzzle", puzzle="c22-take-the-pack", points=5, hint_penalty=2, number=4,
              assignment="w")
LEVEL = Item(id="l1", kind="level", lesson="melds", level="natural-meld", points=10, hint_penalty=2, number=1,
             title="A natural meld", assignment="w")


def _text(x: object) -> str:
    return json.dumps(x, ensure_ascii=False)


# ------------------------------------------------------------------ a puzzle item
def test_a_puzzle_item_is_the_item_and_nothing_else(tmp_path):
    t = ExamPuzzle(PUZZLE, STUDENT, str(tmp_path))
    for msg in ({"intent": "next"}, {"intent": "theme", "theme": ""}, {"intent": "streak", "on": True},
                {"intent": "timed", "on": True}):
        assert t.handle(msg).startswith("Not in an assignment")
        assert t.run.puzzle.id == "c22-take-the-pack" and t.trainer.streak_mode is False and t.timed is None
    panel = t.panel()
    assert panel["id"] == "Puzzle 4" and "c22" not in _text(panel) and "c22" not in _text(t.view())
    assert (panel["rating"], panel["puzzle_rating"], panel["theme_list"], panel["summary"]) == (None, None, [], [])
    assert not log_path(PUZZLE, tmp_path).exists()   # refused intents log nothing


def test_a_wrong_puzzle_move_says_why_but_not_the_answer_until_the_item_closes(tmp_path):
    t = ExamPuzzle(PUZZLE, STUDENT, str(tmp_path))
    assert t.handle({"intent": "play", "text": "draw"}) == "Not this: draw."
    seen = _text(t.panel()) + _text(t.view())
    assert "take 9 9 9" not in seen and "The answer" not in seen and "answer was" not in seen
    assert t.panel()["explanation"]   # the reason, in words
    assert t.handle({"intent": "play", "text": "take 9 9 9"}).startswith("Not this time")   # the attempt is over
    assert t.handle({"intent": "retry"}) == "Attempt 2."
    assert t.handle({"intent": "play", "text": "discard 4"}) == "Not allowed: discard 4."
    assert "[R-TURN-2]" in t.panel()["explanation"] and "take 9 9 9" not in _text(t.panel())
    assert t.handle({"intent": "retry"}) == "Attempt 3."
    assert t.handle({"intent": "give_up"}) == "Given up. The answer was take 9 9 9."
    ex = t.panel()["exam"]
    assert (ex["closed"], ex["answer"], ex["can_retry"], ex["can_give_up"]) == ("given up", "take 9 9 9", False, False)
    assert ex["why"].startswith("A pair of nines takes an eight-card pack.")
    assert ex["result"] == "4. Puzzle 4: given up (3 attempts, replayed): 0 of 5 points"
    assert t.handle({"intent": "retry"}).startswith("You gave this item up")
    assert t.handle({"intent": "play", "text": "take 9 9 9"}).startswith("You gave this item up")
    assert grade_log(PUZZLE, tmp_path, student=STUDENT).score == 0


def test_a_hint_is_charged_once_and_the_button_says_its_cost_and_turns_off(tmp_path):
    w = AssignmentPuzzleWidget(PUZZLE.cell_dict(), log_dir=str(tmp_path), student=STUDENT)
    hint = w.view["buttons"]["hint"]
    assert (hint["ok"], hint["label"]) == (True, "Hint (costs 2 points)")
    first = w.handle({"intent": "hint"})
    w.handle({"intent": "play", "text": "draw"})
    w.handle({"intent": "retry"})
    assert w.puzzle["hints"] == [first]   # seen in attempt 1, still shown
    second = w.handle({"intent": "hint"})  # a nudge in plain words (issue 31), then the kind of move
    assert second != first and w.view["buttons"]["hint"]["ok"] is True
    third = w.handle({"intent": "hint"})
    assert third not in (first, second) and w.view["buttons"]["hint"]["ok"] is False
    for _ in range(3):
        assert w.handle({"intent": "hint"}) == "No new hint: you have seen all 3 hints of this item."
    w.handle({"intent": "play", "text": "take 9 9 9"})
    g = grade_log(PUZZLE, tmp_path, student=STUDENT)
    assert (g.solved, g.hints, g.score) == (True, 3, 0)
    assert w.puzzle["exam"]["result"] == g.line()   # the widget shows what the grader will give


def test_a_reopened_notebook_goes_on_where_the_item_was(tmp_path):
    t = ExamPuzzle(PUZZLE, STUDENT, str(tmp_path))
    hint = t.handle({"intent": "hint"})
    t.handle({"intent": "play", "text": "draw"})
    again = ExamPuzzle(PUZZLE, STUDENT, str(tmp_path))
    assert (again.hints_seen, again.panel()["hints"], again.attempt_no) == (1, [hint], 2)
    again.handle({"intent": "play", "text": "take 9 9 9"})
    closed = ExamPuzzle(PUZZLE, STUDENT, str(tmp_path))
    assert closed.closed == "solved" and closed.panel()["exam"]["answer"] == "take 9 9 9"
    assert closed.handle({"intent": "play", "text": "take 9 9 9"}).startswith("This item is solved")


# ------------------------------------------------------------------ a lesson level item
def test_a_wrong_level_move_says_why_without_the_lessons_answer(tmp_path):
    w = AssignmentItemWidget(LEVEL.cell_dict(), log_dir=str(tmp_path), student=STUDENT)
    v = w.view
    assert v["levels"] == [] and v["has_next"] is False and v["exam"]["hint_label"] == "Hint (costs 2 points)"
    w.handle({"intent": "act", "text": "discard 5"})
    v = w.view
    shown = _text(v["feedback"])
    assert v["status"] == "failed" and "Not this time: the goal was not reached." in shown
    assert "meld 7 7 7" not in shown and "sevens still in your hand" not in shown   # the lesson's text names it
    assert w.handle({"intent": "next"}) == "An assignment item is one level."
    assert w.handle({"intent": "retry"}) == "open" and w.view["exam"]["attempt"] == 2
    for _ in range(3):
        w.handle({"intent": "hint"})
    assert w.view["has_hints"] is False and len(w.view["hints"]) == 3
    assert w.handle({"intent": "hint"}) == "No new hint: you have seen all 3 hints of this item."
    w.handle({"intent": "give_up"})
    ex = w.view["exam"]
    assert (ex["closed"], ex["answer"]) == ("given up", "meld 7 7 7")
    assert w.handle({"intent": "act", "text": "meld 7 7 7"}).startswith("You gave this item up")
    assert grade_log(LEVEL, tmp_path, student=STUDENT).score == 0


def test_the_level_is_dealt_for_the_student():
    practice = Item(id="m", kind="level", lesson="melds", level="meld-practice", seed=7, points=10, number=3,
                    assignment="w")
    s01, s02 = ExamLevel(practice, "s01", "/nonexistent"), ExamLevel(practice, "s02", "/nonexistent")
    assert s01.run.setup_text != s02.run.setup_text
    assert ExamLevel(practice, "s01", "/nonexistent").run.setup_text == s01.run.setup_text
    ex = s01.view()["exam"]   # the widget says whose deal it is: a wrong login shows before submitting
    assert (ex["own_deal"], ex["student"]) == (True, "s01")
    first = s01.run.setup_text
    s01.act("discard 4")
    s01.retry()
    assert s01.run.setup_text == first   # Try again keeps the student's one deal (the grader replays on it)


# ------------------------------------------------------------------ the log's limits
@pytest.fixture
def small_log(monkeypatch):
    monkeypatch.setattr(grading, "MAX_ATTEMPTS", 6)
    monkeypatch.setattr(grading, "WARN_ATTEMPTS", 2)


def test_an_honest_student_is_warned_before_the_log_is_full_and_never_zeroed_in_silence(tmp_path, small_log):
    t = ExamPuzzle(PUZZLE, STUDENT, str(tmp_path))
    warnings = []
    for n in range(6):
        if n:
            assert t.handle({"intent": "retry"}) == f"Attempt {n + 1}."
        t.handle({"intent": "play", "text": "draw"})
        warnings.append(t.panel()["exam"]["warning"])
    assert warnings[:3] == ["", "", ""] and warnings[3].startswith("4 of the 6 attempts this item's log can hold")
    refused = t.handle({"intent": "retry"})
    assert refused.startswith("This item's log holds 6 attempts, the most a log may")
    assert t.handle({"intent": "play", "text": "take 9 9 9"}).startswith("Not this time")
    assert t.run.status == "missed" and t.closed == ""   # the widget never says solved ...
    g = grade_log(PUZZLE, tmp_path, student=STUDENT)
    assert (g.message, g.attempts, g.score) == ("", 6, 0)   # ... and the log stays readable: no silent zero


def test_a_log_near_its_size_limit_refuses_the_entry_that_would_pass_it(tmp_path, monkeypatch):
    monkeypatch.setattr(grading, "MAX_LOG_BYTES", 4000)
    s = ExamLevel(LEVEL, STUDENT, str(tmp_path))
    refused = ""
    for _ in range(50):
        try:
            s.act("discard 9")   # refused by the engine each time: the attempt goes on
        except ExamError as e:
            refused = str(e)
            break
    assert refused.startswith("This item's log is full (4,000 bytes)")
    assert log_path(LEVEL, tmp_path).stat().st_size <= 4000
    assert grade_log(LEVEL, tmp_path, student=STUDENT).message == ""


def test_an_unreadable_log_is_reported_to_the_student_and_kept(tmp_path):
    path = log_path(LEVEL, tmp_path)
    path.write_text("{broken", encoding="utf-8")
    w = AssignmentItemWidget(LEVEL.cell_dict(), log_dir=str(tmp_path), student=STUDENT)
    notice = w.view["notice"]
    assert notice.startswith("Your earlier log for this item could not be read (l1.json: not a JSON log")
    assert "l1.unreadable-1.json" in notice and "not graded" in notice
    assert (tmp_path / "l1.unreadable-1.json").read_text(encoding="utf-8") == "{broken"
    assert not path.exists()
