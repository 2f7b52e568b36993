"""Italian Canasta (rule book area ITAL): the look-ahead checks and the bonuses the classic code lacks.

The engine plays Italian Canasta through the fields of its :class:`~canasta_tutor.engine.variants.Variant`
(``deuce_melds``, ``pile_always_frozen``, ``initial_without_wilds``, ``pile_start`` and the bonus table);
:class:`~canasta_tutor.engine.state.State` asks the functions here when the variant has deuce melds.  Like
:mod:`canasta_tutor.engine.feasibility` they work on card-kind counts and a side's melds given as
``{kind: (naturals, wilds)}``; a meld of deuces is ``{DEUCE: (deuces, 0)}``.  Standard library only.

How the engine reads the points the rule book leaves open (the report of the session that built it
names them too):

- A meld of deuces (R-ITAL-6) is made of wild cards (ruling 13 calls it the canasta of wild cards), so
  it is never part of a side's initial meld, which may hold no wild card (R-ITAL-7).
- The initial meld is the melding up to the minimum, as in the classic game (R-MIN-4: once the minimum
  is reached, further melds in the same turn are free): the steps that count toward the minimum hold no
  wild card; after the step that reaches it, wild cards may follow in the same turn.  A side that goes
  out below its minimum (R-CONC-2) therefore melds no wild card at all.
- The 3,000 of a canasta of deuces (R-ITAL-10) replaces the R-CAN-2 bonus for that canasta: a side that
  does not go out scores its deuces at card value and "no bonus for them".
- The five-canasta bonuses count natural and mixed canastas (a canasta of deuces is neither); "ten
  canastas of any kind" counts the canasta of deuces too.

>>> from canasta_tutor.engine.options import RuleOptions
>>> from canasta_tutor.engine.cards import DEUCE, JOKER
>>> c = [0] * 15; c[9] = 6; c[8] = 7; c[DEUCE] = 1      # six kings, seven queens and a deuce
>>> can_go_out_italian(c, {}, RuleOptions())                  # the deuce is wild: K canasta, Q canasta
True
>>> can_go_out_italian(c, {DEUCE: (4, 0)}, RuleOptions())     # not while the meld of deuces is short
False
>>> c[DEUCE] = 4                                              # three deuces finish it, the fourth is wild
>>> can_go_out_italian(c, {DEUCE: (4, 0)}, RuleOptions())
True
>>> italian_bonuses(natural=4, mixed=1, deuce_canasta=True, went_out=True, bonuses=_ITALIAN_BONUSES)
4000
"""

from __future__ import annotations

from typing import Sequence

from .cards import DEUCE, JOKER
from .feasibility import Melds, can_go_out, max_meld_points
from .options import RuleOptions
from .pennies_melds import can_go_out_pennies
from .variants import Bonuses, Variant

#: the seven cards of a canasta (R-CAN-1), here of deuces (R-ITAL-6)
DEUCE_CANASTA = 7


def can_go_out_italian(c: Sequence[int], melds: Melds, opts: RuleOptions, allow_discard: bool = True,
                       b3_on_table: int = 0, canastas: int = 2) -> bool:
    """:func:`~canasta_tutor.engine.feasibility.can_go_out` for a side already down in Italian Canasta: the
    canastas counted leave out a canasta of deuces (R-ITAL-8), and the deuces of the hand go to the
    side's meld of deuces, new or on the table, or serve as wild cards, but not while that meld is
    short of a canasta (R-ITAL-6).  A deuce may also be the discard."""
    d = c[DEUCE]
    if not d:
        return can_go_out(c, melds, opts, allow_discard, b3_on_table, canastas)
    cc = list(c)
    own = melds.get(DEUCE)
    for x in range(d + 1):  # x deuces go onto the meld of deuces
        if own is None:
            if 0 < x < 3:
                continue  # a new meld of deuces needs three
            wild_ok = True  # no meld of deuces yet: the wild deuces go down before it is started
        else:
            wild_ok = own[0] + x >= DEUCE_CANASTA
        left = d - x
        cc[DEUCE] = left
        if wild_ok or left == 0:
            if can_go_out(cc, melds, opts, allow_discard, b3_on_table, canastas):
                return True
        elif left == 1 and allow_discard:
            cc[DEUCE] = 0  # the one deuce left over is the discard
            if can_go_out(cc, melds, opts, False, b3_on_table, canastas):
                return True
    return False


def max_natural_points(c: Sequence[int], melds: Melds, opts: RuleOptions, keep: int = 2) -> int:
    """Most points the naturals of ``c`` can add toward a side's initial meld while ``keep`` cards stay
    in hand: the initial meld holds no wild card (R-ITAL-7), so every wild card held is a kept card."""
    nat = list(c)
    wilds = nat[JOKER] + nat[DEUCE]
    nat[JOKER] = nat[DEUCE] = 0
    return max_meld_points(nat, melds, opts, keep=max(0, keep - wilds))


def can_go_out_before_initial(c: Sequence[int], melds: Melds, opts: RuleOptions, allow_discard: bool,
                              b3_on_table: int, canastas: int, pending: int, need: int,
                              deuce_melds: bool = True) -> bool:
    """Whether a side that has not reached its initial-meld minimum (``pending`` of ``need`` counted this
    turn) can still go out this turn: with no wild card melded (the one wild card held may be the
    discard), or by first reaching the minimum with naturals and then melding the rest (R-ITAL-7).
    ``deuce_melds``: whether deuces may be melded as a rank (R-ITAL-6)."""
    def out(cards: Sequence[int], discard: bool) -> bool:
        if deuce_melds:
            return can_go_out_italian(cards, melds, opts, discard, b3_on_table, canastas)
        return can_go_out(cards, melds, opts, discard, b3_on_table, canastas)

    wilds = c[JOKER] + c[DEUCE]
    if not wilds:
        return out(c, allow_discard)
    if wilds == 1 and allow_discard:
        cc = list(c)
        cc[JOKER] = cc[DEUCE] = 0
        if out(cc, False):
            return True
    if pending + max_natural_points(c, melds, opts, keep=0) >= need:
        return out(c, allow_discard)
    return False


def can_go_out_for(variant: Variant, c: Sequence[int], melds: Melds, opts: RuleOptions,
                   allow_discard: bool = True) -> bool:
    """Whether a hand can go out onto a side's melds (already down) in the variant played: the classic
    look-ahead with the variant's canastas, or Italian Canasta's (for the bots and the hint's facts)."""
    if variant.deuce_melds:
        return can_go_out_italian(c, melds, opts, allow_discard, 0, variant.canastas_to_go_out)
    if variant.four_kinds:  # Pennies from Heaven: one canasta of each kind, never out on a seven (R-PEN-9, R-PEN-10)
        return can_go_out_pennies(c, melds, opts, allow_discard)
    return can_go_out(c, melds, opts, allow_discard=allow_discard, canastas=variant.canastas_to_go_out)


def italian_bonuses(natural: int, mixed: int, deuce_canasta: bool, went_out: bool, bonuses: Bonuses) -> int:
    """The further bonuses of R-ITAL-10 for a side with ``natural`` and ``mixed`` canastas (its canasta of
    deuces, if any, not among them): the larger five-canasta bonus it qualifies for, the ten-canasta
    bonus on top, and the canasta of deuces for the side that went out."""
    extra = 0
    if natural >= 5:
        extra += bonuses.five_natural_canastas
    elif natural >= 4 and natural + mixed >= 5:
        extra += bonuses.five_canastas_one_mixed
    if natural + mixed + deuce_canasta >= 10:
        extra += bonuses.ten_canastas
    if deuce_canasta and went_out:
        extra += bonuses.deuce_canasta
    return extra


_ITALIAN_BONUSES = Bonuses(going_out=300, concealed=0, five_canastas_one_mixed=1000, five_natural_canastas=2000,
                           ten_canastas=2000, deuce_canasta=3000)

__all__ = ["can_go_out_italian", "can_go_out_before_initial", "max_natural_points", "italian_bonuses", "can_go_out_for",
           "DEUCE_CANASTA"]
