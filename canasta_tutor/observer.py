"""What one seat may know: the observation that bots and widgets receive.

An :class:`Observation` holds the seat's own hand and everything public, with
perfect memory: the whole discard pile (every card in it was seen face up,
R-INFO-1), the cards known to have gone into each hand with a taken pack, the
melds, the red threes, every player's card count and the stock count
(R-INFO-2), the totals and minimums, and the public history of actions (a draw
from the stock never shows the card).  It never holds another player's hidden
cards.

>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=5)
>>> obs = observe(state, "S")
>>> len(obs.hand) == state.hand_size[2] and obs.hand_sizes[0] == 11
True
>>> "N: 11 cards" in obs.position_text
True
"""

from __future__ import annotations

from dataclasses import dataclass
from .cards import CARD_CODE, sort_key
from .options import RuleOptions
from .scoring import HandResult
from .state import SEATS, Action, State, seat_index


@dataclass(frozen=True)
class Observation:
    """One seat's view of a game.  Every field is public or the seat's own."""

    seat: int
    options: RuleOptions
    phase: str
    actor: int | None
    turn: int
    dealer: int
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    hand_sizes: tuple[int, int, int, int]
    known: tuple[tuple[int, ...], ...]
    melds: tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]
    meld_summary: tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]
    red_threes: tuple[tuple[str, ...], tuple[str, ...]]
    pile: tuple[str, ...]
    freeze_at: int
    stock_size: int
    totals: tuple[int, int]
    deal_totals: tuple[int, int]
    minimums: tuple[int, int]
    initial: tuple[bool, bool]
    asked: int
    answer: bool | None
    must_out: bool
    pending: int
    shown: bool
    melded_turn: bool
    took_pack: bool
    legal_actions: tuple[Action, ...]
    history: tuple[Action, ...]
    hand_results: tuple[HandResult, ...]
    position_text: str
    deal_no: int = 0
    first_turn_done: tuple[bool, bool, bool, bool] = (True, True, True, True)
    has_melded: tuple[bool, bool, bool, bool] = (False, False, False, False)

    @property
    def side(self) -> int:
        return self.seat & 1

    @property
    def is_my_turn(self) -> bool:
        return self.actor == self.seat

    def frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen against ``side`` (R-FRZ-1..3)."""
        return self.freeze_at >= 0 or not self.initial[side]


def observe(state: State, seat: int | str) -> Observation:
    """The observation of ``seat`` (0..3 or N/E/S/W) in ``state``."""
    from .position import format_position

    s = seat_index(seat)
    own = sorted((c for k in state.hands[s] for c in k), key=sort_key)
    actor = state.actor
    return Observation(
        seat=s,
        options=state.options,
        phase=state.phase,
        actor=actor,
        turn=state.turn,
        dealer=state.dealer,
        hand=tuple(CARD_CODE[c] for c in own),
        hand_counts=tuple(len(k) for k in state.hands[s]),
        hand_sizes=tuple(state.hand_size),  # type: ignore[arg-type]
        known=tuple(tuple(state.known[i]) if i != s else tuple(len(k) for k in state.hands[s])
                    for i in range(4)),
        melds=tuple({k: tuple(CARD_CODE[c] for c in m[0] + m[1]) for k, m in side.items()}
                    for side in state.melds),  # type: ignore[arg-type]
        meld_summary=(state.meld_summary(0), state.meld_summary(1)),
        red_threes=(tuple(CARD_CODE[c] for c in state.red3[0]), tuple(CARD_CODE[c] for c in state.red3[1])),
        pile=tuple(CARD_CODE[c] for c in state.pile),
        freeze_at=state.freeze_at,
        stock_size=len(state.stock),
        totals=(state.totals[0], state.totals[1]),
        deal_totals=(state.deal_totals[0], state.deal_totals[1]),
        minimums=(state.minimums[0], state.minimums[1]),
        initial=(state.initial[0], state.initial[1]),
        asked=state.asked,
        answer=state.answer,
        must_out=state.must_out,
        pending=state.pending,
        shown=state.shown,
        melded_turn=state.melded_turn,
        took_pack=state.took_pack,
        legal_actions=tuple(state.legal_actions()) if actor == s else (),
        history=tuple(state.history),
        hand_results=tuple(state.hand_results),
        position_text=format_position(state, s),
        deal_no=state.deal_no,
        first_turn_done=tuple(state.first_turn_done),  # type: ignore[arg-type]
        has_melded=tuple(state.has_melded),  # type: ignore[arg-type]
    )


class Observer:
    """Makes observations for one seat (the OpenSpiel split of Game, State and Observer)."""

    def __init__(self, seat: int | str) -> None:
        self.seat = seat_index(seat)

    def __call__(self, state: State) -> Observation:
        return observe(state, self.seat)

    def __repr__(self) -> str:
        return f"Observer({SEATS[self.seat]!r})"


__all__ = ["Observation", "Observer", "observe"]
