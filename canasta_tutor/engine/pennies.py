"""Pennies from Heaven (R-PEN-1..14): six players in two sides of three, four packs, a face-down packet of
eleven cards for each player, four kinds of canasta of exactly seven cards, and sevens that may not be
discarded until each side has a canasta of them.

:class:`PenniesState` (the variant's ``rules="pennies"``, registered here) is the classic
:class:`~canasta_tutor.engine.state.State` with one more field, ``packets``: the cards of each seat's packet,
face down (an empty list once taken up).  Nobody sees a packet, its owner included (R-PEN-4): an observation
gives its size only, and the search deals its cards among the cards its seat cannot see.

How the engine carries out the rules (rulings 20 to 23 of the rule book):

- A meld of wild cards is kept under the rank of deuces (``melds[side][DEUCE]``), every card of it in the
  meld's first list (its "naturals" there: it has no natural card), so that a summary ``{DEUCE: (n, 0)}``
  counts its cards.  ``meld 2 2 JK`` starts one (the action ``("meld", DEUCE, deuces, jokers, 0)``, three
  cards), ``add JK to 2`` and ``add 2 to 2`` grow it (R-PEN-7).
- No meld passes seven cards (R-PEN-6); one meld per rank stays (R-MELD-7).
- The packet is taken up at the step in which its owner lays the seventh card of any of the side's melds,
  before the turn goes on (a player whose hand that step emptied has eleven cards again); a red three in it
  is laid out with no replacement (R-PEN-4).
- A player with a packet face down may not go out (R-PEN-10), so such a player keeps two cards after any
  step that does not complete a canasta; and a packet never taken up counts against its side (R-PEN-13).
- A seven is discarded only once both sides have a canasta of sevens, or when the hand holds nothing but
  sevens; never to go out (R-PEN-9).  The look-ahead that keeps a turn from a dead end knows this: the
  card kept to go out on is never a seven.
- Legal actions are listed through the full check (as for Italian Canasta): the classic fast paths know
  neither the packets nor the four kinds.

>>> from canasta_tutor.engine.game import Game
>>> state = Game(variant="pennies").new_initial_state(seed=3)
>>> type(state).__name__, state.variant.players, state.variant.side_names
('PenniesState', 6, ('NPW', 'ESQ'))
>>> [len(p) for p in state.packets], len(state.hand("S")), len(state.cards_everywhere())
([11, 11, 11, 11, 11, 11], 13, 216)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import BLACK_THREE, CARD_KIND, CARD_VALUE, DEUCE, JOKER, KIND_NAMES, KIND_VALUES, NUM_KINDS, RED_THREE
from .options import RuleOptions
from .pennies_melds import (
    ALL_KINDS,
    CANASTA,
    FOUR_KINDS_DOWN,
    KINDS,
    SEVEN,
    can_go_out_pennies,
    canasta_kind,
    kinds_mask,
    missing_kinds,
    natural_meld_points,
)
from .scoring import HandResult, SideScore
from .state import DRAW, MELD, Action, State, register_rules
from .variants import Variant, get_variant

def wild_meld_action(deuces: int, jokers: int) -> Action:
    """The action that starts a meld of wild cards with these cards (R-PEN-7), as the notation writes it:
    ``meld 2 2 JK`` is ``("meld", DEUCE, 2, 1, 0)``, and ``meld JK JK JK``, with no deuce, is
    ``("meld", JOKER, 0, 3, 0)``; the meld itself is kept under the rank of deuces either way."""
    return ("meld", DEUCE, deuces, jokers, 0) if deuces else ("meld", JOKER, 0, jokers, 0)


class PenniesState(State):
    """The state of Pennies from Heaven: a classic state, ``packets`` (each seat's face-down cards), and the
    rules of R-PEN-1..14 in the checks and moves it overrides."""

    __slots__ = ("packets",)

    packets: list[list[int]]

    def __init__(self, options: RuleOptions | None = None, seed: int = 0, variant: Variant | None = None) -> None:
        if variant is None:
            variant = get_variant("pennies")
        super().__init__(options, seed, variant)
        self.packets = [[] for _ in range(variant.players)]

    def copy(self) -> "PenniesState":
        s = State.copy(self)
        assert isinstance(s, PenniesState)
        s.packets = [p[:] for p in self.packets]
        return s

    # ------------------------------------------------------------- the deal
    def _deal(self) -> None:
        """The classic deal of thirteen cards each, then a packet of eleven for each seat, face down
        (R-PEN-3).  The packets come from the bottom of the shuffled stock, which is the same as dealing
        them before the stock is set down."""
        super()._deal()
        size = self.variant.packet_size
        players = self.variant.players
        stock = self.stock
        self.packets = [stock[i * size:(i + 1) * size] for i in range(players)]
        del stock[:players * size]

    # ---------------------------------------------------------------- views
    def packet_taken(self, seat: int) -> bool:
        """Whether the seat has taken up its packet (R-PEN-4)."""
        return not self.packets[seat]

    def has_sevens_canasta(self, side: int) -> bool:
        """Whether a side has its canasta of sevens (R-PEN-9, R-PEN-11)."""
        m = self.melds[side].get(SEVEN)
        return m is not None and len(m[0]) + len(m[1]) >= CANASTA

    def sevens_free(self) -> bool:
        """Whether sevens may be discarded: each side has a canasta of sevens (R-PEN-9)."""
        return all(self.has_sevens_canasta(s) for s in range(self.variant.n_sides))

    def side_has_canasta(self, side: int) -> bool:
        return bool(kinds_mask(self.meld_summary(side)))

    def side_canastas(self, side: int) -> int:
        """How many of the four kinds of canasta a side has (R-PEN-8)."""
        return bin(kinds_mask(self.meld_summary(side))).count("1")

    def side_can_go_out(self, side: int) -> bool:
        return kinds_mask(self.meld_summary(side)) == ALL_KINDS

    def meld_summary(self, side: int) -> dict[int, tuple[int, int]]:
        return {k: (len(m[0]), len(m[1])) for k, m in self.melds[side].items()}

    def _enough_canastas(self, summary: dict[int, tuple[int, int]]) -> bool:
        return kinds_mask(summary) == ALL_KINDS

    def _out_lack(self, classic_rule: str = "R-OUT-1") -> tuple[str, str]:
        side = self.sides[self.turn]
        lack = missing_kinds(self.meld_summary(side))
        words = ", ".join(lack) if lack else "none"
        return ("R-PEN-10", f"your side lacks a canasta of each kind (missing: {words})")

    def _can_out(self, counts: list[int], summary: dict[int, tuple[int, int]], allow_discard: bool = True,
                 b3_on_table: int = 0, pending: int = -1) -> bool:
        if not self.packet_taken(self.turn):
            return False  # R-PEN-10: the packet is still face down
        if pending >= 0:
            return False  # four canastas in the turn of the side's initial meld: not looked for (see the docstring)
        return can_go_out_pennies(counts, summary, self.options, allow_discard, b3_on_table)

    def meld_points(self, counts: list[int], summary: dict[int, tuple[int, int]], keep: int) -> int:
        return natural_meld_points(counts, summary, keep)

    # ------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        if self.phase == MELD or self.phase == DRAW:
            return self._legal_checked()
        return super().legal_actions()

    def _candidates(self) -> list[Action]:
        out = super()._candidates()
        if self.phase != MELD:
            return out
        hand = self.hands[self.turn]
        melds = self.melds[self.sides[self.turn]]
        nd, nj = len(hand[DEUCE]), len(hand[JOKER])
        if DEUCE in melds:
            if nd:
                out.append(("add", DEUCE, DEUCE))
            if nj:
                out.append(("add", DEUCE, JOKER))
        else:
            for d in range(3, -1, -1):
                if d <= nd and 3 - d <= nj:
                    out.append(wild_meld_action(d, 3 - d))
        return out

    # -------------------------------------------------------------- checks
    def _why_not_ask(self, seat: int) -> tuple[str, str] | None:
        if self.ask_ok and not self.packet_taken(seat) and not self.asked:
            return ("R-PEN-10", "Your packet still lies face down, so you may not go out: there is nothing to ask")
        return super()._why_not_ask(seat)

    def _why_not_discard(self, seat: int, k: int) -> tuple[str, str] | None:
        hand = self.hands[seat]
        if self.phase == MELD and 0 <= k < NUM_KINDS and hand[k]:
            if k == SEVEN:
                if self.hand_size[seat] == 1:
                    return ("R-PEN-9", "A seven may never be the discard that goes out")
                if not self.sevens_free() and len(hand[SEVEN]) < self.hand_size[seat]:
                    return ("R-PEN-9", "Sevens may not be discarded until each side has a canasta of sevens")
            if self.hand_size[seat] == 1 and not self.packet_taken(seat):
                return ("R-PEN-10", "Your packet still lies face down, so you may not go out: keep a card")
        return super()._why_not_discard(seat, k)

    def _why_not_take(self, seat: int, a: Action) -> tuple[str, str] | None:
        _, k, n, j, d = a
        if self.phase == DRAW and self.pile and 0 <= k < 11 and CARD_KIND[self.pile[-1]] == k:
            m = self.melds[self.sides[seat]].get(k)
            size = 0 if m is None else len(m[0]) + len(m[1])
            if size >= CANASTA:
                return ("R-PEN-6", f"Your side's meld of {KIND_NAMES[k]} is a canasta of seven cards: nothing more "
                        "goes on it, so the pack can't be taken onto it")
            if size + 1 + n + j + d > CANASTA:
                return ("R-PEN-6", f"That would make your meld of {KIND_NAMES[k]} {size + 1 + n + j + d} cards; a "
                        "canasta holds exactly seven")
        return super()._why_not_take(seat, a)

    def _why_not_meld(self, seat: int, a: Action,
                      base: tuple[list[int], dict[int, tuple[int, int]]] | None = None) -> tuple[str, str] | None:
        k = a[1]
        melds = self.melds[self.sides[seat]]
        if k == DEUCE or (a[0] == "meld" and k == JOKER and not a[2] and not a[4]):
            return self._why_not_wild_meld(seat, a)
        if a[0] == "add" and k in melds:
            m = melds[k]
            if len(m[0]) + len(m[1]) >= CANASTA:
                return ("R-PEN-6", f"Your side's meld of {KIND_NAMES[k]} is a canasta of seven cards: nothing more "
                        "may be added to it")
        return super()._why_not_meld(seat, a, base)

    def _why_not_wild_meld(self, seat: int, a: Action) -> tuple[str, str] | None:
        """A meld of wild cards or an addition to it (R-PEN-7): three jokers and deuces to start, one at a time
        after, seven at most (R-PEN-6); then the look-ahead every meld has."""
        side = self.sides[seat]
        hand = self.hands[seat]
        melds = self.melds[side]
        if self.phase != MELD:
            return ("R-TURN-2", "Draw from the stock or take the pack before melding wild cards on their own")
        counts = list(map(len, hand))
        summary = self.meld_summary(side)
        if a[0] == "meld":
            _, _, n, j, d = a
            if DEUCE in melds:
                return ("R-PEN-7", "Your side already has a meld of wild cards: add to it instead")
            if d or n + j != 3:
                return ("R-PEN-7", "Start a meld of wild cards with three of them (deuces and jokers, as "
                        "meld 2 2 JK), then add them one at a time")
            if n > counts[DEUCE] or j > counts[JOKER]:
                return ("R-MELD-1", f"You don't hold those cards: you have {counts[DEUCE]} deuces and "
                        f"{counts[JOKER]} jokers")
            counts[DEUCE] -= n
            counts[JOKER] -= j
            summary[DEUCE] = (3, 0)
            used, points = 3, 20 * n + 50 * j
        else:
            _, _, w = a
            if DEUCE not in melds:
                return ("R-MELD-8", "Your side has no meld of wild cards to add to")
            if w not in (DEUCE, JOKER):
                return ("R-PEN-7", "A meld of wild cards holds jokers and deuces only")
            if not counts[w]:
                return ("R-MELD-8", f"You hold no {'deuce' if w == DEUCE else 'joker'}")
            have = summary[DEUCE][0]
            if have >= CANASTA:
                return ("R-PEN-6", "Your side's meld of wild cards is a canasta of seven: nothing more may be added")
            counts[w] -= 1
            summary[DEUCE] = (have + 1, 0)
            used, points = 1, KIND_VALUES[w]
        left = self.hand_size[seat] - used
        if not self.initial[side]:
            pending = self.pending + points
            need = self.minimums[side]
            if pending < need and pending + natural_meld_points(counts, summary, keep=2) < need:
                return ("R-MIN-1", f"Your melds this turn would count at most "
                        f"{pending + natural_meld_points(counts, summary, keep=2)}; your side's initial meld "
                        f"needs {need}")
            if pending < need:
                return None if left >= 2 else ("R-OUT-2", "Keep a card to discard and one to hold")
        return self._why_not_after(seat, counts, summary, left, b3_on_table=self.b3_melded)

    def _why_not_after(self, seat: int, counts: list[int], summary: dict[int, tuple[int, int]], left: int,
                       b3_on_table: int = 0, same_out: list[bool] | None = None) -> tuple[str, str] | None:
        if not self.packet_taken(seat):
            if self._completes(self.sides[seat], summary):
                return None  # the packet comes up: eleven cards more to finish the turn (R-PEN-4)
            if left <= 1:
                return ("R-PEN-10", "Your packet still lies face down, so you may not go out: keep a card to "
                        "discard and one to hold")
            return None
        why = super()._why_not_after(seat, counts, summary, left, b3_on_table, None)
        if why is not None and why[0] == "R-OUT-2" and left == 1 and counts[SEVEN] == 1 \
                and self._enough_canastas(summary):
            return ("R-PEN-9", "That would leave you a single seven, and a seven may never be the discard that "
                    "goes out")
        return why

    def _completes(self, side: int, summary: dict[int, tuple[int, int]]) -> bool:
        """Whether melds after a step (``summary``) hold a canasta the side's melds now lack."""
        now = self.melds[side]
        for k, (n, w) in summary.items():
            if n + w >= CANASTA and k != BLACK_THREE:
                m = now.get(k)
                if m is None or len(m[0]) + len(m[1]) < CANASTA:
                    return True
        return False

    # --------------------------------------------------------------- apply
    def apply_unchecked(self, a: Action) -> None:
        verb = a[0]
        if (verb == "meld" or verb == "add") and (a[1] == DEUCE or (verb == "meld" and a[1] == JOKER)):
            self.history.append(a)
            seat = self.turn
            hand = self.hands[seat]
            side = self.sides[seat]
            kn = self.known[seat]
            if verb == "meld":
                _, _, n, j, _d = a
                cards = [hand[DEUCE].pop() for _ in range(n)] + [hand[JOKER].pop() for _ in range(j)]
                kn[DEUCE] = max(0, kn[DEUCE] - n)
                kn[JOKER] = max(0, kn[JOKER] - j)
                self.melds[side][DEUCE] = [cards, []]
            else:
                w = a[2]
                cards = [hand[w].pop()]
                if kn[w]:
                    kn[w] -= 1
                self.melds[side][DEUCE][0].append(cards[0])
            self.hand_size[seat] -= len(cards)
            self._after_meld(seat, sum(CARD_VALUE[c] for c in cards), DEUCE)
            return
        super().apply_unchecked(a)

    def _after_meld(self, seat: int, points: int, kind: int) -> None:
        m = self.melds[self.sides[seat]].get(kind)
        if m is not None and len(m[0]) + len(m[1]) == CANASTA:
            self._take_up_packet(seat)
        super()._after_meld(seat, points, kind)

    def _pile_to_hand(self, seat: int, side: int) -> None:
        super()._pile_to_hand(seat, side)
        k = self.history[-1][1]
        m = self.melds[side].get(k)
        if m is not None and len(m[0]) + len(m[1]) == CANASTA:
            self._take_up_packet(seat)

    def _take_up_packet(self, seat: int) -> None:
        """The packet into its owner's hand, unseen by the other seats; red threes laid out with no
        replacement (R-PEN-4)."""
        packet = self.packets[seat]
        if not packet:
            return
        hand = self.hands[seat]
        side = self.sides[seat]
        for card in packet:
            kind = CARD_KIND[card]
            if kind == RED_THREE:
                self.red3[side].append(card)
            else:
                hand[kind].append(card)
                self.hand_size[seat] += 1
        self.packets[seat] = []

    # ------------------------------------------------------- end of a hand
    def cards_left(self, side: int) -> int:
        """The cards held, and the packets never taken up, count against the side (R-SCORE-2, R-PEN-13)."""
        return super().cards_left(side) + sum(CARD_VALUE[c] for seat in self.variant.side_seats[side]
                                              for c in self.packets[seat])

    def score_hand(self) -> HandResult:
        """The score of the hand (R-PEN-8, R-PEN-11, R-PEN-13): the four canasta bonuses, red threes against a
        side with no canasta of sevens, packets never taken up against their side."""
        variant = self.variant
        bonuses = variant.bonuses
        went_side = None if self.went_out is None else self.sides[self.went_out]
        sides: list[SideScore] = []
        for side in range(variant.n_sides):
            counted = dict.fromkeys(KINDS, 0)
            melded = 0
            for k, m in self.melds[side].items():
                melded += sum(CARD_VALUE[c] for c in m[0]) + sum(CARD_VALUE[c] for c in m[1])
                name = canasta_kind(k, len(m[0]), len(m[1]))
                if name is not None:
                    counted[name] += 1
            extra = variant.bonuses.wild_canasta * counted["wild"] + variant.bonuses.sevens_canasta * counted["sevens"]
            red_value = bonuses.red_threes[len(self.red3[side])]
            if not counted["sevens"]:
                red_value = -red_value
            out = bonuses.going_out if went_side == side else 0
            concealed = bonuses.concealed if out and self.concealed else 0
            in_hand = self.cards_left(side)
            bonus = (bonuses.natural_canasta * counted["natural"] + bonuses.mixed_canasta * counted["mixed"]
                     + red_value + out + concealed + extra)
            sides.append(SideScore(natural_canastas=counted["natural"], mixed_canastas=counted["mixed"],
                                   red_threes=red_value, going_out=out, concealed=concealed, melded=melded,
                                   in_hand=-in_hand, total=bonus + melded - in_hand, extra_bonuses=extra))
        return HandResult(deal=self.deal_no,
                          went_out=None if self.went_out is None else variant.seats[self.went_out],
                          concealed=self.concealed, sides=tuple(sides))

    # -------------------------------------------------------------- rebuilt from an observation
    def place_melds(self, obs: Any, take: Callable[[str], int]) -> None:
        """A side's meld of wild cards keeps every card in its first list (see the module docstring)."""
        super().place_melds(obs, take)
        for side in range(self.variant.n_sides):
            m = self.melds[side].get(DEUCE)
            if m is not None:
                self.melds[side][DEUCE] = [m[0] + m[1], []]

    def packet_count(self, seat: int) -> int:
        return len(self.packets[seat])

    def reveals_hidden(self, action: Action) -> bool:
        """A step that completes a canasta while the player's packet is face down takes the packet up (R-PEN-4)."""
        if super().reveals_hidden(action):
            return True
        if not self.packets[self.turn] or action[0] not in ("add", "take"):
            return False
        melds = self.melds[self.sides[self.turn]]
        k = action[1]
        m = melds.get(k)
        size = 0 if m is None else len(m[0]) + len(m[1])
        added = 1 if action[0] == "add" else 1 + action[2] + action[3] + action[4]
        return size < CANASTA <= size + added

    def set_packets(self, packets: list[list[int]]) -> None:
        self.packets = [list(p) for p in packets]

    def cards_everywhere(self) -> list[int]:
        out = super().cards_everywhere()
        for p in self.packets:
            out.extend(p)
        return out


register_rules("pennies", PenniesState)


def pennies_invariants(state: PenniesState) -> list[str]:
    """What must hold of Pennies from Heaven's melds and packets in any state: no meld past seven cards
    (R-PEN-6), a meld of wild cards of wild cards only (R-PEN-7), packets of eleven or none (R-PEN-3,
    R-PEN-4), a packet taken up only by a player whose side has a canasta (R-PEN-4)."""
    from .cards import ALL_CARD_CODES, is_wild  # noqa: PLC0415 - only the invariants need them

    v: list[str] = []
    variant = state.variant
    for side in range(variant.n_sides):
        name = variant.side_names[side]
        for k, (nat, wild) in state.melds[side].items():
            if len(nat) + len(wild) > CANASTA:
                v.append(f"{name} meld of {KIND_NAMES[k]} holds {len(nat) + len(wild)} cards (R-PEN-6)")
            if k == DEUCE and (wild or len(nat) < 3 or any(not is_wild(CARD_KIND[c]) for c in nat)):
                v.append(f"{name} meld of wild cards holds {' '.join(ALL_CARD_CODES[c] for c in nat + wild)} "
                         "(R-PEN-7)")
    for seat in range(variant.players):
        size = len(state.packets[seat])
        if size not in (0, variant.packet_size):
            v.append(f"{variant.seats[seat]}'s packet holds {size} cards (R-PEN-3)")
        if not size and not kinds_mask(state.meld_summary(variant.sides[seat])):
            v.append(f"{variant.seats[seat]} took up a packet, but their side has no canasta (R-PEN-4)")
    return v


def pennies_hand_end(state: PenniesState, got: Sequence[int]) -> list[str]:
    """The end of a hand of Pennies from Heaven, recounted from the cards: who went out had the four kinds
    and a packet taken up (R-PEN-10), and each side's score ``got[side]`` (R-PEN-8, R-PEN-11, R-PEN-13)."""
    from .cards import ALL_CARD_CODES

    def value(c: int) -> int:  # R-CARDS-3 from the card's code alone
        code = ALL_CARD_CODES[c]
        if code == "JK":
            return 50
        if code[0] in "2A":
            return 20
        if code[0] in "89TJQK":
            return 10
        return 0 if code[0] == "3" and code[1] in "HD" else 5

    v: list[str] = []
    variant = state.variant
    if state.went_out is not None:
        side = variant.sides[state.went_out]
        lack = missing_kinds(state.meld_summary(side))
        if lack:
            v.append(f"{variant.seats[state.went_out]} went out, but their side lacks {', '.join(lack)} (R-PEN-10)")
        if state.packets[state.went_out]:
            v.append(f"{variant.seats[state.went_out]} went out with the packet face down (R-PEN-10)")
    bonus_of = {"natural": variant.bonuses.natural_canasta, "mixed": variant.bonuses.mixed_canasta,
                "wild": variant.bonuses.wild_canasta, "sevens": variant.bonuses.sevens_canasta}
    for side in range(variant.n_sides):
        melded = bonus = 0
        sevens = False
        for k, (nat, wild) in state.melds[side].items():
            melded += sum(value(c) for c in nat + wild)
            name = canasta_kind(k, len(nat), len(wild))
            if name is not None:
                bonus += bonus_of[name]
                sevens = sevens or name == "sevens"
        reds = len(state.red3[side])
        red = 1000 if reds == 8 else 100 * reds
        if not sevens:
            red = -red
        out = variant.bonuses.going_out if state.went_out is not None and variant.sides[state.went_out] == side else 0
        conc = variant.bonuses.concealed if out and state.concealed else 0
        minus = sum(value(c) for seat in variant.side_seats[side] for kind in state.hands[seat] for c in kind)
        minus += sum(value(c) for seat in variant.side_seats[side] for c in state.packets[seat])
        want = melded + bonus + red + out + conc - minus
        if got[side] != want:
            v.append(f"{variant.side_names[side]} scored {got[side]} for the hand; the cards give {want} "
                     "(R-PEN-8, R-PEN-11, R-PEN-13)")
    return v


__all__ = ["PenniesState", "SEVEN", "CANASTA", "KINDS", "canasta_kind", "kinds_mask", "missing_kinds",
           "can_go_out_pennies", "natural_meld_points", "pennies_invariants", "wild_meld_action", "pennies_hand_end",
           "FOUR_KINDS_DOWN"]
