"""Timed mode (Puzzle Storm): the clock, the order, the score, penalties and bonuses, and the
progress store, driven by a fake clock."""

from __future__ import annotations

import pytest

from canasta_tutor.notation.actions import parse_action

from canasta_tutor.tutor.progress import ProgressStore
from canasta_tutor.tutor.puzzles.library import library_dir, load_file
from canasta_tutor.tutor.puzzles.timed import BONUS, PENALTY, TimedRun
from canasta_tutor.tutor.puzzles.trainer import SOLVED, Trainer, TrainerError, replay_ratings

COMPOSED = load_file(library_dir() / "composed.txt")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def storm(store: ProgressStore | None = None, **kw) -> tuple[TimedRun, Trainer, Clock]:
    clock = Clock()
    t = Trainer(COMPOSED, learner="s01", store=store, explain=None, clock=clock)
    if "theme" in kw:
        t.set_theme(kw.pop("theme"))
    return TimedRun(t, **kw), t, clock


def solve(s: TimedRun) -> None:
    run = s.run
    for step in run.puzzle.solution:
        if run.over:
            break
        s.play(step)
    assert run.status == SOLVED


def wrong(s: TimedRun) -> None:
    p = s.run.puzzle
    bad = [a for a in s.run.state.legal_actions() if a not in p.answers()]
    # a forced puzzle has no wrong legal move, and an illegal one is refused (the puzzle stays open): give up
    v = s.play(bad[0]) if bad else s.give_up()
    assert not v.correct


@pytest.fixture
def store(tmp_path):
    with ProgressStore(tmp_path / "progress.sqlite3") as s:
        yield s


def test_puzzles_come_in_rising_rating_from_the_pool():
    s, t, _ = storm(length=20)
    ratings = [t.rating_of(p).rating for p in s.queue]
    assert len(s.queue) == 20 and ratings == sorted(ratings)
    assert s.run.puzzle is s.queue[0]
    other, _, _ = storm(length=20, seed=7)
    assert [p.id for p in other.queue] != [p.id for p in s.queue]  # a seeded sample, not always the same
    themed, _, _ = storm(theme="stop-card")
    assert themed.queue and all("stop-card" in p.themes for p in themed.queue)


def test_the_clock_runs_and_solving_scores():
    s, _, clock = storm(seconds=60)
    clock.now += 12.0
    assert s.remaining() == 48.0
    first = s.run
    solve(s)
    assert s.score == 1 and s.combo == 1 and s.run is not first and s.run.status == "open"
    assert s.remaining() == 48.0 and not s.over


def test_a_miss_costs_time_breaks_the_combo_and_goes_on():
    s, _, clock = storm(seconds=60)
    solve(s)
    first = s.run
    wrong(s)
    assert (s.score, s.misses, s.combo, s.best_combo) == (1, 1, 0, 1)
    assert s.remaining() == 60.0 - PENALTY and s.run is not first
    s.give_up()  # giving up is a miss too
    assert s.misses == 2 and s.remaining() == 60.0 - 2 * PENALTY
    illegal = next(a for a in ("ask", "draw", "discard 3") if s.run.state.explain_for(s.run.seat, parse_action(a)))
    assert s.play(illegal).status == "open"  # an illegal move is refused (with its rule): no miss, no penalty
    assert s.misses == 2 and s.remaining() == 60.0 - 2 * PENALTY


def test_five_in_a_row_earn_time():
    s, _, clock = storm(seconds=60)
    for _ in range(5):
        solve(s)
    assert s.score == 5 and s.remaining() == 60.0 + BONUS
    assert s.result()["best_combo"] == 5 and s.result()["best_rating"] is not None


def test_time_up_ends_the_run_and_the_open_puzzle_counts_for_nothing(store):
    s, t, clock = storm(store, seconds=30)
    solve(s)
    clock.now += 30.5
    open_run = s.run
    with pytest.raises(TrainerError, match="Time is up: 1 solved, 0 missed"):
        s.play(open_run.puzzle.solution[0])
    assert s.over and s.ended == "time" and s.remaining() == 0.0 and open_run.status == "open"
    assert len(store.attempts("s01")) == 1 and s.result()["played"] == 1
    clock.now += 100
    assert s.elapsed() == 30.0  # the clock stopped at the end


def test_a_penalty_can_end_the_run():
    s, _, clock = storm(seconds=30)
    clock.now += 25.0
    wrong(s)
    assert s.over and s.ended == "time" and s.misses == 1


def test_the_run_ends_when_the_sample_is_used_up():
    s, _, _ = storm(length=2, seconds=600)
    solve(s)
    solve(s)
    assert s.over and s.ended == "done" and s.score == 2
    with pytest.raises(TrainerError, match="Every puzzle of the run is played"):
        s.give_up()


def test_stopping_and_a_clock_out_of_range():
    s, _, _ = storm()
    s.stop()
    assert s.over and s.ended == "stopped"
    with pytest.raises(TrainerError, match="30 to 600 seconds"):
        storm(seconds=5)


def test_timed_attempts_are_saved_marked_and_leave_ratings_alone(store):
    s, t, clock = storm(store)
    before = t.learner
    puzzle_ratings = dict(t.ratings)
    solve(s)
    clock.now += 3.0
    wrong(s)
    rows = store.attempts("s01")
    assert [(r["mode"], r["status"], r["kind"], r["lesson"]) for r in rows] == [
        ("timed", "passed", "puzzle", "puzzles"), ("timed", "failed", "puzzle", "puzzles")]
    assert all(r["rating_before"] == r["rating_after"] == 1500.0 for r in rows)
    assert rows[1]["started"] < rows[1]["finished"]
    assert t.learner == before and t.ratings == puzzle_ratings
    learners, ratings = replay_ratings(rows, COMPOSED)
    assert learners == {} and all(ratings[p.id] == puzzle_ratings[p.id] for p in COMPOSED)
    assert sum(r["tried"] for r in t.summary()) >= 2  # the per-theme summary counts them
    again = Trainer(COMPOSED, learner="s01", store=store, explain=None)
    assert len(again.history) == 2 and again.learner.rating == 1500.0


def test_no_hint_search_in_timed_mode():
    s, _, _ = storm()
    assert s.run.explain is None
