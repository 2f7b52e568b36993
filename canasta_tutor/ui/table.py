"""The card table: play Canasta against three bots in a notebook (an anywidget).

A thin shell over :class:`~canasta_tutor.tutor.session.TableSession`.  Python
is the single source of truth: the browser draws the synced ``view`` dict
(:mod:`canasta_tutor.tutor.view`) and sends intents (``{"intent": "draw",
"rev": 12}``, ``{"intent": "toggle", "index": 3}``, ...); the session checks
each one.  This class only syncs the view, paces the bots on the event loop
and re-sends Python's values when the browser writes a synced trait.

>>> table = CanastaTable(seed=11, bot_delay=0)
>>> table
CanastaTable(seat='S', deal=0, phase='draw', turn='S')
>>> table.handle({"intent": "draw"})
'You drew 4♥. Meld or add to your melds, then discard.'
>>> table.handle({"intent": "draw"})  # the engine's refusal, with its rule number
'[...] You have already drawn or taken the pack this turn'
>>> table.view["message_kind"], table.view["selected"]
('error', [])
>>> table.handle({"intent": "fly"})
"[refused] Unknown intent 'fly'."

A variant's table (see :mod:`canasta_tutor.engine.variants`): the learner sits at the bottom and every
other seat is a bot.

>>> two = CanastaTable(seed=5, variant="two-handed", bot_delay=0)
>>> two.view["variant"], two.view["positions"], two.view["side_titles"]
('two-handed', ['bottom', 'top'], ['You (S)', 'North (N)'])
>>> two.handle({"intent": "draw"})
'You drew 7♣ and J♦. Meld or add to your melds, then discard.'
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Protocol

import anywidget
import traitlets

from ..tutor.display import asset_path, state_html
from ..engine.game import Game
from .inline_css import inline_styles
from ..engine.observer import Observation
from ..engine.state import GAME_OVER, HAND_OVER, State
from ..tutor.session import Policy, TableSession
from ..engine.variants import Variant, get_variant


class Driver(Protocol):
    """What plays at the table instead of its session (:meth:`CanastaTable.open_session`): a puzzle's
    :class:`~canasta_tutor.tutor.puzzles.session.PuzzleTable` has this shape."""

    @property
    def session(self) -> TableSession: ...

    def handle(self, msg: Any) -> str: ...

    def view(self) -> dict[str, Any]: ...


class CanastaTable(anywidget.AnyWidget):
    """A Canasta table: the learner plays ``seat`` (South) against three bots.

    Parameters: ``seed`` (the game, replayable), ``seat`` (the learner's seat),
    ``bots`` (one policy for all three other seats, or ``{seat: policy}``; a
    policy is any callable ``policy(observation) -> action``; seats left out
    get the rules-of-thumb bot, :class:`~canasta_tutor.bots.RulesOfThumbBot`), ``bot_delay``
    (seconds between bot actions when an event loop runs, 0 to play them at
    once), ``four_colour`` (clubs green, diamonds blue), ``state`` (start from
    a given :class:`~canasta_tutor.engine.state.State`), ``hint_budget`` (seconds per
    hint), ``coach`` (grade each of the learner's moves), ``variant`` (``"two-handed"``,
    ``"three-handed"``, ``"six-handed"`` or a :class:`~canasta_tutor.engine.variants.Variant`; classic by
    default; an unknown name raises :class:`~canasta_tutor.engine.variants.UnknownVariantError`).
    """

    _esm = asset_path("table.js")
    _css = asset_path("table.css")

    #: Everything the browser draws: public information and the learner's own cards only.
    view = traitlets.Dict().tag(sync=True)
    #: Four-colour deck (clubs green, diamonds blue); changed only by the intent ``four_colour``.
    four_colour = traitlets.Bool(False).tag(sync=True)

    def __init__(self, seed: int = 0, seat: str = "S", bots: Policy | Mapping[str, Policy] | None = None,
                 bot_delay: float = 0.4, four_colour: bool = False, state: State | None = None,
                 hint_budget: float | None = None, game: Game | None = None, coach: bool = False,
                 session: TableSession | None = None, variant: str | Variant | None = None,
                 **kwargs: Any) -> None:
        chosen = None if variant is None else get_variant(variant)  # checked before anything is built
        if session is not None and chosen is not None and session.variant.name != chosen.name:
            raise ValueError(f"variant {chosen.name!r} does not match the session's {session.variant.name!r}")
        self.session = session or TableSession(seed=seed, seat=seat, bots=bots, state=state, game=game,
                                               hint_budget=hint_budget, coach=coach, four_colour=four_colour,
                                               variant=chosen)
        self._sent: dict[str, Any] = {}
        self._gen = 0
        self.driver: Driver | None = None
        self.bot_delay = float(bot_delay)
        self.session.coach_inline = False  # graded after the new table is sent (see handle)
        super().__init__(four_colour=self.session.four_colour, **kwargs)
        self.on_msg(self._on_msg)
        self._after_change()

    # ------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        return self.session.state

    @property
    def variant(self) -> Variant:
        """The variant played at this table."""
        return self.session.variant

    @property
    def me(self) -> int:
        return self.session.me

    @property
    def seed(self) -> int:
        return self.session.seed

    @property
    def observation(self) -> Observation:
        return self.session.observation

    @property
    def message(self) -> str:
        return self.session.message

    @property
    def selected(self) -> list[int]:
        return self.session.selected

    def __repr__(self) -> str:
        s = self.state
        return (f"CanastaTable(seat={self.variant.seats[self.me]!r}, deal={s.deal_no}, "
                f"phase={s.phase!r}, turn={s.current_seat!r})")

    def _repr_html_(self) -> str:
        """Static HTML of the learner's view, for exports and viewers without a kernel.

        The styles are inlined: an untrusted notebook (a fresh clone) drops ``<style>`` from stored outputs.
        """
        html = state_html(self.state, seat=self.variant.seats[self.me], four_colour=self.session.four_colour)
        return inline_styles(html, container=True)  # the narrow layout: it fits any notebook column

    def status(self) -> str:
        """One stable line about the Python-side state (the browser test re-runs a cell printing it)."""
        return self.session.status()

    def build_view(self) -> dict[str, Any]:
        return self.session.view()

    # ------------------------------------------------------------ intents
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        self.handle(content)

    def handle(self, msg: Any) -> str:
        """Check and carry out one intent from the browser; return the message shown. Never raises."""
        if self.driver is not None:  # a puzzle or a lesson level at this table: its own judge (no bots, no coach)
            text = self.driver.handle(msg)
            self.session = self.driver.session
            self._after_change(run=False)
            return text
        name = msg.get("intent", msg.get("type")) if isinstance(msg, dict) else None
        if name == "hint" and self.session.hint_busy:
            return self.session.message  # the search already runs for this click
        if name == "hint" and _running_loop() is not None:
            return self._hint_later(msg)
        before = self.session.action_rev
        text = self.session.handle(msg)
        changed = self.session.action_rev != before
        self._after_change(run=changed and name not in ("undo", "hint"))
        if self.session.coach_pending is not None:
            loop = _running_loop()
            if loop is None:
                self._grade()
            else:
                loop.call_soon(self._grade)
        return text

    def _grade(self) -> None:
        if self.session.grade_pending():
            self._sync()

    def play(self, text: str, run_bots: bool = True) -> str:
        """Play an action typed as text (``'draw'``, ``'meld 4 4 JK'``, ``'discard 3'``) as the learner;
        the bots then answer at once (``run_bots=False`` leaves that to the pacing).  With a driver (a
        puzzle at the table) the driver judges it, as a typed action from the browser."""
        if self.driver is not None:
            return self.handle({"intent": "play", "text": text})
        out = self.session.play(text)
        if run_bots:
            self.session.run_bots()
        self._after_change(run=not run_bots)
        self._grade()
        return out

    def open_session(self, session: TableSession, driver: Driver | None = None) -> None:
        """Show another session at this table (the Review panel's "try again from here", and back).

        ``driver`` (the review queue's puzzle or lesson level, :mod:`.queue`) then takes every intent and
        builds the view of ``session``, its own; None gives them back to the session."""
        session.coach_inline = False
        self.session = session
        self.driver = driver
        self._after_change(run=False)

    def run_bots(self, max_actions: int = 5000) -> int:
        """Let the bots play until it is the learner's move or the hand is over; returns the count."""
        self._gen += 1
        n = self.session.run_bots(max_actions)
        self._sync()
        return n

    def _hint_later(self, msg: Any) -> str:
        """Show the busy mark first, then search (the kernel sends the busy view before it blocks)."""
        loop = _running_loop()
        assert loop is not None
        self.session.hint_busy = True
        self.session.rev += 1
        self._sync()

        def work() -> None:
            self.session.hint_busy = False
            self.session.handle(msg)
            self._sync()

        loop.call_soon(work)
        return "Hint: thinking…"

    # ------------------------------------------------------------ bot pacing
    def _after_change(self, run: bool = True) -> None:
        self._gen += 1
        if run and self.session.bot_to_move():
            loop = _running_loop()
            if self.bot_delay > 0 and loop is not None:
                loop.call_later(self.bot_delay, self._tick, loop, self._gen)
            else:
                self.session.run_bots()
        self._sync()

    def _tick(self, loop: asyncio.AbstractEventLoop, gen: int) -> None:
        if gen != self._gen:
            return
        moved = self.session.step_bots(1)
        self._sync()
        if moved and self.session.bot_to_move():
            loop.call_later(self.bot_delay, self._tick, loop, gen)

    # ------------------------------------------------------------ syncing
    def _sync(self) -> None:
        view = self.driver.view() if self.driver is not None else self.session.view()
        self._sent = {"view": view, "four_colour": self.session.four_colour}
        self.view = view
        self.four_colour = self.session.four_colour

    @traitlets.observe("view", "four_colour")
    def _python_wins(self, change: dict[str, Any]) -> None:
        """A synced trait written by the browser: Python's own value is set (and sent) again."""
        name = change["name"]
        if name in self._sent and change["new"] is not self._sent[name] and change["new"] != self._sent[name]:
            setattr(self, name, self._sent[name] if name == "four_colour" else dict(self._sent[name]))

    @property
    def finished(self) -> bool:
        return self.state.phase in (HAND_OVER, GAME_OVER)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


__all__ = ["CanastaTable"]
