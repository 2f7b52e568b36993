"""Checks that play a lesson with the engine: solution lines, wrong lines, generated deals,
solvability within par, and rule coverage.

These complement :func:`~canasta_tutor.tutor.lessons.loader.check_text` (which
reads the file only); ``canasta-tutor lesson check`` runs both.
"""

from __future__ import annotations

from typing import Iterable

from ...engine.errors import CanastaError
from .generate import GenerationError
from .locate import format_field, locate
from .model import Lesson, Level, Problem
from .predicates import rules_in
from .runner import OPEN, PASSED, LevelRun, SearchResult, feedback_contains, replay, search_pass


class _Lines:
    """Line lookup in a lesson file, read once."""

    def __init__(self, file: str) -> None:
        from .loader import read_content

        self.text = read_content(file)[0]

    def at(self, path: list[str | int]) -> int | None:
        return locate(self.text, path) if self.text else None


def _problem(lines: _Lines, level: Level, path: list[str | int], message: str) -> Problem:
    full: list[str | int] = ["level", level.index, *path]
    return Problem(level.file, lines.at(full), format_field(full), message)


def check_level_play(level: Level, seeds: Iterable[int] = (0,), lines: _Lines | None = None) -> list[Problem]:
    """Replay the level's solution and wrong lines (for each seed of a generated level)."""
    lines = lines or _Lines(level.file)
    problems: list[Problem] = []
    for seed in (seeds if level.generated else (0,)):
        try:
            LevelRun(level, seed, hint_fn=None)
        except GenerationError as e:
            problems.append(_problem(lines, level, ["generate"], str(e)))
            continue
        except CanastaError as e:
            problems.append(_problem(lines, level, ["position" if not level.generated else "generate"],
                                     f"cannot set up the level: {e}"))
            continue
        if level.scoring:
            problems += _check_score(level, lines)
        else:
            problems += _check_solutions(level, seed, lines)
        problems += _check_wrong(level, seed, lines)
    return problems


def _check_score(level: Level, lines: _Lines) -> list[Problem]:
    """A scoring level: the engine's own score, given as the answer, passes it."""
    run = LevelRun(level, 0, hint_fn=None)
    if run.question is None or not run.question.items:
        return [_problem(lines, level, ["score"], "this scoring level asks for no line of the score")]
    r = run.answer(run.question.right_answer())
    if run.status != PASSED:
        return [_problem(lines, level, ["score"], f"the hand's own score does not pass: {' | '.join(r.feedback)}"
                         [:300])]
    return []


def _seed_note(level: Level, seed: int) -> str:
    return f" (seed {seed})" if level.generated else ""


def _check_solutions(level: Level, seed: int, lines: _Lines) -> list[Problem]:
    problems: list[Problem] = []
    passed_any = False
    local: list[Problem] = []
    for j, line in enumerate(level.solutions):
        try:
            run, results = replay(level, line, seed)
        except CanastaError as e:
            local.append(_problem(lines, level, ["solutions", j], f"{e}{_seed_note(level, seed)}"))
            continue
        bad = next((k for k, r in enumerate(results) if not r.accepted and not level.try_illegal), None)
        if bad is not None:
            r = results[bad]
            local.append(_problem(lines, level, ["solutions", j, bad],
                                  f"{r.text!r} is refused: {' '.join(r.feedback)}{_seed_note(level, seed)}"))
            continue
        if run.status != PASSED:
            where = "is still open" if run.status == OPEN else f"fails: {run.message}"
            if len(results) < len(line):
                where = f"ended ({run.status}) after {len(results)} of {len(line)} actions"
            local.append(_problem(lines, level, ["solutions", j], f"the level {where}{_seed_note(level, seed)}"))
            continue
        passed_any = True
    if level.generated:
        # a generated level: some lines may fit only some deals; one line must pass on every deal
        if not passed_any:
            problems += local
    else:
        problems += local
    return problems


def _check_wrong(level: Level, seed: int, lines: _Lines) -> list[Problem]:
    problems: list[Problem] = []
    for j, w in enumerate(level.wrong):
        try:
            run, results = replay(level, w.line, seed)
        except CanastaError as e:
            problems.append(_problem(lines, level, ["wrong", j], str(e)))
            continue
        if len(results) < len(w.line):
            problems.append(_problem(lines, level, ["wrong", j, "line"],
                                     f"the level ended ({run.status}) after {len(results)} of {len(w.line)} "
                                     f"actions{_seed_note(level, seed)}"))
            continue
        last = results[-1]
        if run.status == PASSED:
            problems.append(_problem(lines, level, ["wrong", j],
                                     f"this line passes the level{_seed_note(level, seed)}"))
            continue
        if w.rule is not None and last.rule != w.rule:
            got = f"refused under {last.rule}" if last.rule else ("accepted" if last.accepted else "refused")
            problems.append(_problem(lines, level, ["wrong", j, "rule"],
                                     f"the last action should be refused under {w.rule}, but it was {got}"
                                     f"{_seed_note(level, seed)}"))
        if not feedback_contains(last.feedback, run.fill(w.feedback)):
            problems.append(_problem(lines, level, ["wrong", j, "feedback"],
                                     f"the level answers {' | '.join(last.feedback)!r}"[:300]
                                     + _seed_note(level, seed)))
    return problems


def solve(level: Level, seed: int = 0, max_nodes: int = 4000) -> SearchResult:
    """Search the learner's action sequences (at most ``par`` long) for one that passes the level
    (see :func:`~canasta_tutor.tutor.lessons.runner.search_pass`); a scoring level's one answer is the
    hand's own score."""
    if level.scoring:
        run = LevelRun(level, seed, hint_fn=None)
        answer = "answer " + run.question.right_answer() if run.question is not None else ""
        return SearchResult([answer] if answer else None, 1, not answer)
    return _solve(level, seed, max_nodes)


def _solve(level: Level, seed: int = 0, max_nodes: int = 4000) -> SearchResult:
    root = LevelRun(level, seed, hint_fn=None)
    root.judge_wrong = False
    return search_pass(root, level.par, max_nodes)


def coverage(lessons: Iterable[Lesson]) -> dict[str, list[str]]:
    """For each rule, the levels (``lesson/level``) that teach it."""
    out: dict[str, list[str]] = {}
    for lesson in lessons:
        for lv in lesson.levels:
            rules = set(lv.rules) | set(rules_in(lv.success))
            for f in lv.failures:
                rules |= set(rules_in(f.when))
            rules |= {n.rule for n in lv.notes if n.rule}
            rules |= {w.rule for w in lv.wrong if w.rule}
            for r in rules:
                out.setdefault(r, []).append(lv.key)
    return dict(sorted(out.items(), key=lambda kv: _rule_key(kv[0])))


def _rule_key(rule: str) -> tuple[str, int]:
    area, _, n = rule[2:].rpartition("-")
    return (area, int(n) if n.isdigit() else 0)


__all__ = ["check_level_play", "solve", "coverage", "SearchResult"]
