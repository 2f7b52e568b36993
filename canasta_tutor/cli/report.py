"""``class report`` and ``class simulate``: the class report from the command line, and a simulated class.

- ``class report --course DIR [--class NAME] [--csv FILE] [--html FILE] [--student NAME]``: the report
  on the class of the course folder, from replayed facts only (the course's store, the shared
  student stores replayed, nbgrader's gradebook for the roster and late submissions; nothing is
  written there): the students x items grid, who has not started, each student's totals, late
  submissions and rating change, performance per theme and the most common wrong move per item;
  ``--csv`` writes the students x items rows to FILE (formula-safe), ``--html`` the whole report
  as one standalone page (escaped), ``--student`` one student's items and wrong moves; ``--json``
  prints it all as JSON.  The text is made safe for a terminal (control characters shown as
  escapes).
- ``class simulate --course DIR [--students 30] [--items 50] [--seed S]``: fill the course's store
  with a class of bots of several strengths playing real lesson levels and puzzles (seeded);
  ``--demo`` loads the demo class kept with the package instead (the same whatever the course).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .output import emit
from .args import SEED, UsageError, ranged
from ..tutor.classes.safe import terminal_text


def cmd_class_report(args: argparse.Namespace) -> int:
    from ..tutor.classes.report import ClassReport

    with ClassReport(args.course, class_name=args.class_name) as report:  # an unknown class: an error, never made
        if args.student is not None:
            return _one_student(args, report)
        if args.csv:
            report.to_csv(args.csv)
        if args.html:
            report.to_html(args.html)
        per_student: dict[str, Any] = {}
        themes: dict[str, Any] = {}
        if report.students():
            summary = report.summary()
            if not report.attempts.empty:
                summary = summary.join(report.progress()[["rating_start", "rating_now", "rating_change"]])
                themes = json.loads(report.themes().to_json(orient="index"))
            per_student = json.loads(summary.to_json(orient="index"))
        data = {"students": len(report.students()), "items": report.items(), "attempts": len(report.attempts),
                "not_started": report.not_started(), "per_student": per_student, "themes": themes,
                "late": json.loads(report.late().to_json(orient="records", date_format="iso")),
                "wrong_moves": json.loads(report.wrong_moves().to_json(orient="records")), "notes": report.notes()}
        text = report.text()
        if args.csv:
            text += f"\nThe students x items rows: {args.csv}"
        if args.html:
            text += f"\nThe report as one page: {args.html}"
    emit(args, data, terminal_text(text.rstrip("\n")))
    return 0


def _one_student(args: argparse.Namespace, report: Any) -> int:
    try:
        view = report.student(args.student)
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None
    data = {"student": args.student, "items": json.loads(view.items().to_json(orient="records")),
            "wrong_moves": json.loads(view.wrong().to_json(orient="records"))}
    emit(args, data, terminal_text(view.text().rstrip("\n")))
    return 0


def cmd_class_simulate(args: argparse.Namespace) -> int:
    from ..tutor.classes.simulate import load_demo, simulate

    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    if args.demo:
        s = load_demo(args.course, args.class_name or "demo-class")
    else:
        s = simulate(args.course, args.students, args.items, args.seed, class_name=args.class_name,
                     progress=progress)
    what = "the demo class" if args.demo else "simulated"
    text = (f"{s.students} students x {s.items} items ({what}): {s.attempts} attempts saved in {s.path}"
            + (f" ({s.skipped} already there)" if s.skipped else ""))
    emit(args, {"students": s.students, "items": s.items, "attempts": s.attempts, "skipped": s.skipped,
                 "store": str(s.path)}, text)
    return 0


def register(classes: Any, common: argparse.ArgumentParser) -> None:
    """Add ``report`` and ``simulate`` to the ``class`` group's subparsers."""
    rp = classes.add_parser("report", parents=[common], help="the class report: students x items, themes, "
                            "wrong moves, progress")
    rp.add_argument("--course", required=True, metavar="DIR", help="the course folder (its progress store, the "
                    "student stores under progress/, replayed, and nbgrader's gradebook)")
    rp.add_argument("--class", dest="class_name", default=None, metavar="NAME", help="only this class's students")
    rp.add_argument("--csv", default=None, metavar="FILE", help="also write the students x items rows to FILE")
    rp.add_argument("--html", default=None, metavar="FILE",
                    help="also write the whole report as one standalone HTML page to FILE")
    rp.add_argument("--student", default=None, metavar="NAME", help="only this student: their items and wrong moves")
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
