"""Lessons tell the truth (issue: "Lesson text that is wrong or stale"): each item, checked by playing it."""

from __future__ import annotations

import re

import pytest

from canasta_tutor.engine.rulebook import rule
from canasta_tutor.tutor.lessons.player import LessonPlayer, find_lesson, load_course
from canasta_tutor.tutor.lessons.runner import LevelRun, replay


def level(lesson: str, level_id: str):
    return find_lesson(lesson).level(level_id)


def player(lesson: str, level_id: str, **kw) -> LessonPlayer:
    found = find_lesson(lesson)
    return LessonPlayer(found, store=None, hint_fn=None, level=[lv.id for lv in found.levels].index(level_id), **kw)


def test_each_try_of_a_generated_level_deals_a_new_hand_as_its_goal_says():
    """'Each try deals a new hand' (lessons 2, 3, 5, 6, 7, 9): Try again gave the same hand."""
    generated = [(lesson, lv) for lesson in load_course() for lv in lesson.levels if lv.generated]
    assert generated
    for lesson, lv in generated:
        p = LessonPlayer(lesson, store=None, hint_fn=None, level=lv.index)
        first = p.run.setup_text
        p.retry()
        second = p.run.setup_text
        p.retry()
        assert len({first, second, p.run.setup_text}) > 1, lv.key
    # an assignment keeps its one deal: its log is replayed on it
    lesson, lv = generated[0]
    p = LessonPlayer(lesson, store=None, hint_fn=None, level=lv.index, new_deals=False)
    first = p.run.setup_text
    p.retry()
    assert p.run.setup_text == first


def test_bonuses_do_not_count_never_states_a_count_the_engine_contradicts():
    """R-MIN-1: the note said 'Your melds count 45' for every refusal; the engine said 30."""
    run, results = replay(level("initial-meld", "bonuses-do-not-count"), ["meld Q Q Q", "discard 4"])
    refused = results[-1]
    assert refused.rule == "R-MIN-1" and "count 30" in refused.reason
    assert not re.search(r"count(s)? 45", " ".join(refused.feedback))


def test_go_out_in_time_names_the_seat_that_plays_next():
    """The text said East plays next; West does."""
    lv = level("first-strategy", "go-out-in-time")
    run, _ = replay(lv, ["add J", "discard 4"])
    assert run.state.current_seat == "W"
    assert "West" in lv.goal and "East could go out on the next turn" not in " ".join(w.feedback for w in lv.wrong)


def test_ace_counts_twenty_passes_on_the_meld_its_goal_names_and_has_no_dead_end():
    """The goal asked for one meld of 60 while success counted several; and after K K K and 7 7 7 the
    aces were refused (R-OUT-2): the learner was stuck."""
    lv = level("cards", "ace-counts-twenty")
    run, results = replay(lv, ["meld K K K", "meld 7 7 7"])
    assert run.status == "open"  # 45 in two melds is not a meld of 60
    r = run.play("meld A A A")
    assert r.accepted and run.status == "passed"


@pytest.mark.parametrize("card, says", [("5", "A 5 counts only 5"), ("6", "A 6 counts 5"), ("9", "A 9 counts 10")])
def test_costly_card_answers_the_card_discarded(card, says):
    """The failure named the 6, the 9 and the ace whichever card was discarded (even the 5)."""
    run, results = replay(level("cards", "costly-card"), [f"discard {card}"])
    assert run.status == "failed" and results[-1].feedback[-1].startswith(says)


def test_shown_means_taken_cites_a_rule_that_says_it():
    """R-PACK-5's text did not say that shown melds commit the player to the take."""
    assert "must go on and take the pack" in rule("R-PACK-5").text
    run, results = replay(level("taking-the-pack", "shown-means-taken"), ["meld K K K", "draw"])
    assert results[-1].rule == "R-PACK-5" and run.status == "passed"


def test_dealt_red_three_reports_the_red_three():
    """R-RED-1: the red three laid out at the start of the learner's turn was never reported."""
    p = player("red-threes", "dealt-red-three")
    assert any("red three 3♥" in line for line in p.run.opening)
    assert any("red three" in line for line in p.view()["opening"])


def test_must_take_does_not_offer_declining_where_it_is_refused():
    """R-STOCK-2: a draw was refused with 'take the pack or decline it', and declining is illegal there."""
    run, results = replay(level("stock-runs-out", "must-take"), ["draw"])
    assert results[-1].rule == "R-STOCK-2" and "decline it" not in results[-1].reason
    assert run.state.explain(("pass",)) is not None


def test_typed_wild_cards_alone_are_the_engines_refusal_and_a_red_three_discard_is_r_red_1():
    """R-MELD-3: 'meld 2 2 JK' was a notation error (no rule, no try); R-RED-1: discarding a red three was
    '[R-TURN-2] You hold no red three to discard'."""
    run = LevelRun(level("melds", "three-cards"), hint_fn=None)
    r = run.play("meld 2 2 JK")
    assert r.rule == "R-MELD-3" and r.counted and run.tries == 1
    r = run.play("discard 3H")
    assert r.rule == "R-RED-1"


# ----------------------------------------------------------------- the widget's words around the levels
def test_the_lesson_intro_rule_links_stars_and_the_next_lesson_are_shown():
    """The lesson's own introduction was never shown; rule numbers were plain text; after the last level
    nothing said the lesson was done or what came next; stars were never explained."""
    lesson = find_lesson("taking-the-pack")
    p = LessonPlayer(lesson, store=None, hint_fn=None)
    v = p.view()
    assert v["lesson"]["intro"].startswith("<p>Instead of drawing from the stock")
    assert 'class="cl-rule-link" data-rule="R-PACK-2"' in v["level"]["intro"]
    p.show_rule("R-PACK-2")
    assert p.view()["rule"]["id"] == "R-PACK-2" and p.view()["rule"]["text"]
    p.start(len(lesson.levels) - 1)
    line = LevelRun(p.run.level, p.run.seed, hint_fn=None).solutions[0]
    for text in line:
        p.act(text)
    v = p.view()
    assert v["status"] == "passed" and v["star_text"].startswith("3 stars: ")
    assert "each hint costs one, and so does going over par" in v["star_text"]
    assert v["complete"]["next"]["title"] == "Canastas" and v["complete"]["next"]["notebook"] == "07-canastas.ipynb"
    assert "end of the lesson" in v["complete"]["text"]


def test_a_scoring_level_is_answered_line_by_line_and_names_the_wrong_line():
    """No level taught scoring by asking the learner for a score: lesson 11 now does, in the widget and
    with 'lesson play --answer'."""
    p = player("scoring", "count-the-hand")
    v = p.view()
    assert [s["id"] for s in v["score"]] == ["canastas", "red_threes", "going_out", "melded", "in_hand", "total"]
    # the answer is not on the table: no score of the hand, and the sheet's totals as before the hand
    assert v["buttons"] == [] and "Score of the hand" not in v["table"]
    assert '<td class="ct-we">0</td><td class="ct-they">0</td>' in v["table"]
    p.answer({"canastas": "500", "red_threes": "100", "going_out": "100", "melded": "145", "in_hand": "-15",
              "total": "830"})
    lines = p.feedback[-1]["lines"]
    assert lines[3].startswith("✗ Cards melded: you wrote 145; it is 165.")
    assert lines[5].startswith("✗ Hand total: you wrote 830; it is 850.")
    assert sum(x.startswith("✓") for x in lines) == 4 and p.run.status == "open"
    p.answer("500 100 100 165 -15 850")
    assert p.run.status == "passed" and p.run.stars() == 2
