"""The level runner: one level of a lesson played against the engine.

:class:`LevelRun` sets up the level (its fixed position, or the deal its seed
generates), takes the learner's actions one at a time, answers every one,
plays the scripted replies of the other seats, and judges the level with its
success and failure predicates over the events (``canasta_tutor/tutor/events.py``).
It builds on the engine's :class:`~canasta_tutor.state.State` only; a session
or a widget wraps it.

>>> from canasta_tutor.tutor.lessons.loader import parse_lesson
>>> lesson = parse_lesson(DEMO, "demo.toml")
>>> run = LevelRun(lesson.levels[0])
>>> r = run.play("discard 4")
>>> r.accepted, r.rule
(False, 'R-TURN-2')
>>> run.play("take 9 9 9").status, run.stars()
('passed', 2)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ...actions import format_action, parse_action
from ...cards import CARD_CODE
from ...errors import CanastaError, IllegalActionError, NotationError
from ...position import format_position, parse_position
from ...state import SEATS, State, seat_index
from ..progress import Attempt
from ..events import ActionEvent, Event, HandOverEvent, RedThreeEvent, RefusedEvent, WentOutEvent
from .generate import Deal, fill, generate
from .model import Level
from .predicates import Context, evaluate

OPEN, PASSED, FAILED = "open", "passed", "failed"

HintFn = Callable[[State, str, int], str]
ReplyFn = Callable[[State, int], tuple]

DEMO = '''
id = "demo"
title = "Demo"
order = 0
summary = "A one-level demo."

[[level]]
id = "take-frozen"
title = "Take the frozen pack"
goal = "Take the pack with your natural pair of nines."
par = 1
position = """
dealer: E
turn: S draw
pile: 5H 2C* 9D 9S
N: 11
E: 7
S: 9H 9C KH KD KS 4D 7C 7S TD JK 3S
W: 11
melds EW: QH QS QD JK
melds NS: 8H 8D 8S
"""
success = "pack_taken"
solutions = [["take 9 9 9"]]
'''


class LessonRuntimeError(CanastaError, RuntimeError):
    """A lesson that cannot be played as written (a scripted reply the engine refuses, ...)."""


class LevelOverError(CanastaError, ValueError):
    """An action after the level was passed or failed."""


@dataclass
class ActionResult:
    """The answer to one learner action."""

    text: str
    notation: str = ""
    accepted: bool = False
    counted: bool = True
    rule: str = ""
    reason: str = ""
    note: str = ""
    feedback: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    status: str = OPEN
    position: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.text, "notation": self.notation, "accepted": self.accepted, "rule": self.rule,
                "reason": self.reason, "note": self.note, "feedback": self.feedback, "replies": self.replies,
                "status": self.status, "position": self.position}


def default_hint(state: State, seat: str, seed: int) -> str:
    """The hint's explanation for ``seat`` at ``state`` (empty when it cannot give one)."""
    from ...hint import hint
    from ...observer import observe

    try:
        h = hint(observe(state, seat), seed=seed)
        return str(h.explanation)
    except (CanastaError, ValueError, IndexError, KeyError):
        return ""


def default_reply(state: State, seat: int) -> tuple:
    """The rules-of-thumb bot, for a seat whose scripted replies have run out."""
    from ...bots import make_state_policy

    return make_state_policy("rules-of-thumb")(state, seat)


def setup_state(level: Level, seed: int = 0) -> tuple[State, dict[str, str], str]:
    """The level's starting state, the generator's named values, and the position text."""
    if level.generate is not None:
        deal: Deal = generate(level.generate, level.seat, seed)
        return deal.state, deal.values, deal.text
    assert level.position is not None
    return parse_position(level.position), {}, level.position


def _norm(text: str) -> str:
    return " ".join(text.split())


class LevelRun:
    """One attempt at a level."""

    def __init__(self, level: Level, seed: int = 0, hint_fn: HintFn | None = default_hint,
                 reply_fn: ReplyFn = default_reply) -> None:
        self.level = level
        self.seed = seed
        self.hint_fn = hint_fn
        self.reply_fn = reply_fn
        self.state, self.values, self.setup_text = setup_state(level, seed)
        self.start = self.state.copy()
        self.seat_no = seat_index(level.seat)
        self.events: list[Event] = []
        self.safe_discards: list[bool] = []
        self.tries = 0
        self.hints_used = 0
        self.status = OPEN
        self.message = ""
        self.played: list[str] = []  # the learner's tries, canonical notation
        self.off_path_state: State | None = None
        self._reply_at = dict.fromkeys(level.replies, 0)
        self.solutions = [[self.fill(a) for a in line] for line in level.solutions]
        self._canon_solutions = [[_canon(a) for a in line] for line in self.solutions]
        self.replies_log: list[str] = []
        #: what happened, for the progress store: {"kind": action/refused/hint/reply, "text", "rule"}
        self.log: list[dict[str, str]] = []
        self._play_others()
        self._judge()

    # ----------------------------------------------------------------- helpers
    def fill(self, text: str) -> str:
        """A lesson text with the generator's named values filled in."""
        return fill(text, self.values) if self.values else text

    def copy(self) -> "LevelRun":
        """An independent copy (for searching)."""
        other = LevelRun.__new__(LevelRun)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.events = list(self.events)
        other.safe_discards = list(self.safe_discards)
        other.played = list(self.played)
        other._reply_at = dict(self._reply_at)
        other.replies_log = list(self.replies_log)
        other.log = list(self.log)
        return other

    def context(self) -> Context:
        return Context(state=self.state, start=self.start, events=tuple(self.events), seat=self.level.seat,
                       safe_discards=tuple(self.safe_discards))

    @property
    def goal(self) -> str:
        return self.fill(self.level.goal)

    def position(self, seat: str | None = None) -> str:
        """The position now (all cards, or as ``seat`` sees it)."""
        return format_position(self.state, seat)

    def learner_to_act(self) -> bool:
        return self.status == OPEN and self.state.actor == self.seat_no

    # ----------------------------------------------------------------- playing
    def play(self, text: str) -> ActionResult:
        """Try one learner action (text in the action notation); always answers."""
        if self.status != OPEN:
            raise LevelOverError(f"the level is already {self.status}; start it again to retry")
        result = ActionResult(text=text)
        try:
            action = parse_action(text)
        except NotationError as e:
            result.counted = False
            result.reason = e.message
            result.feedback = [e.message]
            result.status = self.status
            result.position = self.position()
            return result
        return self._try(action, result)

    def play_refused(self, action: tuple, err: IllegalActionError) -> ActionResult:
        """A learner action that a planner found illegal (the engine's refusal ``err``): answered like
        :meth:`play` answers an illegal action, and counted the same way."""
        if self.status != OPEN:
            raise LevelOverError(f"the level is already {self.status}; start it again to retry")
        try:
            text = format_action(action)
        except NotationError:
            text = str(action)
        return self._try(action, ActionResult(text=text), err)

    def _try(self, action: tuple, result: ActionResult, refusal: IllegalActionError | None = None) -> ActionResult:
        try:
            result.notation = format_action(action)
        except NotationError:
            result.notation = result.text
        before = self.state.copy()
        self.tries += 1
        self.played.append(result.notation)
        if self.off_path_state is None and not self._on_path():
            self.off_path_state = before
        verb = action[0]
        if verb not in self.level.allow:
            result.reason = (f"This level is about something else: here you may {_verbs(self.level.allow)}.")
            result.note = self.fill(self.level.note_for(verb=verb))
            self._refused(action, result, "")
        else:
            err = refusal if refusal is not None else self.state.explain(action)
            if err is not None:
                result.rule, result.reason = err.rule, err.reason
                result.note = self.fill(self.level.note_for(rule=err.rule))
                self._refused(action, result, err.rule)
            else:
                result.accepted = True
                self.log.append({"kind": "action", "text": result.notation, "rule": ""})
                self._apply(action, self.seat_no)
                result.feedback.append(self._last_text())
        if self._judge() == OPEN:
            n = len(self.replies_log)
            self._play_others()
            result.replies = self.replies_log[n:]
            self._judge()
        if self.status == PASSED:
            result.feedback.append(self.fill(self.level.conclusion) or "Level passed.")
        elif self.status == FAILED:
            result.feedback.append(self.message)
        result.status = self.status
        result.position = self.position()
        return result

    def _on_path(self) -> bool:
        n = len(self.played)
        return any(line[:n] == self.played for line in self._canon_solutions)

    def _refused(self, action: tuple, result: ActionResult, rule: str) -> None:
        text = result.reason + (f" [{rule}]" if rule else "")
        self.log.append({"kind": "refused", "text": result.notation, "rule": rule})
        result.feedback.append(text)
        if result.note:
            result.feedback.append(result.note)
        self.events.append(RefusedEvent(index=len(self.events), seat=self.level.seat, text=text, action=action,
                                        notation=result.notation, rule=rule, reason=result.reason))

    def _last_text(self) -> str:
        for e in reversed(self.events):
            if isinstance(e, ActionEvent):
                return e.text
        return ""

    def _apply(self, action: tuple, seat: int) -> None:
        s = self.state
        side = seat % 2
        reds = [len(s.red3[0]), len(s.red3[1])]
        deal = s.deal_no
        s.apply(action)
        name = SEATS[seat]
        who = "You" if seat == self.seat_no else name
        notation = format_action(action)
        self.events.append(ActionEvent(index=len(self.events), seat=name, text=f"{who}: {notation}", action=action,
                                       notation=notation, deal=deal))
        if seat == self.seat_no and action[0] == "discard":
            self.safe_discards.append(self._discard_was_safe())
        for sd in (0, 1):
            for card in s.red3[sd][reds[sd]:]:
                layer = name if sd == side else None
                self.events.append(RedThreeEvent(index=len(self.events), seat=layer,
                                                 text=f"A red three ({CARD_CODE[card]}) was laid out.",
                                                 card=CARD_CODE[card]))
        if s.phase in ("hand_over", "game_over"):
            if s.went_out is not None:
                out = SEATS[s.went_out]
                self.events.append(WentOutEvent(index=len(self.events), seat=out, concealed=bool(s.concealed),
                                                text=f"{out} went out" + (" concealed." if s.concealed else ".")))
            result = s.hand_results[-1].to_dict() if s.hand_results else {}
            self.events.append(HandOverEvent(index=len(self.events), seat=None, text="The hand is over.",
                                             result=result))

    def _discard_was_safe(self) -> bool:
        s = self.state
        if s.phase != "draw" or s.actor is None:
            return True
        return not any(a[0] == "take" for a in s.legal_actions())

    def _play_others(self) -> None:
        s = self.state
        guard = 0
        while self.status == OPEN and s.phase in ("draw", "meld", "answer") and s.actor != self.seat_no:
            guard += 1
            if guard > 200:
                raise LessonRuntimeError(f"{self.level.key}: the other seats played 200 actions without the "
                                         "learner's turn coming back")
            seat = s.actor
            assert seat is not None
            name = SEATS[seat]
            script = self.level.replies.get(name, ())
            at = self._reply_at.get(name, 0)
            if at < len(script):
                self._reply_at[name] = at + 1
                text = self.fill(script[at])
                action = parse_action(text)
                err = s.explain(action)
                if err is not None:
                    raise LessonRuntimeError(f"{self.level.key}: the scripted reply {text!r} of {name} is "
                                             f"refused: {err}")
            else:
                action = self.reply_fn(s, seat)
            self._apply(action, seat)
            self.replies_log.append(f"{name}: {format_action(action)}")
            self.log.append({"kind": "reply", "text": self.replies_log[-1], "rule": ""})
            self._judge()

    def _learner_turns_ended(self) -> int:
        n = 0
        for e in self.events:
            if isinstance(e, ActionEvent) and e.seat == self.level.seat and e.action[:1] == ("discard",):
                n += 1
            elif isinstance(e, WentOutEvent) and e.seat == self.level.seat:
                n += 1
        return n

    def _judge(self) -> str:
        if self.status != OPEN:
            return self.status
        ctx = self.context()
        if evaluate(self.level.success, ctx):
            self.status = PASSED
            return self.status
        for f in self.level.failures:
            if evaluate(f.when, ctx):
                self.status = FAILED
                self.message = self.fill(f.feedback)
                return self.status
        over = self.state.phase not in ("draw", "meld", "answer")
        if over or self._learner_turns_ended() >= self.level.turns:
            self.status = FAILED
            self.message = self._explain_failure()
        return self.status

    def _explain_failure(self) -> str:
        head = f"The goal was not reached: {self.goal}"
        if self.hint_fn is None:
            return head
        where = self.off_path_state or self.start
        if where.actor != self.seat_no:
            return head
        why = self.hint_fn(where, self.level.seat, self.seed)
        return f"{head} {why}".strip() if why else head

    # ---------------------------------------------------------- hints, stars
    def next_hint(self) -> str | None:
        """The next staged hint (each one shown costs a star), or None when there are no more."""
        if self.status != OPEN:
            return None
        if self.level.hints:
            if self.hints_used >= len(self.level.hints):
                return None
            text = self.fill(self.level.hints[self.hints_used])
        else:
            stages = self._engine_hint_stages()
            if self.hints_used >= len(stages):
                return None
            text = stages[self.hints_used]
        self.hints_used += 1
        self.log.append({"kind": "hint", "text": text, "rule": ""})
        return text

    def _engine_hint_stages(self) -> list[str]:
        if self.state.actor != self.seat_no:
            return []
        from ...hint import hint
        from ...observer import observe

        try:
            return [str(t) for t in hint(observe(self.state, self.level.seat), seed=self.seed).stages() if t]
        except (CanastaError, ValueError, IndexError, KeyError):
            return []

    def stars(self) -> int:
        """0 unless passed; 3 at or under par with no hint, one less per hint and for going over par, at least 1."""
        if self.status != PASSED:
            return 0
        return max(1, 3 - self.hints_used - (1 if self.tries > self.level.par else 0))

    def attempt(self, learner: str) -> Attempt:
        """This attempt as a progress-store record."""
        return Attempt(learner=learner, lesson=self.level.lesson_id, level=self.level.id, status=self.status,
                       stars=self.stars(), seed=self.seed, tries=self.tries, par=self.level.par,
                       hints=self.hints_used, actions=list(self.log))

    def summary(self) -> dict[str, Any]:
        return {"lesson": self.level.lesson_id, "level": self.level.id, "seed": self.seed, "status": self.status,
                "stars": self.stars(), "tries": self.tries, "par": self.level.par, "hints_used": self.hints_used,
                "message": self.message}


def _canon(text: str) -> str:
    try:
        return format_action(parse_action(text))
    except NotationError:
        return _norm(text)


def _verbs(allow: tuple[str, ...]) -> str:
    words = list(allow)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def replay(level: Level, line: list[str] | tuple[str, ...], seed: int = 0,
           hint_fn: HintFn | None = None) -> tuple[LevelRun, list[ActionResult]]:
    """Play a line of learner actions; stops early if the level ends.  Returns the run and the answers."""
    run = LevelRun(level, seed, hint_fn=hint_fn)
    results = []
    for text in line:
        if run.status != OPEN:
            break
        results.append(run.play(run.fill(text)))
    return run, results


_SPACE = re.compile(r"\s+")


def feedback_contains(feedback: list[str], wanted: str) -> bool:
    """Whether ``wanted`` appears word for word (spaces normalised) in the feedback."""
    return _SPACE.sub(" ", wanted.strip()) in _SPACE.sub(" ", " ".join(feedback))


__all__ = ["LevelRun", "ActionResult", "LessonRuntimeError", "LevelOverError", "replay", "setup_state",
           "feedback_contains", "default_hint", "default_reply", "OPEN", "PASSED", "FAILED", "DEMO"]
