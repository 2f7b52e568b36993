"""The review queue at the card table (an anywidget): the cards due, in order, played where they arose.

A thin view over :mod:`canasta_tutor.tutor.review_queue` and :mod:`canasta_tutor.tutor.review_practice`.
Python builds the view model and the browser draws it (``widgets/queue.js``, every text set as text) and
sends intents: ``{"intent": "next"}`` opens the next card due.

- A **game mistake** opens at the table (the game replayed to the decision, as the learner saw it).  The
  learner's first move there is the answer: it is judged as the puzzle trainer judges, by the grade of the
  review that called it a mistake (:func:`~canasta_tutor.tutor.review_practice.answer_mistake`): best or
  good solves the card, anything else misses it and is explained in words (the move played, the hint's
  move and its reasons).  A hint seen before the move makes a solve Hard; the card is rated and its next due
  date shown.
- A **lesson level** or a **puzzle** is named with the notebook that plays it: its attempt there rates the
  card (:func:`~canasta_tutor.tutor.review_queue.sync`).

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
from ..tutor.review_queue import ReviewCard
from ..tutor.session import TableSession
from .table import CanastaTable


class QueuePanel(anywidget.AnyWidget):
    """The learner's due review cards, played in order at ``table``.

    ``learner`` (``"learner"``, as the course's notebooks save) and ``store`` (a progress store's path, None
    for the learner's own) say whose queue; ``now`` fixes the clock (tests)."""

    _esm = asset_path("queue.js")
    _css = asset_path("review.css")

    view = traitlets.Dict().tag(sync=True)

    def __init__(self, table: CanastaTable, learner: str = "learner", store: str | Path | None = None,
                 now: datetime | None = None, **kwargs: Any) -> None:
        self.table = table
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
        self.view = {"status": self._status, "count": len(self.cards), "index": self.index, "card": self._card,
                     "answer": self._answer, "message": self._message}

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
        if name == "reload":
            self.load()
            return self._message
        return f"[refused] Unknown intent {str(name)[:30]!r}."

    def next(self) -> str:
        """Open the next card due."""
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
        self._status = "elsewhere"
        if card.kind == "puzzle":
            self._message = (f"Puzzle {card.item}: play it in the puzzle trainer (puzzles.ipynb, "
                             f'PuzzleTrainer().trainer.next("{card.item}")); your attempt there rates this card.')
        else:
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

    def _on_table(self, _change: dict[str, Any]) -> None:
        if self._status != "card":
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
