"""The state of a game of classic partnership Canasta, and the rules that move it.

A :class:`State` covers a whole game: the deals, the turns, the partner's answer
to "may I go out?", the scoring of each hand and the end of the game at 5,000.
It is created by :class:`canasta_tutor.engine.game.Game`.  A state also plays the
game's :class:`~canasta_tutor.engine.variants.Variant` (``state.variant``): its seats
and sides, deck, deal, draw, canastas needed to go out, bonuses and target.

Two entry points change it:

- :meth:`State.apply` is checked: an illegal action raises
  :class:`~canasta_tutor.engine.errors.IllegalActionError` naming the rule and the
  reason, and leaves the state exactly as it was.
- :meth:`State.apply_unchecked` is the fast path for search: it trusts that the
  action came from :meth:`State.legal_actions`.

One check, :meth:`State.explain`, answers both "can I?" and "why not?"; the
legal-action list, :meth:`State.verify` and the widget's buttons all use it.

Actions are plain tuples (see :mod:`canasta_tutor.notation.actions` for the text form):

=====================  =======================================================
``("draw",)``          draw the top card of the stock
``("take", k, n, j, d)`` take the pack, melding its top card (kind ``k``) with
                       ``n`` naturals, ``j`` jokers and ``d`` deuces from hand
``("meld", k, n, j, d)`` a new meld of kind ``k``: ``n`` naturals, ``j`` jokers,
                       ``d`` deuces (three cards; more are added one by one)
``("add", k, w)``      add one card of kind ``w`` to the side's meld of ``k``
``("discard", k)``     discard a card of kind ``k``
``("ask",)``           "Partner, may I go out?"
``("yes",)``/``("no",)`` the partner's answer
``("pass",)``          decline the pack once the stock is empty
``("deal",)``          the next dealer deals the next hand
=====================  =======================================================
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import compress
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import (
    BLACK_THREE,
    ALL_CARD_CODES,
    CARD_KIND,
    CARD_VALUE,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_SINGULAR,
    KIND_TOKENS,
    KIND_VALUES,
    NUM_CARDS,
    NUM_KINDS,
    RED_THREE,
    a_kind,
    format_card,
    is_canasta,
    is_wild,
    shuffle,
    sort_key,
)
from .errors import CanastaError, IllegalActionError
from .feasibility import can_go_out, max_meld_points
from .italian import DEUCE_CANASTA, can_go_out_before_initial, can_go_out_italian, italian_bonuses, max_natural_points
from . import render
from .options import RuleOptions
from .scoring import HandResult, SideScore
from .variants import CLASSIC, Variant

Action = tuple[Any, ...]  # ("draw",), ("take", k, n, j, d), ... see the module docstring

SEATS = "NESW"  # the classic seats; a variant's are ``state.variant.seats``
SIDE_NAMES = ("NS", "EW")
SEAT_NAMES = ("North", "East", "South", "West")
#: how messages name a seat, by letter (a variant's seats without a compass name are "seat X")
_SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
DRAW, MELD, ANSWER, HAND_OVER, GAME_OVER = "draw", "meld", "answer", "hand_over", "game_over"
PHASES = (DRAW, MELD, ANSWER, HAND_OVER, GAME_OVER)

_NATURAL_RANGE = range(11)
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")
_DRAW_ACTION: Action = ("draw",)
_ASK: Action = ("ask",)
_YES: Action = ("yes",)
_NO: Action = ("no",)
_PASS: Action = ("pass",)
_DEAL: Action = ("deal",)


def minimum_for(total: int) -> int:
    """The classic initial-meld minimum for a side's accumulated total (R-MIN-1); a variant's is
    ``state.variant.minimum_for``.

    >>> [minimum_for(t) for t in (-10, 0, 1495, 1500, 2995, 3000)]
    [15, 50, 50, 90, 90, 120]
    """
    return CLASSIC.minimum_for(total)


def _round100(x: int) -> int:
    sign = -1 if x < 0 else 1
    return sign * ((abs(x) + 50) // 100) * 100


def seat_index(seat: int | str, seats: str = SEATS) -> int:
    """Seat as 0..3 from ``0..3`` or ``"N"``, ``"E"``, ``"S"``, ``"W"`` (or a variant's ``seats``)."""
    if isinstance(seat, str):
        i = seats.find(seat.upper())
        if len(seat) != 1 or i < 0:
            raise ValueError(f"{seat!r} is not a seat: use {', '.join(seats[:-1])} or {seats[-1]}")
        return i
    if not 0 <= seat < len(seats):
        raise ValueError(f"{seat!r} is not a seat: use 0..{len(seats) - 1}")
    return seat


def seat_name(letter: str) -> str:
    """A seat as messages name it: ``"South"``, or ``"seat P"`` for a letter with no compass name."""
    return _SEAT_WORDS.get(letter, f"seat {letter}")


def seat_title(letter: str) -> str:
    """:func:`seat_name` with a capital, for titles and status lines: ``"South"``, ``"Seat P"``."""
    word = seat_name(letter)
    return word[0].upper() + word[1:]


def _count_word(n: int, kind: int) -> str:
    if n == 0:
        return f"no {KIND_NAMES[kind]}"
    if n == 1:
        return f"one {KIND_SINGULAR[kind]}"
    return f"{n} {KIND_NAMES[kind]}"


def _holding(hand: list[list[int]], top: int) -> str:
    """"you hold ..." for a refused take: the top card's kind, and the wild cards if any."""
    parts = [_count_word(len(hand[top]), top)] + [_count_word(len(hand[kind]), kind)
                                                  for kind in (JOKER, DEUCE) if hand[kind]]
    return "you hold " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


def _some(n: int, one: str, many: str) -> str:
    """``"one jack"``, ``"two jacks"``, ``"12 jacks"``."""
    return f"one {one}" if n == 1 else f"{_NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else n} {many}"


def _using(top: int, n: int, j: int, d: int) -> str:
    """The cards from the hand a take names: ``"none"``, ``"one 9 and one joker"``."""
    parts = [_count_word(c, kind) for c, kind in ((n, top), (j, JOKER), (d, DEUCE)) if c]
    if not parts:
        return "none of them"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True)
class SeatDraw:
    """One card drawn in the draw for seats (R-SEAT-1, R-SEAT-2)."""

    player: str
    card: str
    redraw: bool


#: A state's fields, declared once, by how a copy takes them: :meth:`State.copy` and Samba's look-ahead copy
#: (:meth:`~canasta_tutor.engine.samba.SambaState._probe_copy`) are made from these tables, and a class's
#: ``__slots__`` is their sum.  A field is *shared* when its value is immutable or only ever replaced whole
#: (the rule options, the variant and its tables, numbers, flags, tuples)...
SHARED_FIELDS: tuple[str, ...] = (
    "options", "variant", "sides", "out_need", "draw_n", "ask_ok", "seed", "deal_no", "dealer", "pile_hidden",
    "freeze_at", "turn", "phase", "pending", "shown", "asked", "answer", "must_out", "melded_turn", "took_pack",
    "b3_melded", "went_out", "concealed", "players", "seat_draws", "winner", "stock_emptied", "stock_fixed",
)
#: ... a *list* when it is a list of values changed in place (copied: ``value[:]``) ...
LIST_FIELDS: tuple[str, ...] = (
    "totals", "deal_totals", "minimums", "hand_size", "pile", "stock", "initial", "first_turn_done", "has_melded",
    "hand_results", "history",
)
#: ... and *nested* when its lists hold lists: the hands (by seat, then kind), the melds (by side, then kind:
#: naturals and wild cards), the red threes and the cards known in each hand, each copied by its shape.
NESTED_FIELDS: tuple[str, ...] = ("hands", "melds", "red3", "known")


class ListedMeld(Protocol):
    """One meld of a variant whose melds are named by number (:attr:`Variant.numbered_melds`), as
    :meth:`State.listed_melds` gives it: a set (``suit == -1``: ``naturals`` of one rank and ``wilds``) or a
    sequence (``suit`` 0..3: ``naturals`` of that suit in ascending order).  Samba's
    :class:`~canasta_tutor.engine.samba.SambaMeld` is one."""

    suit: int
    naturals: list[int]
    wilds: list[int]

    @property
    def is_sequence(self) -> bool: ...
    @property
    def kind(self) -> int: ...
    @property
    def high(self) -> int: ...
    @property
    def is_canasta(self) -> bool: ...
    def __len__(self) -> int: ...


class State:
    """A game in progress.  Create one with :meth:`canasta_tutor.engine.game.Game.new_initial_state`.

    >>> from canasta_tutor import Game
    >>> state = Game().new_initial_state(seed=1)
    >>> state.phase, state.current_seat
    ('draw', 'S')
    >>> ("draw",) in state.legal_actions()
    True
    >>> state.apply(("draw",)); state.phase
    'meld'
    """

    __slots__ = SHARED_FIELDS + LIST_FIELDS + NESTED_FIELDS

    options: RuleOptions
    hands: list[list[list[int]]]
    melds: list[dict[int, list[list[int]]]]
    seed: int
    deal_no: int
    dealer: int
    totals: list[int]
    deal_totals: list[int]
    minimums: list[int]
    hand_size: list[int]
    red3: list[list[int]]
    pile: list[int]
    #: how many cards at the bottom of the pile lie face down (Italian Canasta, R-ITAL-3): nobody sees
    #: them until the pile is taken, and then only the taker
    pile_hidden: int
    freeze_at: int
    stock: list[int]
    turn: int
    phase: str
    initial: list[bool]
    pending: int
    shown: bool
    asked: int
    answer: bool | None
    must_out: bool
    melded_turn: bool
    took_pack: bool
    first_turn_done: list[bool]
    has_melded: list[bool]
    b3_melded: int
    went_out: int | None
    concealed: bool
    hand_results: list[HandResult]
    history: list[Action]
    known: list[list[int]]
    players: tuple[str, ...]
    seat_draws: list[SeatDraw]
    winner: int | None
    stock_emptied: bool
    #: the variant played (classic by default); ``sides[seat]``, ``out_need`` (canastas needed to go
    #: out), ``draw_n`` (cards drawn from the stock) and ``ask_ok`` (seats have partners to ask) are
    #: its tables, kept on the state for the hot paths
    variant: Variant
    sides: tuple[int, ...]
    out_need: int
    draw_n: int
    ask_ok: bool

    # ------------------------------------------------------------------ setup
    def __init__(self, options: RuleOptions | None = None, seed: int = 0, variant: Variant = CLASSIC) -> None:
        self.options = options or RuleOptions()
        self.variant = variant
        self.sides = variant.sides
        self.out_need = variant.canastas_to_go_out
        self.draw_n = variant.draw
        self.ask_ok = variant.partnerships
        players = variant.players
        n_sides = variant.n_sides
        self.seed = seed
        self.deal_no = 0
        self.dealer = 1
        self.totals = [0] * n_sides
        self.deal_totals = [0] * n_sides
        self.minimums = [variant.minimum_for(0)] * n_sides
        self.hands = [[[] for _ in range(NUM_KINDS)] for _ in range(players)]
        self.hand_size = [0] * players
        self.melds = [{} for _ in range(n_sides)]
        self.red3 = [[] for _ in range(n_sides)]
        self.pile = []
        self.pile_hidden = 0
        self.freeze_at = -1
        self.stock = []
        self.turn = 0
        self.phase = DRAW
        self.initial = [False] * n_sides
        self.pending = 0
        self.shown = False
        self.asked = 0
        self.answer = None
        self.must_out = False
        self.melded_turn = False
        self.took_pack = False
        self.first_turn_done = [False] * players
        self.has_melded = [False] * players
        self.b3_melded = 0
        self.went_out = None
        self.concealed = False
        self.hand_results = []
        self.history = []
        self.known = [[0] * NUM_KINDS for _ in range(players)]
        self.players = tuple(variant.seats)
        self.seat_draws = []
        self.winner = None
        self.stock_emptied = False
        # stock[stock_fixed:] are cards a position named on top of the stock (-1: none named)
        self.stock_fixed = -1

    def copy(self) -> "State":
        """A cheap deep copy (lists of small ints are copied, nothing else is shared mutably)."""
        cls = type(self)
        s = cls.__new__(cls)  # (compiled, a subclass is made by its own __new__: canasta_tutor/bots/native.py)
        for name in SHARED_FIELDS:
            setattr(s, name, getattr(self, name))
        for name in LIST_FIELDS:
            setattr(s, name, getattr(self, name)[:])
        s.hands = [[k[:] for k in h] for h in self.hands]
        s.melds = [{k: [m[0][:], m[1][:]] for k, m in side.items()} for side in self.melds]
        s.red3 = [r[:] for r in self.red3]
        s.known = [k[:] for k in self.known]
        return s

    def __copy__(self) -> "State":
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        return self.copy()

    # ------------------------------------------------------------- the deal
    def _deal(self) -> None:
        """Shuffle all the variant's cards (classic 108), cut, deal each seat its hand (classic 11) and
        turn the upcard chain (R-DEAL-2..5; R-TWO-2, R-THREE-2, R-SIX-2, R-SIX-3)."""
        variant = self.variant
        players = variant.players
        n_sides = variant.n_sides
        hand_size = variant.hand_size
        num_cards = variant.num_cards
        rng = random.Random(f"canasta/{self.seed}/{self.deal_no}")
        deck = list(range(num_cards))
        shuffle(rng, deck)
        cut = rng.randrange(1, num_cards)
        deck = deck[cut:] + deck[:cut]
        self.hands = [[[] for _ in range(NUM_KINDS)] for _ in range(players)]
        self.known = [[0] * NUM_KINDS for _ in range(players)]
        # one card at a time from the top of the deck (its end), starting left of the dealer
        top = len(deck)
        for i in range(1, players + 1):
            hand = self.hands[(self.dealer + i) % players]
            for card in deck[top - i::-players][:hand_size]:  # this seat's cards in the order dealt
                hand[CARD_KIND[card]].append(card)
        del deck[top - players * hand_size:]
        self.hand_size = [hand_size] * players
        self.stock = deck
        self.stock_fixed = -1
        self.melds = [{} for _ in range(n_sides)]
        self.red3 = [[] for _ in range(n_sides)]
        self.pile = []
        self.pile_hidden = 0
        self.freeze_at = -1
        self.deal_totals = self.totals[:]
        self.minimums = [variant.minimum_for(t) for t in self.totals]
        self.initial = [False] * n_sides
        self.first_turn_done = [False] * players
        self.has_melded = [False] * players
        self.went_out = None
        self.concealed = False
        self.stock_emptied = False
        chain = CHAIN_KINDS[self.options.upcard_chain]
        if variant.pile_start == "count":
            self._start_pile_by_count(chain)
        else:
            while True:
                card = self.stock.pop()
                self.pile.append(card)
                self._freeze_if_needed(card, upcard=True)
                if CARD_KIND[card] not in chain or not self.stock:
                    break
        self.turn = (self.dealer + 1) % players
        self._start_turn()

    def _start_pile_by_count(self, chain: frozenset[int]) -> None:
        """Italian Canasta's start of the pile (R-ITAL-3, ruling 10): every player, from the dealer's left,
        lays out the red threes dealt and draws their replacements (R-RED-1); then the upcard chain of
        R-DEAL-5 is turned, and as many stock cards as the count of the card that ends it go under it.
        Bottom to top the pile is: the cards laid face down, the chain, its last card on top.  The cards
        laid face down are hidden from every seat (``pile_hidden`` counts them) and, being unseen, never
        freeze the pile (it is frozen anyway, R-ITAL-4)."""
        players = self.variant.players
        for i in range(1, players + 1):
            seat = (self.dealer + i) % players
            self.first_turn_done[seat] = True  # the red threes of the deal are settled here
            reds = self.hands[seat][RED_THREE]
            while reds:
                self.red3[self.sides[seat]].append(reds.pop())
                self.hand_size[seat] -= 1
                if not self._draw_card(seat):  # pragma: no cover - 102 stock cards are never used up here
                    return
        turned: list[int] = []
        while self.stock:
            card = self.stock.pop()
            turned.append(card)
            if CARD_KIND[card] not in chain:
                break
        count = KIND_VALUES[CARD_KIND[turned[-1]]] if turned else 0
        under = [self.stock.pop() for _ in range(min(count, len(self.stock)))]
        self.pile.extend(under)
        self.pile_hidden = len(under)
        for card in turned:
            self.pile.append(card)
            self._freeze_if_needed(card, upcard=True)

    def _freeze_if_needed(self, card: int, upcard: bool = False) -> None:
        if self.freeze_at >= 0:
            return
        kind = CARD_KIND[card]
        if (
            kind == JOKER
            or kind == DEUCE
            or (kind == RED_THREE and upcard)
            or (kind == BLACK_THREE and self.options.black_three == "freezes")
        ):
            self.freeze_at = len(self.pile) - 1

    def _start_turn(self) -> None:
        """Reset the turn flags, lay dealt red threes on a first turn (R-RED-1), and end
        the hand if the stock is empty and the pack cannot be taken (R-STOCK-3)."""
        self.phase = DRAW
        self.pending = 0
        self.shown = False
        self.asked = 0
        self.answer = None
        self.must_out = False
        self.melded_turn = False
        self.took_pack = False
        self.b3_melded = 0
        seat = self.turn
        if not self.first_turn_done[seat]:
            self.first_turn_done[seat] = True
            reds = self.hands[seat][RED_THREE]
            while reds:
                self.red3[self.sides[seat]].append(reds.pop())
                self.hand_size[seat] -= 1
                if not self._draw_card(seat):
                    return
        if not self.stock and not self._can_take_or_show():
            self._end_hand()

    def _draw_card(self, seat: int) -> bool:
        """Draw one card, laying and replacing red threes (R-RED-2).  False if the hand ended (R-STOCK-1)."""
        while True:
            if not self.stock:
                self._end_hand()
                return False
            card = self.stock.pop()
            if not self.stock:
                self.stock_emptied = True
            if CARD_KIND[card] == RED_THREE:
                self.red3[self.sides[seat]].append(card)
                if not self.stock:
                    self._end_hand()
                    return False
                continue
            self.hands[seat][CARD_KIND[card]].append(card)
            self.hand_size[seat] += 1
            return True

    def _can_take_or_show(self) -> bool:
        for a in self._candidates():
            if a[0] in ("take", "meld") and self._check(a) is None:
                return True
        return False

    # ---------------------------------------------------------------- views
    @property
    def actor(self) -> int | None:
        """Seat (0..3) that must act now, or None when the game is over."""
        if self.phase == ANSWER:
            return self.variant.partner_seats[self.turn][0]  # only a seat with a partner can ask
        if self.phase == HAND_OVER:
            return (self.dealer + 1) % len(self.sides)
        if self.phase == GAME_OVER:
            return None
        return self.turn

    @property
    def current_seat(self) -> str | None:
        """Letter of the seat that must act now (``"N"``, ``"E"``, ``"S"``, ``"W"``; a variant's letters)."""
        a = self.actor
        return None if a is None else self.variant.seats[a]

    @property
    def is_game_over(self) -> bool:
        return self.phase == GAME_OVER

    def hand(self, seat: int | str) -> list[str]:
        """The cards a seat holds, as codes sorted for display (threes, 4..A, then wild cards)."""
        cards = [c for k in self.hands[seat_index(seat, self.variant.seats)] for c in k]
        return [ALL_CARD_CODES[c] for c in sorted(cards, key=sort_key)]

    def hand_counts(self, seat: int | str) -> list[int]:
        """Count of each card kind in a seat's hand."""
        return list(map(len, self.hands[seat_index(seat, self.variant.seats)]))

    def meld_summary(self, side: int) -> dict[int, tuple[int, int]]:
        """``{kind: (naturals, wilds)}`` for a side's melds."""
        return {k: (len(m[0]), len(m[1])) for k, m in self.melds[side].items()}

    def frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen against a side (R-FRZ-1, R-FRZ-2, R-FRZ-3)."""
        return self.freeze_at >= 0 or not self.initial[side] or self.variant.pile_always_frozen

    @property
    def final_totals(self) -> tuple[int, ...]:
        """The totals as entered on the score sheet at the end of the game, one per side: rounded to
        the nearest 100 (50 rounds away from zero) when the ``round_totals`` option is on (R-GAME-3).
        The winner is decided on the unrounded totals."""
        if self.phase == GAME_OVER and self.options.round_totals:
            return tuple(_round100(t) for t in self.totals)
        return tuple(self.totals)

    def canasta_top(self, side: int, kind: int) -> str | None:
        """The card shown on top of a finished canasta: a red card for a natural canasta, a black
        card for a mixed one (R-CAN-4).  None if the meld is not a canasta."""
        m = self.melds[side].get(kind)
        if m is None or not is_canasta(len(m[0]), len(m[1])):
            return None
        want_red = not m[1]
        for c in sorted(m[0] + m[1]):
            code = ALL_CARD_CODES[c]
            if code != "JK" and (code[1] in "HD") == want_red:
                return code
        return ALL_CARD_CODES[m[1][0]] if m[1] else ALL_CARD_CODES[m[0][0]]

    def one_short(self, side: int, kind: int) -> bool:
        """Whether a meld is one card short of a canasta: six cards, so its sixth card may be
        turned crosswise (R-INFO-4)."""
        m = self.melds[side].get(kind)
        return m is not None and kind != BLACK_THREE and len(m[0]) + len(m[1]) == 6 and len(m[0]) >= 3

    def side_has_canasta(self, side: int) -> bool:
        return any(is_canasta(len(m[0]), len(m[1])) for m in self.melds[side].values())

    def side_canastas(self, side: int) -> int:
        """How many canastas a side has on the table (in Italian Canasta not counting a canasta of
        deuces, which does not count for going out, R-ITAL-8)."""
        n = sum(1 for m in self.melds[side].values() if is_canasta(len(m[0]), len(m[1])))
        if self.variant.deuce_melds and len(self.melds[side].get(DEUCE, ((),))[0]) >= DEUCE_CANASTA:
            n -= 1
        return n

    def _enough_canastas(self, summary: dict[int, tuple[int, int]]) -> bool:
        """Whether melds given as ``{kind: (naturals, wilds)}`` hold the canastas going out needs."""
        if self.out_need == 1:
            return any(is_canasta(nn, ww) for nn, ww in summary.values())
        if self.variant.deuce_melds:  # a canasta of deuces does not count (R-ITAL-8)
            return sum(1 for k, (nn, ww) in summary.items() if k != DEUCE and is_canasta(nn, ww)) >= self.out_need
        return sum(1 for nn, ww in summary.values() if is_canasta(nn, ww)) >= self.out_need

    def _out_lack(self, classic_rule: str = "R-OUT-1") -> tuple[str, str]:
        """The rule and the words for a side without the canastas going out needs: the classic rule
        (R-OUT-1 or R-OUT-2), or the variant's rule when it needs two (R-TWO-5, R-SIX-4)."""
        if self.out_need == 1:
            return (classic_rule, "your side has no canasta")
        alone = not self.ask_ok
        deuces = " (a canasta of deuces does not count)" if self.variant.deuce_melds else ""
        return (self.variant.go_out_rule, f"{'you have' if alone else 'your side has'} fewer than "
                f"{_NUMBER_WORDS[self.out_need]} canastas{deuces}")

    def _can_out(self, counts: list[int], summary: dict[int, tuple[int, int]], allow_discard: bool = True,
                 b3_on_table: int = 0, pending: int = -1) -> bool:
        """:func:`~canasta_tutor.engine.feasibility.can_go_out` for the variant played, for the side to play:
        ``pending`` is what the side has counted toward an initial meld it has not yet reached (-1: the
        side is down).  Italian Canasta asks :mod:`canasta_tutor.engine.italian` (R-ITAL-6, R-ITAL-7, R-ITAL-8)."""
        variant = self.variant
        if not (variant.deuce_melds or variant.initial_without_wilds):
            return can_go_out(counts, summary, self.options, allow_discard=allow_discard, b3_on_table=b3_on_table,
                              canastas=self.out_need)
        if pending >= 0 and variant.initial_without_wilds:
            return can_go_out_before_initial(counts, summary, self.options, allow_discard, b3_on_table, self.out_need,
                                             pending, self.minimums[self.sides[self.turn]], variant.deuce_melds)
        if variant.deuce_melds:
            return can_go_out_italian(counts, summary, self.options, allow_discard, b3_on_table, self.out_need)
        return can_go_out(counts, summary, self.options, allow_discard=allow_discard, b3_on_table=b3_on_table,
                          canastas=self.out_need)

    def meld_points(self, counts: list[int], summary: dict[int, tuple[int, int]], keep: int) -> int:
        """:func:`~canasta_tutor.engine.feasibility.max_meld_points` toward a side's initial meld: naturals only
        when the variant's initial meld holds no wild card (R-ITAL-7)."""
        if self.variant.initial_without_wilds:
            return max_natural_points(counts, summary, self.options, keep=keep)
        return max_meld_points(counts, summary, self.options, keep=keep)

    def side_can_go_out(self, side: int) -> bool:
        """Whether a side has the canastas going out needs (one, or two in some variants: R-OUT-1,
        R-TWO-5, R-SIX-4)."""
        if self.out_need == 1:
            return self.side_has_canasta(side)
        return self.side_canastas(side) >= self.out_need

    # ------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to act, each counted once.

        Actions that differ only in which of two identical cards is used are
        the same action.  Listing them never changes the state.  The list is
        exactly the actions for which :meth:`explain` finds nothing wrong, in
        the order of the structural candidates; checks that cannot fail are
        skipped (tests/test_legal_fast.py holds the two to each other).
        """
        phase = self.phase
        if phase == MELD or phase == DRAW:
            if self.variant.checked_listing:
                return self._legal_checked()
            return self._legal_meld() if phase == MELD else self._legal_draw()
        if phase == ANSWER:
            return [_YES, _NO]
        if phase == HAND_OVER:
            return [_DEAL]
        return []

    def _legal_checked(self) -> list[Action]:
        """The listing of a variant with ``checked_listing`` (Italian Canasta): the structural candidates
        through the full check (the classic fast paths do not know its deuce melds and frozen pile), the
        hand's counts and meld summary computed once."""
        seat = self.turn
        base: tuple[list[int], dict[int, tuple[int, int]]] | None = None
        out: list[Action] = []
        for a in self._candidates():
            verb = a[0]
            if verb == "meld" or verb == "add":  # as _check, which leads these to _why_not_meld
                if base is None:
                    base = (list(map(len, self.hands[seat])), self.meld_summary(self.sides[seat]))
                why = self._why_not_meld(seat, a, base)
            else:
                why = self._check(a)
            if why is None:
                out.append(a)
        return out

    def _legal_draw(self) -> list[Action]:
        """Legal actions before drawing: draw, ask, the ways to take the pack, melds shown to
        take it, and declining it at an empty stock."""
        seat = self.turn
        side = self.sides[seat]
        hand = self.hands[seat]
        out: list[Action] = []
        if not self.shown:
            if self.stock:
                out.append(_DRAW_ACTION)
                if not self.asked and self.ask_ok and self.draw_n == 1:
                    # R-ASK-1: only with no lone natural, going out without a discard (and a draw of one)
                    melds = self.melds[side]
                    for k in _NATURAL_RANGE:
                        if len(hand[k]) == 1 and k not in melds:
                            break
                    else:
                        if can_go_out(list(map(len, hand)), self.meld_summary(side), self.options,
                                      allow_discard=False, canastas=self.out_need):
                            out.append(_ASK)
        pile = self.pile
        if pile:
            top = CARD_KIND[pile[-1]]
            if top < 11:
                if self.initial[side] and not self.must_out:
                    # a side past its initial meld: a take from the candidates that keeps two cards
                    # or more in hand is legal (what _why_not_take has left to check, the look-ahead
                    # and a one-card hand against a one-card pile, is about one card or none)
                    size = self.hand_size[seat]
                    for a in self._take_candidates(seat):
                        if size - a[2] - a[3] - a[4] >= 2 or self._why_not_take(seat, a) is None:
                            out.append(a)
                else:
                    for a in self._take_candidates(seat):
                        if self._why_not_take(seat, a) is None:
                            out.append(a)
                if not self.initial[side] and len(hand[top]) >= 2:
                    cands: list[Action] = []
                    self._meld_candidates(hand, self.melds[side], cands, exclude=top)
                    if cands:
                        base = (list(map(len, hand)), self.meld_summary(side))
                        for a in cands:
                            if self._why_not_meld(seat, a, base) is None:
                                out.append(a)
        if not self.stock and not self.shown and self._check(_PASS) is None:
            out.append(_PASS)
        return out

    def _legal_meld(self) -> list[Action]:  # noqa: C901 - the candidates and their short cuts
        """Legal actions after drawing: melds and additions, discards and asking."""
        seat = self.turn
        side = self.sides[seat]
        hand = self.hands[seat]
        size = self.hand_size[seat]
        melds = self.melds[side]
        initial = self.initial[side]
        must_out = self.must_out
        out: list[Action] = []
        # the structural meld candidates (as _meld_candidates), counting lone naturals on the way
        counts = list(map(len, hand))
        nj = counts[JOKER]
        nd = counts[DEUCE]
        caps = self.options.wild_caps
        pair_wild = caps[2] >= 1 and (nj or nd)
        lone = 0
        pairs = 0  # kinds held as a pair with no meld: each needs a wild card to go down
        tall = False  # some kind reaches four naturals (meld and hand): a canasta is possible
        points = 50 * nj + 20 * nd  # at least what any melds this turn could count
        held = (2 if nj else 0) | (4 if nd else 0)  # the wild kinds held, as in the _ADD_SETS masks
        pair_held = held if pair_wild else 0
        ask_open = not self.asked and not self.melded_turn and not self.took_pack and self.ask_ok
        if melds and initial and not held:
            # no wild card in hand: only the kinds held go down, joining their melds or as three naturals
            for k in compress(_NATURAL_RANGE, counts):
                n = counts[k]
                if k in melds:
                    out.append(_ADDS[k][0])
                elif n >= 3:
                    out.append(_MELDS[k][0])
                    if n >= 4:
                        tall = True
                elif n == 2:
                    pairs += 1
                else:
                    lone += 1
            if ask_open and not tall and lone <= 1 and not pairs:  # a meld may be the tall kind
                tall = any(len(m[0]) + counts[k] >= 4 for k, m in melds.items() if k < 11)
        elif melds and initial and not ask_open:
            # the actions alone: no minimum to reach (so no points) and no asking (so no counting)
            get = melds.get
            for k, n in zip(_NATURAL_RANGE, counts, strict=False):
                m = get(k)
                if m is not None:
                    out += _ADD_SETS[k][(n > 0) | (held if len(m[1]) < caps[len(m[0])] else 0)]
                elif n >= 2:
                    out += _MELD_SETS[k][(n >= 3) | pair_held]
        elif melds:
            get = melds.get
            for k, n in zip(_NATURAL_RANGE, counts, strict=False):
                m = get(k)
                if m is not None:
                    nat = len(m[0])
                    if nat + n >= 4:
                        tall = True
                    out += _ADD_SETS[k][(n > 0) | (held if len(m[1]) < caps[nat] else 0)]
                elif n >= 2:
                    if n == 2:
                        pairs += 1
                    elif n >= 4:
                        tall = True
                    out += _MELD_SETS[k][(n >= 3) | pair_held]
                elif n == 1:
                    lone += 1
            if not initial:  # the naturals that can go down this turn: additions and new melds
                points += sum(n * KIND_VALUES[k] for k, n in zip(_NATURAL_RANGE, counts, strict=False)
                              if n >= 2 or (n and k in melds))
        else:
            points = 0  # here: the three-or-mores, the pairs when a wild card is held, then the wild cards
            for k in compress(_NATURAL_RANGE, counts):  # the natural kinds held
                n = counts[k]
                if n >= 2:
                    if n >= 3:
                        points += n * KIND_VALUES[k]
                        if n >= 4:
                            tall = True
                    else:
                        pairs += 1
                        if pair_wild:
                            points += 2 * KIND_VALUES[k]
                    out += _MELD_SETS[k][(n >= 3) | pair_held]
                elif n == 1:
                    lone += 1
            if out:
                points += 50 * nj + 20 * nd
        base: tuple[list[int], dict[int, tuple[int, int]]] | None = None
        same_out: list[bool] = []  # can_go_out after any natural addition (see _why_not_after), once known
        b3 = counts[BLACK_THREE]
        closed = (not initial and not self.pending and not must_out and self.answer is None
                  and (bool(out) or b3 > 0) and not self._could_open(counts, side, lone, points))
        if closed:
            out = []  # no first meld can reach the minimum or go out: none is offered (R-MIN-1)
        elif out:
            if initial and not must_out:
                # no minimum to reach: a candidate that leaves two cards or more is always legal
                # (_why_not_after); only those that leave one card or none are checked
                if size < 5 or self.answer is not None:
                    cands = out
                    out = []
                    for a in cands:
                        if size - (1 if a[0] == "add" else 3) >= 2:
                            out.append(a)
                        else:
                            if base is None:
                                base = (counts, self.meld_summary(side))
                            if self._why_not_after_meld(seat, a, base, same_out) is None:
                                out.append(a)
            else:
                base = (counts, self.meld_summary(side))
                cands = out
                out = []
                if initial:
                    for a in cands:
                        if self._why_not_after_meld(seat, a, base, same_out) is None:
                            out.append(a)
                else:
                    for a in cands:
                        if self._first_meld_ok(seat, a, base):
                            out.append(a)
        # black threes go down only when going out (R-MELD-4): always checked
        if b3 and not closed:
            cand: Action | None = None
            b3m = melds.get(BLACK_THREE)
            if b3m is not None:
                if len(b3m[0]) < 4:
                    cand = ("add", BLACK_THREE, BLACK_THREE)
            elif b3 >= 3:
                cand = ("meld", BLACK_THREE, 3, 0, 0)
            if cand is not None and self._check(cand) is None:
                out.append(cand)
        if size == 1:
            if self.answer is not False and self.side_can_go_out(side):
                out.extend(compress(_DISCARDS, hand))
        elif not must_out and not (self.pending and not initial):
            out.extend(compress(_DISCARDS, hand))  # a discard of each kind held
        # asking needs a hand that can go out (R-ASK-1): at most one lone card, a wild card for
        # every unmelded pair (a discard never lowers that need) and a kind that can reach a canasta
        if ask_open and lone <= 1 and tall and pairs <= nj + nd:
            if can_go_out(counts, base[1] if base is not None else self.meld_summary(side), self.options,
                          canastas=self.out_need):
                out.append(_ASK)
        return out

    def _candidates(self) -> list[Action]:
        """Structurally possible actions: the right phase and the cards in hand."""
        phase = self.phase
        if phase == ANSWER:
            return [_YES, _NO]
        if phase == HAND_OVER:
            return [_DEAL]
        if phase == GAME_OVER:
            return []
        seat = self.turn
        hand = self.hands[seat]
        side = self.sides[seat]
        melds = self.melds[side]
        out: list[Action] = []
        if phase == DRAW:
            if not self.shown:
                if self.stock:
                    out.append(_DRAW_ACTION)
                if not self.asked and self.ask_ok:
                    out.append(_ASK)
            out.extend(self._take_candidates(seat))
            if not self.initial[side] and self.pile:
                top = CARD_KIND[self.pile[-1]]
                if top < 11 and len(hand[top]) >= 2:
                    self._meld_candidates(hand, melds, out, exclude=top)
            if not self.stock and not self.shown:
                out.append(_PASS)
            return out
        # MELD phase
        self._meld_candidates(hand, melds, out, exclude=-1)
        if self.variant.deuce_melds:  # deuces as a rank of their own (R-ITAL-6)
            if DEUCE in melds:
                if hand[DEUCE]:
                    out.append(_ADD_DEUCE)
            elif len(hand[DEUCE]) >= 3:
                out.append(_MELD_DEUCES)
        for k in range(NUM_KINDS - 1):
            if hand[k]:
                out.append(_DISCARDS[k])
        if not self.asked and not self.melded_turn and not self.took_pack and self.ask_ok:
            out.append(_ASK)
        return out

    def _meld_candidates(self, hand: list[list[int]], melds: dict[int, list[list[int]]], out: list[Action],
                         exclude: int) -> None:
        nj = len(hand[JOKER])
        nd = len(hand[DEUCE])
        cap = self.options.wild_caps
        append = out.append
        pair_wild = cap[2] >= 1 and (nj or nd)
        for k in _NATURAL_RANGE:
            n = len(hand[k])
            m = melds.get(k) if melds else None
            if m is not None:
                acts = _ADDS[k]
                if n:
                    append(acts[0])
                if len(m[1]) < cap[len(m[0])]:
                    if nj:
                        append(acts[1])
                    if nd:
                        append(acts[2])
            elif n >= 2 and k != exclude:
                acts = _MELDS[k]
                if n >= 3:
                    append(acts[0])
                if pair_wild:
                    if nj:
                        append(acts[1])
                    if nd:
                        append(acts[2])
        if self.phase == MELD:
            # black threes go down only when going out (R-MELD-4): always checked here, so the
            # fast path of legal_actions never offers a black-three meld that strands the player
            b3 = len(hand[BLACK_THREE])
            cand: Action | None = None
            if BLACK_THREE in melds:
                if b3 and len(melds[BLACK_THREE][0]) < 4:
                    cand = ("add", BLACK_THREE, BLACK_THREE)
            elif b3 >= 3:
                cand = ("meld", BLACK_THREE, 3, 0, 0)
            if cand is not None and self._check(cand) is None:
                out.append(cand)

    def _take_candidates(self, seat: int) -> list[Action]:
        pile = self.pile
        if not pile:
            return []
        top = CARD_KIND[pile[-1]]
        if top >= 11:
            return []
        hand = self.hands[seat]
        side = self.sides[seat]
        n = len(hand[top])
        if not self.initial[side]:
            if n < 2:
                return []
            nj = min(len(hand[JOKER]), 3)
            nd = min(len(hand[DEUCE]), 3)
            cap = self.options.wild_cap
            res = []
            for nn in range(2, n + 1):
                c = cap(nn + 1)
                for j in range(min(nj, c) + 1):
                    for d in range(min(nd, c - j) + 1):
                        res.append(("take", top, nn, j, d))
            return res
        takes = _TAKES[top]  # with the top card alone, a natural pair, one natural and a joker or a deuce
        if self.freeze_at >= 0:
            return [takes[1]] if n >= 2 else []
        meld = self.melds[side].get(top)
        res = []
        room = 1
        if meld is not None:
            res.append(takes[0])
            room = self.options.wild_caps[len(meld[0]) + 2] - len(meld[1])
        if n >= 2:
            res.append(takes[1])
        if n >= 1 and room >= 1:
            if hand[JOKER]:
                res.append(takes[2])
            if hand[DEUCE]:
                res.append(takes[3])
        return res

    # -------------------------------------------------------------- checks
    def explain(self, action: Action) -> IllegalActionError | None:
        """None if ``action`` is legal now, else the error that says which rule forbids it and why."""
        why = self._why_not(action)
        if why is None:
            return None
        return IllegalActionError(why[0], why[1], action)

    def explain_for(self, seat: int, action: Action) -> IllegalActionError | None:
        """:meth:`explain` for ``seat``: it also refuses when another seat is to act (R-TURN-1)."""
        actor = self.actor
        if actor is not None and actor != seat and self.phase not in (HAND_OVER, GAME_OVER):
            return IllegalActionError("R-TURN-1", f"It is {seat_name(self.variant.seats[actor])}'s turn to act",
                                      action)
        return self.explain(action)

    def _go_out_turn_refusal(self, seat: int) -> IllegalActionError | None:
        """Why ``seat`` may not go out now whatever its cards (not its turn, not yet drawn, the
        partner said no, ...), or None; the first checks of :meth:`explain_go_out`."""
        err = self.explain_for(seat, ("discard", 0))
        if err is not None and err.rule in ("R-TURN-1", "R-OUT-4", "R-GAME-1", "R-ASK-2"):
            return err
        if self.phase != MELD:
            return IllegalActionError("R-TURN-2", "Draw from the stock or take the pack first; then go out",
                                      ("discard", 0))
        if self.answer is False:
            return IllegalActionError("R-ASK-3", "Your partner said no, so you may not go out this turn",
                                      ("discard", 0))
        return None

    def explain_one_meld(self, kinds: Sequence[int]) -> IllegalActionError | None:
        """Why cards of these ``kinds``, melded together, cannot be one meld because they hold more
        than one rank (R-MELD-1), or None when they are of one rank with wild cards.  For a front end
        that lets a learner pick cards before it finds the actions: its answer names the cards.
        (Samba's sequences hold several ranks of one suit: there the check is the sequence's own.)

        >>> from canasta_tutor import Game
        >>> from canasta_tutor.engine.cards import parse_kind
        >>> state = Game().new_initial_state(seed=1)
        >>> state.explain_one_meld([parse_kind(k) for k in ("7", "7", "J")]).reason
        'A meld holds cards of one rank, and these are two 7s and one jack'
        >>> state.explain_one_meld([parse_kind(k) for k in ("7", "7", "JK")]) is None
        True
        """
        counts: dict[int, int] = {}
        for k in kinds:
            if k not in (JOKER, DEUCE) or (k == DEUCE and self.variant.deuce_melds and all(
                    x == DEUCE for x in kinds)):
                counts[k] = counts.get(k, 0) + 1
        if len(counts) < 2:
            return None
        wild = sum(1 for k in kinds if k in (JOKER, DEUCE)) - counts.get(DEUCE, 0)
        words = [_some(n, KIND_SINGULAR[k], KIND_NAMES[k]) for k, n in sorted(counts.items())]
        if wild:
            words.append(_some(wild, "wild card", "wild cards"))
        listed = ", ".join(words[:-1]) + " and " + words[-1]
        return IllegalActionError("R-MELD-1", f"A meld holds cards of one rank, and these are {listed}")

    def explain_go_out(self, seat: int) -> IllegalActionError | None:
        """None if ``seat`` could meld its whole hand (keeping at most one card to discard) and go
        out now, else the rule and reason why not (R-TURN-2, R-ASK-3, R-OUT-1)."""
        err = self._go_out_turn_refusal(seat)
        if err is not None:
            return err
        side = self.sides[seat]
        if not self._can_out(self.hand_counts(seat), self.meld_summary(side), b3_on_table=self.b3_melded,
                             pending=-1 if self.initial[side] else self.pending):
            if not self.side_can_go_out(side):
                rule, lack = self._out_lack()
                them = "one" if self.out_need == 1 else "them"
                why = f"{lack}, and your hand can't make {them} while melding every card"
                return IllegalActionError(rule, f"You can't go out: {why}", ("discard", 0))
            why = "you can't meld every card in your hand (keeping at most one to discard)"
            return IllegalActionError("R-OUT-1", f"You can't go out: {why}", ("discard", 0))
        return None

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        why = self._why_not(action)
        if why is not None:
            raise IllegalActionError(why[0], why[1], action)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (the same check as :meth:`verify`)."""
        return self._why_not(action) is None

    def _why_not(self, a: Any) -> tuple[str, str] | None:  # noqa: C901 - one place for every rule
        if not isinstance(a, tuple) or not a or not isinstance(a[0], str):
            return ("R-TURN-2", f"{_action_text(a)} is not an action")
        verb = a[0]
        shape = _SHAPES.get(verb)
        if shape is None or len(a) != shape or not all(type(x) is int for x in a[1:]):
            return ("R-TURN-2", f"{_action_text(a)} is not an action")
        if any(not 0 <= x < NUM_KINDS for x in a[1:2]) or any(not 0 <= x <= NUM_CARDS for x in a[2:]) or (
                verb == "add" and not 0 <= a[2] < NUM_KINDS):
            return ("R-TURN-2", f"{_action_text(a)} is not an action")
        return self._check(a)

    def _check(self, a: Action) -> tuple[str, str] | None:
        """The rules check of a well-formed action: None, or (rule, reason)."""
        verb = a[0]
        phase = self.phase
        if phase == GAME_OVER:
            return ("R-GAME-1", "The game is over")
        if phase == HAND_OVER:
            if verb == "deal":
                return None
            return ("R-OUT-4", "The hand is over: the next dealer deals")
        if verb == "deal":
            return ("R-DEAL-1", "The hand is still being played")
        if phase == ANSWER:
            if verb in ("yes", "no"):
                return None
            return ("R-ASK-2", f"{seat_name(self.variant.seats[self.turn])} asked 'may I go out?': answer yes or "
                    "no first")
        if verb in ("yes", "no"):
            return ("R-ASK-2", "Nobody has asked 'may I go out?'")
        seat = self.turn
        side = self.sides[seat]
        if verb == "draw":
            if phase != DRAW:
                return ("R-TURN-2", "You have already drawn or taken the pack this turn")
            if self.shown:
                return ("R-PACK-5", "You have shown melds to take the pack, so you must take it")
            if not self.stock:
                if self._check(("pass",)) is not None:  # declining is not open either (R-STOCK-2)
                    return ("R-STOCK-2", "The stock is empty, so there is nothing to draw, and the top card "
                            "fits your side's meld, so you may not decline the pack: take it")
                return ("R-STOCK-2", "The stock is empty: take the pack or decline it")
            return None
        if verb == "pass":
            if phase != DRAW or self.stock:
                return ("R-STOCK-3", "You may decline the pack only when the stock is empty, instead of drawing")
            if self.shown:
                return ("R-PACK-5", "You have shown melds to take the pack, so you must take it")
            top = CARD_KIND[self.pile[-1]] if self.pile else -1
            if top in self.melds[side] and self._check(("take", top, 0, 0, 0)) is None:
                return ("R-STOCK-2", f"The stock is empty and the top card matches your meld of "
                        f"{KIND_NAMES[top]}, so you must take the pack")
            return None
        if verb == "ask":
            return self._why_not_ask(seat)
        if verb == "take":
            return self._why_not_take(seat, a)
        if verb == "discard":
            return self._why_not_discard(seat, a[1])
        if verb == "meld" or verb == "add":
            return self._why_not_meld(seat, a)
        return ("R-TURN-2", f"{a!r} is not an action")

    def _why_not_ask(self, seat: int) -> tuple[str, str] | None:
        if not self.ask_ok:
            # a player alone reads the partner rules with nobody in the partner's place (R-TWO-1, R-THREE-1)
            return (f"R-{self.variant.rule_area}-1", "You play alone: there is no partner to ask 'may I go out?'")
        if self.asked:
            return ("R-ASK-3", "You have already asked your partner this turn")
        if self.phase == DRAW:
            if self.shown:
                return ("R-ASK-4", "You can't ask after showing melds to take the pack")
            if not self.stock:
                return ("R-ASK-1", "You can ask before drawing only when you could go out after drawing; "
                        "the stock is empty")
            if self.draw_n > 1:
                # no hand is sure to go out whatever two cards the draw brings: ask after drawing
                return ("R-ASK-1", f"You draw {_NUMBER_WORDS[self.draw_n]} cards, so no hand is sure to go out "
                        "before the draw: ask after drawing")
            ok = self._lone_naturals(seat) == 0 and self._can_out(
                list(map(len, self.hands[seat])), self.meld_summary(self.sides[seat]), allow_discard=False,
                pending=-1 if self.initial[self.sides[seat]] else self.pending)
        else:
            if self.took_pack:
                return ("R-ASK-4", "You can't ask after taking the pack")
            if self.melded_turn:
                return ("R-ASK-4", "You can't ask after melding this turn")
            ok = self._lone_naturals(seat) <= 1 and self._can_out(
                list(map(len, self.hands[seat])), self.meld_summary(self.sides[seat]),
                pending=-1 if self.initial[self.sides[seat]] else self.pending)
        if not ok:
            needed = "a canasta" if self.out_need == 1 else f"{self.out_need} canastas"
            return ("R-ASK-1", "You can ask only when you are able to go out: you could not meld "
                    f"your whole hand with {needed} for your side")
        return None

    def _could_open(self, counts: list[int], side: int, lone: int, most: int) -> bool:
        """Whether a hand (kind ``counts``) holds an initial meld worth the side's minimum, or could
        go out concealed.  ``lone``: its lone naturals (see :meth:`_lone_naturals`); ``most``: a bound
        on the points its melds could count (at least :func:`max_meld_points` with no melds)."""
        need = self.minimums[side]
        if most >= need and max_meld_points(counts, {}, self.options, keep=2) >= need:
            return True
        return lone <= 1 and can_go_out(counts, {}, self.options, canastas=self.out_need)

    def _lone_naturals(self, seat: int) -> int:
        """Naturals held singly with no meld to join: each can leave the hand only as the discard."""
        hand = self.hands[seat]
        melds = self.melds[self.sides[seat]]
        lone = 0
        for k in _NATURAL_RANGE:
            if len(hand[k]) == 1 and k not in melds:
                lone += 1
        return lone

    def _frozen_reason(self, side: int) -> str:
        if self.variant.pile_always_frozen:
            return "in Italian Canasta the pile is always frozen"
        if self.freeze_at >= 0:
            card = self.pile[self.freeze_at]
            return f"it is frozen ({format_card(card, glyphs=True)} inside)"
        return "your side has not made its initial meld, so it is frozen against you"

    def _why_not_take_top(self, kind: int) -> tuple[str, str] | None:
        """Whether the pack may be taken now, by its top card of ``kind``: the checks every variant's take
        shares (R-TURN-2, R-PACK-1, R-PACK-3); the rest of the take is the variant's."""
        if self.phase != DRAW:
            return ("R-TURN-2", "You can take the pack only instead of drawing, at the start of your turn")
        if not self.pile:
            return ("R-PACK-1", "You can't take the pack: the discard pile is empty")
        top_card = self.pile[-1]
        top = CARD_KIND[top_card]
        if top >= 11:
            return ("R-PACK-3", f"You can't take the pack: {format_card(top_card, glyphs=True)} is on top; "
                    "a natural card must be discarded on it first")
        if kind != top:
            return ("R-PACK-1", f"The top card is {format_card(top_card, glyphs=True)}, not {a_kind(kind)}")
        return None

    def _why_not_take_cards(self, seat: int, top: int, n: int, j: int, d: int) -> tuple[str, str] | None:
        """Whether the hand holds the cards a take names (R-PACK-2)."""
        hand = self.hands[seat]
        if n > len(hand[top]) or j > len(hand[JOKER]) or d > len(hand[DEUCE]):
            return ("R-PACK-2", f"You can't take the pack that way: {_holding(hand, top)}")
        return None

    def _why_not_take_one_of_one(self, seat: int) -> tuple[str, str] | None:
        """A pile of one card is not taken with one card in hand (R-PACK-7)."""
        if self.hand_size[seat] == 1 and len(self.pile) == 1:
            return ("R-PACK-7", "With one card in hand you can't take a pile of one card")
        return None

    def _why_not_take_initial(self, side: int, points: int) -> tuple[str, str] | None:
        """Whether a take that makes the side's initial meld, putting down ``points`` with the top card, reaches
        the side's minimum with what it has shown (R-PACK-5)."""
        total = self.pending + points
        need = self.minimums[side]
        if total < need:
            extra = f" with the {self.pending} you have shown" if self.pending else ""
            return ("R-PACK-5", f"Your initial meld would count {total}{extra}; your side needs "
                    f"{need}. Only the top card of the pile counts, so show more melds from your "
                    "hand first")
        return None

    def _why_not_take(self, seat: int, a: Action) -> tuple[str, str] | None:
        _, k, n, j, d = a
        side = self.sides[seat]
        hand = self.hands[seat]
        why = self._why_not_take_top(k)
        if why is not None:
            return why
        top = k
        why = self._why_not_take_cards(seat, top, n, j, d) or self._why_not_take_one_of_one(seat)
        if why is not None:
            return why
        melds = self.melds[side]
        cap = self.options.wild_cap
        always = self.variant.pile_always_frozen
        if not self.initial[side] or self.freeze_at >= 0 or always:
            frozen_rule = "R-ITAL-4" if always else "R-PACK-4"
            if n < 2:
                pair = f"You can't take the pack: {self._frozen_reason(side)}, so you need a natural pair of " \
                    f"{KIND_NAMES[top]}"
                if len(hand[top]) < 2:
                    return (frozen_rule, f"{pair}; {_holding(hand, top)}")
                # the hand holds the pair, the take does not name it: say both, so they do not seem to clash
                return (frozen_rule, f"{pair} from your hand ({_holding(hand, top)}), and this take uses "
                        f"{_using(top, n, j, d)}")
            if self.initial[side]:
                if (n, j, d) != (2, 0, 0):
                    return (frozen_rule, "Take a frozen pack with just the natural pair; add more cards after")
            else:
                if (j or d) and self.variant.initial_without_wilds:
                    return ("R-ITAL-7", "Your side's initial meld may hold no wild card: take the pack with "
                            "naturals only")
                if j + d > cap(n + 1):
                    return ("R-MELD-2", "That meld would hold too many wild cards")
                why = self._why_not_take_initial(side, (n + 1) * KIND_VALUES[top] + 50 * j + 20 * d)
                if why is not None:
                    return why
        elif top in melds:
            if (n, j, d) not in ((0, 0, 0), (2, 0, 0), (1, 1, 0), (1, 0, 1)):
                return ("R-PACK-2", f"Your side has a meld of {KIND_NAMES[top]}: take the pack by adding "
                        "the top card to it, with a natural pair, or with one natural and a wild card; "
                        "add more cards after")
            nat, wild = len(melds[top][0]), len(melds[top][1])
            if wild + j + d > cap(nat + n + 1):
                return ("R-MELD-2", f"Your meld of {KIND_NAMES[top]} already holds as many wild cards as it may")
        else:
            if (n, j, d) not in ((2, 0, 0), (1, 1, 0), (1, 0, 1)):
                if (n, j, d) == (0, 0, 0):
                    return ("R-PACK-2", f"Your side has no meld of {KIND_NAMES[top]}: you need a natural pair "
                            f"or one {KIND_SINGULAR[top]} and a wild card; {_holding(hand, top)}")
                return ("R-PACK-2", "Take the pack with a natural pair, or one natural and one wild card; "
                        "add more cards after")
            if j + d > cap(n + 1):
                return ("R-MELD-2", "That meld would hold too many wild cards")
        # look ahead: the hand left after taking must be able to finish the turn; it keeps at
        # least the cards not used from the hand, so the pile is counted only when that is one or none
        kept = self.hand_size[seat] - n - j - d
        if kept <= 1 or self.must_out:
            rest = self.pile[:-1]
            reds = sum(1 for c in rest if CARD_KIND[c] == RED_THREE)
            left = kept + len(rest) - reds
            if left > 1 and not self.must_out:
                return None
            counts = list(map(len, self.hands[seat]))
            counts[top] -= n
            counts[JOKER] -= j
            counts[DEUCE] -= d
            for c in rest:
                counts[CARD_KIND[c]] += 1
            counts[RED_THREE] = 0
            summary = self.meld_summary(side)
            old = summary.get(top, (0, 0))
            summary[top] = (old[0] + n + 1, old[1] + j + d)
            why = self._why_not_after(seat, counts, summary, left)
            if why is not None:
                return why
        return None

    def _why_not_after(self, seat: int, counts: list[int], summary: dict[int, tuple[int, int]], left: int,
                       b3_on_table: int = 0, same_out: list[bool] | None = None) -> tuple[str, str] | None:
        """Can the turn still end legally after a take, meld or addition?  ``same_out``: a memo shared
        by actions after which the hand can go out exactly when it can before them (a natural
        added to its meld leaves :func:`can_go_out` unchanged), holding that answer once known."""
        if left == 0:
            if self.answer is False:
                return ("R-ASK-3", "Your partner said no, so you may not go out this turn")
            if not self._enough_canastas(summary):
                rule, lack = self._out_lack()
                return (rule, f"That would use your last card, but {lack}, so you can't go out")
            return None
        if self.answer is False and left == 1:
            return ("R-ASK-3", "Your partner said no, so you must keep a card to discard and one to hold")
        if left == 1 or self.must_out:
            if same_out is None:
                can_out = self._can_out(counts, summary, b3_on_table=b3_on_table)
            else:
                if not same_out:
                    same_out.append(self._can_out(counts, summary, b3_on_table=b3_on_table))
                can_out = same_out[0]
            if not can_out:
                if self.must_out:
                    return ("R-ASK-3", "You must go out this turn, and after this you could not")
                return ("R-OUT-2", "That would leave you one card, but your side could not go out, "
                        "and you must keep a card after discarding")
        return None

    def _why_not_after_meld(self, seat: int, a: Action, base: tuple[list[int], dict[int, tuple[int, int]]],
                            same_out: list[bool] | None = None) -> tuple[str, str] | None:
        """:meth:`_why_not_meld` for a candidate from the listing (the right cards, room for the
        wild cards, no black threes) of a side past its initial meld, after drawing: only the
        look-ahead is left to check.  ``same_out``: the listing's memo for natural additions
        (see :meth:`_why_not_after`)."""
        counts = base[0][:]
        summary = base[1].copy()
        if a[0] == "meld":
            _, k, n, j, d = a
            counts[k] -= n
            counts[JOKER] -= j
            counts[DEUCE] -= d
            summary[k] = (n, j + d)
            used = n + j + d
            same_out = None
        else:
            _, k, w = a
            nat, wild = summary[k]
            counts[w] -= 1
            summary[k] = (nat + 1, wild) if w == k else (nat, wild + 1)
            used = 1
            if w != k:
                same_out = None
        return self._why_not_after(seat, counts, summary, self.hand_size[seat] - used, b3_on_table=self.b3_melded,
                                   same_out=same_out)

    def _first_meld_ok(self, seat: int, a: Action, base: tuple[list[int], dict[int, tuple[int, int]]]) -> bool:
        """Whether :meth:`_why_not_meld` accepts a candidate from the listing (the right cards, room for
        the wild cards, no black threes) of a side before its initial meld, after drawing.  The usual
        case, two cards or more left with no answer from the partner and no duty to go out, is
        decided here by the minimum alone; the others go to the full check."""
        if a[0] == "meld":
            _, k, n, j, d = a
            used = n + j + d
            points = n * KIND_VALUES[k] + 50 * j + 20 * d
        else:
            _, k, w = a
            used = 1
            points = KIND_VALUES[w]
        left = self.hand_size[seat] - used
        if left < 2 or self.answer is not None or self.must_out:
            return self._why_not_meld(seat, a, base) is None
        pending = self.pending + points
        need = self.minimums[self.sides[seat]]
        if pending >= need:
            return True  # the minimum is reached and two cards are left (see _why_not_after)
        counts = base[0][:]
        summary = base[1].copy()
        if a[0] == "meld":
            counts[k] -= n
            counts[JOKER] -= j
            counts[DEUCE] -= d
            summary[k] = (n, j + d)
        else:
            nat, wild = summary[k]
            counts[w] -= 1
            summary[k] = (nat + 1, wild) if w == k else (nat, wild + 1)
        later = {kk: v for kk, v in summary.items() if kk != BLACK_THREE} if BLACK_THREE in summary else summary
        if pending + max_meld_points(counts, later, self.options, keep=2) >= need:
            return True
        return can_go_out(counts, summary, self.options, b3_on_table=self.b3_melded, canastas=self.out_need)

    def _why_not_meld(self, seat: int, a: Action,
                      base: tuple[list[int], dict[int, tuple[int, int]]] | None = None) -> tuple[str, str] | None:
        """Why a meld or an addition is refused.  ``base``: the seat's hand counts and its side's
        meld summary when the caller has them already (they are copied, not changed)."""
        side = self.sides[seat]
        hand = self.hands[seat]
        melds = self.melds[side]
        verb, k = a[0], a[1]
        opts = self.options
        phase = self.phase
        showing = False
        if phase == DRAW:
            top = CARD_KIND[self.pile[-1]] if self.pile else -1
            if self.initial[side] or top >= 11 or len(hand[top]) < 2:
                return ("R-TURN-2", "Draw from the stock or take the pack before melding")
            if k == top:
                return ("R-PACK-5", f"The top card makes your meld of {KIND_NAMES[top]} when you take the pack")
            if k == BLACK_THREE:
                return ("R-MELD-4", "Black threes can be melded only when going out")
            showing = True
        if base is None:
            counts = list(map(len, self.hands[seat]))
            summary = self.meld_summary(side)
        else:
            counts = base[0][:]
            summary = base[1].copy()
        b3_on_table = self.b3_melded
        if verb == "meld":
            _, k, n, j, d = a
            if k == RED_THREE:
                return ("R-RED-1", "Red threes are laid out, never melded")
            if k == JOKER or (k == DEUCE and not self.variant.deuce_melds):
                return ("R-MELD-3", "Wild cards can't be melded on their own")
            if k in melds:
                return ("R-MELD-7", f"Your side already has a meld of {KIND_NAMES[k]}: add to it instead")
            if k == BLACK_THREE:
                if (n, j, d) != (3, 0, 0):
                    if j or d:
                        return ("R-MELD-4", "Black threes are melded without wild cards")
                    return ("R-MELD-4", "Meld three black threes (add a fourth after)")
            elif k == DEUCE:
                if j:
                    return ("R-ITAL-6", "A meld of deuces holds deuces only, never a joker")
                if (n, d) != (3, 0):
                    return ("R-ITAL-6", "Start a meld of deuces with three deuces (meld 2 2 2), then add them "
                            "one at a time")
            elif n < 2 or n + j + d != 3:
                if n + j + d < 3:
                    return ("R-MELD-1", "A meld needs at least three cards")
                if n < 2:
                    return ("R-MELD-2", "A meld needs at least two natural cards")
                return ("R-MELD-6", "Start a meld with three cards, then add cards one at a time")
            if n > counts[k] or j > counts[JOKER] or d > counts[DEUCE]:
                have = _count_word(counts[k], k)
                return ("R-MELD-1", f"You don't hold those cards: you have {have}"
                        + (f", {_count_word(counts[JOKER], JOKER)} and {_count_word(counts[DEUCE], DEUCE)}"
                           if j or d else ""))
            if j + d > opts.wild_cap(n):
                return ("R-MELD-2", "That meld would hold too many wild cards")
            if self.variant.deuce_melds or self.variant.initial_without_wilds:
                why = self._italian_wild_refusal(side, k, j, d)
                if why is not None:
                    return why
            counts[k] -= n
            counts[JOKER] -= j
            counts[DEUCE] -= d
            summary[k] = (n, j + d)
            used = n + j + d
            points = n * KIND_VALUES[k] + 50 * j + 20 * d
            if k == BLACK_THREE:
                b3_on_table = n
        else:
            _, k, w = a
            if k not in melds:
                if any(k in m for i, m in enumerate(self.melds) if i != side):
                    return ("R-MELD-8", f"You can't add to the opponents' meld of {KIND_NAMES[k]}")
                return ("R-MELD-8", f"Your side has no meld of {KIND_NAMES[k]} to add to")
            if w != k and w != JOKER and w != DEUCE:
                return ("R-MELD-1", f"A {KIND_SINGULAR[w]} doesn't belong in a meld of {KIND_NAMES[k]}")
            if k == DEUCE and w != DEUCE:
                return ("R-ITAL-6", "A meld of deuces holds deuces only, never a joker")
            if counts[w] == 0:
                return ("R-MELD-8", f"You hold no {KIND_SINGULAR[w]}")
            if self.variant.deuce_melds or self.variant.initial_without_wilds:
                why = self._italian_wild_refusal(side, k, int(w == JOKER), int(w == DEUCE and k != DEUCE))
                if why is not None:
                    return why
            nat, wild = summary[k]
            if k == BLACK_THREE:
                if w != BLACK_THREE:
                    return ("R-MELD-4", "Black threes are melded without wild cards")
                if nat >= 4:
                    return ("R-MELD-4", "A meld of black threes has at most four cards")
                b3_on_table = nat + 1
            elif w != k and wild + 1 > opts.wild_cap(nat):
                return ("R-MELD-2", f"Your meld of {KIND_NAMES[k]} already holds as many wild cards as it may")
            counts[w] -= 1
            summary[k] = (nat + 1, wild) if w == k else (nat, wild + 1)
            used = 1
            points = KIND_VALUES[w]
        left = self.hand_size[seat] - used
        if showing:
            top_card = self.pile[-1]
            top = CARD_KIND[top_card]
            need = self.minimums[side]
            if left < 2:
                return ("R-PACK-5", "Keep the natural pair to take the pack")
            # a side shows melds before its initial meld, so the pack is frozen for it (R-FRZ-1): the
            # take melds the top card with a natural pair from the hand, and those three count
            pending = self.pending + points + 3 * KIND_VALUES[top]
            cc = counts[:]
            cc[top] -= 2
            cc[BLACK_THREE] = 0
            summary[top] = (3, 0)
            # after the take the hand must still hold a discard and a card to keep (R-OUT-2),
            # unless the player can go out; the pile's other cards (red threes aside, R-RED-3)
            # come into the hand too
            rest_kinds = [CARD_KIND[c] for c in self.pile[:-1] if CARD_KIND[c] != RED_THREE]
            rest = len(rest_kinds)
            best = self.meld_points(cc, summary, keep=max(0, 2 - rest))
            if pending + best >= need and left + rest >= 4:
                return None
            loose = self.meld_points(cc, summary, keep=max(0, 1 - rest))
            if pending + loose >= need:
                after = cc[:]
                for kind in rest_kinds:
                    after[kind] += 1
                if self.answer is not False and self._can_out(after, summary):
                    return None  # the turn can end by going out
            if pending + max(best, loose) < need:
                return ("R-PACK-5", f"After this your melds and the pack's top card could count at most "
                        f"{pending + max(best, loose)}; your side needs {need}")
            return ("R-OUT-2", "Keep the natural pair and two more cards: after taking the pack you "
                    "must still discard and keep a card")
        if k == BLACK_THREE:
            # must go out this very turn
            if self.answer is False:
                return ("R-ASK-3", "Your partner said no, so you may not go out this turn")
            down = self.initial[side] or self.pending + points >= self.minimums[side]
            if not self._can_out(counts, summary, b3_on_table=b3_on_table,
                                 pending=-1 if down else self.pending + points):
                return ("R-MELD-4", "Black threes can be melded only when you go out this turn, "
                        "and you could not go out after this")
        if not self.initial[side]:
            pending = self.pending + points
            need = self.minimums[side]
            if pending < need:
                if left == 0:
                    # concealed going out from the stock is free of the minimum (R-CONC-2)
                    if not self._enough_canastas(summary):
                        rule, lack = self._out_lack()
                        return (rule, f"That would use your last card, but {lack}, so you can't go out")
                    if self.answer is False:
                        return ("R-ASK-3", "Your partner said no, so you may not go out this turn")
                    return None
                cc = counts[:]
                best = self.meld_points(cc, {kk: v for kk, v in summary.items() if kk != BLACK_THREE}, keep=2)
                if pending + best < need and (self.answer is False or not self._can_out(
                        counts, summary, b3_on_table=b3_on_table, pending=pending)):
                    return ("R-MIN-1", f"Your melds this turn would count at most {pending + best}; "
                            f"your side's initial meld needs {need}")
                if self.answer is False and left <= 1:
                    return ("R-ASK-3", "Your partner said no, so you must keep a card to discard and one "
                            "to hold")
                if self.must_out and not self._can_out(counts, summary, b3_on_table=b3_on_table, pending=pending):
                    return ("R-ASK-3", "You must go out this turn, and after this you could not")
                return None
        return self._why_not_after(seat, counts, summary, left, b3_on_table=b3_on_table)

    def _italian_wild_refusal(self, side: int, k: int, jokers: int, deuces: int) -> tuple[str, str] | None:
        """Italian Canasta's limits on wild cards for a meld or an addition to the meld of ``k`` using
        ``jokers`` and ``deuces`` as wild cards: none in a side's initial meld, where a meld of deuces
        counts as wild cards (R-ITAL-7); no deuce as a wild card while the side's meld of deuces is
        short of a canasta (R-ITAL-6)."""
        if not self.initial[side] and (jokers or deuces or k == DEUCE) and self.variant.initial_without_wilds:
            what = "a meld of deuces is made of wild cards" if k == DEUCE else "meld naturals only"
            return ("R-ITAL-7", f"Your side's initial meld may hold no wild card: {what} until it reaches "
                    f"the minimum of {self.minimums[side]}")
        own = self.melds[side].get(DEUCE)
        if deuces and own is not None and len(own[0]) < DEUCE_CANASTA:
            return ("R-ITAL-6", f"Your side's meld of deuces has {len(own[0])} cards: until it is a canasta "
                    "of seven, your deuces go there, not into other melds as wild cards")
        return None

    def _why_not_discard(self, seat: int, k: int) -> tuple[str, str] | None:
        if self.phase != MELD:
            return ("R-TURN-2", "Draw from the stock or take the pack before discarding")
        hand = self.hands[seat]
        if k == RED_THREE and not hand[k]:
            return ("R-RED-1", "Red threes are never discarded: each one is laid face up in front of your side, "
                    "so you hold none")
        if not hand[k]:
            return ("R-TURN-2", f"You hold no {KIND_SINGULAR[k]} to discard")
        side = self.sides[seat]
        if self.hand_size[seat] == 1:
            if self.answer is False:
                return ("R-ASK-3", "Your partner said no, so you may not go out this turn")
            if not self.side_can_go_out(side):
                rule, lack = self._out_lack("R-OUT-2")
                return (rule, f"You can't discard your last card: {lack}, so you must keep a card")
            return None
        if self.must_out:
            if self.b3_melded:
                return ("R-MELD-4", "You melded black threes, so you must go out this turn")
            return ("R-ASK-3", "Your partner said yes, so you must go out this turn")
        if self.pending and not self.initial[side]:
            return ("R-MIN-1", f"Your melds this turn count {self.pending}; your side's initial meld needs "
                    f"{self.minimums[side]}")
        return None

    # ------------------------------------------- named checks for the pack
    def _take_action(self, naturals: int, jokers: int, deuces: int) -> Action:
        top = CARD_KIND[self.pile[-1]] if self.pile else 0
        return ("take", top, naturals, jokers, deuces)

    def verify_take_pack(self, naturals: int = 2, jokers: int = 0, deuces: int = 0) -> None:
        """Raise :class:`IllegalActionError` unless the pack can be taken, melding its top card
        with ``naturals`` matching naturals, ``jokers`` and ``deuces`` from the hand."""
        self.verify(self._take_action(naturals, jokers, deuces))

    def can_take_pack(self, naturals: int = 2, jokers: int = 0, deuces: int = 0) -> bool:
        """Whether :meth:`take_pack` with these cards is legal now (the same check)."""
        return self.is_legal(self._take_action(naturals, jokers, deuces))

    def take_pack(self, naturals: int = 2, jokers: int = 0, deuces: int = 0) -> None:
        """Take the pack (checked)."""
        self.apply(self._take_action(naturals, jokers, deuces))

    # --------------------------------------------------------------- apply
    def apply(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises and leaves the state unchanged."""
        why = self._why_not(action)
        if why is not None:
            raise IllegalActionError(why[0], why[1], action)
        self.apply_unchecked(action)

    def child(self, action: Action) -> "State":
        """A new state after a (checked) action; this one is unchanged."""
        s = self.copy()
        s.apply(action)
        return s

    def apply_unchecked(self, a: Action) -> None:
        """Apply an action from :meth:`legal_actions` without checking it (the search fast path)."""
        self.history.append(a)
        verb = a[0]
        seat = self.turn
        if verb == "discard":
            k = a[1]
            card = self.hands[seat][k].pop()
            self.hand_size[seat] -= 1
            kn = self.known[seat]
            if kn[k]:
                kn[k] -= 1
            pile = self.pile
            pile.append(card)
            if self.freeze_at < 0 and (k == JOKER or k == DEUCE or (
                    k == BLACK_THREE and self.options.black_three == "freezes")):
                self.freeze_at = len(pile) - 1  # as _freeze_if_needed (not an upcard)
            if self.hand_size[seat] == 0:
                self._go_out(seat)  # judged before this turn's melds count as earlier ones
                return
            if self.melded_turn:
                self.has_melded[seat] = True
            self.turn = (seat + 1) % len(self.sides)
            self._start_turn()
        elif verb == "draw":
            if self._draw_card(seat):
                # a variant's draw of two (R-TWO-3) takes a second card while the stock lasts (R-TWO-4)
                if self.draw_n == 1 or not self.stock or self._draw_card(seat):
                    self.phase = MELD
        elif verb == "add":
            _, k, w = a
            card = self.hands[seat][w].pop()
            self.hand_size[seat] -= 1
            kn = self.known[seat]
            if kn[w]:
                kn[w] -= 1
            m = self.melds[self.sides[seat]][k]
            if w == k:
                m[0].append(card)
            else:
                m[1].append(card)
            self._after_meld(seat, CARD_VALUE[card], k)
        elif verb == "meld":
            _, k, n, j, d = a
            hand = self.hands[seat]
            nat = [hand[k].pop() for _ in range(n)]
            wild = [hand[JOKER].pop() for _ in range(j)] + [hand[DEUCE].pop() for _ in range(d)]
            self.hand_size[seat] -= n + j + d
            kn = self.known[seat]
            kn[k] = max(0, kn[k] - n)
            if j:
                kn[JOKER] = max(0, kn[JOKER] - j)
            if d:
                kn[DEUCE] = max(0, kn[DEUCE] - d)
            self.melds[self.sides[seat]][k] = [nat, wild]
            if k == BLACK_THREE:
                self.must_out = True
            self._after_meld(seat, n * KIND_VALUES[k] + 50 * j + 20 * d, k)
        elif verb == "take":
            self._take(seat, a)
        elif verb == "ask":
            self.asked = 1 if self.phase == DRAW else 2
            self.phase = ANSWER
        elif verb == "yes" or verb == "no":
            self.answer = verb == "yes"
            self.must_out = self.must_out or self.answer is True
            self.phase = DRAW if self.asked == 1 else MELD
        elif verb == "pass":
            self._end_hand()
        elif verb == "deal":
            self.dealer = (self.dealer + 1) % len(self.sides)
            self.deal_no += 1
            self._deal()
        else:  # pragma: no cover - guarded by verify
            raise IllegalActionError("R-TURN-2", f"{a!r} is not an action", a)

    def _after_meld(self, seat: int, points: int, kind: int) -> None:
        side = self.sides[seat]
        self.melded_turn = True
        if kind == BLACK_THREE:
            self.b3_melded = len(self.melds[side][BLACK_THREE][0])
        if self.phase == DRAW:
            self.shown = True
            self.pending += points
        elif not self.initial[side]:
            self.pending += points
            if self.pending >= self.minimums[side]:
                self.initial[side] = True
        if self.hand_size[seat] == 0:
            self._go_out(seat)

    def _take(self, seat: int, a: Action) -> None:
        _, k, n, j, d = a
        side = self.sides[seat]
        hand = self.hands[seat]
        top = self.pile.pop()
        nat = [top] + [hand[k].pop() for _ in range(n)]
        wild = [hand[JOKER].pop() for _ in range(j)] + [hand[DEUCE].pop() for _ in range(d)]
        self.hand_size[seat] -= n + j + d
        kn = self.known[seat]
        kn[k] = max(0, kn[k] - n)
        if j:
            kn[JOKER] = max(0, kn[JOKER] - j)
        if d:
            kn[DEUCE] = max(0, kn[DEUCE] - d)
        m = self.melds[side].get(k)
        if m is None:
            self.melds[side][k] = [nat, wild]
        else:
            m[0].extend(nat)
            m[1].extend(wild)
        self._pile_to_hand(seat, side)
        if self.hand_size[seat] == 0:
            self._go_out(seat)

    def _pile_to_hand(self, seat: int, side: int) -> None:
        """The rest of a take (R-PACK-1): the pile goes into the taker's hand (a red three in it to
        the side's red threes), the side has made its initial meld, and the meld phase begins.  Cards that
        lay face down (R-ITAL-3) join the hand unseen by the other seats: ``known`` does not learn them."""
        hand = self.hands[seat]
        kn = self.known[seat]
        pile = self.pile
        down = self.pile_hidden
        if down:
            self.pile_hidden = 0
            for card in pile[:down]:
                kind = CARD_KIND[card]
                if kind == RED_THREE:
                    self.red3[side].append(card)  # laid out at once, face up (R-RED-3)
                else:
                    hand[kind].append(card)
                    self.hand_size[seat] += 1
            pile = pile[down:]
        for card in pile:
            kind = CARD_KIND[card]
            if kind == RED_THREE:
                self.red3[side].append(card)
            else:
                hand[kind].append(card)
                kn[kind] += 1
                self.hand_size[seat] += 1
        self.pile = []
        self.freeze_at = -1
        self.initial[side] = True
        self.pending = 0
        self.shown = False
        self.took_pack = True
        self.melded_turn = True
        self.phase = MELD

    # ------------------------------------------------------- end of a hand
    def _go_out(self, seat: int) -> None:
        # concealed: the whole hand went down this turn, with no meld or addition on an earlier turn
        self.went_out = seat
        self.concealed = not self.has_melded[seat]
        self._end_hand()

    def _end_hand(self) -> None:
        # a dealt red three of a player whose first turn never came is laid out now (R-RED-1)
        sides = self.sides
        for seat in range(len(sides)):
            reds = self.hands[seat][RED_THREE]
            while reds:
                self.red3[sides[seat]].append(reds.pop())
                self.hand_size[seat] -= 1
        result = self.score_hand()
        self.hand_results.append(result)
        totals = self.totals
        for side in range(len(totals)):
            totals[side] += result.sides[side].total
        self.phase = HAND_OVER
        # the game ends when a side reaches the target with a total higher than every other side's
        # (R-GAME-1, R-GAME-2; R-THREE-3, R-SIX-6)
        top = max(totals)
        if top >= self.variant.target and totals.count(top) == 1:
            self.phase = GAME_OVER
            self.winner = totals.index(top)

    def cards_left(self, side: int) -> int:
        """The count of the cards still held by ``side``'s players at the end of a hand, that the side loses
        (R-SCORE-2)."""
        left = 0
        for seat in self.variant.side_seats[side]:
            for kind_cards in self.hands[seat]:
                for c in kind_cards:
                    left += CARD_VALUE[c]
        return left

    def score_hand(self) -> HandResult:
        """The score of the hand as it stands (R-SCORE-1..3): a breakdown for each side (R-SIX-5 for the
        red threes of six-handed)."""
        sides: list[SideScore] = []
        variant = self.variant
        bonuses = variant.bonuses
        went_side = None if self.went_out is None else self.sides[self.went_out]
        deuce_melds = variant.deuce_melds
        for side in range(variant.n_sides):
            melds = self.melds[side]
            natural = mixed = 0
            melded_points = 0
            for m in melds.values():
                melded_points += sum(CARD_VALUE[c] for c in m[0]) + sum(CARD_VALUE[c] for c in m[1])
                if is_canasta(len(m[0]), len(m[1])):
                    if m[1]:
                        mixed += 1
                    else:
                        natural += 1
            extra = 0
            if deuce_melds:  # R-ITAL-10: the canasta of deuces earns only its own bonus, and five or ten canastas
                deuce_canasta = len(melds.get(DEUCE, ((),))[0]) >= DEUCE_CANASTA
                natural -= deuce_canasta
                extra = italian_bonuses(natural, mixed, deuce_canasta, went_side == side, bonuses)
            red_value = bonuses.red_threes[len(self.red3[side])]
            if not melds:
                red_value = -red_value
            out = bonuses.going_out if went_side == side else 0
            concealed = bonuses.concealed if out and self.concealed else 0
            in_hand = self.cards_left(side)
            bonus = (bonuses.natural_canasta * natural + bonuses.mixed_canasta * mixed + red_value + out + concealed
                     + extra)
            sides.append(SideScore(
                natural_canastas=natural,
                mixed_canastas=mixed,
                red_threes=red_value,
                going_out=out,
                concealed=concealed,
                melded=melded_points,
                in_hand=-in_hand,
                total=bonus + melded_points - in_hand,
                extra_bonuses=extra,
            ))
        return HandResult(deal=self.deal_no,
                          went_out=None if self.went_out is None else variant.seats[self.went_out],
                          concealed=self.concealed, sides=tuple(sides))

    # -------------------------------------------------------------- output
    def __str__(self) -> str:
        return render.position_text(self)

    def __repr__(self) -> str:
        return f"canasta_tutor.parse_position({render.position_text(self)!r})"

    def _repr_html_(self) -> str | None:
        return render.state_html(self)

    # -------------------------------------------------------------- a variant's melds, for the layers above
    # The notation, the bots, the hint and the tutor ask these (and the variant's fields), never the state's class.
    def listed_melds(self, side: int) -> Sequence[ListedMeld]:
        """A side's melds as a list in the order made, a meld's number its index, where the variant names
        melds by number (:attr:`Variant.numbered_melds`); empty where melds are keyed by rank in ``melds``."""
        return ()

    def has_table_melds(self, side: int) -> bool:
        """Whether a side has any meld on the table."""
        return bool(self.melds[side])

    def black_threes_melded(self, side: int) -> int:
        """How many black threes a side has melded (going out, R-MELD-4; 0: none)."""
        meld = self.melds[side].get(BLACK_THREE)
        return len(meld[0]) if meld is not None else 0

    def sequence_suit(self, cards: Sequence[int]) -> int | None:
        """The suit (0..3 for S, H, D, C) of the sequence these cards make under this state's rules, or
        None when they make none: in classic Canasta, never (every meld is a set of one rank)."""
        return None

    def lay_meld(self, side: int, naturals: list[int], wilds: list[int], suit: int = -1) -> None:
        """Put a meld on a side's table as it is, unchecked (a position being read): a set of the naturals'
        rank (``suit`` -1) or a sequence of ``suit``; classic melds are keyed by rank, one per rank."""
        self.melds[side][CARD_KIND[naturals[0]]] = [naturals, wilds]

    # -------------------------------------------------------------- who plays, for the notation
    def sitting_out(self) -> str | None:
        """The player sitting out this hand, where the variant has a player beyond the seats
        (:attr:`Variant.reserve`, R-FIVE-1); None where every player has a seat."""
        return None

    def set_sitting_out(self, name: str) -> None:
        """Name the player sitting out this hand (a position being read); refused where every player has a seat."""
        raise ValueError(f"in {self.variant.name} every player has a seat: nobody sits out")

    def first_deal_players(self) -> tuple[tuple[str, ...], str | None]:
        """The players in the chairs at the first deal, and the one sitting out then (None: nobody), as a
        game record names them."""
        return tuple(self.players), None

    # -------------------------------------------------------------- rebuilt from an observation
    def own_hand_codes(self, obs: Any) -> tuple[str, ...]:
        """The observing seat's hand, as the codes a state rebuilt from ``obs`` (an :class:`Observation`) is
        dealt: by kind (a card's suit matters to no classic rule)."""
        return tuple(obs.hand)

    def place_melds(self, obs: Any, take: Callable[[str], int]) -> None:
        """Put the melds of ``obs`` (an :class:`Observation`) on this state's table, each card's id from
        ``take(code)``: the part of a state rebuilt from an observation that a variant's melds decide."""
        for side in range(self.variant.n_sides):
            for kind, codes in obs.melds[side].items():
                cards = [take(c) for c in codes]
                self.melds[side][kind] = [[c for c in cards if not is_wild(CARD_KIND[c])],
                                          [c for c in cards if is_wild(CARD_KIND[c])]]

    def reveals_hidden(self, action: Action) -> bool:
        """Whether ``action`` brings cards nobody has seen into the hand of the seat to play, so that what
        follows in the turn depends on them: a take of a pack holding cards laid face down (R-ITAL-3), or in
        Pennies from Heaven a step that takes up the player's packet (R-PEN-4)."""
        return action[0] == "take" and self.pile_hidden > 0

    def packet_count(self, seat: int) -> int:
        """How many cards lie face down in the seat's packet (Pennies from Heaven, R-PEN-3); 0 in every other
        variant."""
        return 0

    def set_packets(self, packets: list[list[int]]) -> None:
        """Put face-down packets in front of the seats (a state rebuilt from an observation): a variant whose
        players have packets (Pennies from Heaven, R-PEN-3) keeps them; no other variant has any."""
        if any(packets):
            raise ValueError(f"the variant {self.variant.name!r} has no packets")

    def cards_everywhere(self) -> list[int]:
        """Every physical card id in the state (for invariant checks)."""
        out: list[int] = []
        for h in self.hands:
            for k in h:
                out.extend(k)
        for side in self.melds:
            for m in side.values():
                out.extend(m[0])
                out.extend(m[1])
        for r in self.red3:
            out.extend(r)
        out.extend(self.pile)
        out.extend(self.stock)
        return out


def _action_text(a: Any) -> str:
    """An action in our notation for a message, or its text cut short when it is not one."""
    try:
        text = repr(render.action_text(a))
    except Exception:  # noqa: BLE001 - anything that is not an action is shown as text
        text = repr(a)
    return text if len(text) <= 60 else text[:60] + "…"


class UnknownRulesError(CanastaError, ValueError):
    """A variant names rules (:attr:`Variant.rules`) that no state class is registered for; quotes the name."""

    def __init__(self, variant: Variant) -> None:
        self.rules = variant.rules
        text = repr(variant.rules) if len(repr(variant.rules)) <= 40 else repr(variant.rules)[:40] + "…"
        super().__init__(f"variant {variant.name!r} plays by the rules {text}, which no state class is registered "
                         f"for; known: {', '.join(RULES)}")


#: the state class of each variant's rules (:attr:`Variant.rules`), by name: a variant whose rules are its own
#: registers its class from its own module (Samba: :mod:`canasta_tutor.engine.samba`)
RULES: dict[str, type[State]] = {"classic": State}


def register_rules(name: str, cls: type[State]) -> None:
    """Register the state class that plays the variants whose :attr:`Variant.rules` is ``name``."""
    RULES[name] = cls


def state_class(variant: Variant) -> type[State]:
    """The state class a variant is played by (:data:`RULES`); :class:`UnknownRulesError` if none."""
    cls = RULES.get(variant.rules)
    if cls is None:
        raise UnknownRulesError(variant)
    return cls


_DISCARDS = tuple(("discard", k) for k in range(NUM_KINDS - 1))  # red threes are never held to discard
_ADDS: tuple[tuple[Action, Action, Action], ...] = tuple(
    (("add", k, k), ("add", k, JOKER), ("add", k, DEUCE)) for k in range(11))
_MELDS: tuple[tuple[Action, Action, Action], ...] = tuple(
    (("meld", k, 3, 0, 0), ("meld", k, 2, 1, 0), ("meld", k, 2, 0, 1)) for k in range(11))
_TAKES: tuple[tuple[Action, Action, Action, Action], ...] = tuple(
    (("take", k, 0, 0, 0), ("take", k, 2, 0, 0), ("take", k, 1, 1, 0), ("take", k, 1, 0, 1)) for k in range(11))
#: ``_ADD_SETS[k][mask]``: the additions to a meld of ``k`` whose cards are at hand and fit, in listing
#: order; ``mask`` bit 1: a natural ``k``, bit 2: a joker, bit 4: a deuce.  ``_MELD_SETS`` likewise for a
#: new meld of ``k``, bit 1 standing for three naturals.
_ADD_SETS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(a for a, bit in zip(acts, (1, 2, 4), strict=True) if mask & bit) for mask in range(8))
    for acts in _ADDS)
_MELD_SETS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(a for a, bit in zip(acts, (1, 2, 4), strict=True) if mask & bit) for mask in range(8))
    for acts in _MELDS)
_MELD_DEUCES: Action = ("meld", DEUCE, 3, 0, 0)  # deuces as a rank of their own (R-ITAL-6)
_ADD_DEUCE: Action = ("add", DEUCE, DEUCE)
_SHAPES = {"draw": 1, "ask": 1, "yes": 1, "no": 1, "pass": 1, "deal": 1, "discard": 2, "add": 3,
           "meld": 5, "take": 5}
CHAIN_KINDS = {
    "wild_or_three": frozenset((DEUCE, JOKER, BLACK_THREE, RED_THREE)),
    "wild_or_red_three": frozenset((DEUCE, JOKER, RED_THREE)),
    "wild_only": frozenset((DEUCE, JOKER)),
}

__all__ = ["State", "ListedMeld", "Action", "SHARED_FIELDS", "LIST_FIELDS", "NESTED_FIELDS", "RULES", "register_rules",
           "state_class", "UnknownRulesError", "SEATS", "PHASES", "minimum_for", "seat_index", "seat_name",
           "seat_title", "KIND_TOKENS", "SeatDraw"]
