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
"""

from __future__ import annotations

import sqlite3
from typing import Any

import anywidget
import traitlets

from .display import asset_path
from .errors import CanastaError
from .tutor.lessons.model import Lesson
from .tutor.lessons.player import CourseOverview, LessonPlayer
from .tutor.lessons.runner import HintFn, default_hint
from .tutor.progress import ProgressStore

_DEFAULT = object()


class LessonWidget(anywidget.AnyWidget):
    """A lesson in a notebook: ``LessonWidget("freezing")``.

    ``learner`` names whose stars are saved; ``store`` is a
    :class:`~canasta_tutor.tutor.progress.ProgressStore` (default: the one in
    the user's data folder; ``None`` keeps progress in memory only); ``seed``
    picks the deal of generated levels (each "Try again" deals a new one, unless
    ``new_deals=False``); ``level`` the level to open (1-based); ``player`` a
    :class:`~canasta_tutor.tutor.lessons.player.LessonPlayer` made elsewhere, shown instead.
    """

    _esm = asset_path("lesson.js")
    _css = asset_path("lesson.css")

    view = traitlets.Dict().tag(sync=True)

    def __init__(self, lesson: Lesson | str | None = None, learner: str = "learner", store: Any = _DEFAULT,
                 seed: int = 0, level: int = 1, hint_fn: HintFn | None = default_hint, new_deals: bool = True,
                 player: LessonPlayer | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if player is not None:  # a player configured elsewhere (an assignment item's exam)
            self.store = player.store
            self.player = player
        else:
            if lesson is None:
                raise ValueError("a lesson, or a player")
            self.store = ProgressStore() if store is _DEFAULT else store
            self.player = LessonPlayer(lesson, learner, self.store, seed, hint_fn, level - 1, new_deals=new_deals)
        self.notice = ""
        self.on_msg(self._on_msg)
        self._refresh()

    def __repr__(self) -> str:
        p = self.player
        return f"LessonWidget({p.lesson.id!r}, level={p.index + 1}, status={p.run.status!r})"

    def _refresh(self) -> None:
        v = self.player.view()
        v["notice"] = self.notice
        self.view = v

    def handle(self, msg: dict[str, Any]) -> str:
        """Apply one intent from the browser; returns the level's status (or a notice)."""
        intent = msg.get("intent") if isinstance(msg, dict) else None
        self.notice = ""
        try:
            if intent == "act":
                text = str(msg.get("text", ""))[:200]
                if self.player.run.status != "open":
                    self.notice = "This level is over: try again, or go on to the next."
                else:
                    self.player.act(text)
            elif intent == "press":
                cards = [str(c)[:3] for c in msg.get("cards", [])][:30]
                to = msg.get("to")
                self.player.press(str(msg.get("button", ""))[:20], cards, str(to)[:3] if to else None)
            elif intent == "answer":  # a scoring level: the numbers written in its boxes, by line
                values = msg.get("values")
                if not isinstance(values, dict) or len(values) > 10:
                    self.notice = "An answer is one number for each line of the score."
                else:
                    self.player.answer({str(k)[:20]: str(v)[:12] for k, v in values.items()})
            elif intent == "rule":
                rule_id = msg.get("id")
                self.player.show_rule(None if rule_id is None else str(rule_id)[:20])
            elif intent == "hint":
                if self.player.hint() is None:
                    self.notice = "No more hints for this level."
            elif intent == "retry":
                self.player.retry()
            elif intent == "next":
                if not self.player.next():
                    self.notice = "That was the last level of this lesson."
            elif intent == "goto":
                self.player.start(int(msg.get("index", 0)))
            else:
                self.notice = f"Unknown intent {str(intent)[:40]!r}."
        except (CanastaError, ValueError, IndexError) as e:
            self.notice = str(e)
        except sqlite3.Error as e:  # the level was played; only saving the stars failed
            self.notice = f"Your stars could not be saved: {e}"
        self._refresh()
        return self.notice or self.player.run.status

    def _on_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        self.handle(content)


def course_page(learner: str = "learner", store: Any = _DEFAULT) -> CourseOverview:
    """The start page's list of lessons with the learner's stars (shows as a table)."""
    return CourseOverview(learner, ProgressStore() if store is _DEFAULT else store)


__all__ = ["LessonWidget", "course_page"]
