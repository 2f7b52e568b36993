"""What one seat may know: the observation that bots, the search and widgets receive.

An :class:`Observation` holds the seat's own hand and everything public, with
perfect memory: the whole discard pile (every card in it was seen face up,
R-INFO-1; in Italian Canasta only the number of the cards laid face down under the
turned card, R-ITAL-3), the cards known to have gone into each hand with a taken pack, the
melds, the red threes, every player's card count and the stock count
(R-INFO-2), the totals and minimums, and the public history of actions (a draw
from the stock never shows the card).  It never holds another player's hidden
cards.  Beside the card codes it gives the compact facts the bots reason with,
in the engine's kind counts: ``hand_counts``, ``meld_summary``, ``pile_size``,
``pile_top``, ``red_three_counts``, ``history_tail``, ``side`` and
:meth:`~Observation.frozen_for`.

Per-seat fields (``hand_sizes``, ``known``, ``first_turn_done``...) have one entry per seat
of the game's variant and per-side fields (``melds``, ``meld_summary``, ``red_threes``,
``totals``, ``minimums``, ``initial``) one per side; ``variant`` says which seats play
together: :attr:`~Observation.side`, :attr:`~Observation.partners` (none where each plays
alone), :attr:`~Observation.opponents` and :attr:`~Observation.next_seat`.

There are two ways to make one, giving the same values:

- :func:`observe` takes a full snapshot (every field copied and the seat's
  position text formatted): what a bot, the hint or a widget is given;
- :func:`observe_compact` is what the search builds for every decision of a
  playout.  It copies the scalars and the legal actions (and, when the seat
  has a choice, the kind counts and meld summaries the policy reads), and
  computes every other field when it is first read, from the state's public
  lists and the seat's own hand (never from the hidden cards), so a decision
  pays only for what the policy reads.  It is valid until the state changes,
  and has no position text.

>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=5)
>>> obs = observe(state, "S")
>>> len(obs.hand) == state.hand_size[2] and obs.hand_sizes[0] == 11
True
>>> "N: 11 cards" in obs.position_text
True
>>> seat = state.actor
>>> fast = observe_compact(state, seat)
>>> fast.hand_counts == observe(state, seat).hand_counts and fast.pile_size == len(state.pile)
True
"""

from __future__ import annotations

# compiled copy: interpreted (canasta_tutor/bots/native.py copies this module but does not compile it: an
# Observation fills its fields when first read, through its __dict__, which a compiled class has none of)

from dataclasses import FrozenInstanceError
from typing import Any, Callable, Generic, Sequence, TypeVar, overload

from .cards import ALL_CARD_CODES, CARD_KIND, sort_key
from . import render
from .options import RuleOptions
from .samba import SambaState
from .scoring import HandResult
from .state import Action, State, seat_index
from .variants import CLASSIC, Variant, get_variant

T = TypeVar("T")

#: How many of the last public actions ``history_tail`` keeps.
HISTORY_TAIL = 12

Summary = dict[int, tuple[int, int]]


_OPPONENTS: dict[str, tuple[tuple[int, ...], ...]] = {}


def opponent_seats(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats of the other sides in turn order from the next seat (classic: for
    South, West and East).  Worked out once per variant."""
    table = _OPPONENTS.get(variant.name)
    if table is None:
        n = variant.players
        sides = variant.sides
        table = tuple(tuple(o for o in ((s + i) % n for i in range(1, n)) if sides[o] != sides[s]) for s in range(n))
        _OPPONENTS[variant.name] = table
    return table


class _Lazy(Generic[T]):
    """A field that a compact observation computes on first read, from its sources, and keeps
    (a full snapshot has them all set).  A read of such a field costs a little more than a read of
    a plain attribute; measured on playouts, computing the kind counts, meld summaries and known
    cards only when read (at once when the seat has a choice) is the faster trade."""

    def __init__(self, fn: Callable[[Observation], T]) -> None:
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> _Lazy[T]: ...

    @overload
    def __get__(self, obj: Observation, owner: type) -> T: ...

    def __get__(self, obj: Observation | None, owner: type) -> _Lazy[T] | T:
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


def _codes(cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(ALL_CARD_CODES[c] for c in cards)


def _hand(o: Observation) -> tuple[str, ...]:
    """The seat's own cards as codes, in display order."""
    return _codes(sorted((c for k in o._own for c in k), key=sort_key))


def _melds(o: Observation) -> tuple[dict[int, tuple[str, ...]], ...]:
    """Per side, ``{kind: card codes}`` of its melds."""
    return tuple({k: _codes(m[0] + m[1]) for k, m in side.items()} for side in o._melds)


def _summaries(melds: list[dict[int, list[list[int]]]]) -> tuple[Summary, ...]:
    if len(melds) == 2:  # the classic game, written out: the search makes this for every decision
        a, b = melds
        return {k: (len(m[0]), len(m[1])) for k, m in a.items()}, {k: (len(m[0]), len(m[1])) for k, m in b.items()}
    return tuple({k: (len(m[0]), len(m[1])) for k, m in side.items()} for side in melds)


def _summary(o: Observation) -> tuple[Summary, ...]:
    return _summaries(o._melds)


def _samba_melds(o: Observation) -> tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]:
    """Per side, Samba's melds in order (a meld's number is its index): ``(suit, card codes)``, suit -1
    for a set and 0..3 (S, H, D, C) for a sequence.  Empty for the other variants."""
    return tuple(tuple((m.suit, _codes(m.naturals + m.wilds)) for m in side) for side in o._smelds)


def _known(o: Observation) -> tuple[tuple[int, ...], ...]:
    known = list(map(tuple, o._known))
    known[o.seat] = o.hand_counts
    return tuple(known)


def _no_text(o: Observation) -> str:
    """The seat's view in position notation (full snapshots only)."""
    raise AttributeError("a compact observation (observe_compact) has no position text; use observe()")


class Observation:
    """One seat's view of a game.  Every field is public or the seat's own; read-only.

    Made by :func:`observe` (a full snapshot) or :func:`observe_compact` (inside the search).
    """

    # Set when the observation is made (plain attributes: the policy reads these).
    seat: int
    variant: Variant  # the seats, sides and partners (classic: four seats, NS and EW)
    options: RuleOptions
    phase: str
    actor: int | None
    turn: int
    dealer: int
    deal_no: int
    hand_sizes: tuple[int, ...]  # per seat
    freeze_at: int  # index in ``pile`` (the face-up cards) of the card that froze it; -1: none
    stock_size: int
    pile_size: int  # every card of the pile, face down ones included
    pile_hidden: int  # cards face down at the bottom of the pile (Italian Canasta, R-ITAL-3): a count only
    pile_top: int  # the kind of the pile's top card; -1 when the pile is empty
    minimums: tuple[int, ...]  # per side
    initial: tuple[bool, ...]  # per side
    asked: int
    answer: bool | None
    must_out: bool
    pending: int
    shown: bool
    melded_turn: bool
    took_pack: bool
    legal_actions: tuple[Action, ...]  # empty when the seat is not to act (full snapshot)
    players: tuple[str, ...]  # the players' names by seat
    sitting_out: str | None  # five-handed: the player sitting out this hand (R-FIVE-1); None elsewhere
    #: Pennies from Heaven: the cards in each seat's packet, face down (R-PEN-4): a count only, the seat's own
    #: included; 0 for a packet taken up, and in every other variant
    packet_sizes: tuple[int, ...]

    # Set by observe(); a compact observation computes them on first read (the first three at once
    # when the seat has a choice: the policy reads them then).
    hand_counts = _Lazy(lambda o: tuple(map(len, o._own)))  # how many cards of each kind the seat holds
    meld_summary = _Lazy(_summary)  # per side, {kind: (naturals, wilds)}
    known = _Lazy(_known)  # per seat, kind counts known in its hand (its own: the whole hand)
    hand = _Lazy(_hand)
    #: the same cards kind by kind, each kind in the order the engine keeps (it moves a kind's last card
    #: first, and the table puts the card the learner selects last): which suit a discard lays, in Samba
    hand_order = _Lazy(lambda o: tuple(_codes([c for k in o._own for c in k])))
    melds = _Lazy(_melds)
    red_threes = _Lazy(lambda o: tuple(_codes(r) for r in o._red3))  # per side
    red_three_counts = _Lazy(lambda o: tuple(len(r) for r in o._red3))
    pile = _Lazy(lambda o: _codes(o._pile[o.pile_hidden:]))  # the face-up cards, bottom first
    history = _Lazy(lambda o: tuple(o._history))  # every public action of the game so far
    history_tail = _Lazy(lambda o: tuple(o._history[-HISTORY_TAIL:]))  # the last HISTORY_TAIL of them
    hand_results: _Lazy[tuple[HandResult, ...]] = _Lazy(lambda o: tuple(o._hand_results))
    totals = _Lazy(lambda o: tuple(o._totals))  # per side
    deal_totals = _Lazy(lambda o: tuple(o._deal_totals))
    first_turn_done = _Lazy(lambda o: tuple(o._first))  # per seat
    has_melded = _Lazy(lambda o: tuple(o._has_melded))
    position_text = _Lazy(_no_text)
    samba_melds = _Lazy(_samba_melds)  # per side, Samba's numbered melds (empty in other variants)

    # A compact observation's sources: the state's public lists and the seat's own hand.
    _own: list[list[int]]
    _known: list[list[int]]
    _melds: list[dict[int, list[list[int]]]]
    _red3: list[list[int]]
    _pile: list[int]
    _history: list[Action]
    _hand_results: list[HandResult]
    _totals: list[int]
    _deal_totals: list[int]
    _first: list[bool]
    _has_melded: list[bool]
    _smelds: list[list[Any]]

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        seats = self.variant.seats
        return (f"Observation(seat={seats[self.seat]!r}, phase={self.phase!r}, turn={seats[self.turn]!r}, "
                f"hand={' '.join(self.hand)!r}, pile_size={self.pile_size})")

    @property
    def side(self) -> int:
        """The seat's side (classic: 0 for NS, 1 for EW)."""
        return self.variant.sides[self.seat]

    @property
    def partners(self) -> tuple[int, ...]:
        """The seat's partners (classic: the seat opposite; none when each plays alone)."""
        return self.variant.partner_seats[self.seat]

    @property
    def opponents(self) -> tuple[int, ...]:
        """The seats of the other sides, in turn order from the next seat."""
        return opponent_seats(self.variant)[self.seat]

    @property
    def next_seat(self) -> int:
        """The seat that plays after this one (it may take this seat's discard)."""
        return self.variant.next_seats[self.seat]

    @property
    def is_my_turn(self) -> bool:
        return self.actor == self.seat

    def known_of(self, seat: int) -> tuple[int, ...]:
        """``known[seat]``, without making the whole of ``known`` in a compact observation."""
        known = self.__dict__.get("known")
        if known is not None:
            return known[seat]  # type: ignore[no-any-return]
        return self.hand_counts if seat == self.seat else tuple(self._known[seat])

    def frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen against ``side`` (R-FRZ-1..3)."""
        return self.freeze_at >= 0 or not self.initial[side] or self.variant.pile_always_frozen


#: The public fields of an observation, in order.
FIELDS = (
    "seat", "variant", "options", "phase", "actor", "turn", "dealer", "deal_no", "hand", "hand_order", "hand_counts",
    "hand_sizes", "known",
    "melds", "meld_summary", "red_threes", "red_three_counts", "pile", "pile_size", "pile_hidden", "pile_top",
    "freeze_at",
    "stock_size", "totals", "deal_totals", "minimums", "initial", "asked", "answer", "must_out", "pending", "shown",
    "melded_turn", "took_pack", "legal_actions", "history", "history_tail", "hand_results", "position_text",
    "first_turn_done", "has_melded", "samba_melds", "players", "sitting_out", "packet_sizes",
)
_SOURCES = ("_own", "_known", "_melds", "_red3", "_pile", "_history", "_hand_results", "_totals",
            "_deal_totals", "_first", "_has_melded", "_smelds")


def _make(state: State, s: int, legal: tuple[Action, ...]) -> Observation:
    """An observation with every plain field set and the sources of the others."""
    obs = object.__new__(Observation)
    h = state.hand_size
    pile = state.pile
    down = state.pile_hidden
    freeze_at = state.freeze_at
    if down and freeze_at >= 0:
        freeze_at -= down  # an index among the face-up cards (face-down cards never freeze, R-ITAL-3)
    object.__setattr__(obs, "__dict__", {
        "seat": s, "variant": state.variant, "options": state.options, "phase": state.phase, "actor": state.actor,
        "turn": state.turn, "dealer": state.dealer, "deal_no": state.deal_no, "hand_sizes": tuple(h),
        "freeze_at": freeze_at, "stock_size": len(state.stock), "pile_size": len(pile), "pile_hidden": down,
        "pile_top": CARD_KIND[pile[-1]] if pile else -1,
        "minimums": tuple(state.minimums), "initial": tuple(state.initial),
        "asked": state.asked, "answer": state.answer, "must_out": state.must_out, "pending": state.pending,
        "shown": state.shown, "melded_turn": state.melded_turn, "took_pack": state.took_pack,
        "legal_actions": legal,
        "_own": state.hands[s], "_known": state.known, "_melds": state.melds, "_red3": state.red3,
        "_pile": pile, "_history": state.history,
        "_hand_results": state.hand_results, "_totals": state.totals, "_deal_totals": state.deal_totals,
        "_first": state.first_turn_done, "_has_melded": state.has_melded,
        "_smelds": state.smelds if isinstance(state, SambaState) else (),
        # the players' names by seat, and five-handed the one sitting out this hand (R-FIVE-1): public
        "players": state.players, "sitting_out": state.sitting_out(),
        # the packets face down (R-PEN-4), counted only where the variant deals them: a playout makes an
        # observation at every decision
        "packet_sizes": tuple(state.packet_count(x) for x in range(len(h))) if state.variant.packet_size
        else (0,) * len(h),
    })
    return obs


def observe_compact(state: State, seat: int, legal: Sequence[Action] | None = None) -> Observation:
    """The observation of ``seat`` (a seat number) for a decision made at once, as the search makes them.

    The same values as :func:`observe` for the seat to act (``legal`` defaults to the state's legal
    actions, whoever acts), but the card codes, the history and the scores are computed when first
    read, from the state's public lists and the seat's own hand.  Valid until the state changes;
    no position text."""
    actions = tuple(state.legal_actions() if legal is None else legal)
    obs = _make(state, seat, actions)
    if len(actions) > 1:  # a choice: the policy reads these
        d = obs.__dict__
        d["hand_counts"] = tuple(map(len, state.hands[seat]))
        d["meld_summary"] = _summaries(state.melds)
    return obs


def observe(state: State, seat: int | str) -> Observation:
    """The observation of ``seat`` (0..3 or N/E/S/W; a variant's seat numbers or letters) in ``state``: a
    full snapshot, with the seat's position text."""
    s = seat_index(seat, state.variant.seats)
    obs = _make(state, s, tuple(state.legal_actions()) if state.actor == s else ())
    for name in FIELDS:  # read every field now, from the state as it is
        if name != "position_text":
            getattr(obs, name)
    d = obs.__dict__
    for name in _SOURCES:  # then let go of the state's lists
        del d[name]
    d["position_text"] = render.position_text(state, s)
    return obs


class Observer:
    """Makes observations for one seat (the OpenSpiel split of Game, State and Observer)."""

    def __init__(self, seat: int | str, variant: Variant | str = CLASSIC) -> None:
        self.variant = get_variant(variant)
        self.seat = seat_index(seat, self.variant.seats)

    def __call__(self, state: State) -> Observation:
        return observe(state, self.seat)

    def __repr__(self) -> str:
        if self.variant is CLASSIC:
            return f"Observer({self.variant.seats[self.seat]!r})"
        return f"Observer({self.variant.seats[self.seat]!r}, {self.variant.name!r})"


__all__ = ["Observation", "Observer", "observe", "observe_compact", "opponent_seats", "FIELDS", "HISTORY_TAIL"]
