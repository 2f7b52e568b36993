"""The Review panel at the card table (an anywidget): the hand's decisions graded, the costliest explained.

A thin view over :func:`canasta_tutor.tutor.review.review_record`.  Python builds the view model
(:func:`review_view`) and the browser draws it (``widgets/review.js``, every text set as text, never as
HTML, so nothing a record holds can run as markup) and sends intents:

- ``{"intent": "review"}``: review the learner's decisions in the table's current hand (the last hand once it
  is over).  The review runs in a background thread of the kernel: the panel shows its progress and the
  table stays usable.  When a hand ends the panel starts one by itself (``auto``);
- ``{"intent": "retry", "ply": N}``: "try again from here": the table opens the position before decision
  ``N``, as the learner saw it, with the coach on, so the move played there is graded against the best;
  ``{"intent": "back"}`` returns to the game;
- ``{"intent": "save"}``: keep the review's mistakes and blunders in the progress store and bring the review
  queue up to date (:mod:`canasta_tutor.tutor.review_queue`): the panel then says how many cards the
  learner has in the queue.  A panel with a store does this by itself when a review is done (``autosave``).

>>> from canasta_tutor.notation.record import load_record, replay
>>> from canasta_tutor.ui.table import CanastaTable
>>> table = CanastaTable(state=replay(load_record("tests/review/hand-7.txt")), bot_delay=0)
>>> panel = ReviewPanel(table, samples=24, auto=False, store=False)
>>> panel.handle({"intent": "review"}) and panel.wait(120)
True
>>> panel.view["status"], panel.view["decisions"][0]["action"], panel.view["accuracy"]
('done', 'discard 5', '75%')
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..tutor.display import asset_path
from ..engine.state import GAME_OVER, HAND_OVER
from ..tutor.review import ACCURACY_WORDS, Review, replay_to
from ..tutor.session import TableSession
from .table import CanastaTable

GRADE_WORDS = {"best": "the hint's own move", "good": "within 30 points of the best",
               "inaccuracy": "30 to 80 points lost", "mistake": "80 to 200 points lost",
               "blunder": "200 points or more lost"}


def review_view(status: str, done: int = 0, total: int = 0, review: Review | None = None, message: str = "",
                retrying: int | None = None, queued: int | None = None) -> dict[str, Any]:
    """The panel's view model: plain data, every text as text (the browser never reads it as HTML)."""
    view: dict[str, Any] = {"status": status, "done": done, "total": total, "message": message,
                            "retrying": retrying, "queued": queued, "decisions": [], "costliest": [],
                            "accuracy": "", "accuracy_means": ACCURACY_WORDS, "mean_loss": "", "grades": GRADE_WORDS}
    if review is not None:
        view["decisions"] = [{"ply": d.ply, "hand": d.hand, "action": d.text, "grade": d.grade,
                              "loss": round(d.loss), "best": d.best_text, "verdict": d.verdict,
                              "explanation": d.explanation, "mistake": d.mistake} for d in review.decisions]
        view["costliest"] = [d.ply for d in review.costliest]
        acc = review.accuracy
        view["accuracy"] = "" if acc is None else f"{100 * acc:.0f}%"
        view["mean_loss"] = f"{review.mean_loss:.0f}"
        view["forced"] = review.forced
    return view


class ReviewPanel(anywidget.AnyWidget):
    """The Review panel of ``table`` (a :class:`~canasta_tutor.ui.table.CanastaTable`).

    ``seed`` and ``samples`` size the review's searches (default: the table's seed and the hint's own race);
    ``auto`` starts a review when a hand ends; ``learner`` (``"learner"``, as the lesson and puzzle widgets save
    for) and ``store`` say where the mistakes are kept (``store``: a progress store's path, None for the
    learner's own, False for none); ``autosave`` keeps them as soon as a review is done (else on "save")."""

    _esm = asset_path("review.js")
    _css = asset_path("review.css")

    view = traitlets.Dict().tag(sync=True)

    def __init__(self, table: CanastaTable, seed: int | None = None, samples: int | None = None,
                 auto: bool = True, learner: str = "learner", store: str | Path | bool | None = None,
                 autosave: bool = True, **kwargs: Any) -> None:
        self.table = table
        self.seed = table.seed if seed is None else seed
        self.samples = samples
        self.auto = auto
        self.learner = learner
        self.store = store
        self.autosave = autosave
        self.review: Review | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._game: TableSession | None = None  # the game's session while a retry is open
        self._reviewed: set[tuple[int, int]] = set()
        self._status = ("idle", 0, 0, "Review grades each of your decisions in this hand; it starts by itself "
                        "when the hand ends.")
        self._retrying: int | None = None
        self._queued: int | None = None
        super().__init__(**kwargs)
        self.on_msg(self._on_msg)
        table.observe(self._on_table, names="view")
        self._sync()
        self._on_table({})  # a table whose hand is already over is reviewed at once

    def __repr__(self) -> str:
        return f"ReviewPanel(status={self._status[0]!r})"

    # ------------------------------------------------------------ view
    def _sync(self) -> None:
        with self._lock:
            status, done, total, message = self._status
            self.view = review_view(status, done, total, self.review if status == "done" else None, message,
                                    self._retrying, self._queued)

    def _set(self, status: str, done: int = 0, total: int = 0, message: str = "") -> None:
        with self._lock:
            self._status = (status, done, total, message)
        self._sync()

    # ------------------------------------------------------------ intents
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        self.handle(content)

    def handle(self, msg: Any) -> str:
        """Carry out one intent from the browser; returns the panel's message.  Never raises."""
        name = msg.get("intent") if isinstance(msg, dict) else None
        if name == "review":
            return self.start()
        if name == "retry":
            ply = msg.get("ply")
            return self.retry(ply) if isinstance(ply, int) and not isinstance(ply, bool) else "[refused] No decision."
        if name == "back":
            return self.back()
        if name == "save":
            return self.save()
        return f"[refused] Unknown intent {str(name)[:30]!r}."

    def _hand(self) -> int:
        s = self.game_session().state
        return len(s.hand_results) if s.phase in (HAND_OVER, GAME_OVER) else len(s.hand_results) + 1

    def game_session(self) -> TableSession:
        """The game's session (not a retry's)."""
        return self._game if self._game is not None else self.table.session

    def start(self) -> str:
        """Start reviewing the current hand in a background thread (a review already running goes on)."""
        if self._thread is not None and self._thread.is_alive():
            return "Review: already running."
        from ..notation.record import format_record, parse_record

        session = self.game_session()
        try:
            record = parse_record(format_record(session.state))
        except Exception as e:  # a table set up from a position has no record to review  # noqa: BLE001
            self._set("error", message=f"This table cannot be reviewed: {e}")
            return self._status[3]
        seat = session.variant.seats[session.me]
        hand = self._hand()
        self._reviewed.add((hand, len(session.state.history)))
        self.review = None
        self._queued = None
        self._set("running", 0, 0, f"Reviewing hand {hand}…")
        self._thread = threading.Thread(target=self._run, args=(record, seat, hand), daemon=True,
                                        name="canasta-review")
        self._thread.start()
        return self._status[3]

    def _run(self, record: Any, seat: str, hand: int) -> None:
        from ..tutor.review import ReviewError, review_record

        def progress(done: int, total: int) -> None:
            self._set("running", done, total, f"Reviewing hand {hand}: {done} of {total}…")

        try:
            review = review_record(record, seat, seed=self.seed, samples=self.samples, progress=progress, hand=hand)
        except ReviewError as e:
            self._set("error", message=str(e))
            return
        except Exception as e:  # shown in the panel: a background thread has no one else to tell  # noqa: BLE001
            self._set("error", message=f"The review failed: {type(e).__name__}: {e}")
            return
        self.review = review
        n = len(review.decisions)
        said = f"Hand {hand}: {n} decisions graded ({review.forced} forced moves not graded)."
        self._set("done", n, n, said)
        if self.autosave and self.store is not False:
            self.save(said)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a running review; True when none is running any more."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    def retry(self, ply: int) -> str:
        """Open the position before the decision at ``ply`` at the table, with the coach on."""
        d = next((x for x in (self.review.decisions if self.review else []) if x.ply == ply), None)
        if d is None:
            return "[refused] No such decision in this review."
        game = self.game_session()
        retry = TableSession(state=replay_to(d.record), seat=game.variant.seats[game.me], seed=game.seed,
                             coach=True, hint_budget=game.hint_budget, hint_iterations=game.hint_iterations,
                             four_colour=game.four_colour)
        retry.message = (f"Try again from here: you played {d.text} ({d.grade}). Find the best move; the coach "
                         "grades it. Back to the game returns to your hand.")
        retry.message_kind = "info"
        self._game = game
        self._retrying = ply
        self.table.open_session(retry)
        self._sync()
        return retry.message

    def back(self) -> str:
        """Leave a retry: the table shows the game again."""
        if self._game is None:
            return "[refused] No retry is open."
        game, self._game, self._retrying = self._game, None, None
        self.table.open_session(game)
        self._sync()
        return "Back to the game."

    def save(self, lead: str = "") -> str:
        """Keep the review's mistakes in the progress store and bring the review queue up to date (``lead``
        goes before what the panel then says)."""
        if self.review is None:
            return "[refused] Review a hand first."
        if self.store is False:
            return "[refused] This panel keeps no progress store."
        from ..tutor.progress import ProgressStore, ProgressStoreError
        from ..tutor.review_queue import queue, sync
        from ..tutor.review_store import save_mistakes

        learner = self.learner
        try:
            with ProgressStore(None if self.store is None or self.store is True else self.store) as store:
                new = save_mistakes(store, learner, self.review, game="table")
                sync(store, learner)
                self._queued = len(queue(store, learner))
        except (ProgressStoreError, ValueError) as e:
            n = len(self.review.decisions)
            self._set("done", n, n, f"{lead} Not saved: {e}".strip())
            return self._status[3]
        n = len(self.review.decisions)
        said = f"Saved {new} new mistake{'' if new == 1 else 's'}: {self._queued} cards in your review queue."
        self._set("done", n, n, f"{lead} {said}".strip())
        return self._status[3]

    # ------------------------------------------------------------ the table
    def _on_table(self, _change: dict[str, Any]) -> None:
        if not self.auto or self._game is not None:
            return
        s = self.table.session
        if s.state.phase in (HAND_OVER, GAME_OVER) and (self._hand(), len(s.state.history)) not in self._reviewed:
            self.start()


def due_line(learner: str = "learner", store: str | Path | None = None) -> str:
    """"N cards due today" for the learner, in one sentence; a store that cannot be opened is said in words,
    never raised (the start page can show this line)."""
    from ..tutor.progress import ProgressStore, ProgressStoreError
    from ..tutor.review_queue import counts

    try:
        with ProgressStore(store) as s:
            n = counts(s, learner)
    except ProgressStoreError as e:
        return f"The review queue cannot be read: {e}"
    overdue = f" ({n['overdue']} overdue)" if n["overdue"] else ""
    return f"{n['today']} card{'' if n['today'] == 1 else 's'} due today{overdue}; {n['queued']} in your review queue."


__all__ = ["ReviewPanel", "due_line", "review_view"]
