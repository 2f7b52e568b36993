"""The hint: the best legal move for the seat to act, and why.

:func:`hint` searches the position seen by one seat (an
:class:`~canasta_tutor.observer.Observation`; it never sees hidden cards) with
the expert's determinized Monte Carlo search, and returns a :class:`Hint`:

- the best action and, where the rest of the turn follows from known cards,
  the whole-turn plan;
- the next best alternatives, each with its value (the expected point
  difference of the hand for our side), an uncertainty (the half-width of a
  95% interval, 1.96 standard errors of the sampled mean), and why it is worse;
- the principles behind the best action (IDs from the strategy catalogue) and
  the rule numbers where a rule is the reason;
- staged text: a nudge, then the move, then the full explanation.

:func:`grade` rates any legal action a learner proposes by the value it loses
against the best one, counting only the part of the loss beyond one standard
error of the difference (so sampling noise never grades a move down).  The
thresholds (points of expected hand score lost):

=============  ==========================================
best           the best action, or within 10 points of it
good           less than 30 points lost
inaccuracy     less than 80
mistake        less than 200
blunder        200 or more
=============  ==========================================
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .actions import format_action
from .bots.expert import Estimate, candidate_actions, determinize, search, state_from_observation
from .bots.principles import PRINCIPLES
from .bots.rules_of_thumb import decide, want_go_out
from .bots.view import View, view_of_state
from .cards import BLACK_THREE, DEUCE, JOKER, KIND_NAMES
from .errors import IllegalActionError
from .feasibility import can_go_out
from .observer import Observation
from .state import State

Z95 = 1.96  # the "±" shown with a value is a 95% interval: 1.96 standard errors
GRADES = (("best", 10.0), ("good", 30.0), ("inaccuracy", 80.0), ("mistake", 200.0))
DEFAULT_PLAYOUTS = 240  # playouts per hint, shared out among the candidates
MIN_ITERATIONS = 24
DEFAULT_MAX_SECONDS = 0.8


@dataclass
class Alternative:
    """A runner-up action with its value and why it is worse."""

    action: tuple
    text: str
    value: float
    stderr: float
    why: str

    @property
    def uncertainty(self) -> float:
        """Half-width of the 95% interval of :attr:`value`."""
        return Z95 * self.stderr

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.text, "value": round(self.value, 1), "uncertainty": round(self.uncertainty, 1),
                "stderr": round(self.stderr, 1), "why": self.why}


@dataclass
class Hint:
    """The hint for one decision."""

    seat: int
    best: tuple
    best_text: str
    value: float
    stderr: float
    plan: list[str]
    alternatives: list[Alternative]
    principles: list[str]
    rules: list[str]
    nudge: str
    explanation: str
    samples: int
    elapsed_ms: float
    estimates: list[Estimate] = field(default_factory=list, repr=False)

    @property
    def uncertainty(self) -> float:
        """Half-width of the 95% interval of :attr:`value` (the "±" in the text)."""
        return Z95 * self.stderr

    def stages(self) -> list[str]:
        """Staged hints: a nudge, then the move, then the full explanation."""
        move = f"Play: {self.best_text}."
        if len(self.plan) > 1:
            move = "Play: " + ", then ".join(self.plan) + "."
        return [self.nudge, move, self.explanation]

    def to_dict(self) -> dict[str, Any]:
        return {
            "best": self.best_text,
            "value": round(self.value, 1),
            "uncertainty": round(self.uncertainty, 1),
            "stderr": round(self.stderr, 1),
            "plan": self.plan,
            "alternatives": [a.to_dict() for a in self.alternatives],
            "principles": [{"id": p, "sentence": PRINCIPLES[p].sentence} for p in self.principles],
            "rules": self.rules,
            "nudge": self.nudge,
            "explanation": self.explanation,
            "samples": self.samples,
            "elapsed_ms": round(self.elapsed_ms, 1),
        }

    def text(self) -> str:
        """The hint rendered as plain text."""
        lines = [f"Best: {self.best_text}  (value {self.value:+.0f} ± {self.uncertainty:.0f} points, 95%)"]
        if len(self.plan) > 1:
            lines.append("Plan: " + ", then ".join(self.plan))
        for p in self.principles:
            lines.append(f"  {p}: {PRINCIPLES[p].sentence}")
        for r in self.rules:
            lines.append(f"  rule {r}")
        if self.alternatives:
            lines.append("Alternatives:")
            for a in self.alternatives:
                lines.append(f"  {a.text:<22} {a.value:+7.0f} ± {a.uncertainty:.0f}  {a.why}")
        return "\n".join(lines)


def _opp_min_cards(v: View) -> int:
    return min(v.hand_sizes[(v.seat + 1) % 4], v.hand_sizes[(v.seat + 3) % 4])


def principles_for(v: View, action: tuple) -> tuple[list[str], list[str]]:
    """The principles and rules that explain choosing ``action`` in view ``v``."""
    side = v.side
    verb = action[0]
    ps: list[str] = []
    rules: list[str] = []
    frozen = v.frozen_for(side)
    if verb == "take":
        ps.append("P-TAKE-PACK")
        if not v.initial[side]:
            ps.append("P-OPEN-EARLY")
            rules += ["R-PACK-5", "R-MIN-3"]
        if frozen:
            rules.append("R-PACK-4")
        else:
            rules.append("R-PACK-2")
    elif verb == "draw":
        takes = [a for a in v.legal if a[0] == "take"]
        if takes and _opp_min_cards(v) <= 2:
            ps.append("P-COUNT-CARDS")
        elif takes:
            ps.append("P-HOLD-PAIRS")
        elif v.pile_size and frozen:
            rules.append("R-PACK-4")
            if not v.initial[side]:
                rules.append("R-FRZ-1")
    elif verb in ("meld", "add"):
        if v.phase == "draw":
            ps += ["P-TAKE-PACK", "P-OPEN-EARLY"]
            rules.append("R-PACK-5")
        elif v.must_out:
            ps.append("P-GO-OUT")
        elif not v.initial[side]:
            ps.append("P-OPEN-EARLY")
            rules.append("R-MIN-1")
            if sum(v.hand) >= 7 and can_go_out(v.hand, {}, v.options):
                ps.append("P-CONCEALED")
        else:
            ps.append("P-BUILD-CANASTA")
            if verb == "add" and action[2] == action[1]:
                nat, wild = v.melds[side][action[1]]
                if not wild and nat >= 4:
                    ps.append("P-NATURAL-CANASTA")
            if our_can_go_out(v) and not want_go_out(v):
                ps.append("P-KEEP-BUILDING")
    elif verb == "discard":
        k = action[1]
        if k == BLACK_THREE:
            ps += ["P-STOP-THREE", "P-SAFE-DISCARD"]
            rules.append("R-PACK-3")
        elif k in (JOKER, DEUCE):
            ps.append("P-FREEZE")
            rules.append("R-FRZ-2")
        else:
            ps.append("P-SAFE-DISCARD")
            if v.hand[k] == 1 and any(v.hand[x] == 2 for x in range(11)):
                ps.append("P-HOLD-PAIRS")
        if _opp_min_cards(v) <= 3:
            ps.append("P-COUNT-CARDS")
        if sum(v.hand) == 1:
            ps.insert(0, "P-GO-OUT")
            rules.append("R-OUT-1")
        elif our_can_go_out(v):
            ps.append("P-KEEP-BUILDING")
    elif verb == "ask":
        ps.append("P-ASK-PARTNER")
        rules.append("R-ASK-1")
    elif verb in ("yes", "no"):
        ps.append("P-PARTNER-ANSWER")
        rules.append("R-ASK-3")
    elif verb == "pass":
        rules.append("R-STOCK-3")
    return list(dict.fromkeys(ps)), list(dict.fromkeys(rules))


def our_can_go_out(v: View) -> bool:
    our = v.melds[v.side]
    return bool(our) and can_go_out(v.hand, our, v.options)


def _nudge(v: View, action: tuple) -> str:
    verb = action[0]
    if verb in ("take", "draw") or (verb in ("meld", "add") and v.phase == "draw"):
        return "Look at the pack before you draw."
    if verb == "discard":
        if action[1] in (JOKER, DEUCE):
            return "Think about what the pack is worth to the opponents."
        return "Which of your cards is safe to give the next player?"
    if verb == "ask":
        return "Can you go out? Think about your partner's hand."
    if verb in ("yes", "no"):
        return "How many points are you holding?"
    if verb in ("meld", "add"):
        return "Look at your melds: which cards build canastas?"
    return "Look at the whole table."


def _why_worse(v: View, alt: tuple, best: tuple, loss: float) -> str:
    side = v.side
    opp = 1 - side
    verb = alt[0]
    pts = f"about {loss:.0f} points worse on average"
    if verb == "discard":
        k = alt[1]
        if k in (JOKER, DEUCE):
            return f"Throws away a wild card ({pts})."
        if k in v.melds[opp] and v.freeze_at < 0 and v.initial[opp]:
            return f"The next player can take the pack by adding it to their {KIND_NAMES[k]} ({pts})."
        if v.known[(v.seat + 1) % 4][k]:
            return f"The next player is known to hold {KIND_NAMES[k]}: it may give them the pack ({pts})."
        if v.hand[k] >= 2:
            return f"Breaks your {KIND_NAMES[k]}, which could take the pack or build a meld ({pts})."
        return f"Keeps a worse hand than {format_action(best)} ({pts})."
    if verb == "draw":
        if any(a[0] == "take" for a in v.legal):
            return f"Leaves the pack of {v.pile_size} card(s) to the others ({pts})."
        return f"Gives up the chance you have now ({pts})."
    if verb == "take":
        if alt[3] or alt[4]:
            return f"Spends a wild card to take the pack ({pts})."
        return f"Taking the pack now is worth less than {format_action(best)} ({pts})."
    if verb in ("meld", "add"):
        if alt[0] == "add" and alt[2] in (JOKER, DEUCE):
            return f"Spends a wild card that is worth more elsewhere ({pts})."
        return f"Melding now gives up flexibility you need ({pts})."
    if verb == "ask":
        return f"Going out now scores less than staying in ({pts})."
    if verb == "yes":
        return f"Lets your partner go out while you hold points ({pts})."
    if verb == "no":
        return f"Keeps the hand going when going out now is better ({pts})."
    return f"{pts.capitalize()}."


def _plan(state: State, seat: int, best: tuple, seed: int) -> list[str]:
    """The rest of the turn after ``best`` while it follows from known cards (stops at a draw)."""
    import random

    plan = [format_action(best)]
    if best[0] in ("draw", "ask", "yes", "no", "pass", "deal"):
        return plan
    s = determinize(state, seat, random.Random(seed))
    s.apply_unchecked(best)
    for _ in range(40):
        if s.actor != seat or s.phase not in ("meld", "draw"):
            break
        legal = s.legal_actions()
        if not legal:
            break
        a = decide(view_of_state(s, seat, legal))[0]
        if a[0] in ("draw", "ask"):
            break
        plan.append(format_action(a))
        s.apply_unchecked(a)
        if a[0] == "discard":
            break
    return _compress(plan)


def _compress(plan: list[str]) -> list[str]:
    """Fold repeats: ``add K, add K, add K`` becomes ``add K (x3)``."""
    out: list[str] = []
    count = 0
    for i, step in enumerate(plan):
        count += 1
        if i + 1 == len(plan) or plan[i + 1] != step:
            out.append(step if count == 1 else f"{step} (x{count})")
            count = 0
    return out


def iterations_for(candidates: int, playouts: int = DEFAULT_PLAYOUTS) -> int:
    """Samples of the hidden cards for a search over ``candidates`` actions: the playout
    budget shared out, but never fewer than MIN_ITERATIONS.

    >>> iterations_for(2), iterations_for(8)
    (120, 30)
    """
    return max(MIN_ITERATIONS, playouts // max(1, candidates))


def analyse(obs: Observation, iterations: int | None = None, seed: int = 0,
            max_seconds: float | None = DEFAULT_MAX_SECONDS, wide: bool = True) -> tuple[State, list[Estimate]]:
    """Search the position of ``obs``; estimates for the candidate actions, best first.
    ``iterations`` defaults to :func:`iterations_for` the number of candidates."""
    if obs.actor != obs.seat:
        raise IllegalActionError("R-TURN-1", "It is not this seat's turn to act")
    state = state_from_observation(obs)
    cands = candidate_actions(state, obs.seat, wide=wide)
    if len(cands) == 1:
        return state, [Estimate(cands[0], 0.0, 0.0, 0)]
    n = iterations if iterations is not None else iterations_for(len(cands))
    return state, search(state, obs.seat, cands, n, seed, max_seconds)


def hint(obs: Observation, budget: float | None = None, seed: int = 0,
         iterations: int | None = None, max_seconds: float | None = DEFAULT_MAX_SECONDS) -> Hint:
    """The hint for the seat of ``obs``, which must be the seat to act.

    ``budget`` (seconds) searches for that long instead of a fixed number of
    ``iterations``.  By default the search takes ``iterations`` samples, stopping
    early only if ``max_seconds`` run out; with ``max_seconds=None`` the same
    ``seed`` always gives the same hint.
    """
    start = time.perf_counter()
    if budget is not None:
        state, est = analyse(obs, iterations=100000, seed=seed, max_seconds=budget)
    else:
        state, est = analyse(obs, iterations=iterations, seed=seed, max_seconds=max_seconds)
    v = view_of_state(state, obs.seat, list(obs.legal_actions))
    best = est[0]
    ps, rules = principles_for(v, best.action)
    alts = []
    for e in est[1:4]:
        loss = best.mean - e.mean
        alts.append(Alternative(e.action, format_action(e.action), e.mean, e.stderr,
                                _why_worse(v, e.action, best.action, loss)))
    plan = _plan(state, obs.seat, best.action, seed)
    best_text = format_action(best.action)
    reasons = [PRINCIPLES[p].sentence for p in ps]
    if best.samples == 0:
        expl = f"{best_text} is the only legal action here."
    else:
        expl = (f"{best_text}: expected {best.mean:+.0f} ± {Z95 * best.stderr:.0f} points for your side "
                "this hand (95% interval).")
    if reasons:
        expl += " " + " ".join(reasons)
    if rules:
        expl += " Rules: " + ", ".join(rules) + "."
    if alts:
        a = alts[0]
        expl += f" The next best, {a.text}, is {best.mean - a.value:.0f} points worse: {a.why}"
    return Hint(
        seat=obs.seat, best=best.action, best_text=best_text, value=best.mean, stderr=best.stderr,
        plan=plan, alternatives=alts, principles=ps, rules=rules, nudge=_nudge(v, best.action),
        explanation=expl, samples=best.samples, elapsed_ms=(time.perf_counter() - start) * 1000, estimates=est,
    )


@dataclass
class Grade:
    action: tuple
    grade: str
    loss: float
    best: tuple

    def to_dict(self) -> dict[str, Any]:
        return {"action": format_action(self.action), "grade": self.grade, "loss": round(self.loss, 1),
                "best": format_action(self.best)}


def grade_loss(loss: float) -> str:
    """The grade for a value loss in points (see the module docstring for the thresholds).

    >>> [grade_loss(x) for x in (0, 25, 50, 150, 400)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, limit in GRADES:
        if loss < limit or (name == "best" and loss <= limit):
            return name
    return "blunder"


def grade(obs: Observation, action: tuple, seed: int = 0, iterations: int | None = None) -> Grade:
    """Grade a learner's action against the best, by the value it loses."""
    if action not in obs.legal_actions:
        raise IllegalActionError("R-TURN-2", f"{format_action(action)!r} is not legal here", action)
    state = state_from_observation(obs)
    cands = candidate_actions(state, obs.seat, wide=True)
    if action not in cands:
        cands.append(action)
    n = iterations if iterations is not None else iterations_for(len(cands))
    est = search(state, obs.seat, cands, n, seed, DEFAULT_MAX_SECONDS) if len(cands) > 1 else [
        Estimate(action, 0.0, 0.0, 0)]
    best = est[0]
    mine = next(e for e in est if e.action == action)
    # the loss counts only beyond one standard error of the paired difference, so that
    # sampling noise never grades a move down
    loss = max(0.0, best.mean - mine.mean - mine.diff_stderr)
    return Grade(action, "best" if mine is best else grade_loss(loss), loss, best.action)


__all__ = ["Hint", "Alternative", "Grade", "hint", "grade", "grade_loss", "principles_for", "analyse",
           "iterations_for"]
