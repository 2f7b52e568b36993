"""The lesson predicate library: each predicate, true and false, plus the combinators."""

from __future__ import annotations

from typing import Any

import pytest

from canasta_tutor.engine.cards import parse_kind
from canasta_tutor.engine.observer import Observation, observe
from canasta_tutor.notation.position import parse_position
from canasta_tutor.tutor.events import ActionEvent, RedThreeEvent, RefusedEvent, WentOutEvent
from canasta_tutor.tutor.lessons.model import Level
from canasta_tutor.tutor.lessons.predicates import (PREDICATES, Context, check_expression, discard_is_safe, evaluate,
                                                    mentions, rules_in)
from canasta_tutor.tutor.lessons.runner import LevelRun

# S to draw; the pile is frozen by a deuce; NS has opened (a meld of eights); S holds a pair of nines
FROZEN = """\
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

# not frozen: NS has opened, no wild card in the pile
OPEN_PILE = FROZEN.replace("pile: 5H 2C* 6D 9S", "pile: 5H 6D 9S")


def ctx(text: str = FROZEN, events: tuple = (), start: str | None = None, seat: str = "S",
        safe: tuple[bool, ...] = ()) -> Context:
    state = parse_position(text)
    return Context(state=state, start=parse_position(start) if start else state, events=events, seat=seat,
                   safe_discards=safe)


def level(position: str, success: Any = "hand_over", **kw: Any) -> Level:
    return Level(lesson_id="t", index=0, id="t", title="t", goal="g", par=3, success=success, solutions=(("draw",),),
                 position=position, **kw)


def played(position: str, *actions: str, **kw: Any) -> Context:
    run = LevelRun(level(position, **kw), hint_fn=None)
    for a in actions:
        run.play(a)
    return run.context()


def act(seat: str, notation: str, action: tuple) -> ActionEvent:
    return ActionEvent(index=0, seat=seat, text="", action=action, notation=notation)


def test_every_predicate_is_tested_here() -> None:
    source = open(__file__, encoding="utf-8").read()
    missing = [name for name in PREDICATES if f"test_{name}" not in source]
    assert missing == []


def test_pack_taken() -> None:
    assert evaluate("pack_taken", played(FROZEN, "take 9 9 9"))
    assert not evaluate("pack_taken", played(FROZEN, "draw"))


def test_initial_meld_made_and_opened() -> None:
    closed = FROZEN.replace("melds NS: 8H 8D 8S\n", "").replace("S: 9H 9C KH KD KS 4D 7C",
                                                                   "S: 9H 9C KH KD KS AD AC AH")
    c = played(closed, "draw", "meld K K K", "meld A A A")
    assert evaluate("initial_meld_made", c) and evaluate("opened", c)
    c0 = ctx(closed)
    assert not evaluate("initial_meld_made", c0) and not evaluate("opened", c0)
    assert evaluate("opened", ctx(FROZEN)) and not evaluate("initial_meld_made", ctx(FROZEN))


def test_opened() -> None:
    assert evaluate("opened", ctx(FROZEN))
    assert not evaluate("opened", ctx(FROZEN.replace("melds NS: 8H 8D 8S\n", "")))


NEAR_CANASTA = FROZEN.replace("melds NS: 8H 8D 8S", "melds NS: 8H 8D 8S 8C 8H 8D").replace(
    "S: 9H 9C KH KD KS 4D 7C", "S: 9H 9C KH KD KS 4D 8S JK")


def test_canasta_completed() -> None:
    assert evaluate("canasta_completed", played(NEAR_CANASTA, "draw", "add 8"))
    assert not evaluate("canasta_completed", played(NEAR_CANASTA, "draw"))


def test_natural_canasta_completed() -> None:
    c = played(NEAR_CANASTA, "draw", "add 8")
    assert evaluate("natural_canasta_completed", c) and not evaluate("mixed_canasta_completed", c)


def test_mixed_canasta_completed() -> None:
    c = played(NEAR_CANASTA, "draw", "add JK to 8")
    assert evaluate("mixed_canasta_completed", c) and not evaluate("natural_canasta_completed", c)


def test_went_out() -> None:
    assert evaluate("went_out", ctx(events=(WentOutEvent(index=0, seat="S", text=""),)))
    assert not evaluate("went_out", ctx(events=(WentOutEvent(index=0, seat="N", text=""),)))


def test_went_out_concealed() -> None:
    assert evaluate("went_out_concealed", ctx(events=(WentOutEvent(index=0, seat="S", text="", concealed=True),)))
    assert not evaluate("went_out_concealed", ctx(events=(WentOutEvent(index=0, seat="S", text=""),)))


def test_pack_frozen() -> None:
    assert evaluate("pack_frozen", ctx(FROZEN))
    assert not evaluate("pack_frozen", ctx(OPEN_PILE))
    assert evaluate("pack_frozen", ctx(OPEN_PILE.replace("melds NS: 8H 8D 8S\n", "")))  # R-FRZ-1: not opened


def test_pile_frozen_by_wild() -> None:
    assert evaluate("pile_frozen_by_wild", ctx(FROZEN))
    assert not evaluate("pile_frozen_by_wild", ctx(OPEN_PILE))


def test_pack_unfrozen() -> None:
    assert evaluate("pack_unfrozen", played(FROZEN, "take 9 9 9"))
    assert not evaluate("pack_unfrozen", ctx(FROZEN))
    assert not evaluate("pack_unfrozen", played(OPEN_PILE, "take 9 9 9"))  # it was never frozen


def test_can_take_pack() -> None:
    assert evaluate("can_take_pack", ctx(FROZEN))
    no_pair = FROZEN.replace("S: 9H 9C KH KD KS 4D 7C", "S: 9H 4C KH KD KS 4D 7C")
    assert not evaluate("can_take_pack", ctx(no_pair))
    assert not evaluate("can_take_pack", ctx(FROZEN, seat="N"))  # not N's turn


def test_melded_at_least() -> None:
    c = played(FROZEN, "draw", "meld K K K")  # three kings: 30 points
    assert evaluate({"melded_at_least": 30}, c)
    assert not evaluate({"melded_at_least": 31}, c)
    assert check_expression({"melded_at_least": "x"}) != []


def test_discarded_safe() -> None:
    assert evaluate("discarded_safe", ctx(safe=(True,)))
    assert not evaluate("discarded_safe", ctx(safe=(False,)))
    # EW has a meld of queens and the pack is open to them: a queen feeds West (R-PACK-2)
    queens = OPEN_PILE.replace("S: 9H 9C KH KD KS 4D 7C", "S: 9H 9C KH KD QC 4D 7C")
    assert not evaluate("discarded_safe", played(queens, "draw", "discard Q"))
    assert evaluate("discarded_safe", played(queens, "draw", "discard K"))
    # frozen by the deuce: West could only take it with a natural pair, and none is in sight
    assert evaluate("discarded_safe", played(queens.replace("pile: 5H 6D 9S", "pile: 5H 2C* 6D 9S"),
                                             "draw", "discard Q"))


def test_discarded_safe_reads_only_what_the_learner_sees() -> None:
    # West really holds two sevens, unseen by South: a seven is as safe as it looks
    hidden = OPEN_PILE.replace("W: 9", "W: 7H 7D 4S 4H 5S 5C 6S 6C 8C")
    assert evaluate("discarded_safe", played(hidden, "draw", "discard 7"))
    # the same sevens, seen going into West's hand with a pack they took: not safe (R-PACK-4)
    seen = OPEN_PILE.replace("W: 9", "W: 7H 7D 4S 4H 5S 5C 6S 6C 8C known: 7 7")
    assert not evaluate("discarded_safe", played(seen, "draw", "discard 7"))
    assert evaluate("discarded_safe", played(seen, "draw", "discard K"))


def _obs(text: str, seat: str = "S") -> Observation:
    return observe(parse_position(text), seat)


@pytest.mark.parametrize("hand_w,kind,safe", [
    ("W: 9", "Q", False),  # their meld of queens, the pack open to them
    ("W: 9", "K", True),
    ("W: 9", "3", True),  # a black three on top blocks the pack (R-PACK-3)
    ("W: 9", "2", True),  # so does a wild card
    ("W: 9", "JK", True),
    ("W: KH 4S 4H 5S 5C 6S 6C 8C JK known: K JK", "K", False),  # one king and a wild card, seen: way (b)
    ("W: KH 4S 4H 5S 5C 6S 6C 8C JK known: K", "K", True),  # the joker unseen
    ("W: KH KC 4H 5S 5C 6S 6C 8C 9C", "K", True),  # a pair unseen
    ("W: KH KC 4H 5S 5C 6S 6C 8C 9C known: K K", "K", False),  # a pair seen
])
def test_discard_is_safe_judged_from_the_observation(hand_w: str, kind: str, safe: bool) -> None:
    assert discard_is_safe(_obs(OPEN_PILE.replace("W: 9", hand_w)), parse_kind(kind)) is safe


def test_a_frozen_pack_needs_a_seen_pair_and_an_unopened_side_cannot_add() -> None:
    frozen = FROZEN.replace("W: 9", "W: KH 4S 4H 5S 5C 6S 6C 8C JK known: K JK")
    assert discard_is_safe(_obs(frozen), parse_kind("Q"))  # frozen: their queens need a natural pair
    assert discard_is_safe(_obs(frozen), parse_kind("K"))  # one king and a joker do not take a frozen pack
    unopened = OPEN_PILE.replace("melds EW: QH QS QD\n", "")
    assert discard_is_safe(_obs(unopened), parse_kind("Q"))


def test_turn_ended() -> None:
    assert evaluate("turn_ended", played(FROZEN, "draw", "discard 4"))
    assert not evaluate("turn_ended", played(FROZEN, "draw"))


def test_refused() -> None:
    refused = RefusedEvent(index=0, seat="S", text="", rule="R-PACK-4", reason="frozen")
    assert evaluate({"refused": "R-PACK-4"}, ctx(events=(refused,)))
    assert not evaluate({"refused": "R-PACK-3"}, ctx(events=(refused,)))
    assert evaluate("refused", ctx(events=(refused,)))
    assert not evaluate("refused", ctx())
    # through the runner: a frozen pack may not be taken onto a meld (R-PACK-4)
    c = played(FROZEN.replace("melds NS: 8H 8D 8S", "melds NS: 9D 9D 9S").replace("pile: 5H 2C* 6D 9S",
                                                                                    "pile: 5H 2C* 6D 9C"),
               "take 9")
    assert evaluate({"refused": "R-PACK-4"}, c)
    assert check_expression({"refused": "PACK-4"}) != []


def test_played() -> None:
    c = played(FROZEN, "take 9 9 9")
    assert evaluate({"played": "TAKE 9 9 9"}, c)
    assert not evaluate({"played": "draw"}, c)
    assert check_expression({"played": "take"}) != []


def test_discarded() -> None:
    c = played(FROZEN, "draw", "discard 4")
    assert evaluate({"discarded": "4"}, c)
    assert not evaluate({"discarded": "7"}, c)


def test_asked_partner() -> None:
    assert evaluate("asked_partner", ctx(events=(act("S", "ask", ("ask",)),)))
    assert not evaluate("asked_partner", ctx(events=(act("N", "ask", ("ask",)),)))


def test_answered() -> None:
    events = (act("S", "ask", ("ask",)), act("N", "yes", ("yes",)))
    assert evaluate({"answered": "yes"}, ctx(events=events))
    assert not evaluate({"answered": "no"}, ctx(events=events))
    assert not evaluate({"answered": "yes"}, ctx(events=(act("N", "yes", ("yes",)),)))  # nobody asked
    assert check_expression({"answered": "maybe"}) != []


def test_red_three_laid() -> None:
    assert evaluate("red_three_laid", ctx(events=(RedThreeEvent(index=0, seat="N", text="", card="3H"),)))
    assert not evaluate("red_three_laid", ctx(events=(RedThreeEvent(index=0, seat="E", text="", card="3H"),)))
    assert not evaluate("red_three_laid", ctx())


def test_meld_of() -> None:
    assert evaluate({"meld_of": "8"}, ctx())
    assert not evaluate({"meld_of": "Q"}, ctx())  # that is the other side's meld


def test_holds() -> None:
    assert evaluate({"holds": "K K K"}, ctx())
    assert evaluate({"holds": "9H"}, ctx())
    assert not evaluate({"holds": "K K K K"}, ctx())
    assert check_expression({"holds": "Z"}) != []


def test_holds_of_top() -> None:
    assert evaluate({"holds_of_top": 2}, ctx())
    assert not evaluate({"holds_of_top": 1}, ctx())


def test_top_is() -> None:
    assert evaluate({"top_is": "9"}, ctx())
    assert evaluate({"top_is": ["K", "9"]}, ctx())
    assert not evaluate({"top_is": "K"}, ctx())


def test_hand_over() -> None:
    assert not evaluate("hand_over", ctx())
    # nobody went out, so the stock ran out (R-STOCK-1..3): its cards are in North's hand, the red threes laid out
    over = (FROZEN.replace("turn: S draw", "turn: S hand_over").replace("N: 9", "N: 69")
            + "stock: 0\nred threes EW: 3H 3H 3D 3D\n")
    assert evaluate("hand_over", ctx(over))


@pytest.mark.parametrize("expr,want", [
    ({"all": ["pack_frozen", {"holds": "9 9"}]}, True),
    ({"all": ["pack_frozen", {"holds": "A"}]}, False),
    ({"any": [{"holds": "A"}, "pack_frozen"]}, True),
    ({"not": "pack_frozen"}, False),
    ({"not": {"not": "pack_frozen"}}, True),
])
def test_combinators(expr: Any, want: bool) -> None:
    assert check_expression(expr) == []
    assert evaluate(expr, ctx()) is want


def test_check_expression_reports_unknown_and_misplaced() -> None:
    assert "did you mean 'pack_taken'" in check_expression("pack_taknn")[0]
    assert check_expression("holds")[0].startswith("'holds' needs an argument")
    assert "takes no argument" in check_expression({"pack_taken": 1})[0]
    assert "a constraint may read only the position" in check_expression("pack_taken", position_only=True)[0]
    assert check_expression({"all": []}) == ["all: needs a list of predicates"]
    assert check_expression({"a": 1, "b": 2})[0].startswith("a predicate is a name or a table with one key")


def test_rules_in_and_mentions() -> None:
    expr = {"any": ["pack_taken", {"not": {"refused": "R-PACK-4"}}, {"refused": "R-FRZ-2"}]}
    assert rules_in(expr) == ["R-PACK-4", "R-FRZ-2"]
    assert mentions(expr, "refused") and not mentions(expr, "went_out")
