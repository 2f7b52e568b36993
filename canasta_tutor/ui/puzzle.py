"""The puzzle trainer in a notebook (an anywidget): solve puzzles by clicks at the card table.

A thin shell over :class:`~canasta_tutor.tutor.puzzles.session.PuzzleTable` (a
:class:`~canasta_tutor.tutor.puzzles.trainer.Trainer` at a
:class:`~canasta_tutor.tutor.session.TableSession`).  Python holds the state and checks every
message; the browser draws two synced dicts, ``view`` (the card table's view model, drawn by
``widgets/table.js`` itself: the front end is table.js followed by ``widgets/puzzle.js``) and
``puzzle`` (the puzzle panel: the verdict, the explanation, the rating change, the streak and
the theme filter), and sends intents.

>>> w = PuzzleTrainer(puzzle="c11-show-then-take", store=None, explain=None)
>>> w.handle({"intent": "select", "indices": [w.table.session.index_of("9H"), w.table.session.index_of("9C")]})
'Selected: 9♥ 9♣.'
>>> w.handle({"intent": "take", "rev": w.view["rev"]})
'Solved: take 9 9 9 is the answer.'
>>> w.puzzle["status"], w.puzzle["change"] > 0
('solved', True)
>>> w.handle({"intent": "fly"})
"Unknown intent 'fly'."
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import anywidget
import traitlets

from ..tutor.display import asset_path, state_html
from .inline_css import inline_styles
from ..engine.state import SEATS
from ..tutor.browser import open_learner_store  # the learner's store, kept in the browser in a browser tab
from ..tutor.progress import ProgressStore, ProgressStoreError
from ..tutor.puzzles.session import PuzzleTable
from ..tutor.puzzles.library import Puzzle
from ..tutor.puzzles.trainer import ExplainFn, ThemeOverview, Trainer, hint_explanation

_DEFAULT: Any = object()
_TABLE_EXPORT = "\nexport default { render };"


@lru_cache(maxsize=1)
def front_end() -> tuple[str, str]:
    """The widget's ES module and CSS: table.js without its default export, then puzzle.js
    (which exports a render that draws the panel and calls table.js's render); table.css
    then puzzle.css."""
    table = asset_path("table.js").read_text(encoding="utf-8")
    if table.count(_TABLE_EXPORT) != 1:
        raise RuntimeError("widgets/table.js must end with one 'export default { render };' for the puzzle widget")
    esm = table.replace(_TABLE_EXPORT, "\n") + "\n" + asset_path("puzzle.js").read_text(encoding="utf-8")
    css = asset_path("table.css").read_text(encoding="utf-8") + "\n" + asset_path("puzzle.css").read_text(
        encoding="utf-8")
    return esm, css


class PuzzleTrainer(anywidget.AnyWidget):
    """Puzzles near your rating, by clicks: ``PuzzleTrainer()``, ``PuzzleTrainer(theme="frozen-pack")``,
    ``PuzzleTrainer(streak=True)``, ``PuzzleTrainer(timed=True)`` (three minutes; or a number of
    seconds, 30 to 600: see :mod:`canasta_tutor.tutor.puzzles.timed`).

    ``learner`` names whose attempts and rating are saved; ``store`` is a
    :class:`~canasta_tutor.tutor.progress.ProgressStore` (default: the one in the user's data
    folder; ``None`` keeps everything in memory); ``puzzles`` the library (default: the
    package's); ``seed`` the choice of puzzles; ``puzzle`` opens one puzzle by its ID; ``clock``
    the time in seconds (tests give a fake one); ``table`` a
    :class:`~canasta_tutor.tutor.puzzles.session.PuzzleTable` made elsewhere, shown instead.
    """

    _esm = front_end()[0]
    _css = front_end()[1]

    view = traitlets.Dict().tag(sync=True)
    puzzle = traitlets.Dict().tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)

    def __init__(self, theme: str | None = None, learner: str = "learner", store: Any = _DEFAULT,
                 puzzles: list[Puzzle] | None = None, seed: int = 0, puzzle: str | None = None,
                 streak: bool = False, explain: ExplainFn | None = hint_explanation, timed: bool | float = False,
                 clock: Callable[[], float] = time.time, table: PuzzleTable | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store: ProgressStore | None
        self.store_note = ""
        if table is not None:  # a table configured elsewhere (an assignment item's exam)
            self.store = table.trainer.store
            self.table = table
        else:
            # a store that cannot be written: the puzzles still play, and the panel says nothing is saved
            self.store, self.store_note = open_learner_store() if store is _DEFAULT else (store, "")
            trainer = Trainer(puzzles, learner, self.store, explain, seed, clock)
            self.table = PuzzleTable(trainer, theme=theme, puzzle=puzzle, streak=streak, timed=timed)
        self._sent: dict[str, Any] = {}
        self.on_msg(self._on_msg)
        self._sync()

    @property
    def trainer(self) -> Trainer:
        return self.table.trainer

    def __repr__(self) -> str:
        t = self.trainer
        run = self.table.run
        timed = ", timed=True" if self.table.timed is not None else ""
        return (f"PuzzleTrainer(puzzle={run.puzzle.id if run else None!r}, theme={t.theme!r}, "
                f"rating={t.learner.rating:.0f}{timed})")

    def _repr_html_(self) -> str:
        """Static HTML of the puzzle as the solver sees it, for a notebook not yet run (styles inlined:
        an untrusted notebook drops ``<style>``); the live widget replaces it."""
        run = self.table.run
        assert run is not None
        head = (f"<p><b>Puzzle {html.escape(run.puzzle.id)}</b>: find the best move for your side this hand. "
                "Run the cell to play it.</p>")
        return head + inline_styles(state_html(run.puzzle.state(), seat=SEATS[run.seat]), container=True)

    def status(self) -> str:
        """One stable line: the rating, the streak and the puzzle (the browser test prints it)."""
        return self.table.status()

    def summary(self) -> list[dict[str, Any]]:
        """The learner's results by theme."""
        return self.trainer.summary()

    def handle(self, msg: Any) -> str:
        """Check and carry out one intent from the browser; the text shown.  Never raises."""
        try:
            text = self.table.handle(msg)
        except ProgressStoreError as e:  # the puzzle was judged; only saving the attempt failed
            text = self.table._notice(f"Your attempt could not be saved: {e}")
        self._sync()
        return text

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        self.handle(content)

    def _sync(self) -> None:
        view, panel = self.table.view(), self.table.panel()
        if self.store_note and not panel.get("notice"):
            panel["notice"] = self.store_note
        self._sent = {"view": view, "puzzle": panel, "four_colour": self.table.four_colour}
        self.view = view
        self.puzzle = panel
        self.four_colour = self.table.four_colour

    @traitlets.observe("view", "puzzle", "four_colour")
    def _python_wins(self, change: dict[str, Any]) -> None:
        """A synced trait written by the browser: Python's own value is set (and sent) again."""
        name = change["name"]
        if name in self._sent and change["new"] != self._sent[name]:
            value = self._sent[name]
            setattr(self, name, dict(value) if isinstance(value, dict) else value)


def themes_page(learner: str = "learner", store: Any = _DEFAULT) -> ThemeOverview:
    """The start page's themed set: the themes with their puzzles and the learner's results (a table)."""
    return ThemeOverview(None, learner, open_learner_store()[0] if store is _DEFAULT else store)


__all__ = ["PuzzleTrainer", "front_end", "themes_page"]
