"""A graded item as the student plays it: the lesson player and the puzzle table in exam mode.

An assignment's widgets are the lesson and puzzle widgets configured by these two sessions
(they import no widget):

- :class:`ExamLevel`, a :class:`~..lessons.player.LessonPlayer` on the item's level, on the
  student's own deal;
- :class:`ExamPuzzle`, a :class:`~..puzzle_session.PuzzleTable` on the student's puzzle.

Both show the item and nothing else (no other level, puzzle, streak, theme, timed run or
rating), and follow the item's rules (:mod:`.exam`):

- a wrong move says that it is wrong, with the engine's rule or the reason in words, never the
  answer while the item is open; "Try again" starts a new attempt;
- a hint costs the item's penalty once: seen hints stay shown across attempts, and the button is
  off when no new hint is left (its label states the cost in points);
- "Give up" closes the item: the answer and why are shown, and the item earns nothing; a solve
  closes it too; a closed item takes no more attempts;
- every intent is logged by the :class:`~.grading.ItemRecorder`, which is asked first whether
  the entry fits the log's limits, and warns before they are reached; when the item closes, the
  log is replayed as the grader will replay it, and its score is shown.

>>> import tempfile
>>> from canasta_tutor.tutor.assignments.spec import Item
>>> item = Item(id="p", kind="puzzle", puzzle="c22-take-the-pack", points=5, hint_penalty=2, number=4)
>>> t = ExamPuzzle(item, "s01", tempfile.mkdtemp())
>>> t.handle({"intent": "play", "text": "draw"})
'Not this: draw.'
>>> "take 9 9 9" in str(t.panel())      # the answer is not shown while the item is open
False
>>> t.handle({"intent": "retry"}), t.handle({"intent": "hint"})
('Attempt 2.', "Think about: take an open pack onto the side's melds.")
>>> t.handle({"intent": "hint"}), t.handle({"intent": "hint"})
('Look at the pack before you draw.', 'The answer starts with: take.')
>>> t.handle({"intent": "hint"})
'No new hint: you have seen all 3 hints of this item.'
>>> t.handle({"intent": "play", "text": "take 9 9 9"})
'Solved: take 9 9 9 is the answer.'
>>> t.panel()["exam"]["result"]
'4. Puzzle 4: solved with 3 hints (2 attempts, replayed): 0 of 5 points'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...engine.errors import IllegalActionError
from ..lessons.player import LessonPlayer
from ..lessons.runner import FAILED, OPEN, PASSED, ActionResult, LevelRun
from ..puzzles.session import PLAY_INTENTS, TABLE_INTENTS, PuzzleTable
from ..puzzles.trainer import MISSED, SOLVED, Trainer, Verdict
from .exam import (GIVE_UP, GIVEN_UP, SOLVED_ITEM, ExamError, answer_and_why, item_puzzle, level_hint_count,
                   level_wrong_reason, puzzle_hint_count, replay_item_log, student_seed, wrong_reason)
from .grading import LOG_DIR, ItemRecorder, LogFullError, grade_log
from .items import item_lesson, item_level
from .spec import Item


def cost_label(item: Item) -> str:
    """The hint button's label: what a hint costs, in points of the assignment file."""
    p = item.hint_penalty
    return f"Hint (costs {p:g} point{'s' if p != 1 else ''})" if p else "Hint (free)"


class _Exam:
    """What the two sessions share: the item, the student, the recorder and the item's state."""

    item: Item
    student: str
    recorder: ItemRecorder
    closed: str
    hints_seen: int
    result: str
    notice: str

    def _restore(self, level: Any = None) -> None:
        """The item's state from the log's earlier attempts (a reopened notebook goes on where it was)."""
        self.notice = self.recorder.notice
        r = replay_item_log(self.item, self.recorder.previous_entries, self.student, level)
        self.closed, self.hints_seen = r.closed, r.hints
        self.attempt_no = len(self.recorder.previous_entries)
        self.result = self._grade_line() if r.closed else ""

    def _grade_line(self) -> str:
        g = grade_log(self.item, self.recorder.path.parent, self._level(), self.student)
        return g.line()

    def _level(self) -> Any:
        return None

    def _check_open(self) -> None:
        if self.closed == SOLVED_ITEM:
            raise ExamError("This item is solved and closed: its score is kept.")
        if self.closed == GIVEN_UP:
            raise ExamError("You gave this item up: it is closed, and the answer is shown.")

    def _room(self, run: Any, entries: int = 1) -> None:
        why = self.recorder.room(run, entries)
        if why:
            raise ExamError(why)

    def _log(self, run: Any) -> None:
        """Write the log; when the item has just closed, replay it as the grader will."""
        try:
            self.recorder.observe(run, self.hints_seen)
        except (OSError, LogFullError) as e:
            self.notice = f"Your log could not be written: {e}"
            return
        if self.closed and not self.result:
            self.result = self._grade_line()

    def exam_view(self, open_attempt: bool) -> dict[str, Any]:
        """The exam's part of the view: plain text (the widget escapes it)."""
        answer = why = ""
        if self.closed:
            answer, why = answer_and_why(self.item, self.student, self._level())
        has_hint = (not self.closed and open_attempt
                    and (self._hint_count() is None or self.hints_seen < (self._hint_count() or 0)))
        return {"label": self.item.label, "number": self.item.number, "student": self.student,
                "own_deal": self._own_deal(),
                "hint_label": cost_label(self.item), "has_hint": has_hint, "hints_seen": self.hints_seen,
                "closed": self.closed, "result": self.result, "answer": answer, "why": why,
                "can_retry": not self.closed and (not open_attempt or self._played()), "can_give_up": not self.closed,
                "attempt": self.attempt_no, "warning": self.recorder.warning(self._run()),
                "points": self.item.points, "hint_penalty": self.item.hint_penalty}

    def _hint_count(self) -> int | None:
        raise NotImplementedError

    def _own_deal(self) -> bool:
        """Whether the student has their own deal of this item (a generated level, a pool)."""
        level = self._level()
        return self.item.pool or (level is not None and bool(level.generated))

    def _played(self) -> bool:
        """Whether the attempt on the table has a move in it (a retry then starts afresh)."""
        run = self._run()
        entries = run.tried if hasattr(run, "tried") else run.log
        return any(e.get("kind") in ("action", "refused", "wrong") for e in entries)

    def _run(self) -> Any:
        raise NotImplementedError


class ExamLevel(_Exam, LessonPlayer):
    """A graded lesson level: one level, on the student's deal, played as an exam."""

    def __init__(self, item: Item, student: str, log_dir: str = LOG_DIR, level: Any = None) -> None:
        self.item = item
        self.student = student
        self.level_obj = level if level is not None else item_level(item, Path(log_dir).parent)
        self.recorder = ItemRecorder(item, log_dir, student)
        self._restore(self.level_obj)
        self.seen_texts: list[str] = []
        LessonPlayer.__init__(self, item_lesson(item, self.level_obj), "student", None,
                              student_seed(item, student, self.level_obj), hint_fn=None)
        self.seen_texts = [self.run.fill(h) for h in self.level_obj.hints[:self.hints_seen]]
        self.hints = list(self.seen_texts)
        self.attempt_no += 1

    def _level(self) -> Any:
        return self.level_obj

    def _run(self) -> Any:
        return self.run

    def _hint_count(self) -> int | None:
        return level_hint_count(self.level_obj)

    # ------------------------------------------------------------------ the player's moves, as an exam
    def start(self, index: int) -> None:
        if index != 0:
            raise ExamError("An assignment item is one level.")
        self.index = 0
        self.run = LevelRun(self.lesson.levels[0], self.seed, hint_fn=None, why_fn=level_wrong_reason)
        self.run.hints_used = self.hints_seen
        self.feedback = []
        self.hints = list(getattr(self, "seen_texts", []))

    def act(self, text: str) -> ActionResult:
        self._check_open()
        self._room(self.run)
        result = super().act(text)
        self._log(self.run)
        return result

    def press(self, button: str, cards: list[str] | tuple[str, ...] = (), to: str | None = None) -> list[ActionResult]:
        self._check_open()
        self._room(self.run, max(1, len(cards)))
        results = super().press(button, cards, to)
        self._log(self.run)
        return results

    def answer(self, values: dict[str, Any] | str) -> ActionResult:
        self._check_open()
        self._room(self.run)
        result = super().answer(values)
        self._log(self.run)
        return result

    def _record(self, result: ActionResult, label: str = "", results: list[ActionResult] | None = None
                ) -> ActionResult:
        """The answer as an exam gives it: the engine's refusal and rule, or the reason in words; never the
        lesson's notes or failure texts, which may name the answer."""
        for r in results or [result]:
            own = [x for x in r.feedback if x and x not in (r.note, self.run.message)]
            if not r.accepted:
                own = own[:1]
            if r.status == FAILED and r is result:
                why = self.run.wrong_note if self.run.wrong_note not in own else ""
                own.append(f"Not this time: the goal was not reached. {why} Try again, or give up to see the answer.")
            r.feedback = [" ".join(x.split()) for x in own]
            r.note = ""
        if result.status == PASSED and not self.closed:
            self.closed = SOLVED_ITEM
        return super()._record(result, label, results)

    def hint(self) -> str | None:
        self._check_open()
        if self.run.status != OPEN:
            raise ExamError("This attempt is over: click Try again first.")
        most = self._hint_count()
        if most is not None and self.hints_seen >= most:
            raise ExamError(f"No new hint: you have seen all {most} hints of this item.")
        self._room(self.run)
        text = self.run.next_hint()
        if text is None:
            raise ExamError("No new hint for this position.")
        self.hints_seen += 1
        self.seen_texts.append(text)
        self.hints = list(self.seen_texts)
        self._log(self.run)
        return text

    def retry(self) -> None:
        self._check_open()
        why = self.recorder.can_start()
        if why:
            raise ExamError(why)
        self.start(0)
        self.attempt_no += 1

    def next(self) -> bool:
        raise ExamError("An assignment item is one level.")

    def give_up(self) -> None:
        """Close the item unsolved: the answer is shown, and the item earns nothing."""
        self._check_open()
        self._room(self.run)
        self.run.log.append({"kind": GIVE_UP, "text": "", "rule": ""})
        self.closed = GIVEN_UP
        self._log(self.run)

    def view(self) -> dict[str, Any]:
        v = super().view()
        v["exam"] = self.exam_view(self.run.status == OPEN)
        v["levels"] = []
        v["has_next"] = False
        v["has_hints"] = v["exam"]["has_hint"]
        v["stars"] = 0
        v["star_text"] = ""
        v["complete"] = None   # no "lesson complete, next lesson": the item is one level
        return v


class ExamPuzzle(_Exam, PuzzleTable):
    """A graded puzzle: the student's puzzle at the card table, played as an exam."""

    INTENTS = frozenset(("hint", "give_up", "retry"))

    def __init__(self, item: Item, student: str, log_dir: str = LOG_DIR, four_colour: bool = False) -> None:
        self.item = item
        self.student = student
        self.puzzle = item_puzzle(item, student)
        self.recorder = ItemRecorder(item, log_dir, student)
        self._restore()
        trainer = Trainer([self.puzzle], "student", None, explain=None)
        PuzzleTable.__init__(self, trainer, puzzle=self.puzzle.id, four_colour=four_colour)
        self.stages = self.run.hint_stages()
        self.seen_texts = self.stages[:self.hints_seen]
        self.run.hints = list(self.seen_texts)
        self.attempt_no += 1

    def _run(self) -> Any:
        return self.run

    def _hint_count(self) -> int | None:
        return puzzle_hint_count(self.puzzle)

    @property
    def judge(self) -> Any:
        return self

    # ------------------------------------------------------------------ intents
    def handle(self, msg: Any) -> str:
        """Check and carry out one intent; the text shown.  Never raises."""
        name = msg.get("intent", msg.get("type")) if isinstance(msg, dict) else None
        if not isinstance(name, str) or (name not in TABLE_INTENTS and name not in PLAY_INTENTS
                                         and name not in self.INTENTS):
            self.notice = ""
            self.session.rev += 1
            return self._notice(f"Not in an assignment: {str(name)[:20]!r}. This item is one puzzle; play it, "
                                "ask for a hint, try again or give up.")
        try:
            if name in PLAY_INTENTS:
                self._check_open()
                if self.run.over:
                    raise ExamError("Not this time: click Try again, or Give up to see the answer.")
                self._room(self.run)
            if name in self.INTENTS:
                self.notice = ""
                self.session.rev += 1
                return getattr(self, f"_{name}")()
        except ExamError as e:
            self.notice = ""
            self.session.rev += 1
            return self._notice(str(e))
        text = PuzzleTable.handle(self, msg)
        if name in PLAY_INTENTS:
            self._log(self.run)
        return text

    def _hint(self) -> str:
        self._check_open()
        if self.run.over:
            raise ExamError("This attempt is over: click Try again first.")
        if self.hints_seen >= len(self.stages):
            raise ExamError(f"No new hint: you have seen all {len(self.stages)} hints of this item.")
        self._room(self.run)
        text = self.run.hint()
        self.hints_seen += 1
        self.seen_texts.append(text)
        self._log(self.run)
        return text

    def _retry(self) -> str:
        self._check_open()
        why = self.recorder.can_start()
        if why:
            raise ExamError(why)
        self.trainer.next(self.puzzle.id)
        self.run.hints = list(self.seen_texts)
        self.session = self._open()
        self.attempt_no += 1
        return f"Attempt {self.attempt_no}."

    def _give_up(self) -> str:
        self._check_open()
        self._room(self.run)
        if not self.run.over:
            self.trainer.give_up()
        self.run.tried.append({"kind": GIVE_UP, "text": "", "rule": ""})
        self.closed = GIVEN_UP
        self._log(self.run)
        answer, _ = answer_and_why(self.item, self.student)
        text = f"Given up. The answer was {answer}."
        self.verdicts = [Verdict("", MISSED, False, text)]
        s = self.session
        s.message, s.message_kind, s.message_rule = text, "error", None
        return text

    # ------------------------------------------------------------------ the judge, as an exam
    def play(self, action: Any) -> Verdict:
        before = self.run.state.copy()
        v = self.trainer.play(action)
        if v.status == MISSED:
            v = Verdict(v.action, MISSED, False, f"Not this: {v.action}.",
                        wrong_reason(self.puzzle, before, action))
        elif v.status == SOLVED:
            self.closed = SOLVED_ITEM
        return v

    def refused(self, action: Any, err: IllegalActionError, press: str = "") -> Verdict:
        v = self.trainer.refused(action, err, press)
        return Verdict(v.action, MISSED, False, f"Not allowed: {v.action or 'that move'}.",
                       f"The engine refuses it: [{err.rule}] {err.reason.rstrip('.')}.", rule=err.rule, legal=False)

    # ------------------------------------------------------------------ the view
    def view(self) -> dict[str, Any]:
        v = PuzzleTable.view(self)
        if "hint" in v["buttons"]:
            ex = self.exam_view(not self.run.over)
            v["buttons"]["hint"].update(ok=ex["has_hint"], label=cost_label(self.item),
                                        title="No new hint left" if not ex["has_hint"] and not self.closed
                                        and not self.run.over else cost_label(self.item))
        return v

    def panel(self) -> dict[str, Any]:
        """The puzzle panel of an exam: the item's label, the verdict and the hints; the answer once the
        item is closed.  No ID, rating, theme or streak."""
        run = self.run
        last = self.verdicts[-1] if self.verdicts else None
        ex = self.exam_view(not run.over)
        return {"id": self.item.label, "objective": f"Find the best move for your side this hand: you play "
                                                    f"{_seat(run.seat)}.",
                "themes": [], "puzzle_rating": None, "status": run.status, "verdict": last.text if last else "",
                "correct": bool(last.correct) if last else None,
                "explanation": last.explanation if last and not last.correct else "",
                "rule": last.rule if last else "", "note": "", "solution": ex["answer"], "played": list(run.played),
                "hints": list(self.seen_texts), "rating": None, "rd": None, "before": None,
                "change": None, "streak": {"on": False, "count": 0, "best": 0, "over": False}, "theme": "",
                "theme_list": [], "summary": [], "tried": 0, "notice": self.notice,
                "open": run.status == OPEN and not self.closed, "timed": {"on": False}, "exam": ex}

    def status(self) -> str:
        return f"{self.item.label}: attempt {self.attempt_no}, {self.run.status}, item {self.closed or 'open'}"


def _seat(seat: int) -> str:
    from ..puzzles.session import seat_name

    return seat_name(seat)


__all__ = ["ExamLevel", "ExamPuzzle", "cost_label"]
