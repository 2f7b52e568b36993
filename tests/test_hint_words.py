"""The hint's words are true and say why (issue 31): every comparison carries a reason, claims about what a
player could do are checked against the engine's legal actions (R-PACK-7 against R-PACK-2), the details say
what their number is, and no sentence is told twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from canasta_tutor.notation.actions import parse_action
from canasta_tutor.engine.game import Game
from canasta_tutor.hint import check_hint_claim, hint
from canasta_tutor.hint.detectors import move_facts
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER

GOLDEN = Path(__file__).resolve().parent / "golden" / "hints"


def _one_card_west(west: int):
    return parse_position(f"""
turn: S meld
pile:
N: 11
E: 11
S: 9H 5D 6S 7C
W: {west}
melds NS: KH KS KC
melds EW: 9S 9D 9C
""")


def test_a_discard_onto_their_meld_feeds_them_only_when_the_engine_lets_them_take_R_PACK_7():
    """West holds one card and the pile is empty: the 9 would be a one-card pile, which R-PACK-7 forbids a
    one-card hand to take, so the hint does not say "West could add it and take 1 card (R-PACK-2)"."""
    obs = observe(_one_card_west(1), "S")
    ids = {f.id for f in move_facts(obs, parse_action("discard 9"))}
    assert "feeds-next" not in ids
    assert "safe-discard" not in {f.id for f in move_facts(obs, parse_action("discard 5"))}  # nothing to be safe from
    # with two cards West may take it (R-PACK-2), and the fact says so, with the claim it makes
    obs2 = observe(_one_card_west(2), "S")
    feeds = {f.id: f for f in move_facts(obs2, parse_action("discard 9"))}["feeds-next"]
    assert "West could add it to their meld and take 1 card (R-PACK-2)" in feeds.text
    assert len(feeds.claims) == 1 and feeds.claims[0][2][0] == "take"  # (move, seat, action): West takes
    state = _one_card_west(2)
    assert all(check_hint_claim(state, c) is None for c in feeds.claims)
    assert check_hint_claim(_one_card_west(1), feeds.claims[0]).startswith("[R-PACK-7]")


def _positions(n: int, seed: int = 3) -> list:
    """Decision points of seeded rules-of-thumb play, one in every few with a real choice."""
    from canasta_tutor.bots import RulesOfThumbBot

    bot = RulesOfThumbBot()
    out, game, k = [], Game(), 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed + k)
        k += 1
        step = 0
        while state.phase not in (HAND_OVER, GAME_OVER) and len(out) < n:
            legal = state.legal_actions()
            if len(legal) > 2:
                step += 1
                if step % 7 == 0:
                    out.append(state.copy())
            state.apply(bot(observe(state, state.actor)))
    return out


POSITIONS = _positions(6)


@pytest.mark.parametrize("state", POSITIONS, ids=lambda s: f"{s.phase}-{len(s.history)}")
def test_every_comparison_says_why_and_no_sentence_is_told_twice(state):
    h = hint(observe(state, state.actor), samples=8, seed=2)
    for a in h.alternatives:
        said = a.sentence(h.best_text)
        if "worse than" in said:  # never a bare "X is worse than Y."
            assert re.search(r"worse than [^:]+: \S", said), said
    sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", h.explanation) if s]
    assert len(sentences) == len(set(sentences)), h.explanation
    # every claim the words make is legal on the real deal
    assert all(check_hint_claim(state, c) is None for c in h.claims)


def test_a_comparison_with_no_fact_gives_the_search_s_figure_in_words():
    state = parse_position((GOLDEN / "25-answer-heavy-hand.txt").read_text())
    h = hint(observe(state, state.actor), samples=48, seed=0)
    no = next(a for a in h.alternatives if a.text == "no")
    assert no.sentence(h.best_text).startswith("No is much worse than yes: no fact the hint can name")
    assert f"prefers yes by about {no.gap:.0f} points" in no.sentence(h.best_text)


def test_the_details_say_what_their_number_is():
    state = POSITIONS[0]
    h = hint(observe(state, state.actor), samples=8, seed=2)
    first = h.details().splitlines()[0]
    assert "your side's score less the other side's" in first and "95% interval" in first
    assert "points for your side this hand" not in h.text()


def test_a_runner_up_that_the_plan_plays_later_is_said_to_be_in_the_plan():
    state = parse_position((GOLDEN / "08-minimum-50.txt").read_text())
    h = hint(observe(state, state.actor), samples=48, seed=0)
    later = [a for a in h.alternatives if a.in_plan]
    assert later, h.explanation
    for a in later:
        assert "worse than" not in a.sentence(h.best_text)
        assert "the plan discards it too" in a.sentence(h.best_text) or "in the plan too" in a.sentence(h.best_text)
