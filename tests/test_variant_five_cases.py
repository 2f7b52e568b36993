"""Held-out rule cases for five-handed Canasta: each a position and the engine's answer.

Each case was written from a point of the sources (the rule book's labels: RG-5P, "Canasta For Five
Players" at rummy-games.com; RS-5P, the one-line summary "two against three, with one player sitting out
each hand"), which its docstring names, and checked against that point rather than against the code.  The
positions are not used by any other test; the rules they exercise are R-FIVE-1..4 and the classic rules
a five-handed hand plays by.
"""

from __future__ import annotations

import pytest

from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.state import State
from canasta_tutor.notation.actions import parse_action
from canasta_tutor.notation.position import parse_position


def _position(deal: int, players: str, out: str, turn: str, body: str, totals: str = "NS 0 EW 0") -> State:
    text = (f"canasta-tutor position\nvariant: five-handed\nseed: 9\ndeal: {deal}\nplayers: {players}\n"
            f"out: {out}\ndealer: W\nturn: {turn}\ntotals: {totals}\n{body}")
    return parse_position(text)


#: a hand just ended: South went out with the side's canasta of sevens
OVER = """pile: 9D
N: 5
E: 6
S: 0
W: 4
melds NS: 7S 7H 7D 7C 7S 7H 7D (natural canasta)
"""


def _next_deal(deal: int, players: str, out: str) -> tuple[tuple[str, ...], str]:
    state = _position(deal, players, out, "S hand_over went-out", OVER)
    state.apply(("deal",))
    return tuple(state.players), state.out  # type: ignore[attr-defined]


def test_case_01_the_second_hand_brings_in_the_player_who_sat_out() -> None:
    """RG-5P, the example of the turns: A and B play the first hand, A and C the second.  With A at East,
    B at West and C out, the second deal seats C and B sits out."""
    assert _next_deal(0, "N, A, S, B", "C") == (("N", "A", "S", "C"), "B")


def test_case_02_the_third_hand_is_played_by_the_other_pair() -> None:
    """RG-5P, the example of the turns: B and C play the third hand, so A sits out."""
    chairs, out = _next_deal(1, "N, A, S, C", "B")
    assert out == "A" and sorted((chairs[1], chairs[3])) == ["B", "C"]


def test_case_03_the_fourth_hand_starts_the_turns_again() -> None:
    """RG-5P, "and so on": after B-C, A and B play again and C sits out."""
    chairs, out = _next_deal(2, "N, B, S, C", "A")
    assert out == "C" and sorted((chairs[1], chairs[3])) == ["A", "B"]


def test_case_04_the_side_of_two_plays_every_hand() -> None:
    """RG-5P, "One side has three players, and the other side has two"; RS-5P, "two against three": only
    the side of three changes players; North and South keep their chairs at every deal."""
    for deal, players, out in ((0, "P1, A, P2, B", "C"), (1, "P1, A, P2, C", "B"), (4, "P1, C, P2, A", "B")):
        chairs, _ = _next_deal(deal, players, out)
        assert (chairs[0], chairs[2]) == ("P1", "P2")


def test_case_05_the_player_in_wests_chair_plays_wests_turn() -> None:
    """RG-5P, "The two sides then play regular partnership Canasta": at the second hand C, in West's chair,
    is the player to act after South; the one sitting out never is."""
    state = _position(1, "N, A, S, C", "B", "W draw", "pile: 9D\nN: 11\nE: 11\nS: 11\nW: 11\n")
    assert state.actor == 3 and state.players[state.actor] == "C"
    assert state.legal_actions()[0] == ("draw",)


def test_case_06_the_partner_asked_is_the_one_across_the_table() -> None:
    """RG-5P, "regular partnership Canasta", and the point that the player sitting out "cannot participate
    in any way": South's "Partner, may I go out?" is answered by North, not by the player sitting out."""
    state = _position(1, "N, A, S, C", "B", "S draw",
                      "pile: 9D\nN: 11\nE: 11\nS: KH KD KS\nW: 11\nmelds NS: 7S 7H 7D 7C 7S 7H 7D (natural canasta)\n"
                      "melded-before: N S\n")
    assert state.explain(("ask",)) is None
    state.apply(("ask",))
    assert state.phase == "answer" and state.players[state.actor] == "N"


def test_case_07_the_minimum_comes_from_the_sides_total() -> None:
    """RG-5P, "Score is kept for partnerships ... rather than individually": C joins East-West at the second
    hand with the side's 1,600, so C's initial meld needs 90 (R-MIN-1) and three kings (30) are refused."""
    state = _position(1, "N, A, S, C", "B", "W meld",
                      "pile: 9D\nN: 11\nE: 11\nS: 11\nW: KH KD KS 5C 6D 8H 9S TC JD QH AS 4D\n", totals="NS 0 EW 1600")
    assert state.minimums == [50, 90]
    err = state.explain(parse_action("meld K K K"))
    assert err is not None and err.rule == "R-MIN-1"


def test_case_08_the_side_of_two_keeps_its_own_minimum() -> None:
    """RG-5P, "Score is kept for partnerships": North-South at 0 need 50, whatever East-West holds; three
    aces and three kings (90) open for South."""
    state = _position(1, "N, A, S, C", "B", "S meld", "pile: 9D\nN: 11\nE: 11\nS: AH AD AS KH KD KS 5C 6D\nW: 11\n",
                      totals="NS 0 EW 1600")
    assert state.minimums == [50, 90]
    assert state.explain(parse_action("meld A A A")) is None


def test_case_09_the_player_sitting_out_holds_no_cards() -> None:
    """RG-5P, the player sitting out "can observe, but cannot participate": a position has no hand line for
    them; a fifth hand is refused as an unknown key."""
    with pytest.raises(NotationError, match="unknown key"):
        _position(0, "N, E, S, W", "F", "S draw", "pile: 9D\nN: 11\nE: 11\nS: 11\nW: 11\nF: 11\n")


def test_case_10_the_player_sitting_out_is_not_in_a_chair() -> None:
    """RG-5P, "the players take turns sitting out while the other two play": the one sitting out is none of
    the two playing, so naming a seated player as out is refused, citing R-FIVE-1."""
    with pytest.raises(NotationError, match="R-FIVE-1"):
        _position(1, "N, A, S, C", "C", "S draw", "pile: 9D\nN: 11\nE: 11\nS: 11\nW: 11\n")


def test_case_11_the_game_is_won_by_the_side() -> None:
    """RG-5P, "Score is kept for partnerships"; the classic game of 5,000 (R-GAME-1): East-West at 4,900
    win when the hand's score takes the side past 5,000, whichever two of its players played it."""
    state = _position(2, "N, B, S, C", "A", "E game_over went-out",
                      "pile: 9D\nN: 5\nE: 0\nS: 6\nW: 4\nmelds EW: 7S 7H 7D 7C 7S 7H 7D (natural canasta)\n",
                      totals="NS 2000 EW 4900")
    assert state.phase == "game_over" and state.winner == 1
