"""The level runner and the lesson loader: every wrong move answered, replies, stars,
try_illegal levels, generated setups, and errors that name file, line and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.notation.actions import parse_action
from canasta_tutor.engine.state import State
from canasta_tutor.tutor.events import RefusedEvent
from canasta_tutor.tutor.lessons.check import solve
from canasta_tutor.tutor.lessons.generate import GenerationError, generate
from canasta_tutor.tutor.lessons.loader import LessonFormatError, check_text, parse_lesson
from canasta_tutor.tutor.lessons.locate import locate
from canasta_tutor.tutor.lessons.runner import (DEMO, FAILED, OPEN, PASSED, LessonRuntimeError, LevelOverError,
                                                WRONG_KIND, LevelRun, why_worse)
from canasta_tutor.tutor.progress import ProgressStore

HEAD = 'id = "t"\ntitle = "T"\norder = 1\nsummary = "s"\n'

POSITION = """
dealer: E
turn: S draw
pile: 5H 2C* 6D 9S
N: 9
E: 9
S: 9H 9C KH KD KS 4D 7C
W: 9
melds NS: 8H 8D 8S
melds EW: QH QS QD
"""


def lesson_text(level: str, position: str = POSITION) -> str:
    return HEAD + '\n[[level]]\nid = "l"\ntitle = "L"\ngoal = "Take the pack."\n' + \
        f"position = '''{position}'''\n" + level


def one_level(level: str, position: str = POSITION) -> Any:
    return parse_lesson(lesson_text(level, position), "t.toml").levels[0]


TAKE = one_level('''par = 1
allow = ["take", "draw", "discard"]
success = "pack_taken"
solutions = [["take 9 9 9"]]
hints = ["Look at the top card.", "You hold two nines."]
[[level.failure]]
when = "turn_ended"
feedback = "You ended your turn without the pack."
[[level.note]]
rule = "R-TURN-2"
text = "First the pack or the stock, then the rest."
[[level.note]]
verb = "meld"
text = "No melding in this level."
''')


def test_an_illegal_action_gets_the_engines_reason_rule_and_the_lessons_note() -> None:
    run = LevelRun(TAKE, hint_fn=None)
    before = run.position()
    r = run.play("discard 4")
    assert not r.accepted and r.rule == "R-TURN-2" and r.reason
    assert r.feedback == [f"[R-TURN-2] {r.reason}", "First the pack or the stock, then the rest."]  # the session's text
    assert run.position() == before and run.status == OPEN and run.tries == 1
    assert isinstance(run.events[-1], RefusedEvent) and run.events[-1].rule == "R-TURN-2"


def test_a_verb_the_level_does_not_allow_is_refused_with_its_note() -> None:
    run = LevelRun(TAKE, hint_fn=None)
    r = run.play("meld K K K")
    assert not r.accepted and r.rule == ""
    assert "take, draw or discard" in r.feedback[0]
    assert r.feedback[1] == "No melding in this level."


def test_text_that_is_not_an_action_is_answered_and_not_counted() -> None:
    run = LevelRun(TAKE, hint_fn=None)
    r = run.play("tkae 9 9")
    assert not r.accepted and not r.counted and "unknown action" in r.feedback[0]
    assert run.tries == 0


def test_a_legal_but_wrong_action_gets_the_failures_feedback() -> None:
    run = LevelRun(TAKE, hint_fn=None)
    run.play("draw")
    r = run.play("discard 4")
    assert r.accepted and r.status == FAILED
    assert r.feedback[-1] == "You ended your turn without the pack."
    assert run.stars() == 0
    with pytest.raises(LevelOverError):
        run.play("draw")


def test_a_failure_that_matches_at_once_answers_at_once() -> None:
    level = one_level('''par = 1
turns = 2
success = "pack_taken"
solutions = [["take 9 9 9"]]
[[level.failure]]
when = { played = "draw" }
feedback = "Drawing gives up the pack for this turn."
''')
    run = LevelRun(level, hint_fn=None)
    r = run.play("draw")
    assert r.accepted and r.status == FAILED and not r.wrong
    assert r.feedback == ["You drew 4♠.", "Drawing gives up the pack for this turn."]


def test_a_wrong_move_without_a_failure_is_explained_at_once_by_the_hint() -> None:
    level = one_level('par = 1\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n')
    seen: list[tuple[State, str, tuple, tuple | None]] = []

    def fake_why(state: State, seat: str, action: tuple, expected: tuple | None, seed: int) -> str:
        seen.append((state, seat, action, expected))
        return "Drawing leaves the pack to the others."

    def no_hint(state: State, seat: str, seed: int) -> str:
        raise AssertionError("the wrong move was already explained")

    run = LevelRun(level, hint_fn=no_hint, why_fn=fake_why)
    r = run.play("draw")  # legal, and after it the pack cannot be taken this turn
    assert r.accepted and r.wrong and r.status == OPEN  # answered now, not when the turns run out
    assert r.feedback[-1] == "Drawing leaves the pack to the others."
    (state, seat, action, expected), = seen
    assert seat == "S" and state.phase == "draw" and action == ("draw",)
    assert expected == parse_action("take 9 9 9")  # the level's move there
    r = run.play("discard 4")
    assert not r.wrong and len(seen) == 1  # one explanation per attempt, reused when the level fails
    assert r.status == FAILED
    # the reasons were said at the wrong move: the failure line does not repeat them (the summary keeps them)
    assert r.feedback[-1] == "The goal was not reached: Take the pack."
    assert run.message == "The goal was not reached: Take the pack. Drawing leaves the pack to the others."


def test_without_search_the_wrong_move_is_compared_with_the_levels_move_in_the_hints_words() -> None:
    level = one_level('par = 1\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n')
    run = LevelRun(level, hint_fn=None)
    r = run.play("draw")
    assert r.wrong and r.status == OPEN
    assert r.feedback == ["You drew 4♠.", "This level plays take 9 9 9 here, not draw. "
                          "Drawing leaves the 4-card pack to the others."]
    r = run.play("discard 4")
    assert r.status == FAILED
    assert r.feedback[-1] == "The goal was not reached: Take the pack."
    assert run.message == ("The goal was not reached: Take the pack. This level plays take 9 9 9 here, not draw. "
                           "Drawing leaves the 4-card pack to the others.")


def test_a_move_off_the_lines_that_still_reaches_the_goal_is_not_wrong() -> None:
    position = POSITION.replace("turn: S draw", "turn: S meld").replace("S: 9H 9C KH KD KS 4D 7C",
                                                                         "S: 7H 7D 7C KH KD KS 4D 9C")
    level = one_level('par = 2\nsuccess = { meld_of = "K 7" }\nsolutions = [["meld K K K", "meld 7 7 7"]]\n',
                      position)
    run = LevelRun(level, hint_fn=None)
    r = run.play("meld 7 7 7")  # the other order: off the declared line, but the goal is still in reach
    assert r.accepted and not r.wrong and r.feedback == ["You melded 7♥ 7♦ 7♣."]
    assert run.play("meld K K K").status == PASSED and run.stars() == 3


@pytest.mark.slow
def test_with_search_the_hint_grades_the_wrong_move() -> None:
    level = one_level('par = 1\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n')
    state = LevelRun(level, hint_fn=None).start
    text = why_worse(state, "S", ("draw",), parse_action("take 9 9 9"), seed=0, search=True)
    assert text.startswith("The hint rates draw a mistake and prefers take 9 9 9."), text
    assert "Drawing leaves the 4-card pack to the others." in text
    assert why_worse(state, "S", ("discard", 4)) == ""  # not legal here: nothing to explain


def test_stars_par_and_hints() -> None:
    run = LevelRun(TAKE, hint_fn=None)
    run.play("take 9 9 9")
    assert run.status == PASSED and run.stars() == 3
    run = LevelRun(TAKE, hint_fn=None)
    assert run.next_hint() == "Look at the top card."
    run.play("take 9 9 9")
    assert run.stars() == 2
    run = LevelRun(TAKE, hint_fn=None)
    assert run.next_hint() and run.next_hint() and run.next_hint() is None
    run.play("discard 4")  # refused, but counted: over par
    run.play("take 9 9 9")
    assert run.stars() == 1  # never below one when passed


def test_try_illegal_level_passes_on_the_refusal() -> None:
    level = one_level('''par = 1
try_illegal = true
success = { refused = "R-PACK-4" }
solutions = [["take 9"]]
[[level.note]]
rule = "R-PACK-4"
text = "Frozen: only a natural pair takes it."
''', POSITION.replace("melds NS: 8H 8D 8S", "melds NS: 9D 9D 9C").replace("S: 9H 9C", "S: 4H 5C"))
    run = LevelRun(level, hint_fn=None)
    r = run.play("take 9")
    assert r.rule == "R-PACK-4" and r.status == PASSED
    assert "Frozen: only a natural pair takes it." in r.feedback
    assert run.stars() == 3
    # drawing instead passes the lesson by: answered at once with what the level asks for
    run = LevelRun(level, hint_fn=None)
    r = run.play("draw")
    assert r.wrong and r.status == OPEN
    assert r.feedback[-1] == ("This level asks you to try take 9 here, rather than draw, and read why the rules "
                              "refuse it.")


def test_scripted_replies_and_the_bot_after_them() -> None:
    level = one_level('''par = 3
turns = 2
success = { discarded = "K" }
solutions = [["draw", "discard 4", "draw"]]
[level.replies]
W = ["draw", "discard 5"]
''')
    run = LevelRun(level, hint_fn=None)
    run.play("draw")
    r = run.play("discard 4")
    assert r.replies[0] == "West drew from the stock, discarded 5♥."  # the table log's words
    assert len(r.replies) > 2  # N and E played by the bot after W's script
    assert run.learner_to_act()


def test_a_refused_scripted_reply_is_a_lesson_error() -> None:
    level = one_level('''par = 2
turns = 2
success = "went_out"
solutions = [["draw", "discard 4"]]
[level.replies]
W = ["discard 5"]
''')
    run = LevelRun(level, hint_fn=None)
    run.play("draw")
    with pytest.raises(LessonRuntimeError, match="scripted reply 'discard 5' of W is refused"):
        run.play("discard 4")


GEN = HEAD + '''
[[level]]
id = "g"
title = "Generated"
goal = "Take the frozen pack with your pair of {top}s."
par = 1
success = "pack_taken"
solutions = [["take {top} {top} {top}"]]
[level.generate]
template = """
dealer: E
turn: S draw
pile: {~low} 2C* {~low} {top}
N: 11
E: 11
S: {top} {top} {~other} {~other} {~other} {~other} {~other}
W: 11
melds NS: 8H 8D 8S
"""
constraints = ["pack_frozen", { holds_of_top = 2 }]
[level.generate.vars]
top = ["9", "T", "J", "Q", "K"]
low = ["4", "5", "6"]
other = ["4", "5", "6", "7", "A"]
'''


def test_a_generated_level_is_fixed_by_its_seed_and_differs_between_seeds() -> None:
    level = parse_lesson(GEN, "g.toml").levels[0]
    a, b = LevelRun(level, seed=5, hint_fn=None), LevelRun(level, seed=5, hint_fn=None)
    assert a.setup_text == b.setup_text and a.position() == b.position()
    texts = {LevelRun(level, seed=s, hint_fn=None).setup_text for s in range(8)}
    assert len(texts) > 1
    for seed in range(8):
        run = LevelRun(level, seed=seed, hint_fn=None)
        top = run.values["top"]
        assert run.goal == f"Take the frozen pack with your pair of {top}s."
        assert run.play(f"take {top} {top} {top}").status == PASSED
        assert solve(level, seed).found is not None


def test_a_generator_whose_constraints_never_hold_says_so() -> None:
    level = parse_lesson(GEN.replace("holds_of_top = 2", "holds_of_top = 5"), "g.toml").levels[0]
    assert level.generate is not None
    with pytest.raises(GenerationError, match="no deal for seed 0 met the constraints in 200 tries"):
        generate(level.generate, "S", 0)


def test_search_finds_a_line_that_is_not_declared() -> None:
    level = one_level('par = 2\nsuccess = { melded_at_least = 30 }\nsolutions = [["draw", "meld K K K"]]\n')
    level = type(level)(**{**level.__dict__, "solutions": (("draw",),)})  # hide the real line
    found = solve(level).found
    assert found is not None and found[0] == "draw" and found[1].startswith("meld")


# ------------------------------------------------------------- the loader
def test_errors_name_file_line_and_field() -> None:
    text = lesson_text('par = 0\nsuccess = "pack_takn"\nsolutions = [["take 9 Q"]]\n')
    problems = [str(p) for p in check_text(text, "x.toml")]
    assert problems == ["x.toml:21: level[0].par: 0 is less than the minimum of 1"]
    text = lesson_text('par = 1\nsuccess = "pack_takn"\nsolutions = [["take 9 Q"]]\n')
    problems = [str(p) for p in check_text(text, "x.toml")]
    assert problems == [
        "x.toml:22: level[0].success: unknown predicate 'pack_takn' (did you mean 'pack_taken'?)",
        "x.toml:23: level[0].solutions[0][0]: 'take 9 Q': a meld holds one rank, but this names 9s and queens",
    ]


def test_a_level_the_schema_refuses_hides_no_error_in_the_other_levels() -> None:
    second = ('\n[[level]]\nid = "m"\ntitle = "M"\ngoal = "Take the pack."\n'
              f"position = '''{POSITION}'''\n" + 'par = 1\nsuccess = "pack_takn"\nsolutions = [["take 9 9 9"]]\n')
    text = lesson_text('par = 0\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n') + second
    problems = [str(p) for p in check_text(text, "x.toml")]
    assert problems == ["x.toml:21: level[0].par: 0 is less than the minimum of 1",
                        "x.toml:41: level[1].success: unknown predicate 'pack_takn' (did you mean 'pack_taken'?)"]
    # an error in the file's own fields stops the check after the schema's errors
    assert [str(p) for p in check_text(text.replace('order = 1', 'order = "one"'), "x.toml")] == [
        "x.toml:21: level[0].par: 0 is less than the minimum of 1", "x.toml:3: order: 'one' is not of type 'integer'"]


def test_a_position_error_points_at_the_line_inside_the_position() -> None:
    text = lesson_text('par = 1\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n',
                       POSITION.replace("pile: 5H 2C* 6D 9S", "pile: 5H 2C* 6D ZZ"))
    (p,) = check_text(text, "x.toml")
    assert text.splitlines()[p.line - 1] == "pile: 5H 2C* 6D ZZ"
    assert p.field == "level[0].position (pile)"


def test_a_key_below_a_sub_table_is_explained() -> None:
    text = lesson_text('par = 1\nsuccess = "pack_taken"\n[[level.note]]\ntext = "n"\nsolutions = [["take 9 9 9"]]\n')
    problems = [str(p) for p in check_text(text, "x.toml")]
    assert any("belongs to that table: move solutions above" in p for p in problems)


def test_toml_syntax_errors_and_unknown_rules() -> None:
    (p,) = check_text(HEAD + "[[level]\n", "x.toml")
    assert p.line == 5 and "not valid TOML" in p.message
    text = lesson_text('par = 1\nrules = ["R-PACK-99"]\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n'
                       'hints = ["See R-FRZ-77."]\n')
    assert [p.message for p in check_text(text, "x.toml")] == ["R-PACK-99 is not a rule of the rule book",
                                                              "R-FRZ-77 is not a rule of the rule book"]


def test_setup_is_exactly_one_of_position_or_generate() -> None:
    text = HEAD + '[[level]]\nid = "l"\ntitle = "L"\ngoal = "g"\npar = 1\nsuccess = "pack_taken"\n' \
                  'solutions = [["draw"]]\n'
    assert [p.message for p in check_text(text, "x.toml")] == ["give exactly one setup: 'position' or 'generate'"]


def test_constraints_read_only_the_position() -> None:
    text = GEN.replace('constraints = ["pack_frozen"', 'constraints = ["pack_taken"')
    (p,) = check_text(text, "g.toml")
    assert p.field == "level[0].generate.constraints[0]" and "only the position" in p.message


def test_lesson_text_is_data_never_code() -> None:
    text = lesson_text('par = 1\nsuccess = "pack_taken"\nsolutions = [["__import__(\'os\').system(\'x\')"]]\n')
    (p,) = check_text(text, "x.toml")
    assert "unknown action" in p.message
    lesson = parse_lesson(lesson_text('par = 1\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n'
                                      'hints = ["<script>alert(1)</script>"]\n'), "x.toml")
    assert lesson.levels[0].hints == ("<script>alert(1)</script>",)  # kept as text; shown escaped


def test_parse_lesson_raises_with_every_problem() -> None:
    with pytest.raises(LessonFormatError) as e:
        parse_lesson(lesson_text('par = 1\nsuccess = "nope"\nsolutions = [["nope"]]\n'), "x.toml")
    assert len(e.value.problems) == 2 and "(and 1 more)" in str(e.value)


def test_locate_finds_nested_tables() -> None:
    text = (HEAD + '[[level]]\nid = "a"\n[[level.failure]]\nwhen = "x"\n[[level]]\nid = "b"\n'
            '[[level.failure]]\nwhen = "y"\n[[level.failure]]\nwhen = "z"\n[level.generate]\ntries = 3\n')
    lines = text.splitlines()
    assert lines[locate(text, ["level", 1, "failure", 1, "when"]) - 1] == 'when = "z"'
    assert lines[locate(text, ["level", 0, "failure", 0, "when"]) - 1] == 'when = "x"'
    assert lines[locate(text, ["level", 1, "generate", "tries"]) - 1] == "tries = 3"


def test_the_demo_lesson() -> None:
    level = parse_lesson(DEMO, "demo.toml").levels[0]
    assert LevelRun(level, hint_fn=None).play("take 9 9 9").status == PASSED


def test_the_example_in_format_md_is_a_valid_level_that_plays() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "lessons" / "FORMAT.md").read_text(encoding="utf-8")
    block = text.split("## A level", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    lesson = parse_lesson(HEAD + block, "FORMAT.md")
    level = lesson.levels[0]
    run = LevelRun(level, hint_fn=None)
    r = run.play("draw")
    assert not r.accepted and "Drawing gives up the pack" in r.feedback[-1]
    assert run.play("take 9 9 9").status == PASSED


# ------------------------------------------------------------- fuzzing the loader

_GOOD = lesson_text('par = 1\nsuccess = { all = ["pack_taken", { not = "pack_frozen" }] }\n'
                    'solutions = [["take 9 9 9"]]\nhints = ["h"]\n[[level.failure]]\nwhen = "turn_ended"\n'
                    'feedback = "f"\n')


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_check_text_never_crashes_and_always_says_where(data: st.DataObject) -> None:
    """Damaged lesson files give problems with a file and a field or line, never an exception."""
    lines = _GOOD.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "garble", "retype"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "garble":
            lines[i] = data.draw(st.text(alphabet='ab=[]{}"\'#.,-_ 0123456789RPACK', max_size=30))
        elif "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = key + "= " + data.draw(st.sampled_from(["1", "true", '"x"', "[]", "{}", '["y"]', "-3"]))
        if not lines:
            lines = [""]
    problems = check_text("\n".join(lines) + "\n", "f.toml")
    for p in problems:
        assert p.file == "f.toml" and (p.line is not None or p.field)
        assert p.message


_TEXTS = ["draw", "take 9 9 9", "take 9", "take K K K", "meld K K K", "meld 9 9 JK", "add 9", "add JK to 9",
          "discard 4", "discard 7", "discard K", "ask", "yes", "no", "pass", "deal", "meld 3 3 3", "fly", "",
          "take", "discard 2", "add K"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_TEXTS), min_size=1, max_size=8), st.booleans())
def test_every_try_is_answered(texts: list[str], hint_steps: bool) -> None:
    """Whatever the learner types, every try gets feedback, and the level stays consistent."""
    run = LevelRun(TAKE, hint_fn=lambda state, seat, seed: "hint says so")
    for text in texts:
        if run.status != OPEN:
            with pytest.raises(LevelOverError):
                run.play(text)
            break
        if hint_steps:
            run.next_hint()
        r = run.play(text)
        assert r.feedback and all(isinstance(x, str) and x for x in r.feedback)
        assert r.accepted or r.rule or not r.counted or "This level is about something else" in r.feedback[0]
        assert r.status == run.status
    assert 0 <= run.stars() <= 3
    assert (run.stars() > 0) == (run.status == PASSED)


def test_generated_texts_use_only_the_generators_variables() -> None:
    text = GEN.replace('goal = "Take the frozen pack with your pair of {top}s."',
                       'goal = "Take it with your {tops} and {~low}."')
    messages = [p.message for p in check_text(text, "g.toml")]
    assert messages == ["{tops} is not a named variable of this level's generator",
                        "{~low} is not a named variable of this level's generator"]


def test_a_wrong_move_is_logged_with_its_reason_and_saved(tmp_path: Path) -> None:
    level = one_level('par = 1\nsuccess = "pack_taken"\nsolutions = [["take 9 9 9"]]\n')
    run = LevelRun(level, hint_fn=None)
    run.play("discard 4")  # refused
    run.play("draw")  # wrong
    run.play("discard 4")
    refused, wrong, discard = run.log[:3]
    assert refused["kind"] == "refused" and refused["rule"] == "R-TURN-2" and refused["reason"]
    assert wrong["kind"] == WRONG_KIND == "wrong" and wrong["text"] == "draw"
    assert wrong["reason"].startswith("This level plays take 9 9 9 here, not draw.")
    assert discard == {"kind": "action", "text": "discard 4", "rule": ""}
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record(run.attempt("s01"))
        (saved,) = store.attempts("s01")
    assert [a["kind"] for a in saved["actions"][:3]] == ["refused", "wrong", "action"]
    assert saved["actions"][1]["reason"].startswith("This level plays take 9 9 9 here")


def test_a_level_and_the_table_record_the_same_events() -> None:
    """One source of events and texts: the level runs on the session layer's TableSession."""
    from canasta_tutor.notation.position import parse_position
    from canasta_tutor.tutor.session import TableSession

    table = TableSession(state=parse_position(POSITION), seat="S")
    table.play("discard 4")
    table.play("take 9 9 9")
    run = LevelRun(TAKE, hint_fn=None)
    run.play("discard 4")
    run.play("take 9 9 9")
    assert run.status == PASSED
    assert run.events == table.events
    assert [e.text for e in run.events] == ["[R-TURN-2] Draw from the stock or take the pack before discarding",
                                            "You took the pack of 4 cards with 9♥ 9♣."]
