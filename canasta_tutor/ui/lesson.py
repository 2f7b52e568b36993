"""The lesson widget: one level at a time, with the goal, the stars, staged hints,
the feedback, "try again" and "next" (an anywidget).

A thin shell over :class:`~canasta_tutor.tutor.lessons.player.LessonPlayer`, whose
levels run on the session layer (a :class:`~canasta_tutor.tutor.session.TableSession`
per level, with the table's events and texts).  Python holds the state; the browser draws the synced ``view`` and sends
intents: ``{"intent": "press", "button": "meld", "cards": ["KH", "KD", "KS"]}``
(cards clicked in the hand, then a button; the session layer's planner makes
the actions), ``{"intent": "act", "text": "take 9 9 9"}`` (an action typed),
``{"intent": "answer", "values": {"canastas": "500", ...}}`` (a scoring level's score, by line),
``{"intent": "rule", "id": "R-PACK-2"}`` (a rule number clicked in the lesson's words; ``null`` closes it),
``hint``, ``retry``, ``next`` and ``goto``.  Progress is saved in the progress
store, so stars survive a kernel restart.

>>> from canasta_tutor.tutor.lessons.loader import parse_lesson
>>> from canasta_tutor.tutor.lessons.runner import DEMO
>>> w = LessonWidget(parse_lesson(DEMO, "demo.toml"), store=None, hint_fn=None)
>>> w.handle({"intent": "act", "text": "take 9 9 9"})
'passed'
>>> w.view["stars"], w.view["levels"][0]["stars"]
(3, 3)

Every message is checked before anything is done, as the card table checks its own; a malformed
one is answered with a notice and changes nothing:

>>> w.handle({"intent": "goto", "index": None})
"'index' must be a whole number: the level to open, from 0 to 0."
>>> w.handle({"intent": "press", "button": "meld", "cards": None})
"'cards' must list the codes of cards in your hand, like ['KH', 'KD']."
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from ..tutor.display import asset_path
from ..engine.errors import CanastaError
from ..tutor.lessons.model import Lesson
from ..tutor.lessons.player import CourseOverview, LessonPlayer
from ..tutor.lessons.runner import HintFn, default_hint
from ..tutor.browser import open_learner_store  # the learner's store, kept in the browser in a browser tab
from ..tutor.progress import ProgressStore, ProgressStoreError

_DEFAULT = object()
#: the longest action text and the most cards one message may carry
MAX_TEXT = 200
MAX_CARDS = 30


class LessonWidget(anywidget.AnyWidget):
    """A lesson in a notebook: ``LessonWidget("freezing")``.

    ``learner`` names whose stars are saved; ``store`` is a
    :class:`~canasta_tutor.tutor.progress.ProgressStore` (default: the one in
    the user's data folder; ``None`` keeps progress in memory only); ``seed``
    picks the deal of generated levels (each "Try again" deals a new one, unless
    ``new_deals=False``); ``level`` the level to open (1-based); ``player`` a
    :class:`~canasta_tutor.tutor.lessons.player.LessonPlayer` made elsewhere, shown instead.
    When the default store cannot be written (a read-only file or folder, a full disk), the lessons
    still play, and the widget says that progress will not be saved (``store_note``).
    """

    _esm = asset_path("lesson.js")
    _css = asset_path("lesson.css")

    view = traitlets.Dict().tag(sync=True)

    def __init__(self, lesson: Lesson | str | None = None, learner: str = "learner", store: Any = _DEFAULT,
                 seed: int = 0, level: int = 1, hint_fn: HintFn | None = default_hint, new_deals: bool = True,
                 player: LessonPlayer | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store: ProgressStore | None
        self.store_note = ""
        if player is not None:  # a player configured elsewhere (an assignment item's exam)
            self.store = player.store
            self.player = player
        else:
            if lesson is None:
                raise ValueError("a lesson, or a player")
            self.store, self.store_note = open_learner_store() if store is _DEFAULT else (store, "")
            self.player = LessonPlayer(lesson, learner, self.store, seed, hint_fn, level - 1, new_deals=new_deals)
        self.notice = ""
        self._sent: dict[str, Any] = {}
        self.on_msg(self._on_msg)
        self._refresh()

    def __repr__(self) -> str:
        p = self.player
        return f"LessonWidget({p.lesson.id!r}, level={p.index + 1}, status={p.run.status!r})"

    def _refresh(self) -> None:
        v = self.player.view()
        v["notice"] = self.notice or self.store_note
        self._show(v)

    def _show(self, v: dict[str, Any]) -> None:
        """Send the view ``v`` (every view Python sends goes through here: see :meth:`_python_wins`)."""
        self._sent = v
        self.view = v

    @traitlets.observe("view")
    def _python_wins(self, change: dict[str, Any]) -> None:
        """The view written by the browser: Python's own value is set (and sent) again."""
        if change["new"] is not self._sent and change["new"] != self._sent:
            self.view = dict(self._sent)

    def _check(self, msg: Any) -> str | None:
        """Why the message ``msg`` cannot be carried out as it is written, or None when its shape is right
        (the table's :meth:`~canasta_tutor.tutor.session.TableSession.handle` checks its own the same way)."""
        if not isinstance(msg, dict) or not isinstance(msg.get("intent"), str):
            return "A message must be an object with an 'intent' string."
        intent = msg["intent"]
        if intent == "act":
            text = msg.get("text", "")
            if not isinstance(text, str) or len(text) > MAX_TEXT:
                return "'text' must be a short action like 'meld K K K'."
        elif intent == "press":
            button, cards, to = msg.get("button", ""), msg.get("cards", []), msg.get("to")
            if not isinstance(button, str) or len(button) > 20:
                return "'button' must name a button, like 'meld'."
            if not isinstance(cards, list) or len(cards) > MAX_CARDS or not all(
                    isinstance(c, str) and 0 < len(c) <= 3 for c in cards):
                return "'cards' must list the codes of cards in your hand, like ['KH', 'KD']."
            if to is not None and (not isinstance(to, str) or len(to) > 3):
                return "'to' must name a meld by its rank, like 'K'."
        elif intent == "answer":
            values = msg.get("values")
            if not isinstance(values, dict) or len(values) > 10 or not all(
                    isinstance(k, str) and len(k) <= 20 and type(v) in (str, int, float) and len(str(v)) <= 12
                    for k, v in values.items()):
                return "An answer is one number for each line of the score."
        elif intent == "rule":
            rule_id = msg.get("id")
            if rule_id is not None and (not isinstance(rule_id, str) or len(rule_id) > 20):
                return "'id' must be a rule number like 'R-FRZ-1', or null to close the rule."
        elif intent == "goto":
            if type(msg.get("index")) is not int:
                last = len(self.player.lesson.levels) - 1
                return f"'index' must be a whole number: the level to open, from 0 to {last}."
        return None

    def handle(self, msg: Any) -> str:
        """Check and apply one intent from the browser; returns the level's status (or a notice).  Never raises."""
        self.notice = self._check(msg) or ""
        if self.notice:
            self._refresh()
            return self.notice
        intent = msg["intent"]
        try:
            if intent == "act":
                text = msg.get("text", "")
                if self.player.run.status != "open":
                    self.notice = "This level is over: try again, or go on to the next."
                else:
                    self.player.act(text)
            elif intent == "press":
                to = msg.get("to")
                self.player.press(msg.get("button", ""), list(msg.get("cards", [])), to or None)
            elif intent == "answer":  # a scoring level: the numbers written in its boxes, by line
                values = msg["values"]
                self.player.answer({k: str(v) for k, v in values.items()})
            elif intent == "rule":
                self.player.show_rule(msg.get("id"))
            elif intent == "hint":
                if self.player.hint() is None:
                    self.notice = "No more hints for this level."
            elif intent == "retry":
                self.player.retry()
            elif intent == "next":
                if not self.player.next():
                    self.notice = "That was the last level of this lesson."
            elif intent == "goto":
                self.player.start(msg["index"])
            else:
                self.notice = f"Unknown intent {intent[:40]!r}."
        except ProgressStoreError as e:  # the level was played; only saving the stars failed
            self.notice = f"Your stars could not be saved: {e}"
        except (CanastaError, ValueError, IndexError) as e:
            self.notice = str(e)
        self._refresh()
        return self.notice or self.player.run.status

    def _on_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        self.handle(content)


def course_page(learner: str = "learner", store: Any = _DEFAULT) -> CourseOverview:
    """The start page's list of lessons with the learner's stars (shows as a table)."""
    return CourseOverview(learner, open_learner_store()[0] if store is _DEFAULT else store)


__all__ = ["LessonWidget", "course_page"]
