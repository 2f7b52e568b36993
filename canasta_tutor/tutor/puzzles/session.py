"""The puzzle table: a :class:`~.trainer.Trainer` played by clicks on a
:class:`~.session.TableSession`, for the puzzle widget and for tests without a browser.

Each puzzle opens a table session on the puzzle's position, the solver in their seat.
The learner selects cards and presses buttons exactly as at the card table; the
session's planner turns that into the engine's actions (or the engine's refusal), and
every action of the solver, or refusal, is judged by the trainer at once.  The other
seats never move: a puzzle is one decision (or one turn).

Intents (every message is checked here; anything else is refused with a notice):

- the card table's own: ``toggle``, ``select``, ``clear``, the play buttons (``draw``,
  ``take``, ``meld``, ``add``, ``discard``, ``ask``, ``go_out``, ``yes``, ``no``),
  ``play`` (typed), ``rule``, ``four_colour``;
- ``hint``: the puzzle's next hint (the themes, then the kind of move); it counts;
- ``give_up``: give up the open puzzle (saved and rated as a miss; the answer is shown);
- ``next``: the next puzzle; on a puzzle still open it gives it up first and shows the
  answer (the widget's Skip button), and a second ``next`` goes on;
- ``theme`` with ``theme`` (a theme name, or ``""`` for all); ``streak`` with ``on``
  (true or false);
- ``timed`` with ``on`` (true or false) and optionally ``seconds`` (30 to 600): a timed run
  (:mod:`.timed`); while it runs, a finished puzzle is followed at once by the next, ``next``
  gives up the puzzle on the table (a miss), and there are no hints, themes or streaks;
- ``tick``: the browser's countdown reached zero; Python looks at its own clock and ends the
  run when the time is up (the browser's clock is never trusted).

:meth:`PuzzleTable.panel` is the puzzle's side of the view: plain text (the widget
escapes it), numbers and theme names only.

>>> from canasta_tutor.tutor.puzzles.library import load_library
>>> t = PuzzleTable(Trainer(load_library(), store=None, explain=None), puzzle="c11-show-then-take")
>>> t.session.select([t.session.index_of("9H"), t.session.index_of("9C")])
'Selected: 9♥ 9♣.'
>>> t.handle({"intent": "take"})
'Solved: take 9 9 9 is the answer.'
>>> t.panel()["status"], t.panel()["change"] > 0
('solved', True)
"""

from __future__ import annotations

from typing import Any

from ...engine.errors import IllegalActionError
from ...engine.state import SEAT_NAMES, SEATS
from ..events import ActionEvent, RefusedEvent
from ..session import TableSession
from .themes import THEMES
from .timed import MAX_SECONDS, MIN_SECONDS, SECONDS, TimedRun
from .trainer import OPEN, PuzzleRun, Trainer, TrainerError, Verdict

#: the card table's intents passed to the session (the play buttons are judged)
TABLE_INTENTS = frozenset(("toggle", "select", "clear", "rule", "four_colour"))
PLAY_INTENTS = frozenset(("draw", "take", "meld", "add", "discard", "ask", "go_out", "yes", "no", "play"))
PUZZLE_INTENTS = frozenset(("hint", "next", "give_up", "theme", "streak", "timed", "tick"))
#: buttons of the card table that a puzzle does not use
HIDDEN_BUTTONS = ("undo", "new_hand")
OBJECTIVE = "Find the best move for your side this hand"


class PuzzleTable:
    """A trainer played at a card table: one puzzle at a time."""

    def __init__(self, trainer: Trainer, theme: str | None = None, puzzle: str | None = None,
                 streak: bool = False, four_colour: bool = False, timed: bool | float = False) -> None:
        self.trainer = trainer
        self.four_colour = four_colour
        self.notice = ""
        self.verdicts: list[Verdict] = []
        self.timed: TimedRun | None = None
        self.timed_last: tuple[str, bool] | None = None  # a timed run's last verdict and whether it was right
        if theme:
            trainer.set_theme(theme)
        if timed:
            self.timed = TimedRun(trainer, SECONDS if timed is True else float(timed))
        elif streak:
            trainer.start_streak()
        else:
            trainer.next(puzzle)
        self.session = self._open()

    def _open(self) -> TableSession:
        run = self.run
        self.verdicts = []
        s = TableSession(state=run.puzzle.state(), seat=SEATS[run.seat], four_colour=self.four_colour)
        old = getattr(self, "session", None)
        if old is not None:  # revisions go on across puzzles: a click drawn on the last puzzle is stale here
            s.rev = s.action_rev = old.rev + 1
        return s

    @property
    def run(self) -> Any:
        """The puzzle on the table: the timed run's while one is on, else the trainer's."""
        return self.timed.run if self.timed is not None else self.trainer.run

    @property
    def judge(self) -> Trainer | TimedRun:
        return self.timed if self.timed is not None else self.trainer

    # ------------------------------------------------------------ intents
    def handle(self, msg: Any) -> str:
        """Check and carry out one intent; the text shown.  Never raises."""
        self.notice = ""
        # every answer is a new view: the table's front end waits for a new revision after a click
        self.session.rev += 1
        if not isinstance(msg, dict):
            return self._notice("A message must be an object with an 'intent' string.")
        name = msg.get("intent", msg.get("type"))
        if not isinstance(name, str) or len(name) > 20:
            return self._notice("A message must be an object with an 'intent' string.")
        try:
            if name in PUZZLE_INTENTS:
                return self._puzzle_intent(name, msg)
            if name in TABLE_INTENTS:
                if name == "four_colour" and isinstance(msg.get("on"), bool):
                    self.four_colour = bool(msg["on"])
                return self.session.handle(msg)
            if name in PLAY_INTENTS:
                if self.timed is not None and self.timed.check():
                    return self._notice(self._timed_over())
                if self.run.over:
                    return self._notice("This puzzle is over: click Next puzzle.")
                return self._play(msg)
        except TrainerError as e:
            return self._notice(str(e))
        return self._notice(f"Unknown intent {name[:20]!r}.")

    def _notice(self, text: str) -> str:
        self.notice = text
        return text

    def _puzzle_intent(self, name: str, msg: dict[str, Any]) -> str:
        t = self.trainer
        if name in ("timed", "tick") or self.timed is not None:
            return self._timed_intent(name, msg)
        if name == "hint":
            if self.run.over:
                return self._notice("This puzzle is over: click Next puzzle.")
            return t.hint()
        if name in ("give_up", "next") and not self.run.over:
            v = t.give_up()
            self.verdicts.append(v)
            s = self.session
            s.message, s.message_kind, s.message_rule = v.text, "error", None
            return v.text
        if name == "give_up":
            return self._notice("This puzzle is over: click Next puzzle.")
        if name == "theme":
            theme = msg.get("theme")
            if not isinstance(theme, str) or (theme and theme not in THEMES):
                return self._notice("'theme' must be a theme name, or empty for every theme.")
            t.set_theme(theme or None)
            return self._next()
        if name == "streak":
            on = msg.get("on")
            if not isinstance(on, bool):
                return self._notice("'on' must be true or false.")
            if on:
                t.start_streak()
                self.session = self._open()
                return "A streak: puzzles from easy to hard until your first miss."
            t.stop_streak()
            return self._next()
        return self._next()

    def _timed_intent(self, name: str, msg: dict[str, Any]) -> str:
        timed = self.timed
        if name == "timed":
            on, seconds = msg.get("on"), msg.get("seconds", SECONDS)
            if not isinstance(on, bool):
                return self._notice("'on' must be true or false.")
            if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
                    or not MIN_SECONDS <= seconds <= MAX_SECONDS):
                return self._notice(f"'seconds' must be a number from {MIN_SECONDS} to {MAX_SECONDS}.")
            if timed is not None:
                timed.stop()
            if not on:
                self.timed = None
                return self._next()
            self.trainer.stop_streak()
            self.timed = TimedRun(self.trainer, float(seconds))
            self.timed_last = None
            self.session = self._open()
            return f"A timed run: {seconds:g} seconds. Solve as many as you can; a miss costs {self.timed.penalty:g} s."
        if timed is None:  # a tick with no timed run: nothing to do
            return ""
        if name == "tick":
            return self._timed_over() if timed.check() else f"{timed.remaining():.0f} seconds left."
        if timed.check():
            return self._notice(self._timed_over())
        if name in ("next", "give_up"):
            return self._timed_verdict(timed.give_up())
        return self._notice("Not available in timed mode: stop the timed run first.")

    def _timed_over(self) -> str:
        assert self.timed is not None
        return self.timed.status()[len("timed run: "):]

    def _timed_verdict(self, v: Verdict) -> str:
        """A finished puzzle of a timed run: the next one goes on the table at once, and the
        verdict is the panel's last line (the whole verdict stays when the run is over)."""
        assert self.timed is not None
        text = v.text + ("" if v.correct else f" (-{self.timed.penalty:g} s)")
        self.timed_last = (text, v.correct)
        self.verdicts = [v]
        if not self.timed.over:
            self.session = self._open()
            self.verdicts = []
        self.session.message, self.session.message_kind = text, "ok" if v.correct else "error"
        return text

    def _next(self) -> str:
        self.trainer.next()
        self.session = self._open()
        return f"Puzzle {self.run.puzzle.id}. {OBJECTIVE}."

    def _play(self, msg: dict[str, Any]) -> str:
        s = self.session
        run: PuzzleRun = self.run
        first = len(s.events)
        text = s.handle(msg)
        for e in s.events[first:]:
            if run.over:
                break
            if isinstance(e, RefusedEvent) and e.seat == SEATS[run.seat]:
                self.verdicts.append(self.judge.refused(e.action, IllegalActionError(e.rule, e.reason,
                                                                                     e.action or None), e.press))
            elif isinstance(e, ActionEvent) and e.seat == SEATS[run.seat] and e.action[0] != "deal":
                self.verdicts.append(self.judge.play(e.action))
        if self.timed is not None and run.over and self.verdicts:
            return self._timed_verdict(self.verdicts[-1])
        if self.verdicts and len(s.events) > first:
            v = self.verdicts[-1]
            text = v.text
            if self.run.over:  # the table's message line says the verdict, not what to do next
                s.message, s.message_kind, s.message_rule = v.text, "ok" if v.correct else "error", v.rule or None
        return text

    # ------------------------------------------------------------ the view
    def view(self) -> dict[str, Any]:
        """The card table's view model, with the puzzle's buttons only (all off once it is over)."""
        v = self.session.view()
        buttons = {k: dict(b) for k, b in v["buttons"].items() if k not in HIDDEN_BUTTONS}
        if "hint" in buttons:
            buttons["hint"].update(ok=not self.run.over and self.timed is None, rule=None,
                                   title="A hint for this puzzle (it counts: a solve after a hint scores half)"
                                   if self.timed is None else "No hints in timed mode")
        if self.run.over or (self.timed is not None and self.timed.over):
            title = "The timed run is over" if self.timed is not None else "This puzzle is over: click Next puzzle"
            for b in buttons.values():
                b.update(ok=False, rule=None, title=title)
            for pos, p in v["players"].items():  # nobody moves after a puzzle: no seat is "thinking"
                if pos != "bottom":
                    v["players"][pos] = {**p, "active": False}
        v["buttons"] = buttons
        v["hint"] = None
        v["log"] = []
        return v

    def panel(self) -> dict[str, Any]:
        """The puzzle panel: plain text and numbers (escaped by the widget)."""
        t = self.trainer
        run = self.run
        p = run.puzzle
        before_after = t.last_change if run.over and self.timed is None else None
        last = self.verdicts[-1] if self.verdicts else None
        return {
            "id": p.id,
            "objective": f"{OBJECTIVE}: you play {seat_name(run.seat)}.",
            "themes": [{"id": x, "text": THEMES[x][0]} for x in p.themes if x in THEMES] if run.over else [],
            "puzzle_rating": round(t.rating_of(p).rating),
            "status": run.status,
            "verdict": last.text if last else "",
            "correct": bool(last.correct) if last else None,
            "explanation": last.explanation if last and not last.correct else "",
            "figures": last.figures if last and not last.correct else "",
            "rule": last.rule if last else "",
            "note": p.note if run.over else "",
            "solution": ", ".join(p.solution) if run.over else "",
            "played": list(run.played),
            "hints": list(run.hints),
            "rating": round(t.learner.rating),
            "rd": round(t.learner.rd),
            "before": round(before_after[0]) if before_after else None,
            "change": round(before_after[1] - before_after[0]) if before_after else None,
            "streak": {"on": t.streak_mode, "count": t.streak, "best": t.best_streak,
                       "over": t.streak_mode and run.status == "missed"},
            "theme": t.theme or "",
            "theme_list": [{"id": x, "text": text, "count": n} for x, text, n in t.themes()],
            "summary": t.summary(),
            "tried": len(t.history),
            "notice": self.notice,
            "open": run.status == OPEN and not (self.timed is not None and self.timed.over),
            "timed": self._timed_panel(),
        }

    def _timed_panel(self) -> dict[str, Any]:
        if self.timed is None:
            return {"on": False}
        last = self.timed_last
        return {"on": True, **self.timed.result(), "last": last[0] if last else "",
                "last_correct": last[1] if last else None}

    def status(self) -> str:
        line = self.trainer.status()
        return line if self.timed is None else f"{line}; {self.timed.status()}"


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


__all__ = ["PuzzleTable", "TABLE_INTENTS", "PLAY_INTENTS", "PUZZLE_INTENTS"]
