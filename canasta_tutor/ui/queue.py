"""The review queue at the card table (an anywidget): the cards due, in order, played where they arose.

A thin view over :mod:`canasta_tutor.tutor.review_queue`, :mod:`canasta_tutor.tutor.review_practice` and
:mod:`canasta_tutor.tutor.review_cards`.
Python builds the view model and the browser draws it (``widgets/queue.js``, every text set as text) and
sends intents: ``{"intent": "next"}`` opens the next card due, ``{"intent": "give_up"}`` shows a puzzle's
answer (a miss), ``{"intent": "reload"}`` reads the queue again.

- A **game mistake** opens at the table (the game replayed to the decision, as the learner saw it).  The
  learner's first move there is the answer: it is judged as the puzzle trainer judges, by the grade of the
  review that called it a mistake (:func:`~canasta_tutor.tutor.review_practice.answer_mistake`): best or
  good solves the card, anything else misses it and is explained in words (the move played, the hint's
  move and its reasons).  A hint seen before the move makes a solve Hard; the card is rated and its next due
  date shown.
- A **puzzle** opens at the table as the puzzle trainer plays it (its own table and judge,
  :func:`~canasta_tutor.tutor.review_cards.open_puzzle`): the learner solves it by clicks, hints count, and the
  trainer's verdict and its explanation of a miss are shown.  The trainer saves the attempt and the queue,
  synced, rates the card from it (:func:`~canasta_tutor.tutor.review_cards.puzzle_answer`).
- A **lesson level** opens at the table as the lesson widget plays it, by its own
  :class:`~canasta_tutor.tutor.lessons.player.LessonPlayer` (:class:`~canasta_tutor.tutor.review_cards.LevelTable`):
  its judge, its staged hints and its words on the table's message line.  The player saves the attempt with its
  stars, which rate the card (:func:`~canasta_tutor.tutor.review_cards.level_answer`).  A level where the
  learner scores a hand has no table: it is named with the notebook that plays it, whose attempt rates it.

The answer of a card rates it (missed is Again, solved with a hint Hard, solved at once Good) and shows its
next due date; Next card then brings the next card due.

>>> from canasta_tutor.ui.table import CanastaTable
>>> import tempfile, os
>>> store = os.path.join(tempfile.mkdtemp(), "p.sqlite3")
>>> panel = QueuePanel(CanastaTable(seed=1, bot_delay=0), store=store)
>>> panel.view["status"], panel.view["message"]
('empty', 'No card is due: well done.')
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..tutor.display import asset_path
from ..tutor.lessons.runner import HintFn, default_hint
from ..tutor.puzzles.session import PuzzleTable
from ..tutor.review_cards import LevelTable
from ..tutor.puzzles.trainer import ExplainFn, hint_explanation
from ..tutor.review_queue import ReviewCard
from ..tutor.session import TableSession
from .table import CanastaTable

#: the puzzle panel's fields the queue shows for a puzzle card (the trainer's own view model, as text)
PUZZLE_FIELDS = ("objective", "status", "hints", "verdict", "correct", "explanation", "figures", "solution", "note")


class QueuePanel(anywidget.AnyWidget):
    """The learner's due review cards, played in order at ``table``.

    ``learner`` (``"learner"``, as the course's notebooks save) and ``store`` (a progress store's path, None
    for the learner's own) say whose queue; ``now`` fixes the clock (tests); ``explain`` is how the puzzle
    trainer explains a wrong move and ``hint_fn`` how a lesson level explains a failure (None: no search)."""

    _esm = asset_path("queue.js")
    _css = asset_path("review.css")

    view = traitlets.Dict().tag(sync=True)

    def __init__(self, table: CanastaTable, learner: str = "learner", store: str | Path | None = None,
                 now: datetime | None = None, explain: ExplainFn | None = hint_explanation,
                 hint_fn: HintFn | None = default_hint, **kwargs: Any) -> None:
        self.table = table
        self.explain = explain
        self.hint_fn = hint_fn
        self._puzzle: PuzzleTable | None = None
        self._level: LevelTable | None = None
        self._card_store: Any = None
        self.learner = learner
        self.store = store
        self.now = now
        self.cards: list[ReviewCard] = []
        self.index = -1
        self._card: dict[str, Any] = {}
        self._start = 0
        self._hinted = False
        self._answer: dict[str, Any] | None = None
        self._message = ""
        self._status = "idle"
        super().__init__(**kwargs)
        self.on_msg(self._on_msg)
        table.observe(self._on_table, names="view")
        self.load()

    def __repr__(self) -> str:
        return f"QueuePanel(due={len(self.cards)})"

    def _sync(self) -> None:
        puzzle = None
        if self._puzzle is not None:
            panel = self._puzzle.panel()
            puzzle = {k: panel[k] for k in PUZZLE_FIELDS}
        self.view = {"status": self._status, "count": len(self.cards), "index": self.index, "card": self._card,
                     "answer": self._answer, "message": self._message, "puzzle": puzzle,
                     "level": None if self._level is None else self._level.panel()}

    def _open(self) -> Any:
        from ..tutor.progress import ProgressStore

        return ProgressStore(self.store)

    def load(self) -> None:
        """Read the cards due now (the queue brought up to date first)."""
        from ..tutor.progress import ProgressStoreError
        from ..tutor.review_queue import due, sync

        try:
            with self._open() as store:
                sync(store, self.learner, self.now)
                self.cards = due(store, self.learner, self.now)
        except ProgressStoreError as e:
            self._status, self._message = "error", f"The review queue cannot be read: {e}"
            self._sync()
            return
        self.index = -1
        if self.cards:
            self._status = "idle"
            self._message = f"{len(self.cards)} card{'' if len(self.cards) == 1 else 's'} due. Click Next card."
        else:
            self._status, self._message = "empty", "No card is due: well done."
        self._sync()

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        self.handle(content)

    def handle(self, msg: Any) -> str:
        """Carry out one intent from the browser; returns the panel's message.  Never raises."""
        name = msg.get("intent") if isinstance(msg, dict) else None
        if name == "next":
            return self.next()
        if name == "give_up":
            if self._status != "card" or self._puzzle is None:
                return "[refused] No puzzle is open."
            return self.table.handle({"intent": "give_up"})
        if name == "reload":
            self.load()
            return self._message
        return f"[refused] Unknown intent {str(name)[:30]!r}."

    def _close_card(self) -> None:
        """Leave the card on the table: its driver (and its store) let go, its position stays to look at."""
        driver = self._puzzle or self._level
        if driver is not None and self.table.driver is driver:
            self.table.open_session(self.table.session)
        if self._card_store is not None:
            self._card_store.close()
        self._puzzle = self._level = self._card_store = None

    def next(self) -> str:
        """Open the next card due (a puzzle or level left open is not saved, as the trainer and the lesson
        leave it)."""
        self._close_card()
        self.index += 1
        self._answer = None
        self._hinted = False
        if self.index >= len(self.cards):
            self._status, self._card = "done", {}
            self._message = "That was the last card due."
            self._sync()
            return self._message
        card = self.cards[self.index]
        titles = {"mistake": "A mistake from your game", "puzzle": f"Puzzle {card.item}",
                  "level": "Lesson {}, level {}".format(*card.item.partition("/")[::2])}
        self._card = {"kind": card.kind, "item": card.item, "reviews": card.reviews, "title": titles[card.kind]}
        if card.kind == "mistake":
            return self._open_mistake(card)
        if card.kind == "puzzle":
            return self._open_puzzle(card)
        from ..tutor.review_cards import playable_level

        if playable_level(card.item) is not None:
            return self._open_level(card)
        self._status = "elsewhere"  # a hand to score, or a level no longer in the course
        lesson, _, level = card.item.partition("/")
        self._message = (f"Lesson {lesson}, level {level}: play it again in the lesson's notebook; your "
                         "attempt there rates this card.")
        self._sync()
        return self._message

    def _open_mistake(self, card: ReviewCard) -> str:
        from ..tutor.review import replay_to
        from ..tutor.review_practice import mistake

        with self._open() as store:
            row = mistake(store, self.learner, card.item)
        state = replay_to(row["record"])
        game = self.table.session
        session = TableSession(state=state, seat=row["seat"], seed=game.seed, hint_budget=game.hint_budget,
                               hint_iterations=game.hint_iterations, four_colour=game.four_colour)
        session.message = (f"From your game ({row['game'] or 'a game'}, hand {row['hand']}): your move here lost "
                           f"about {row['loss']:.0f} points. Find the best move.")
        self._start = len(state.history)
        self._status = "card"
        self._message = session.message
        self.table.open_session(session)
        self._sync()
        return self._message

    def _open_puzzle(self, card: ReviewCard) -> str:
        from ..tutor.puzzles.trainer import TrainerError
        from ..tutor.review_cards import open_puzzle

        store = self._open()
        try:
            puzzle = open_puzzle(store, self.learner, card.item, self.explain, self.now,
                                 self.table.session.four_colour)
        except TrainerError as e:
            store.close()
            self._status, self._message = "answered", f"This card cannot be played: {e}. Click Next card."
            self._sync()
            return self._message
        self._puzzle, self._card_store = puzzle, store
        self._status = "card"
        self._message = puzzle.session.message = f"Puzzle {card.item}. {puzzle.panel()['objective']}"
        self.table.open_session(puzzle.session, driver=puzzle)
        self._sync()
        return self._message

    def _open_level(self, card: ReviewCard) -> str:
        from ..engine.errors import CanastaError
        from ..tutor.review_cards import open_level

        store = self._open()
        try:  # a generated level deals a new hand at each review
            level = open_level(store, self.learner, card.item, self.hint_fn, seed=card.reviews)
        except (CanastaError, ValueError) as e:
            store.close()
            self._status, self._message = "answered", f"This card cannot be played: {e}. Click Next card."
            self._sync()
            return self._message
        self._level, self._card_store = level, store
        self._card["title"] = f"Lesson {level.player.lesson.title}, level {level.player.run.level.title}"
        self._status = "card"
        run = level.player.run
        self._message = level.session.message = f"{run.level.title}: {run.goal}"
        self.table.open_session(level.session, driver=level)
        self._sync()
        return self._message

    def _card_over(self) -> None:
        """The puzzle or level card being played has ended: its attempt rates the card (the store's own
        rating, :mod:`~canasta_tutor.tutor.review_cards`), and the panel says so."""
        from ..tutor.progress import ProgressStoreError
        from ..tutor.review_cards import level_answer, puzzle_answer

        self._status = "answered"
        try:
            if self._puzzle is not None:
                a = puzzle_answer(self._card_store, self.learner, self._puzzle, self.now)
            else:
                assert self._level is not None
                a = level_answer(self._card_store, self.learner, self._level, self.now)
        except ProgressStoreError as e:
            self._message = f"Not rated: {e}"
            self._sync()
            return
        self._answer = a.to_dict()
        self._rated(a.solved, a.rating, a.card)

    def _rated(self, solved: bool, rating: str, card: ReviewCard | None) -> None:
        due = "" if card is None else f": due again {card.due.isoformat(timespec='minutes')}"
        self._message = f"{'Solved' if solved else 'Missed'} ({rating}){due}."
        self._sync()

    def _on_table(self, _change: dict[str, Any]) -> None:
        if self._status != "card":
            return
        if self._puzzle is not None:
            if self._puzzle.run.over:
                self._card_over()
            else:
                self._sync()  # a hint taken: the panel shows it
            return
        if self._level is not None:
            if self._level.over:
                self._card_over()
            else:
                self._sync()
            return
        s = self.table.session
        if s.hint_view() is not None:
            self._hinted = True
        if len(s.state.history) > self._start:
            self._judge(s.state.history[self._start])

    def _judge(self, action: Any) -> None:
        from ..notation.actions import format_action
        from ..engine.errors import CanastaError
        from ..tutor.review_practice import answer_mistake

        self._status = "answered"
        try:
            with self._open() as store:
                a = answer_mistake(store, self.learner, self._card["item"], format_action(action),
                                   hints=int(self._hinted), now=self.now)
        except (CanastaError, KeyError) as e:
            self._message = f"Not rated: {e}"
            self._sync()
            return
        self._answer = a.to_dict()
        due = a.card.due.isoformat(timespec="minutes")
        self._message = f"{'Solved' if a.solved else 'Missed'} ({a.rating}): due again {due}."
        self._sync()


__all__ = ["QueuePanel"]
