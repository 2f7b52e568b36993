"""Playing the review queue's puzzle cards as the trainer plays them, and rating them from the attempt.

A puzzle card (:mod:`.review_queue`) is a puzzle of the library the learner missed.  :func:`open_puzzle`
puts it on a :class:`~canasta_tutor.tutor.puzzles.session.PuzzleTable` (the puzzle trainer's own table and
judge, saving to the learner's progress store, on the given clock), so the learner solves it by clicks as in
the trainer.  When it is over, the trainer has saved the attempt; :func:`puzzle_answer` brings the queue up to
date (:func:`~canasta_tutor.tutor.review_queue.sync`, which rates the card from that attempt: missed is
Again, solved with a hint Hard, solved at once Good) and says how it went in the trainer's words.

>>> import os, tempfile
>>> from datetime import datetime, timezone
>>> from .progress import Attempt, ProgressStore
>>> missed, now = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc), datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
>>> with ProgressStore(os.path.join(tempfile.mkdtemp(), "p.sqlite3")) as store:
...     _ = store.record(Attempt("ada", "puzzles", "c11-show-then-take", "failed", kind="puzzle",
...                              finished=missed.isoformat()))
...     t = open_puzzle(store, "ada", "c11-show-then-take", explain=None, now=now)
...     t.handle({"intent": "play", "text": "take 9 9 9"})
...     a = puzzle_answer(store, "ada", t, now=now)
'Solved: take 9 9 9 is the answer.'
>>> a.solved, a.rating, a.card is not None and a.card.reviews
(True, 'Good', 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .progress import STORE_ERRORS, ProgressStore, store_error
from .puzzles.session import PuzzleTable
from .puzzles.trainer import SOLVED, ExplainFn, Trainer, hint_explanation
from .review_queue import ReviewCard, card, rating_for, sync


@dataclass
class CardAnswer:
    """How one played card went: what was played, solved or not, the FSRS rating, the words, the card after."""

    played: str
    solved: bool
    rating: str
    grade: str
    text: str
    card: ReviewCard | None

    def to_dict(self) -> dict[str, Any]:
        return {"played": self.played, "solved": self.solved, "rating": self.rating, "grade": self.grade,
                "text": self.text, "card": None if self.card is None else self.card.to_dict()}


def clock_of(now: datetime | None) -> Callable[[], float]:
    """The clock of a fixed ``now`` (tests), or the real one."""
    if now is None:
        return time.time
    fixed = now.timestamp()
    return lambda: fixed


def open_puzzle(store: ProgressStore, learner: str, item: str, explain: ExplainFn | None = hint_explanation,
                now: datetime | None = None, four_colour: bool = False) -> PuzzleTable:
    """The puzzle ``item`` on the trainer's table, its attempt saved to ``store`` for ``learner`` (rated as the
    trainer rates any puzzle).  Raises :class:`~canasta_tutor.tutor.puzzles.trainer.TrainerError` for a puzzle
    no longer in the library."""
    trainer = Trainer(None, learner, store, explain, clock=clock_of(now))
    return PuzzleTable(trainer, puzzle=item, four_colour=four_colour)


def puzzle_answer(store: ProgressStore, learner: str, table: PuzzleTable, now: datetime | None = None) -> CardAnswer:
    """The answer of a finished puzzle card: the queue synced (which rates the card from the trainer's saved
    attempt) and the trainer's verdict, with its explanation of a miss."""
    run = table.run
    if not run.over:
        raise ValueError(f"puzzle {run.puzzle.id} is still open")
    solved = run.status == SOLVED
    try:
        sync(store, learner, now)
        after = card(store, learner, "puzzle", run.puzzle.id)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    last = table.verdicts[-1] if table.verdicts else None
    words = [last.text] if last else []
    if last is not None and not last.correct:
        words += [x for x in (last.explanation, last.figures) if x]
        words.append(f"The answer: {', '.join(run.puzzle.solution)}.")
    return CardAnswer(", ".join(run.played) or "nothing", solved, rating_for(solved, len(run.hints)).name,
                      "solved" if solved else "missed", " ".join(words), after)


__all__ = ["CardAnswer", "clock_of", "open_puzzle", "puzzle_answer"]
