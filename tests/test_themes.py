"""Every puzzle theme's detector fires where its theme holds and stays silent where not."""

from __future__ import annotations

import pytest

from canasta_tutor.notation.actions import parse_action
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import parse_position
from canasta_tutor.tutor.puzzles.themes import THEMES, detect


def themes(position: str, action: str) -> list[str]:
    state = parse_position(position)
    obs = observe(state, state.actor)
    a = parse_action(action)
    assert a in obs.legal_actions, action
    return detect(obs, a, state)


OPEN_TAKE = """turn: S draw
pile: 5H 7C 8D 9S TC 6D QH 4D 6S 9D
N: 11
E: 11
S: 9H 9C KD AH 5S 6C 7D JS QS 3S JK
W: 11
melds EW: 4H 4C 4S
"""
TAKE_OPENED = """turn: S draw
pile: 5H 7C 8D 9S TC 6D QH 9D
N: 11
E: 11
S: 9H 9C 4D 5S 6C 7D JS QS KD AH 3S
W: 11
melds NS: KH KS KC
melds EW: 4H 4C 4S
"""
TAKE_FROZEN = """turn: S draw
pile: 5H 7C 2D 9S TC 6D 4H 6S JD
N: 11
E: 11
S: JH JC 4C 5S 6C 7D QS KD AH 3S 9D
W: 11
melds NS: AS AC AD
melds EW: 8S 8C 8H
"""
DEUCE_INSIDE = """turn: S draw
pile: 5H 2C 7D 9D
N: 11
E: 11
S: 9H 4D 5S 6C 8D JS QS KD AH AS KH
W: 11
melds NS: KS KC KD
"""
BIG_OPEN = """turn: S meld
pile: 4H 6C 8D 9S TC 6D QH 4D QS TD
N: 11
E: 11
S: 3S 5D 7H 9H JD KC 2C
W: 11
melds NS: AH AC AD
melds EW: 5H 5C 5S; 7C 7S 7D; JH JC JS; KH KS KD
"""
SIX_KINGS = """turn: S meld
pile: 4H 6C 8D
N: 11
E: 11
S: KH 5D 6S 9C
W: 11
melds NS: KS KC KD KS KC KD; AH AC AD
melds EW: 5H 5C 5S
"""
LAST_CARD = """turn: S meld melded
pile: 4H 6C 8D
N: 7
E: 5
S: 6S
W: 8
melds NS: 8H 8C 8S 8D 8H 8C JK (mixed canasta); AH AC AD AS
melds EW: 5H 5C 5S
melded-before: N S
"""
CONCEALED = """turn: S meld
pile: 4H 6C 8D
N: 11
E: 11
S: 7H 7D 7C 7S 7H 7D JK 4S
W: 11
melds EW: 5H 5C 5S
"""
CONCEALED_LAST = """turn: S meld melded
pile: 4H 6C 8D
N: 11
E: 11
S: 4S
W: 11
melds NS: 7H 7D 7C 7S 7H 7D JK (mixed canasta)
melds EW: 5H 5C 5S
"""
HOLD = """turn: S meld melded
pile: 4H 6C 8D 9C
N: 11
E: 11
S: 7H 7D 7C 5S
W: 11
melds NS: 8H 8C 8S 8D 8H 8C JK (mixed canasta); 7S 7S 2D; 9S 9D 9H
melds EW: 5H 5C 5D
melded-before: N
"""
PAIRS = """turn: S meld
pile: 4H 6C 2C 8D 9S TC 6D QH 4D 5C 7S 8H KD
N: 11
E: 11
S: 9H 9C QH QD 5S 7D 4C 6H TS
W: 11
melds NS: AH AS AC
melds EW: 9S 9D 9D; QC QS QS
"""
MINIMUM = """turn: S meld
totals: NS 700 EW 900
pile: 5H 8C
N: 11
E: 11
S: AH AD AC 4S 9D JS KD 6H QS TD 6C 5C
W: 11
"""
RED_THREE = """turn: S meld
pile: 5H 8C
N: 11
E: 11
S: AH AD AC 4S 9D JS KD 6H QS TD 6C
W: 11
red threes NS: 3H
"""
ASK = """turn: S draw
pile: 4H 6C 8D 9C
N: 3
E: 4
S: 7H 7D 7C
W: 5
melds NS: 8H 8C 8S 8D 8H 8C JK (mixed canasta); 7S 7S 2D
melds EW: 5H 5C 5S; QH QD QS 2C
"""
STOCK_OUT = """turn: S draw
stock: -
pile: 4H 6C 9D
N: 11
E: 11
S: 6S 6D 8H
W: 11
melds NS: KS KH KD KC KS KH KD KC; QS QH QD QC QS QH QD QC; JS JH JD JC JS JH JD JC; TS TH TD TC TS TH TD TC; 9S 9C 9H
melds EW: AS AH AD AC AS AH AD AC; 4S 4D 4C 4S 4D 4C; 5S 5H 5D 5C 5S 5H 5D 5C; 7S 7H 7D 7C 7S 7H 7D 7C
red threes NS: 3H 3D
red threes EW: 3H 3D
"""
NEAR_OUT = """turn: S meld
pile: 4H 6C 8D
N: 11
E: 2
S: 5D 8H JD KC 6S AD
W: 8
melds NS: AH AC AS
melds EW: 5H 5C 5S; JH JC JS JK; QH QS QD QC QH QS QD (natural canasta)
"""
JOKER_TOP = """turn: S draw
pile: 5H 7C 8D JK
N: 11
E: 11
S: 9H 9C 5S 6C 7D JS QS KD AH 4S KH
W: 11
melds NS: KS KC KD
"""

#: theme -> (position, action where it must fire), (position, action where it must not)
WILD_ADD = """turn: S meld
pile: 4H 6C 8D
N: 11
E: 11
S: 2H 5D 6S 9C
W: 11
melds NS: KS KC KD KS KC; AH AC AD
melds EW: 5H 5C 5S
"""
KEEP_MELD = """turn: S meld melded
pile: 6D 6C 9D
N: 11
E: 11
S: 4C 7D
W: 11
melds NS: 4S 4H 4H 4D 2D; AH AC AD
melds EW: 5H 5C 5S
melded-before: N S
"""
BIGGER_MELD = """turn: S meld melded
pile: 6D 6C 9D
N: 11
E: 11
S: 8D KC
W: 11
melds NS: 8H 8D 8C; KS KD KC JK
melds EW: 5H 5C 5S
melded-before: N S
"""
NEW_MELD = """turn: S meld
pile: 4H 6C 8D
N: 11
E: 11
S: JH JD 2S 5H 9C
W: 11
melds NS: AH AC AD
melds EW: 5H 5C 5S
melded-before: N S
"""
SMALL_PACK = """turn: S draw
pile: 9S 5S
N: 11
E: 11
S: 4H 8H 8C
W: 11
melds NS: 5H 5D 5C
melds EW: 7S 7D 7C
melded-before: N E
"""
ALL_FEED = """turn: S meld
pile: QD 7S JD
N: 3
E: 4
S: 5D 7D 7D KD
W: 8
melds NS: 4H 4H 4D
melds EW: 5S 5H 5D 5C 5C; 7H 7H 7C; KS KH KD KC 2S
melded-before: N E S W
"""
ONE_SAFE = ALL_FEED.replace("S: 5D 7D 7D KD", "S: 5D 7D 7D KD 9C")


CASES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "take-to-open": ((OPEN_TAKE, "take 9 9 9 JK"), (TAKE_OPENED, "take 9 9 9")),
    "take-frozen-pack": ((TAKE_FROZEN, "take J J J"), (TAKE_OPENED, "take 9 9 9")),
    "take-open-pack": ((TAKE_OPENED, "take 9 9 9"), (TAKE_FROZEN, "take J J J")),
    "stop-card": ((BIG_OPEN, "discard 3"), (BIG_OPEN, "discard 9")),
    "safe-discard": ((BIG_OPEN, "discard 9"), (BIG_OPEN, "discard 5")),
    "freeze-on-purpose": ((BIG_OPEN, "discard 2"), (BIG_OPEN, "discard 3")),
    "complete-canasta": ((SIX_KINGS, "add K"), (SIX_KINGS, "discard K")),
    "go-out": ((LAST_CARD, "discard 6"), (HOLD, "add 7")),
    "go-out-concealed": ((CONCEALED_LAST, "discard 4"), (LAST_CARD, "discard 6")),
    "hold-dont-go-out": ((HOLD, "add 7"), (LAST_CARD, "discard 6")),
    "keep-pairs": ((PAIRS, "discard 5"), (PAIRS, "discard 9")),
    "meld-minimum": ((MINIMUM, "meld A A A"), (MINIMUM, "discard 4")),
    "red-three": ((RED_THREE, "meld A A A"), (MINIMUM, "meld A A A")),
    "ask-partner": ((ASK, "ask"), (ASK, "draw")),
    "last-stock-card": ((STOCK_OUT, "take 9"), (ASK, "draw")),
    "defend-near-out": ((NEAR_OUT, "discard K"), (BIG_OPEN, "discard 9")),
    "frozen-pack": ((DEUCE_INSIDE, "draw"), (TAKE_OPENED, "draw")),
    "top-blocked": ((JOKER_TOP, "draw"), (DEUCE_INSIDE, "draw")),
    "open-with-wild": ((OPEN_TAKE, "take 9 9 9 JK"), (TAKE_OPENED, "take 9 9 9")),
    "forced-move": ((DEUCE_INSIDE, "draw"), (TAKE_OPENED, "draw")),
    "wild-to-meld": ((WILD_ADD, "add 2 to K"), (HOLD, "add 7")),
    "one-short-of-canasta": ((WILD_ADD, "add 2 to K"), (WILD_ADD, "add 2 to A")),
    "keep-meld-card": ((KEEP_MELD, "discard 7"), (KEEP_MELD, "discard 4")),
    "new-meld": ((NEW_MELD, "meld J J 2"), (MINIMUM, "meld A A A")),
    "decline-the-pack": ((SMALL_PACK, "draw"), (SMALL_PACK, "take 5")),
    "spare-near-canasta": ((ALL_FEED, "discard 7"), (ALL_FEED, "discard K")),
}

#: more places a theme must stay silent: (theme, position, action)
MORE_SILENT = [
    ("keep-meld-card", BIGGER_MELD, "discard K"),  # lets go of the card for the bigger meld
    ("keep-meld-card", LAST_CARD, "discard 6"),  # going out keeps nothing
    ("new-meld", NEW_MELD, "discard 5"),
    ("decline-the-pack", DEUCE_INSIDE, "draw"),  # the pack cannot be taken: drawing is no choice
    ("spare-near-canasta", ONE_SAFE, "discard 7"),  # the nine feeds nobody: that is the safe discard
    ("spare-near-canasta", TAKE_FROZEN, "draw"),
]
#: more places a theme must fire
MORE_FIRING = [
    ("keep-meld-card", BIGGER_MELD, "discard 8"),  # keeps the king for the four-card meld of kings
]


def test_every_theme_has_cases() -> None:
    assert set(CASES) == set(THEMES)
    assert len(THEMES) >= 15


@pytest.mark.parametrize("theme", sorted(CASES))
def test_theme_fires_where_it_holds(theme: str) -> None:
    (pos, action), _ = CASES[theme]
    assert theme in themes(pos, action)


@pytest.mark.parametrize("theme", sorted(CASES))
def test_theme_silent_where_it_does_not(theme: str) -> None:
    _, (pos, action) = CASES[theme]
    assert theme not in themes(pos, action)


@pytest.mark.parametrize(("theme", "pos", "action"), MORE_SILENT)
def test_theme_silent_elsewhere(theme: str, pos: str, action: str) -> None:
    assert theme not in themes(pos, action)


@pytest.mark.parametrize(("theme", "pos", "action"), MORE_FIRING)
def test_theme_fires_elsewhere(theme: str, pos: str, action: str) -> None:
    assert theme in themes(pos, action)
