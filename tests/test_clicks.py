"""A click means what the learner selected (issue: "Clicks that mean something else").

At the table (:class:`TableSession`) and in a lesson (:class:`LessonPlayer`, the widget's Python side), a
press is answered naming the cards selected and the engine's own reason; Take pack with nothing selected is
the top card onto the side's meld; a selection that cannot be one meld says why; a button that does more
than its label says so, and a level can ask for step-by-step play; a try counts for the learner's own move.
"""

from __future__ import annotations

import pytest

from canasta_tutor.tutor.lessons.clicks import CompositionError
from canasta_tutor.tutor.lessons.player import LessonPlayer, find_lesson
from canasta_tutor.tutor.lessons.runner import LevelRun
from canasta_tutor.tutor.puzzles.session import PuzzleTable
from canasta_tutor.tutor.puzzles.library import load_library
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.tutor.puzzles.trainer import Trainer
from test_planning import before_drawing


def player(lesson: str, level: str) -> LessonPlayer:
    found = find_lesson(lesson)
    return LessonPlayer(found, store=None, hint_fn=None, level=[lv.id for lv in found.levels].index(level))


def last(p: LessonPlayer) -> dict:
    return p.feedback[-1]


# ----------------------------------------------------------------- Take pack with nothing selected
@pytest.mark.parametrize("lesson, level, rule", [("freezing", "wild-card-freezes", "R-PACK-4"),
                                                 ("freezing", "stays-frozen", "R-PACK-4"),
                                                 ("taking-the-pack", "one-card-each", "R-PACK-7")])
def test_take_pack_with_nothing_selected_is_the_top_card_onto_the_sides_meld(lesson, level, rule):
    """R-PACK-7, R-PACK-4: the level asks to take the top card onto the meld; Take pack with nothing selected
    is that take, refused under the level's rule, so the level passes (it was refused as 'take 10 10 10',
    R-PACK-2, 'you hold one 10', and a star was lost)."""
    p = player(lesson, level)
    (r,) = p.press("take")
    assert r.rule == rule and p.run.status == "passed" and p.run.stars() == 3
    assert last(p)["action"] == "Take pack, nothing selected"
    assert p.run.log[-1]["text"] == "press take"  # logged as the click, replayed as the click


def test_take_pack_with_nothing_selected_and_no_meld_says_select_the_pair():
    """R-PACK-4: no meld of nines and a frozen pack: the engine's reason, which names the pair held."""
    s = TableSession(state=before_drawing("5H 2C 9D 9S", "9H 9C KH KD 4S 5S 6S 7S 8S TS JS", "melds NS: AH AS AD"))
    msg = s.press("take")
    assert msg.startswith("Take pack, nothing selected: [R-PACK-4]")
    assert msg.endswith("from your hand (you hold 2 9s), and this take uses none of them")


# ----------------------------------------------------------------- the press names the learner's cards
@pytest.mark.parametrize("top, rule", [("3C", "R-PACK-3"), ("2C", "R-PACK-3")])
def test_a_take_on_a_blocked_pile_names_the_selected_cards_not_a_planner_step(top, rule):
    """R-PACK-3: 9 9 selected with a black three or a deuce on top was answered 'take 3 3 3' or 'take 2 2 2'."""
    s = TableSession(state=before_drawing(f"5H 9D {top}", "9H 9C KH KD 4S 5S 6S 7S 8S TS JS"))
    s.select([s.index_of("9H"), s.index_of("9C")])
    msg = s.press("take")
    assert msg.startswith(f"Take pack with 9♥ 9♣: [{rule}]")
    assert "take 3" not in msg and "take 2" not in msg
    assert s.events[-1].press == "Take pack with 9♥ 9♣"


def test_go_out_refused_in_a_lesson_is_named_go_out_not_a_discard():
    """R-OUT-1: a refused Go out was shown as 'discard 4', a move the learner never made."""
    p = player("going-out", "canasta-first")
    (r,) = p.press("go_out")
    assert r.rule == "R-OUT-1"
    assert not r.accepted and last(p)["action"] == "Go out"
    assert "discard" not in last(p)["action"]


def test_two_jacks_added_in_a_puzzle_are_named_as_the_click():
    """A puzzle refusal names the click ('Add J♥ J♠'), not the planner's first step ('add J')."""
    library = load_library()
    puzzle = next(p for p in library if p.id == "c11-show-then-take")
    t = PuzzleTable(Trainer([puzzle], store=None, explain=None), puzzle=puzzle.id)
    hand = t.session.hand_cards()
    from canasta_tutor.engine.cards import ALL_CARD_CODES
    codes = [ALL_CARD_CODES[c] for c in hand]
    pair = next(c for c in codes if codes.count(c[0] + "H") + codes.count(c[0] + "S") + codes.count(c[0] + "D")
                + codes.count(c[0] + "C") >= 2 and c[0] not in "23J")
    picks = [i for i, c in enumerate(codes) if c[0] == pair[0]][:2]
    t.session.select(picks)
    out = t.handle({"intent": "add"})
    names = " ".join(_face(codes[i]) for i in picks)
    assert out.startswith(f"Not allowed: Add {names}."), out


def _face(code: str) -> str:
    from canasta_tutor.tutor.view import card_text
    return card_text(code)


# ----------------------------------------------------------------- a selection that is not one meld
def test_cards_of_two_ranks_that_are_not_each_a_meld_are_refused_whole_and_count_one_try():
    """R-MELD-1: 7♠ 7♣ J♥ and Meld was answered 'meld 7 7: A meld needs at least three cards', the jack
    dropped in silence; now the selection is refused as not one meld, naming all three cards."""
    p = player("melds", "three-cards")  # in the meld phase, holding 5♣ 9♥ K♥ K♦
    (r,) = p.press("meld", ["KH", "KD", "9H"])
    assert r.rule == "R-MELD-1"
    assert r.reason == "A meld holds cards of one rank, and these are one 9 and two kings"
    assert last(p)["action"] == "Meld 9♥ K♥ K♦"
    assert p.run.tries == 1
    entry = p.run.log[-1]
    assert entry["kind"] == "refused" and entry["text"].startswith("press meld K")
    # a replay of the log meets the same refusal and counts the same try
    replayed = LevelRun(p.run.level, p.run.seed, hint_fn=None)
    replayed.play(entry["text"])
    assert replayed.tries == 1 and replayed.log[-1]["rule"] == "R-MELD-1"


# ----------------------------------------------------------------- buttons that do more than their label
def test_meld_on_a_rank_the_side_has_melded_says_it_added_them():
    """R-MELD-7: Meld with three nines beside a meld of nines plays 'add 9' three times: it says so, in the
    engine's words, instead of passing in silence while the typed 'meld 9 9 9' is refused."""
    s = TableSession(state=before_drawing("5H 6D", "9H 9C 9D KH 4S 5S 6S 7S 8S TS JS", "melds NS: 9S 9S 9D"))
    s.press("draw")
    s.select([s.index_of("9H"), s.index_of("9C"), s.index_of("9D")])
    msg = s.press("meld")
    assert msg.startswith("You added 9♣ 9♦ 9♥ to the 9s.")
    assert "Meld added the cards to your meld, as the rules ask: your side already has a meld of 9s" in msg
    assert "[R-MELD-7]" in msg


def test_a_step_by_step_level_refuses_meld_as_add_and_has_no_go_out():
    """R-MELD-7: the level that teaches one meld per rank refuses Meld with the nines (the typed meld's
    refusal), and the concealed go-out level offers no Go out button that plays the whole turn."""
    p = player("melds", "one-meld-per-rank")
    assert p.run.level.step_by_step
    (r,) = p.press("meld", ["9C", "9D", "9S"])
    assert not r.accepted and r.rule == "R-MELD-7" and p.run.status == "open"
    results = p.press("add", ["9C", "9D", "9S"])
    assert [x.notation for x in results] == ["add 9", "add 9", "add 9"] and p.run.status == "passed"
    q = player("going-out-concealed", "all-at-once")
    assert "go_out" not in q.view()["buttons"]
    with pytest.raises(CompositionError, match="each step yourself"):
        q.press("go_out")


def test_go_out_says_it_played_the_whole_turn():
    """Go out plays every move of the turn; the answer lists them."""
    p = player("going-out", "out-by-discarding")
    results = p.press("go_out")
    assert len(results) > 1
    assert any(line.startswith(f"Go out played your whole turn for you, {len(results)} moves:")
               for line in last(p)["lines"])
