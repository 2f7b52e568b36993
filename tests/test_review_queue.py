"""The review queue (issue 35, part 2): FSRS cards for missed levels, puzzles and game mistakes, on a fake clock.

Every test passes its own times (``now=``, attempts' ``finished``): nothing reads the machine's clock.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Card, Rating
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor.cli.main import main
from canasta_tutor.engine.errors import IllegalActionError
from canasta_tutor.notation.record import load_record
from canasta_tutor.tutor.progress import Attempt, ProgressStore
from canasta_tutor.tutor.review import review_record
from canasta_tutor.tutor.review_practice import answer_mistake, question
from canasta_tutor.tutor.review_queue import (LEARNED_DAYS, counts, due, queue, rate, rating_for, scheduler,
                                              sync)
from canasta_tutor.tutor.review_store import mistakes, save_mistakes

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
LATER = datetime(2031, 1, 1, tzinfo=timezone.utc)  # reading the queue applies unsynced answers up to "now"
RECORD = Path(__file__).resolve().parent / "review" / "hand-7.txt"


@pytest.fixture
def store(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as s:
        yield s


def _puzzle(store, status: str, when: datetime, hints: int = 0, pid: str = "c01") -> None:
    store.record(Attempt("s01", "puzzles", pid, status, kind="puzzle", hints=hints, finished=when.isoformat(),
                         started=when.isoformat(), mode="rated"))


def test_the_card_mapping():
    assert rating_for(False) == rating_for(False, hints=2) == Rating.Again
    assert rating_for(True, hints=1) == Rating.Hard
    assert rating_for(True) == Rating.Good
    assert Rating.Easy not in {rating_for(s, h) for s in (True, False) for h in range(4)}


def test_fsrs_state_round_trips_through_the_store(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as s:
        rate(s, "s01", "puzzle", "c01", Rating.Again, now=T0)
        card = rate(s, "s01", "puzzle", "c01", Rating.Good, now=T0 + timedelta(minutes=1))
    with ProgressStore(path) as s:
        (back,) = queue(s, "s01", now=LATER)
    assert back.card.to_dict() == card.card.to_dict()
    assert (back.reviews, back.lapses, back.learned) == (2, 0, False)
    # the same answers on FSRS alone give the same card
    c, _ = scheduler().review_card(Card(due=T0), Rating.Again, T0)
    c, _ = scheduler().review_card(c, Rating.Good, T0 + timedelta(minutes=1))
    assert c.due == back.due and c.stability == back.card.stability


def test_a_missed_puzzle_is_due_again_after_the_fsrs_interval(store):
    _puzzle(store, "failed", T0)
    assert sync(store, "s01", now=T0) == 1
    (card,) = queue(store, "s01", now=LATER)
    expected, _ = scheduler().review_card(Card(due=T0), Rating.Again, T0)
    assert card.due == expected.due > T0
    assert due(store, "s01", now=card.due - timedelta(seconds=1)) == []
    assert [c.item for c in due(store, "s01", now=card.due)] == ["c01"]
    assert sync(store, "s01", now=T0) == 0  # read once


def test_a_missed_puzzle_leaves_the_queue_after_enough_good_answers(store):
    _puzzle(store, "failed", T0)
    sync(store, "s01", now=T0)
    goods = 0
    intervals = []
    while queue(store, "s01", now=LATER):
        (card,) = queue(store, "s01", now=LATER)
        when = card.due  # answered right when due
        _puzzle(store, "passed", when)
        sync(store, "s01", now=when)
        goods += 1
        after = queue(store, "s01", now=LATER)
        intervals.append((after[0].due - when) if after else None)
        assert goods < 20
    assert 3 <= goods <= 8, goods
    # each interval grows, and the last Good gave one of LEARNED_DAYS or more
    shown = [i for i in intervals if i is not None]
    assert shown == sorted(shown)
    assert all(i < timedelta(days=LEARNED_DAYS) for i in shown)
    assert due(store, "s01", now=T0 + timedelta(days=400)) == []
    # a later miss brings it back
    _puzzle(store, "failed", T0 + timedelta(days=60))
    sync(store, "s01", now=T0 + timedelta(days=60))
    (card,) = queue(store, "s01", now=LATER)
    assert card.lapses == 1 and not card.learned


def test_what_enters_the_queue(store):
    def level(name: str, status: str, stars: int) -> None:
        store.record(Attempt("s01", "freezing", name, status, stars=stars, finished=T0.isoformat()))

    level("failed-one", "failed", 0)
    level("two-stars", "passed", 2)
    level("three-stars", "passed", 3)
    _puzzle(store, "passed", T0, pid="solved")
    _puzzle(store, "passed", T0, hints=1, pid="hinted")
    store.record(Attempt("s01", "week-1", "item-1", "failed", kind="assignment", finished=T0.isoformat()))
    sync(store, "s01", now=T0)
    cards = {(c.kind, c.item): c for c in queue(store, "s01", now=LATER)}
    assert set(cards) == {("level", "freezing/failed-one"), ("level", "freezing/two-stars")}
    assert cards[("level", "freezing/failed-one")].due < cards[("level", "freezing/two-stars")].due  # Again < Hard


def test_overdue_counts_cards_due_before_today(store):
    rate(store, "s01", "puzzle", "c01", Rating.Again, now=T0)
    rate(store, "s01", "puzzle", "c02", Rating.Again, now=T0 + timedelta(days=2))
    later = T0 + timedelta(days=2, hours=1)
    assert counts(store, "s01", now=later) == {"due": 2, "overdue": 1, "today": 2, "queued": 2}
    assert counts(store, "s03", now=later) == {"due": 0, "overdue": 0, "today": 0, "queued": 0}
    rate(store, "s01", "puzzle", "c03", Rating.Good, now=later)  # a learning step: 10 minutes
    assert counts(store, "s01", now=later)["today"] == 3
    card = rate(store, "s01", "puzzle", "c03", Rating.Good, now=later + timedelta(minutes=10))
    assert card.due.date() > later.date()  # out of learning: due another day
    assert counts(store, "s01", now=later + timedelta(minutes=10))["today"] == 2


def test_naive_times_are_refused(store):
    with pytest.raises(ValueError, match="time zone"):
        due(store, "s01", now=datetime(2026, 1, 1))


@pytest.fixture(scope="module")
def hand_review():
    return review_record(load_record(str(RECORD)), "S", seed=0, samples=24)


def test_a_game_mistake_becomes_a_card_and_is_judged_as_the_trainer_does(store, hand_review):
    assert hand_review.mistakes, "the pinned hand has a mistake at 24 samples"
    save_mistakes(store, "s01", hand_review, game="hand-7")
    sync(store, "s01", now=T0)
    saved = mistakes(store, "s01")
    cards = [c for c in queue(store, "s01", now=LATER) if c.kind == "mistake"]
    assert sorted(c.item for c in cards) == sorted(m["uid"] for m in saved)
    m = saved[0]
    assert "Find the best move." in question(m) and "S:" in question(m)
    when = cards[0].due
    # an illegal move is refused with the engine's rule, and the card is not rated
    with pytest.raises(IllegalActionError) as refused:
        answer_mistake(store, "s01", m["uid"], "meld 3 3 3", now=when)
    assert refused.value.rule.startswith("R-")
    assert [c.reviews for c in queue(store, "s01", now=LATER) if c.item == m["uid"]] == [1]
    # the move played in the game misses again, explained in words that quote it
    wrong = answer_mistake(store, "s01", m["uid"], m["action"], now=when)
    assert not wrong.solved and wrong.rating == "Again"
    assert wrong.text.startswith(f"You played {m['action']}: ")
    # the hint's best solves it: Good at once, Hard after a hint
    right = answer_mistake(store, "s01", m["uid"], m["best"], hints=1, now=wrong.card.due)
    assert right.solved and right.rating == "Hard" and right.grade == "best"
    assert right.card.reviews == 3 and right.card.due > wrong.card.due


def test_reading_the_queue_counts_unsynced_answers_and_writes_nothing(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as s:
        _puzzle(s, "failed", T0)
    with ProgressStore(path, read_only=True) as s:  # the side panel's reading
        assert [c.item for c in due(s, "s01", now=T0 + timedelta(hours=1))] == ["c01"]
        assert s.conn.execute("SELECT count(*) FROM review_cards").fetchone()[0] == 0


def test_the_command_line_lists_the_due_cards(tmp_path, capsys):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as s:
        _puzzle(s, "failed", T0)
    assert main(["review", "due", "--learner", "s01", "--store", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["learner"] == "s01" and data["due"] == 1 and data["overdue"] == 1
    assert [(c["kind"], c["item"]) for c in data["cards"]] == [("puzzle", "c01")]
    assert main(["review", "answer", "nope", "discard 7", "--learner", "s01", "--store", str(path)]) == 2
    assert "no saved mistake 'nope'" in capsys.readouterr().err
    assert main(["review", "due", "extra", "--store", str(path)]) == 2


def test_the_class_report_shows_each_students_cards_due_and_overdue(tmp_path):
    from canasta_tutor.tutor.classes.report import ClassReport

    path = tmp_path / "course.sqlite3"
    with ProgressStore(path) as s:
        for who in ("s02", "s03"):
            s.add_learner(who)
        _puzzle(s, "failed", T0)  # s01: one missed puzzle
        s.record(Attempt("s03", "freezing", "one", "passed", stars=2, finished=(T0 + timedelta(days=3)).isoformat()))
        s.record(Attempt("s03", "freezing", "two", "passed", stars=3, finished=T0.isoformat()))
    with ClassReport(path) as report:
        q = report.review_queue(now=T0 + timedelta(days=3, hours=1))
        assert q.loc["s01"].to_dict() == {"due": 1, "overdue": 1, "queued": 1}
        assert q.loc["s03"].to_dict() == {"due": 1, "overdue": 0, "queued": 1}
        assert q.loc["s02"].to_dict() == {"due": 0, "overdue": 0, "queued": 0}
        assert "review_overdue" in report.to_html() and "review_due" in report.text()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answers=st.lists(st.tuples(st.sampled_from([Rating.Again, Rating.Hard, Rating.Good]),
                                  st.integers(min_value=0, max_value=60 * 24 * 90)), min_size=1, max_size=12))
def test_any_answers_round_trip_through_the_store_as_fsrs_gives_them(tmp_path, answers):
    """Whatever the answers and whenever they come, the card read back from the store is FSRS's own, it is
    never due before its last answer, and a learned card is one a Good or Hard answer gave 21 days or more."""
    path = tmp_path / f"p{len(list(tmp_path.iterdir()))}.sqlite3"
    card, when = Card(card_id=0, due=T0), T0
    with ProgressStore(path) as s:
        for rating, minutes in answers:
            when += timedelta(minutes=minutes)
            card, _ = scheduler().review_card(card, rating, when)
            got = rate(s, "s01", "puzzle", "p", rating, now=when)
            assert got.card.to_dict() == card.to_dict()
            assert got.due >= when
            assert got.learned == (rating != Rating.Again and card.due - when >= timedelta(days=LEARNED_DAYS))
    with ProgressStore(path) as s:
        left = queue(s, "s01", now=LATER)
        assert [c.card.to_dict() for c in left] == ([] if got.learned else [card.to_dict()])
