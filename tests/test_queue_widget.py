"""The review queue at the table (issue 35, part 2's widget): due cards in order; a game mistake is played
again at the table and judged by the review's own grade."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from canasta_tutor.ui.queue import QueuePanel
from canasta_tutor.notation.record import load_record
from canasta_tutor.tutor.progress import Attempt, ProgressStore
from canasta_tutor.tutor.review import review_record
from canasta_tutor.tutor.review_store import mistakes, save_mistakes
from canasta_tutor.ui.table import CanastaTable

RECORD = Path(__file__).resolve().parent / "review" / "hand-7.txt"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
LATER = datetime(2031, 1, 1, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def review():
    return review_record(load_record(str(RECORD)), "S", seed=0, samples=24)


@pytest.fixture
def saved(tmp_path, review) -> Path:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record(Attempt("learner", "puzzles", "c01-frozen-by-wild-card", "failed", kind="puzzle",
                             finished=T0.isoformat()))
        assert save_mistakes(store, "learner", review, game="hand-7") >= 1
    return path


def test_due_cards_come_in_order_and_a_mistake_is_played_again_at_the_table(saved):
    table = CanastaTable(seed=3, bot_delay=0)
    panel = QueuePanel(table, store=saved, now=LATER, explain=None)
    with ProgressStore(saved) as store:
        first = mistakes(store, "learner")[0]
    assert panel.view["status"] == "idle" and panel.view["count"] >= 2
    assert panel.cards[0].kind == "puzzle"  # the longest due first
    assert panel.handle({"intent": "next"}).startswith("Puzzle c01-") and panel.view["status"] == "card"
    text = panel.handle({"intent": "next"})
    assert text.startswith("From your game (hand-7, hand 1)") and panel.view["card"]["kind"] == "mistake"
    assert table.view["message"] == text and len(table.state.history) == first["ply"]
    table.play(first["best"], run_bots=False)  # the hint's move: solved at once
    answer = panel.view["answer"]
    assert panel.view["status"] == "answered" and answer["solved"] and answer["rating"] == "Good"
    assert panel.view["message"].startswith("Solved (Good): due again ")


def test_the_move_played_in_the_game_misses_again_with_words(saved):
    table = CanastaTable(seed=3, bot_delay=0)
    panel = QueuePanel(table, store=saved, now=LATER)
    while panel.view["card"].get("kind") != "mistake":
        panel.handle({"intent": "next"})
    row = next(m for m in mistakes_of(saved) if m["uid"] == panel.view["card"]["item"])
    table.play(row["action"], run_bots=False)
    answer = panel.view["answer"]
    assert not answer["solved"] and answer["rating"] == "Again"
    assert answer["text"].startswith(f"You played {row['action']}: ")


def mistakes_of(path: Path) -> list[dict]:
    with ProgressStore(path) as store:
        return mistakes(store, "learner")


def test_an_empty_queue_says_so(tmp_path):
    panel = QueuePanel(CanastaTable(seed=3, bot_delay=0), store=tmp_path / "p.sqlite3", now=LATER)
    assert panel.view["status"] == "empty" and panel.handle({"intent": "fly"}).startswith("[refused]")
