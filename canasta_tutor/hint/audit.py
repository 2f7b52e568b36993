"""An audit of one hint against the real deal: are its words and its plan true?

Two checks (issue 31), measured over many positions by ``benchmarks/hint_sweep.py`` and on a few
in the tests:

- **claims**: every sentence of the hint that says what a player could do (take the pack, add to a
  meld, go out) carries its claim (:attr:`~canasta_tutor.hint.Hint.claims`), and each claim is
  checked by the engine on the *real* state, hidden cards and all
  (:func:`~canasta_tutor.hint.check_hint_claim`).  A sentence with such words and no claim behind
  it counts as unbacked.
- **plan**: every later step of the hint's plan, played on the real state, is graded by
  :func:`~canasta_tutor.hint.grade` from the learner's observation before it (the hint's seed and
  samples); a step graded a mistake or a blunder counts.

The audit reads the hidden cards only to check; the hint never sees them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..notation.actions import format_action
from ..engine.observer import observe
from ..engine.state import State
from . import Hint, check_hint_claim, grade, hint

#: Words by which a sentence says what a player could do now (after this move); such a sentence must come from a
#: fact with a claim.  A rule said as a condition ("with the pair you could take the pack ... when a jack comes on
#: top") is no claim about this position.
CLAIM_WORDS = re.compile(r"could add it|could take \d|would let them take|could go out this turn|can go down this turn")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


@dataclass
class Audit:
    """What one hint said and planned, checked on the real deal."""

    claims: int = 0
    illegal: list[str] = field(default_factory=list)  # each claim the engine refuses, with why
    unbacked: list[str] = field(default_factory=list)  # sentences with claim words and no claim behind them
    steps: int = 0  # later plan steps graded (those with a choice)
    bad_steps: list[str] = field(default_factory=list)  # steps graded a mistake or a blunder


def audit(state: State, seed: int = 0, samples: int | None = None, the_hint: Hint | None = None) -> Audit:
    """Audit the hint for the seat to act in ``state`` (the real deal); ``the_hint`` if already made
    from ``observe(state, state.actor)`` with ``seed`` and ``samples``."""
    seat = state.actor
    if seat is None:
        raise ValueError("no seat to act")
    h = the_hint if the_hint is not None else hint(observe(state, seat), samples=samples, seed=seed)
    out = Audit(claims=len(h.claims))
    for c in h.claims:
        why = check_hint_claim(state, c)
        if why is not None:
            out.illegal.append(f"{c!r}: {why}")
    for sentence in _SENTENCE.split(h.explanation):
        if CLAIM_WORDS.search(sentence) and not any(t[1:] in sentence for t in h.claimed):
            out.unbacked.append(sentence)
    s = state.copy()
    for i, a in enumerate(h.plan_actions):
        if i:
            o = observe(s, seat)
            if len(o.legal_actions) > 1:
                out.steps += 1
                g = grade(o, a, seed=seed, samples=samples)
                if g.grade in ("mistake", "blunder"):
                    out.bad_steps.append(f"step {i + 1} {format_action(a)}: {g.grade} ({g.loss:.0f} lost; "
                                         f"best {format_action(g.best)})")
        s.apply(a)
    return out


__all__ = ["Audit", "audit", "CLAIM_WORDS"]
