"""The game review's mistakes in the progress store: saved with their positions, read back.

:func:`save_mistakes` writes the decisions of a :class:`~.review.Review` graded a mistake or a blunder to the
store's ``review_mistakes`` table (:mod:`.progress`, schema version 4), each with its position and the game
record up to it (which replays to the exact game, so a retry sees what the learner saw), in one transaction: a
process killed during the save keeps all of them or none.  A mistake is named by the game up to it, the move
and the review's seed (``uid``): saving the same review twice adds nothing.  :func:`mistakes` reads them back,
oldest first, as plain dictionaries (their text is data: shown escaped wherever it is shown).

>>> import os, tempfile
>>> from .progress import ProgressStore
>>> from .review import Decision, Review
>>> d = Decision(ply=4, hand=1, action=("discard", 9), text="discard 9", grade="blunder", loss=240.0,
...              best=("discard", 4), best_text="discard 4", deals=120, position="canasta-tutor position\\n",
...              verdict="")
>>> review = Review(seat="S", seed=0, decisions=[d], forced=0, hands=[1])
>>> with ProgressStore(os.path.join(tempfile.mkdtemp(), "p.sqlite3")) as store:
...     save_mistakes(store, "s01", review, game="table"), save_mistakes(store, "s01", review, game="table")
...     [(m["action"], m["best"], m["grade"]) for m in mistakes(store, "s01")]
(1, 0)
[('discard 9', 'discard 4', 'blunder')]
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any

from .progress import STORE_ERRORS, ProgressStore, store_error
from .review import Decision, Review

_COLUMNS = ("id", "uid", "created", "game", "seat", "hand", "ply", "position", "record", "action", "best", "grade",
            "loss", "seed", "samples", "explanation")


def mistake_uid(decision: Decision, seat: str, seed: int, samples: int | None = None) -> str:
    """The mistake's name: a hash of the game up to it, the seat, the move and the review's seed and samples."""
    key = "\n".join((decision.record, seat, decision.text, str(seed), str(samples)))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def save_mistakes(store: ProgressStore, learner: str, review: Review, game: str = "") -> int:
    """Save the review's mistakes and blunders for ``learner`` (one transaction); returns how many were new."""
    if not learner.strip():
        raise ValueError("a learner needs a name")
    try:
        return _save(store, learner, review, game)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None


def _save(store: ProgressStore, learner: str, review: Review, game: str) -> int:
    new = 0
    with store.transaction():
        lid = store.learner_id(learner)
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        for d in review.mistakes:
            cur = store.conn.execute(
                "INSERT INTO review_mistakes (learner_id, uid, created, game, seat, hand, ply, position, record, "
                "action, best, grade, loss, seed, samples, explanation) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (uid) DO NOTHING",  # saved before; any other constraint still refuses the save
                (lid, mistake_uid(d, review.seat, review.seed, review.samples), now, game, review.seat, d.hand, d.ply,
                 d.position, d.record, d.text, d.best_text, d.grade, round(d.loss, 1), review.seed, review.samples,
                 d.explanation))
            new += cur.rowcount
    return new


def mistakes(store: ProgressStore, learner: str) -> list[dict[str, Any]]:
    """The learner's saved mistakes, oldest first."""
    try:
        rows = store.conn.execute(
            f"SELECT {', '.join('m.' + c for c in _COLUMNS)} FROM review_mistakes m JOIN learners l "
            "ON l.id = m.learner_id WHERE l.name = ? ORDER BY m.id", (learner,)).fetchall()
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    return [dict(zip(_COLUMNS, r, strict=True)) for r in rows]


__all__ = ["mistake_uid", "mistakes", "save_mistakes"]
