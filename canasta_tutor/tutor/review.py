"""Game review: every decision a learner made in a game, graded from what they could see at the time.

:func:`review_record` replays a game record and, before each action of the learner's seat, takes the
learner's observation (:func:`~canasta_tutor.engine.observer.observe`: their own hand, the public cards, what they
know of the others' hands; never a hidden card).  Each action played where more than one was legal is a
*decision*; a forced action (one legal action, such as a draw when the pack may not be taken) is counted but
not graded.  Each decision is graded by :func:`canasta_tutor.hint.grade` against the hint's own best on the
hint's sampled deals, with the review's seed: the same judge as the hint and the coach, so the same record,
seat and seed always give the same grades, on any machine.

What a review says:

- each decision's grade (best, good, inaccuracy, mistake, blunder) and the points it lost: the hand's
  expected margin (the learner's side's score less the others') the move gives up against the hint's best,
  counted only beyond one standard error of the search's paired difference, so noise never costs points;
- the three costliest decisions (those that lost points, the most first), each explained in words: the move
  the learner played, the hint's move, the hint's reasons for it, and what the search or the facts of the
  position say against the learner's move (:func:`explain_decision`);
- an **accuracy** figure for each hand and for the game: the share of decisions graded best or good (that
  is, within 30 points of the hint's best).  100% means no decision gave up 30 points or more; it says
  nothing of luck, only of the choices.  The mean points lost per decision goes with it.

:func:`save_mistakes` keeps the decisions graded a mistake or a blunder in the progress store
(:mod:`.review_store`), each with its position, so that the learner can try it again and the review queue can
bring it back.  Nothing here imports a widget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..notation.actions import format_action
from ..engine.errors import CanastaError
from ..engine.observer import Observation, observe
from ..notation.position import format_position
from ..notation.record import Record, format_record, parse_record, replay
from ..engine.state import Action, State

#: grades that go to the progress store and into the review queue
MISTAKE_GRADES = ("mistake", "blunder")
#: grades that count as accurate
ACCURATE_GRADES = ("best", "good")
#: how many of the costliest decisions are explained in words
EXPLAINED = 3

ACCURACY_WORDS = ("Accuracy is the share of your decisions graded best or good: within 30 points of the hint's "
                  "best move, in the hand's expected score (your side's less theirs). 100% means no decision gave "
                  "up 30 points or more; luck does not count, only your choices.")

Progress = Callable[[int, int], None]


class ReviewError(CanastaError):
    """A review that cannot run: a seat not in the game, or no decision of the seat to review."""


@dataclass
class Decision:
    """One of the learner's decisions, graded.

    ``ply`` is its index in the record's actions (the position is the game after the first ``ply`` actions);
    ``hand`` counts from 1; ``loss`` is in points of the hand's expected margin (see the module docstring)."""

    ply: int
    hand: int
    action: Action
    text: str
    grade: str
    loss: float
    best: Action
    best_text: str
    deals: int
    #: the position as the game stood (every hand, as the record knows it), in the project's notation
    position: str
    #: the grade's own words (:meth:`canasta_tutor.hint.Grade.text`)
    verdict: str
    #: the explanation in words (only for the costliest decisions, see :func:`explain_decision`)
    explanation: str = ""
    #: the game record up to the decision: it replays to the exact game (the position text alone does not
    #: carry the history a search reads), so a retry is judged from the same observation
    record: str = ""

    @property
    def mistake(self) -> bool:
        return self.grade in MISTAKE_GRADES

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "hand": self.hand, "action": self.text, "grade": self.grade,
                "loss": round(self.loss, 1), "best": self.best_text, "deals": self.deals,
                "verdict": self.verdict, "explanation": self.explanation, "position": self.position}


def accuracy(decisions: list[Decision]) -> float | None:
    """The share of ``decisions`` graded best or good, from 0 to 1 (None with no decision).

    >>> d = dict(ply=0, hand=1, action=("draw",), text="draw", loss=0.0, best=("draw",), best_text="draw",
    ...          deals=0, position="", verdict="")
    >>> accuracy([Decision(grade="best", **d), Decision(grade="mistake", **d)])
    0.5
    """
    if not decisions:
        return None
    return sum(d.grade in ACCURATE_GRADES for d in decisions) / len(decisions)


def _percent(x: float | None) -> str:
    return "no decision" if x is None else f"{100 * x:.0f}%"


@dataclass
class Review:
    """The review of one seat's decisions in a game record."""

    seat: str
    seed: int
    decisions: list[Decision]
    #: the seat's actions that had no choice (not graded)
    forced: int
    #: the record's hands, by number, that the seat acted in
    hands: list[int]
    cpu_seconds: float = 0.0
    costliest: list[Decision] = field(default_factory=list)
    #: the search's deals per move (None: the hint's own race), as the judge of a retry must use them
    samples: int | None = None

    @property
    def accuracy(self) -> float | None:
        return accuracy(self.decisions)

    @property
    def mean_loss(self) -> float:
        return sum(d.loss for d in self.decisions) / len(self.decisions) if self.decisions else 0.0

    @property
    def mistakes(self) -> list[Decision]:
        return [d for d in self.decisions if d.mistake]

    def hand_accuracy(self) -> dict[int, float | None]:
        return {h: accuracy([d for d in self.decisions if d.hand == h]) for h in self.hands}

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(("best", "good", "inaccuracy", "mistake", "blunder"), 0)
        for d in self.decisions:
            out[d.grade] += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "seed": self.seed, "samples": self.samples,
                "decisions": [d.to_dict() for d in self.decisions],
                "forced": self.forced, "grades": self.counts(),
                "accuracy": None if self.accuracy is None else round(self.accuracy, 3),
                "accuracy_means": ACCURACY_WORDS,
                "hands": [{"hand": h, "accuracy": None if a is None else round(a, 3)}
                          for h, a in self.hand_accuracy().items()],
                "mean_loss": round(self.mean_loss, 1),
                "costliest": [d.ply for d in self.costliest],
                "cpu_seconds": round(self.cpu_seconds, 2)}

    def text(self) -> str:
        """The review in plain text: a line per decision, the accuracy, then the costliest explained."""
        lines = [f"Review of seat {self.seat}: {len(self.decisions)} decisions graded "
                 f"({self.forced} forced actions not graded), seed {self.seed}."]
        for d in self.decisions:
            lost = f", {d.loss:.0f} points lost" if d.loss >= 0.5 else ""
            best = "" if d.grade == "best" else f" (the hint: {d.best_text})"
            lines.append(f"  hand {d.hand}, action {d.ply + 1}: {d.text}: {d.grade}{lost}{best}")
        for h, a in self.hand_accuracy().items():
            lines.append(f"Hand {h}: accuracy {_percent(a)}.")
        lines.append(f"Accuracy {_percent(self.accuracy)}; {self.mean_loss:.0f} points lost per decision on average.")
        lines.append(ACCURACY_WORDS)
        if self.costliest:
            lines.append("The costliest decisions:")
            for d in self.costliest:
                lines.append(f"- Hand {d.hand}, action {d.ply + 1}: {d.explanation}")
        else:
            lines.append("No decision lost points beyond the search's noise.")
        return "\n".join(lines)


@dataclass
class _Spot:
    ply: int
    hand: int
    state: State
    obs: Observation
    action: Action


def decision_points(record: Record, seat: str) -> tuple[list[_Spot], int, list[int]]:
    """Replay ``record`` and return the seat's decisions (with the state before each), the number of its forced
    actions and the hands it acted in.  The record is checked first (:func:`~canasta_tutor.notation.record.replay`): an
    illegal action raises its :class:`~canasta_tutor.engine.errors.NotationError`, naming the line."""
    replay(record, check_result=False)
    state = record.initial_state()
    if seat not in state.variant.seats:
        raise ReviewError(f"no seat {seat[:10]!r} in {state.variant.name}: choose one of "
                          f"{', '.join(state.variant.seats)}")
    spots: list[_Spot] = []
    forced = 0
    hands: list[int] = []
    for ply, pair in enumerate(record.actions):
        if pair[0] == seat and state.current_seat == seat:
            hand = len(state.hand_results) + 1
            if hand not in hands:
                hands.append(hand)
            legal = state.legal_actions()
            if len(legal) > 1 and pair[1] in legal:
                spots.append(_Spot(ply, hand, state.copy(), observe(state, seat), pair[1]))
            elif len(legal) <= 1:
                forced += 1
        state.apply(pair[1])
    return spots, forced, hands


def grade_spot(spot: _Spot, seed: int, samples: int | None = None) -> Decision:
    """Grade one decision from the learner's observation (:func:`canasta_tutor.hint.grade`)."""
    from ..hint import grade

    g = grade(spot.obs, spot.action, seed=seed, samples=samples)
    return Decision(ply=spot.ply, hand=spot.hand, action=spot.action, text=format_action(spot.action),
                    grade=g.grade, loss=g.loss, best=g.best, best_text=format_action(g.best), deals=g.deals,
                    position=format_position(spot.state), verdict=g.text(), record=format_record(spot.state))


def explain_decision(obs: Observation, decision: Decision, seed: int, samples: int | None = None) -> str:
    """A decision in words: the move played, its grade and loss, the hint's move and its reasons (the hint's
    own explanation), then what is said against the move played: the hint's comparison where the move is
    among its alternatives, else the facts the detectors find in the move."""
    from ..hint import explain_move, hint

    h = hint(obs, samples=samples, seed=seed)
    played = decision.text
    out = [f"You played {played}: {decision.grade}, about {decision.loss:.0f} points lost.",
           f"The hint plays {h.best_text}. {h.explanation}"]
    alt = next((a for a in h.alternatives if a.action == decision.action), None)
    if alt is not None:
        said = alt.sentence(h.best_text)
        if said not in h.explanation:  # the hint's explanation compares its alternatives already
            out.append(said)
    else:
        facts = [f for f in explain_move(obs, decision.action) if f]
        out.append(f"Of {played}: " + " ".join(facts) if facts else
                   f"{played[:1].upper()}{played[1:]} scores about {decision.loss:.0f} points less than "
                   f"{h.best_text} on the same sampled deals.")
    return " ".join(out)


def replay_to(record_text: str) -> State:
    """The game a saved decision's record replays to (:attr:`Decision.record`)."""
    return replay(parse_record(record_text), check_result=False)


def costliest(decisions: list[Decision], n: int = EXPLAINED) -> list[Decision]:
    """The ``n`` decisions that lost the most points (a loss of under half a point does not count), the
    costliest first; ties go to the earlier decision."""
    lost = [d for d in decisions if d.loss >= 0.5]
    return sorted(lost, key=lambda d: (-d.loss, d.ply))[:n]


def review_record(record: Record, seat: str, seed: int = 0, samples: int | None = None,
                  progress: Progress | None = None, hand: int | None = None) -> Review:
    """Review the decisions of ``seat`` in ``record`` (only hand ``hand`` when given).

    ``progress(done, total)`` is called before the first decision is graded and after each, then as the
    costliest are explained (``total`` counts them too; the last call has ``done == total``).  ``samples``
    fixes the search's deals per move (default: the hint's own race); ``seed`` seeds every search, so the
    review repeats exactly."""
    start = time.process_time()
    spots, forced, hands = decision_points(record, seat)
    if hand is not None:
        if hand not in hands:
            raise ReviewError(f"seat {seat} has no action in hand {hand}: it acted in hands "
                              f"{', '.join(map(str, hands)) or 'none'}")
        spots = [s for s in spots if s.hand == hand]
        hands = [hand]
    total = len(spots) + min(EXPLAINED, len(spots))
    if progress:
        progress(0, total)
    decisions = []
    for i, spot in enumerate(spots, start=1):
        decisions.append(grade_spot(spot, seed, samples))
        if progress:
            progress(i, total)
    worst = costliest(decisions)
    by_ply = {s.ply: s for s in spots}
    for j, d in enumerate(worst, start=1):
        d.explanation = explain_decision(by_ply[d.ply].obs, d, seed, samples)
        if progress and j < len(worst):
            progress(len(spots) + j, total)
    if progress:
        progress(len(spots) + len(worst), len(spots) + len(worst))
    return Review(seat=seat, seed=seed, decisions=decisions, forced=forced, hands=hands,
                  cpu_seconds=time.process_time() - start, costliest=worst, samples=samples)


__all__ = ["ACCURACY_WORDS", "Decision", "Review", "ReviewError", "accuracy", "costliest", "decision_points",
           "explain_decision", "grade_spot", "replay_to", "review_record"]
