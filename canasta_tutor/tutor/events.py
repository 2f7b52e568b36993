"""Typed events: what happened at the table, one record per thing a learner sees.

A session appends an event for every action of every seat and for the things
the engine does by itself (a red three laid out and replaced, a player going
out, the end of a hand).  Lessons check their success and failure predicates
over these events, puzzles judge answers from them, and the class reports read
them into pandas; nothing downstream parses the ``text`` field.

>>> e = ActionEvent(index=0, seat="S", action=("draw",), notation="draw", text="You drew 4♥.")
>>> e.kind, e.to_dict()["notation"]
('action', 'draw')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

EventKind = Literal["action", "red_three", "went_out", "hand_over", "refused", "hint", "undo"]


@dataclass(frozen=True)
class Event:
    """Base of every event.  ``index`` is the event's place in the session's log."""

    index: int
    seat: str | None
    text: str
    kind: EventKind = field(init=False, default="action")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples become lists)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class ActionEvent(Event):
    """One action of one seat, as applied by the engine.

    ``action`` is the engine's tuple, ``notation`` its text form
    (:func:`canasta_tutor.notation.actions.format_action`), ``cards`` the card codes
    that left (or, for a take or draw seen by this seat, entered) the hand,
    and ``commentary`` the why of the move where it is known (a bot's reason,
    a lesson's note); the learner reads ``text`` and ``commentary``.
    ``principles`` are the ids of the strategy principles behind a bot's move
    (:mod:`canasta_tutor.bots.principles`), where known.
    """

    action: tuple[Any, ...] = ()
    notation: str = ""
    cards: tuple[str, ...] = ()
    commentary: str = ""
    deal: int = 0
    principles: tuple[str, ...] = ()
    kind: EventKind = field(init=False, default="action")


@dataclass(frozen=True)
class RedThreeEvent(Event):
    """A red three laid out (and, unless the hand is ending, replaced from the stock)."""

    card: str = ""
    replaced: bool = True
    kind: EventKind = field(init=False, default="red_three")


@dataclass(frozen=True)
class WentOutEvent(Event):
    """A player went out (``concealed`` when the whole hand went down in one turn)."""

    concealed: bool = False
    kind: EventKind = field(init=False, default="went_out")


@dataclass(frozen=True)
class HandOverEvent(Event):
    """The end of a hand, with its :class:`~canasta_tutor.engine.scoring.HandResult` as a dict."""

    result: dict[str, Any] = field(default_factory=dict)
    kind: EventKind = field(init=False, default="hand_over")


@dataclass(frozen=True)
class RefusedEvent(Event):
    """An action the learner tried and the engine refused, with its rule.  ``press`` is the click as the
    learner made it ("Meld 7♠ 7♣ J♥") when the refusal answers a button, not typed text; ``action`` is
    then the engine action that was refused for it (the first of the planner's steps)."""

    action: tuple[Any, ...] = ()
    notation: str = ""
    rule: str = ""
    reason: str = ""
    press: str = ""
    kind: EventKind = field(init=False, default="refused")


__all__ = ["Event", "EventKind", "ActionEvent", "RedThreeEvent", "WentOutEvent", "HandOverEvent",
           "RefusedEvent"]
