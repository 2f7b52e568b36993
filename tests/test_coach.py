"""The coach and the hint are one judge (issue 31): the coach grades the whole click against the hint's own
plan on the hint's sampled deals, says "best" only for the hint's move, explains its figure, and forgets its
grade on undo and on a new hand; :func:`grade` names the hint's best."""

from __future__ import annotations

from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.bots import RulesOfThumbBot
from canasta_tutor.engine.cards import ALL_CARD_CODES
from canasta_tutor.hint import grade, grade_line, hint
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position
from canasta_tutor.tutor.session import TableSession


def _drawn_fours() -> TableSession:
    """Seed 11: South draws 4♥ and holds 4♠ 4♥ 4♥ 4♣ JK; the hint's plan is meld 4 4 JK, add 4 (x2), discard 3."""
    s = TableSession(seed=11, coach=True)
    s.press("draw")
    return s


def test_the_coach_grades_the_whole_selection_not_a_planner_step():
    s = _drawn_fours()
    fours = [i for i, c in enumerate(s.hand_cards()) if ALL_CARD_CODES[c][0] == "4"] + [s.index_of("JK")]
    s.select(fours)
    s.press("meld")
    last = s.coach_last
    assert last is not None
    # the click played a meld and two additions: all of them are graded, and they leave what the hint's plan leaves
    assert last["action"].count(";") == 2 and last["action"].startswith("meld 4 4 4")
    assert last["grade"] == "best" and last["loss"] == 0
    assert last["best"].startswith("meld 4 4 JK") and "in another order" in last["text"]


def test_the_coach_grades_against_the_hint_the_learner_saw_and_explains_the_points():
    s = _drawn_fours()
    s.hint()
    seen = s._hint.source
    s.play("discard 7")
    last = s.coach_last
    assert last is not None and last["grade"] != "best"
    assert last["best"].split("; ")[0] == seen.best_text  # the hint's plan, not another "best"
    assert f"The hint plays {last['best']}" in last["text"]
    assert "points less" in last["text"] and "expected score" in last["text"] and "sampled deals" in last["text"]


def test_the_coach_forgets_its_grade_on_undo_and_on_a_new_hand():
    s = _drawn_fours()
    s.play("discard 7")
    assert s.coach_last is not None
    s.undo()
    assert s.coach_last is None and s.view()["coach"]["last"] is None
    s.play("discard 7")
    assert s.coach_last is not None
    s.new_game()
    assert s.coach_last is None


def test_the_next_hand_clears_the_grade():
    s = _drawn_fours()
    s.play("discard 7")
    assert s.coach_last is not None
    s.coach_on = False  # finish the hand by the rules of thumb, ungraded
    bot = RulesOfThumbBot()
    while s.state.phase not in ("hand_over", "game_over"):
        if s.bot_to_move():
            s.run_bots()
        else:
            s.play(format_action(bot(s.observation)))
    assert s.coach_last is not None  # the last graded move stays while the hand's result shows
    s.coach_on = True
    s.press("new_hand")
    assert s.coach_last is None and s.view()["coach"]["last"] is None


STOP = parse_position("""
turn: S meld
pile: 4H 6C 8D 9S TC
N: 11
E: 11
S: 3C 5D 7H 8S KD KH QS
W: 11
melds NS: 9H 9D 9C
melds EW: KS KC KC
""")


def test_grade_names_the_hint_s_best_and_calls_no_other_move_best():
    obs = observe(STOP, "S")
    h = hint(obs, samples=8, seed=3)
    for a in obs.legal_actions:
        g = grade(obs, a, samples=8, seed=3)
        assert g.best == h.best
        assert (g.grade == "best") == (a == h.best), (a, g)


def test_grade_line_of_the_hint_s_own_plan_is_best():
    obs = observe(STOP, "S")
    h = hint(obs, samples=8, seed=1)
    g = grade_line(obs, h.plan_actions, samples=8, seed=1, the_hint=h)
    assert g.grade == "best" and g.loss == 0
    other = next(a for a in obs.legal_actions if a != h.best and a[0] == "discard")
    g2 = grade_line(obs, [other], samples=8, seed=1, the_hint=h)
    assert g2.grade != "best" and g2.deals == 8 and g2.reference == tuple(h.plan_actions)
    assert parse_action("discard 3") in obs.legal_actions


def test_the_hint_panel_says_what_its_values_are():
    s = _drawn_fours()
    for _ in range(5):
        s.hint()
    view = s.view()["hint"]
    assert view["table"] and view["value_words"] == "expected points this hand: your side's score less the other side's"
