"""Practising a review card of a game mistake: the position again, the learner's move judged and the card rated.

A mistake card (:mod:`.review_queue`) is a position from the learner's own game, saved by the review
(:mod:`.review_store`), whose answer is the hint's best move.  :func:`answer_mistake` judges a move there as
the puzzle trainer does: an illegal move is refused with the engine's rule and reason (the card is not rated:
the learner tries again); a legal one is graded by :func:`canasta_tutor.hint.grade` from the learner's
observation with the seed and samples the review used, so the judge is the one that called the move a
mistake (the move played in the game misses again).  A move
graded best or good solves the card (Good, or Hard when the learner took a hint); any other misses it
(Again) and is explained in words: the move played, the hint's move and its reasons.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..notation.actions import format_action, parse_action
from ..engine.errors import IllegalActionError
from ..engine.observer import Observation, observe
from ..notation.position import format_position
from .progress import STORE_ERRORS, ProgressStore, store_error
from .review import Decision, explain_decision, replay_to
from .review_queue import ReviewCard, rate, rating_for


class UnknownCardError(KeyError):
    """No saved mistake of this learner has this id."""


@dataclass
class Answer:
    """The judgement of one answer to a mistake card."""

    played: str
    solved: bool
    rating: str
    grade: str
    loss: float
    best: str
    text: str
    card: ReviewCard

    def to_dict(self) -> dict[str, Any]:
        return {"played": self.played, "solved": self.solved, "rating": self.rating, "grade": self.grade,
                "loss": round(self.loss, 1), "best": self.best, "text": self.text, "card": self.card.to_dict()}


def mistake(store: ProgressStore, learner: str, uid: str) -> dict[str, Any]:
    """The saved mistake ``uid`` of ``learner`` (see :func:`.review_store.mistakes`)."""
    from .review_store import mistakes

    found = next((m for m in mistakes(store, learner) if m["uid"] == uid), None)
    if found is None:
        raise UnknownCardError(f"no saved mistake {uid[:40]!r} for {learner[:40]!r}")
    return found


def mistake_observation(row: dict[str, Any]) -> Observation:
    """The learner's observation of a saved mistake's position (the game replayed to it)."""
    return observe(replay_to(row["record"]), row["seat"])


def question(row: dict[str, Any]) -> str:
    """The card's question: the position as the learner saw it, and what to find."""
    state = replay_to(row["record"])
    return (f"From your game ({row['game'] or 'a game'}, hand {row['hand']}): your move here lost about "
            f"{row['loss']:.0f} points. Find the best move.\n" + format_position(state, row["seat"]))


def answer_mistake(store: ProgressStore, learner: str, uid: str, move: str, hints: int = 0,
                   now: datetime | None = None) -> Answer:
    """Judge ``move`` (an action's text, such as ``discard 7``) on the mistake card ``uid`` and rate the card.

    Raises :class:`~canasta_tutor.engine.errors.NotationError` for text that is no action and
    :class:`~canasta_tutor.engine.errors.IllegalActionError` (the engine's rule and reason) for an illegal move:
    neither rates the card."""
    from ..hint import grade

    try:
        row = mistake(store, learner, uid)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    state = replay_to(row["record"])
    action = parse_action(move)
    refused = state.explain(action)
    if refused is not None:
        raise refused
    if state.current_seat != row["seat"]:
        raise IllegalActionError("R-TURN-1", f"it is not {row['seat']}'s turn in this position", action)
    obs = observe(state, row["seat"])
    samples = None if row["samples"] is None else int(row["samples"])
    g = grade(obs, action, seed=int(row["seed"]), samples=samples)
    played = format_action(action)
    solved = g.grade in ("best", "good")
    if g.grade == "best":
        text = f"{played[:1].upper()}{played[1:]}: the hint's own move."
    elif solved:
        text = f"{played[:1].upper()}{played[1:]}: good, within 30 points of the hint's {format_action(g.best)}."
    else:
        d = Decision(ply=int(row["ply"]), hand=int(row["hand"]), action=action, text=played, grade=g.grade,
                     loss=g.loss, best=g.best, best_text=format_action(g.best), deals=g.deals,
                     position=row["position"], verdict=g.text())
        text = explain_decision(obs, d, int(row["seed"]), samples)
    rating = rating_for(solved, hints)
    card = rate(store, learner, "mistake", uid, rating, now)
    return Answer(played, solved, rating.name, g.grade, g.loss, format_action(g.best), text, card)


__all__ = ["Answer", "UnknownCardError", "answer_mistake", "mistake", "mistake_observation", "question"]
