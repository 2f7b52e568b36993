"""The ``lesson`` and ``course`` subcommands of ``canasta-tutor``.

- ``lesson check [--coverage] [--course DIR] [FILE...]``: every error with file, line and field; exit 2
  on errors (``--course``: the lessons of a course folder, as the teacher edited them);
- ``lesson list [--json]``: the lessons and their levels with IDs;
- ``lesson play LESSON LEVEL [--seed S] --actions "draw; meld K K K; discard 4"``: play a level (a click:
  ``press meld 7S 7C JH``); a scoring level: ``--answer "500 100 100 85 -15 770"``;
- ``course [DIR] [--force]``: copy the course (lesson files and notebooks) into a folder.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from .args import SEED, UsageError, ranged
from .output import PROG, Parser, emit, note, wants_json
from ..tutor.lessons.course import CourseError, copy_course, course_paths, lesson_files
from ..tutor.lessons.loader import LessonFormatError, check_course, load_lesson
from ..tutor.lessons.model import Lesson, Problem

#: the most actions ``lesson play --actions`` takes
MAX_ACTIONS = 1000


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``lesson`` and ``course`` subcommands to the main parser's subparsers."""
    lp = sub.add_parser("lesson", parents=[common], help="check, list and play the course's lessons")
    lsub = lp.add_subparsers(dest="lesson_command", metavar="LESSON_COMMAND", parser_class=Parser)
    lsub.required = True

    ck = lsub.add_parser("check", parents=[common], help="check lesson files; exit 2 on errors")
    ck.add_argument("files", metavar="FILE", nargs="*", help="lesson files (default: the course's)")
    ck.add_argument("--course", default=None, metavar="DIR",
                    help="a course folder made by `canasta-tutor course`: check its own lessons/ (as `class check "
                         "--course DIR` reads them)")
    ck.add_argument("--coverage", action="store_true", help="also print which rules are taught where")
    ck.add_argument("--no-play", action="store_true", help="check the files only; do not replay lines")
    ck.add_argument("--seeds", type=ranged(int, 1, 1000), default=3, metavar="N",
                    help="seeds to try for each generated level (default 3; 1 to 1,000)")
    ck.set_defaults(func=cmd_check)

    ls = lsub.add_parser("list", parents=[common], help="the lessons and their levels, with IDs")
    ls.add_argument("--dir", default=None, help="folder of lesson files (default: the course's)")
    ls.set_defaults(func=cmd_list)

    pl = lsub.add_parser("play", parents=[common], help="play a level with a line of actions")
    pl.add_argument("lesson", metavar="LESSON", help="lesson id (or file)")
    pl.add_argument("level", metavar="LEVEL", help="level id, or its number from 1")
    pl.add_argument("--actions", default="", help='actions separated by ";", e.g. "draw; meld K K K; discard 4"; '
                    'a click is "press BUTTON [CARDS] [to KIND]", e.g. "press meld 7S 7C JH"')
    pl.add_argument("--answer", action="append", default=[], metavar="SCORE",
                    help='a scoring level\'s answer: the hand\'s score line by line, e.g. "500 100 100 85 -15 770" '
                         'or "canastas=500 red_threes=100 ..." (repeat for several tries)')
    pl.add_argument("--seed", type=SEED, default=0, help="seed of a generated level (default 0)")
    pl.add_argument("--dir", default=None, help="folder of lesson files (default: the course's)")
    pl.add_argument("--hint", action="store_true",
                    help="explain wrong moves and failures with the hint's search (slower); without it a wrong "
                         "move is compared with the level's own move, in the hint's words")
    pl.set_defaults(func=cmd_play)

    co = sub.add_parser("course", parents=[common], help="copy the course (lessons and notebooks) into a folder")
    co.add_argument("dir", metavar="DIR", nargs="?", default="canasta-course",
                    help="the folder to create (default: ./canasta-course)")
    co.add_argument("--force", action="store_true", help="write into an existing folder, overwriting course files")
    co.set_defaults(func=cmd_course)


def _load_all(files: list[Path]) -> tuple[list[Lesson], list[Problem]]:
    lessons: list[Lesson] = []
    problems: list[Problem] = []
    for f in files:
        try:
            lessons.append(load_lesson(f))
        except LessonFormatError as e:
            problems += e.problems
    return lessons, problems


def _named(path: Path) -> list[Path]:
    """A file named on the command line, or a folder's lesson files (``*.toml``, in its subfolders too, sorted):
    ``lesson check lessons`` checks the course and the variant families' lessons beside it."""
    if not path.is_dir() or path.is_symlink():
        return [path]
    found = sorted(path.rglob("*.toml"))
    if not found:
        raise CourseError(f"{str(path)!r} holds no lesson file (lessons are .toml)")
    return found


def cmd_check(args: argparse.Namespace) -> int:
    from ..tutor.lessons.check import check_level_play, coverage

    start = time.perf_counter()
    if args.course is not None and not (Path(args.course) / "lessons").is_dir():
        raise CourseError(f"{args.course!r} has no lessons folder: make one with `{PROG} course {args.course}`")
    files = ([g for f in args.files for g in _named(Path(f))] if args.files
             else lesson_files(Path(args.course) / "lessons" if args.course else None))
    for f in files:
        if not f.exists() and not f.is_symlink():
            raise FileNotFoundError(2, "No such file", str(f))
    # `lesson check lessons/*` also names the folder's Markdown guides: say so and skip them
    skipped = [f for f in files if f.suffix.lower() == ".md"]
    files = [f for f in files if f not in skipped]
    for f in skipped:
        note(f"{f}: skipped: a Markdown guide, not a lesson file (lessons are .toml)")
    lessons, problems = _load_all(files)
    problems += check_course(lessons)
    levels = sum(len(lesson.levels) for lesson in lessons)
    if not args.no_play:
        for lesson in lessons:
            for lv in lesson.levels:
                problems += check_level_play(lv, range(args.seeds))
    elapsed = time.perf_counter() - start
    cov = coverage(lessons) if args.coverage else {}
    data: dict[str, Any] = {"files": len(files), "lessons": len(lessons), "levels": levels,
                            "errors": [p.to_dict() for p in problems], "seconds": round(elapsed, 3)}
    if args.coverage:
        data["coverage"] = cov
    if not wants_json(args):  # with --json the errors are in the object
        for p in problems:
            note(str(p))
    status = f"{len(problems)} error{'s' if len(problems) != 1 else ''}" if problems else "ok"
    lines = [f"{rule}: {', '.join(where)}" for rule, where in cov.items()] if args.coverage else []
    lines.append(f"{len(files)} files, {len(lessons)} lessons, {levels} levels checked in {elapsed:.2f} s: {status}")
    emit(args, data, "\n".join(lines), ascii_only=False)
    return 2 if problems else 0


def _course_lessons(folder: str | None) -> list[Lesson]:
    files = lesson_files(Path(folder) if folder else None)
    lessons, problems = _load_all(files)
    if problems:
        raise LessonFormatError(problems)
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.id))


def cmd_list(args: argparse.Namespace) -> int:
    lessons = _course_lessons(args.dir)
    lines = []
    for lesson in lessons:
        lines.append(f"{lesson.id}: {lesson.title} ({len(lesson.levels)} levels)")
        lines += [f"  {n:2}. {lv.id}: {lv.title}{'  [generated]' if lv.generated else ''}"
                  for n, lv in enumerate(lesson.levels, 1)]
    emit(args, {"lessons": [{"id": lesson.id, "title": lesson.title, "order": lesson.order,
                             "summary": lesson.summary,
                             "levels": [{"id": lv.id, "title": lv.title, "goal": lv.goal, "par": lv.par,
                                         "generated": lv.generated} for lv in lesson.levels]}
                            for lesson in lessons]},
         "\n".join(lines), ascii_only=False)
    return 0


def _find_lesson(name: str, folder: str | None) -> Lesson:
    p = Path(name)
    if p.suffix == ".toml" and p.is_file():
        return load_lesson(p)
    for lesson in _course_lessons(folder):
        if lesson.id == name:
            return lesson
    raise CourseError(f"no lesson {name!r}; see '{PROG} lesson list'")


def cmd_play(args: argparse.Namespace) -> int:
    from ..tutor.lessons.runner import LevelRun, default_hint

    lesson = _find_lesson(args.lesson, args.dir)
    try:
        level = lesson.level(args.level)
    except KeyError as e:
        raise CourseError(str(e.args[0])) from None
    actions = [a.strip() for a in args.actions.split(";") if a.strip()]
    actions += [f"answer {a.strip()}" for a in args.answer if a.strip()]
    if len(actions) > MAX_ACTIONS:
        raise UsageError(f"--actions and --answer give {len(actions):,} steps; give at most {MAX_ACTIONS:,} (a level "
                         "is played in a few dozen)")
    run = LevelRun(level, args.seed, hint_fn=default_hint if args.hint else None)
    if level.scoring and not args.answer and not actions:
        raise CourseError(f"{lesson.id}/{level.id} asks for the hand's score: give it with --answer, one number "
                          f"per line ({', '.join(run.question.ids if run.question else ())})")
    results = []
    played = 0
    for text in actions:
        if run.status != "open":
            break
        played += 1
        results += _play_one(run, text)
    data = {"lesson": lesson.id, "level": level.id, "seed": args.seed, "goal": run.goal,
            "start": run.setup_text if level.generated else level.position, "opening": run.opening,
            "actions": [r.to_dict() for r in results], "unplayed": actions[played:], **run.summary(),
            "star_text": run.star_text()}
    if run.question is not None:
        data["score_lines"] = list(run.question.ids)
    lines = [f"{lesson.id}/{level.id}: {run.goal}"]
    if run.question is not None:
        lines.append(f"answer with --answer, one number per line: {', '.join(run.question.ids)}")
    lines += [f"  {line}" for line in run.opening]
    for r in results:
        mark = ("wrong" if r.wrong else "ok") if r.accepted else ("refused" if r.counted else "not counted")
        lines.append(f"> {r.text}  [{mark}]")
        lines += [f"  {line}" for line in (*r.feedback, *r.replies)]
    what = "answers" if run.question is not None else "actions"
    lines.append(f"status: {run.status}, stars: {run.stars()}, {what}: {run.tries} (par {level.par})")
    if run.star_text():
        lines.append(run.star_text())
    lines.append(run.position().rstrip("\n"))
    emit(args, data, "\n".join(lines), ascii_only=False)
    return 0


def _play_one(run: Any, text: str) -> list[Any]:
    """One entry of ``--actions``: an action, an answer, or a click (``press ...``: every step it played)."""
    from ..engine.errors import NotationError
    from ..tutor.lessons.clicks import CompositionError, parse_press

    if text.split()[:1] == ["press"]:
        try:
            return list(run.press(*parse_press(text)))
        except (CompositionError, NotationError):
            pass  # answered as play() answers it: not counted, with the reason
    return [run.play(text)]


def cmd_course(args: argparse.Namespace) -> int:
    dest = Path(args.dir)
    written = copy_course(dest, force=args.force)
    emit(args, {"dir": str(dest), "files": [str(p.relative_to(dest)) for p in written]},
         f"copied {len(written)} files into {dest}", ascii_only=False)
    return 0


__all__ = ["register", "cmd_check", "cmd_list", "cmd_play", "cmd_course", "course_paths"]
