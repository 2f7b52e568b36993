"""Samba's hint and expert: the search runs on Samba (its own candidates, Samba's verbs among them, a fixed
budget so the hint repeats for a seed), and the explanation is built from facts true in Samba.

Each Samba detector has a position where it must fire and a move or position where it must not; the
classic detectors that cannot read Samba's numbered melds stay silent rather than mis-state (no classic
pair rule, no concealed bonus, no "+100 for going out").  Explanations without a search
(:func:`~canasta_tutor.hint.explain_move`) are checked against golden files in ``golden/samba_hints``
(regenerate with ``UPDATE_GOLDEN=1`` and read the diff)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.bots.expert import candidate_actions
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.hint import explain_move, hint
from canasta_tutor.hint.detectors import move_facts
from canasta_tutor.engine.observer import Observation, observe
from canasta_tutor.notation.position import parse_position

GOLDEN = Path(__file__).resolve().parent / "golden" / "samba_hints"
RULEBOOK = Path(__file__).resolve().parent.parent / "seeds" / "rules.md"

# South to play in each; West plays next.
SEQUENCES = """
variant: samba
turn: S meld
totals: NS 500 EW 500
pile: 4C 6D
N: 15
E: 15
S: JH QS KC 4D 4S QC 8C
W: 15
melds NS: 5H 6H 7H 8H 9H TH; KS KC KD KH KS KC; 7C 8C 9C TC JC
melds EW: 9S 9S 9D
"""

# NS has one canasta (the queens): a second one lets the side go out.
ONE_CANASTA = """
variant: samba
turn: S meld
totals: NS 500 EW 500
pile: 4C 6D
N: 15
E: 15
S: JH KH 4D 4S
W: 15
melds NS: 5H 6H 7H 8H 9H TH; KS KC KD KH KS KC; QS QS QD QH QC QC QD (natural canasta)
melds EW: 9S 9S 9D
"""

OPEN_PILE = """
variant: samba
turn: S draw
totals: NS 500 EW 500
pile: 4C 6D KD
N: 15
E: 15
S: JH QS 4D 4S 9C 8C 5S
W: 15
melds NS: KS KC KD; 7C 8C 9C
melds EW: 9S 9S 9D
"""

FROZEN_PILE = """
variant: samba
turn: S draw
totals: NS 500 EW 500
pile: 4C 2D* 6D KD
N: 15
E: 15
S: JH QS 4D 4S KC KH 5S
W: 15
melds NS: KS KC KD; 7C 8C 9C
melds EW: 9S 9S 9D
"""

# NS at 3,500 needs 120 (R-SAMBA-8) and has put down a sequence and a set this turn (60).
INITIAL = """
variant: samba
turn: S meld melded pending=60
totals: NS 3500 EW 500
pile: 4C 6D
N: 15
E: 15
S: AS AD AC QS QD QC 4D 7C KH
W: 15
melds NS: 9H TH JH; 8S 8D 8C
melds EW: 9S 9S 9D
"""

GOES_OUT = """
variant: samba
turn: S meld
totals: NS 500 EW 500
pile: 4C 6D
N: 15
E: 15
S: 4D
W: 15
melds NS: 5H 6H 7H 8H 9H TH JH (samba); QS QS QD QH QC QC QD (natural canasta)
melds EW: 9S 9S 9D
"""

# EW: an open set of 9s, a sequence 5S-7S, two canastas; West holds two cards.
DISCARDS = """
variant: samba
turn: S meld
totals: NS 500 EW 500
pile: 4C 6D
N: 15
E: 15
S: 9H 5D 4S 7C KD AS AD
W: 2
melds NS: 8S 8D 8C
melds EW: 9S 9S 9D; 5S 6S 7S; KS KS KC KH KD KC KD (natural canasta); QH QH QD QS QC QC QD (natural canasta)
"""

# Every Samba verb is legal: a run, a new set, a put, a join of the two sets of kings.
VERBS = """
variant: samba
turn: S meld
totals: NS 500 EW 500
pile: 4C 6D
N: 15
E: 15
S: 7H 8H 9H KH QS QD QC 4D 5S 6C
W: 15
melds NS: KS KC KD; KH KD KC; 7C 8C 9C
melds EW: 9S 9S 9D
"""

POSITIONS = {"sequences": SEQUENCES, "one-canasta": ONE_CANASTA, "open-pile": OPEN_PILE, "frozen-pile": FROZEN_PILE,
             "initial": INITIAL, "goes-out": GOES_OUT, "discards": DISCARDS, "verbs": VERBS}
# The same with a 4 of diamonds besides the 4 of spades: a 4 need not feed West
TWO_FOURS = DISCARDS.replace("S: 9H 5D 4S 7C KD AS AD", "S: 9H 5D 4S 4D 7C KD AS")

# South has asked after drawing; North answers.  North holds no set, but a sequence of hearts (7 to 10) and the
# 8 of spades that extends NS's 5-6-7 of spades; the hearts sequence on the table is a samba, closed.
ANSWER = """
variant: samba
turn: S answer asked-after-draw
totals: NS 500 EW 500
pile: 4C 6D
N: 7H 8H 9H TH JS 5C 4D 8S
E: 15
S: JH QS
W: 15
melds NS: 5S 6S 7S; KS KC KD KH KS KC KD; QS QS QD QH QC QC QD (natural canasta); 4H 5H 6H 7H 8H 9H TH
melds EW: 9S 9S 9D
"""


def _obs(text: str) -> Observation:
    state = parse_position(text)
    assert state.actor is not None
    return observe(state, state.actor)


def _facts(text: str, move: str) -> dict[str, tuple[str, str | None, str]]:
    return {f.id: (f.kind, f.rule, f.text) for f in move_facts(_obs(text), parse_action(move))}


# (fact id, position, a move where it fires, a position and move where it must not)
CASES = [
    ("samba", SEQUENCES, "put J on m1", (SEQUENCES, "put K on m2")),
    ("canasta", SEQUENCES, "put K on m2", (SEQUENCES, "put J on m1")),
    ("canastas-needed", ONE_CANASTA, "put J on m1", (SEQUENCES, "put J on m1")),
    ("take-on", OPEN_PILE, "take K on m1", (OPEN_PILE, "draw")),
    ("pair-needed", FROZEN_PILE, "take K K K", (OPEN_PILE, "take K on m1")),
    ("initial-minimum", INITIAL, "meld A A A", (SEQUENCES, "put K on m2")),
    ("goes-out", GOES_OUT, "discard 4", (ONE_CANASTA, "discard 4")),
    ("feeds-next", DISCARDS, "discard 9", (DISCARDS, "discard K")),
    ("safe-discard", DISCARDS, "discard 5", (DISCARDS, "discard 4")),
    ("opponent-short", DISCARDS, "discard 5", (SEQUENCES, "discard 4")),
    ("answer-points", ANSWER, "no", (SEQUENCES, "put K on m2")),
    ("suit-choice", TWO_FOURS, "discard 4", (DISCARDS, "discard 4")),
]


@pytest.mark.parametrize("fact, text, fires, silent", CASES, ids=[c[0] for c in CASES])
def test_each_samba_detector_fires_where_true_and_not_elsewhere(fact: str, text: str, fires: str,
                                                                silent: tuple[str, str]) -> None:
    assert fact in _facts(text, fires)
    assert fact not in _facts(*silent)


def test_a_sequence_of_seven_is_a_samba() -> None:
    """R-SAMBA-3, R-SAMBA-9: the card that brings a sequence to seven makes a samba, worth 1,500."""
    kind, rule, text = _facts(SEQUENCES, "put J on m1")["samba"]
    assert (kind, rule) == ("good", "R-SAMBA-3") and "1,500" in text and "R-SAMBA-9" in text
    assert "canasta" not in _facts(SEQUENCES, "put J on m1")  # a samba is not told as a set canasta


def test_a_set_canasta_and_one_short() -> None:
    """R-CAN-2 for a Samba set of seven; a put bringing a meld to six is one short."""
    kind, rule, text = _facts(SEQUENCES, "put K on m2")["canasta"]
    assert (kind, rule) == ("good", "R-CAN-2") and "natural canasta of kings: +500" in text
    kind, _, text = _facts(SEQUENCES, "put Q on m3")["one-short"]
    assert kind == "good" and text == "This brings your sequence of clubs to six cards: one short of a samba."
    facts = _facts(VERBS, "put 6 on m3")  # 7C 8C 9C gets a fourth card: not six, not one short
    assert "one-short" not in facts and "samba" not in facts


def test_two_canastas_are_needed_to_go_out() -> None:
    """R-SAMBA-7: the second canasta is enough to go out; with one, a short hand is told it needs two."""
    kind, rule, text = _facts(ONE_CANASTA, "put K on m2")["canastas-needed"]
    assert (kind, rule) == ("good", "R-SAMBA-7") and "two canastas, enough to go out" in text
    kind, rule, text = _facts(ONE_CANASTA, "discard 4")["canastas-needed"]
    assert (kind, rule) == ("neutral", "R-SAMBA-7") and "one canasta of the two" in text
    assert "canastas-needed" not in _facts(SEQUENCES, "discard 4")  # seven cards in hand: not yet worth saying


def test_the_answer_counts_sequences_as_meldable() -> None:
    """R-SAMBA-3 in the answer: a run of one suit in hand, and a card that extends the side's open sequence,
    are cards the partner could meld next turn (7H 8H 9H 10H: 35, 8S on 5S 6S 7S: 10); the jack and the
    two loose cards are not, and the closed samba takes nothing."""
    kind, rule, text = _facts(ANSWER, "yes")["answer-points"]
    assert rule == "R-SCORE-2"
    assert text.startswith("You hold 8 cards worth 65 points, of which you could meld 45 next turn;")


def test_an_answer_position_is_checked_by_samba_rules() -> None:
    """R-ASK-1 in Samba: the asker must have been able to go out after drawing, by Samba's melds (here a
    queen onto the queens and the jack discarded); a hand that could not is refused, naming the field."""
    from canasta_tutor.engine.errors import ImpossiblePositionError

    assert parse_position(ANSWER).phase == "answer"
    with pytest.raises(ImpossiblePositionError) as err:
        parse_position(ANSWER.replace("S: JH QS", "S: JH 5D"))
    assert err.value.field == "turn" and "could not have gone out" in str(err.value)


def test_the_pile_and_its_freeze() -> None:
    """R-SAMBA-6: a frozen pile needs a natural pair from the hand (not the classic R-PACK-4); an open one
    lets the top card alone go onto a meld, named by its number."""
    kind, rule, text = _facts(FROZEN_PILE, "take K K K")["pair-needed"]
    assert (kind, rule) == ("good", "R-SAMBA-6") and "you hold two kings" in text
    assert _facts(FROZEN_PILE, "draw")["pair-needed"][0] == "neutral"
    assert "frozen-pack" in _facts(FROZEN_PILE, "draw")
    kind, rule, text = _facts(OPEN_PILE, "take K on m1")["take-on"]
    assert (kind, rule) == ("good", "R-SAMBA-6") and "m1, your set of kings" in text
    assert "pair-needed" not in _facts(OPEN_PILE, "take K on m1")


def test_the_minimum_with_its_arithmetic() -> None:
    """R-MIN-1 with Samba's band (R-SAMBA-8): the turn's sequence and set, the move, the sum and 120."""
    kind, rule, text = _facts(INITIAL, "meld A A A")["initial-minimum"]
    assert (kind, rule) == ("good", "R-SAMBA-8")
    assert "9H TH JH 30 + 8 8 8 30 + A A A 60 = 120 ≥ 120" in text and "3,000 to 6,995" in text
    kind, rule, text = _facts(INITIAL, "meld Q Q Q")["initial-minimum"]
    assert kind == "neutral" and "= 90; your side needs 120" in text


def test_going_out_scores_samba_bonus_and_is_never_concealed() -> None:
    """R-SAMBA-9: 200 for going out, no concealed bonus; R-SAMBA-7 is the going-out rule."""
    facts = _facts(GOES_OUT, "discard 4")
    kind, rule, text = facts["goes-out"]
    assert (kind, rule) == ("good", "R-SAMBA-7") and "+200" in text and "+100" not in text
    assert "concealed" not in facts and "concealed-chance" not in facts


def test_discards_read_samba_melds() -> None:
    """A discard feeding the next side's open set, or extending their open sequence whichever card of its rank
    is discarded, is told with R-SAMBA-6; one that could extend their sequence, or match a finished canasta, is
    never called safe."""
    kind, rule, text = _facts(DISCARDS, "discard 9")["feeds-next"]
    assert (kind, rule) == ("bad", "R-SAMBA-6") and "West could add it" in text
    assert "safe-discard" not in _facts(DISCARDS, "discard 4")  # 4S would extend 5S 6S 7S
    kind, rule, text = _facts(DISCARDS, "discard 4")["feeds-next"]
    assert (kind, rule) == ("bad", "R-SAMBA-6")
    assert text == ("This 4♠ extends the opponents' sequence of spades: West could add it and take 3 cards "
                    "(R-SAMBA-6).")
    assert "a 4 or 9 would let them take the pack" in _facts(DISCARDS, "discard 5")["safe-discard"][2]
    # with a 4 of diamonds too, the learner may discard that one (the table discards the card selected): the
    # hint says which, and does not call the 4 a feeding discard
    facts = _facts(TWO_FOURS, "discard 4")
    assert "feeds-next" not in facts and "safe-discard" not in facts
    assert facts["suit-choice"] == ("neutral", "R-SAMBA-6", "Discard the 4♦, not the 4♠: the 4♠ would extend the "
                                    "opponents' sequence of spades, and West could add it and take 3 cards "
                                    "(R-SAMBA-6).")
    assert "safe-discard" not in _facts(DISCARDS, "discard K")  # their kings are a canasta
    assert "feeds-next" not in _facts(DISCARDS, "discard K")  # nothing goes onto a canasta (R-SAMBA-6)
    assert "no set of 5s" in _facts(DISCARDS, "discard 5")["safe-discard"][2]


def test_opponent_short_counts_samba_canastas() -> None:
    """West with two cards and two EW canastas may go out (a classic count of Samba melds saw none)."""
    assert _facts(DISCARDS, "discard 5")["opponent-short"][2] == "West holds two cards and may go out."


def test_no_classic_rule_is_misapplied_in_samba() -> None:
    """Over every legal move of every Samba position: no fact cites a classic rule that Samba replaces (the pair
    of R-PACK-4, the meld of R-PACK-2, the one canasta of R-OUT-1, the concealed bonus), and every rule cited
    is in the rule book."""
    book = set(re.findall(r"\*\*(R-[A-Z]+-\d+)\*\*", RULEBOOK.read_text()))
    replaced = {"R-PACK-4", "R-PACK-2", "R-OUT-1", "R-CONC-1", "R-CONC-3", "R-SCORE-1"}
    for name, text in POSITIONS.items():
        obs = _obs(text)
        for action in obs.legal_actions:
            for f in move_facts(obs, action):
                cited = set(re.findall(r"R-[A-Z]+-\d+", f.text)) | ({f.rule} if f.rule else set())
                assert not cited & replaced, (name, format_action(action), f.text)
                assert cited <= book, (name, format_action(action), f.text)


def test_candidates_include_samba_verbs() -> None:
    """The search's candidates in Samba: the rules of thumb's move first, then each verb in turn (run, a new set,
    put, join), at most six for the hint; the draw decision offers the take onto a meld."""
    obs = _obs(VERBS)
    state = state_from_observation(obs)
    wide = candidate_actions(state, obs.seat, wide=True)
    assert len(wide) <= 6 and all(a in obs.legal_actions for a in wide)
    assert {"run", "put", "join", "discard"} <= {a[0] for a in wide}
    assert len(candidate_actions(state, obs.seat)) <= 4
    obs = _obs(OPEN_PILE)
    assert ("takeon", parse_action("take K on m1")[1], 0) in candidate_actions(state_from_observation(obs), obs.seat)


def test_the_samba_hint_searches_and_repeats() -> None:
    """At its default budget the hint searches Samba: estimates for several candidates played on sampled deals,
    the same hint for the same seed."""
    obs = _obs(DISCARDS)
    first = hint(obs, seed=3)
    assert first.searched and first.value is not None and first.samples > 0
    assert len([e for e in first.estimates if e.samples > 0]) >= 3
    assert first.best in obs.legal_actions and first.alternatives
    again = hint(obs, seed=3)
    a, b = first.to_dict(), again.to_dict()
    a.pop("elapsed_ms"), b.pop("elapsed_ms")
    assert a == b
    assert "sampled deals" in first.details()


def test_a_samba_hint_with_samples_plays_every_candidate_alike() -> None:
    """Asked for samples, every candidate is played on that many deals (the verification search), and the hint
    repeats for a seed."""
    obs = _obs(ONE_CANASTA)
    h = hint(obs, samples=2, seed=1)
    assert h.searched and {e.samples for e in h.estimates} == {2} and h.value is not None
    assert len(h.estimates) == len(obs.legal_actions)  # five legal moves: all are searched
    a, b = h.to_dict(), hint(obs, samples=2, seed=1).to_dict()
    a.pop("elapsed_ms"), b.pop("elapsed_ms")
    assert a == b


def test_grade_and_compare_search_samba() -> None:
    """A learner's Samba move is graded by the same race, and compared with another on shared deals
    (``SAMBA_SAMPLES`` each by default); both repeat for a seed."""
    from canasta_tutor.hint import SAMBA_SAMPLES, compare, grade

    obs = _obs(DISCARDS)
    feed, safe = parse_action("discard 9"), parse_action("discard 5")
    g = grade(obs, feed, seed=2)
    assert g.grade in ("best", "good", "inaccuracy", "mistake", "blunder") and g.best in obs.legal_actions
    assert grade(obs, feed, seed=2) == g
    alt = compare(obs, feed, safe, seed=2)
    assert alt.action == feed and alt.comparison in ("about as good as", "worse than", "much worse than")
    assert alt.gap_stderr > 0 and compare(obs, feed, safe, seed=2) == alt and SAMBA_SAMPLES > 1


def test_the_plan_follows_the_turn_after_a_take_onto_a_meld() -> None:
    """After ``take K on m1`` the rest of the turn follows from known cards (the pile comes to the hand): the plan
    shows it to the discard, as the rules of thumb play it (Samba's lines are not searched)."""
    from canasta_tutor.hint import _plan_actions

    obs = _obs(OPEN_PILE)
    take = parse_action("take K on m1")
    plan, usual = _plan_actions(state_from_observation(obs), obs.seat, take, seed=0, samples=None)
    assert plan[0] == take and plan[1:] == usual
    assert [format_action(a) for a in plan][1:] == ["meld 4 4 4", "discard 5"]  # the 4C comes with the pile


GOLDEN_CASES = [("sequences", "put J on m1"), ("one-canasta", "put K on m2"), ("frozen-pile", "take K K K"),
                ("open-pile", "take K on m1"), ("initial", "meld A A A"), ("goes-out", "discard 4"),
                ("discards", "discard 9")]


@pytest.mark.parametrize("name, move", GOLDEN_CASES, ids=[c[0] for c in GOLDEN_CASES])
def test_golden_samba_explanations(name: str, move: str) -> None:
    """The sentences a learner reads for a Samba move, from facts only (no search, so they are stable)."""
    got = "\n".join([f"{move}:", *explain_move(_obs(POSITIONS[name]), parse_action(move))]) + "\n"
    path = GOLDEN / f"{name}.golden"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(got)
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 and read it"
    assert got == path.read_text()


def test_few_deals_widen_the_interval() -> None:
    """Samba's race drops candidates after two deals: the paired interval then uses Student's t for the deals
    played, so a gap on two or three deals is not called "much worse" on a normal interval; one deal bounds
    nothing."""
    from canasta_tutor.hint import Z95, _comparison, _few_deals

    assert _few_deals(100.0, 2) == pytest.approx(100.0 * 12.71 / Z95)
    assert _few_deals(100.0, 8) == pytest.approx(100.0 * 2.36 / Z95) and _few_deals(100.0, 9) == 100.0
    assert _comparison(400.0, 100.0) == "much worse than"
    assert _comparison(400.0, _few_deals(100.0, 3)) == "about as good as"
    assert _comparison(5000.0, _few_deals(0.0, 1)) == "about as good as"
    obs = _obs(DISCARDS)
    h = hint(obs, samples=1, seed=0)
    assert all(a.comparison == "about as good as" and a.to_dict()["gap_uncertainty"] is None for a in h.alternatives)


def test_the_search_discards_the_card_the_table_would() -> None:
    """R-SAMBA-6 makes a discard's suit matter (the top card may extend a sequence of its suit), and the engine
    discards a kind's last card, the one the learner selected.  The state the search builds from an observation
    keeps each kind's cards in the engine's order, whichever that is, so "discard 9" lays the same card there."""
    from canasta_tutor.engine.cards import ALL_CARD_CODES
    from canasta_tutor.engine.game import Game

    state = Game(variant="samba").new_initial_state(seed=4)
    for _ in range(40):
        state.apply(state.legal_actions()[-1])
    seat = state.actor
    assert seat is not None
    for flip in (False, True):
        if flip:
            for cards in state.hands[seat]:
                cards.reverse()
        rebuilt = state_from_observation(observe(state, seat))
        mine = [[ALL_CARD_CODES[c] for c in cards] for cards in state.hands[seat]]
        assert [[ALL_CARD_CODES[c] for c in cards] for cards in rebuilt.hands[seat]] == mine
    assert any(len(set(cards)) > 1 for cards in mine)  # some kind held in two suits: the order is tested
