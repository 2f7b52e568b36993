"""Pennies from Heaven's canastas and going out, on card-kind counts (R-PEN-6..R-PEN-10): the look-ahead the
engine (:mod:`canasta_tutor.engine.pennies`), the bots and the hint's facts share.  Like
:mod:`canasta_tutor.engine.feasibility` it works on a hand's kind counts and a side's melds given as
``{kind: (naturals, wilds)}``, the meld of wild cards under ``DEUCE`` with every card counted as its first
number.  Standard library only.

>>> c = [0] * 15; c[SEVEN] = 1                      # one seven left: it may not be the discard
>>> can_go_out_pennies(c, FOUR_KINDS_DOWN, RuleOptions())
False
>>> c[SEVEN] = 0; c[5] = 1                          # a nine: discard it and go out
>>> can_go_out_pennies(c, FOUR_KINDS_DOWN, RuleOptions())
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BLACK_THREE, DEUCE, JOKER, KIND_VALUES
from .feasibility import Melds
from .options import RuleOptions

#: the kind of the sevens (R-PEN-8, R-PEN-9)
SEVEN = 3
#: a canasta holds exactly this many cards (R-PEN-6)
CANASTA = 7
#: the four kinds of canasta, in the order the rule book gives them (R-PEN-8)
KINDS = ("natural", "mixed", "wild", "sevens")
ALL_KINDS = 0b1111
_NATURAL, _MIXED, _WILD, _SEVENS = 1, 2, 4, 8

#: a side's melds with one canasta of each kind (for examples and tests): kings natural, queens mixed,
#: seven wild cards and seven sevens
FOUR_KINDS_DOWN: dict[int, tuple[int, int]] = {9: (7, 0), 8: (5, 2), DEUCE: (7, 0), SEVEN: (7, 0)}


def canasta_kind(kind: int, naturals: int, wilds: int) -> str | None:
    """Which of the four canastas a meld of ``kind`` is (R-PEN-8), or None when it is not a canasta: a meld
    under ``DEUCE`` is the side's meld of wild cards, all its cards counted in ``naturals``.

    >>> canasta_kind(9, 7, 0), canasta_kind(9, 5, 2), canasta_kind(DEUCE, 7, 0), canasta_kind(SEVEN, 6, 1)
    ('natural', 'mixed', 'wild', 'sevens')
    >>> canasta_kind(9, 6, 0) is None
    True
    """
    if naturals + wilds < CANASTA or kind == BLACK_THREE:
        return None
    if kind == DEUCE:
        return "wild"
    if kind == SEVEN:
        return "sevens"
    return "mixed" if wilds else "natural"


def kinds_mask(melds: Melds) -> int:
    """The kinds of canasta among a side's melds, as bits (natural 1, mixed 2, wild 4, sevens 8)."""
    mask = 0
    for k, (n, w) in melds.items():
        name = canasta_kind(k, n, w)
        if name is not None:
            mask |= 1 << KINDS.index(name)
    return mask


def missing_kinds(melds: Melds) -> list[str]:
    """The kinds of canasta a side still lacks to go out (R-PEN-10), in the rule book's order."""
    mask = kinds_mask(melds)
    return [name for i, name in enumerate(KINDS) if not mask & (1 << i)]


def can_go_out_pennies(c: Sequence[int], melds: Melds, opts: RuleOptions, allow_discard: bool = True,
                       b3_on_table: int = 0) -> bool:
    """Whether a hand of kind counts ``c`` can go out onto a side's melds (``{kind: (naturals, wilds)}``, the
    meld of wild cards under ``DEUCE``): every card melded, or all but one discarded, that one not a seven
    (R-PEN-9), no meld past seven cards (R-PEN-6), and the side then holding a canasta of each of the four
    kinds (R-PEN-10).  An exact search over where the wild cards go and which card is the discard."""
    wilds = c[JOKER] + c[DEUCE]
    base_mask = 0
    # states: (wilds used, discard used) -> set of canasta-kind masks reachable
    states: dict[tuple[int, int], set[int]] = {(0, 0): {0}}
    for k in range(11):
        held = c[k]
        old = melds.get(k)
        if old is not None and old[0] + old[1] >= CANASTA:
            if held > 1 or (held == 1 and (not allow_discard or k == SEVEN)):
                return False
            base_mask |= 1 << KINDS.index(canasta_kind(k, *old) or "natural")
            if held == 1:
                states = _with_discard(states)
                if not states:
                    return False
            continue
        if not held and old is None:
            continue
        options: list[tuple[int, int, int]] = []  # (wilds used, discard used, mask bit)
        for disc in (0, 1):
            if disc and (not allow_discard or k == SEVEN or not held):
                continue
            n = held - disc
            if old is None:
                if n == 0:
                    options.append((0, disc, 0))
                    continue
                if n < 2:
                    continue
                nat, wld = n, 0
            else:
                nat, wld = old[0] + n, old[1]
            for x in range(wilds + 1):
                size = nat + wld + x
                if size > CANASTA:
                    break
                if wld + x > opts.wild_cap(nat) or (old is None and size < 3):
                    continue
                name = canasta_kind(k, nat, wld + x)
                options.append((x, disc, 0 if name is None else 1 << KINDS.index(name)))
        if not options:
            return False
        nxt: dict[tuple[int, int], set[int]] = {}
        for (used, dused), masks in states.items():
            for x, disc, bit in options:
                u, d = used + x, dused + disc
                if u > wilds or d > 1:
                    continue
                nxt.setdefault((u, d), set()).update(m | bit for m in masks)
        states = nxt
        if not states:
            return False
    # black threes: three or four melded together when going out, or one of them the discard (R-MELD-4)
    b3 = c[BLACK_THREE]
    if b3:
        room_ok = {0} if b3_on_table + b3 <= 4 and (b3_on_table or b3 >= 3) else set()
        if allow_discard and (b3 - 1 == 0 or (b3_on_table + b3 - 1 <= 4 and (b3_on_table or b3 - 1 >= 3))):
            room_ok.add(1)
        merged: dict[tuple[int, int], set[int]] = {}
        for (u, d), masks in states.items():
            for e in room_ok:
                if d + e <= 1:
                    merged.setdefault((u, d + e), set()).update(masks)
        states = merged
        if not states:
            return False
    # the wild cards left make or grow the meld of wild cards, or one of them is the discard
    old = melds.get(DEUCE)
    have = old[0] if old is not None else 0
    for (used, dused), masks in states.items():
        for disc in (0, 1):
            if disc and (dused or not allow_discard):
                continue
            r = wilds - used - disc
            if r < 0:
                continue
            if old is None and 0 < r < 3:
                continue
            if have + r > CANASTA:
                continue
            bit = _WILD if have + r == CANASTA else 0
            for m in masks:
                if m | bit | base_mask == ALL_KINDS:
                    return True
    return False


def _with_discard(states: dict[tuple[int, int], set[int]]) -> dict[tuple[int, int], set[int]]:
    return {(u, 1): m for (u, d), m in states.items() if d == 0}


def natural_meld_points(c: Sequence[int], melds: Melds, keep: int) -> int:
    """Points the naturals of ``c`` can surely add toward a side's initial meld while ``keep`` cards stay in
    hand, no meld passing seven cards (R-PEN-6): a lower bound, reached by melding rank by rank (a rank
    with a meld on the table takes its cards one by one; another needs three to start), the cheapest cards
    held back first when cards must be kept."""
    optional: list[int] = []  # values of single cards that may each be held back
    groups: list[int] = []  # the value of each new meld's first three cards
    for k in range(11):
        held = c[k]
        if not held:
            continue
        old = melds.get(k)
        value = KIND_VALUES[k]
        if old is not None:
            optional += [value] * max(0, min(held, CANASTA - old[0] - old[1]))
        elif held >= 3:
            groups.append(3 * value)
            optional += [value] * (min(held, CANASTA) - 3)
    total_cards = sum(c)
    used = len(optional) + 3 * len(groups)
    optional.sort()
    groups.sort()
    while total_cards - used < keep and (optional or groups):
        if optional:
            optional.pop(0)
            used -= 1
        else:
            groups.pop(0)
            used -= 3
    return sum(optional) + sum(groups)


__all__ = ["SEVEN", "CANASTA", "KINDS", "ALL_KINDS", "FOUR_KINDS_DOWN", "canasta_kind", "kinds_mask", "missing_kinds",
           "can_go_out_pennies", "natural_meld_points"]
