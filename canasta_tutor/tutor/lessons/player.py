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

from ...actions import format_action
from ...cards import CARD_CODE, CARD_KIND, kind_of_code, parse_kind
from ...display import state_html
from ...errors import CanastaError, IllegalActionError, NotationError
from ..eventlog import REFUSALS_SHOWN
from ..planning import Guidance, plan_button
from ..progress import ProgressStore
from .course import CourseError, lesson_files
from .loader import load_lesson
from .markdown import markdown_html
from .model import Lesson
from .runner import OPEN, PASSED, ActionResult, HintFn, LevelRun, default_hint

SIMPLE = ("draw", "ask", "yes", "no", "pass")
#: the buttons of the lesson widget, in turn order (shown when the level allows the verb)
BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "yes", "no", "pass", "go_out")


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
        return self._record(self.run.play(text))

    def _record(self, result: ActionResult) -> ActionResult:
        self.feedback.append({"action": result.text, "accepted": result.accepted, "wrong": result.wrong,
                              "rule": result.rule, "status": result.status, "lines": list(result.feedback),
                              "replies": list(result.replies)})
        # the view keeps every accepted action's answer and the last few refusals (the run's log keeps all)
        refused = [i for i, f in enumerate(self.feedback) if not f["accepted"]]
        for i in reversed(refused[:-REFUSALS_SHOWN]):
            del self.feedback[i]
        if result.status != OPEN:
            self._finish()
        return result

    def press(self, button: str, cards: list[str] | tuple[str, ...] = (), to: str | None = None) -> list[ActionResult]:
        """A button pressed with the cards selected in the hand (codes like ``"KH"``; ``to``: the kind of
        the meld clicked for ``add``).  The session layer's planner turns it into actions, each played
        and answered in turn; :class:`CompositionError` when the learner must still choose something."""
        run = self.run
        if run.status != OPEN:
            raise CompositionError("This level is over: try again, or go on to the next.")
        ids = self._card_ids(list(cards))
        try:
            target = parse_kind(to) if to else None
        except NotationError as e:
            raise CompositionError(e.message) from None
        outcome = plan_button(run.state, run.seat_no, button, ids, target)
        if isinstance(outcome, Guidance):
            raise CompositionError(outcome.text)
        if isinstance(outcome, IllegalActionError):
            action = outcome.action if isinstance(outcome.action, tuple) and outcome.action else (button,)
            return [self._record(run.play_refused(action, outcome))]
        hand = run.state.hands[run.seat_no]
        for c in outcome.cards:  # the engine moves cards from the end: the selected ones go last
            pile = hand[CARD_KIND[c]]
            if c in pile:
                pile.remove(c)
                pile.append(c)
        results = []
        for a in outcome.actions:
            r = self.act(format_action(a))
            results.append(r)
            if not r.accepted or r.status != OPEN:
                break
        return results

    def _card_ids(self, codes: list[str]) -> list[int]:
        hand = self.run.state.hands[self.run.seat_no]
        used: set[int] = set()
        out = []
        for code in codes:
            try:
                kind = kind_of_code(code)
            except NotationError as e:
                raise CompositionError(e.message) from None
            free = [c for c in hand[kind] if CARD_CODE[c] == code.upper() and c not in used]
            if not free:
                raise CompositionError(f"{code!r} is not in your hand.")
            used.add(free[0])
            out.append(free[0])
        return out

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
            "buttons": [v for v in BUTTONS if v in level.allow or (v == "go_out" and "discard" in level.allow)],
            "your_turn": run.learner_to_act(),
            "has_next": self.index + 1 < len(lesson.levels),
            "table": state_html(state, level.seat),
        }


class CompositionError(CanastaError, ValueError):
    """A button press that needs something more from the learner (the planner's guidance)."""


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


__all__ = ["LessonPlayer", "CompositionError", "CourseOverview", "course_overview", "course_html",
           "load_course", "find_lesson"]
