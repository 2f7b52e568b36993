"""The assignment subcommands of ``canasta-tutor class``.

- ``class check FILE...``: check assignment files (every error with file, line and field; exit 2);
- ``class assign FILE --course DIR [--force]``: write the nbgrader source notebook of an assignment
  into a course folder (``source/<assignment>/<assignment>.ipynb``, and ``nbgrader_config.py``
  when the folder has none); then ``nbgrader generate_assignment`` releases it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .tutor.assignments.spec import Assignment, AssignmentFormatError, load_assignment


def register(classes: Any, common: argparse.ArgumentParser) -> None:
    """Add ``class check`` and ``class assign`` to the ``class`` group's subparsers."""
    ck = classes.add_parser("check", parents=[common], help="check assignment files; exit 2 on errors")
    ck.add_argument("files", metavar="FILE", nargs="+", help="assignment files (TOML)")
    ck.set_defaults(func=cmd_check)

    asg = classes.add_parser("assign", parents=[common],
                             help="write an assignment's nbgrader source notebook into a course folder")
    asg.add_argument("file", metavar="FILE", help="the assignment file (TOML)")
    asg.add_argument("--course", required=True, metavar="DIR", help="the nbgrader course folder (created if missing)")
    asg.add_argument("--force", action="store_true", help="replace an existing source notebook")
    asg.set_defaults(func=cmd_assign)


def _summary(a: Assignment) -> dict[str, Any]:
    return {"id": a.id, "title": a.title, "file": a.file, "points": a.points,
            "items": [i.to_dict() for i in a.items]}


def cmd_check(args: argparse.Namespace) -> int:
    ok: list[Assignment] = []
    problems = []
    for f in args.files:
        try:
            ok.append(load_assignment(f))
        except AssignmentFormatError as e:
            problems += e.problems
    if getattr(args, "json", False):
        print(json.dumps({"assignments": [_summary(a) for a in ok], "problems": [p.to_dict() for p in problems]},
                         indent=None if getattr(args, "compact", False) else 2, ensure_ascii=False))
    else:
        for a in ok:
            print(f"{a.file}: {a.id}: {len(a.items)} items, {a.points:g} points")
        for p in problems:
            print(p, file=sys.stderr)
    return 2 if problems else 0


def cmd_assign(args: argparse.Namespace) -> int:
    from .tutor.assignments.notebook import write_course

    try:
        assignment = load_assignment(args.file)
    except AssignmentFormatError as e:
        for p in e.problems:
            print(p, file=sys.stderr)
        return 2
    written = write_course(assignment, Path(args.course), force=args.force)
    if getattr(args, "json", False):
        print(json.dumps({"assignment": _summary(assignment), "written": [str(p) for p in written]}))
    else:
        for path in written:
            print(f"wrote {path}")
        print(f"{assignment.id}: {len(assignment.items)} items, {assignment.points:g} points; next, in {args.course}: "
              f"nbgrader generate_assignment {assignment.id}")
    return 0
