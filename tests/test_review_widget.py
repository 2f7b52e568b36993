"""The Review panel at the table (issue 35, part 3): its view model, the background review, retry and save.

The browser half is tested in tests/browser/test_review_browser.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from canasta_tutor.notation.record import load_record, parse_record, replay
from canasta_tutor.ui.review import ReviewPanel, review_view
from canasta_tutor.engine.state import HAND_OVER
from canasta_tutor.tutor.progress import ProgressStore
from canasta_tutor.tutor.review_queue import queue
from canasta_tutor.ui.table import CanastaTable

HERE = Path(__file__).resolve().parent
RECORD = HERE / "review" / "hand-7.txt"
JS = HERE.parent / "widgets" / "review.js"
SAMPLES = 24


def _table(upto: int | None = None) -> CanastaTable:
    record = load_record(str(RECORD))
    if upto is not None:
        record.actions = record.actions[:upto]
        record.action_lines = record.action_lines[:upto]
        record.result = None
    return CanastaTable(state=replay(record), bot_delay=0)


@pytest.fixture(scope="module")
def reviewed() -> ReviewPanel:
    panel = ReviewPanel(_table(), samples=SAMPLES, auto=False, store=False)
    assert panel.handle({"intent": "review"}).startswith("Reviewing hand 1")
    assert panel.wait(300)
    return panel


def test_the_view_model_is_plain_data_with_the_words_of_the_review(reviewed):
    v = reviewed.view
    assert v["status"] == "done" and v["done"] == v["total"] == len(v["decisions"]) >= 10
    assert v["accuracy"].endswith("%") and "share of your decisions graded best or good" in v["accuracy_means"]
    worst = [d for d in v["decisions"] if d["ply"] in v["costliest"]]
    assert worst and all(d["explanation"].startswith(f"You played {d['action']}") for d in worst)
    assert {d["grade"] for d in v["decisions"]} <= set(v["grades"])


def test_the_browser_sets_every_text_as_text():
    for path in (JS, JS.with_name("queue.js")):
        js = path.read_text()
        assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "outerHTML" not in js, path.name
        assert "textContent" in js, path.name


def test_markup_in_a_message_stays_text():
    v = review_view("error", message="<img src=x onerror=alert(1)>")
    assert v["message"] == "<img src=x onerror=alert(1)>"  # drawn with textContent, never parsed


def test_try_again_opens_the_position_with_the_coach_and_back_returns(reviewed):
    table = reviewed.table
    game = table.session
    d = next(x for x in reviewed.review.decisions if x.mistake)
    text = reviewed.handle({"intent": "retry", "ply": d.ply})
    assert text.startswith(f"Try again from here: you played {d.text}")
    s = table.session
    assert s is not game and s.coach_on and len(s.state.history) == d.ply
    assert table.view["message"] == text and reviewed.view["retrying"] == d.ply
    # the position is the learner's as it was: the move played there is legal again, and graded by the coach
    table.play(d.text, run_bots=False)
    table._grade()
    assert s.coach_last is not None and s.coach_last["grade"] in ("mistake", "blunder", "inaccuracy", "good")
    assert reviewed.handle({"intent": "back"}) == "Back to the game."
    assert table.session is game and reviewed.view["retrying"] is None
    assert reviewed.handle({"intent": "retry", "ply": -5}).startswith("[refused]")
    assert reviewed.handle({"intent": "retry", "ply": True}).startswith("[refused]")
    assert reviewed.handle({"intent": "fly"}) == "[refused] Unknown intent 'fly'."


def test_save_puts_the_mistakes_in_the_review_queue(tmp_path, reviewed):
    path = tmp_path / "p.sqlite3"
    reviewed.store, reviewed.learner = path, "s01"
    try:
        text = reviewed.handle({"intent": "save"})
    finally:
        reviewed.store = False
    n = len(reviewed.review.mistakes)
    assert re.match(rf"Saved {n} new mistakes?: {n} cards in your review queue\.", text)
    assert reviewed.view["queued"] == n
    with ProgressStore(path) as store:
        assert sorted(c.kind for c in queue(store, "s01")) == ["mistake"] * n


def test_a_review_starts_when_the_hand_ends_and_the_table_stays_usable():
    last_s = max(i for i, (seat, _) in enumerate(load_record(str(RECORD)).actions) if seat == "S")
    table = _table(upto=last_s)
    panel = ReviewPanel(table, samples=SAMPLES, store=False)
    assert panel.view["status"] == "idle"
    move = parse_record(RECORD.read_text()).actions[last_s][1]
    from canasta_tutor.notation.actions import format_action

    table.play(format_action(move))  # the bots then play the hand to its end
    assert table.state.phase == HAND_OVER
    assert panel.view["status"] == "running"
    # while the review runs in its thread, the table answers
    assert table.handle({"intent": "fly"}).startswith("[refused]")
    assert panel.wait(300) and panel.view["status"] == "done"
    assert panel.handle({"intent": "review"}).startswith("Reviewing")  # on demand, again
    assert panel.wait(300)


def test_a_table_with_no_record_says_so():
    from canasta_tutor.notation.position import parse_position

    state = parse_position((HERE / "golden" / "hints" / "01-frozen-by-wild-card.txt").read_text())
    panel = ReviewPanel(CanastaTable(state=state, bot_delay=0), auto=False, store=False)
    panel.handle({"intent": "review"})
    panel.wait(60)
    assert panel.view["status"] == "error" and panel.view["message"]


def test_a_panel_with_a_store_keeps_the_mistakes_when_its_review_is_done(tmp_path):
    path = tmp_path / "p.sqlite3"
    panel = ReviewPanel(_table(), samples=SAMPLES, store=path, learner="s01")  # the hand is over: it reviews
    assert panel.wait(300)
    n = len(panel.review.mistakes)
    assert n >= 1 and panel.view["queued"] == n
    assert re.match(r"Hand 1: \d+ decisions graded \(\d+ forced moves not graded\)\. Saved \d+ new mistakes?: "
                    r"\d+ cards in your review queue\.$", panel.view["message"])
    with ProgressStore(path) as store:
        assert len(queue(store, "s01")) == n
