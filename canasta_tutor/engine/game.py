"""The game: rule options, the variant and the way a new game starts.

:class:`Game` holds what does not change during play (the rule options and the
:class:`~canasta_tutor.engine.variants.Variant`, classic by default);
:class:`~canasta_tutor.engine.state.State` holds what does; an
:class:`~canasta_tutor.engine.observer.Observation` is what one seat may know.

>>> game = Game()
>>> state = game.new_initial_state(seed=42)
>>> len(state.hand("S")) + len(state.hand("N")) + len(state.hand("E")) + len(state.hand("W")) <= 44
True
>>> game.new_initial_state(seed=42).hand("S") == state.hand("S")   # a seed reproduces the game
True
>>> two = Game(variant="two-handed").new_initial_state(seed=42)
>>> two.variant.name, two.variant.seats, len(two.hand("N")), len(two.hand("S")) <= 15
('two-handed', 'NS', 15, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import overload

from .cards import ALL_CARD_CODES, CARD_KIND, JOKER, RANK_CHARS, SUIT_CHARS, shuffle
from .errors import NotationError
from .options import RuleOptions
from .state import SEATS, SeatDraw, State
from .samba import new_state
from .five import FiveState
from . import bolivia as _bolivia  # noqa: F401  - registers the rules of Bolivia and Chile (R-BOL)
from .pennies import PenniesState  # noqa: F401 - registers the rules "pennies"
from .variants import CLASSIC, Variant, get_variant

_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@overload
def check_player_names(names: object) -> tuple[str, str, str, str]: ...
@overload
def check_player_names(names: object, seats: str) -> tuple[str, ...]: ...
def check_player_names(names: object, seats: str = SEATS) -> tuple[str, ...]:
    """Distinct names, one per seat (classic: four, by seat N, E, S, W), that a position can write and
    read back, or :class:`NotationError`."""
    n = len(seats)
    if not isinstance(names, (tuple, list)) or len(names) != n:
        raise NotationError(f"players: give {_COUNT_WORDS.get(n, n)} names, by seat {', '.join(seats)} "
                            f"(got {repr(names)[:60]})", None, "players")
    for name in names:
        if not isinstance(name, str) or not name or name != name.strip() or len(name) > 40 or "  " in name:
            raise NotationError(f"player name {repr(name)[:60]}: names are 1 to 40 characters, with no "
                                "space at either end and no two spaces in a row", None, "players")
        if any(ch in "#,:;=" or not ch.isprintable() for ch in name):
            raise NotationError(f"player name {name!r}: names can't hold '#', ',', ':', ';', '=' or control "
                                "and line-break characters", None, "players")
    if len(set(names)) != n:
        raise NotationError(f"players: the {_COUNT_WORDS.get(n, n)} names must differ ({', '.join(names)})", None,
                            "players")
    return tuple(names)


def _draw_rank(card: int) -> tuple[int, int]:
    code = ALL_CARD_CODES[card]
    return (RANK_CHARS.index(code[0]), 3 - SUIT_CHARS.index(code[1]))


def seating_order(variant: Variant) -> tuple[int, ...]:
    """The seats in the order the draw for seats fills them (R-SEAT-3): the first player's seat
    (South, or seat 0 when there is none), then that seat's partners, then each other side in turn
    order with its partners.  Classic: S, N, W, E.

    >>> [CLASSIC.seats[s] for s in seating_order(CLASSIC)]
    ['S', 'N', 'W', 'E']
    >>> "".join(get_variant("six-handed").seats[s] for s in seating_order(get_variant("six-handed")))
    'SNWEQP'
    """
    n = variant.players
    first = max(variant.seats.find("S"), 0)
    order: list[int] = []
    for i in range(n):
        seat = (first + i) % n
        if seat in order:
            continue
        side = variant.sides[seat]
        order += [(seat + j) % n for j in range(n) if variant.sides[(seat + j) % n] == side]
    return tuple(order)


def draw_for_seats(rng: random.Random, players: tuple[str, ...],
                   variant: Variant = CLASSIC) -> tuple[list[SeatDraw], tuple[str, ...]]:
    """The draw for partners and seats (R-SEAT-1..3).

    Each player draws one card from a shuffled deck; a joker, or a card identical
    to another player's, means drawing again.  The highest drawer sits South and
    plays first, the second highest sits North as partner, the third West and
    the fourth East.  Returns the draws and the players by seat (N, E, S, W).
    In a variant the drawers fill the seats in :func:`seating_order`; five-handed, the fifth drawer sits out
    the first hand and comes last in the players returned.
    """
    deck = list(range(variant.num_cards))
    shuffle(rng, deck)
    draws: list[SeatDraw] = []
    final: dict[str, int] = {}
    waiting = list(players)
    while waiting:
        drawn = {p: deck.pop() for p in waiting}
        codes = [ALL_CARD_CODES[c] for c in drawn.values()] + [ALL_CARD_CODES[c] for c in final.values()]
        again = []
        for p, card in drawn.items():
            bad = CARD_KIND[card] == JOKER or codes.count(ALL_CARD_CODES[card]) > 1
            draws.append(SeatDraw(p, ALL_CARD_CODES[card], bad))
            if bad:
                again.append(p)
            else:
                final[p] = card
        waiting = again
    order = sorted(final, key=lambda p: _draw_rank(final[p]), reverse=True)
    # five-handed: the lowest drawer is the player beyond the seats, who sits out the first hand (R-FIVE-1)
    by_seat = dict(zip(seating_order(variant), order[:variant.players], strict=True))
    return draws, tuple(by_seat[s] for s in range(variant.players)) + tuple(order[variant.players:])


@dataclass(frozen=True, init=False)
class Game:
    """Canasta under some :class:`RuleOptions`: classic four-player partnership Canasta, or the
    ``variant`` named (a :class:`~canasta_tutor.engine.variants.Variant` or its name, see
    :data:`~canasta_tutor.engine.variants.VARIANTS`; an unknown name raises
    :class:`~canasta_tutor.engine.variants.UnknownVariantError`)."""

    options: RuleOptions
    variant: Variant

    def __init__(self, options: RuleOptions | None = None, variant: Variant | str = CLASSIC) -> None:
        object.__setattr__(self, "options", RuleOptions() if options is None else options)  # frozen
        object.__setattr__(self, "variant", get_variant(variant))

    def new_initial_state(self, seed: int = 0, players: tuple[str, ...] | None = None,
                          totals: tuple[int, ...] | None = None, dealer: str | None = None) -> State:
        """A game after the draw for seats and the first deal, seeded so it replays exactly.

        ``players`` name the players (default: the seat letters); ``totals`` start the score
        sheet elsewhere than 0 for each side (for lessons and puzzles); ``dealer`` skips the draw
        for seats and names the first dealer.
        """
        variant = self.variant
        seats = variant.seats
        names = check_player_names(tuple(variant.roster) if players is None else players, variant.roster)
        state = new_state(self.options, seed, variant)
        if totals is not None:
            if len(totals) != variant.n_sides:
                raise NotationError(f"totals: give {variant.n_sides}, one per side "
                                    f"({', '.join(variant.side_names)}), not {len(totals)}", None, "totals")
            state.totals = [int(t) for t in totals]
        if dealer is None:
            draws, seated = draw_for_seats(random.Random(f"canasta/{seed}/seats"), names, variant)
            state.seat_draws = draws
            if isinstance(state, FiveState):
                if players is None:  # unnamed players are called after the chair the draw gave them (F: out)
                    label = dict(zip(seated, variant.roster, strict=True))
                    draws = [SeatDraw(label[d.player], d.card, d.redraw) for d in draws]
                    state.seat_draws = draws
                    seated = tuple(variant.roster)
                state.out = seated[variant.players]
            state.players = seated[:variant.players]
            # the highest drawer plays first; the player to their right deals first (R-DEAL-1)
            state.dealer = (seating_order(variant)[0] - 1) % variant.players
        else:
            state.players = names[:variant.players]
            if isinstance(state, FiveState):
                state.out = names[variant.players]
            if not isinstance(dealer, str) or len(dealer) != 1 or dealer.upper() not in seats:
                raise NotationError(f"dealer {dealer!r}: give a seat, {', '.join(seats[:-1])} or {seats[-1]}", None,
                                    "dealer")
            state.dealer = seats.index(dealer.upper())
        state._deal()
        return state
