"""The game review (issue 35): a recorded hand's decisions graded from the learner's observation, pinned.

``tests/review/hand-7.txt`` is the hand dealt from seed 7 by ``benchmarks/review_time.py --write-record 7``
(the rules of thumb in every seat, South slipping to a random legal move a quarter of the time).  Its review
for South with seed 0 (the hint's default search, as ``canasta-tutor review`` runs it) is pinned in
``hand-7-S.golden``: every grade, loss and hint's move, the accuracy and the costliest decisions' explanations.
After a deliberate change to the search or the wording, regenerate with
``UPDATE_GOLDEN=1 pytest tests/test_review.py`` and read every changed explanation before committing it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position
from canasta_tutor.notation.record import load_record, parse_record
from canasta_tutor.tutor.progress import ProgressStore, ProgressStoreError
from canasta_tutor.tutor.review import (ACCURACY_WORDS, Decision, Review, ReviewError, accuracy, costliest,
                                        decision_points, review_record)
from canasta_tutor.tutor.review_store import mistakes, save_mistakes

HERE = Path(__file__).resolve().parent / "review"
RECORD = HERE / "hand-7.txt"
GOLDEN = HERE / "hand-7-S.golden"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_record(load_record(str(RECORD)), "S", seed=0)


def _decision(grade: str, loss: float, ply: int = 0) -> Decision:
    return Decision(ply=ply, hand=1, action=("draw",), text="draw", grade=grade, loss=loss, best=("draw",),
                    best_text="draw", deals=0, position="", verdict="")


def test_the_review_of_a_recorded_hand_is_pinned(review):
    got = review.text() + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(got)
    assert GOLDEN.exists(), f"no golden file {GOLDEN.name}: run with UPDATE_GOLDEN=1 and read it"
    assert got == GOLDEN.read_text()


def test_each_decision_is_graded_from_the_learners_observation_at_the_time(review):
    from canasta_tutor.hint import grade

    record = load_record(str(RECORD))
    spots, forced, hands = decision_points(record, "S")
    assert hands == [1] and forced == review.forced and len(spots) == len(review.decisions) >= 10
    # a decision is a South action with a choice; the grade is the hint's grade of the observation then
    spot, d = spots[3], review.decisions[3]
    assert spot.obs.seat == spot.obs.actor and len(spot.obs.legal_actions) > 1
    g = grade(spot.obs, spot.action, seed=0)
    assert (g.grade, round(g.loss, 1), g.best) == (d.grade, round(d.loss, 1), d.best)
    # the position kept is the game as it stood, and the learner's view of it gives the same observation
    state = parse_position(d.position)
    assert observe(state, "S").legal_actions == spot.obs.legal_actions


def test_the_costliest_three_are_explained_in_words_quoting_the_move_played(review):
    worst = review.costliest
    assert 1 <= len(worst) <= 3
    assert [d.loss for d in worst] == sorted((d.loss for d in worst), reverse=True)
    assert all(d.loss >= x.loss for d in worst for x in review.decisions if x not in worst)
    for d in worst:
        assert d.explanation.startswith(f"You played {d.text}: {d.grade}, about {d.loss:.0f} points lost.")
        assert f"The hint plays {d.best_text}." in d.explanation
        assert "±" not in d.explanation
    assert all(not d.explanation for d in review.decisions if d not in worst)


def test_accuracy_is_the_share_graded_best_or_good():
    ds = [_decision("best", 0), _decision("good", 20), _decision("inaccuracy", 50), _decision("blunder", 300)]
    assert accuracy(ds) == 0.5
    assert accuracy([]) is None
    r = Review(seat="S", seed=0, decisions=ds, forced=0, hands=[1])
    assert r.mean_loss == pytest.approx(92.5)
    assert r.counts() == {"best": 1, "good": 1, "inaccuracy": 1, "mistake": 0, "blunder": 1}
    assert "accuracy 50%" in r.text() and ACCURACY_WORDS in r.text()


def test_costliest_skips_moves_that_lost_nothing_and_breaks_ties_by_order():
    ds = [_decision("good", 0.2, 0), _decision("mistake", 90, 1), _decision("mistake", 90, 2),
          _decision("blunder", 250, 3), _decision("good", 10, 4)]
    assert [d.ply for d in costliest(ds)] == [3, 1, 2]
    assert [d.ply for d in costliest(ds[:1])] == []


def test_progress_is_reported_to_the_end():
    record = load_record(str(RECORD))
    calls: list[tuple[int, int]] = []
    r = review_record(record, "S", seed=0, samples=24, progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (0, calls[0][1]) and calls[-1][0] == calls[-1][1]
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)
    assert calls[-1][1] == len(r.decisions) + len(r.costliest)


def test_a_seat_not_in_the_game_or_a_hand_not_played_is_refused():
    record = load_record(str(RECORD))
    with pytest.raises(ReviewError, match="no seat 'X'"):
        review_record(record, "X")
    with pytest.raises(ReviewError, match="no action in hand 2"):
        review_record(record, "S", hand=2)


def test_an_illegal_record_is_refused_with_its_line():
    text = RECORD.read_text().replace("S discard 5\n", "S discard Q\n", 1)
    with pytest.raises(NotationError, match="line"):
        decision_points(parse_record(text), "S")


def test_mistakes_are_saved_once_with_their_positions(tmp_path, review):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        new = save_mistakes(store, "s01", review, game="hand-7")
        again = save_mistakes(store, "s01", review, game="hand-7")
        saved = mistakes(store, "s01")
    assert new == len(review.mistakes) >= 1 and again == 0
    assert [m["action"] for m in saved] == [d.text for d in review.mistakes]
    for m in saved:
        assert m["grade"] in ("mistake", "blunder") and m["game"] == "hand-7"
        state = parse_position(m["position"])  # a playable position: the learner can try again from it
        assert state.current_seat == "S"


def test_saving_is_all_or_nothing(tmp_path, review, monkeypatch):
    bad = Review(seat="S", seed=0, decisions=[*review.mistakes, _decision("blunder", 300.0)], forced=0, hands=[1])
    bad.decisions[-1].grade = "awful"  # refused by the table's CHECK: the whole save rolls back
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        monkeypatch.setattr(Review, "mistakes", property(lambda self: self.decisions))
        with pytest.raises(ProgressStoreError):
            save_mistakes(store, "s01", bad)
        assert mistakes(store, "s01") == []


def test_a_version_3_store_gains_the_review_table(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.add_learner("s01")
    conn = sqlite3.connect(path)
    for table in ("review_mistakes", "review_cards", "review_sync"):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    with ProgressStore(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 4
        assert mistakes(store, "s01") == []
        assert store.conn.execute("SELECT count(*) FROM review_cards").fetchone()[0] == 0


def test_the_command_line_reviews_a_record(capsys, tmp_path):
    store = tmp_path / "p.sqlite3"
    assert main(["review", str(RECORD), "--seat", "S", "--samples", "24", "--json", "--save", "s01",
                 "--store", str(store), "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == "S" and data["accuracy_means"] == ACCURACY_WORDS
    assert len(data["decisions"]) >= 10 and {"action", "grade", "loss", "best"} <= set(data["decisions"][0])
    with ProgressStore(store) as s:
        assert len(mistakes(s, "s01")) == data["saved"] == data["grades"]["mistake"] + data["grades"]["blunder"]
    assert main(["review", str(RECORD), "--seat", "Q"]) == 2
    assert "no seat 'Q'" in capsys.readouterr().err
