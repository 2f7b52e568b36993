"""Samba (R-SAMBA-1..10): sequences, several sets of one rank, and the state that plays them.

Design.  A classic side's melds are keyed by rank (``state.melds[side][kind] = [naturals, wilds]``),
one meld per rank, and the classic hot paths (legal actions, feasibility, the bots' summaries) rely on
that.  Samba needs melds that are not sets (sequences of one suit) and several sets of one rank, so
it keeps its melds out of that table: :class:`SambaState`, a subclass of
:class:`~canasta_tutor.engine.state.State` made only for a variant with ``sequences`` on, holds
``smelds[side]``, a list of :class:`SambaMeld` in the order they were made, and a meld is named by its
number in that list (from 0).  The classic ``melds`` table of a Samba state stays empty, and no classic
code path tests the variant, so classic play, speed and every classic digest are unchanged.

Actions (tuples, as in :mod:`canasta_tutor.engine.state`; their text is in :mod:`canasta_tutor.notation.actions`):

=========================  ==================================================================
``("meld", k, n, j, d)``   a new set of rank ``k`` (three cards), also beside a set of that rank
``("run", s, k)``          a new sequence in suit ``s`` (0..3 for S, H, D, C) of kinds k, k+1, k+2
``("put", i, w)``          one card of kind ``w`` onto the side's meld number ``i``: a set takes a
                           natural of its rank or a wild card, a sequence the next card of its suit
                           at either end
``("join", i, i2)``        join the side's set ``i2`` into its set ``i`` of the same rank
``("take", k, n, j, d)``   take the pack melding its top card (kind ``k``) with ``n >= 2`` naturals
                           and ``j + d <= 2`` wild cards from the hand (wild cards only toward the
                           side's initial meld), as a new set
``("takeon", k, i)``       take the pack adding its top card alone to the side's meld number ``i``
=========================  ==================================================================

``draw``, ``discard``, ``ask``, ``yes``, ``no``, ``pass`` and ``deal`` are the classic ones; the
classic ``add`` is refused (R-SAMBA-5: a meld is named by its number).

Checks.  Each action first gets a local check of its cards and meld shapes (R-SAMBA-3..6 and the
classic meld rules).  The rules about the rest of the turn (the initial meld minimum in progress,
keeping a card, going out with two canastas, the partner's yes, melds shown to take the pack) are
then settled exactly: in the meld phase by :func:`canasta_tutor.engine.samba_turn.turn_can_end`, which builds
the final table rank by rank instead of trying move orders; before the take, by trying the few melds
still to show and the takes.  The usual cases (two cards or more left with nothing owed) need neither.
The engine offers every move after which the turn can still end legally, and never one that leads to
a dead end.

Software choices where the book leaves the mechanics open (see docs/variants.md): melds are made in
steps, a sequence of three and then one card at a time (as R-MELD-6's software note does for sets);
the partner is asked only after the draw, since before drawing two cards nobody can know the hand will
go out (R-ASK-1's software note offers the question only when the player could go out); joining
sets is a step of the meld phase and moves no card from the hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import (
    ALL_CARD_CODES,
    BLACK_THREE,
    CARD_KIND,
    CARD_VALUE,
    CARDS_PER_DECK,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_SINGULAR,
    KIND_VALUES,
    NUM_KINDS,
    RED_THREE,
    SUIT_CHARS,
    format_card,
    is_canasta,
    is_wild,
)
from .errors import IllegalActionError
from . import render
from .options import RuleOptions
from .scoring import HandResult, SambaSideScore, SideScore
from .state import (_NATURAL_RANGE, ANSWER, DRAW, GAME_OVER, HAND_OVER, LIST_FIELDS, MELD, NESTED_FIELDS,
                    SHARED_FIELDS, Action, State, register_rules, state_class)
from .samba_turn import turn_can_end
from .variants import Variant

#: the suit of each card id (0..3 for S, H, D, C; -1 for a joker)
CARD_SUIT: tuple[int, ...] = tuple(-1 if code == "JK" else SUIT_CHARS.index(code[1]) for code in ALL_CARD_CODES)
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: a sequence is a samba, closed, at this length (R-SAMBA-3)
SAMBA_LENGTH = 7
#: the ``suit`` of a meld of wild cards (Bolivia, R-BOL-2): neither a set (-1) nor a sequence (0..3)
WILD_SUIT = -2
#: a meld of wild cards is a bolivia, closed, at this length (R-BOL-2)
BOLIVIA_LENGTH = 7
#: how many settled positions the look-ahead keeps
SETTLED_MAX = 200_000
_SETTLED: dict[tuple[Any, ...], bool] = {}
_SAMBA_VERBS = frozenset(("meld", "run", "put", "join", "take", "takeon", "wild"))
_SHAPES = {"draw": 1, "ask": 1, "yes": 1, "no": 1, "pass": 1, "deal": 1, "discard": 2, "add": 3,
           "meld": 5, "take": 5, "run": 3, "put": 3, "join": 3, "takeon": 3, "wild": 3}
_DISCARDS = tuple(("discard", k) for k in range(NUM_KINDS - 1))
_ACE = 10  # the highest kind a sequence reaches (kinds 0..10 are 4 up to the ace)


class SambaMeld:
    """One meld of a Samba side: a set (``suit == -1``; ``naturals`` of one rank, ``wilds``) or a
    sequence (``suit`` 0..3; ``naturals`` of that suit in ascending order, no wilds); in Bolivia also a
    meld of wild cards (``suit == WILD_SUIT``; no naturals, its cards in ``wilds``, R-BOL-2), whose kind
    is the joker's."""

    __slots__ = ("suit", "naturals", "wilds")

    def __init__(self, suit: int, naturals: list[int], wilds: list[int] | None = None) -> None:
        self.suit = suit
        self.naturals = naturals
        self.wilds = wilds if wilds is not None else []

    def copy(self) -> "SambaMeld":
        return SambaMeld(self.suit, self.naturals[:], self.wilds[:])

    @property
    def is_sequence(self) -> bool:
        return self.suit >= 0

    @property
    def is_wild(self) -> bool:
        """A meld of wild cards (Bolivia, R-BOL-2)."""
        return self.suit == WILD_SUIT

    @property
    def kind(self) -> int:
        """A set's rank; a sequence's lowest kind; the joker's kind for a meld of wild cards."""
        return CARD_KIND[self.naturals[0]] if self.naturals else JOKER

    @property
    def high(self) -> int:
        """A sequence's highest kind (a set's rank)."""
        return CARD_KIND[self.naturals[-1]] if self.naturals else JOKER

    def __len__(self) -> int:
        return len(self.naturals) + len(self.wilds)

    @property
    def is_canasta(self) -> bool:
        """A samba (a sequence of seven, R-SAMBA-3), a bolivia (seven wild cards, R-BOL-2) or a set canasta
        (R-CAN-1)."""
        if self.suit >= 0:
            return len(self.naturals) >= SAMBA_LENGTH
        if self.suit == WILD_SUIT:
            return len(self.wilds) >= BOLIVIA_LENGTH
        return is_canasta(len(self.naturals), len(self.wilds))

    def cards(self) -> list[int]:
        return self.naturals + self.wilds

    def describe(self) -> str:
        """``"sequence of hearts 7-9"`` or ``"set of kings"``, for messages."""
        if self.suit >= 0:
            return f"sequence of {SUIT_NAMES[self.suit]} {KIND_SINGULAR[self.kind]} to {KIND_SINGULAR[self.high]}"
        if self.suit == WILD_SUIT:
            return "meld of wild cards"
        return f"set of {KIND_NAMES[self.kind]}"

    def __repr__(self) -> str:
        return f"SambaMeld({self.suit}, {' '.join(ALL_CARD_CODES[c] for c in self.cards())})"


def _find(cards: list[int], suit: int) -> int:
    """The index in ``cards`` of a card of ``suit``, or -1."""
    for i, c in enumerate(cards):
        if CARD_SUIT[c] == suit:
            return i
    return -1


def _action_points(a: Action) -> int:
    verb = a[0]
    if verb == "meld" or verb == "take":
        return int((a[2] + (1 if verb == "take" else 0)) * KIND_VALUES[a[1]] + 50 * a[3] + 20 * a[4]) + (
            1000 if verb == "take" else 0)
    if verb == "run":
        return sum(KIND_VALUES[a[2] + i] for i in range(3))
    if verb == "put":
        return KIND_VALUES[a[2]]
    if verb == "wild":
        return int(50 * a[1] + 20 * a[2])
    if verb == "takeon":
        return 1000
    return 0


class SambaState(State):
    """A game of Samba in progress (see the module docstring).  Create one with
    ``Game(variant="samba").new_initial_state(seed)``.

    >>> from canasta_tutor import Game
    >>> state = Game(variant="samba").new_initial_state(seed=1)
    >>> type(state).__name__, len(state.cards_everywhere()), len(state.hand(state.current_seat)) >= 15
    ('SambaState', 162, True)
    """

    __slots__ = ("smelds", "probe")

    smelds: list[list[SambaMeld]]
    probe: bool

    def __init__(self, options: RuleOptions | None = None, seed: int = 0, variant: Variant | None = None) -> None:
        if variant is None:
            from .variants import get_variant

            variant = get_variant("samba")
        super().__init__(options, seed, variant)
        self.smelds = [[] for _ in range(variant.n_sides)]
        self.probe = False

    def copy(self) -> "SambaState":
        s = State.copy(self)
        assert isinstance(s, SambaState)
        s.smelds = [[m.copy() for m in side] for side in self.smelds]
        s.probe = False
        return s

    def __copy__(self) -> "SambaState":
        return self.copy()

    def _probe_copy(self) -> "SambaState":
        """A light copy for the turn look-ahead: only what melds and takes change is copied (the
        other seats' hands and the stock are shared, since the look-ahead never touches them)."""
        s = type(self).__new__(type(self))  # a subclass (Bolivia) probes as itself
        for name in SHARED_FIELDS + LIST_FIELDS + NESTED_FIELDS:  # shared; what the look-ahead changes follows
            setattr(s, name, getattr(self, name))
        seat = self.turn
        hands = self.hands[:]
        hands[seat] = [k[:] for k in self.hands[seat]]
        s.hands = hands
        s.hand_size = self.hand_size[:]
        known = self.known[:]
        known[seat] = self.known[seat][:]
        s.known = known
        s.initial = self.initial[:]
        s.red3 = [r[:] for r in self.red3]
        s.pile = self.pile[:]
        s.smelds = [[m.copy() for m in side] for side in self.smelds]
        s.history = []
        s.probe = True
        return s

    def _deal(self) -> None:
        self.smelds = [[] for _ in range(self.variant.n_sides)]
        super()._deal()

    # ---------------------------------------------------------------- views
    def samba_melds(self, side: int) -> list[SambaMeld]:
        """A side's melds, in the order made (a meld's number is its index here)."""
        return self.smelds[side]

    def listed_melds(self, side: int) -> list[SambaMeld]:
        return self.smelds[side]

    def has_table_melds(self, side: int) -> bool:
        return bool(self.smelds[side])

    def black_threes_melded(self, side: int) -> int:
        return sum(len(m.naturals) for m in self.smelds[side] if m.suit < 0 and m.kind == BLACK_THREE)

    def sequence_suit(self, cards: Sequence[int]) -> int | None:
        """A sequence is three to seven natural cards of one suit in a row, from 4 up to the ace (R-SAMBA-3)."""
        kinds = sorted(CARD_KIND[c] for c in cards)
        suits = {CARD_SUIT[c] for c in cards}
        if (any(is_wild(k) for k in kinds) or len(suits) != 1 or not 3 <= len(kinds) <= SAMBA_LENGTH
                or kinds[-1] > _ACE or kinds != list(range(kinds[0], kinds[0] + len(kinds)))):
            return None
        return suits.pop()

    def lay_meld(self, side: int, naturals: list[int], wilds: list[int], suit: int = -1) -> None:
        """Samba's melds go on the side's numbered list, a sequence's cards in ascending order."""
        if suit >= 0:
            naturals = sorted(naturals, key=lambda c: CARD_KIND[c])
        self.smelds[side].append(SambaMeld(suit, naturals, wilds))

    def own_hand_codes(self, obs: Any) -> tuple[str, ...]:
        """The observing seat's hand with its suits: a sequence's cards are of one suit (R-SAMBA-3)."""
        return tuple(obs.hand_order)

    def place_melds(self, obs: Any, take: Callable[[str], int]) -> None:
        """The classic sets by rank, and Samba's numbered melds in the order made; a side's meld of black
        threes (going out) is the turn's count of them melded."""
        super().place_melds(obs, take)
        for side, melds in enumerate(obs.samba_melds):
            for suit, codes in melds:
                cards = [take(c) for c in codes]
                self.smelds[side].append(SambaMeld(suit, [c for c in cards if not is_wild(CARD_KIND[c])],
                                                   [c for c in cards if is_wild(CARD_KIND[c])]))
                if suit < 0 and CARD_KIND[cards[0]] == BLACK_THREE and side == self.variant.sides[obs.turn]:
                    self.b3_melded = len(cards)

    def side_canastas(self, side: int) -> int:
        """How many canastas a side has: set canastas and sambas (R-SAMBA-3, R-SAMBA-7)."""
        return sum(1 for m in self.smelds[side] if m.is_canasta)

    def side_has_canasta(self, side: int) -> bool:
        return self.side_canastas(side) > 0

    def side_can_go_out(self, side: int) -> bool:
        """Whether a side has the two canastas going out needs (R-SAMBA-7)."""
        return self.side_canastas(side) >= self.out_need

    def explain_go_out(self, seat: int) -> IllegalActionError | None:
        """None if ``seat`` could meld its whole hand (keeping at most one card to discard) and go out
        now with two canastas (R-SAMBA-7), else the rule and reason why not."""
        err = self._go_out_turn_refusal(seat)
        if err is not None:
            return err
        probe = self._probe_copy()
        probe.must_out = True
        if probe._settle():
            return None
        if not self.side_can_go_out(self.sides[seat]):
            rule, lack = self._out_lack()
            return IllegalActionError(rule, f"You can't go out: {lack}, and your hand can't make them while "
                                      "melding every card", ("discard", 0))
        return IllegalActionError("R-OUT-1", "You can't go out: you can't meld every card in your hand (keeping "
                                  "at most one to discard)", ("discard", 0))

    def cards_everywhere(self) -> list[int]:
        out = State.cards_everywhere(self)
        for side in self.smelds:
            for m in side:
                out.extend(m.naturals)
                out.extend(m.wilds)
        return out

    # ------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to act (the candidates :meth:`explain` accepts)."""
        if self.phase in (ANSWER, HAND_OVER, GAME_OVER):
            return self._candidates()
        return [a for a in self._candidates() if self._check(a) is None]

    def _candidates(self) -> list[Action]:
        phase = self.phase
        if phase == ANSWER:
            return [("yes",), ("no",)]
        if phase == HAND_OVER:
            return [("deal",)]
        if phase == GAME_OVER:
            return []
        seat = self.turn
        hand = self.hands[seat]
        out: list[Action] = []
        if phase == DRAW:
            if not self.shown and self.stock:
                out.append(("draw",))
            out.extend(self._take_moves(seat))
            if not self.initial[self.sides[seat]] and self.pile:
                top = CARD_KIND[self.pile[-1]]
                if top < 11 and len(hand[top]) >= 2:
                    out.extend(self._meld_moves(seat, exclude=top))
            if not self.stock and not self.shown:
                out.append(("pass",))
            return out
        out.extend(self._meld_moves(seat))
        for k in range(NUM_KINDS - 1):
            if hand[k]:
                out.append(_DISCARDS[k])
        if self.ask_ok and not self.asked and not self.melded_turn and not self.took_pack:
            out.append(("ask",))
        return out

    def _take_moves(self, seat: int) -> list[Action]:
        pile = self.pile
        if not pile:
            return []
        top_card = pile[-1]
        top = CARD_KIND[top_card]
        if top >= 11:
            return []
        hand = self.hands[seat]
        out: list[Action] = []
        n = len(hand[top])
        if n >= 2:
            side = self.sides[seat]
            nj = len(hand[JOKER]) if not self.initial[side] else 0
            nd = len(hand[DEUCE]) if not self.initial[side] else 0
            cap = self.variant.set_wild_cap
            for nn in range(2, n + 1):
                for j in range(min(nj, cap) + 1):
                    for d in range(min(nd, cap - j) + 1):
                        out.append(("take", top, nn, j, d))
        side = self.sides[seat]
        if not self.frozen_for(side):
            suit = CARD_SUIT[top_card]
            for i, m in enumerate(self.smelds[side]):
                if m.is_canasta:
                    continue
                if m.suit < 0:
                    if m.kind == top:
                        out.append(("takeon", top, i))
                elif m.suit == suit and (top == m.kind - 1 or top == m.high + 1):
                    out.append(("takeon", top, i))
        return out

    def _meld_moves(self, seat: int, exclude: int = -1) -> list[Action]:
        """New sets and sequences, additions and joins the hand's cards allow (not yet checked)."""
        hand = self.hands[seat]
        side = self.sides[seat]
        nj = len(hand[JOKER])
        nd = len(hand[DEUCE])
        out: list[Action] = []
        append = out.append
        for k in _NATURAL_RANGE:
            n = len(hand[k])
            if n >= 2 and k != exclude:
                if n >= 3:
                    append(("meld", k, 3, 0, 0))
                if nj:
                    append(("meld", k, 2, 1, 0))
                if nd:
                    append(("meld", k, 2, 0, 1))
        held = [0, 0, 0, 0]  # per suit, a bit per natural kind held
        for k in _NATURAL_RANGE:
            for c in hand[k]:
                held[CARD_SUIT[c]] |= 1 << k
        for s in range(4):
            bits = held[s]
            if bits:
                for k in range(9):
                    if (bits >> k) & 7 == 7:
                        append(("run", s, k))
        if self.phase == MELD:
            if len(hand[BLACK_THREE]) >= 3:
                append(("meld", BLACK_THREE, 3, 0, 0))
            melds = self.smelds[side]
            cap = self.variant.set_wild_cap
            for i, m in enumerate(melds):
                if m.suit >= 0:
                    if len(m.naturals) < SAMBA_LENGTH:
                        lo, hi = m.kind, m.high
                        if lo > 0 and (held[m.suit] >> (lo - 1)) & 1:
                            append(("put", i, lo - 1))
                        if hi < 10 and (held[m.suit] >> (hi + 1)) & 1:
                            append(("put", i, hi + 1))
                    continue
                r = m.kind
                if r == BLACK_THREE:
                    if hand[BLACK_THREE] and len(m.naturals) < 4:
                        append(("put", i, BLACK_THREE))
                    continue
                if hand[r]:
                    append(("put", i, r))
                if len(m.wilds) < cap and not m.is_canasta:
                    if nj:
                        append(("put", i, JOKER))
                    if nd:
                        append(("put", i, DEUCE))
            for i, m in enumerate(melds):
                if m.suit < 0 and m.kind != BLACK_THREE:
                    for i2 in range(i + 1, len(melds)):
                        m2 = melds[i2]
                        if m2.suit < 0 and m2.kind == m.kind:
                            append(("join", i, i2))  # either set may join the other: the one joined
                            append(("join", i2, i))  # into keeps its number
        return out

    def _can_take_or_show(self) -> bool:
        for a in self._candidates():
            if a[0] in _SAMBA_VERBS and self._check(a) is None:
                return True
        return False

    # -------------------------------------------------------------- checks
    def _why_not(self, a: Any) -> tuple[str, str] | None:
        if not isinstance(a, tuple) or not a or not isinstance(a[0], str):
            return ("R-TURN-2", f"{_text(a)} is not an action")
        shape = _SHAPES.get(a[0])
        if shape is None or len(a) != shape or not all(type(x) is int for x in a[1:]):
            return ("R-TURN-2", f"{_text(a)} is not an action")
        verb = a[0]
        if verb in ("discard", "meld", "take", "add", "takeon") and not 0 <= a[1] < NUM_KINDS:
            return ("R-TURN-2", f"{_text(a)} is not an action")
        if verb in ("meld", "take") and any(x < 0 or x > 162 for x in a[2:]):
            return ("R-TURN-2", f"{_text(a)} is not an action")
        return self._check(a)

    def _check(self, a: Action) -> tuple[str, str] | None:
        verb = a[0]
        phase = self.phase
        if phase in (GAME_OVER, HAND_OVER, ANSWER) or verb in ("deal", "yes", "no", "draw", "discard"):
            return State._check(self, a)
        seat = self.turn
        if verb == "add":
            return ("R-SAMBA-5", "In Samba a side may have several melds of one rank: name the meld to add to by "
                    "its number (put)")
        if verb == "pass":
            return self._why_not_pass(seat)
        if verb == "ask":
            return self._why_not_ask_samba(seat)
        if verb == "take" or verb == "takeon":
            why = self._why_not_take_local(seat, a)
        else:
            why = self._why_not_meld_local(seat, a)
        if why is not None:
            return why
        return self._why_not_turn(seat, a)

    def _why_not_pass(self, seat: int) -> tuple[str, str] | None:
        if self.phase != DRAW or self.stock:
            return ("R-STOCK-3", "You may decline the pack only when the stock is empty, instead of drawing")
        if self.shown:
            return ("R-PACK-5", "You have shown melds to take the pack, so you must take it")
        for a in self._take_moves(seat):
            if a[0] == "takeon" and self._check(a) is None:
                return ("R-STOCK-2", "The stock is empty and the top card fits one of your melds, so you must "
                        "take the pack")
        return None

    def _why_not_ask_samba(self, seat: int) -> tuple[str, str] | None:
        if not self.ask_ok:  # pragma: no cover - Samba is a partnership game
            return (f"R-{self.variant.rule_area}-1", "You play alone: there is no partner to ask 'may I go out?'")
        if self.asked:
            return ("R-ASK-3", "You have already asked your partner this turn")
        if self.phase == DRAW:
            return ("R-ASK-1", "In Samba you draw two cards and discard one, so you can know that you are able "
                    "to go out only after drawing: ask then")
        if self.took_pack:
            return ("R-ASK-4", "You can't ask after taking the pack")
        if self.melded_turn:
            return ("R-ASK-4", "You can't ask after melding this turn")
        probe = self._probe_copy()
        probe.must_out = True
        if not probe._settle():
            return ("R-ASK-1", "You can ask only when you are able to go out: you could not meld your whole "
                    "hand (keeping at most one card to discard) with two canastas for your side")
        return None

    def could_have_asked(self) -> bool:
        """Whether the seat to play, holding its hand as it stands, was able to go out after drawing: the one
        time Samba lets it ask (R-ASK-1).  A position in the answer phase is checked with this."""
        probe = self._probe_copy()
        probe.phase, probe.answer, probe.must_out = MELD, None, True
        return probe._settle()

    def _why_not_take_local(self, seat: int, a: Action) -> tuple[str, str] | None:
        """The pack (R-SAMBA-6, R-PACK-1, -3, -5, -7): the cards and the way, not the rest of the turn."""
        side = self.sides[seat]
        why = self._why_not_take_top(a[1]) or self._why_not_take_one_of_one(seat)  # the classic checks
        if why is not None:
            return why
        top_card = self.pile[-1]
        top = CARD_KIND[top_card]
        shown = format_card(top_card, glyphs=True)
        if a[0] == "takeon":
            i = a[2]
            if self.frozen_for(side):
                return ("R-SAMBA-6", f"You can't add the top card alone: {self._frozen_reason(side)}; take it "
                        "with a natural pair of its rank")
            melds = self.smelds[side]
            if not 0 <= i < len(melds):
                return ("R-SAMBA-6", f"Your side has no meld number {i} to add the top card to")
            m = melds[i]
            if m.is_canasta:
                return ("R-SAMBA-6", f"Your {m.describe()} is already a canasta: the top card alone may go only "
                        "onto a meld that is not")
            if m.suit < 0:
                if m.kind != top:
                    return ("R-SAMBA-6", f"{shown} doesn't belong in your {m.describe()}")
            elif m.suit != CARD_SUIT[top_card] or not (top == m.kind - 1 or top == m.high + 1):
                return ("R-SAMBA-6", f"{shown} doesn't extend your {m.describe()} at either end")
            return None
        _, k, n, j, d = a
        if n == 1 and j + d >= 1:
            return ("R-SAMBA-6", "In Samba the top card is never taken with one natural and one wild card: "
                    "you need a natural pair of its rank")
        if n < 2:
            return ("R-SAMBA-6", f"Take the pack with a natural pair of {KIND_NAMES[top]}, or add the top card "
                    "alone to one of your melds by its number")
        why = self._why_not_take_cards(seat, top, n, j, d)
        if why is not None:
            return why
        if j + d > self.variant.set_wild_cap:
            return ("R-SAMBA-4", f"A set may hold at most {self.variant.set_wild_cap} wild cards")
        if (j or d) and self.initial[side]:
            # wild cards go with the pair only toward the initial meld (as in the classic R-PACK-4 and
            # R-PACK-5); once the side is down they are added after the take, one at a time
            return ("R-SAMBA-6", "Take the pack with the natural pair alone (more naturals may join it); add "
                    "wild cards to the new set after")
        if not self.initial[side]:
            return self._why_not_take_initial(side, (n + 1) * KIND_VALUES[top] + 50 * j + 20 * d)
        return None

    def _why_not_meld_local(self, seat: int, a: Action) -> tuple[str, str] | None:  # noqa: C901
        """A new set or sequence, an addition or a join: the cards and the meld's shape."""
        side = self.sides[seat]
        hand = self.hands[seat]
        melds = self.smelds[side]
        verb = a[0]
        cap = self.variant.set_wild_cap
        if verb == "wild" and not self.variant.wild_melds:
            return ("R-MELD-3", "Wild cards can't be melded on their own")
        if self.phase == DRAW:
            top = CARD_KIND[self.pile[-1]] if self.pile else -1
            if verb not in ("meld", "run") or self.initial[side] or top >= 11 or len(hand[top]) < 2:
                return ("R-TURN-2", "Draw from the stock or take the pack before melding")
            if verb == "meld" and a[1] == top:
                return ("R-PACK-5", f"The top card makes your set of {KIND_NAMES[top]} when you take the pack")
            if verb == "meld" and a[1] == BLACK_THREE:
                return ("R-MELD-4", "Black threes can be melded only when going out")
            if verb == "run" and 0 <= a[2] <= top <= a[2] + 2 and len(hand[top]) < 3 and 0 <= a[1] < 4:
                return ("R-PACK-5", f"Keep the natural pair of {KIND_NAMES[top]} to take the pack")
        if verb == "meld":
            _, k, n, j, d = a
            if k == RED_THREE:
                return ("R-RED-1", "Red threes are laid out, never melded")
            if k == DEUCE or k == JOKER:
                return ("R-MELD-3", "Wild cards can't be melded on their own")
            if k == BLACK_THREE:
                if (n, j, d) != (3, 0, 0):
                    return ("R-MELD-4", "Meld three black threes, with no wild card (add a fourth after)")
            elif n + j + d < 3:
                return ("R-MELD-1", "A meld needs at least three cards")
            elif n < 2:
                return ("R-MELD-2", "A meld needs at least two natural cards")
            elif n + j + d != 3:
                return ("R-MELD-6", "Start a meld with three cards, then add cards one at a time")
            if n > len(hand[k]) or j > len(hand[JOKER]) or d > len(hand[DEUCE]):
                return ("R-MELD-1", f"You don't hold those cards: you have {_count(len(hand[k]), k)}"
                        + (f", {_count(len(hand[JOKER]), JOKER)} and {_count(len(hand[DEUCE]), DEUCE)}"
                           if j or d else ""))
            return None
        if verb == "run":
            _, s, k = a
            if not 0 <= s < 4:
                return ("R-TURN-2", f"{_text(a)} is not an action: a suit is 0..3 (S, H, D, C)")
            if not 0 <= k < NUM_KINDS:
                return ("R-TURN-2", f"{_text(a)} is not an action")
            if k + 2 > 10:
                return ("R-SAMBA-3", "A sequence holds natural cards from 4 up to ace, with no wild card and no "
                        "three")
            missing = [KIND_SINGULAR[kk] for kk in range(k, k + 3) if _find(hand[kk], s) < 0]
            if missing:
                return ("R-SAMBA-3", f"You don't hold the {' and '.join(missing)} of {SUIT_NAMES[s]} for that "
                        "sequence")
            return None
        if verb == "add":  # pragma: no cover - refused in _check
            return ("R-SAMBA-5", "Name the meld to add to by its number")
        if self.phase != MELD:
            return ("R-TURN-2", "Draw from the stock or take the pack before melding")
        if verb == "join":
            _, i, i2 = a
            if not (0 <= i < len(melds) and 0 <= i2 < len(melds)) or i == i2:
                return ("R-SAMBA-5", f"Your side has no two melds numbered m{i + 1} and m{i2 + 1} to join")
            m, m2 = melds[i], melds[i2]
            if m.suit >= 0 or m2.suit >= 0:
                return ("R-SAMBA-5", "Only sets are joined; a sequence grows a card at a time")
            if m.kind != m2.kind:
                return ("R-SAMBA-5", f"Only two sets of one rank are joined, not {KIND_NAMES[m.kind]} and "
                        f"{KIND_NAMES[m2.kind]}")
            if m.kind == BLACK_THREE:
                return ("R-MELD-4", "Black threes are melded only when going out, in one meld")
            if len(m.wilds) + len(m2.wilds) > cap:
                return ("R-SAMBA-4", f"The joined set would hold {len(m.wilds) + len(m2.wilds)} wild cards; a set "
                        f"may hold at most {cap}")
            if (m.is_canasta and m2.wilds) or (m2.is_canasta and m.wilds):
                return ("R-SAMBA-4", "Joining would add wild cards to a canasta, and a canasta takes no more wild "
                        "cards")
            return None
        # put
        _, i, w = a
        if not 0 <= w < NUM_KINDS:
            return ("R-TURN-2", f"{_text(a)} is not an action")
        if not 0 <= i < len(melds):
            return ("R-MELD-8", f"Your side has no meld number {i} to add to")
        m = melds[i]
        if not hand[w]:
            return ("R-MELD-8", f"You hold no {KIND_SINGULAR[w]}")
        if m.suit >= 0:
            if w == JOKER or w == DEUCE:
                return ("R-SAMBA-3", "A sequence holds no wild card")
            if w == BLACK_THREE or w == RED_THREE:
                return ("R-SAMBA-3", "A sequence holds no three")
            if len(m.naturals) >= SAMBA_LENGTH:
                return ("R-SAMBA-3", "That sequence is a samba: seven cards, closed to further cards")
            if w != m.kind - 1 and w != m.high + 1:
                return ("R-SAMBA-3", f"A {KIND_SINGULAR[w]} doesn't extend your {m.describe()} at either end")
            if _find(hand[w], m.suit) < 0:
                return ("R-SAMBA-3", f"You hold no {KIND_SINGULAR[w]} of {SUIT_NAMES[m.suit]}")
            return None
        r = m.kind
        if r == BLACK_THREE:
            if w != BLACK_THREE:
                return ("R-MELD-4", "Black threes are melded without wild cards")
            if len(m.naturals) >= 4:
                return ("R-MELD-4", "A meld of black threes has at most four cards")
            return None
        if w != r and w != JOKER and w != DEUCE:
            return ("R-MELD-1", f"A {KIND_SINGULAR[w]} doesn't belong in a set of {KIND_NAMES[r]}")
        if w != r:
            if m.is_canasta:
                return ("R-SAMBA-4", f"Your set of {KIND_NAMES[r]} is a canasta: no wild card may be added to it")
            if len(m.wilds) >= cap:
                return ("R-SAMBA-4", f"Your set of {KIND_NAMES[r]} already holds {cap} wild cards, the most a set "
                        "may hold")
        return None

    def _why_not_turn(self, seat: int, a: Action) -> tuple[str, str] | None:
        """After a locally sound meld, addition, join or take: can the turn still end legally?"""
        side = self.sides[seat]
        verb = a[0]
        # the usual case, settled without a search: two cards or more left, nothing owed
        if self.answer is None and not self.must_out and not (verb == "meld" and a[1] == BLACK_THREE):
            if verb == "take" or verb == "takeon":
                kept = self.hand_size[seat] - (a[2] + a[3] + a[4] if verb == "take" else 0)
                rest = sum(1 for c in self.pile[:-1] if CARD_KIND[c] != RED_THREE)
                if kept + rest >= 2:
                    return None
            elif self.phase == MELD:
                used = {"meld": 3, "run": 3, "wild": 3, "put": 1, "join": 0}[verb]
                ok = self.initial[side] or self.pending + _action_points(a) >= self.minimums[side]
                if ok and self.hand_size[seat] - used >= 2:
                    return None
        child = self._probe_copy()
        child._do(a)
        if child.hand_size[seat] == 0:
            if self.answer is False:
                return ("R-ASK-3", "Your partner said no, so you may not go out this turn")
            if not child.side_can_go_out(side):
                rule, lack = self._out_lack()
                return (rule, f"That would use your last card, but {lack}, so you can't go out")
            return None
        if child._settle():
            return None
        if verb == "meld" and a[1] == BLACK_THREE:
            return ("R-MELD-4", "Black threes can be melded only when you go out this turn, and you could not go "
                    "out after this")
        if child.must_out:
            return ("R-ASK-3", "You must go out this turn, and after this you could not")
        if child.phase == DRAW:
            return ("R-PACK-5", f"After this you could not take the pack: your melds and its top card could not "
                    f"reach your side's minimum of {self.minimums[side]} and leave you a card to discard")
        if self.answer is False and child.hand_size[seat] <= 1:
            return ("R-ASK-3", "Your partner said no, so you must keep a card to discard and one to hold")
        if not child.initial[side]:
            return ("R-MIN-1", f"After this your melds this turn could not reach your side's initial meld of "
                    f"{self.minimums[side]} and leave you a card to discard")
        return ("R-OUT-2", "That would leave you one card, but your side could not go out, and you must keep a "
                "card after discarding")

    def _settle(self) -> bool:
        """:meth:`_completable`, its answers kept in a table shared by every Samba state, keyed by
        everything the answer reads (:meth:`_key`) and emptied when it grows past :data:`SETTLED_MAX`."""
        key = self._key()
        done = _SETTLED.get(key)
        if done is None:
            if len(_SETTLED) > SETTLED_MAX:
                _SETTLED.clear()
            done = _SETTLED[key] = self._completable()
        return done

    def _discard_ok(self, seat: int) -> bool:
        """Whether some discard is legal now (the turn can end): see ``State._why_not_discard``."""
        size = self.hand_size[seat]
        if size == 1:
            return self.answer is not False and self.side_can_go_out(self.sides[seat])
        if self.must_out:
            return False
        return not (self.pending and not self.initial[self.sides[seat]])

    def _key(self) -> tuple[Any, ...]:
        """Everything the turn look-ahead reads: the hand (by card code), the side's melds (by shape), the
        turn flags, the side's minimum and, before the draw, the pile and its freeze."""
        seat = self.turn
        side = self.sides[seat]
        hand = tuple(sorted(c % CARDS_PER_DECK for k in self.hands[seat] for c in k))
        melds = tuple(sorted((m.suit, m.kind, len(m.naturals), len(m.wilds)) for m in self.smelds[side]))
        pile = (tuple(c % CARDS_PER_DECK for c in self.pile), self.freeze_at >= 0) if self.phase == DRAW else ()
        return (self.variant.name, hand, melds, self.pending, self.phase, pile, self.must_out, self.answer,
                self.initial[side], self.minimums[side])

    def _completable(self) -> bool:
        """Whether the turn can still end legally from here (a probe copy after drawing, or after showing
        melds to take the pack): a discard, or melds and additions to one, or going out.  In the meld
        phase this is settled exactly by :func:`~canasta_tutor.engine.samba_turn.turn_can_end`; before the take,
        by trying the melds still to show and the takes in turn (each a few cards of a small hand)."""
        seat = self.turn
        if self.phase == MELD:
            return self._discard_ok(seat) or self._turn_can_end(seat)
        return self._take_completable(seat, {})

    def _turn_can_end(self, seat: int) -> bool:
        """:func:`~canasta_tutor.engine.samba_turn.turn_can_end` for this meld-phase position."""
        side = self.sides[seat]
        hand = self.hands[seat]
        counts = [[0, 0, 0, 0] for _ in _NATURAL_RANGE]
        for k in _NATURAL_RANGE:
            row = counts[k]
            for c in hand[k]:
                row[CARD_SUIT[c]] += 1
        sets: dict[int, list[tuple[int, int]]] = {}
        black: list[int] = []
        runs: list[list[tuple[int, int]]] = [[], [], [], []]
        sambas = bolivias = 0
        wild_sets: list[int] = []
        for m in self.smelds[side]:
            if m.suit == WILD_SUIT:  # Bolivia's melds of wild cards (R-BOL-2)
                if m.is_canasta:
                    bolivias += 1
                else:
                    wild_sets.append(len(m.wilds))
            elif m.suit >= 0:
                if len(m.naturals) >= SAMBA_LENGTH:
                    sambas += 1
                else:
                    runs[m.suit].append((m.kind, m.high))
            elif m.kind == BLACK_THREE:
                black.append(len(m.naturals))
            else:
                sets.setdefault(m.kind, []).append((len(m.naturals), len(m.wilds)))
        return turn_can_end(tuple(tuple(row) for row in counts), len(hand[JOKER]), len(hand[DEUCE]),
                            len(hand[BLACK_THREE]), len(hand[RED_THREE]),
                            {k: tuple(sorted(v)) for k, v in sets.items()}, tuple(black),
                            tuple(tuple(sorted(r)) for r in runs), sambas, must_out=self.must_out,
                            answer=self.answer, initial=self.initial[side], pending=self.pending,
                            minimum=self.minimums[side], need=self.out_need, cap=self.variant.set_wild_cap,
                            wild_sets=tuple(sorted(wild_sets)) if self.variant.wild_melds else None,
                            bolivias=bolivias, need_sequence=self.variant.out_needs_sequence)

    def _take_completable(self, seat: int, known: dict[tuple[Any, ...], bool]) -> bool:
        """Before the take, with melds shown (R-PACK-5): whether some more melds from the hand and a take
        lead to a position where the turn can end.  Every move here makes a new set or sequence of three
        or takes the pack, so the positions are few; ``known`` keeps those already settled."""
        key = self._key()
        done = known.get(key)
        if done is not None:
            return done
        side = self.sides[seat]
        top = CARD_KIND[self.pile[-1]] if self.pile else -1
        moves = [a for a in self._take_moves(seat) if a[0] == "take"] + self._meld_moves(seat, exclude=top)
        ok = False
        for a in moves:
            if (self._why_not_take_local(seat, a) if a[0] == "take" else self._why_not_meld_local(seat, a)) is not None:
                continue
            child = self._probe_copy()
            child._do(a)
            if child.hand_size[seat] == 0:
                ok = child.answer is not False and child.side_can_go_out(side)
            elif child.phase == DRAW:
                ok = child._take_completable(seat, known)
            else:
                ok = child._settle()
            if ok:
                break
        known[key] = ok
        return ok

    # --------------------------------------------------------------- apply
    def apply_unchecked(self, a: Action) -> None:
        if a[0] in _SAMBA_VERBS:
            self.history.append(a)
            self._do(a)
        else:
            State.apply_unchecked(self, a)

    def _take_card(self, seat: int, kind: int, suit: int = -1) -> int:
        """Remove a card of ``kind`` (of ``suit`` when given) from the seat's hand."""
        cards = self.hands[seat][kind]
        card = cards.pop() if suit < 0 else cards.pop(_find(cards, suit))
        self.hand_size[seat] -= 1
        kn = self.known[seat]
        if kn[kind]:
            kn[kind] -= 1
        return card

    def _do(self, a: Action) -> None:
        verb = a[0]
        seat = self.turn
        side = self.sides[seat]
        melds = self.smelds[side]
        if verb == "meld":
            _, k, n, j, d = a
            nat = [self._take_card(seat, k) for _ in range(n)]
            wild = [self._take_card(seat, JOKER) for _ in range(j)] + [self._take_card(seat, DEUCE) for _ in range(d)]
            melds.append(SambaMeld(-1, nat, wild))
            if k == BLACK_THREE:
                self.must_out = True
                self.b3_melded = n
            self._after(seat, sum(CARD_VALUE[c] for c in nat + wild))
        elif verb == "wild":  # a new meld of wild cards (Bolivia, R-BOL-2)
            _, j, d = a
            cards = [self._take_card(seat, JOKER) for _ in range(j)] + [self._take_card(seat, DEUCE) for _ in range(d)]
            melds.append(SambaMeld(WILD_SUIT, [], cards))
            self._after(seat, sum(CARD_VALUE[c] for c in cards))
        elif verb == "run":
            _, s, k = a
            cards = [self._take_card(seat, kk, s) for kk in range(k, k + 3)]
            melds.append(SambaMeld(s, cards))
            self._after(seat, sum(CARD_VALUE[c] for c in cards))
        elif verb == "put":
            _, i, w = a
            m = melds[i]
            if m.suit >= 0:
                card = self._take_card(seat, w, m.suit)
                if w < m.kind:
                    m.naturals.insert(0, card)
                else:
                    m.naturals.append(card)
            else:
                card = self._take_card(seat, w)
                if w == m.kind and m.suit != WILD_SUIT:
                    m.naturals.append(card)
                else:
                    m.wilds.append(card)
                if w == BLACK_THREE:
                    self.b3_melded = len(m.naturals)
            self._after(seat, CARD_VALUE[card])
        elif verb == "join":
            _, i, i2 = a
            m, m2 = melds[i], melds[i2]
            m.naturals.extend(m2.naturals)
            m.wilds.extend(m2.wilds)
            del melds[i2]
        elif verb == "take" or verb == "takeon":
            self._take_samba(seat, a)

    def _after(self, seat: int, points: int) -> None:
        side = self.sides[seat]
        self.melded_turn = True
        if self.phase == DRAW:
            self.shown = True
            self.pending += points
        elif not self.initial[side]:
            self.pending += points
            if self.pending >= self.minimums[side]:
                self.initial[side] = True
        if self.hand_size[seat] == 0 and not self.probe:
            self._go_out(seat)

    def _take_samba(self, seat: int, a: Action) -> None:
        side = self.sides[seat]
        top = self.pile.pop()
        if a[0] == "take":
            _, k, n, j, d = a
            nat = [top] + [self._take_card(seat, k) for _ in range(n)]
            wild = [self._take_card(seat, JOKER) for _ in range(j)] + [self._take_card(seat, DEUCE) for _ in range(d)]
            self.smelds[side].append(SambaMeld(-1, nat, wild))
        else:
            m = self.smelds[side][a[2]]
            if m.suit >= 0 and CARD_KIND[top] < m.kind:
                m.naturals.insert(0, top)
            else:
                m.naturals.append(top)
        self._pile_to_hand(seat, side)
        if self.hand_size[seat] == 0 and not self.probe:
            self._go_out(seat)

    # ------------------------------------------------------------- scoring
    def score_hand(self) -> HandResult:
        """The score of the hand (R-SAMBA-9): card points, 500 and 300 for set canastas, 1,500 for each
        samba, 200 for going out (nothing more concealed), and red threes that count for a side only
        with two canastas (otherwise against it)."""
        variant = self.variant
        bonuses = variant.bonuses
        went_side = None if self.went_out is None else self.sides[self.went_out]
        sides: list[SideScore] = []
        for side in range(variant.n_sides):
            natural = mixed = sambas = melded = 0
            for m in self.smelds[side]:
                melded += sum(CARD_VALUE[c] for c in m.naturals) + sum(CARD_VALUE[c] for c in m.wilds)
                if m.is_canasta:
                    if m.suit >= 0:
                        sambas += 1
                    elif m.wilds:
                        mixed += 1
                    else:
                        natural += 1
            red_value = bonuses.red_threes[len(self.red3[side])]
            if natural + mixed + sambas < variant.red_threes_need_canastas:
                red_value = -red_value
            out = bonuses.going_out if went_side == side else 0
            concealed = bonuses.concealed if out and self.concealed else 0
            in_hand = sum(CARD_VALUE[c] for seat in variant.side_seats[side] for cards in self.hands[seat]
                          for c in cards)
            bonus = (bonuses.natural_canasta * natural + bonuses.mixed_canasta * mixed + variant.samba_bonus * sambas
                     + red_value + out + concealed)
            sides.append(SambaSideScore(natural_canastas=natural, mixed_canastas=mixed, red_threes=red_value,
                                        going_out=out, concealed=concealed, melded=melded, in_hand=-in_hand,
                                        total=bonus + melded - in_hand, sambas=sambas))
        return HandResult(deal=self.deal_no, went_out=None if self.went_out is None else variant.seats[self.went_out],
                          concealed=self.concealed, sides=tuple(sides))


def _count(n: int, kind: int) -> str:
    if n == 0:
        return f"no {KIND_NAMES[kind]}"
    if n == 1:
        return f"one {KIND_SINGULAR[kind]}"
    return f"{n} {KIND_NAMES[kind]}"


def _text(a: Any) -> str:
    try:
        text = repr(render.action_text(a))
    except Exception:  # noqa: BLE001 - anything that is not an action is shown as text
        text = repr(a)
    return text if len(text) <= 60 else text[:60] + "…"


def new_state(options: RuleOptions | None, seed: int, variant: Variant) -> State:
    """The state for a variant: of the class its rules name (:func:`~canasta_tutor.engine.state.state_class`)."""
    return state_class(variant)(options, seed, variant)


register_rules("samba", SambaState)


__all__ = ["SambaState", "SambaMeld", "CARD_SUIT", "SUIT_NAMES", "SAMBA_LENGTH", "WILD_SUIT", "BOLIVIA_LENGTH",
           "new_state"]
