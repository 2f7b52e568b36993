"""An assignment item as a playable level: a lesson level as it is, a puzzle as a one-move level.

A puzzle becomes a :class:`~canasta_tutor.tutor.lessons.model.Level` whose success is playing
one of its correct first moves (the solution's first action or an accepted one) and whose
failure is playing any other legal first move, so the lesson widget shows it, the level
runner judges it, and the grader replays it exactly like a lesson level.

>>> from canasta_tutor.tutor.puzzles import load_library
>>> p = next(p for p in load_library() if p.id == "c22-take-the-pack")
>>> level = puzzle_level(p)
>>> level.lesson_id, level.id, level.turns, level.solutions[0]
('puzzles', 'c22-take-the-pack', 1, ('take 9 9 9',))
"""

from __future__ import annotations

from ...actions import format_action
from ..lessons.model import Failure, Lesson, Level
from ..puzzles import Puzzle
from .spec import LEVEL, Item, course_lesson, puzzle_library

GOAL = "Find the best move: the one that gives your side the best expected score for this hand."


def puzzle_level(p: Puzzle) -> Level:
    """The puzzle as a level: pass with a correct first move, fail with any other legal one."""
    state = p.state()
    answers = p.answers()
    seat = p.seat
    wrong = [format_action(a) for a in state.legal_actions() if a not in answers]
    feedback = "That is not the best move here." + (f" {p.note}" if p.note else "")
    failures = (Failure(when={"any": [{"played": w} for w in wrong]}, feedback=feedback),) if wrong else ()
    return Level(lesson_id="puzzles", index=0, id=p.id, title=f"Puzzle {p.id}", goal=GOAL, par=1,
                 success={"any": [{"played": format_action(a)} for a in answers]},
                 solutions=tuple((format_action(a),) for a in answers), conclusion=p.note or "That is the best move.",
                 seat=seat, turns=1, position=p.position, failures=failures, file=p.path, line=p.line)


def item_level(item: Item) -> Level:
    """The level an item is played on (from the installed course and puzzle library)."""
    if item.kind == LEVEL:
        lesson = course_lesson(item.lesson)
        if lesson is None:
            raise KeyError(f"no lesson {item.lesson!r} in the installed course")
        return lesson.level(item.level)
    p = puzzle_library().get(item.puzzle)
    if p is None:
        raise KeyError(f"no puzzle {item.puzzle!r} in the installed puzzle library")
    return puzzle_level(p)


def item_lesson(item: Item) -> Lesson:
    """A one-level lesson holding the item's level (what the lesson widget shows)."""
    level = item_level(item)
    return Lesson(id=level.lesson_id, title=item.title or level.title, order=0, summary=level.goal,
                  levels=(level,), file=level.file)


__all__ = ["GOAL", "item_level", "item_lesson", "puzzle_level"]
