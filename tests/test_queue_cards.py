"""The review queue plays every due card at the table (issue 35, part 2's widget), with a fixed clock: a puzzle as
the puzzle trainer plays it, judged and explained by the trainer; a lesson level as the lesson widget plays it, by
its own player; a game mistake as the review judges it.  The answer rates the card in the store (missed is Again,
solved with a hint Hard, solved at once Good), and Next card brings the next card due."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from canasta_tutor.notation.record import load_record
from canasta_tutor.tutor.progress import Attempt, ProgressStore
from canasta_tutor.tutor.review import review_record
from canasta_tutor.tutor.review_queue import card
from canasta_tutor.tutor.review_store import mistakes, save_mistakes
from canasta_tutor.ui.queue import QueuePanel
from canasta_tutor.ui.table import CanastaTable

RECORD = Path(__file__).resolve().parent / "review" / "hand-7.txt"
PUZZLE = "c22-take-the-pack"  # the answer: take 9 9 9; drawing instead is legal, and a miss
LEVEL = "taking-the-pack/natural-pair"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc)  # an hour later: every card missed at T0 is due


def missed_puzzle(path: Path) -> Path:
    with ProgressStore(path) as store:
        store.record(Attempt("learner", "puzzles", PUZZLE, "failed", kind="puzzle", finished=T0.isoformat()))
    return path


def stored(path: Path, kind: str, item: str):
    with ProgressStore(path) as store:
        return card(store, "learner", kind, item)


def open_first(path: Path) -> tuple[CanastaTable, QueuePanel]:
    table = CanastaTable(seed=3, bot_delay=0)
    panel = QueuePanel(table, store=path, now=NOW, explain=None)
    assert panel.view["count"] == 1 and panel.cards[0].kind == "puzzle"
    text = panel.handle({"intent": "next"})
    assert text == f"Puzzle {PUZZLE}. Find the best move for your side this hand: you play South."
    assert panel.view["status"] == "card" and panel.view["card"]["kind"] == "puzzle"
    assert table.view["message"] == text and table.driver is not None
    return table, panel


def test_a_puzzle_solved_at_once_at_the_table_is_good(tmp_path):
    path = missed_puzzle(tmp_path / "p.sqlite3")
    table, panel = open_first(path)
    s = table.session
    table.handle({"intent": "select", "indices": [s.index_of("9H"), s.index_of("9C")]})
    assert table.handle({"intent": "take", "rev": table.view["rev"]}) == "Solved: take 9 9 9 is the answer."
    answer = panel.view["answer"]
    assert panel.view["status"] == "answered" and answer["solved"] and answer["rating"] == "Good"
    assert answer["played"] == "take 9 9 9" and answer["text"] == "Solved: take 9 9 9 is the answer."
    after = stored(path, "puzzle", PUZZLE)
    # FSRS's default learning steps are 1 and 10 minutes: Good moves the card to the second
    assert after.reviews == 2 and after.card.last_review == NOW and after.due == NOW + timedelta(minutes=10)
    assert panel.view["message"] == f"Solved (Good): due again {after.due.isoformat(timespec='minutes')}."
    with ProgressStore(path) as store:  # the trainer saved the attempt, as it saves any puzzle's
        last = store.attempts()[-1]
    assert (last["level"], last["status"], last["hints"]) == (PUZZLE, "passed", 0)
    assert panel.handle({"intent": "next"}) == "That was the last card due." and panel.view["status"] == "done"


def test_a_puzzle_solved_after_a_hint_at_the_table_is_hard(tmp_path):
    path = missed_puzzle(tmp_path / "p.sqlite3")
    table, panel = open_first(path)
    table.handle({"intent": "hint"})  # the table's Hint button: the trainer's hint, which counts
    hints = panel.view["puzzle"]["hints"]
    assert len(hints) == 1 and panel.view["status"] == "card"
    table.play("take 9 9 9")
    answer = panel.view["answer"]
    assert answer["solved"] and answer["rating"] == "Hard"
    assert stored(path, "puzzle", PUZZLE).reviews == 2


def test_a_missed_puzzle_is_again_and_explained_in_the_trainers_words(tmp_path):
    path = missed_puzzle(tmp_path / "p.sqlite3")
    table, panel = open_first(path)
    before = stored(path, "puzzle", PUZZLE)
    table.play("draw")
    answer = panel.view["answer"]
    assert not answer["solved"] and answer["rating"] == "Again" and answer["grade"] == "missed"
    assert answer["text"].startswith("Not this: draw. The answer was take 9 9 9. ")
    assert answer["text"].endswith("The answer: take 9 9 9.")
    after = stored(path, "puzzle", PUZZLE)
    assert after.reviews == before.reviews + 1 and after.lapses == before.lapses + 1
    assert after.due == NOW + timedelta(minutes=1)  # back at FSRS's first learning step


def test_show_the_answer_misses_the_puzzle_and_an_illegal_move_is_refused_unrated(tmp_path):
    path = missed_puzzle(tmp_path / "p.sqlite3")
    table, panel = open_first(path)
    assert panel.handle({"intent": "give_up"}) != "[refused] No puzzle is open."
    assert panel.view["answer"]["rating"] == "Again" and panel.view["answer"]["text"].startswith("Given up.")
    assert panel.handle({"intent": "give_up"}) == "[refused] No puzzle is open."

    path2 = missed_puzzle(tmp_path / "q.sqlite3")
    table, panel = open_first(path2)
    text = table.play("meld 4 5 6")
    assert text.startswith("[refused]") or text.startswith("Not allowed")
    assert panel.view["status"] == "card" and panel.view["answer"] is None
    assert stored(path2, "puzzle", PUZZLE).reviews == 1


@pytest.fixture(scope="module")
def review():
    return review_record(load_record(str(RECORD)), "S", seed=0, samples=24)


def test_the_queue_plays_its_cards_in_order_over_the_kinds(tmp_path, review):
    path = missed_puzzle(tmp_path / "p.sqlite3")
    with ProgressStore(path) as store:
        store.record(Attempt("learner", "taking-the-pack", "natural-pair", "failed", kind="lesson",
                             finished=(T0 + timedelta(minutes=1)).isoformat()))
        assert save_mistakes(store, "learner", review, game="hand-7") >= 1
        first = mistakes(store, "learner")[0]
    later = datetime(2031, 1, 1, tzinfo=timezone.utc)  # the mistakes were saved on the real clock
    table = CanastaTable(seed=3, bot_delay=0)
    panel = QueuePanel(table, store=path, now=later, explain=None)
    kinds = [c.kind for c in panel.cards]
    assert kinds[:2] == ["puzzle", "level"] and set(kinds[2:]) == {"mistake"}  # the longest due first
    panel.handle({"intent": "next"})
    table.play("take 9 9 9")
    assert panel.view["answer"]["rating"] == "Good"
    panel.handle({"intent": "next"})
    assert panel.view["card"] == {"kind": "level", "item": LEVEL, "reviews": 1,
                                  "title": "Lesson Taking the pack, level First way: a natural pair"}
    table.play("take K K K")
    assert panel.view["answer"]["rating"] == "Good" and panel.view["status"] == "answered"
    panel.handle({"intent": "next"})
    assert panel.view["card"]["kind"] == "mistake" and table.driver is None
    assert len(table.state.history) == first["ply"]


def missed_level(path: Path) -> Path:
    with ProgressStore(path) as store:
        store.record(Attempt("learner", "taking-the-pack", "natural-pair", "failed", kind="lesson",
                             finished=T0.isoformat()))
    return path


def open_level_card(path: Path) -> tuple[CanastaTable, QueuePanel]:
    table = CanastaTable(seed=3, bot_delay=0)
    panel = QueuePanel(table, store=path, now=NOW, hint_fn=None)
    assert [c.kind for c in panel.cards] == ["level"]
    text = panel.handle({"intent": "next"})
    assert text == "First way: a natural pair: Take the pack with your pair of kings."
    assert panel.view["status"] == "card" and panel.view["level"]["goal"] == "Take the pack with your pair of kings."
    assert table.view["message"] == text and "undo" not in table.view["buttons"]
    return table, panel


def test_a_level_passed_by_clicks_at_once_is_good(tmp_path):
    path = missed_level(tmp_path / "p.sqlite3")
    table, panel = open_level_card(path)
    s = table.session
    table.handle({"intent": "select", "indices": [s.index_of("KH"), s.index_of("KD")]})
    said = table.handle({"intent": "take", "rev": table.view["rev"]})
    assert said.startswith("Take pack with K♥ K♦ (take K K K): ") and "3 stars" in said
    answer = panel.view["answer"]
    assert answer["solved"] and answer["rating"] == "Good" and answer["grade"] == "3 stars"
    after = stored(path, "level", LEVEL)
    assert after.reviews == 2 and after.due == NOW + timedelta(minutes=10)
    assert all(not b["ok"] for b in table.view["buttons"].values())  # the level is over


def test_a_level_passed_after_a_hint_is_hard(tmp_path):
    path = missed_level(tmp_path / "p.sqlite3")
    table, panel = open_level_card(path)
    assert table.handle({"intent": "hint"}) == "Look at the top of the pile."
    assert panel.view["level"]["hints"] == ["Look at the top of the pile."] and panel.view["status"] == "card"
    table.play("take K K K")
    answer = panel.view["answer"]
    assert answer["solved"] and answer["rating"] == "Hard" and answer["grade"] == "2 stars"


def test_a_level_failed_is_again_and_explained_in_the_lessons_words(tmp_path):
    path = missed_level(tmp_path / "p.sqlite3")
    table, panel = open_level_card(path)
    assert "This level plays take K K K here, not draw." in table.play("draw")
    assert panel.view["status"] == "card"  # a wrong move: the level goes on until it cannot be passed
    table.play("discard 4")
    answer = panel.view["answer"]
    assert not answer["solved"] and answer["rating"] == "Again" and answer["grade"] == "failed"
    assert "You drew instead." in answer["text"] and "(R-PACK-2)" in answer["text"]
    after = stored(path, "level", LEVEL)
    assert after.reviews == 2 and after.lapses == 1 and after.due == NOW + timedelta(minutes=1)


def test_next_on_an_open_puzzle_leaves_it_unsaved_and_gives_the_table_back(tmp_path):
    path = missed_puzzle(tmp_path / "p.sqlite3")
    table, panel = open_first(path)
    assert panel.handle({"intent": "next"}) == "That was the last card due." and table.driver is None
    table.play("draw", run_bots=False)  # the position stays at the table; nothing judges or saves it now
    assert panel.view["answer"] is None and stored(path, "puzzle", PUZZLE).reviews == 1
    with ProgressStore(path) as store:
        assert len(store.attempts()) == 1


def test_a_card_no_longer_in_the_library_or_course_is_said_and_skipped(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record(Attempt("learner", "puzzles", "gone-<b>", "failed", kind="puzzle", finished=T0.isoformat()))
        store.record(Attempt("learner", "no-lesson", "x", "failed", kind="lesson",
                             finished=(T0 + timedelta(minutes=1)).isoformat()))
    table = CanastaTable(seed=3, bot_delay=0)
    panel = QueuePanel(table, store=path, now=NOW, explain=None, hint_fn=None)
    assert panel.handle({"intent": "next"}) == ("This card cannot be played: no puzzle 'gone-<b>' in the library. "
                                                 "Click Next card.")
    assert panel.view["status"] == "answered" and table.driver is None
    assert panel.handle({"intent": "next"}).startswith("Lesson no-lesson, level x: play it again in the lesson's")
    assert panel.view["status"] == "elsewhere"
