"""The lesson player (tutor layer) and the lesson widget's Python side: one level at a
time, hints, feedback, try again, next, escaped text, and progress that survives a restart."""

from __future__ import annotations

from pathlib import Path

from canasta_tutor.ui.lesson import LessonWidget
from canasta_tutor.tutor.lessons.loader import parse_lesson
from canasta_tutor.tutor.lessons.model import Lesson
from canasta_tutor.tutor.lessons.player import CourseOverview, LessonPlayer, course_html, course_overview
from canasta_tutor.tutor.lessons.runner import DEMO
from canasta_tutor.tutor.progress import ProgressStore

TWO_LEVELS = DEMO + '''
[[level]]
id = "second"
title = "Second <b>level</b>"
goal = "Draw a card."
par = 1
position = """
dealer: E
turn: S draw
pile: 5H 6D 9S
N: 11
E: 11
S: 9H 9C KH KD KS 4D 7C 7S TD JK 4S
W: 11
"""
success = { played = "draw" }
solutions = [["draw"]]
hints = ["Try <script>x</script> **draw**."]
'''


def lesson() -> Lesson:
    return parse_lesson(TWO_LEVELS, "two.toml")


def test_levels_one_at_a_time_with_next_and_retry() -> None:
    p = LessonPlayer(lesson(), hint_fn=None)
    v = p.view()
    assert v["index"] == 0 and v["has_next"] and v["status"] == "open" and "ct-table" in v["table"]
    p.act("discard 4")
    v = p.view()
    assert v["feedback"][0]["rule"] == "R-TURN-2" and not v["feedback"][0]["accepted"]
    p.retry()
    assert p.view()["feedback"] == [] and p.run.tries == 0
    assert p.next()
    assert p.view()["index"] == 1 and not p.view()["has_next"]
    assert not p.next()


def test_text_is_escaped_and_hints_are_staged() -> None:
    p = LessonPlayer(lesson(), hint_fn=None, level=1)
    v = p.view()
    assert v["level"]["title"] == "Second &lt;b&gt;level&lt;/b&gt;"
    assert p.hint() == "Try <script>x</script> **draw**."
    v = p.view()
    assert v["hints"] == ["<p>Try &lt;script&gt;x&lt;/script&gt; <strong>draw</strong>.</p>"]
    assert not v["has_hints"] and p.hint() is None
    p.act("draw")
    assert p.view()["stars"] == 2  # one hint used


def test_progress_is_saved_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    store = ProgressStore(path)
    p = LessonPlayer(lesson(), learner="s01", store=store, hint_fn=None)
    p.act("take 9 9 9")
    store.close()
    store = ProgressStore(path)  # a new kernel: a new store object on the same file
    p = LessonPlayer(lesson(), learner="s01", store=store, hint_fn=None)
    assert [lv["stars"] for lv in p.view()["levels"]] == [3, 0]
    rows = course_overview([lesson()], "s01", store)
    assert rows[0]["stars"] == 3 and rows[0]["max_stars"] == 6 and rows[0]["solved"] == 1
    assert "★ 3 / 6" in course_html([lesson()], "s01", store)
    assert course_overview([lesson()], "s02", store)[0]["stars"] == 0
    store.close()


def test_failed_attempts_are_saved_without_stars(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        p = LessonPlayer(lesson(), learner="s01", store=store, hint_fn=None)
        p.act("draw")
        p.act("discard 4")
        assert p.run.status == "failed"
        (a,) = store.attempts("s01")
        assert a["status"] == "failed" and a["stars"] == 0 and store.stars_for("s01") == {}


def test_widget_intents(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        w = LessonWidget(lesson(), learner="s01", store=store, hint_fn=None)
        assert w.handle({"intent": "act", "text": "take 9 9 9"}) == "passed"
        assert w.view["levels"][0]["stars"] == 3
        # the conclusion is said once, with the stars and how they were counted, not also in the feedback
        assert w.view["conclusion"] == "<p>Level passed.</p>"
        assert "<p>Level passed.</p>" not in w.view["feedback"][-1]["lines"]
        assert w.view["star_text"].startswith("3 stars: 1 move against a par of 1; no hint.")
        assert w.handle({"intent": "act", "text": "draw"}).startswith("This level is over")
        assert w.handle({"intent": "next"}) == "open" and w.view["index"] == 1
        assert w.handle({"intent": "next"}) == "That was the last level of this lesson."
        assert w.handle({"intent": "hint"}) == "open" and len(w.view["hints"]) == 1
        assert w.handle({"intent": "hint"}) == "No more hints for this level."
        assert w.handle({"intent": "goto", "index": 0}) == "open" and w.view["index"] == 0
        assert w.handle({"intent": "goto", "index": 7}).startswith("lesson 'demo' has levels 1 to 2")
        assert w.handle({"intent": "fly"}) == "Unknown intent 'fly'."
        assert w.view["quick"] == ["draw"]  # one-word actions that are legal now get a button
        w.handle({"intent": "retry"})
        assert w.view["feedback"] == [] and w.view["status"] == "open"


def test_course_overview_of_the_real_course() -> None:
    overview = CourseOverview(store=None)
    rows = overview.rows()
    assert [r["order"] for r in rows] == sorted(r["order"] for r in rows)
    assert all(r["stars"] == 0 for r in rows)


def test_widget_press_plans_the_actions_from_clicked_cards(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        w = LessonWidget(lesson(), learner="s01", store=store, hint_fn=None)
        assert w.view["buttons"] == ["draw", "take", "meld", "add", "discard", "ask", "yes", "no", "pass", "go_out"]
        # a discard before drawing: the engine's refusal, answered and counted like a typed one
        assert w.handle({"intent": "press", "button": "discard", "cards": ["4D"]}) == "open"
        assert w.view["feedback"][-1]["rule"] == "R-TURN-2" and w.player.run.tries == 1
        assert w.handle({"intent": "press", "button": "meld", "cards": []}) == "Select the cards to meld first."
        assert w.handle({"intent": "press", "button": "take", "cards": ["QH"]}) == "'QH' is not in your hand."
        assert w.handle({"intent": "press", "button": "take", "cards": ["9H", "9C"]}) == "passed"
        # the answer is named by the click as the learner made it, and what it played
        assert w.view["feedback"][-1]["action"] == "Take pack with 9♥ 9♣ (take 9 9 9)"


FOUR_KINGS = DEMO.replace('id = "demo"', 'id = "kings"').split("[[level]]")[0] + '''
[[level]]
id = "four-kings"
title = "Four kings"
goal = "Meld your four kings."
par = 3
position = """
dealer: E
turn: S draw
pile: 5H 6D 9S
N: 11
E: 11
S: KH KD KS KC 4D 7C 7S TD 4S 5S 6S
W: 11
melds NS: 8H 8D 8S
"""
success = { melded_at_least = 40 }
solutions = [["draw", "meld K K K", "add K"]]
'''


def test_a_press_can_play_several_actions() -> None:
    p = LessonPlayer(parse_lesson(FOUR_KINGS, "kings.toml"), hint_fn=None)
    assert [r.notation for r in p.press("draw")] == ["draw"]
    results = p.press("meld", ["KH", "KD", "KS", "KC"])
    assert [r.notation for r in results] == ["meld K K K", "add K"]
    assert results[-1].status == "passed" and p.run.stars() == 3


def test_the_widget_shows_a_wrong_move_at_once_with_the_session_log() -> None:
    w = LessonWidget(lesson(), store=None, hint_fn=None)
    assert w.handle({"intent": "press", "button": "draw"}) == "open"
    answer = w.view["feedback"][-1]
    assert answer["accepted"] is True and answer["wrong"] is True and answer["status"] == "open"
    assert answer["lines"][0].startswith("<p>You drew ")  # the session layer's text for the action
    assert answer["lines"][1] == ("<p>This level plays take 9 9 9 here, not draw. "
                                  "Drawing leaves the 4-card pack to the others.</p>")
    assert w.player.run.table_log()[-1]["text"].startswith("You drew ")
