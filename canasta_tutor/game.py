"""The game: rule options and the way a new game starts.

:class:`Game` holds what does not change during play (the rule options);
:class:`~canasta_tutor.state.State` holds what does; an
:class:`~canasta_tutor.observer.Observation` is what one seat may know.

>>> game = Game()
>>> state = game.new_initial_state(seed=42)
>>> len(state.hand("S")) + len(state.hand("N")) + len(state.hand("E")) + len(state.hand("W")) <= 44
True
>>> game.new_initial_state(seed=42).hand("S") == state.hand("S")   # a seed reproduces the game
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import CARD_CODE, CARD_KIND, JOKER, NUM_CARDS, RANK_CHARS, SUIT_CHARS, shuffle
from .errors import NotationError
from .options import RuleOptions
from .state import SEATS, State


def check_player_names(names: object) -> tuple[str, str, str, str]:
    """Four distinct names a position can write and read back, or :class:`NotationError`."""
    if not isinstance(names, (tuple, list)) or len(names) != 4:
        raise NotationError(f"players: give four names, by seat N, E, S, W (got {repr(names)[:60]})",
                            None, "players")
    for name in names:
        if not isinstance(name, str) or not name or name != name.strip() or len(name) > 40 or "  " in name:
            raise NotationError(f"player name {repr(name)[:60]}: names are 1 to 40 characters, with no "
                                "space at either end and no two spaces in a row", None, "players")
        if any(ch in "#,:;=" or not ch.isprintable() for ch in name):
            raise NotationError(f"player name {name!r}: names can't hold '#', ',', ':', ';', '=' or control "
                                "and line-break characters", None, "players")
    if len(set(names)) != 4:
        raise NotationError(f"players: the four names must differ ({', '.join(names)})", None, "players")
    return (names[0], names[1], names[2], names[3])


@dataclass(frozen=True)
class SeatDraw:
    """One card drawn in the draw for seats (R-SEAT-1, R-SEAT-2)."""

    player: str
    card: str
    redraw: bool


def _draw_rank(card: int) -> tuple[int, int]:
    code = CARD_CODE[card]
    return (RANK_CHARS.index(code[0]), 3 - SUIT_CHARS.index(code[1]))


def draw_for_seats(rng: random.Random, players: tuple[str, str, str, str]) -> tuple[list[SeatDraw], tuple[str, ...]]:
    """The draw for partners and seats (R-SEAT-1..3).

    Each player draws one card from a shuffled deck; a joker, or a card identical
    to another player's, means drawing again.  The highest drawer sits South and
    plays first, the second highest sits North as partner, the third West and
    the fourth East.  Returns the draws and the players by seat (N, E, S, W).
    """
    deck = list(range(NUM_CARDS))
    shuffle(rng, deck)
    draws: list[SeatDraw] = []
    final: dict[str, int] = {}
    waiting = list(players)
    while waiting:
        drawn = {p: deck.pop() for p in waiting}
        codes = [CARD_CODE[c] for c in drawn.values()] + [CARD_CODE[c] for c in final.values()]
        again = []
        for p, card in drawn.items():
            bad = CARD_KIND[card] == JOKER or codes.count(CARD_CODE[card]) > 1
            draws.append(SeatDraw(p, CARD_CODE[card], bad))
            if bad:
                again.append(p)
            else:
                final[p] = card
        waiting = again
    order = sorted(final, key=lambda p: _draw_rank(final[p]), reverse=True)
    by_seat = {"S": order[0], "N": order[1], "W": order[2], "E": order[3]}
    return draws, tuple(by_seat[s] for s in SEATS)


@dataclass(frozen=True)
class Game:
    """Classic four-player partnership Canasta under some :class:`RuleOptions`."""

    options: RuleOptions = field(default_factory=RuleOptions)

    def new_initial_state(self, seed: int = 0, players: tuple[str, str, str, str] = ("N", "E", "S", "W"),
                          totals: tuple[int, int] = (0, 0), dealer: str | None = None) -> State:
        """A game after the draw for seats and the first deal, seeded so it replays exactly.

        ``totals`` start the score sheet elsewhere than 0-0 (for lessons and puzzles);
        ``dealer`` skips the draw for seats and names the first dealer.
        """
        players = check_player_names(players)
        state = State(self.options, seed)
        state.totals = [int(totals[0]), int(totals[1])]
        if dealer is None:
            draws, seated = draw_for_seats(random.Random(f"canasta/{seed}/seats"), players)
            state.seat_draws = draws
            state.players = seated
            # the highest drawer sits South; the player to their right deals first (R-DEAL-1)
            state.dealer = SEATS.index("E")
        else:
            state.players = players
            if not isinstance(dealer, str) or len(dealer) != 1 or dealer.upper() not in SEATS:
                raise NotationError(f"dealer {dealer!r}: give a seat, N, E, S or W", None, "dealer")
            state.dealer = SEATS.index(dealer.upper())
        state._deal()
        return state
