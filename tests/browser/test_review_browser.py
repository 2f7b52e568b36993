"""The Review panel in a real JupyterLab + Debian chromium (issue 35).

The notebook sets the table at South's last decision of the recorded hand ``tests/review/hand-7.txt`` and
puts the Review panel under it.  Only by clicks: South discards the joker (the bots then play the hand to its
end), the panel reviews the hand by itself, in the background, and shows South's decisions graded with the
costliest explained in words; "Try again from here" on a mistake opens that position at the table; "Back to
the game" returns; "Save" puts the mistakes in the review queue, a kernel cell finds them there, and the
queue panel under a second table opens the saved mistake at that table; then a missed puzzle joins the queue,
and the queue plays it at that table by clicks, as the puzzle trainer does, and rates it Good; last a failed lesson
level, played there by clicks as its lesson plays it (a hint, then the take: two stars, Hard).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect
from table_page import SELECTED, Table, kernel_print

from canasta_tutor.notation.record import load_record

pytestmark = pytest.mark.browser

RECORD = Path(__file__).resolve().parent.parent / "review" / "hand-7.txt"
NOTEBOOK = "review-at-the-table.ipynb"
PUZZLE = "c22-take-the-pack"  # the answer: take 9 9 9 (South holds 9♥ 9♣)
REVIEW_TIMEOUT_MS = 240_000  # the review itself: a few CPU seconds, more on a busy machine


def _notebook(last_s: int) -> dict:
    setup = (
        "from canasta_tutor.notation.record import load_record, replay\n"
        "from canasta_tutor.ui.review import ReviewPanel\n"
        "from canasta_tutor.ui.table import CanastaTable\n"
        "\n"
        "record = load_record('hand-7.txt')\n"
        f"record.actions, record.action_lines, record.result = record.actions[:{last_s}], "
        f"record.action_lines[:{last_s}], None\n"
        "table = CanastaTable(state=replay(record), bot_delay=0)\n"
        "table"
    )
    panel = "panel = ReviewPanel(table, samples=24, store='review-test.sqlite3')\npanel"
    practice = ("from datetime import datetime, timezone\n"
                "from canasta_tutor.ui.queue import QueuePanel\n"
                "practice = CanastaTable(seed=3, bot_delay=0)\n"
                "practice")
    # the queue read as of a later day: a card saved now is due one minute later
    queue = "QueuePanel(practice, store='review-test.sqlite3', now=datetime(2031, 1, 1, tzinfo=timezone.utc))"

    def cell(src: str) -> dict:
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": src}

    kernel = {"name": "python3", "language": "python", "display_name": "Python 3 (ipykernel)"}
    return {"cells": [cell(setup), cell(panel), cell(practice), cell(queue)], "metadata": {"kernelspec": kernel},
            "nbformat": 4, "nbformat_minor": 5}


def test_review_a_hand_retry_a_decision_and_find_it_in_the_queue(lab, jupyter_server, artifacts_dir):
    actions = load_record(str(RECORD)).actions
    last_s = max(i for i, (seat, _) in enumerate(actions) if seat == "S")
    root = Path(jupyter_server.root_dir)
    shutil.copy(RECORD, root / "hand-7.txt")
    (root / NOTEBOOK).write_text(json.dumps(_notebook(last_s)))
    page = lab.open(NOTEBOOK)
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = Table(page)
    review = page.locator(".jp-OutputArea-output .cr-root").first
    expect(review).to_have_attribute("data-status", "idle")

    # South's last move, by clicks: the joker, then Discard; the bots play the hand to its end
    t.click_card("JK")
    t.click(t.button("discard"))
    # the panel reviews the hand by itself, in the kernel's background
    expect(review).to_have_attribute("data-status", "done", timeout=REVIEW_TIMEOUT_MS)
    rows = review.locator(".cr-row")
    assert rows.count() >= 10
    worst = review.locator(".cr-explanation").first
    expect(worst).to_contain_text("You played ")
    expect(worst).to_contain_text("The hint plays ")
    expect(review.locator(".cr-accuracy")).to_contain_text("Accuracy ")
    review.scroll_into_view_if_needed()
    lab.screenshot("review-done")

    # try again from a mistake: the table shows that position, with the coach's words
    mistake = review.locator('.cr-row[data-grade="mistake"], .cr-row[data-grade="blunder"]').first
    played = mistake.locator(".cr-move").inner_text()
    mistake.locator('button[data-cr="retry"]').click()
    expect(t.message()).to_contain_text(f"Try again from here: you played {played}")
    assert "len(history)=" + mistake.get_attribute("data-ply") in kernel_print(
        page, "print(f'len(history)={len(table.session.state.history)}')")
    lab.screenshot("review-retry")
    review.locator('button[data-cr="back"]').click()
    expect(t.message()).not_to_contain_text("Try again")

    # save: the mistakes are in the review queue
    review.locator('button[data-cr="save"]').click()
    queued = review.locator(".cr-queued")
    expect(queued).to_contain_text("cards in your review queue")
    n = int(queued.get_attribute("data-count"))
    assert n >= 1
    out = kernel_print(page, "from canasta_tutor.tutor.progress import ProgressStore\n"
                             "from canasta_tutor.tutor.review_queue import queue\n"
                             "with ProgressStore('review-test.sqlite3') as s:\n"
                             "    print(sorted({c.kind for c in queue(s, 'learner')}), len(queue(s, 'learner')))")
    assert out.strip() == f"['mistake'] {n}"

    # the review queue at the table: the saved mistake is there, and opens where it arose
    q = page.locator(".jp-OutputArea-output .cq-root").first
    expect(q).to_have_attribute("data-status", "empty")
    q.locator('button[data-cq="reload"]').click()
    expect(q).to_have_attribute("data-count", str(n))
    q.locator('button[data-cq="next"]').click()
    expect(q.locator(".cq-card")).to_have_attribute("data-kind", "mistake")
    practice = page.locator(".jp-OutputArea-output .ct-root").nth(1)
    expect(practice.locator(".ct-message")).to_contain_text("From your game (table, hand 1)")
    q.scroll_into_view_if_needed()
    lab.screenshot("review-queue")

    # a puzzle missed earlier joins the queue; the queue plays it at the same table, by clicks, as the trainer
    out = kernel_print(page, "from canasta_tutor.tutor.progress import Attempt\n"
                             "with ProgressStore('review-test.sqlite3') as s:\n"
                             f"    s.record(Attempt('learner', 'puzzles', '{PUZZLE}', 'failed', kind='puzzle', "
                             "finished='2026-01-05T09:00:00+00:00'))\n"
                             "print('saved')")
    assert out.strip() == "saved"
    q.locator('button[data-cq="reload"]').click()
    expect(q).to_have_attribute("data-count", str(n + 1))
    q.locator('button[data-cq="next"]').click()  # the longest due first: the puzzle
    expect(q.locator(".cq-card")).to_have_attribute("data-kind", "puzzle")
    expect(practice.locator(".ct-message")).to_contain_text(f"Puzzle {PUZZLE}.")
    for code in ("9H", "9C"):  # (Table's timed clicks watch the first table only)
        card = practice.locator(f'.ct-my-hand .ct-card[data-card="{code}"]')
        card.click()
        expect(card).to_have_class(SELECTED)
    practice.locator('.ct-btn[data-intent="take"]').click()
    expect(q.locator(".cq-verdict")).to_have_attribute("data-solved", "true")
    expect(q.locator(".cq-verdict")).to_have_text("take 9 9 9: solved")
    expect(q.locator(".cr-message")).to_contain_text("Solved (Good): due again ")
    out = kernel_print(page, "from canasta_tutor.tutor.review_queue import card\n"
                             "with ProgressStore('review-test.sqlite3') as s:\n"
                             f"    c = card(s, 'learner', 'puzzle', '{PUZZLE}')\n"
                             "    print(c.reviews, c.card.last_review.year, s.attempts()[-1]['status'])")
    assert out.strip() == "2 2031 passed"
    q.scroll_into_view_if_needed()
    lab.screenshot("review-queue-puzzle")

    # a lesson level failed earlier: the queue plays it at the same table as its lesson does; a hint, then the take
    out = kernel_print(page, "with ProgressStore('review-test.sqlite3') as s:\n"
                             "    s.record(Attempt('learner', 'taking-the-pack', 'natural-pair', 'failed', "
                             "kind='lesson', finished='2026-01-05T10:00:00+00:00'))\n"
                             "print('saved')")
    assert out.strip() == "saved"
    q.locator('button[data-cq="reload"]').click()
    expect(q).to_have_attribute("data-count", str(n + 1))  # the puzzle, answered Good, is not due yet
    q.locator('button[data-cq="next"]').click()
    expect(q.locator(".cq-card")).to_have_attribute("data-kind", "level")
    expect(practice.locator(".ct-message")).to_contain_text("Take the pack with your pair of kings.")
    practice.locator('.ct-btn[data-intent="hint"]').click()
    expect(q.locator(".cq-hint")).to_have_text("Hint: Look at the top of the pile.")
    for code in ("KH", "KD"):
        card = practice.locator(f'.ct-my-hand .ct-card[data-card="{code}"]')
        card.click()
        expect(card).to_have_class(SELECTED)
    practice.locator('.ct-btn[data-intent="take"]').click()
    expect(q.locator(".cq-verdict")).to_have_text("take K K K: 2 stars")
    expect(q.locator(".cr-message")).to_contain_text("Solved (Hard): due again ")
    expect(practice.locator(".ct-message")).to_contain_text("the first way to take the pack")
    q.scroll_into_view_if_needed()
    lab.screenshot("review-queue-level")
