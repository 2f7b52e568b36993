"""Rule tests: winning the game (R-GAME-*)."""

from __future__ import annotations

from helpers_rules import FIVE, P, ok, refuse


END = """
    {options}
    dealer: E
    turn: S meld
    totals: NS {a} EW {b}
    pile: 9D
    N: 4S
    E: 4H
    S: 5S
    W: 4C
    melds NS: QS QH QD QC QS QH QD (natural canasta)
    melds EW: KS KH KD KC KS KH KD (natural canasta)
    melded-before: S N E W
"""
NS_HAND = 500 + 70 + 100 - 5  # canasta, queens, going out, N's four
EW_HAND = 500 + 70 - 10  # canasta, kings, E's and W's fours


def _final(state):
    """The final totals of the score sheet (a property or a method of State)."""
    ft = state.final_totals
    return tuple(ft() if callable(ft) else ft)


def _end(a, b, options=""):
    state = P(END.format(a=a, b=b, options=options))
    ok(state, ("discard", FIVE))
    return state


# ------------------------------------------------------------------ R-GAME
def test_first_to_5000_wins_R_GAME_1():
    """R-GAME-1: the first side whose total reaches 5,000 wins; the game is then over."""
    state = _end(4400, 0)
    assert state.totals == [4400 + NS_HAND, EW_HAND]
    assert state.phase == "game_over" and state.is_game_over
    assert state.winner == 0
    assert state.legal_actions() == []
    refuse(state, ("deal",), "R-GAME-1", "over")


def test_deal_is_played_to_its_end_R_GAME_1():
    """R-GAME-1: the deal in which a side passes 5,000 is played to its end: no early stop."""
    state = P(END.format(a=4900, b=0, options="").replace("S: 5S", "S: 5S 6S"))
    assert state.score_hand().sides[0].total > 100  # plainly past 5,000 already
    ok(state, ("discard", FIVE))
    assert state.phase == "draw" and state.current_seat == "W"


def test_both_reach_5000_higher_total_wins_R_GAME_2():
    """R-GAME-2: if both sides reach 5,000 in the same deal, the higher total wins (here the side that
    did not go out), and the margin is the difference of the totals."""
    state = _end(4500, 4700)
    a, b = state.totals
    assert a >= 5000 and b >= 5000 and b > a
    assert state.phase == "game_over" and state.winner == 1
    fa, fb = _final(state)
    assert (fa, fb) == (a, b) and fb - fa == 95


def test_tie_at_5000_means_another_deal_R_GAME_2():
    """R-GAME-2 (software ruling): exactly equal totals at or above 5,000: another deal is played."""
    state = _end(4500, 4500 + NS_HAND - EW_HAND)
    a, b = state.totals
    assert a == b >= 5000
    assert state.phase == "hand_over" and state.winner is None
    ok(state, ("deal",))
    assert state.phase == "draw"


ROUND = "options: round_totals=true"


def test_rounding_off_by_default_R_GAME_3():
    """R-GAME-3: rounding is off by default: the final totals are the totals."""
    state = _end(4485, 4700)
    assert _final(state) == tuple(state.totals) == (5150, 5260)


def test_round_totals_option_R_GAME_3():
    """R-GAME-3 (round_totals=true): once the game has ended each final total is rounded to the
    nearest 100, 50 counting as a full 100; the margin comes from the rounded totals; the winner
    does not change."""
    state = _end(4485, 4700, options=ROUND)
    assert tuple(state.totals) == (5150, 5260)
    assert state.phase == "game_over" and state.winner == 1
    fa, fb = _final(state)
    assert (fa, fb) == (5200, 5300)
    assert fb - fa == 100


def test_rounding_never_changes_the_winner_R_GAME_3():
    """R-GAME-3: rounding is done after the game ends: 5,215 beats 5,165 although both round to 5,200."""
    state = _end(4500, 4655, options=ROUND)
    assert tuple(state.totals) == (5165, 5215)
    assert state.winner == 1
    assert _final(state) == (5200, 5200)
