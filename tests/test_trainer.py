"""The puzzle trainer (issue 11, section 3): choosing near the rating, the theme filter, streaks,
judging and explaining answers, ratings, the progress store, and the puzzle table by clicks."""

from __future__ import annotations

import json

import pytest

from canasta_tutor.notation.actions import parse_action
from canasta_tutor.engine.errors import IllegalActionError
from canasta_tutor.tutor.progress import ProgressStore
from canasta_tutor.tutor.puzzles.session import PuzzleTable
from canasta_tutor.tutor.puzzles.library import library_dir, load_file, load_library
from canasta_tutor.tutor.puzzles.rating import Rating
from canasta_tutor.tutor.puzzles.trainer import (
    MISSED,
    OPEN,
    SOLVED,
    WINDOW,
    Trainer,
    TrainerError,
    replay_ratings,
    score,
)

COMPOSED = load_file(library_dir() / "composed.txt")  # the mined files grow; these stay


def fake_explain(state, seat, tried, answer, seed):
    return f"WHY {tried} < {answer}"


def trainer(**kw) -> Trainer:
    kw.setdefault("explain", fake_explain)
    return Trainer(COMPOSED, store=kw.pop("store", None), **kw)


@pytest.fixture
def store(tmp_path):
    with ProgressStore(tmp_path / "progress.sqlite3") as s:
        yield s


# ------------------------------------------------------------------ choosing
@pytest.mark.parametrize("rating", [1000.0, 1420.0, 1500.0, 1800.0])
def test_next_puzzle_is_near_the_learners_rating(rating):
    for seed in range(5):
        t = trainer(seed=seed)
        t.learner = Rating(rating, 80)
        p = t.next().puzzle
        nearest = min(abs(q.rating - rating) for q in COMPOSED)
        assert abs(p.rating - rating) <= max(WINDOW, nearest), (seed, p.id, p.rating)


def test_the_window_widens_when_nothing_is_near():
    t = trainer()
    t.learner = Rating(2600, 60)
    assert t.next().puzzle.rating == max(p.rating for p in COMPOSED)


def test_no_puzzle_twice_until_the_pool_is_used_up():
    t = trainer()
    t.set_theme("stop-card")
    pool = {p.id for p in COMPOSED if "stop-card" in p.themes}
    seen = [t.next().puzzle.id for _ in pool]
    assert set(seen) == pool
    assert t.next().puzzle.id in pool  # then the round starts again


def test_theme_filter():
    t = trainer()
    t.set_theme("frozen-pack")
    for _ in range(8):
        run = t.next()
        assert "frozen-pack" in run.puzzle.themes
        t.play("discard 4")  # a miss either way: illegal in the draw phase, or not the answer
    t.set_theme(None)
    assert len(t.pool()) == len(COMPOSED)
    with pytest.raises(TrainerError, match="unknown theme"):
        t.set_theme("nonsense")
    names = [name for name, _, _ in t.themes()]
    assert names[:2] == ["forced-move", "frozen-pack"] and "stop-card" in names


def test_a_named_puzzle_and_an_unknown_one():
    t = trainer()
    assert t.next("c03-black-three-stops").puzzle.id == "c03-black-three-stops"
    with pytest.raises(TrainerError, match="no puzzle"):
        t.next("c99-none")


# ------------------------------------------------------------------ streak
def test_streak_goes_from_easy_to_hard_and_ends_at_the_first_miss():
    t = trainer()
    t.set_theme("complete-canasta")
    run = t.start_streak()
    ratings = []
    for _ in range(2):
        ratings.append(run.puzzle.rating)
        assert t.play(run.puzzle.solution[0]).status == SOLVED
        run = t.next()
    assert ratings == sorted(ratings) and t.streak == 2
    t.play("discard 4")  # not in the hand: refused, the streak goes on
    assert t.run is not None and t.run.status == OPEN
    t.play("discard 9")
    assert t.run is not None and t.run.status == MISSED
    assert t.streak == 2 and t.best_streak == 2
    with pytest.raises(TrainerError, match="streak is over"):
        t.next()
    t.start_streak()
    assert t.streak == 0 and t.best_streak == 2


# ------------------------------------------------------------------ judging
def test_the_solution_is_right():
    t = trainer()
    t.next("c03-black-three-stops")
    v = t.play("discard 3")
    assert (v.status, v.correct, v.solved) == (SOLVED, True, True)
    assert v.explanation == ""


def test_an_accepted_alternative_is_right():
    t = trainer()
    t.next("c14-concealed-go-out")
    v = t.play("meld 7 7 JK")
    assert v.status == SOLVED and "accepted" in v.text


def test_a_legal_wrong_answer_is_explained():
    t = trainer()
    t.next("c03-black-three-stops")
    v = t.play("discard 7")
    assert (v.status, v.correct, v.legal) == (MISSED, False, True)
    # words first: what the move gives away and what the answer gains (the detectors), then the note
    assert v.explanation.startswith("Discard 7: this discard matches the opponents' 7s: West could add it")
    assert "Discard 3 instead: a black three on top stops West" in v.explanation
    assert v.explanation.endswith("stops West.")  # its note
    # then the numbers: the puzzle's own verification, then the quick search (never "about as good")
    assert v.figures.startswith("The puzzle's verification: on 2000 sampled deals")
    assert v.figures.index("verification") < v.figures.index("WHY") and "about as good" not in v.figures


def test_an_illegal_answer_is_refused_with_its_rule_and_the_learner_tries_again():
    """As in the lessons: the engine's refusal and rule, the puzzle stays open, and the try is kept."""
    t = trainer()
    t.next("c01-frozen-by-wild-card")
    v = t.play("take 9 9 9")
    assert (v.status, v.legal, v.correct) == (OPEN, False, False)
    assert v.rule.startswith("R-") and f"[{v.rule}]" in v.text and v.text.endswith("Try again.")
    assert "answer" not in v.text  # the answer is not given away
    assert t.run.tried[-1]["kind"] == "refused" and t.history == []  # not rated, not saved yet
    assert t.play("draw").status == SOLVED


def test_a_whole_turn_line_is_played_step_by_step():
    t = trainer()
    t.next("c37-add-then-go-out")
    v = t.play("add A")
    assert (v.status, v.correct) == (OPEN, True)
    assert t.run is not None and t.run.expected() == [parse_action("discard 6")]
    assert t.play("discard 6").status == SOLVED


def test_a_wrong_second_step_is_a_miss_explained():
    t = trainer()
    t.next("c51-add-king-go-out")
    t.play("add K")
    v = t.play("discard 4")  # not in the hand any more
    assert v.status == OPEN and not v.legal and v.explanation.startswith("[R-")
    assert t.play("discard 5").status == SOLVED  # the only legal move left goes out


def test_a_finished_puzzle_takes_no_more_moves():
    t = trainer()
    t.next("c03-black-three-stops")
    t.play("discard 3")
    with pytest.raises(TrainerError, match="already solved"):
        t.play("discard 4")


def test_the_real_hint_explains_why_a_move_is_worse():
    t = Trainer(COMPOSED, store=None)
    t.next("c03-black-three-stops")
    v = t.play("discard 7")
    assert "West could add it" in v.explanation and "about as good" not in v.explanation + v.figures
    assert "A quick search on 120 sampled deals puts discard 7 about" in v.figures


# ------------------------------------------------------------------ ratings
def test_ratings_move_the_right_way():
    t = trainer()
    t.next("c03-black-three-stops")
    p0, l0 = t.rating_of(t.run.puzzle).rating, t.learner.rating
    t.play("discard 3")
    assert t.learner.rating > l0 and t.rating_of(t.run.puzzle).rating < p0
    assert t.last_change == (l0, t.learner.rating)
    t.next("c33-stop-with-a-black-three")
    p1, l1 = t.rating_of(t.run.puzzle).rating, t.learner.rating
    t.play("discard 4")
    assert t.learner.rating < l1 and t.rating_of(t.run.puzzle).rating > p1


def test_a_hint_halves_a_solve():
    assert score(True, 0) == 1.0 and score(True, 2) == 0.5 and score(False, 0) == 0.0
    a, b = trainer(), trainer()
    for t in (a, b):
        t.next("c03-black-three-stops")
    assert "stop" in b.hint().lower()  # the themes
    # a nudge in plain words from the verified answer's facts, no rule number, no move
    assert b.hint() == "Which of your cards stops the next player from taking the pack?"
    assert b.hint().startswith("The answer starts with: discard")
    a.play("discard 3")
    b.play("discard 3")  # a draw against a puzzle rated 1195: a little below what a clean solve gives
    assert a.learner.rating > 1500 and b.learner.rating < a.learner.rating - 100


# ------------------------------------------------------------------ the progress store
def test_attempts_are_saved_and_the_ratings_come_back(store):
    t = trainer(store=store, learner="s01")
    t.next("c03-black-three-stops")
    t.hint()
    t.play("discard 3")
    t.next("c01-frozen-by-wild-card")
    t.play("take 9 9 9")  # refused (R-PACK-4): a try, and the puzzle stays open
    t.give_up()
    rows = store.attempts("s01")
    assert [(r["kind"], r["lesson"], r["level"], r["status"]) for r in rows] == [
        ("puzzle", "puzzles", "c03-black-three-stops", "passed"),
        ("puzzle", "puzzles", "c01-frozen-by-wild-card", "failed")]
    first, second = rows
    assert first["hints"] == 1 and first["rating_before"] == 1500.0 and first["rating_after"] != 1500
    assert [a["kind"] for a in first["actions"]] == ["hint", "action"]
    assert first["actions"][1]["text"] == "discard 3"
    assert second["actions"][0]["kind"] == "refused" and second["actions"][0]["rule"].startswith("R-")
    assert second["actions"][0]["reason"] and first["themes"] == ["stop-card"]
    assert second["rating_before"] == first["rating_after"] and second["rating_after"] < second["rating_before"]
    assert first["started"] <= first["finished"]
    # a new trainer over the same store: the same ratings, replayed from the attempts
    again = trainer(store=store, learner="s01")
    assert round(again.learner.rating, 1) == second["rating_after"]
    assert again.ratings["c03-black-three-stops"] == t.ratings["c03-black-three-stops"]
    assert len(again.history) == 2
    assert again.next().puzzle.id not in {"c03-black-three-stops", "c01-frozen-by-wild-card"}


def test_replay_ignores_lessons_and_unknown_puzzles():
    rows = [{"kind": "lesson", "lesson": "freezing", "level": "x", "learner": "a", "status": "passed"},
            {"kind": "puzzle", "lesson": "puzzles", "level": "gone", "learner": "a", "status": "passed"}]
    learners, ratings = replay_ratings(rows, COMPOSED)
    assert learners == {} and ratings["c03-black-three-stops"].rating == 1195.0


def test_a_wrong_move_is_saved_with_the_hints_reason(store):
    t = trainer(store=store, learner="s02")
    t.next("c03-black-three-stops")
    t.play("discard 7")
    (row,) = store.attempts("s02")
    assert row["status"] == "failed" and [(a["kind"], a["text"]) for a in row["actions"]] == [("wrong", "discard 7")]
    assert row["actions"][0]["reason"].startswith("Discard 7: ") and "WHY " in row["actions"][0]["reason"]


def test_summary_by_theme():
    t = trainer()
    t.next("c03-black-three-stops")
    t.play("discard 3")
    t.next("c33-stop-with-a-black-three")
    t.play("discard 4")
    t.next("c01-frozen-by-wild-card")
    t.play("draw")
    rows = {r["theme"]: r for r in t.summary()}
    assert rows["stop-card"]["tried"] == 2 and rows["stop-card"]["solved"] == 1 and rows["stop-card"]["share"] == 0.5
    assert rows["frozen-pack"]["solved"] == 1 and rows["forced-move"]["tried"] == 1
    assert "stop-card: 1 of 2 solved (50%)" in t.summary_text()


# ------------------------------------------------------------------ the puzzle table (clicks)
def table(puzzle: str, **kw) -> PuzzleTable:
    return PuzzleTable(trainer(**kw), puzzle=puzzle)


def test_solved_by_clicks():
    t = table("c11-show-then-take")
    s = t.session
    s.select([s.index_of("9H"), s.index_of("9C")])
    assert t.handle({"intent": "take", "rev": t.view()["rev"]}).startswith("Solved")
    panel = t.panel()
    assert panel["status"] == "solved" and panel["correct"] is True and panel["change"] > 0
    assert panel["solution"] == "take 9 9 9" and panel["themes"]
    assert all(not b["ok"] for b in t.view()["buttons"].values())
    assert t.view()["message"] == "Solved: take 9 9 9 is the answer." and t.view()["message_kind"] == "ok"


def test_a_refused_click_shows_the_engines_rule_and_the_puzzle_stays_open():
    t = table("c03-black-three-stops")
    assert t.handle({"intent": "draw"}).startswith("Not allowed")
    panel = t.panel()
    assert panel["status"] == "open" and panel["open"] and panel["rule"].startswith("R-")
    assert f"[{panel['rule']}]" in panel["explanation"] and panel["change"] is None and panel["correct"] is False
    assert t.view()["buttons"]["discard"]["ok"] or t.view()["buttons"]["discard"]["rule"] is None
    s = t.session
    s.select([s.index_of(next(c for c in s.view()["hand"] if c[0] == "3"))])
    assert t.handle({"intent": "discard"}).startswith("Solved")


def test_failed_by_a_wrong_discard_click_is_explained():
    t = table("c03-black-three-stops")
    s = t.session
    code = next(c for c in s.view()["hand"] if c[0] not in "3")
    s.select([s.index_of(code)])
    assert t.handle({"intent": "discard"}).startswith("Not this")
    assert t.panel()["explanation"].startswith("Discard ") and "WHY " in t.panel()["figures"]
    assert t.handle({"intent": "discard"}) == "This puzzle is over: click Next puzzle."
    assert not any(p["active"] for p in t.view()["players"].values())


def test_guidance_is_not_a_miss():
    t = table("c03-black-three-stops")
    t.handle({"intent": "discard"})  # nothing selected: the planner asks for a card
    assert t.panel()["status"] == "open"


def test_every_message_is_checked():
    t = table("c03-black-three-stops")
    assert t.handle("draw") == "A message must be an object with an 'intent' string."
    assert t.handle({"intent": 3}) == "A message must be an object with an 'intent' string."
    assert t.handle({"intent": "fly"}) == "Unknown intent 'fly'."
    assert t.handle({"intent": "undo"}) == "Unknown intent 'undo'."
    assert t.handle({"intent": "theme", "theme": "<b>"}).startswith("'theme' must be")
    assert t.handle({"intent": "streak", "on": "yes"}) == "'on' must be true or false."
    assert t.panel()["status"] == "open" and t.panel()["notice"] == "'on' must be true or false."
    t.handle({"intent": "theme", "theme": "go-out"})
    assert "go-out" in t.run.puzzle.themes and t.panel()["theme"] == "go-out"
    t.handle({"intent": "streak", "on": True})
    assert t.panel()["streak"] == {"on": True, "count": 0, "best": 0, "over": False}
    assert t.handle({"intent": "hint"}).startswith("Think about: ")
    assert len(t.panel()["hints"]) == 1
    json.dumps(t.panel())
    json.dumps(t.view())


def test_the_view_has_the_puzzle_buttons_only():
    v = table("c03-black-three-stops").view()
    assert "undo" not in v["buttons"] and "new_hand" not in v["buttons"]
    assert v["buttons"]["hint"]["ok"] is True and v["hint"] is None


def test_refusal_without_an_action():
    t = trainer()
    t.next("c03-black-three-stops")
    v = t.refused((), IllegalActionError("R-TURN-2", "Draw first"))
    assert v.status == OPEN and "[R-TURN-2] Draw first." in v.explanation


def test_a_click_from_the_last_puzzle_is_stale_on_the_next():
    t = table("c03-black-three-stops")
    rev = t.view()["rev"]
    t.handle({"intent": "next"})  # gives the open puzzle up
    t.handle({"intent": "next"})  # and goes on
    assert t.view()["rev"] > rev
    before = t.run.puzzle.id
    t.handle({"intent": "draw", "rev": rev})  # drawn on the old puzzle: ignored
    assert t.run.status == "open" and t.run.puzzle.id == before


def test_every_answer_is_a_new_revision():
    t = table("c03-black-three-stops")
    for msg in ({"intent": "hint"}, {"intent": "fly"}, {"intent": "draw"}, {"intent": "discard"}):
        rev = t.view()["rev"]
        t.handle(msg)
        assert t.view()["rev"] > rev, msg


def test_the_hints_comparison_of_a_move_with_a_given_answer():
    from canasta_tutor.hint import compare
    from canasta_tutor.engine.observer import observe

    p = next(q for q in COMPOSED if q.id == "c03-black-three-stops")
    state = p.state()
    obs = observe(state, state.actor)
    alt = compare(obs, parse_action("discard 7"), parse_action("discard 3"), seed=0)
    assert alt.gap > alt.gap_uncertainty > 0 and alt.comparison in ("worse than", "much worse than")
    assert alt.why and alt.sentence("discard 3").startswith("Discard 7 is ")
    again = compare(obs, parse_action("discard 7"), parse_action("discard 3"), seed=0)
    assert (again.value, again.gap) == (alt.value, alt.gap)  # deterministic for a seed
    with pytest.raises(IllegalActionError):
        compare(obs, parse_action("take 9 9 9"), parse_action("discard 3"))


# ------------------------------------------------------------------ giving up
def test_giving_up_is_saved_and_rated_as_a_miss(store):
    now = [1000.0]
    t = trainer(store=store, learner="s03", clock=lambda: now[0])
    t.next("c03-black-three-stops")
    t.hint()
    now[0] += 12.5
    v = t.give_up()
    assert v.status == MISSED and not v.correct and "discard 3" in v.text
    assert "verification" in v.figures or t.run.puzzle.verification.forced
    assert v.explanation == t.run.puzzle.note
    (row,) = store.attempts("s03")
    assert (row["status"], row["hints"], row["tries"], row["mode"]) == ("failed", 1, 0, "rated")
    assert [a["kind"] for a in row["actions"]] == ["hint"]
    assert row["started"].endswith("16:40.000+00:00") and row["finished"].endswith("16:52.500+00:00")
    # rated exactly as a wrong answer (a loss: a hint does not soften a miss)
    other = trainer(learner="s03")
    other.next("c03-black-three-stops")
    other.play("discard 7")
    assert t.learner == other.learner and t.ratings["c03-black-three-stops"] == other.ratings["c03-black-three-stops"]
    assert row["rating_after"] < row["rating_before"]
    assert {r["theme"]: (r["tried"], r["solved"]) for r in t.summary()}["stop-card"] == (1, 0)
    with pytest.raises(TrainerError, match="already missed"):
        t.give_up()
    # replayed from the store like any miss
    again = trainer(store=store, learner="s03")
    assert round(again.learner.rating, 1) == row["rating_after"] and len(again.history) == 1


def test_moving_on_without_giving_up_saves_nothing(store):
    t = trainer(store=store, learner="s04")
    t.next("c03-black-three-stops")
    t.next("c01-frozen-by-wild-card")
    assert store.attempts("s04") == [] and t.learner.rating == 1500.0


def test_giving_up_ends_a_streak():
    t = trainer()
    t.set_theme("complete-canasta")
    t.start_streak()
    t.give_up()
    assert t.streak == 0 and t.run is not None and t.run.status == MISSED
    with pytest.raises(TrainerError, match="streak is over"):
        t.next()


def test_skip_by_click_gives_up_then_goes_on(store):
    t = PuzzleTable(trainer(store=store, learner="s05"), puzzle="c03-black-three-stops")
    text = t.handle({"intent": "next"})
    assert text.startswith("Given up. The answer was discard 3")
    panel = t.panel()
    assert panel["status"] == "missed" and panel["correct"] is False and panel["change"] < 0
    assert panel["solution"] == "discard 3" and t.view()["message"] == text
    assert {r["theme"]: r["tried"] for r in panel["summary"]}["stop-card"] == 1
    assert t.handle({"intent": "give_up"}) == "This puzzle is over: click Next puzzle."
    assert t.handle({"intent": "next"}).startswith("Puzzle ") and t.panel()["status"] == "open"
    assert t.handle({"intent": "give_up"}).startswith("Given up.")
    assert [a["status"] for a in store.attempts("s05")] == ["failed", "failed"]


# ------------------------------------------------------------------ the partner's answer
ANSWER = "c59-answer-no-points-in-hand"


def test_an_answer_phase_puzzle_is_the_partners_decision_by_clicks():
    t = table(ANSWER)
    assert t.run.seat == 0 and t.run.state.phase == "answer" and t.run.state.turn == 2  # North answers South
    view = t.view()
    assert view["answer_needed"] and view["buttons"]["yes"]["ok"] and view["buttons"]["no"]["ok"]
    assert t.panel()["objective"].endswith("you play North.")
    assert t.handle({"intent": "no"}) == "Solved: no is the answer."
    wrong = table(ANSWER)
    assert wrong.handle({"intent": "yes"}) == "Not this: yes. The answer was no."
    panel = wrong.panel()
    assert panel["status"] == "missed" and panel["explanation"].startswith("Yes: you hold 11 cards worth 240 points")
    assert "2000 sampled deals" in panel["figures"] and panel["figures"].endswith("WHY ('yes',) < ('no',)")
    refused = table(ANSWER)
    assert refused.handle({"intent": "draw"}).startswith("Not allowed")
    assert refused.panel()["rule"] == "R-ASK-2" and refused.panel()["status"] == "open"


# ------------------------------------------------------------------ the trainer's hint (issue 31)
def test_the_trainer_s_hint_agrees_with_the_verified_answer():
    """m3-25 is one of the 14 library puzzles (of the 556 it held then) where the default hint's budget finds
    another move (benchmarks/puzzle_hint_agreement.py): the trainer's hint is then the verified answer, with the
    verification's figures; elsewhere it is the default hint, whose move is an answer."""
    from canasta_tutor.tutor.puzzles.trainer import puzzle_hint

    library = {p.id: p for p in load_library()}
    fallback = puzzle_hint(library["m3-25"])
    assert fallback.source == "verification" and parse_action(fallback.move) in library["m3-25"].answers()
    assert "the puzzle's verified answer" in fallback.explanation and "sampled deals" in fallback.explanation
    searched = puzzle_hint(library["c03-black-three-stops"])
    assert searched.source == "search" and searched.move == "discard 3"
    # the second hint of a run is that hint's nudge
    t = Trainer([library["m3-25"]], store=None, explain=lambda *a: "")
    t.next("m3-25")
    t.hint()
    assert t.hint() == fallback.nudge
