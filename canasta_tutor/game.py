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

from .cards import CARD_CODE, CARD_KIND, JOKER, NUM_CARDS, RANK_CHARS, SUIT_CHARS
from .options import RuleOptions
from .state import SEATS, State


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
    rng.shuffle(deck)
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
            state.dealer = SEATS.index(dealer.upper())
        state._deal()
        return state
