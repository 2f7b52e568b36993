"""``class report`` and ``class simulate``: the class report from the command line, and a simulated class.

- ``class report --course DIR [--class NAME] [--csv FILE]``: the report on the class whose store is
  in the course folder (merging the student stores found there first): the students x items grid,
  each student's totals and rating change, performance per theme and the most common wrong move
  per item; ``--csv`` writes the students x items rows to FILE; ``--json`` prints it all as JSON.
- ``class simulate --course DIR [--students 30] [--items 50] [--seed S]``: fill the course's store
  with a class of bots of several strengths playing real lesson levels and puzzles (seeded);
  ``--demo`` loads the demo class kept with the package instead (the same whatever the course).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .cli import _emit
from .cliargs import SEED, ranged


def cmd_class_report(args: argparse.Namespace) -> int:
    from .tutor.classes.report import ClassReport

    with ClassReport(args.course, class_name=args.class_name) as report:  # an unknown class: an error, never made
        if args.csv:
            report.to_csv(args.csv)
        per_student: dict[str, Any] = {}
        themes: dict[str, Any] = {}
        if not report.attempts.empty:
            rating = report.progress()[["rating_start", "rating_now", "rating_change"]]
            per_student = json.loads(report.summary().join(rating).to_json(orient="index"))
            themes = json.loads(report.themes().to_json(orient="index"))
        data = {"students": len(report.students()), "items": report.items(), "attempts": len(report.attempts),
                "per_student": per_student, "themes": themes,
                "wrong_moves": json.loads(report.wrong_moves().to_json(orient="records"))}
        text = report.text()
        if args.csv:
            text += f"\nThe students x items rows: {args.csv}"
    _emit(args, data, text.rstrip("\n"))
    return 0


def cmd_class_simulate(args: argparse.Namespace) -> int:
    from .tutor.classes.simulate import load_demo, simulate

    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    if args.demo:
        s = load_demo(args.course, args.class_name or "demo-class")
    else:
        s = simulate(args.course, args.students, args.items, args.seed, class_name=args.class_name,
                     progress=progress)
    what = "the demo class" if args.demo else "simulated"
    text = (f"{s.students} students x {s.items} items ({what}): {s.attempts} attempts saved in {s.path}"
            + (f" ({s.skipped} already there)" if s.skipped else ""))
    _emit(args, {"students": s.students, "items": s.items, "attempts": s.attempts, "skipped": s.skipped,
                 "store": str(s.path)}, text)
    return 0


def register(classes: Any, common: argparse.ArgumentParser) -> None:
    """Add ``report`` and ``simulate`` to the ``class`` group's subparsers."""
    rp = classes.add_parser("report", parents=[common], help="the class report: students x items, themes, "
                            "wrong moves, progress")
    rp.add_argument("--course", required=True, metavar="DIR", help="the course folder (its progress store, and "
                    "the student stores under submitted/ and progress/)")
    rp.add_argument("--class", dest="class_name", default=None, metavar="NAME", help="only this class's students")
    rp.add_argument("--csv", default=None, metavar="FILE", help="also write the students x items rows to FILE")
    rp.set_defaults(func=cmd_class_report)
    sm = classes.add_parser("simulate", parents=[common], help="fill a course's store with a simulated class "
                            "(bots of several strengths)")
    sm.add_argument("--course", required=True, metavar="DIR", help="the course folder (created if need be)")
    sm.add_argument("--students", type=ranged(int, 1, 1000), default=30, help="students (default 30; at most 1,000)")
    sm.add_argument("--items", type=ranged(int, 1, 1000), default=50,
                    help="lesson levels and puzzles (default 50; at most 1,000)")
    sm.add_argument("--seed", type=SEED, default=0, help="the seed (default 0): the same seed, the same class")
    sm.add_argument("--class", dest="class_name", default=None, metavar="NAME",
                    help="the class's name (default: the course folder's name)")
    sm.add_argument("--demo", action="store_true", help="the demo class kept with the package (12 students x "
                    "16 items, always the same) instead of a fresh simulation")
    sm.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    sm.set_defaults(func=cmd_class_simulate)
