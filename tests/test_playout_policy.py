"""The rules-of-thumb policy (also the search's playout policy) on positions that test its sense
of the pack: natural pairs against a frozen pack, and stop cards when the next player waits.

South discards in every position; West plays next.
"""

from __future__ import annotations

from helpers_rules import BLACK_THREE, DEUCE, FIVE, NINE, SEVEN, P

from canasta_tutor.bots.rules_of_thumb import decide, discard_scores, next_player_waiting
from canasta_tutor.engine.observer import observe_compact

PAIR_POS = """
    dealer: E
    turn: S meld
    pile: {pile}
    N: 11
    E: 11
    S: 5H 5S 9D
    W: 9 known: 9
    melds NS: KS KH KD
    melds EW: AS AH AD
"""


def _south(text: str):
    state = P(text)
    return observe_compact(state, 2)


def test_keeps_a_natural_pair_against_a_frozen_pack():
    """P-HOLD-PAIRS: with the pack frozen (a deuce inside) only a natural pair takes it, so South
    keeps the fives and gives up the nine, though West is known to hold a nine."""
    v = _south(PAIR_POS.format(pile="4D 2C* 7H 8S 6H JD"))
    assert v.freeze_at >= 0
    action, principles = decide(v)
    assert action == ("discard", NINE)
    assert principles == ["P-SAFE-DISCARD"]


def test_breaks_the_pair_rather_than_feed_an_open_pack():
    """The same hand with the pack open to West: the nine West holds would give West the pack,
    so South breaks the pair of fives instead."""
    v = _south(PAIR_POS.format(pile="4D 7H 8S 6H JD"))
    assert v.freeze_at < 0
    assert decide(v)[0] == ("discard", FIVE)


def test_pair_weighs_more_when_the_pack_is_frozen_against_us():
    frozen = discard_scores(_south(PAIR_POS.format(pile="4D 2C* 7H 8S 6H JD")))
    open_ = discard_scores(_south(PAIR_POS.format(pile="4D 7H 8S 6H JD")))
    assert frozen[FIVE] > open_[FIVE]


STOP_POS = """
    dealer: E
    turn: S meld
    pile: {pile}
    N: 11
    E: 11
    S: {south}
    W: 9 known: 9
    melds NS: KS KH KD
    melds EW: AS AH AD
"""
BIG_PILE = "4D 6H 8S 6C JD TH 4C 5D 8H TD"
SMALL_PILE = "4D 6H 8S"


def test_freezes_a_big_pack_the_next_player_is_waiting_for():
    """P-FREEZE as a stop card: West has melded and may take a ten-card pack; every natural South
    could discard helps West (a nine West holds) or breaks a pair, so South freezes the pack."""
    v = _south(STOP_POS.format(pile=BIG_PILE, south="2C 9D 7S 7C"))
    assert next_player_waiting(v)
    action, principles = decide(v)
    assert action == ("discard", DEUCE)
    assert principles == ["P-FREEZE"]


def test_black_three_first_when_the_next_player_waits():
    """P-STOP-THREE: with a black three in hand it is the stop card, and the deuce is kept."""
    v = _south(STOP_POS.format(pile=BIG_PILE, south="2C 9D 7S 7C 3S"))
    action, principles = decide(v)
    assert action == ("discard", BLACK_THREE)
    assert "P-STOP-THREE" in principles


def test_no_stop_card_for_a_small_pack():
    """With three cards in the pack nobody is waiting for it: the wild card stays in hand and
    South breaks the pair of sevens rather than give West the nine."""
    v = _south(STOP_POS.format(pile=SMALL_PILE, south="2C 9D 7S 7C"))
    assert not next_player_waiting(v)
    assert decide(v)[0] == ("discard", SEVEN)


def test_no_stop_card_when_the_pack_is_frozen():
    """A frozen pack is already stopped: no wild card is spent on it."""
    v = _south(STOP_POS.format(pile="4D 2C* 8S 6C JD TH 4C 5D 8H TD", south="2S 9D 7S 7C"))
    assert not next_player_waiting(v)
    assert decide(v)[0][1] != DEUCE
