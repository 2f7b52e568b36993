"""Held-out rule cases for Pennies from Heaven: each a position and the engine's answer.

Each case was written from a point of the sources (the rule book's labels: Bicycle-PEN, "Pennies from Heaven"
at bicyclecards.ca; RG-PEN, "Pennies From Heaven Rules" at rummy-games.com; HSW-PEN, the Pennies from Heaven
page of "How to Play Canasta" at howstuffworks.com; PG-PEN, "Pennies from Heaven" at pagat.com), which its
docstring names, and checked against that point rather than against the code.  The positions are not used by
any other test; the rules they exercise are R-PEN-1..14 and the classic rules the variant keeps.
"""

from __future__ import annotations

from canasta_tutor.engine.cards import DEUCE, JOKER
from canasta_tutor.engine.hidden import unseen_for
from canasta_tutor.engine.observer import observe
from canasta_tutor.engine.pennies import SEVEN, PenniesState
from canasta_tutor.notation.actions import parse_action
from canasta_tutor.notation.position import parse_position

S, E, Q = 3, 1, 5  # South and the partners, East and Q (seats N E P S W Q; sides NPW and ESQ)

TAKEN = "N 11 E 11 P 11 S 0 W 11 Q 11"  # South has taken up the packet
FOUR = "KS KH KD KC KS KH KD; QS QH QC QD QS 2H 2D; 2S 2H 2D 2C JK JK 2S; 7S 7H 7D 7C 7S 7H 7D"


def _position(hand: str, melds_esq: str = "", melds_npw: str = "", packets: str = "N 11 E 11 P 11 S 11 W 11 Q 11",
              turn: str = "S meld", pile: str = "8S", totals: str = "NPW 0 ESQ 0", extra: str = "") -> PenniesState:
    text = (f"canasta-tutor position\nvariant: pennies\nturn: {turn}\ntotals: {totals}\npackets: {packets}\n"
            f"pile: {pile}\nN: 13 cards\nE: 13 cards\nP: 13 cards\nS: {hand}\nW: 13 cards\nQ: 13 cards\n")
    if melds_esq:
        text += f"melds ESQ: {melds_esq}\n"
    if melds_npw:
        text += f"melds NPW: {melds_npw}\n"
    state = parse_position(text + extra)
    assert isinstance(state, PenniesState)
    return state


def _rule(state: PenniesState, action: str) -> str | None:
    err = state.explain(parse_action(action))
    return None if err is None else err.rule


def test_case_01_nobody_sees_a_packet_not_even_its_owner() -> None:
    """RG-PEN, "The player may not look at these until he makes his first canasta": South's observation gives
    every packet as a number, and South's own packet is among the cards South cannot see."""
    state = _position("9S 9H 5C 5D", "KS KH KD", packets="N 11 E 11 P 11 S 11 W 11 Q 11")
    obs = observe(state, "S")
    assert obs.packet_sizes == (11,) * 6
    assert "packets: N 11 E 11 P 11 S 11 W 11 Q 11" in obs.position_text
    assert set(state.packets[S]) <= set(unseen_for(state, "S"))


def test_case_02_completing_a_canasta_brings_the_packet_into_the_hand() -> None:
    """Bicycle-PEN, "After completing the first canasta, a player takes the 11 cards into his hand": South lays
    the seventh king on the side's meld, and South's eleven face-down cards join the hand in the same turn."""
    state = _position("KC 5C 5D 9S", "KS KH KD KC KS KH", packets="N 11 E 11 P 11 S 11 W 11 Q 11")
    packet = list(state.packets[S])
    state.apply(parse_action("add K"))
    in_hand = [c for k in state.hands[S] for c in k]
    assert state.packets[S] == [] and all(c in in_hand or c in state.red3[1] for c in packet)
    assert state.phase == "meld" and state.turn == S


def test_case_03_a_partners_packet_stays_face_down() -> None:
    """PG-PEN, the packet is kept face down "until the player has completed a canasta" (the player, not the
    side): South's canasta releases South's packet only; East's and Q's stay face down."""
    state = _position("KC 5C 5D 9S", "KS KH KD KC KS KH", packets="N 11 E 11 P 11 S 11 W 11 Q 11")
    state.apply(parse_action("add K"))
    assert (len(state.packets[E]), len(state.packets[Q])) == (11, 11)


def test_case_04_the_draw_is_two_cards_and_one_discard() -> None:
    """Bicycle-PEN, "Two cards are drawn from the stock and one card is discarded"."""
    state = _position("9S 9H 5C 5D", "KS KH KD", turn="S draw")
    state.apply(("draw",))
    assert state.hand_size[S] == 6 and state.phase == "meld"
    state.apply(parse_action("discard 5"))
    assert state.hand_size[S] == 5


def test_case_05_no_seven_is_discarded_while_the_other_side_lacks_its_canasta_of_sevens() -> None:
    """RG-PEN, "Sevens may not be discarded until each side has completed a canasta of sevens": South's side
    has one, the other side does not, so South keeps the seven and discards the five."""
    state = _position("7C 5C 9S", "7S 7H 7D 7C 7S 7H 7D (canasta of sevens)")
    assert _rule(state, "discard 7") == "R-PEN-9"
    assert _rule(state, "discard 5") is None


def test_case_06_a_seven_is_never_the_last_card() -> None:
    """RG-PEN, "A seven may not be discarded when going out": with the four canastas down and both canastas of
    sevens made, South may not add the nines and keep a seven to go out on."""
    state = _position("9C 9D 7C", FOUR + "; 9S 9H 9D", melds_npw="7S 7H 7D 7C 7S 7H 7D", packets=TAKEN)
    state.apply(parse_action("add 9"))
    assert _rule(state, "add 9") == "R-PEN-9"
    assert _rule(state, "discard 7") is None  # while not going out, the seven may go (each side has its sevens)


def test_case_07_the_pack_is_not_taken_onto_a_canasta() -> None:
    """RG-PEN, "A canasta is limited to seven cards (it cannot be extended)": the top card is a king and
    South's side has a canasta of kings, so the pack can't go onto it, alone or with a pair."""
    state = _position("KC KD 5C 9S", "KS KH KD KC KS KH KD; QS QH QC", turn="S draw", pile="KH")
    assert _rule(state, "take K") == "R-PEN-6"
    assert _rule(state, "take K K K") == "R-PEN-6"


def test_case_08_wild_cards_are_melded_together_jokers_and_deuces_alike() -> None:
    """RG-PEN, "Wild cards may be melded as a set of their own (three or more)" and "There is no distinction
    between jokers and twos": both a mix and three jokers start a meld of wild cards."""
    state = _position("JK JK JK 2C 5C 9S", "KS KH KD")
    assert _rule(state, "meld 2 JK JK") is None
    assert _rule(state, "meld JK JK JK") is None
    state.apply(parse_action("meld JK JK JK"))
    assert len(state.melds[1][DEUCE][0]) == 3 and _rule(state, "add 2 to 2") is None
    assert state.hands[S][JOKER] == []


def test_case_09_going_out_needs_the_four_kinds() -> None:
    """RG-PEN, "To go out, a side must have completed, at a minimum, a canasta of sevens ..., one wild canasta
    ..., one natural canasta ..., and one mixed canasta": with no wild canasta South may not go out."""
    three = "KS KH KD KC KS KH KD; QS QH QC QD QS 2H 2D; 7S 7H 7D 7C 7S 7H 7D; 9S 9H 9D"
    state = _position("9C 5C", three, packets=TAKEN)
    err = state.explain_go_out(S)
    assert err is not None and err.rule == "R-PEN-10" and "wild" in err.reason
    ok = _position("9C 5C", FOUR + "; 9S 9H 9D", packets=TAKEN)
    assert ok.explain_go_out(S) is None


def test_case_10_red_threes_count_against_a_side_with_no_canasta_of_sevens() -> None:
    """Bicycle-PEN, "Red threes are subtracted from the score of a side that has not made a canasta of
    sevens": the side with its sevens scores its two red threes, the side without loses its one."""
    state = _position("9C 5C", FOUR, melds_npw="AS AH AD AC AS AH AD", packets=TAKEN,
                      extra="red threes ESQ: 3H 3D\nred threes NPW: 3H\n")
    result = state.score_hand()
    assert (result.sides[1].red_threes, result.sides[0].red_threes) == (200, -100)


def test_case_11_all_eight_red_threes_are_a_thousand() -> None:
    """RG-PEN, "Red threes count 100 points each, or 1000 points total if one side holds all eight"."""
    reds = "3H 3D 3H 3D 3H 3D 3H 3D"
    state = _position("9C 5C", FOUR, packets=TAKEN, extra=f"red threes ESQ: {reds}\n")
    assert state.score_hand().sides[1].red_threes == 1000


def test_case_12_the_minimum_from_one_thousand_is_one_hundred_and_twenty() -> None:
    """RG-PEN's table, "1000 to 1495: 120": a side on 1,000 may not open with three kings (30)."""
    state = _position("KC KD KH 5C 9S", totals="NPW 0 ESQ 1000")
    assert state.minimums[1] == 120
    assert _rule(state, "meld K K K") == "R-MIN-1"


def test_case_13_the_canasta_kinds_score_their_bonuses() -> None:
    """HSW-PEN, "A canasta of 7s counts for 1,500 points. A wild-card canasta counts for 1,000 points", with the
    classic 500 and 300 for the natural and mixed canastas (Bicycle-PEN's bonus table)."""
    state = _position("9C 5C", FOUR, packets=TAKEN)
    side = state.score_hand().sides[1]
    assert (side.natural_canastas, side.mixed_canastas, side.extra_bonuses) == (1, 1, 2500)
    assert SEVEN == 3  # the sevens are the kind the engine calls 3 (4 is kind 0)
