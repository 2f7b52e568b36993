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
from pathlib import Path
from typing import Any, Iterable

from ..display import state_html
from ...engine.rulebook import rule as lookup_rule
from ...engine.cards import parse_kind
from ...engine.errors import NotationError
from ..eventlog import REFUSALS_SHOWN
from ..planning import PRESS_WORDS, press_text
from ..progress import ProgressStore
from .clicks import CompositionError, card_ids
from .course import CourseError, lesson_files
from .loader import load_lesson
from .markdown import markdown_html
from .model import Lesson
from .runner import OPEN, PASSED, ActionResult, HintFn, LevelRun, default_hint
from .scoring import LABELS as SCORE_LABELS

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
    """One learner playing one lesson.

    A generated level deals a new hand each time it is started again (``seed``, then ``seed + 1``...),
    as its goal says; ``new_deals=False`` keeps the one deal of ``seed`` (an assignment, whose log is
    replayed on that deal)."""

    def __init__(self, lesson: Lesson | str, learner: str = "learner", store: ProgressStore | None = None,
                 seed: int = 0, hint_fn: HintFn | None = default_hint, level: int = 0,
                 new_deals: bool = True) -> None:
        self.lesson = find_lesson(lesson) if isinstance(lesson, str) else lesson
        self.learner = learner
        self.store = store
        self.seed = seed
        self.hint_fn = hint_fn
        self.new_deals = new_deals
        self._best: dict[str, int] = {}
        if store is not None:
            for (lesson_id, level_id), stars in store.stars_for(learner).items():
                if lesson_id == self.lesson.id:
                    self._best[level_id] = stars
        self.index = 0
        self.run: LevelRun
        self.feedback: list[dict[str, Any]] = []
        self.hints: list[str] = []
        #: how many times each level was started: a generated level's deal is ``seed`` plus that
        self._starts: dict[int, int] = {}
        #: the rule the learner opened from a rule number in the lesson's text
        self.rule: dict[str, str] | None = None
        self.start(level)

    # ------------------------------------------------------------- navigation
    def start(self, index: int) -> None:
        """Start (or restart) level ``index`` (0-based): a set position, or for a generated level a new deal
        each time (the player's seed the first time)."""
        if not 0 <= index < len(self.lesson.levels):
            raise IndexError(f"lesson {self.lesson.id!r} has levels 1 to {len(self.lesson.levels)}")
        level = self.lesson.levels[index]
        starts = self._starts.get(index, 0)
        self._starts[index] = starts + 1
        seed = self.seed + (starts if level.generated and self.new_deals else 0)
        self.index = index
        self.run = LevelRun(level, seed, hint_fn=self.hint_fn)
        self.feedback = []
        self.hints = []

    def retry(self) -> None:
        """Try the level again: the same position, or for a generated level a new deal."""
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

    def _record(self, result: ActionResult, label: str = "", results: list[ActionResult] | None = None
                ) -> ActionResult:
        """Add one answer to the feedback (``results``: a press's several answers as one, named ``label``)."""
        group = results or [result]
        lines = [x for r in group for x in r.feedback]
        conclusion = self.run.fill(self.run.level.conclusion) or "Level passed."
        if result.status == PASSED and lines and lines[-1] == conclusion:
            lines.pop()  # the level's conclusion is shown once, with the stars
        self.feedback.append({"action": label or result.text, "accepted": all(r.accepted for r in group),
                              "wrong": any(r.wrong for r in group), "rule": result.rule, "status": result.status,
                              "lines": lines, "replies": [x for r in group for x in r.replies]})
        # the view keeps every accepted action's answer and the last few refusals (the run's log keeps all)
        refused = [i for i, f in enumerate(self.feedback) if not f["accepted"]]
        for i in reversed(refused[:-REFUSALS_SHOWN]):
            del self.feedback[i]
        if result.status != OPEN:
            self._finish()
        return result

    def press(self, button: str, cards: list[str] | tuple[str, ...] = (), to: str | None = None) -> list[ActionResult]:
        """A button pressed with the cards selected in the hand (codes like ``"KH"``; ``to``: the kind of
        the meld clicked for ``add``): see :func:`.clicks.press`.  The answers are one entry of the
        feedback, named by the press as the learner made it ("Meld 9♠ 9♥ 9♦")."""
        if self.run.status != OPEN:
            raise CompositionError("This level is over: try again, or go on to the next.")
        said = _press_said(self.run, button, list(cards), to)
        results = self.run.press(button, list(cards), to)
        played = [r.notation for r in results if r.accepted]
        label = f"{said} ({', '.join(played)})" if played else said
        self._record(results[-1], label, results)
        return results

    def answer(self, values: dict[str, Any] | str) -> ActionResult:
        """A scoring level's answer: the numbers by line (``{"canastas": 500, ...}``) or as text."""
        if self.run.status != OPEN:
            raise CompositionError("This level is over: try again, or go on to the next.")
        if isinstance(values, dict):
            text = " ".join(f"{k}={str(v).strip()[:12]}" for k, v in list(values.items())[:10])
        else:
            text = str(values)[:200]
        result = self.run.answer(text)
        if not result.counted:
            raise CompositionError(result.reason)
        return self._record(result, "Your score")

    def show_rule(self, rule_id: str | None) -> None:
        """Open a rule of the rule book (a rule number clicked in the lesson's text); None closes it."""
        if rule_id is None:
            self.rule = None
            return
        r = lookup_rule(rule_id) if isinstance(rule_id, str) else None
        if r is None:
            raise CompositionError(f"{str(rule_id)[:20]!r} is not a rule number in the rule book.")
        self.rule = r.to_dict()

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
        """Everything the lesson widget shows, JSON-ready; text fields are safe HTML, and rule numbers in
        the lesson's words are links that open the rule (``cl-rule-link`` buttons)."""
        run = self.run
        level = run.level
        lesson = self.lesson
        state = run.state
        scoring = run.question is not None
        quick = [] if scoring else [v for v in SIMPLE if v in level.allow and run.learner_to_act()
                                    and any(a[0] == v for a in state.legal_actions())]
        buttons = [] if scoring else [v for v in BUTTONS if v in level.allow or (
            v == "go_out" and "discard" in level.allow and not level.step_by_step)]
        md = _linked
        return {
            "lesson": {"id": lesson.id, "title": html.escape(lesson.title), "intro": md(lesson.intro),
                       "summary": html.escape(lesson.summary)},
            "levels": [{"id": lv.id, "title": html.escape(lv.title), "stars": self._best.get(lv.id, 0)}
                       for lv in lesson.levels],
            "index": self.index,
            "level": {"id": level.id, "title": html.escape(level.title), "goal": md(run.goal),
                      "intro": md(run.fill(level.intro)), "par": level.par,
                      "allow": list(level.allow), "try_illegal": level.try_illegal, "generated": level.generated,
                      "step_by_step": level.step_by_step, "seed": run.seed},
            "status": run.status,
            "stars": run.stars(),
            "star_text": html.escape(run.star_text()),
            "tries": run.tries,
            "opening": [html.escape(t) for t in run.opening],
            "hints": [md(h) for h in self.hints],
            "hints_used": run.hints_used,
            "has_hints": run.status == OPEN and (not level.hints or run.hints_used < len(level.hints))
            and not (scoring and not level.hints),
            "feedback": [{**f, "lines": [md(x) for x in f["lines"]],
                          "action": html.escape(f["action"]), "replies": [html.escape(r) for r in f["replies"]]}
                         for f in self.feedback],
            "conclusion": md(run.fill(level.conclusion) or "Level passed.") if run.status == PASSED else "",
            "complete": self._complete() if run.status == PASSED and self.index + 1 == len(lesson.levels) else None,
            "score": [{"id": i, "label": SCORE_LABELS[i]} for i in run.question.ids] if run.question else [],
            "quick": quick,
            "buttons": buttons,
            "your_turn": run.learner_to_act(),
            "has_next": self.index + 1 < len(lesson.levels),
            "rule": self.rule,
            # a hand to score is shown with every hand face up, and without its score until it is answered
            "table": state_html(state, None if scoring else level.seat,
                                result=not scoring or run.status == PASSED),
        }

    def _complete(self) -> dict[str, Any]:
        """The lesson-complete message: the levels passed, the stars, and the next lesson of the course."""
        lesson = self.lesson
        stars = sum(self._best.get(lv.id, 0) for lv in lesson.levels)
        passed = sum(1 for lv in lesson.levels if self._best.get(lv.id, 0))
        total = len(lesson.levels)
        text = (f"You have reached the end of the lesson {lesson.title!r}: {passed} of {total} levels passed, "
                f"{stars} of {3 * total} stars.")
        if passed < total:
            text += " The levels without a star are waiting above."
        nxt = next_lesson(lesson)
        out: dict[str, Any] = {"text": html.escape(text), "next": None}
        if nxt is not None:
            notebook = Path(nxt.file).with_suffix(".ipynb").name if nxt.file else ""
            out["next"] = {"id": nxt.id, "order": nxt.order, "title": html.escape(nxt.title),
                           "summary": html.escape(nxt.summary), "notebook": html.escape(notebook)}
        return out


def _press_said(run: LevelRun, button: str, cards: list[str], to: str | None) -> str:
    """The press as the learner made it ("Meld K♠ K♥ K♦"), or the button alone when its cards are not
    all in the hand (the press then answers why)."""
    try:
        ids = card_ids(run, cards)
        target = parse_kind(to) if to else None
    except (CompositionError, NotationError):
        return PRESS_WORDS.get(button, button)
    return press_text(button, ids, target)


def _linked(text: str) -> str:
    """Lesson Markdown as safe HTML with each rule number a link that opens the rule."""
    return markdown_html(text, rule_links=True)


def next_lesson(lesson: Lesson, folder: str | None = None) -> Lesson | None:
    """The lesson after ``lesson`` in the course (by order), or None (the last, or one not in the course)."""
    try:
        course = load_course(folder)
    except (CourseError, OSError, ValueError):
        return None
    ids = [x.id for x in course]
    if lesson.id not in ids:
        return None
    i = ids.index(lesson.id)
    return course[i + 1] if i + 1 < len(course) else None


def course_overview(lessons: Iterable[Lesson], learner: str = "learner",
                    store: ProgressStore | None = None) -> list[dict[str, Any]]:
    """The lessons with the learner's stars: one dict per lesson, in course order (``notebook``: the
    lesson's notebook in the course's ``lessons/`` folder, named after its file)."""
    best = store.stars_for(learner) if store is not None else {}
    out = []
    for lesson in lessons:
        stars = [best.get((lesson.id, lv.id), 0) for lv in lesson.levels]
        out.append({"id": lesson.id, "title": lesson.title, "summary": lesson.summary, "order": lesson.order,
                    "levels": len(lesson.levels), "stars": sum(stars), "max_stars": 3 * len(lesson.levels),
                    "solved": sum(1 for s in stars if s > 0),
                    "scoring": sum(1 for lv in lesson.levels if lv.scoring),
                    "notebook": Path(lesson.file).with_suffix(".ipynb").name if lesson.file else ""})
    return out


def course_totals(rows: list[dict[str, Any]], stars: bool = True) -> str:
    """One line for the whole course, counted from its files: ``12 lessons, 96 levels; 0 of 288 stars``
    (``stars=False``: without the learner's stars)."""
    levels = sum(r["levels"] for r in rows)
    line = f"{len(rows)} lesson{'s' if len(rows) != 1 else ''}, {levels} level{'s' if levels != 1 else ''}"
    scoring = sum(r["scoring"] for r in rows)
    if scoring:
        line += f" ({scoring} of them scoring a hand)"
    if stars:
        line += f"; {sum(r['stars'] for r in rows)} of {3 * levels} stars"
    return line


def course_html(lessons: Iterable[Lesson], learner: str = "learner", store: ProgressStore | None = None,
                link: str | None = "lessons/") -> str:
    """The start page's table of lessons with the learner's stars (escaped HTML): each title links its
    notebook (``link``: the folder of the lesson notebooks, relative to the page; None: no links)."""
    rows = course_overview(lessons, learner, store)
    out = []
    for n, item in enumerate(rows, 1):
        stars = f"{item['stars']} / {item['max_stars']}"
        title = f"<strong>{html.escape(item['title'])}</strong>"
        if link is not None and item["notebook"]:
            title = f'<a href="{html.escape(link + item["notebook"], quote=True)}">{title}</a>'
        out.append(f"<tr><td>{n}</td><td>{title}<br>"
                   f"<span>{html.escape(item['summary'])}</span></td><td>{item['solved']} / {item['levels']}</td>"
                   f"<td aria-label=\"{item['stars']} stars of {item['max_stars']}\">★ {stars}</td></tr>")
    return (f'<p class="ct-course-totals">{html.escape(course_totals(rows))}</p>'
            '<table class="ct-course"><thead><tr><th>#</th><th>Lesson</th><th>Levels solved</th><th>Stars</th>'
            f"</tr></thead><tbody>{''.join(out)}</tbody></table>")


class CourseOverview:
    """The course with a learner's stars; shows itself as a table in a notebook."""

    def __init__(self, learner: str = "learner", store: ProgressStore | None = None,
                 folder: str | None = None, link: str | None = "lessons/") -> None:
        self.lessons = load_course(folder)
        self.learner = learner
        self.store = store
        self.link = link

    def rows(self) -> list[dict[str, Any]]:
        return course_overview(self.lessons, self.learner, self.store)

    def _repr_html_(self) -> str:
        return course_html(self.lessons, self.learner, self.store, self.link)

    def totals(self) -> str:
        """The course in one line, counted from its lesson files: ``12 lessons, 96 levels (...)``."""
        return course_totals(self.rows(), stars=False)

    def __repr__(self) -> str:
        rows = self.rows()
        return "\n".join([course_totals(rows)] + [f"{r['order']:>2} {r['title']}: {r['levels']} levels, "
                                                  f"{r['stars']}/{r['max_stars']} stars" for r in rows])


__all__ = ["LessonPlayer", "CompositionError", "CourseOverview", "course_overview", "course_html",
           "load_course", "find_lesson", "next_lesson", "course_totals"]
