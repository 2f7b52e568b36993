"""The level runner: one level of a lesson played against the engine.

:class:`LevelRun` sets up the level (its fixed position, or the deal its seed
generates), takes the learner's actions one at a time, answers every one,
plays the scripted replies of the other seats, and judges the level with its
success and failure predicates over the events (``canasta_tutor/tutor/events.py``).

It runs on the session layer: the table is a
:class:`~canasta_tutor.tutor.session.TableSession` (the learner's seat, the
other seats as its bots: the level's scripted replies, then the rules-of-thumb
bot), so actions are applied and recorded by
:func:`~canasta_tutor.tutor.eventlog.apply_and_record` and refusals by the
session, with the same events and texts as the table widget.

Every answer comes at once.  An illegal action gets the engine's reason and
rule (and the lesson's note); a legal action that leaves the level's solution
lines, after which a short search finds no way to pass, is a wrong move: it
gets the failure check's feedback when one matches, otherwise an explanation
of why it is worse, from the hint (:mod:`canasta_tutor.hint`).

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

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ...notation.actions import format_action, parse_action
from ...engine.errors import CanastaError, IllegalActionError, NotationError
from ...engine.observer import Observation, observe
from ...notation.position import format_position, parse_position
from ...engine.state import State, seat_index
from ..eventlog import log_entries
from ..events import ActionEvent, Event, RefusedEvent, WentOutEvent
from ..progress import ACTION_KINDS, Attempt
from ..session import TableSession
from .generate import Deal, fill, generate
from .model import Level, verb_allowed
from .predicates import Context, discard_is_safe, evaluate
from .results import FAILED, OPEN, PASSED, ActionResult, LevelOverError
from .scoring import ScoreQuestion


HintFn = Callable[[State, str, int], str]
ReplyFn = Callable[[State, int], tuple]
#: (the state before the move, the learner's seat, the move, the level's move there or None, seed) -> why worse
WhyFn = Callable[[State, str, tuple, "tuple | None", int], str]

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


def default_hint(state: State, seat: str, seed: int) -> str:
    """The hint's explanation for ``seat`` at ``state`` (empty when it cannot give one)."""
    from ...hint import hint

    try:
        h = hint(observe(state, seat), seed=seed)
        return str(h.explanation)
    except (CanastaError, ValueError, IndexError, KeyError):
        return ""


def default_reply(state: State, seat: int) -> tuple:
    """The rules-of-thumb bot, for a seat whose scripted replies have run out."""
    from ...bots import make_state_policy

    return make_state_policy("rules-of-thumb")(state, seat)


def why_worse(state: State, seat: str, action: tuple, expected: tuple | None = None, seed: int = 0,
              search: bool = True) -> str:
    """Why the legal ``action`` of ``seat`` at ``state`` is worse, in the hint's words.

    With ``search`` the hint grades the move (:func:`canasta_tutor.hint.grade`) against its best;
    otherwise (no search, instant) the move is compared with ``expected``, the level's move here.
    Either way the reasons are the hint's facts (:func:`canasta_tutor.hint.detectors.move_facts`):
    the costs of the move played, else what the better move gives that it lacks.  Empty when
    nothing can be said.
    """
    from ...bots.sampling import state_from_observation
    from ...hint.detectors import BAD, GOOD, move_facts

    obs: Observation = observe(state, seat)
    if obs.actor != obs.seat or action not in obs.legal_actions:
        return ""
    played = format_action(action)
    better = expected if expected in obs.legal_actions and expected != action else None
    head = ""
    try:
        if search:
            from ...hint import grade

            g = grade(obs, action, seed=seed)
            if g.best != action:
                better = g.best
                head = (f"In a game the hint rates {played} about as good as {format_action(g.best)}, but it "
                        "does not reach this level's goal." if g.grade == "best" else
                        f"The hint rates {played} {_grade_words(g.grade)} and prefers {format_action(g.best)}.")
        known = state_from_observation(obs)
        mine = move_facts(obs, action, known)
        theirs = move_facts(obs, better, known) if better is not None else []
    except (CanastaError, ValueError, IndexError, KeyError):
        return ""
    if not head and better is not None:
        head = f"This level plays {format_action(better)} here, not {played}."
    elif not head and expected is not None and expected not in obs.legal_actions:
        head = (f"This level asks you to try {format_action(expected)} here, rather than {played}, and read why "
                "the rules refuse it.")
    costs = [f.text for f in mine if f.kind == BAD][:2]
    have = {f.id for f in mine}
    lacks = [f.text for f in theirs if f.kind == GOOD and f.id not in have][:1]
    reasons = costs or ([f"{format_action(better)} does better: {lacks[0]}"] if better is not None and lacks else [])
    return " ".join([head, *reasons]).strip()


def _grade_words(grade: str) -> str:
    return "good but not the best" if grade == "good" else f"an {grade}" if grade[:1] in "aeiou" else f"a {grade}"


def setup_state(level: Level, seed: int = 0) -> tuple[State, dict[str, str], str]:
    """The level's starting state, the generator's named values, and the position text."""
    if level.generate is not None:
        deal: Deal = generate(level.generate, level.seat, seed)
        return deal.state, deal.values, deal.text
    assert level.position is not None
    return parse_position(level.position), {}, level.position


def _norm(text: str) -> str:
    return " ".join(text.split())


class _Reply:
    """The bot of one other seat in a level: its scripted replies in order, then ``reply_fn``."""

    def __init__(self, run: "LevelRun", seat: int) -> None:
        self.run = run
        self.seat = seat

    def __call__(self, obs: Observation) -> tuple:
        run = self.run
        name = run.state.variant.seats[self.seat]
        script = run.level.replies.get(name, ())
        at = run._reply_at.get(name, 0)
        if at >= len(script):
            return tuple(run.reply_fn(run.state, self.seat))
        run._reply_at[name] = at + 1
        text = run.fill(script[at])
        action = parse_action(text)
        err = run.state.explain(action)
        if err is not None:
            run.reply_error = LessonRuntimeError(f"{run.level.key}: the scripted reply {text!r} of {name} is "
                                                 f"refused: {err}")
            raise run.reply_error
        return action


#: the learner actions a search for a way to pass tries after a move that leaves the lines, at most
WRONG_SEARCH_NODES = 300
#: the progress store's kind for a legal but wrong action (its ``reason``: why it was worse)
WRONG_KIND = "wrong"
assert WRONG_KIND in ACTION_KINDS


@dataclass
class _LearnerFacts:
    """What :meth:`LevelRun._learner_facts` has read of an event list so far."""

    events: list[Event]
    seen: int = 0
    turns: int = 0
    actions: list[ActionEvent] = field(default_factory=list)


class LevelRun:
    """One attempt at a level, on a :class:`~canasta_tutor.tutor.session.TableSession`.

    ``hint_fn`` explains a failure when the turns run out (None: no search); ``why_fn`` explains
    a wrong move at once (default: :func:`why_worse`, with the hint's search unless ``hint_fn``
    is None); ``reply_fn`` plays a seat whose scripted replies have run out.
    """

    def __init__(self, level: Level, seed: int = 0, hint_fn: HintFn | None = default_hint,
                 reply_fn: ReplyFn = default_reply, why_fn: WhyFn | None = None) -> None:
        self.level = level
        self.seed = seed
        self.hint_fn = hint_fn
        self.reply_fn = reply_fn
        self.why_fn: WhyFn = why_fn or (_searching_why if hint_fn is not None else _quick_why)
        #: whether a legal move off the lines is searched and explained at once (off inside searches)
        self.judge_wrong = True
        state, self.values, self.setup_text = setup_state(level, seed)
        self.seat_no = seat_index(level.seat, state.variant.seats)
        self.start_seats = state.variant.seats  # the seats' letters, before the session exists
        self._reply_at = dict.fromkeys(level.replies, 0)
        self.reply_error: LessonRuntimeError | None = None
        self.session = TableSession(seed=seed, seat=level.seat, state=state, bots=self._bots())
        # the red threes of a set position were laid out before the level: they are not its events
        self.session.events.clear()
        self.start = self.session.state.copy()
        self.safe_discards: list[bool] = []
        self.tries = 0
        self.hints_used = 0
        self.status = OPEN
        self.message = ""
        #: the learner's accepted actions (and refused ones on a try_illegal level), canonical notation
        self.played: list[str] = []
        self.off_path_state: State | None = None
        self.wrong_note = ""  # why the first wrong move was worse (reused when the level fails)
        self.solutions = [[self.fill(a) for a in line] for line in level.solutions]
        self._canon_solutions = [[_canon(a) for a in line] for line in self.solutions]
        self.replies_log: list[str] = []
        #: what happened, for the progress store: {"kind": action/refused/wrong/hint/reply, "text", "rule", "reason"}
        self.log: list[dict[str, str]] = []
        #: a scoring level's question (the lines of the finished hand's score), else None
        self.question = ScoreQuestion.of(state, level.seat, level.score) if level.score is not None else None
        self._failure_shown = False
        self._play_others()
        self._judge()
        #: what happened before the learner's first move, in the table's words (the other seats' replies,
        #: a red three laid out for the learner as their turn began)
        self.opening = [x["text"] for x in log_entries(self.events, self.seat_no)]

    def _bots(self) -> dict[str, Any]:
        seats = self.start_seats
        return {seats[s]: _Reply(self, s) for s in range(len(seats)) if s != self.seat_no}

    # ----------------------------------------------------------------- helpers
    @property
    def state(self) -> State:
        """The table now (the session's state)."""
        return self.session.state

    @property
    def events(self) -> list[Event]:
        """This level's events (the session's event log)."""
        return self.session.events

    def fill(self, text: str) -> str:
        """A lesson text with the generator's named values filled in."""
        return fill(text, self.values) if self.values else text

    def copy(self) -> "LevelRun":
        """An independent copy (for searching)."""
        other = LevelRun.__new__(LevelRun)
        other.__dict__.update(self.__dict__)
        session = copy.copy(self.session)
        session.state = self.session.state.copy()
        session.events = list(self.session.events)
        session.selected = list(self.session.selected)
        session._undo = list(self.session._undo)
        other.session = session
        session.bots = {seat_index(k, session.state.variant.seats): v for k, v in other._bots().items()}
        other.safe_discards = list(self.safe_discards)
        other.played = list(self.played)
        other._reply_at = dict(self._reply_at)
        other.replies_log = list(self.replies_log)
        other.log = list(self.log)
        return other

    def context(self) -> Context:
        return Context(state=self.state, start=self.start, events=tuple(self.events), seat=self.level.seat,
                       safe_discards=tuple(self.safe_discards), learner=tuple(self._learner_facts()[1]))

    @property
    def goal(self) -> str:
        return self.fill(self.level.goal)

    def position(self, seat: str | None = None) -> str:
        """The position now (all cards, or as ``seat`` sees it)."""
        return format_position(self.state, seat)

    def learner_to_act(self) -> bool:
        if self.question is not None:  # a scoring level: the learner answers while it is open
            return self.status == OPEN
        return self.status == OPEN and self.state.actor == self.seat_no

    def table_log(self) -> list[dict[str, Any]]:
        """The level's log, as the table widget shows it (:func:`~canasta_tutor.tutor.eventlog.log_entries`)."""
        return log_entries(self.events, self.seat_no)

    # ----------------------------------------------------------------- playing
    def play(self, text: str) -> ActionResult:
        """Try one learner action (text in the action notation); always answers.

        Two more forms, which a log replays: ``press BUTTON [CARDS] [to KIND]``, a button pressed with
        cards selected (:func:`.clicks.press`; the answer to its last step), and ``answer ...``, a scoring
        level's answer (:func:`.clicks.answer`)."""
        if self.status != OPEN:
            raise LevelOverError(f"the level is already {self.status}; start it again to retry")
        head = text.split(None, 1)[0].lower() if isinstance(text, str) and text.strip() else ""
        if head in ("press", "answer"):
            from .clicks import CompositionError, answer, parse_press, press

            if head == "answer":
                return answer(self, text.strip()[len("answer"):])
            try:
                results = press(self, *parse_press(text))
            except (CompositionError, NotationError) as e:
                message = e.message if isinstance(e, NotationError) else str(e)
                return ActionResult(text=text[:80], counted=False, reason=message, feedback=[message],
                                    status=self.status, position=self.position())
            return results[-1]
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

    def press(self, button: str, cards: list[str] | tuple[str, ...] = (), to: str | None = None) -> list[ActionResult]:
        """A button pressed with the learner's selected cards (codes like ``"KH"``): see :func:`.clicks.press`."""
        from .clicks import press

        return press(self, button, cards, to)

    def answer(self, text: str) -> ActionResult:
        """A scoring level's answer: see :func:`.clicks.answer`."""
        from .clicks import answer

        return answer(self, text)

    def _try(self, action: tuple, result: ActionResult, refusal: IllegalActionError | None = None,
             log_text: str = "", press: str = "") -> ActionResult:
        """Answer one learner action.  ``refusal``: the engine's refusal a planner found for a press (named
        ``press`` in the table's events, logged as ``log_text`` so that a replay presses again)."""
        try:
            result.notation = format_action(action)
        except NotationError:
            result.notation = result.text
        before = self.state.copy()
        expected = self._expected()
        self.tries += 1
        first = len(self.events)
        verb = action[0]
        if not verb_allowed(verb, self.level.allow):
            result.reason = (f"This level is about something else: here you may {_verbs(self.level.allow)}.")
            result.note = self.fill(self.level.note_for(verb=verb))
            self._refuse_verb(action, result)
        else:
            err = refusal if refusal is not None else self.state.explain_for(self.seat_no, action)
            if err is not None:
                result.rule, result.reason = err.rule, err.reason
                result.note = self.fill(self.level.note_for(rule=err.rule))
                self.session.refuse(err, action, press)
                result.feedback.append(f"[{err.rule}] {err.reason}")
                if result.note:
                    result.feedback.append(result.note)
                self.log.append({"kind": "refused", "text": log_text or result.notation, "rule": err.rule,
                                 "reason": err.reason})
            else:
                result.accepted = True
                self.log.append({"kind": "action", "text": result.notation, "rule": ""})
                if verb == "discard":
                    self.safe_discards.append(discard_is_safe(observe(before, self.seat_no), action[1]))
                self.session.play(result.notation)
                self._raise_reply_error()
                result.feedback += self._own_texts(first)
        own_end = len(self.events)
        # the path along the solution lines: accepted actions, and refused ones where the level wants a refusal
        off_lines = False
        if result.accepted or self.level.try_illegal:
            self.played.append(result.notation)
            off_lines = not self._on_path()
            if off_lines and self.off_path_state is None:
                self.off_path_state = before
        if self._judge() == OPEN:
            self._play_others()
            self._judge()
        result.replies = self._reply_texts(own_end)
        if self.status == PASSED:
            result.feedback.append(self.fill(self.level.conclusion) or "Level passed.")
        elif self.status == FAILED:
            # a wrong move's reasons were said when it was played: the failure does not say them again
            result.feedback.append(self.message if not self._failure_shown or not self.wrong_note
                                   else self.message.replace(" " + self.wrong_note, ""))
        elif (result.accepted and off_lines and self.judge_wrong and not self.wrong_note
              and not self._can_still_pass()):
            result.wrong = True
            why = self.why_fn(before, self.level.seat, action, expected, self.seed)
            self.wrong_note = why or "After that move the goal is out of reach: try the level again."
            result.feedback.append(self.wrong_note)
            self._failure_shown = True
            mine = next(e for e in reversed(self.log) if e["kind"] == "action")
            mine.update(kind=WRONG_KIND, reason=self.wrong_note)
        result.status = self.status
        result.position = self.position()
        return result

    def _raise_reply_error(self) -> None:
        err, self.reply_error = self.reply_error, None
        if err is not None:
            raise err

    def _own_texts(self, first: int) -> list[str]:
        """The texts of the events since ``first`` that are the learner's or the table's (the hand's end)."""
        mine = self.level.seat
        return [e.text for e in self.events[first:] if e.seat in (mine, None) or isinstance(e, WentOutEvent)]

    def _reply_texts(self, first: int) -> list[str]:
        """What happened after the learner's action (events from ``first``): the other seats' turns, one line
        each, and what the table did for the learner as their turn came back (a red three laid out), in
        the table log's words."""
        others = [e for e in self.events[first:] if not isinstance(e, RefusedEvent)]
        return [x["text"] for x in log_entries(others, self.seat_no)]

    def _expected(self) -> tuple | None:
        """The next action of a solution line that the learner's tries so far follow."""
        n = len(self.played)
        for line in self._canon_solutions:
            if line[:n] == self.played and len(line) > n:
                try:
                    return parse_action(line[n])
                except NotationError:
                    return None
        return None

    def _on_path(self) -> bool:
        n = len(self.played)
        return any(line[:n] == self.played for line in self._canon_solutions)

    def _can_still_pass(self) -> bool:
        """Whether a short search finds a way to pass from here (within the par left, plus one)."""
        if self.status != OPEN or not self.learner_to_act():
            return self.status == PASSED
        probe = self.copy()
        probe.judge_wrong = False
        probe.hint_fn = None
        depth = max(1, self.level.par - self.tries) + 1
        return search_pass(probe, depth, WRONG_SEARCH_NODES).found is not None

    def _refuse_verb(self, action: tuple, result: ActionResult) -> None:
        text = result.reason
        self.log.append({"kind": "refused", "text": result.notation, "rule": "", "reason": text})
        result.feedback.append(text)
        if result.note:
            result.feedback.append(result.note)
        self.events.append(RefusedEvent(index=len(self.events), seat=self.level.seat, text=text, action=action,
                                        notation=result.notation, rule="", reason=result.reason))

    def _play_others(self) -> None:
        guard = 0
        while self.status == OPEN and self.session.bot_to_move():
            guard += 1
            if guard > 200:
                raise LessonRuntimeError(f"{self.level.key}: the other seats played 200 actions without the "
                                         "learner's turn coming back")
            first = len(self.events)
            played = self.session.step_bots(1)
            self._raise_reply_error()
            if not played:
                raise LessonRuntimeError(f"{self.level.key}: {self.session.message}")
            for text in self._reply_texts(first):
                self.replies_log.append(text)
                self.log.append({"kind": "reply", "text": text, "rule": ""})
            self._judge()

    def _learner_turns_ended(self) -> int:
        return self._learner_facts()[0]

    def _learner_facts(self) -> tuple[int, list[ActionEvent]]:
        """The turns the learner has ended and the learner's accepted actions, from the events.  The
        events only grow during a run, so each is read once (a thousand refusals cost a thousand
        looks, not a million); a new or shorter event list is read again from its start."""
        events = self.events
        facts: _LearnerFacts | None = getattr(self, "_facts", None)
        if facts is None or facts.events is not events or facts.seen > len(events):
            facts = self._facts = _LearnerFacts(events)
        seat = self.level.seat
        for e in events[facts.seen:]:
            if isinstance(e, ActionEvent) and e.seat == seat:
                facts.actions.append(e)
                if e.action[:1] == ("discard",):
                    facts.turns += 1
            elif isinstance(e, WentOutEvent) and e.seat == seat:
                facts.turns += 1
        facts.seen = len(events)
        return facts.turns, facts.actions

    def _judge(self) -> str:
        if self.status != OPEN or self.question is not None:  # a scoring level ends on a right answer
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
        if self.wrong_note:
            return f"{head} {self.wrong_note}"
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
        """The stages of the hint panel the table widget shows (:func:`~canasta_tutor.tutor.hints.compute_hint`)."""
        if self.state.actor != self.seat_no:
            return []
        from ..hints import compute_hint

        s = self.session
        try:
            panel = compute_hint(s.observation, s.hand_cards(), (self.state.deal_no, len(self.state.history)),
                                 len(self.state.history), seed=self.seed)
        except (CanastaError, ValueError, IndexError, KeyError):
            return []
        return [str(t) for t in panel.stages if t]

    def stars(self) -> int:
        """0 unless passed; 3 at or under par with no hint, one less per hint and for going over par, at least 1."""
        if self.status != PASSED:
            return 0
        return max(1, 3 - self.hints_used - (1 if self.tries > self.level.par else 0))

    def star_text(self) -> str:
        """How the stars of a passed level were counted, and the rule that counts them ("" unless passed)."""
        if self.status != PASSED:
            return ""
        n, par, hints = self.tries, self.level.par, self.hints_used
        what = ("answer", "answers") if self.question is not None else ("move", "moves")
        tries = f"{n} {what[0] if n == 1 else what[1]} against a par of {par}" + ("" if n <= par else ", one star off")
        plural = "s" if hints > 1 else ""
        used = "no hint" if not hints else f"{hints} hint{plural}, {hints} star{plural} off"
        stars = self.stars()
        floor = " (a passed level keeps at least one)" if 3 - hints - (n > par) < 1 else ""
        return (f"{stars} star{'s' if stars != 1 else ''}{floor}: {tries}; {used}. A level earns 3 stars at par "
                "with no hint; each hint costs one, and so does going over par.")

    def attempt(self, learner: str) -> Attempt:
        """This attempt as a progress-store record."""
        return Attempt(learner=learner, lesson=self.level.lesson_id, level=self.level.id, status=self.status,
                       stars=self.stars(), seed=self.seed, tries=self.tries, par=self.level.par,
                       hints=self.hints_used, actions=list(self.log))

    def summary(self) -> dict[str, Any]:
        return {"lesson": self.level.lesson_id, "level": self.level.id, "seed": self.seed, "status": self.status,
                "stars": self.stars(), "tries": self.tries, "par": self.level.par, "hints_used": self.hints_used,
                "message": self.message}


def _searching_why(state: State, seat: str, action: tuple, expected: tuple | None, seed: int) -> str:
    return why_worse(state, seat, action, expected, seed, search=True)


def _quick_why(state: State, seat: str, action: tuple, expected: tuple | None, seed: int) -> str:
    return why_worse(state, seat, action, expected, seed, search=False)


@dataclass
class SearchResult:
    found: list[str] | None
    nodes: int
    exhausted: bool


def search_pass(root: LevelRun, depth: int, max_nodes: int = 4000) -> SearchResult:
    """Search learner action sequences (at most ``depth`` long) from ``root`` for one that passes.

    Candidates at each step: the actions of the solution lines first (filled in for this deal),
    then every legal action of an allowed verb.  Bounded by ``max_nodes`` runs of an action.
    Runs on copies; ``root`` is left as it is.
    """
    level = root.level
    hinted = [a for line in root.solutions for a in line]
    nodes = 0
    exhausted = True

    def candidates(run: LevelRun) -> list[str]:
        seen: dict[str, None] = {}
        for text in hinted:
            seen.setdefault(_canon(text), None)
        for a in run.state.legal_actions():
            if verb_allowed(a[0], level.allow):
                seen.setdefault(format_action(a), None)
        return list(seen)

    def dfs(run: LevelRun, path: list[str], depth: int) -> list[str] | None:
        nonlocal nodes, exhausted
        if depth == 0:
            return None
        for text in candidates(run):
            if nodes >= max_nodes:
                exhausted = False
                return None
            nodes += 1
            child = run.copy()
            try:
                r = child.play(text)
            except CanastaError:
                continue
            if not r.accepted and not level.try_illegal:
                continue
            if child.status == PASSED:
                return path + [text]
            if child.status == OPEN and child.learner_to_act():
                found = dfs(child, path + [text], depth - 1)
                if found is not None:
                    return found
        return None

    found = dfs(root, [], depth)
    return SearchResult(found, nodes, exhausted and found is None)


def _canon(text: str) -> str:
    try:
        return format_action(parse_action(text))
    except NotationError:
        return _norm(text)


def _verbs(allow: tuple[str, ...]) -> str:
    words = list(allow)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def replay(level: Level, line: list[str] | tuple[str, ...], seed: int = 0, hint_fn: HintFn | None = None,
           judge_wrong: bool = True) -> tuple[LevelRun, list[ActionResult]]:
    """Play a line of learner actions; stops early if the level ends.  Returns the run and the answers
    (``judge_wrong=False``: no search for a way to pass after a move that leaves the lines)."""
    run = LevelRun(level, seed, hint_fn=hint_fn)
    run.judge_wrong = judge_wrong
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
           "feedback_contains", "default_hint", "default_reply", "why_worse", "search_pass", "SearchResult",
           "WRONG_SEARCH_NODES", "OPEN", "PASSED", "FAILED", "DEMO"]
