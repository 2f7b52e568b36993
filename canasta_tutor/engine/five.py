"""Five-handed Canasta (R-FIVE-1..4): two sides, one of them three players who take turns sitting out.

Each hand is a classic four-player hand at the classic table (seats N, E, S, W; sides NS and EW).  The
variant's side of three is East-West (``Variant.reserve_side``): its three players take turns, so that
two of them play each hand and the third sits out (R-FIVE-1).  North and South, the side of two, play
every hand, so the learner at South never sits out.

:class:`FiveState` (the variant's ``rules="five"``, registered here) is the classic
:class:`~canasta_tutor.engine.state.State` with one more field, ``out``:
the name of the player sitting out this hand.  ``players`` names the four players in the chairs, as in
every variant.  At each new deal the player who sat out comes back into the chair of the one whose turn
it is to sit out: West's chair at deals 1, 3, 5, ..., East's at deals 2, 4, 6, ... (R-FIVE-2).  With
the players A (East), B (West) and C (out) at the first deal, the hands are played by A and B, A and C,
B and C, then A and B again, each sitting out one hand in three.

The hand itself changes nothing in the engine: the classic rules, the classic deck, deal and bonuses
apply, and the side's score is kept in one column whoever played it (R-FIVE-3, R-FIVE-4).

>>> from canasta_tutor.engine.game import Game
>>> state = Game(variant="five-handed").new_initial_state(seed=3, dealer="W")
>>> state.players, state.out
(('N', 'E', 'S', 'W'), 'F')
>>> [rotated(("N", "E", "S", "W"), "F", 0, k) for k in (1, 2, 3)]
[(('N', 'E', 'S', 'F'), 'W'), (('N', 'W', 'S', 'F'), 'E'), (('N', 'W', 'S', 'E'), 'F')]
"""

from __future__ import annotations

from .options import RuleOptions
from .state import State, register_rules
from .variants import Variant, get_variant


def leaving_seat(variant: Variant, deal_no: int) -> int:
    """The chair whose player sits out from deal ``deal_no`` (from 1) on, giving it to the one who sat out
    the deal before (R-FIVE-2): the side's second seat at odd deals, its first at even ones."""
    first, second = variant.side_seats[variant.reserve_side]
    return second if deal_no % 2 else first


def rotated(players: tuple[str, ...], out: str, deal_from: int, deal_to: int,
            variant: Variant | None = None) -> tuple[tuple[str, ...], str]:
    """The players in the chairs and the one sitting out at deal ``deal_to``, from those at ``deal_from``
    (either may be the larger: each new deal swaps the player sitting out with one chair, R-FIVE-2)."""
    v = variant if variant is not None else get_variant("five-handed")
    chairs = list(players)
    if deal_to >= deal_from:
        steps = range(deal_from + 1, deal_to + 1)
    else:
        steps = range(deal_from, deal_to, -1)
    for k in steps:
        seat = leaving_seat(v, k)
        chairs[seat], out = out, chairs[seat]
    return tuple(chairs), out


class FiveState(State):
    """The state of five-handed Canasta: a classic state and ``out``, the player sitting out this hand."""

    __slots__ = ("out",)

    out: str

    def __init__(self, options: RuleOptions | None = None, seed: int = 0, variant: Variant | None = None) -> None:
        if variant is None:
            variant = get_variant("five-handed")
        super().__init__(options, seed, variant)
        self.out = variant.reserve

    def copy(self) -> "FiveState":
        s = State.copy(self)
        assert isinstance(s, FiveState)
        s.out = self.out
        return s

    def sitting_out(self) -> str | None:
        return self.out

    def set_sitting_out(self, name: str) -> None:
        self.out = name

    def first_deal_players(self) -> tuple[tuple[str, ...], str | None]:
        """The chairs and the player sitting out at the first deal (R-FIVE-2)."""
        return rotated(tuple(self.players), self.out, self.deal_no, 0, self.variant)

    def _deal(self) -> None:
        # a new deal after the first: the player who sat out takes the chair of the one whose turn it is
        # to sit out (R-FIVE-2); the first deal's players are those the draw for seats seated
        if self.deal_no > 0:
            chairs, self.out = rotated(tuple(self.players), self.out, self.deal_no - 1, self.deal_no, self.variant)
            self.players = chairs
        super()._deal()


register_rules("five", FiveState)


def five_invariants(state: FiveState) -> list[str]:
    """What must hold of the five players in any state (R-FIVE-1, R-FIVE-2): five different names, the one
    sitting out in no chair."""
    v: list[str] = []
    names = (*state.players, state.out)
    if len(set(names)) != 5 or not state.out:
        v.append(f"five-handed: five different players are needed, not {', '.join(names)} (R-FIVE-1)")
    return v


__all__ = ["FiveState", "rotated", "leaving_seat", "five_invariants"]
