"""Bolivia (R-BOL-1..9): Samba with melds of wild cards, and Chile, the same game under another name.

:class:`BoliviaState` (the variant's ``rules="bolivia"``, registered here) is
:class:`~canasta_tutor.engine.samba.SambaState` with what Bolivia changes:

- a meld of wild cards (``SambaMeld`` with ``suit == WILD_SUIT``, its cards in ``wilds``): three jokers
  and deuces in any mixture to start, one wild card at a time after, a bolivia and closed at seven
  (R-BOL-2, R-BOL-3).  Its action is ``("wild", j, d)``: a new meld of ``j`` jokers and ``d`` deuces,
  ``j + d == 3``; a wild card joins it by number with ``("put", i, w)``, as onto any meld;
- the pack is never taken for a wild top card, nor a natural top card added to a meld of wild cards
  (R-BOL-4);
- going out needs two canastas with a sequence of seven, an escalera, among them (R-BOL-5);
- a black three left in a hand counts 100 against the side (R-BOL-6);
- the figures (150 from 7,000, a bolivia 2,500, game 15,000) are the variant's fields (R-BOL-3, -7, -8).

The rest of the turn (whether it can still end legally) is settled by
:func:`~canasta_tutor.engine.samba_turn.turn_can_end`, which places the wild cards left into melds of wild
cards and asks for the escalera when the variant says so.  Chile (``chile``) is a second name for the same
rules (R-BOL-9, ruling 19).

>>> from canasta_tutor.engine.game import Game
>>> state = Game(variant="bolivia").new_initial_state(seed=1)
>>> type(state).__name__, len(state.cards_everywhere()), state.variant.target
('BoliviaState', 162, 15000)
>>> type(Game(variant="chile").new_initial_state(seed=1)).__name__
'BoliviaState'
"""

from __future__ import annotations

from typing import Any

from .cards import BLACK_THREE, CARD_KIND, DEUCE, JOKER, KIND_VALUES, format_card
from .errors import IllegalActionError
from .options import RuleOptions
from .samba import BOLIVIA_LENGTH, WILD_SUIT, SambaState
from .scoring import BoliviaSideScore, HandResult, SideScore
from .state import DRAW, MELD, Action, register_rules
from .variants import Variant, get_variant


class BoliviaState(SambaState):
    """A game of Bolivia (or Chile) in progress: see the module docstring."""

    __slots__ = ()

    def __init__(self, options: RuleOptions | None = None, seed: int = 0, variant: Variant | None = None) -> None:
        super().__init__(options, seed, variant if variant is not None else get_variant("bolivia"))

    def copy(self) -> "BoliviaState":
        s = SambaState.copy(self)
        assert isinstance(s, BoliviaState)
        return s

    # ------------------------------------------------------------ going out
    def side_escaleras(self, side: int) -> int:
        """A side's sequences of seven, escaleras (R-BOL-1)."""
        return sum(1 for m in self.smelds[side] if m.suit >= 0 and m.is_canasta)

    def side_can_go_out(self, side: int) -> bool:
        """Two canastas, an escalera among them (R-BOL-5)."""
        return self.side_canastas(side) >= self.out_need and self.side_escaleras(side) > 0

    def _out_lack(self, classic_rule: str = "R-OUT-1") -> tuple[str, str]:
        return (self.variant.go_out_rule, "your side needs two canastas, one of them an escalera (a sequence of "
                "seven)")

    def explain_go_out(self, seat: int) -> IllegalActionError | None:
        return SambaState.explain_go_out(self, seat)

    # ------------------------------------------------------- legal actions
    def _meld_moves(self, seat: int, exclude: int = -1) -> list[Action]:
        """Samba's moves, with Bolivia's melds of wild cards: new ones of three, a wild card onto one that is
        not a bolivia; no set move ever goes onto a meld of wild cards, nor joins one (R-BOL-2)."""
        melds = self.smelds[self.sides[seat]]
        wild = {i for i, m in enumerate(melds) if m.suit == WILD_SUIT}
        out = [a for a in super()._meld_moves(seat, exclude)
               if not ((a[0] == "put" and a[1] in wild) or (a[0] == "join" and (a[1] in wild or a[2] in wild)))]
        hand = self.hands[seat]
        nj, nd = len(hand[JOKER]), len(hand[DEUCE])
        if nj + nd >= 3 and (self.phase == MELD or self._may_show(seat)):
            for j in range(min(nj, 3) + 1):
                if 3 - j <= nd:
                    out.append(("wild", j, 3 - j))
        if self.phase == MELD:
            for i in sorted(wild):
                if len(melds[i].wilds) < BOLIVIA_LENGTH:
                    if nj:
                        out.append(("put", i, JOKER))
                    if nd:
                        out.append(("put", i, DEUCE))
        return out

    def _may_show(self, seat: int) -> bool:
        """Before the draw, whether melds may be shown to take the pack for the initial meld (R-PACK-5)."""
        top = CARD_KIND[self.pile[-1]] if self.pile else -1
        return not self.initial[self.sides[seat]] and 0 <= top < 11 and len(self.hands[seat][top]) >= 2

    # -------------------------------------------------------------- checks
    def _why_not_meld_local(self, seat: int, a: Action) -> tuple[str, str] | None:
        verb = a[0]
        hand = self.hands[seat]
        melds = self.smelds[self.sides[seat]]
        if verb == "wild":
            _, j, d = a
            if self.phase == DRAW and not self._may_show(seat):
                return ("R-TURN-2", "Draw from the stock or take the pack before melding")
            if j < 0 or d < 0 or j + d != 3:
                return ("R-BOL-2", "Start a meld of wild cards with three of them, then add one at a time")
            if j > len(hand[JOKER]) or d > len(hand[DEUCE]):
                return ("R-BOL-2", f"You don't hold those wild cards: you have {len(hand[JOKER])} jokers and "
                        f"{len(hand[DEUCE])} deuces")
            return None
        if verb == "meld" and a[1] in (JOKER, DEUCE):
            return ("R-BOL-2", "Wild cards meld on their own as a meld of wild cards (for example 'wild JK 2 2'), "
                    "never as a set of one rank")
        if verb == "join" and self.phase == MELD:
            i, i2 = a[1], a[2]
            if any(0 <= x < len(melds) and melds[x].suit == WILD_SUIT for x in (i, i2)):
                return ("R-BOL-2", "A meld of wild cards is never joined to another meld")
        if verb == "put" and self.phase == MELD and 0 <= a[1] < len(melds) and melds[a[1]].suit == WILD_SUIT:
            w = a[2]
            m = melds[a[1]]
            if w not in (JOKER, DEUCE):
                return ("R-BOL-2", "A meld of wild cards holds wild cards only")
            if not hand[w]:
                return ("R-MELD-8", f"You hold no {'joker' if w == JOKER else 'deuce'}")
            if len(m.wilds) >= BOLIVIA_LENGTH:
                return ("R-BOL-2", "That meld of wild cards is a bolivia: seven cards, closed to further cards")
            return None
        return super()._why_not_meld_local(seat, a)

    def _why_not_take_local(self, seat: int, a: Action) -> tuple[str, str] | None:
        """Samba's take, and R-BOL-4: a wild top card bars the pack; a natural one never goes onto a meld of
        wild cards."""
        if self.pile and CARD_KIND[self.pile[-1]] in (JOKER, DEUCE) and a[0] in ("take", "takeon"):
            return ("R-BOL-4", f"A wild card ({format_card(self.pile[-1], glyphs=True)}) on top bars the pack: "
                    "draw from the stock")
        if a[0] == "takeon":
            melds = self.smelds[self.sides[seat]]
            if 0 <= a[2] < len(melds) and melds[a[2]].suit == WILD_SUIT:
                return ("R-BOL-4", "The top card never goes onto a meld of wild cards")
        return super()._why_not_take_local(seat, a)

    # ------------------------------------------------------------- scoring
    def score_hand(self) -> HandResult:
        """Samba's score (R-SAMBA-9) with 2,500 for each bolivia (R-BOL-3) and 100 against the side for each
        black three left in a hand (R-BOL-6)."""
        samba = SambaState.score_hand(self)
        variant = self.variant
        sides: list[SideScore] = []
        for side, s in enumerate(samba.sides):
            bolivias = sum(1 for m in self.smelds[side] if m.suit == WILD_SUIT and m.is_canasta)
            black = sum(len(self.hands[seat][BLACK_THREE]) for seat in variant.side_seats[side])
            extra_in_hand = black * (variant.black_three_in_hand - KIND_VALUES[BLACK_THREE])
            mixed = s.mixed_canastas - bolivias  # Samba's count takes a bolivia for a mixed canasta
            total = (s.total + bolivias * (variant.wild_meld_bonus - variant.bonuses.mixed_canasta)
                     - extra_in_hand)
            sambas = getattr(s, "sambas", 0)
            sides.append(BoliviaSideScore(natural_canastas=s.natural_canastas, mixed_canastas=mixed,
                                          red_threes=s.red_threes, going_out=s.going_out, concealed=s.concealed,
                                          melded=s.melded, in_hand=s.in_hand - extra_in_hand, total=total,
                                          sambas=sambas, bolivias=bolivias))
        return HandResult(deal=samba.deal, went_out=samba.went_out, concealed=samba.concealed, sides=tuple(sides))


def bolivia_meld_invariants(state: Any) -> list[str]:
    """What must hold of Bolivia's melds of wild cards (R-BOL-2): wild cards only, three to seven of them."""
    v: list[str] = []
    for side, melds in enumerate(state.smelds):
        for i, m in enumerate(melds):
            if m.suit == WILD_SUIT:
                if m.naturals or any(CARD_KIND[c] not in (JOKER, DEUCE) for c in m.wilds):
                    v.append(f"side {side} meld m{i + 1}: a meld of wild cards holds a natural card (R-BOL-2)")
                if not 3 <= len(m.wilds) <= BOLIVIA_LENGTH:
                    v.append(f"side {side} meld m{i + 1}: a meld of wild cards of {len(m.wilds)} cards (R-BOL-2)")
    return v


register_rules("bolivia", BoliviaState)

__all__ = ["BoliviaState", "bolivia_meld_invariants"]
