"""The assignment subcommands of ``canasta-tutor class``.

- ``class check FILE... [--course DIR]``: check assignment files: every error in one pass, with
  file, line and field (items numbered from 1; exit 2), and warnings (a hint penalty above the
  item's points, a small pool) that do not stop the file;
- ``class assign FILE --course DIR [--force]``: write the nbgrader source notebook of an assignment
  into a course folder (``source/<assignment>/<assignment>.ipynb``, and ``nbgrader_config.py``
  when the folder has none); then ``nbgrader generate_assignment`` releases it;
- ``class grade FILE --course DIR [--no-store] [--fix]``: replay the collected logs in this process on
  each student's own deal, compare with nbgrader's gradebook when there is one (exit 1 on a
  difference; ``--fix`` writes the replay's score into the gradebook where they differ, and says
  which), and file the attempts in the class's progress store (``DIR/progress.sqlite3``) for the
  class report.

A course folder made by ``canasta-tutor course DIR`` has its own ``lessons/``, which the teacher
may edit: with ``--course DIR`` every command reads the lessons there (as ``lesson check --course
DIR`` does), and ``class assign`` copies those the assignment uses beside its notebook.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..tutor.assignments.spec import Assignment, AssignmentFormatError, course_folder_lessons, load_checked
from .output import emit, note, wants_json


def register(classes: Any, common: argparse.ArgumentParser) -> None:
    """Add ``class check``, ``class assign`` and ``class grade`` to the ``class`` group's subparsers."""
    ck = classes.add_parser("check", parents=[common], help="check assignment files; exit 2 on errors")
    ck.add_argument("files", metavar="FILE", nargs="+", help="assignment files (TOML)")
    ck.add_argument("--course", default=None, metavar="DIR",
                    help="a course folder: its own lessons/ are the course (default: the installed course)")
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
    gr.add_argument("--fix", action="store_true",
                    help="write the replayed score into nbgrader's gradebook wherever the two differ")
    gr.set_defaults(func=cmd_grade)


def _summary(a: Assignment) -> dict[str, Any]:
    return {"id": a.id, "title": a.title, "file": a.file, "points": a.points,
            "items": [i.to_dict() for i in a.items]}


def cmd_check(args: argparse.Namespace) -> int:
    lessons = course_folder_lessons(args.course)
    ok: list[Assignment] = []
    problems = []
    warnings = []
    for f in args.files:
        try:
            a, found = load_checked(f, lessons)
            ok.append(a)
            warnings += found
        except AssignmentFormatError as e:
            problems += e.problems
    if ok or wants_json(args):  # (no line at all when no file could be read)
        emit(args, {"assignments": [_summary(a) for a in ok], "problems": [p.to_dict() for p in problems],
                    "warnings": [w.to_dict() for w in warnings]},
             "\n".join(f"{a.file}: {a.id}: {len(a.items)} items, {a.points:g} points" for a in ok), ascii_only=False)
    if not wants_json(args):  # with --json the problems and warnings are in the object
        for p in problems:
            note(str(p))
        for w in warnings:
            note(f"warning: {w}")
    return 2 if problems else 0


def _load_or_report(file: str, course: str | None = None) -> Assignment | None:
    """The assignment in ``file`` (with the course folder's own lessons, if it has them), or None after
    printing its problems on stderr."""
    try:
        a, warnings = load_checked(file, course_folder_lessons(course))
    except AssignmentFormatError as e:
        for p in e.problems:
            note(str(p))
        return None
    for w in warnings:
        note(f"warning: {w}")
    return a


def cmd_assign(args: argparse.Namespace) -> int:
    from ..tutor.assignments.notebook import write_course

    assignment = _load_or_report(args.file, args.course)
    if assignment is None:
        return 2
    written = write_course(assignment, Path(args.course), force=args.force)
    emit(args, {"assignment": _summary(assignment), "written": [str(p) for p in written]},
         "\n".join([*(f"wrote {path}" for path in written),
                    f"{assignment.id}: {len(assignment.items)} items, {assignment.points:g} points; next, in "
                    f"{args.course}: nbgrader generate_assignment {assignment.id}"]))
    return 0


def cmd_grade(args: argparse.Namespace) -> int:
    from ..tutor.classes.safe import terminal_text
    from ..tutor.assignments.regrade import (differences, fix_gradebook, grade_course, gradebook_scores,
                                            identical_logs, record_attempts)
    from ..tutor.progress import ProgressStore, course_path

    course = Path(args.course)
    if not course.is_dir():
        raise FileNotFoundError(2, "No such folder", str(course))
    assignment = _load_or_report(args.file, args.course)
    if assignment is None:
        return 2
    results = grade_course(assignment, course, course_folder_lessons(course))
    book = gradebook_scores(course, assignment.id)
    diffs = differences(results, book) if book is not None else []
    fixed: list[str] = []
    if args.fix and diffs:
        fixed = fix_gradebook(course, assignment.id, results)
        book = gradebook_scores(course, assignment.id)
        diffs = differences(results, book) if book is not None else []
    lines = [f"{s}: not autograded yet" if not item else f"{s}: {item}: gradebook {got}, replay {score:g}"
             for s, item, got, score in diffs]
    copies = identical_logs(assignment, course)
    new = old = 0
    if not args.no_store:
        with ProgressStore(course_path(course)) as store:
            new, old = record_attempts(results, store)
    data = {"assignment": assignment.id, "points": assignment.points,
            "students": [{"student": r.student, "total": r.total,
                          "items": {g.item: g.score for g in r.grades},
                          "messages": {g.item: g.message for g in r.grades if g.message}}
                         for r in results],
            "gradebook": None if book is None else {"differences": lines, "fixed": fixed},
            "identical_logs": [{"item": i, "students": g} for i, g in copies],
            "store": None if args.no_store else {"new": new, "already": old}}
    out = ["items: " + "; ".join(f"{i.number} {i.id}" for i in assignment.items),
           "student\t" + "\t".join(str(i.number) for i in assignment.items) + "\ttotal"]
    for r in results:
        out.append(r.student + "\t" + "\t".join(f"{g.score:g}" for g in r.grades) + f"\t{r.total:g}")
    notes = [f"  {r.student}: {g.label}: {g.message}" for r in results for g in r.grades
             if g.message and not g.message.startswith("no log ")]
    if notes:
        out.append("logs the replay could not read, or played on another student's deal:")
        out += notes
    if copies:
        out.append("the same log (attempts, moves and times) in several submissions:")
        out += [f"  {i}: {', '.join(g)}" for i, g in copies]
    out.append(f"{len(results)} submissions of {assignment.id} replayed ({assignment.points:g} points each at most)")
    if fixed:
        out.append(f"the gradebook now holds the replay's score in {len(fixed)} places (its manual score):")
        out += [f"  {f}" for f in fixed]
    if book is None:
        out.append("no gradebook.db in the course folder: nothing to compare")
    elif lines:
        out.append(f"the gradebook differs from the replay in {len(lines)} places"
                   + ("" if args.fix else " (--fix writes the replay's score there)") + ":")
        out += [f"  {d}" for d in lines]
    else:
        out.append("the gradebook agrees with the replay for every item")
    if not args.no_store:
        out.append(f"progress store {course_path(course)}: {new} attempts filed ({old} were there already)")
    emit(args, data, terminal_text("\n".join(out)))
    return 1 if diffs else 0
