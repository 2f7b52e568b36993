"""A learner going through a lesson: one level at a time, hints, feedback, "try again",
"next", progress saved; and the course overview with the learner's stars.

:class:`LessonPlayer` is what the lesson widget shows (through :meth:`LessonPlayer.view`,
one JSON-ready dict); it imports no widget code.  Every lesson text in the
view is rendered with :func:`~canasta_tutor.tutor.lessons.markdown.markdown_html`
(escaped first); the table is the package's own static table HTML.

>>> from canasta_tutor.tutor.lessons.loader import parse_lesson
>>> from canasta_tutor.tutor.lessons.runner import DEMO
>>> player = LessonPlayer(parse_lesson(DEMO, "demo.toml"), hint_fn=None)
>>> player.act("take 9 9 9").status, player.view()["stars"], player.view()["levels"][0]["stars"]
('passed', 3, 3)
"""

from __future__ import annotations

import html
from typing import Any, Iterable

from ...actions import kind_token
from ...cards import CARD_CODE, kind_of_code
from ...display import state_html
from ...errors import CanastaError, NotationError
from ..progress import ProgressStore
from .course import CourseError, lesson_files
from .loader import load_lesson
from .markdown import markdown_html
from .model import Lesson
from .runner import OPEN, PASSED, ActionResult, HintFn, LevelRun, default_hint

SIMPLE = ("draw", "ask", "yes", "no", "pass")
#: the buttons of the lesson widget, in turn order (shown when the level allows the verb)
BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "yes", "no", "pass")


def load_course(folder: str | None = None) -> list[Lesson]:
    """Every lesson of the course, in course order."""
    from pathlib import Path

    lessons = [load_lesson(f) for f in lesson_files(Path(folder) if folder else None)]
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.id))


def find_lesson(lesson_id: str, folder: str | None = None) -> Lesson:
    for lesson in load_course(folder):
        if lesson.id == lesson_id:
            return lesson
    raise CourseError(f"no lesson {lesson_id!r} in the course")


class LessonPlayer:
    """One learner playing one lesson."""

    def __init__(self, lesson: Lesson | str, learner: str = "learner", store: ProgressStore | None = None,
                 seed: int = 0, hint_fn: HintFn | None = default_hint, level: int = 0) -> None:
        self.lesson = find_lesson(lesson) if isinstance(lesson, str) else lesson
        self.learner = learner
        self.store = store
        self.seed = seed
        self.hint_fn = hint_fn
        self._best: dict[str, int] = {}
        if store is not None:
            for (lesson_id, level_id), stars in store.stars_for(learner).items():
                if lesson_id == self.lesson.id:
                    self._best[level_id] = stars
        self.index = 0
        self.run: LevelRun
        self.feedback: list[dict[str, Any]] = []
        self.hints: list[str] = []
        self.start(level)

    # ------------------------------------------------------------- navigation
    def start(self, index: int) -> None:
        """Start (or restart) level ``index`` (0-based) with the player's seed."""
        if not 0 <= index < len(self.lesson.levels):
            raise IndexError(f"lesson {self.lesson.id!r} has levels 1 to {len(self.lesson.levels)}")
        self.index = index
        self.run = LevelRun(self.lesson.levels[index], self.seed, hint_fn=self.hint_fn)
        self.feedback = []
        self.hints = []

    def retry(self) -> None:
        """Try the level again: the same position (the same deal for a generated level)."""
        self.start(self.index)

    def next(self) -> bool:
        """Go to the next level; False at the last one."""
        if self.index + 1 >= len(self.lesson.levels):
            return False
        self.start(self.index + 1)
        return True

    # ----------------------------------------------------------------- acting
    def act(self, text: str) -> ActionResult:
        """The learner's action; the answer is added to the feedback, and the attempt is saved when it ends."""
        result = self.run.play(text)
        self.feedback.append({"action": result.text, "accepted": result.accepted, "rule": result.rule,
                              "status": result.status, "lines": list(result.feedback),
                              "replies": list(result.replies)})
        if result.status != OPEN:
            self._finish()
        return result

    def press(self, button: str, cards: list[str] | tuple[str, ...] = (), to: str | None = None) -> ActionResult:
        """A button pressed with the cards selected in the hand (codes like ``"KH"``); see :func:`compose`."""
        top = CARD_CODE[self.run.state.pile[-1]] if self.run.state.pile else None
        return self.act(compose(button, list(cards), top, to))

    def hint(self) -> str | None:
        """The next staged hint (each costs a star)."""
        text = self.run.next_hint()
        if text is not None:
            self.hints.append(text)
        return text

    def _finish(self) -> None:
        level = self.run.level
        stars = self.run.stars()
        if self.run.status == PASSED and stars > self._best.get(level.id, 0):
            self._best[level.id] = stars
        if self.store is not None:
            self.store.record(self.run.attempt(self.learner))

    def best_stars(self) -> dict[str, int]:
        return dict(self._best)

    # ------------------------------------------------------------------- view
    def view(self) -> dict[str, Any]:
        """Everything the lesson widget shows, JSON-ready; text fields are safe HTML."""
        run = self.run
        level = run.level
        lesson = self.lesson
        state = run.state
        quick = [v for v in SIMPLE if v in level.allow and run.learner_to_act()
                 and any(a[0] == v for a in state.legal_actions())]
        return {
            "lesson": {"id": lesson.id, "title": html.escape(lesson.title), "intro": markdown_html(lesson.intro)},
            "levels": [{"id": lv.id, "title": html.escape(lv.title), "stars": self._best.get(lv.id, 0)}
                       for lv in lesson.levels],
            "index": self.index,
            "level": {"id": level.id, "title": html.escape(level.title), "goal": markdown_html(run.goal),
                      "intro": markdown_html(run.fill(level.intro)), "par": level.par,
                      "allow": list(level.allow), "try_illegal": level.try_illegal, "generated": level.generated},
            "status": run.status,
            "stars": run.stars(),
            "tries": run.tries,
            "hints": [markdown_html(h) for h in self.hints],
            "hints_used": run.hints_used,
            "has_hints": run.status == OPEN and (not level.hints or run.hints_used < len(level.hints)),
            "feedback": [{**f, "lines": [markdown_html(x) for x in f["lines"]],
                          "action": html.escape(f["action"]), "replies": [html.escape(r) for r in f["replies"]]}
                         for f in self.feedback],
            "conclusion": markdown_html(run.fill(level.conclusion)) if run.status == PASSED else "",
            "quick": quick,
            "buttons": [v for v in BUTTONS if v in level.allow],
            "your_turn": run.learner_to_act(),
            "has_next": self.index + 1 < len(lesson.levels),
            "table": state_html(state, level.seat),
        }


class CompositionError(CanastaError, ValueError):
    """Selected cards that do not make an action for the button pressed."""


def compose(button: str, cards: list[str], top: str | None = None, to: str | None = None) -> str:
    """The action text for a button and the selected cards (card codes), in the action notation.

    >>> compose("meld", ["KH", "KD", "JK"]), compose("take", ["9H", "9C"], top="9S"), compose("take", [], "9S")
    ('meld K K JK', 'take 9 9 9', 'take 9')
    >>> compose("add", ["2C"], to="K"), compose("add", ["KS"]), compose("discard", ["3S"])
    ('add 2 to K', 'add K', 'discard 3')
    >>> compose("discard", ["4H", "5H"])
    Traceback (most recent call last):
    ...
    canasta_tutor.tutor.lessons.player.CompositionError: Select exactly one card to discard.
    """
    try:
        tokens = [kind_token(kind_of_code(c)) for c in cards]
    except NotationError as e:
        raise CompositionError(e.message) from None
    if button in SIMPLE:
        if tokens:
            raise CompositionError(f"'{button}' takes no cards: clear the selection first.")
        return button
    if button == "discard":
        if len(tokens) != 1:
            raise CompositionError("Select exactly one card to discard.")
        return f"discard {tokens[0]}"
    if button == "meld":
        if len(tokens) < 3:
            raise CompositionError("Select at least three cards to meld.")
        return "meld " + " ".join(tokens)
    if button == "add":
        if len(tokens) != 1:
            raise CompositionError("Select one card to add, then press Add (click a meld of yours to choose it).")
        return f"add {tokens[0]} to {to}" if to and to != tokens[0] else f"add {tokens[0]}"
    if button == "take":
        if top is None:
            raise CompositionError("The pile is empty: there is no pack to take.")
        return " ".join(["take", kind_token(kind_of_code(top)), *tokens])
    raise CompositionError(f"Unknown button {button[:20]!r}.")


def course_overview(lessons: Iterable[Lesson], learner: str = "learner",
                    store: ProgressStore | None = None) -> list[dict[str, Any]]:
    """The lessons with the learner's stars: one dict per lesson, in course order."""
    best = store.stars_for(learner) if store is not None else {}
    out = []
    for lesson in lessons:
        stars = [best.get((lesson.id, lv.id), 0) for lv in lesson.levels]
        out.append({"id": lesson.id, "title": lesson.title, "summary": lesson.summary, "order": lesson.order,
                    "levels": len(lesson.levels), "stars": sum(stars), "max_stars": 3 * len(lesson.levels),
                    "solved": sum(1 for s in stars if s > 0)})
    return out


def course_html(lessons: Iterable[Lesson], learner: str = "learner", store: ProgressStore | None = None) -> str:
    """The start page's table of lessons with the learner's stars (escaped HTML)."""
    rows = []
    for n, item in enumerate(course_overview(lessons, learner, store), 1):
        stars = f"{item['stars']} / {item['max_stars']}"
        rows.append(f"<tr><td>{n}</td><td><strong>{html.escape(item['title'])}</strong><br>"
                    f"<span>{html.escape(item['summary'])}</span></td><td>{item['solved']} / {item['levels']}</td>"
                    f"<td aria-label=\"{item['stars']} stars of {item['max_stars']}\">★ {stars}</td></tr>")
    return ('<table class="ct-course"><thead><tr><th>#</th><th>Lesson</th><th>Levels solved</th><th>Stars</th>'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


class CourseOverview:
    """The course with a learner's stars; shows itself as a table in a notebook."""

    def __init__(self, learner: str = "learner", store: ProgressStore | None = None,
                 folder: str | None = None) -> None:
        self.lessons = load_course(folder)
        self.learner = learner
        self.store = store

    def rows(self) -> list[dict[str, Any]]:
        return course_overview(self.lessons, self.learner, self.store)

    def _repr_html_(self) -> str:
        return course_html(self.lessons, self.learner, self.store)

    def __repr__(self) -> str:
        return "\n".join(f"{r['order']:>2} {r['title']}: {r['stars']}/{r['max_stars']} stars" for r in self.rows())


__all__ = ["LessonPlayer", "compose", "CompositionError", "CourseOverview", "course_overview", "course_html",
           "load_course", "find_lesson"]
