"""The fact detectors: each fires on a position where its fact is true and stays silent where
it is not; principles are cited only for moves that agree with them; forced moves are
explained by the rule the engine gives; the search's state is built straight from the
observation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.notation.actions import parse_action
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.hint import explain_move, hint
from canasta_tutor.hint.detectors import move_facts
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position

GOLDEN = Path(__file__).resolve().parent / "golden" / "hints"


def _obs(text: str):
    state = parse_position(text)
    return observe(state, state.actor)


def _ids(text: str, move: str) -> set[str]:
    return {f.id for f in move_facts(_obs(text), parse_action(move))}


def _golden(name: str) -> str:
    return next(GOLDEN.glob(f"{name}*.txt")).read_text()


MELD_PHASE = """
turn: S meld
pile: 4H 6C 8D 9S TC 6D QH 4D QS TD
N: 11
E: 11
S: 5D 8H JD KC 6S 9C 9D
W: 11 known: 9 9
melds NS: AH AC AD
melds EW: 5H 5C 5S; JH JC JS
"""

KINGS = """
turn: S meld
pile: 4H 6C 8D
N: 11
E: 11
S: KH QH JK 5D 6S 9C
W: 11
melds NS: KS KC KD KS KC KD KH (natural canasta); QS QC QD QH QS
melds EW: 5H 5C 5S
"""

CASES = [
    # (detector id, position, a move where it fires, a move where it must not)
    ("feeds-next", MELD_PHASE, "discard J", "discard 8"),
    ("next-holds-pair", MELD_PHASE, "discard 9", "discard 8"),
    ("breaks-pair", MELD_PHASE, "discard 9", "discard K"),
    ("safe-discard", MELD_PHASE, "discard 8", "discard J"),
    ("spoils-natural", KINGS, "add JK to K", "add Q"),
    ("one-short", KINGS, "add Q", "add K"),
]


@pytest.mark.parametrize("fact,text,fires,silent", CASES, ids=[c[0] for c in CASES])
def test_detector_fires_and_stays_silent(fact, text, fires, silent):
    assert fact in _ids(text, fires)
    assert fact not in _ids(text, silent)


def test_spends_wild_unless_the_minimum_needs_it():
    opened = """
turn: S draw
pile: 5H 7C 8D 9S TC 6D QH 9D
N: 11
E: 11
S: 9H JK 4D 5S 6C 7D JS QS KD AH 3S
W: 11
melds NS: KH KS KC
"""
    assert "spends-wild" in _ids(opened, "take 9 9 JK")
    ids = _ids(_golden("24"), "take 9 9 9 JK")
    assert "wild-for-minimum" in ids and "spends-wild" not in ids


def test_stock_low_and_wild_discard_on_a_frozen_pack():
    text = """
turn: S meld
stock: 4
pile: 4H 2C 8D 9S
N: 14
E: 14
S: 2D 5D 7H 9H
W: 14
melds NS: AH AC AD; KS KH KD KC KS KH KD KC; QS QH QD QC QS QH QD QC; JS JH JD JC JS JH JD JC; TS TH TD TC TS TH TD TC
melds EW: 6S 6H 6D 6C 6S 6H 6D 6C; 7S 7D 7C 7S 7H 7D 7C
red threes NS: 3H 3D
red threes EW: 3H 3D
"""
    ids = _ids(text, "discard 2")
    assert {"stock-low", "wild-discard"} <= ids and "freezes" not in ids
    assert "stock-low" not in _ids(_golden("03"), "discard 3")


def test_principles_only_when_the_move_agrees():
    """Going out never cites keep-building; asking never cites going out or keep-building;
    a discard that breaks a pair never cites hold-pairs."""
    out = move_facts(_obs(_golden("13")), parse_action("discard 6"))
    cited = {p for f in out for p in f.principles}
    assert "P-GO-OUT" in cited and "P-KEEP-BUILDING" not in cited
    ask = move_facts(_obs(_golden("12")), parse_action("ask"))
    cited = {p for f in ask for p in f.principles}
    assert cited == {"P-ASK-PARTNER"}
    brk = move_facts(_obs(_golden("17")), parse_action("discard J"))
    assert "P-HOLD-PAIRS" not in {p for f in brk for p in f.principles}


def test_forced_moves_cite_the_rule_that_forces_them():
    h = hint(_obs(_golden("04")))
    assert h.refusals[0].rule == "R-PACK-3" and "R-FRZ-2" not in [r.rule for r in h.refusals]
    assert h.value is None and "±" not in h.text()
    h = hint(_obs(_golden("05")))
    assert "R-PACK-7" in h.rules
    h = hint(_obs(_golden("06")))
    assert h.verdict == "the only legal move" and {r.rule for r in h.refusals} >= {"R-STOCK-2"}
    assert "P-TAKE-PACK" not in h.principles and "cheap" not in h.explanation


def test_explain_move_for_any_legal_move():
    obs = _obs(_golden("03"))
    for a in obs.legal_actions:
        assert all(s.endswith(".") for s in explain_move(obs, a))
    assert any("take 11 cards" in s for s in explain_move(obs, parse_action("discard K")))


def test_state_from_observation_matches_the_game():
    """The search's state, built from the observation alone, has the same legal actions, own hand,
    melds and turn flags as the real game at every step of a few random games."""
    for seed in range(3):
        state = Game().new_initial_state(seed=seed)
        rng = random.Random(seed)
        while state.phase not in ("hand_over", "game_over"):
            obs = observe(state, state.actor)
            built = state_from_observation(obs)
            assert sorted(built.legal_actions()) == sorted(state.legal_actions())
            assert built.hand(obs.seat) == state.hand(obs.seat)
            assert built.meld_summary(0) == state.meld_summary(0) and built.meld_summary(1) == state.meld_summary(1)
            assert (built.freeze_at, built.has_melded, built.first_turn_done) == (
                state.freeze_at, state.has_melded, state.first_turn_done)
            assert len(built.stock) == len(state.stock) and built.hand_size == state.hand_size
            state.apply(rng.choice(state.legal_actions()))
