"""The table session, driven from plain Python: events, undo, bots, hint, coach, rules, intents."""

from __future__ import annotations

import pytest

from canasta_tutor.bots import RulesOfThumbBot
from canasta_tutor.engine.cards import CARD_CODE
from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import format_position
from canasta_tutor.tutor.events import ActionEvent, HandOverEvent, RedThreeEvent, RefusedEvent, WentOutEvent
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.tutor.view import side_total

SEED = 11


def play_hand(s: TableSession, limit: int = 2000) -> None:
    """The learner plays the rules-of-thumb bot's moves as text; the bots answer; to the end of the hand."""
    learner = RulesOfThumbBot()
    for _ in range(limit):
        if s.state.phase in ("hand_over", "game_over"):
            return
        if s.bot_to_move():
            assert s.step_bots(1) == 1, s.message
            continue
        from canasta_tutor.notation.actions import format_action

        out = s.play(format_action(learner(observe(s.state, s.me))))
        assert s.message_kind == "ok", out
    raise AssertionError("the hand did not end")


def test_every_action_of_every_seat_is_an_action_event():
    s = TableSession(seed=SEED)
    play_hand(s)
    actions = [e for e in s.events if isinstance(e, ActionEvent)]
    assert [e.action for e in actions] == [tuple(a) for a in s.state.history]
    assert {e.seat for e in actions} == set("NESW")
    assert all(e.text and e.notation for e in actions)
    assert any(e.commentary for e in actions if e.seat != "S")  # the bots' why
    assert [e.index for e in s.events] == list(range(len(s.events)))
    assert isinstance(s.events[-1], HandOverEvent)
    assert s.events[-1].result["sides"][0]["total"] == side_total(s.state.hand_results[-1], 0)
    if s.state.went_out is not None:
        assert isinstance(s.events[-2], WentOutEvent) and s.events[-2].seat == "NESW"[s.state.went_out]
    v = s.view()
    assert not any(p["active"] for p in v["players"].values()) and v["actor"] is None
    assert v["log"][-1]["kind"] == "hand_over"
    assert "went out" in v["message"] or "stock ran out" in v["message"]


def test_red_threes_are_events_and_in_the_log():
    s = TableSession(seed=19)  # South's first draw is a red three
    msg = s.press("draw")
    assert msg.startswith("You laid out the red three 3♦ and drew a replacement. You drew ")
    red, drew = s.events[0], s.events[1]
    assert isinstance(red, RedThreeEvent) and red.card == "3D" and red.replaced and red.seat == "S"
    assert isinstance(drew, ActionEvent) and drew.action == ("draw",)
    assert [e["kind"] for e in s.view()["log"]][:2] == ["red_three", "action"]
    assert s.can_undo is False


def test_refusals_are_events_with_the_engines_rule():
    s = TableSession(seed=SEED)
    before = format_position(s.state)
    assert s.press("discard").startswith("[R-TURN-2]")
    e = s.events[-1]
    assert isinstance(e, RefusedEvent) and e.rule == "R-TURN-2" and e.reason.startswith("Draw")
    assert format_position(s.state) == before
    assert s.view()["message_rule"] == "R-TURN-2"


def test_undo_never_crosses_a_draw():
    s = TableSession(seed=SEED)
    drawn = s.press("draw")
    assert drawn == "You drew 4♥. Meld or add to your melds, then discard."
    after = format_position(s.state)
    assert s.undo().startswith("Nothing to undo")
    assert format_position(s.state) == after  # the draw stands: no drawing again to learn the stock
    assert s.press("draw").startswith("[R-TURN-2]")


def test_undo_never_crosses_a_take_or_a_bot_move():
    s = TableSession(seed=SEED)
    s.press("draw")
    s.select([s.index_of("4S"), s.index_of("4C"), s.index_of("JK")])
    s.press("meld")
    assert s.can_undo
    s.select([s.index_of("3C")])
    s.press("discard")
    assert s.can_undo  # nothing shown yet: the bots have not moved
    s.run_bots()
    assert not s.can_undo


def test_undo_never_crosses_a_take():
    from test_planning import before_drawing

    s = TableSession(state=before_drawing("8D QC", "QH QS 7D 8S 9S 4H KS KH KD", "melds NS: AH AS AD"))
    s.select([s.index_of("QH"), s.index_of("QS")])
    assert s.press("take").startswith("You took the pack of 2 cards with Q♠ Q♥.")
    assert not s.can_undo
    s.select([s.index_of("KS"), s.index_of("KH"), s.index_of("KD")])
    s.press("meld")
    assert s.can_undo
    s.undo()
    assert not s.can_undo and s.state.took_pack


def test_a_repeated_click_is_ignored():
    s = TableSession(seed=SEED)
    rev = s.view()["rev"]
    first = s.handle({"intent": "draw", "rev": rev})
    second = s.handle({"intent": "draw", "rev": rev})  # the double click, drawn on the same view
    assert first == second == "You drew 4♥. Meld or add to your melds, then discard."
    assert s.view()["message_kind"] == "ok"
    assert s.state.hand_size[2] == 12
    # a selection click on the old view still counts; an old play click does not
    assert s.handle({"intent": "toggle", "index": 0, "rev": rev}).startswith("Selected")
    hand = s.view()["hand"]
    s.handle({"type": "discard", "rev": rev})
    assert s.view()["hand"] == hand and s.state.phase == "meld"
    s.handle({"intent": "select", "indices": [s.index_of("3C")]})
    assert s.handle({"intent": "discard", "rev": s.view()["rev"]}) == "You discarded 3♣."


def test_play_text_and_going_out_counts():
    s = TableSession(seed=SEED)
    assert s.play("draw").startswith("You drew")
    assert s.play("meld 4 4 JK") == "You melded 4♥ 4♥ JK."
    with pytest.raises(NotationError):
        s.play("fly")
    assert s.handle({"intent": "play", "text": "fly"}).startswith("[refused]")


def test_bots_are_stepped_one_action_at_a_time():
    s = TableSession(seed=SEED)
    s.play("draw")
    s.play("discard 3")
    n = len(s.events)
    assert s.bot_to_move()
    assert s.step_bots(1) == 1 and len(s.events) == n + 1
    assert s.run_bots() > 1 and not s.bot_to_move()
    assert s.state.current_seat == "S"
    assert s.message == "Your turn: draw from the stock or take the pack."


def test_a_broken_bot_stops_with_a_message():
    def broken(obs):
        raise RuntimeError("no idea")

    s = TableSession(seed=SEED, bots=broken)
    s.play("draw")
    s.play("discard 3")
    assert s.step_bots(5) == 0 and "bot failed" in s.message


def test_hint_stages_table_cards_and_plan():
    s = TableSession(seed=SEED, hint_iterations=24)
    s.press("draw")
    s.press("hint")
    h = s.view()["hint"]
    assert h["busy"] is False and h["stage"] == 0 and len(h["texts"]) == 1
    assert "R-" not in h["texts"][0] and "±" not in h["texts"][0]
    assert h["cards"] == [] and h["table"] == []
    s.press("hint")
    h = s.view()["hint"]
    assert h["stage"] == 1 and h["plan"] and h["plan_done"] == 0
    hand = s.view()["hand"]
    assert all(0 <= i < len(hand) for i in h["cards"])
    while h["stage"] + 1 < h["count"]:
        s.press("hint")
        h = s.view()["hint"]
    assert h["table"][0]["best"] is True and all(r["best"] is False for r in h["table"][1:])
    assert set(h["table"][0]) >= {"action", "verdict", "value", "best"}
    # follow the plan's first step: the plan stays with its progress
    steps = h["plan"]
    if len(steps) > 1:
        s.play(steps[0].split(" (x")[0])
        h2 = s.view()["hint"]
        assert h2 is not None and h2["plan"] == steps and h2["plan_done"] >= (0 if "(x" in steps[0] else 1)


def test_coach_grades_each_move_after_it_is_played():
    s = TableSession(seed=SEED, hint_iterations=24)
    assert s.handle({"intent": "coach", "on": True}).startswith("Coach on")
    s.press("draw")
    s.select([s.index_of("3C")])
    s.press("discard")
    last = s.view()["coach"]["last"]
    assert s.view()["coach"]["on"] is True
    assert last is not None and last["action"] == "discard 3"
    assert last["grade"] in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert set(last) == {"action", "grade", "loss", "best", "text"}
    s.handle({"intent": "coach", "on": False})
    assert s.view()["coach"]["on"] is False


def test_rule_text_on_request():
    s = TableSession(seed=SEED)
    s.handle({"intent": "rule", "id": "R-FRZ-1"})
    r = s.view()["rule"]
    assert r["id"] == "R-FRZ-1" and r["title"] == "Freezing the pile" and "frozen" in r["text"]
    assert "Sources" not in r["text"]
    s.handle({"type": "rule", "id": None})
    assert s.view()["rule"] is None
    assert s.handle({"intent": "rule", "id": "R-NOPE-9"}).startswith("[refused]")
    assert s.handle({"intent": "rule", "id": 5}).startswith("[refused]")


def test_four_colour_is_changed_only_by_its_intent():
    s = TableSession(seed=SEED)
    assert s.view()["four_colour"] is False
    s.handle({"intent": "four_colour", "on": True})
    assert s.view()["four_colour"] is True
    assert s.handle({"intent": "four_colour", "on": "yes"}).startswith("[refused]")
    assert s.view()["four_colour"] is True


def test_answering_partner_is_said_in_plain_words():
    s = TableSession(seed=SEED)
    s.state.phase = "answer"  # North asked: South answers
    s.state.turn = 0
    s.state.asked = 1
    msg = s.press("draw")
    assert "Waiting for S" not in msg and msg.startswith("[R-ASK-2] North asked")


def test_new_hand_message_matches_the_score_sheet():
    s = TableSession(seed=SEED)
    play_hand(s)
    if s.state.phase == "game_over":
        return
    rows = s.view()["score"]["rows"]
    msg = s.press("new_hand")
    assert msg.startswith(f"Deal {rows[-1][0] + 1}: a new hand")
    assert s.view()["deal_label"] == f"Deal {rows[-1][0] + 1}"
    assert s.view()["log"][0]["text"].endswith(f"dealt hand {rows[-1][0] + 1}.")


@pytest.mark.parametrize("seed", [2, 9, 11, 22])
def test_every_red_three_on_the_table_is_an_event_of_its_side(seed):
    s = TableSession(seed=seed)
    play_hand(s)
    reds = [e for e in s.events if isinstance(e, RedThreeEvent)]
    for side in (0, 1):
        on_table = sorted(CARD_CODE[c] for c in s.state.red3[side])
        assert sorted(e.card for e in reds if "NESW".index(e.seat) % 2 == side) == on_table
