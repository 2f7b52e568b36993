"""The ``review`` subcommand of ``canasta-tutor``: a game record's decisions, graded and explained.

- ``review RECORD --seat S [--seed N] [--samples N] [--hand N] [--save LEARNER] [--store FILE] [--json]``:
  every decision of seat ``S`` graded from what it could see at the time, the accuracy, and the three costliest
  decisions explained (:mod:`canasta_tutor.tutor.review`); ``--save`` keeps the mistakes and blunders in the
  progress store for ``LEARNER`` (the store of ``--store``, else the user's).  A teacher reviews a student's
  game this way.  The same record, seat and seed always give the same grades.
- ``review due [--learner NAME] [--store FILE] [--json]``: the review queue (:mod:`canasta_tutor.tutor.review_queue`)
  brought up to date with the attempts and mistakes saved since, then the cards due now, the longest due first;
- ``review show ID [--learner NAME]``: a mistake card's position as the learner saw it, and its question;
- ``review answer ID MOVE [--hints N] [--learner NAME]``: judge a move on a mistake card and rate the card
  (FSRS: missed Again, solved with a hint Hard, solved at once Good); an illegal move is refused with the
  engine's rule and the card is not rated.

``due``, ``show`` and ``answer`` are words, not record files: a record file of one of these names is given as
``./due``.  The learner is ``--learner``, else ``learner``, the name the course's notebooks save progress for.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .output import emit
from .args import SEED, UsageError, ranged


QUEUE_WORDS = ("due", "show", "answer")


def _learner(args: argparse.Namespace) -> str:
    return str(args.learner)


def _card_args(args: argparse.Namespace, count: int, usage: str) -> list[str]:
    if len(args.rest) != count:
        raise UsageError(f"usage: review {usage}")
    return list(args.rest)


def cmd_queue(args: argparse.Namespace) -> int:
    from ..tutor.progress import ProgressStore
    from ..tutor.review_practice import UnknownCardError, answer_mistake, mistake, question
    from ..tutor.review_queue import counts, due, sync

    learner = _learner(args)
    with ProgressStore(args.store) as store:
        if args.record == "due":
            _card_args(args, 0, "due [--learner NAME] [--store FILE] [--json]")
            sync(store, learner)
            cards = due(store, learner)
            n = counts(store, learner)
            lines = [f"{len(cards)} cards due for {learner} ({n['overdue']} overdue; {n['queued']} in the queue)."]
            lines += [f"  {c.kind} {c.item}: due {c.due.isoformat(timespec='minutes')}" for c in cards]
            emit(args, {"learner": learner, **n, "cards": [c.to_dict() for c in cards]}, "\n".join(lines))
            return 0
        try:
            if args.record == "show":
                (uid,) = _card_args(args, 1, "show ID [--learner NAME]")
                row = mistake(store, learner, uid)
                text = question(row)
                emit(args, {"id": uid, "question": text, "seat": row["seat"]}, text)
                return 0
            uid, move = _card_args(args, 2, "answer ID MOVE [--hints N] [--learner NAME]")
            answer = answer_mistake(store, learner, uid, move, hints=args.hints)
        except UnknownCardError as e:
            raise UsageError(str(e.args[0])) from None
    due_at = answer.card.due.isoformat(timespec="minutes")
    emit(args, answer.to_dict(), f"{answer.text}\nRated {answer.rating}: due again {due_at}.")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from ..notation.record import load_record

    if args.record in QUEUE_WORDS:
        return cmd_queue(args)
    if args.rest:
        raise UsageError(f"review RECORD takes one record file, not {' '.join(args.rest)[:40]!r}")
    if args.seat is None:
        raise UsageError("review RECORD needs --seat S: the seat whose decisions to review")
    from ..tutor.review import ReviewError, review_record

    record = load_record(args.record)
    progress = args.progress if args.progress is not None else sys.stderr.isatty()

    def tell(done: int, total: int) -> None:
        print(f"\rreviewing: {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    try:
        review = review_record(record, args.seat, seed=args.seed, samples=args.samples,
                               progress=tell if progress else None, hand=args.hand)
    except ReviewError as e:
        raise UsageError(str(e)) from None
    data: dict[str, Any] = review.to_dict()
    text = review.text()
    if args.save is not None:
        from ..tutor.progress import ProgressStore
        from ..tutor.review_store import save_mistakes

        with ProgressStore(args.store) as store:
            new = save_mistakes(store, args.save, review, game="<stdin>" if args.record == "-" else args.record)
        data["saved"] = new
        text += f"\nSaved {new} new mistake{'' if new == 1 else 's'} for {args.save!r} in the progress store."
    emit(args, data, text)
    return 0


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    r = sub.add_parser("review", parents=[common],
                       help="grade a seat's decisions in a game record and explain the costliest")
    r.add_argument("record", metavar="RECORD", help="game record file, or - for stdin; or due, show or answer "
                   "for the review queue")
    r.add_argument("rest", nargs="*", metavar="ARG", help="show ID; answer ID MOVE")
    r.add_argument("--seat", default=None, metavar="S", help="the seat to review (N, E, S or W in classic)")
    r.add_argument("--seed", type=SEED, default=0, help="seed of every search (default 0)")
    r.add_argument("--samples", type=ranged(int, 1, 100_000), default=None, metavar="N",
                   help="sampled deals per move (default: the hint's own search)")
    r.add_argument("--hand", type=ranged(int, 1, 10_000), default=None, metavar="N",
                   help="review only hand N of the record (default: every hand)")
    r.add_argument("--save", default=None, metavar="LEARNER",
                   help="save the mistakes and blunders to the progress store for this learner")
    r.add_argument("--store", default=None, metavar="FILE", help="the progress store (default: the user's)")
    r.add_argument("--learner", default="learner", metavar="NAME",
                   help="the queue's learner (default: learner, as the course's notebooks save)")
    r.add_argument("--hints", type=ranged(int, 0, 100), default=0, metavar="N",
                   help="answer: hints taken before answering (a solve with a hint is rated Hard)")
    r.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress on stderr (default: when stderr is a terminal)")
    r.set_defaults(func=cmd_review)


__all__ = ["QUEUE_WORDS", "cmd_queue", "cmd_review", "register"]
