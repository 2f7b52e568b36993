"""The ``review`` subcommand of ``canasta-tutor``: a game record's decisions, graded and explained.

- ``review RECORD --seat S [--seed N] [--samples N] [--hand N] [--save LEARNER] [--store FILE] [--json]``:
  every decision of seat ``S`` graded from what it could see at the time, the accuracy, and the three costliest
  decisions explained (:mod:`canasta_tutor.tutor.review`); ``--save`` keeps the mistakes and blunders in the
  progress store for ``LEARNER`` (the store of ``--store``, else the user's).  A teacher reviews a student's
  game this way.  The same record, seat and seed always give the same grades.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .cli import _emit
from .cliargs import SEED, UsageError, ranged


def cmd_review(args: argparse.Namespace) -> int:
    from .record import load_record
    from .tutor.review import ReviewError, review_record

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
        from .tutor.progress import ProgressStore
        from .tutor.review_store import save_mistakes

        with ProgressStore(args.store) as store:
            new = save_mistakes(store, args.save, review, game="<stdin>" if args.record == "-" else args.record)
        data["saved"] = new
        text += f"\nSaved {new} new mistakes for {args.save!r} in the progress store."
    _emit(args, data, text)
    return 0


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    r = sub.add_parser("review", parents=[common],
                       help="grade a seat's decisions in a game record and explain the costliest")
    r.add_argument("record", metavar="RECORD", help="game record file, or - for stdin")
    r.add_argument("--seat", required=True, metavar="S", help="the seat to review (N, E, S or W in classic)")
    r.add_argument("--seed", type=SEED, default=0, help="seed of every search (default 0)")
    r.add_argument("--samples", type=ranged(int, 1, 100_000), default=None, metavar="N",
                   help="sampled deals per move (default: the hint's own search)")
    r.add_argument("--hand", type=ranged(int, 1, 10_000), default=None, metavar="N",
                   help="review only hand N of the record (default: every hand)")
    r.add_argument("--save", default=None, metavar="LEARNER",
                   help="save the mistakes and blunders to the progress store for this learner")
    r.add_argument("--store", default=None, metavar="FILE", help="the progress store (default: the user's)")
    r.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress on stderr (default: when stderr is a terminal)")
    r.set_defaults(func=cmd_review)


__all__ = ["cmd_review", "register"]
