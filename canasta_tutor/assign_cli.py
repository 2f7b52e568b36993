"""The assignment subcommands of ``canasta-tutor class``.

- ``class check FILE...``: check assignment files (every error with file, line and field; exit 2);
- ``class assign FILE --course DIR [--force]``: write the nbgrader source notebook of an assignment
  into a course folder (``source/<assignment>/<assignment>.ipynb``, and ``nbgrader_config.py``
  when the folder has none); then ``nbgrader generate_assignment`` releases it;
- ``class grade FILE --course DIR [--no-store]``: replay the collected logs in this process, compare
  with nbgrader's gradebook when there is one (exit 1 on a difference), and file the attempts in
  the class's progress store (``DIR/progress.sqlite3``) for the class report.
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

    gr = classes.add_parser("grade", parents=[common],
                            help="replay the collected logs, compare with the gradebook, fill the progress store")
    gr.add_argument("file", metavar="FILE", help="the assignment file (TOML)")
    gr.add_argument("--course", required=True, metavar="DIR", help="the nbgrader course folder")
    gr.add_argument("--no-store", action="store_true", help="do not file the attempts in the course's progress store")
    gr.set_defaults(func=cmd_grade)


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


def _load_or_report(file: str) -> Assignment | None:
    """The assignment in ``file``, or None after printing its problems on stderr."""
    try:
        return load_assignment(file)
    except AssignmentFormatError as e:
        for p in e.problems:
            print(p, file=sys.stderr)
        return None


def cmd_assign(args: argparse.Namespace) -> int:
    from .tutor.assignments.notebook import write_course

    assignment = _load_or_report(args.file)
    if assignment is None:
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


def cmd_grade(args: argparse.Namespace) -> int:
    from .tutor.assignments.regrade import grade_course, gradebook_scores, record_attempts
    from .tutor.progress import ProgressStore, course_path

    assignment = _load_or_report(args.file)
    if assignment is None:
        return 2
    course = Path(args.course)
    if not course.is_dir():
        raise FileNotFoundError(2, "No such folder", str(course))
    results = grade_course(assignment, course)
    book = gradebook_scores(course, assignment.id)
    differences = []
    if book is not None:
        for r in results:
            cells = book.get(r.student)
            if cells is None:
                differences.append(f"{r.student}: not autograded yet")
                continue
            for g in r.grades:
                got = cells.get(f"{g.item}-grade")
                if got is None or abs(got - g.score) > 1e-6:
                    differences.append(f"{r.student}: {g.item}: gradebook {got}, replay {g.score:g}")
    new = old = 0
    if not args.no_store:
        with ProgressStore(course_path(course)) as store:
            new, old = record_attempts(results, store)
    if getattr(args, "json", False):
        print(json.dumps({"assignment": assignment.id, "points": assignment.points,
                          "students": [{"student": r.student, "total": r.total,
                                        "items": {g.item: g.score for g in r.grades}} for r in results],
                          "gradebook": None if book is None else {"differences": differences},
                          "store": None if args.no_store else {"new": new, "already": old}}))
    else:
        ids = [i.id for i in assignment.items]
        print("student\t" + "\t".join(ids) + "\ttotal")
        for r in results:
            print(r.student + "\t" + "\t".join(f"{g.score:g}" for g in r.grades) + f"\t{r.total:g}")
        print(f"{len(results)} submissions of {assignment.id} replayed ({assignment.points:g} points each at most)")
        if book is None:
            print("no gradebook.db in the course folder: nothing to compare")
        elif differences:
            print(f"the gradebook differs from the replay in {len(differences)} places:")
            for d in differences:
                print(f"  {d}")
        else:
            print("the gradebook agrees with the replay for every item")
        if not args.no_store:
            print(f"progress store {course_path(course)}: {new} attempts filed ({old} were there already)")
    return 1 if differences else 0
