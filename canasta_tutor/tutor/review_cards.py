"""Playing the review queue's puzzle and lesson-level cards at the card table, and rating them from the attempt.

A puzzle card (:mod:`.review_queue`) is a puzzle of the library the learner missed.  :func:`open_puzzle`
puts it on a :class:`~canasta_tutor.tutor.puzzles.session.PuzzleTable` (the puzzle trainer's own table and
judge, saving to the learner's progress store, on the given clock), so the learner solves it by clicks as in
the trainer.  When it is over, the trainer has saved the attempt; :func:`puzzle_answer` brings the queue up to
date (:func:`~canasta_tutor.tutor.review_queue.sync`, which rates the card from that attempt: missed is
Again, solved with a hint Hard, solved at once Good) and says how it went in the trainer's words.

A lesson-level card is played the same way by :class:`LevelTable`: the level's own
:class:`~canasta_tutor.tutor.lessons.player.LessonPlayer` (the lesson widget's runner, its judge, its hints and
its words) at the level's table session; the player saves the attempt with its stars, and
:func:`level_answer` syncs the queue, which rates the card from them (failed: Again; passed with fewer than
three stars, a hint or moves over par: Hard; three stars: Good).  A scoring level (a hand to score, not to
play) has no table: :func:`playable_level` says so, and it stays in the lesson's notebook.

>>> import os, tempfile
>>> from datetime import datetime, timezone
>>> from .progress import Attempt, ProgressStore
>>> missed, now = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc), datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
>>> with ProgressStore(os.path.join(tempfile.mkdtemp(), "p.sqlite3")) as store:
...     _ = store.record(Attempt("s01", "puzzles", "c11-show-then-take", "failed", kind="puzzle",
...                              finished=missed.isoformat()))
...     t = open_puzzle(store, "s01", "c11-show-then-take", explain=None, now=now)
...     t.handle({"intent": "play", "text": "take 9 9 9"})
...     a = puzzle_answer(store, "s01", t, now=now)
'Solved: take 9 9 9 is the answer.'
>>> a.solved, a.rating, a.card is not None and a.card.reviews
(True, 'Good', 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine.cards import ALL_CARD_CODES
from .lessons.clicks import PRESS_BUTTONS, CompositionError
from .lessons.course import CourseError
from .lessons.player import LessonPlayer, find_lesson
from .lessons.results import LevelOverError
from .lessons.runner import OPEN, PASSED, HintFn, default_hint
from .progress import STORE_ERRORS, ProgressStore, store_error
from .puzzles.session import PuzzleTable
from .puzzles.trainer import SOLVED, ExplainFn, Trainer, hint_explanation
from .review_queue import ReviewCard, card, level_rating, rating_for, sync
from .session import TableSession


@dataclass
class CardAnswer:
    """How one played card went: what was played, solved or not, the FSRS rating, the words, the card after."""

    played: str
    solved: bool
    rating: str
    grade: str
    text: str
    card: ReviewCard | None

    def to_dict(self) -> dict[str, Any]:
        return {"played": self.played, "solved": self.solved, "rating": self.rating, "grade": self.grade,
                "text": self.text, "card": None if self.card is None else self.card.to_dict()}


def clock_of(now: datetime | None) -> Callable[[], float]:
    """The clock of a fixed ``now`` (tests), or the real one."""
    if now is None:
        return time.time
    fixed = now.timestamp()
    return lambda: fixed


def open_puzzle(store: ProgressStore, learner: str, item: str, explain: ExplainFn | None = hint_explanation,
                now: datetime | None = None, four_colour: bool = False) -> PuzzleTable:
    """The puzzle ``item`` on the trainer's table, its attempt saved to ``store`` for ``learner`` (rated as the
    trainer rates any puzzle).  Raises :class:`~canasta_tutor.tutor.puzzles.trainer.TrainerError` for a puzzle
    no longer in the library."""
    trainer = Trainer(None, learner, store, explain, clock=clock_of(now))
    return PuzzleTable(trainer, puzzle=item, four_colour=four_colour)


def puzzle_answer(store: ProgressStore, learner: str, table: PuzzleTable, now: datetime | None = None) -> CardAnswer:
    """The answer of a finished puzzle card: the queue synced (which rates the card from the trainer's saved
    attempt) and the trainer's verdict, with its explanation of a miss."""
    run = table.run
    if not run.over:
        raise ValueError(f"puzzle {run.puzzle.id} is still open")
    solved = run.status == SOLVED
    try:
        sync(store, learner, now)
        after = card(store, learner, "puzzle", run.puzzle.id)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    last = table.verdicts[-1] if table.verdicts else None
    words = [last.text] if last else []
    if last is not None and not last.correct:
        words += [x for x in (last.explanation, last.figures) if x]
        words.append(f"The answer: {', '.join(run.puzzle.solution)}.")
    return CardAnswer(", ".join(run.played) or "nothing", solved, rating_for(solved, len(run.hints)).name,
                      "solved" if solved else "missed", " ".join(words), after)


#: the card table's intents a level passes to its session as they are (selecting cards, a rule, the colours)
TABLE_INTENTS = frozenset(("toggle", "select", "clear", "rule", "four_colour"))
#: the table's buttons a level at the queue does not use (the level is retried from the lesson's notebook)
HIDDEN_BUTTONS = ("undo", "new_hand")


class LevelTable:
    """A lesson level played at the card table by its :class:`LessonPlayer`: the table's clicks become the
    player's presses (the cards selected, then a button), typed actions its acts and the Hint button its
    staged hints; the table's message line says the level's answers.  Never raises from :meth:`handle`."""

    def __init__(self, player: LessonPlayer) -> None:
        self.player = player
        self.notice = ""

    @property
    def session(self) -> TableSession:
        return self.player.run.session

    @property
    def over(self) -> bool:
        return bool(self.player.run.status != OPEN)

    def _say(self, text: str, kind: str = "info") -> str:
        s = self.session
        s.message, s.message_kind, s.message_rule = text, kind, None
        return text

    def handle(self, msg: Any) -> str:
        """Check and carry out one intent from the table; the text shown."""
        s = self.session
        s.rev += 1  # every answer is a new view: the table's front end waits for a new revision after a click
        name = msg.get("intent", msg.get("type")) if isinstance(msg, dict) else None
        if not isinstance(name, str) or len(name) > 20:
            return self._say("A message must be an object with an 'intent' string.", "error")
        if name in TABLE_INTENTS:
            return s.handle(msg)
        if self.over:
            return self._say("This level is over: click Next card.", "error")
        try:
            if name == "hint":
                return self._say(self.player.hint() or "No more hints for this level.")
            if name == "play":
                text = msg.get("text")
                if not isinstance(text, str) or len(text) > 100:
                    return self._say("'text' must be a short action like 'meld K K K'.", "error")
                self.player.act(text)
            elif name in PRESS_BUTTONS:
                to = msg.get("to")
                codes = [ALL_CARD_CODES[c] for c in s.selected_cards()]
                self.player.press(name, codes, to if isinstance(to, str) and len(to) <= 3 else None)
                s.selected = []
            else:
                return self._say(f"Unknown intent {name[:20]!r}.", "error")
        except (CompositionError, LevelOverError) as e:
            return self._say(str(e), "error")
        return self._said()

    def _said(self) -> str:
        """The last answer of the level in its words (the feedback's lines, the stars when it is passed)."""
        run = self.player.run
        last = self.player.feedback[-1] if self.player.feedback else None
        words = [] if last is None else [f"{last['action']}:", *last["lines"]]
        if run.status == PASSED:
            words += [run.fill(run.level.conclusion) or "Level passed.", run.star_text()]
        ok = last is None or (last["accepted"] and not last["wrong"])
        return self._say(" ".join(w for w in words if w), "ok" if ok and run.status != "failed" else "error")

    def view(self) -> dict[str, Any]:
        """The card table's view model of the level, with the level's buttons only (all off once it is over)."""
        v: dict[str, Any] = self.session.view()
        level = self.player.run.level
        shown = set(level.allow) | {"hint"}  # the lesson widget's buttons (see LessonPlayer.view)
        if "discard" in level.allow and not level.step_by_step:
            shown.add("go_out")
        buttons = {k: dict(b) for k, b in v["buttons"].items() if k in shown and k not in HIDDEN_BUTTONS}
        if self.over:
            for b in buttons.values():
                b.update(ok=False, rule=None, title="This level is over: click Next card")
        elif "hint" in buttons:
            buttons["hint"].update(ok=True, rule=None, title="A hint for this level (each costs a star)")
        v["buttons"] = buttons
        v["hint"] = None
        return v

    def panel(self) -> dict[str, Any]:
        """The level's side of the queue's view: its goal, hints and status, as plain text."""
        run = self.player.run
        return {"lesson": self.player.lesson.title, "title": run.level.title, "goal": run.goal,
                "hints": list(self.player.hints), "status": run.status, "stars": run.stars()}


def playable_level(item: str) -> tuple[str, int] | None:
    """The lesson and level index of a level card (``lesson/level``) that is played at a table; None for a
    scoring level or one no longer in the course."""
    lesson_id, _, level_id = item.partition("/")
    try:
        lesson = find_lesson(lesson_id)
    except CourseError:
        return None
    index = next((i for i, lv in enumerate(lesson.levels) if lv.id == level_id), None)
    if index is None or lesson.levels[index].score is not None:
        return None
    return lesson_id, index


def open_level(store: ProgressStore, learner: str, item: str, hint_fn: HintFn | None = default_hint,
               seed: int = 0) -> LevelTable:
    """The level card ``item`` (``lesson/level``, see :func:`playable_level`) on its table, its attempt saved
    to ``store`` for ``learner``.  Raises ValueError for a level that is not played at a table."""
    found = playable_level(item)
    if found is None:
        raise ValueError(f"the level {item[:60]!r} is not played at the table")
    lesson_id, index = found
    return LevelTable(LessonPlayer(lesson_id, learner, store, seed, hint_fn, index))


def level_answer(store: ProgressStore, learner: str, table: LevelTable, now: datetime | None = None) -> CardAnswer:
    """The answer of a finished level card: the queue synced (which rates the card from the player's saved
    attempt and its stars) and the level's words."""
    run = table.player.run
    if run.status == OPEN:
        raise ValueError(f"the level {run.level.id} is still open")
    item = f"{run.level.lesson_id}/{run.level.id}"
    try:
        sync(store, learner, now)
        after = card(store, learner, "level", item)
    except STORE_ERRORS as e:
        raise store_error(store.path, e) from None
    passed = run.status == PASSED
    stars = run.stars()
    return CardAnswer(", ".join(run.played) or "nothing", passed, level_rating(passed, stars).name,
                      f"{stars} star{'s' if stars != 1 else ''}" if passed else "failed",
                      str(run.session.message), after)


__all__ = ["CardAnswer", "LevelTable", "clock_of", "level_answer", "open_level", "open_puzzle", "playable_level",
           "puzzle_answer"]
