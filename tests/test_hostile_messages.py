"""Hostile messages and numbers: every widget's ``handle`` checks its message first, the views
stay small however many refusals, and every command-line number is checked by one helper.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor.cli import args as cliargs
from canasta_tutor.cli.main import main
from canasta_tutor.ui.lesson import LessonWidget
from canasta_tutor.ui.puzzle import PuzzleTrainer
from canasta_tutor.tutor.eventlog import REFUSALS_SHOWN
from canasta_tutor.tutor.lessons.loader import parse_lesson
from canasta_tutor.tutor.lessons.runner import DEMO
from canasta_tutor.ui.table import CanastaTable
from test_fuzz import examples

SETTINGS = dict(deadline=None, derandomize=os.environ.get("CANASTA_FUZZ") != "long", database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------ the lesson widget checks its messages
@pytest.mark.parametrize("msg, words", [
    ({"intent": "goto", "index": None}, "'index' must be a whole number"),
    ({"intent": "goto", "index": [1]}, "'index' must be a whole number"),
    ({"intent": "goto", "index": True}, "'index' must be a whole number"),
    ({"intent": "goto", "index": 9}, "has levels 1 to"),
    ({}, "A message must be an object with an 'intent' string."),
    ([1, 2], "A message must be an object with an 'intent' string."),
    ("act", "A message must be an object with an 'intent' string."),
    ({"intent": 3}, "A message must be an object with an 'intent' string."),
    ({"intent": "press", "button": "meld", "cards": None}, "'cards' must list the codes"),
    ({"intent": "press", "button": "meld", "cards": ["KH", 7]}, "'cards' must list the codes"),
    ({"intent": "press", "button": "meld", "cards": ["KH"] * 31}, "'cards' must list the codes"),
    ({"intent": "press", "button": ["meld"], "cards": []}, "'button' must name a button"),
    ({"intent": "press", "button": "add", "cards": ["KH"], "to": {"k": 1}}, "'to' must name a meld"),
    ({"intent": "act", "text": None}, "'text' must be a short action"),
    ({"intent": "act", "text": "draw " * 100}, "'text' must be a short action"),
    ({"intent": "fly"}, "Unknown intent 'fly'."),
])
def test_the_lesson_widget_answers_a_malformed_message_with_a_notice(msg, words):
    w = LessonWidget(parse_lesson(DEMO, "demo.toml"), store=None, hint_fn=None)
    before = (w.player.index, w.player.run.tries, w.player.run.status)
    answer = w.handle(msg)
    assert words in answer and w.view["notice"] == answer
    assert (w.player.index, w.player.run.tries, w.player.run.status) == before


def test_the_lesson_widget_sets_its_view_again_when_the_browser_writes_it():
    w = LessonWidget(parse_lesson(DEMO, "demo.toml"), store=None, hint_fn=None)
    mine = dict(w.view)
    w.view = {"status": "passed", "stars": 3}
    assert w.view == mine


MESSAGE = st.recursive(st.none() | st.booleans() | st.integers(-5, 50) | st.floats() | st.text(max_size=12),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=4),
                       max_leaves=12)
INTENTS = ["act", "press", "hint", "retry", "next", "goto", "play", "draw", "take", "select", "toggle", "join",
           "theme", "streak", "timed", "tick", "give_up", "four_colour", "rule", "undo", "fly"]


@st.composite
def messages(draw: st.DrawFn) -> object:
    """A message as a hostile browser might send one: mostly an intent with fields of any type."""
    if draw(st.booleans()):
        return draw(MESSAGE)
    msg = draw(st.dictionaries(st.sampled_from(["text", "button", "cards", "to", "index", "indices", "rev", "on",
                                                "id", "theme", "seconds", "meld", "from", "into"]), MESSAGE,
                               max_size=4))
    msg["intent"] = draw(st.sampled_from(INTENTS))
    return msg


_WIDGETS: dict[str, object] = {}


def _widgets() -> dict[str, object]:
    """One widget of each kind, made once: the messages of every example go to the same three."""
    if not _WIDGETS:
        _WIDGETS["lesson"] = LessonWidget(parse_lesson(DEMO, "demo.toml"), store=None, hint_fn=None)
        _WIDGETS["table"] = CanastaTable(seed=3, bot_delay=0)
        _WIDGETS["puzzle"] = PuzzleTrainer(puzzle="c22-take-the-pack", store=None, explain=None)
    return _WIDGETS


@settings(max_examples=examples("messages"), **SETTINGS)
@given(st.lists(messages(), min_size=1, max_size=6))
def test_every_widget_answers_any_message_without_raising(batch):
    for msg in batch:
        for name, w in _widgets().items():
            if name == "table" and isinstance(msg, dict) and "hint" in (msg.get("intent"), msg.get("type")):
                continue  # the table's hint is a search of a second or so; its message is checked like the rest
            assert isinstance(w.handle(msg), str)
            json.dumps(w.view)
    json.dumps(_widgets()["puzzle"].puzzle)


# ------------------------------------------------------------------ small views
def test_the_table_view_keeps_the_last_few_refusals_and_the_events_keep_all():
    t = CanastaTable(seed=11, bot_delay=0)
    t.handle({"intent": "draw"})
    small = len(json.dumps(t.view))
    for _ in range(400):
        t.handle({"intent": "draw"})  # refused: South has drawn already
    refused = [e for e in t.view["log"] if e["kind"] == "refused"]
    assert len(refused) == REFUSALS_SHOWN
    assert refused[-1]["i"] == len(t.session.events) - 1  # the newest ones
    assert sum(e.kind == "refused" for e in t.session.events) == 400
    assert len(json.dumps(t.view)) < small + 2000
    t.handle({"intent": "undo"})  # an undo after them all: the log is read again
    assert [e["kind"] for e in t.view["log"]].count("refused") <= REFUSALS_SHOWN


def test_the_lesson_view_keeps_the_last_few_refusals_and_the_log_keeps_all():
    w = LessonWidget("melds", store=None, hint_fn=None)
    for _ in range(300):
        w.handle({"intent": "act", "text": "discard 3"})  # not allowed in this level, or refused
    feedback = w.view["feedback"]
    assert len([f for f in feedback if not f["accepted"]]) == REFUSALS_SHOWN
    assert len(w.player.run.log) >= 300 and w.player.run.tries == 300


# ------------------------------------------------------------------ numbers on the command line
@pytest.mark.parametrize("argv, words", [
    (["lesson", "check", "--seeds", "-5"], "argument --seeds: -5 is out of range"),
    (["lesson", "check", "--seeds", "0"], "argument --seeds: 0 is out of range"),
    (["lesson", "play", "melds", "1", "--seed", "-1"], "argument --seed: -1 is out of range"),
    (["lesson", "play", "melds", "1", "--seed", "9" * 30], "is too long for a number"),
    (["puzzles", "mine", "--workers", "10000"], "give at most"),
    (["puzzles", "mine", "--games", "0"], "argument --games: 0 is out of range"),
    (["puzzles", "list", "--sample", "0"], "argument --sample: 0 is out of range"),
    (["puzzles", "list", "--seed", "1e3"], "'1e3' is not a whole number"),
    (["match", "random", "random", "--workers", "10000"], "give at most"),
    (["class", "simulate", "--course", "x", "--students", "0"], "argument --students: 0 is out of range"),
    (["class", "simulate", "--course", "x", "--items", "-3"], "argument --items: -3 is out of range"),
    (["selfplay", "--hands", "-1"], "argument --hands: -1 is out of range"),
    (["deal", "--seed", "nan"], "'nan' is not a whole number"),
    (["hint", "-", "--budget", "inf"], "argument --budget: inf is out of range"),
])
def test_every_subcommand_checks_its_numbers_with_one_helper(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_workers_are_capped_at_four_per_processor_everywhere(capsys):
    most = cliargs.max_workers()
    assert most == 4 * (os.cpu_count() or 1)
    for argv in (["match", "random", "random"], ["puzzles", "mine"]):
        assert main([*argv, "--workers", str(most + 1)]) == 2
        assert f"give at most {most} workers" in capsys.readouterr().err


def test_lesson_play_takes_at_most_a_thousand_actions(capsys):
    assert main(["lesson", "play", "melds", "1", "--actions", "; ".join(["draw"] * 1001)]) == 2
    assert "--actions and --answer give 1,001 steps; give at most 1,000" in capsys.readouterr().err
    assert main(["lesson", "play", "melds", "1", "--json", "--actions", "; ".join(["draw"] * 1000)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["actions"]) == 1000 and out["status"] == "open"


@pytest.mark.parametrize("argv", [["lesson", "list", "--dir", "/nonexistent/lessons"],
                                  ["lesson", "play", "melds", "1", "--dir", "/nonexistent/lessons"],
                                  ["puzzles", "list", "--folder", "/nonexistent/puzzles"],
                                  ["puzzles", "verify", "--folder", "/nonexistent/puzzles"]])
def test_a_missing_folder_is_an_error(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "/nonexistent/" in err and ("no folder" in err or "no such folder" in err)
