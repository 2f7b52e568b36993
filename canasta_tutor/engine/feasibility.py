"""Look-ahead checks on a hand: can it still reach a minimum, can it go out.

These keep the legal-action list free of dead ends: an action is only offered
if the player can still finish the turn legally after it.  They work on card
*kind* counts (see :mod:`canasta_tutor.engine.cards`) and a side's melds given as
``{kind: (naturals, wilds)}``.  Standard library only.

>>> from canasta_tutor.engine.options import RuleOptions
>>> c = [0] * 15; c[9] = 4; c[12] = 3           # four kings and three jokers
>>> can_go_out(c, {}, RuleOptions(), allow_discard=False)
True
>>> c[0] = 1                                       # plus a lone four: it must be discarded
>>> can_go_out(c, {}, RuleOptions(), allow_discard=False), can_go_out(c, {}, RuleOptions(), allow_discard=True)
(False, True)
"""

from __future__ import annotations

from itertools import compress
from typing import Mapping, Sequence

from .cards import BLACK_THREE, DEUCE, JOKER, KIND_VALUES
from .options import RuleOptions

Melds = Mapping[int, tuple[int, int]]


_NATURALS = range(11)
_IS_ONE = (1).__eq__  # with map and compress: the kinds held once, found without a Python loop over all kinds


def _meld_all(c: Sequence[int], melds: Melds, opts: RuleOptions, b3_on_table: int) -> bool:
    """Can every card of ``c`` be melded, leaving the side with a canasta?

    A new meld of only two naturals needs a wild card to reach three cards.
    """
    b3 = c[BLACK_THREE]
    if b3 and (b3 + b3_on_table) not in (3, 4):
        return False
    wilds = c[JOKER] + c[DEUCE]
    caps = opts.wild_caps
    cap = 0  # room for wild cards in all the melds
    must = 0  # new melds of two naturals, each needing one wild card
    need = 99  # fewest wild cards that complete some canasta
    # the order of the kinds does not matter: first the melds on the table, with the naturals
    # of their kind from the hand, then the new melds
    for k, (nat, w0) in melds.items():
        if k > 10:  # black threes: no card of the hand joins them here
            continue
        big_n = nat + c[k]
        room = caps[big_n] - w0
        cap += room
        if big_n >= 4:
            short = 7 - big_n - w0
            if short <= 0:
                need = 0
            elif short <= room and short < need:
                need = short
    for k in compress(_NATURALS, c):  # the natural kinds held
        if k in melds:
            continue
        n = c[k]
        if n == 1:
            return False
        if n == 2:
            must += 1
            if caps[2] < 1:
                return False
        room = caps[n]
        cap += room
        if n >= 4:
            short = 7 - n
            if short <= 0:
                need = 0
            elif short <= room and short < need:
                need = short
    if need == 99:
        return False
    return must + need <= wilds <= cap


def _meld_all_many(c: Sequence[int], melds: Melds, opts: RuleOptions, b3_on_table: int, canastas: int) -> bool:
    """:func:`_meld_all` when going out needs more than one canasta (R-TWO-5, R-SIX-4): the wild cards
    must complete the ``canastas`` cheapest canastas at once (each in its own meld's room) besides
    the pairs."""
    b3 = c[BLACK_THREE]
    if b3 and (b3 + b3_on_table) not in (3, 4):
        return False
    wilds = c[JOKER] + c[DEUCE]
    caps = opts.wild_caps
    cap = 0
    must = 0
    shorts: list[int] = []  # wild cards each possible canasta still needs
    for k, (nat, w0) in melds.items():
        if k > 10:
            continue
        big_n = nat + c[k]
        room = caps[big_n] - w0
        cap += room
        if big_n >= 4:
            short = max(0, 7 - big_n - w0)
            if short <= room:
                shorts.append(short)
    for k in compress(_NATURALS, c):
        if k in melds:
            continue
        n = c[k]
        if n == 1:
            return False
        if n == 2:
            must += 1
            if caps[2] < 1:
                return False
        room = caps[n]
        cap += room
        if n >= 4:
            short = max(0, 7 - n)
            if short <= room:
                shorts.append(short)
    if len(shorts) < canastas:
        return False
    shorts.sort()
    return must + sum(shorts[:canastas]) <= wilds <= cap


def can_go_out(c: Sequence[int], melds: Melds, opts: RuleOptions, allow_discard: bool = True,
               b3_on_table: int = 0, canastas: int = 1) -> bool:
    """Whether a hand with kind counts ``c`` can be emptied this turn by melding
    (and at most one discard when ``allow_discard``), ending with ``canastas`` canastas for the
    side (R-OUT-1; two in two- and six-handed, R-TWO-5, R-SIX-4).
    ``b3_on_table`` counts black threes the player has already melded this turn (R-MELD-4).
    """
    # A lone natural with no meld to join can only leave as the discard: find them first.
    lone = -1
    for k in compress(_NATURALS, map(_IS_ONE, c)):
        if k not in melds:
            if lone >= 0 or not allow_discard:
                return False
            lone = k
    b3 = c[BLACK_THREE]
    if b3 and (b3 + b3_on_table) not in (3, 4):
        if lone >= 0 or not allow_discard or (b3 - 1 + b3_on_table) not in (0, 3, 4) or b3 - 1 < 0:
            return False
        lone = BLACK_THREE
    if lone >= 0:
        cc = list(c)
        cc[lone] -= 1
        if canastas == 1:
            return _meld_all(cc, melds, opts, b3_on_table)
        return _meld_all_many(cc, melds, opts, b3_on_table, canastas)
    if canastas == 1:
        if _meld_all(c, melds, opts, b3_on_table):
            return True
    elif _meld_all_many(c, melds, opts, b3_on_table, canastas):
        return True
    if not allow_discard:
        return False
    # With no lone card, discarding a natural or a black three only makes melding harder
    # (fewer naturals: more wild cards needed, less room for them), and a red three is never
    # melded: only the discard of a wild card can help, when the hand holds more wild cards
    # than its melds may take.  Jokers and deuces count alike here.
    wild = JOKER if c[JOKER] else DEUCE if c[DEUCE] else -1
    if wild < 0:
        return False
    cc = list(c)
    cc[wild] -= 1
    if canastas == 1:
        return _meld_all(cc, melds, opts, b3_on_table)
    return _meld_all_many(cc, melds, opts, b3_on_table, canastas)


def _max_points_all(c: Sequence[int], melds: Melds, opts: RuleOptions) -> tuple[int, int]:
    """Most points meldable from ``c`` (black threes excluded) and how many cards that uses.

    Additions and new melds of three or more naturals are always possible; a
    pair needs one wild card, so the best pairs are taken while wild cards last.
    """
    total = 0
    used = 0
    cap = 0
    caps = opts.wild_caps
    pair_ok = caps[2] >= 1
    pairs: list[int] = []  # the values of the pairs with no meld to join
    for k, (nat, w0) in melds.items():  # additions (the order of the kinds does not matter)
        if k > 10:  # black threes: excluded
            continue
        n = c[k]
        total += n * KIND_VALUES[k]
        used += n
        cap += caps[nat + n] - w0
    for k in compress(_NATURALS, c):  # new melds, from the natural kinds held
        n = c[k]
        if n < 2 or k in melds:
            continue
        if n >= 3:
            total += n * KIND_VALUES[k]
            used += n
            cap += caps[n]
        elif pair_ok:
            pairs.append(KIND_VALUES[k])
    wilds = c[JOKER] + c[DEUCE]
    if pairs and wilds:
        pairs.sort(reverse=True)
        for value in pairs[:wilds]:
            total += 2 * value
            used += 2
            cap += caps[2]
    placed = min(wilds, cap)
    pj = min(c[JOKER], placed)
    pd = placed - pj
    return total + 50 * pj + 20 * pd, used + placed


def max_meld_points(c: Sequence[int], melds: Melds, opts: RuleOptions, keep: int = 2) -> int:
    """Most points the hand ``c`` can add to ``melds`` this turn while keeping ``keep`` cards:
    two when the side cannot go out (one to discard and one to hold, R-OUT-2), one when only
    the discard must remain, none when the turn need not end with a discard.

    >>> c = [0] * 15; c[9] = 3; c[12] = 1            # K K K JK
    >>> [max_meld_points(c, {}, RuleOptions(), keep=n) for n in (0, 1, 2)]
    [80, 70, 0]
    """
    total, used = _max_points_all(c, melds, opts)
    if keep <= 0 or used <= sum(c) - keep:
        return total
    best = -1
    cc = list(c)
    for k in range(15):
        if cc[k]:
            cc[k] -= 1
            t = max_meld_points(cc, melds, opts, keep - 1)
            cc[k] += 1
            if t > best:
                best = t
    return max(best, 0)
