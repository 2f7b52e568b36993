"""A level's clicks and answers: a button pressed with the cards selected, or a scoring level's answer.

A press means what the learner selected (see :func:`~canasta_tutor.tutor.planning.plan_button`):
the session layer's planner makes the engine's actions of it, and each is played and answered in
turn; a refusal is the engine's, for the learner's own cards, and is answered naming the press
("Meld 7♠ 7♣ J♥"), never an action the planner made up.  A press that did more than its label
(Meld that became additions to a meld, Go out that played the whole turn) says so.  On a level
with ``step_by_step = true`` a button does only what its label says.

A press is logged as it was made, ``press meld 7S 7C JH`` (the progress store, an assignment's
log), so that a replay through :meth:`LevelRun.play <.runner.LevelRun.play>` plans it again from the
same position and meets the same answer.  An answer to a scoring level is logged as
``answer canastas=500 ...``.

>>> from canasta_tutor.tutor.lessons.loader import parse_lesson
>>> from canasta_tutor.tutor.lessons.runner import DEMO, LevelRun
>>> run = LevelRun(parse_lesson(DEMO, "demo.toml").levels[0], hint_fn=None)
>>> r = run.play("press take 9H")
>>> r.text, r.rule, r.accepted
('Take pack with 9♥', 'R-PACK-4', False)
>>> run.log[-1]["text"]
'press take 9H'
>>> run.play("press take 9H 9C").status
'passed'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...notation.actions import format_action
from ...engine.cards import CARD_CODE, CARD_KIND, kind_of_code, parse_kind
from ...engine.errors import CanastaError, IllegalActionError, NotationError
from ..planning import Guidance, plan_button, press_text
from .results import PASSED, ActionResult, LevelOverError
from .scoring import AnswerError, parse_answer

if TYPE_CHECKING:
    from .runner import LevelRun

#: the buttons a press may name (``press BUTTON [CARDS] [to KIND]``)
PRESS_BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "yes", "no", "pass", "go_out")


class CompositionError(CanastaError, ValueError):
    """A button press that needs something more from the learner (the planner's guidance): no try."""


def press_command(button: str, codes: list[str] | tuple[str, ...] = (), to: str | None = None) -> str:
    """The logged form of a press: ``press meld 7S 7C JH``, ``press add 2C to K``."""
    return " ".join(["press", button, *codes] + (["to", to] if to else []))


def parse_press(text: str) -> tuple[str, list[str], str | None]:
    """``press BUTTON [CARDS] [to KIND]`` as (button, card codes, meld kind).

    >>> parse_press("press add 2C to K")
    ('add', ['2C'], 'K')
    """
    words = text.split()
    if len(words) < 2 or words[0].lower() != "press" or words[1].lower() not in PRESS_BUTTONS:
        raise NotationError(f"{text[:60]!r}: a press is 'press BUTTON [CARDS] [to KIND]', with a button of "
                            f"{', '.join(PRESS_BUTTONS)}")
    button, rest = words[1].lower(), words[2:]
    to = None
    if len(rest) >= 2 and rest[-2].lower() == "to":
        to, rest = rest[-1], rest[:-2]
    if len(rest) > 30:
        raise NotationError(f"{text[:60]!r}: at most 30 cards")
    return button, rest, to


def card_ids(run: LevelRun, codes: list[str]) -> list[int]:
    """The learner's cards with these codes (each one once), or :class:`CompositionError`."""
    hand = run.state.hands[run.seat_no]
    used: set[int] = set()
    out = []
    for code in codes:
        try:
            kind = kind_of_code(code)
        except NotationError as e:
            raise CompositionError(e.message) from None
        free = [c for c in hand[kind] if CARD_CODE[c] == code.upper() and c not in used]
        if not free:
            raise CompositionError(f"{code!r} is not in your hand.")
        used.add(free[0])
        out.append(free[0])
    return out


def press(run: LevelRun, button: str, codes: list[str] | tuple[str, ...] = (), to: str | None = None
          ) -> list[ActionResult]:
    """Play a button pressed with the learner's selected cards (codes like ``"KH"``; ``to``: the kind of the
    meld clicked).  The answers to the actions it played, or one refusal answered like a typed one (one try,
    named by the press); :class:`CompositionError` (no try) when the learner must still choose something."""
    if run.status != "open":
        raise LevelOverError(f"the level is already {run.status}; start it again to retry")
    if run.level.scoring:
        raise CompositionError("This level asks for the hand's score: write it in the boxes and check it.")
    if button == "go_out" and run.level.step_by_step:
        raise CompositionError("This level asks you to play each step yourself: meld, add and discard one "
                               "move at a time.")
    codes = [str(c) for c in codes]
    ids = card_ids(run, codes)
    try:
        target = parse_kind(to) if to else None
    except NotationError as e:
        raise CompositionError(e.message) from None
    outcome = plan_button(run.state, run.seat_no, button, ids, target, step_by_step=run.level.step_by_step)
    said = press_text(button, ids, target)
    command = press_command(button, codes, to)
    if isinstance(outcome, Guidance):
        raise CompositionError(outcome.text)
    if isinstance(outcome, IllegalActionError):
        action = outcome.action if isinstance(outcome.action, tuple) and outcome.action else (button,)
        return [run._try(action, ActionResult(text=said), outcome, log_text=command, press=said)]
    hand = run.state.hands[run.seat_no]
    for c in outcome.cards:  # the engine moves cards from the end: the selected ones go last
        pile = hand[CARD_KIND[c]]
        if c in pile:
            pile.remove(c)
            pile.append(c)
    results: list[ActionResult] = []
    for a in outcome.actions:
        r = run.play(format_action(a))
        results.append(r)
        if not r.accepted or r.status != "open":
            break
    if outcome.note and results:
        results[-1].feedback.append(outcome.note)
    return results


def answer(run: LevelRun, text: str) -> ActionResult:
    """A scoring level's answer (``"500 100 100 85 -15 770"`` or ``"canastas=500 ..."``): every line checked,
    each wrong one named with the right figure and how it is made up.  One try; an answer that is not
    numbers is no try."""
    if run.status != "open":
        raise LevelOverError(f"the level is already {run.status}; start it again to retry")
    question = run.question
    if question is None:
        result = ActionResult(text=f"answer {text}".strip(), counted=False)
        result.reason = "This level is played with moves, not answered with a score."
        result.feedback = [result.reason]
        result.status = run.status
        return result
    try:
        values = parse_answer(text, question.ids)
    except AnswerError as e:
        result = ActionResult(text=f"answer {text}".strip()[:80], counted=False, reason=e.message)
        result.feedback = [e.message]
        result.status = run.status
        return result
    canonical = "answer " + question.answer_text(values)
    run.tries += 1
    right, lines = question.check(values)
    result = ActionResult(text=canonical, notation=canonical, accepted=True, wrong=not right, feedback=lines)
    run.log.append({"kind": "action" if right else "wrong", "text": canonical, "rule": "",
                    **({} if right else {"reason": " ".join(x for x in lines if x.startswith("✗"))})})
    if right:
        run.status = PASSED
        result.feedback.append(run.fill(run.level.conclusion) or "Level passed.")
    result.status = run.status
    return result


__all__ = ["CompositionError", "PRESS_BUTTONS", "press", "answer", "press_command", "parse_press", "card_ids"]
