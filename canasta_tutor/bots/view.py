"""A compact view of one seat's knowledge, the input of every bot.

A :class:`View` holds only what the seat may know (its own hand and public
facts), in the engine's kind counts so bots can reason quickly.  It is built
either from an :class:`~canasta_tutor.observer.Observation` (what a bot is
given) or, inside search playouts, straight from a determinized state; the
two give the same view for the same seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARD_KIND, kind_of_code
from ..observer import Observation
from ..options import RuleOptions
from ..state import State


@dataclass(slots=True)
class View:
    seat: int
    phase: str
    turn: int
    options: RuleOptions
    hand: list[int]  # kind counts of the seat's own hand
    hand_sizes: list[int]
    melds: tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]
    pile_size: int
    pile_top: int  # kind of the top card, -1 when the pile is empty
    freeze_at: int
    stock_size: int
    initial: tuple[bool, bool]
    minimums: tuple[int, int]
    known: list[list[int]]
    must_out: bool
    pending: int
    answer: bool | None
    asked: int
    melded_turn: bool
    took_pack: bool
    red_threes: tuple[int, int]
    legal: list[tuple]
    history_tail: tuple[tuple, ...]

    @property
    def side(self) -> int:
        return self.seat & 1

    def frozen_for(self, side: int) -> bool:
        return self.freeze_at >= 0 or not self.initial[side]


def view_of_state(state: State, seat: int, legal: list[tuple] | None = None) -> View:
    """The view of ``seat`` read from a state (used inside search on determinized states)."""
    return View(
        seat=seat,
        phase=state.phase,
        turn=state.turn,
        options=state.options,
        hand=[len(k) for k in state.hands[seat]],
        hand_sizes=state.hand_size[:],
        melds=(state.meld_summary(0), state.meld_summary(1)),
        pile_size=len(state.pile),
        pile_top=CARD_KIND[state.pile[-1]] if state.pile else -1,
        freeze_at=state.freeze_at,
        stock_size=len(state.stock),
        initial=(state.initial[0], state.initial[1]),
        minimums=(state.minimums[0], state.minimums[1]),
        known=state.known,
        must_out=state.must_out,
        pending=state.pending,
        answer=state.answer,
        asked=state.asked,
        melded_turn=state.melded_turn,
        took_pack=state.took_pack,
        red_threes=(len(state.red3[0]), len(state.red3[1])),
        legal=state.legal_actions() if legal is None else legal,
        history_tail=tuple(state.history[-12:]),
    )


def view_of_observation(obs: Observation) -> View:
    """The view of the observing seat from its observation."""
    return View(
        seat=obs.seat,
        phase=obs.phase,
        turn=obs.turn,
        options=obs.options,
        hand=list(obs.hand_counts),
        hand_sizes=list(obs.hand_sizes),
        melds=(dict(obs.meld_summary[0]), dict(obs.meld_summary[1])),
        pile_size=len(obs.pile),
        pile_top=kind_of_code(obs.pile[-1]) if obs.pile else -1,
        freeze_at=obs.freeze_at,
        stock_size=obs.stock_size,
        initial=obs.initial,
        minimums=obs.minimums,
        known=[list(k) for k in obs.known],
        must_out=obs.must_out,
        pending=obs.pending,
        answer=obs.answer,
        asked=obs.asked,
        melded_turn=obs.melded_turn,
        took_pack=obs.took_pack,
        red_threes=(len(obs.red_threes[0]), len(obs.red_threes[1])),
        legal=list(obs.legal_actions),
        history_tail=tuple(obs.history[-12:]),
    )


__all__ = ["View", "view_of_state", "view_of_observation"]
