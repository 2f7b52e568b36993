"""The hint: the best legal move for the seat to act, and why, from facts.

:func:`hint` searches the position seen by one seat (an
:class:`~canasta_tutor.observer.Observation`; it never sees hidden cards) with
the expert's determinized Monte Carlo search, the same search the expert bot
plays with, and returns a :class:`Hint`:

- the best action and, where the rest of the turn follows from known cards,
  the whole-turn plan;
- the facts behind it, each found by a detector (:mod:`.detectors`) that
  checks something true of the position or the move, with the rule number
  when a rule is the reason; the strategy principles cited are only those
  whose detector fired and which the move agrees with;
- when only one move is legal, why each other kind of move is refused, in the
  engine's words (:mod:`.refusals`);
- the next best alternatives, compared in words: "about as good as" when the
  gap lies inside the 95% interval of the *paired* difference (all candidates
  are played out on the same sampled deals), otherwise worse, with the facts
  that make it worse; values and intervals only in the details;
- staged text: a nudge in plain words, then the move, then the full explanation.

The search is a race (:func:`~canasta_tutor.bots.expert.race`) on the same
sampled deals for every candidate, with a fixed budget of playouts, so it is
deterministic: the same position and seed give the same hint on any machine
under any load.  A wall-clock cap applies only when asked (``max_seconds``).
Asked for ``samples``, every candidate is played on that many deals instead.

In every variant but Samba the race's playouts are cut off: each plays two
rounds (``Variant.playout_turns``, 8 turns in classic) past the move with the
rules of thumb, and the rest of the hand is estimated by a linear function of
the position's facts fitted to the variant's self-play
(:mod:`~canasta_tutor.bots.evaluation`).  Such a playout costs about a third of
one to the end of the hand and varies far less.  Their draws are coupled: each
seat draws from its own random order of the sampled stock, so the candidates of
one deal hand every seat the same cards (:func:`~canasta_tutor.bots.expert.playout`).
These races run by elimination (``drop_z`` = ``DROP_Z``): every move still in is
played on the same new deals, a few at a time, and a move is dropped once it
trails the leader by more than ``DROP_Z`` standard errors of their paired
difference; the race ends when one move is left or the budget
(``Variant.hint_playouts``, 1600 playouts in classic) is spent.  So a clear
choice is settled in a fraction of the budget, and a close one gets all of it,
most of it on the moves still in contention.  The search with ``samples`` (the
puzzles' verification, :func:`compare`) still plays every hand to its end, with
plain draws.

Samba's playouts run to the end of the hand, and its race is by successive
halving (after each round of deals the worse half of the moves drops out; too
few deals for a paired interval to drop a move by), with a smaller fixed budget, since every step of
a Samba playout lists Samba's legal actions with their look-ahead of the rest
of the turn: at most six candidates taken from each of Samba's verbs in turn
(:func:`~canasta_tutor.bots.samba_policy.samba_candidates`), a race of the
playouts and rounds its variant declares (``Variant.hint_playouts`` = 24,
``hint_min_round`` = 2), ``SAMBA_SAMPLES`` deals a move for :func:`compare`, and a whole-turn plan that
is the rules of thumb's line, not searched.  Its facts are Samba's own where
the classic ones cannot read numbered melds (:mod:`.detectors`).

:func:`grade` rates any legal action a learner proposes by the value it loses
against the best one, counting only the part of the loss beyond one standard
error of the paired difference (so sampling noise never grades a move down).
The thresholds (points of expected hand score lost):

=============  ==========================================
best           the best action, or within 10 points of it
good           less than 30 points lost
inaccuracy     less than 80
mistake        less than 200
blunder        200 or more
=============  ==========================================

:func:`explain_move` gives the facts-based sentences for any legal move.

The whole-turn plan
-------------------
After a take, a meld or an add the rest of the turn follows from cards the
learner knows (the pile is public, the pack goes to their own hand), so the
hint shows the turn to its end: up to the discard or going out, or up to a draw
or an ask (whose outcome is hidden), never past them.  The first action and
its estimates are the search's above; the plan never changes them.  The rest
is chosen by the same search, over whole lines rather than step by step:

- from the learner's observation after the first action (derived, not read
  from the real deal), a few ways of playing the rest of the turn are listed,
  each decided from that observation alone: the rules of thumb's own line
  (``usual``); the same melds ending with each of the next two discards the
  rules of thumb rank best; ``keep`` (no further meld: discard now, keeping
  pairs and wild cards in hand); and ``all`` (put down everything that can go
  down, the largest first, then discard, which goes out when nothing is left);
- identical lines count once, and when one line is left there is no choice and
  no search;
- each line is played out as a unit on the same sampled deals (the playouts
  start with the next player), ``PLAN_PLAYOUTS`` playouts shared out among the
  lines (at least ``PLAN_MIN_SAMPLES`` each, or the ``samples`` asked for), with
  a seed derived from the hint's, so the same seed gives the same plan;
- the plan keeps the rules of thumb's line unless another line beats it by
  more than the 95% interval of their paired difference: with a few dozen
  samples per line a smaller lead is noise, and a plan that flips with the
  seed teaches nothing;
- when the hint's first move keeps the hand going although the learner could go
  out (the ``could-go-out`` fact), no line that goes out is offered, so the plan
  never contradicts the explanation.

Where the plan plays steps the rules of thumb would not, the explanation ends
with what those steps do, as the detectors find it from the learner's
observation before each step (a canasta completed, going out, a discard's
facts); steps the rules of thumb would play anyway get no sentence.

The plan's search has this fixed size whatever the hint's budget (``budget`` or
``max_seconds`` bound only the first search), so it repeats exactly.

Why lines and not a search at every step: a turn after taking a big pack can
have six or more steps, and a full search at each would cost several times
the first search (the p95 latency would pass one second of one core); the
lines cost one search of fixed size however long the turn, and score the turn
as played, where a step searched alone is scored with the rules of thumb
playing the rest of the turn.  The lines answer the choices that matter in a
turn (meld everything and perhaps go out, or keep pairs; which card to throw)
and leave the order of melds to the rules of thumb.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import native
from ..actions import format_action
from ..bots import expert
from ..bots.expert import RACE_MIN_ROUND, Estimate, candidate_actions, summarize
from ..bots.sampling import state_from_observation
from ..bots.principles import PRINCIPLES
from ..bots.rules_of_thumb import _meld_points, decide, discard_scores
from ..errors import IllegalActionError
from ..observer import Observation, observe, observe_compact
from ..state import State
from ..variants import Variant
from .detectors import BAD, GOOD, Fact, move_facts
from .refusals import Refusal, refusals

Z95 = 1.96  # a 95% interval is 1.96 standard errors either side
GRADES = (("best", 10.0), ("good", 30.0), ("inaccuracy", 80.0), ("mistake", 200.0))
DEFAULT_PLAYOUTS = 240  # playouts per hint: the budget of the candidates' race
MIN_SAMPLES = 24
#: the race by elimination (cut-off playouts): a move is dropped once it trails the leader by this many paired
#: standard errors (:func:`~canasta_tutor.bots.expert.race_values`, ``drop_z``)
DROP_Z = 2.5
BUDGET_SAMPLES = 100_000  # samples when only a wall-clock budget bounds the search
#: Samba: samples per candidate when :func:`compare` plays both moves on the same deals (Samba's playouts are slow)
SAMBA_SAMPLES = 6

#: Verdicts in words, for the early stages.
ONLY, CLEAR, CLOSE = "the only legal move", "a clear best", "a close call"


@dataclass
class Alternative:
    """A runner-up action, compared with the best on the same sampled deals."""

    action: tuple
    text: str
    value: float
    stderr: float
    gap: float  # best value minus this value
    gap_stderr: float  # standard error of the paired difference
    comparison: str  # "about as good as", "worse than", "much worse than"
    why: str  # facts that make it worse, or "" when there is nothing to say beyond the comparison

    @property
    def uncertainty(self) -> float:
        """Half-width of the 95% interval of :attr:`value`."""
        return Z95 * self.stderr

    @property
    def gap_uncertainty(self) -> float:
        """Half-width of the 95% interval of the paired difference to the best."""
        return Z95 * self.gap_stderr

    @property
    def close(self) -> bool:
        return self.gap <= self.gap_uncertainty

    def sentence(self, best_text: str) -> str:
        """The comparison in words (no figures)."""
        out = f"{self.text[:1].upper()}{self.text[1:]} is {self.comparison} {best_text}"
        return out + (f": {_lower(self.why)}" if self.why else ".")

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.text, "comparison": self.comparison, "why": self.why,
                "value": round(self.value, 1), "uncertainty": round(self.uncertainty, 1),
                "gap": round(self.gap, 1),
                "gap_uncertainty": round(self.gap_uncertainty, 1) if math.isfinite(self.gap_uncertainty) else None}


@dataclass
class Hint:
    """The hint for one decision."""

    seat: int
    best: tuple
    best_text: str
    verdict: str
    value: float | None
    stderr: float | None
    plan: list[str]
    facts: list[Fact]
    refusals: list[Refusal]
    alternatives: list[Alternative]
    principles: list[str]
    rules: list[str]
    nudge: str
    explanation: str
    samples: int
    elapsed_ms: float
    estimates: list[Estimate] = field(default_factory=list, repr=False)
    #: whose points :attr:`value` counts, as :meth:`details` says it (see :func:`_value_words`)
    value_words: str = "points for your side this hand"
    #: False when no search ran (a single candidate: a forced move)
    searched: bool = True

    @property
    def uncertainty(self) -> float | None:
        """Half-width of the 95% interval of :attr:`value` (None for a forced move)."""
        return None if self.stderr is None else Z95 * self.stderr

    def move(self) -> str:
        """The second stage: the move, with the rest of the turn when it follows from known cards."""
        if len(self.plan) > 1:
            return "Play: " + ", then ".join(self.plan) + "."
        return f"Play: {self.best_text}."

    def stages(self) -> list[str]:
        """Staged hints: a nudge in plain words, then the move, then the full explanation."""
        return [self.nudge, self.move(), self.explanation]

    def to_dict(self) -> dict[str, Any]:
        return {
            "best": self.best_text,
            "verdict": self.verdict,
            "value": None if self.value is None else round(self.value, 1),
            "uncertainty": None if self.uncertainty is None else round(self.uncertainty, 1),
            "plan": self.plan,
            "facts": [{"id": f.id, "text": f.text, "kind": f.kind, "rule": f.rule} for f in self.facts],
            "refusals": [r.to_dict() for r in self.refusals],
            "alternatives": [a.to_dict() for a in self.alternatives],
            "principles": [{"id": p, "sentence": PRINCIPLES[p].sentence} for p in self.principles],
            "rules": self.rules,
            "nudge": self.nudge,
            "explanation": self.explanation,
            "samples": self.samples,
            "elapsed_ms": round(self.elapsed_ms, 1),
        }

    def details(self) -> str:
        """The numbers: the best value and each alternative's paired gap, with 95% intervals."""
        if self.value is None or self.uncertainty is None:
            return "No search: only one move is legal."
        lines = [f"{self.best_text}: {self.value:+.0f} ± {self.uncertainty:.0f} {self.value_words} "
                 f"(95%, {self.samples} sampled deals)"]
        for a in self.alternatives:
            lines.append(f"{a.text}: {a.value:+.0f} ± {a.uncertainty:.0f}; {a.gap:.0f} ± {a.gap_uncertainty:.0f} "
                         "behind on the same deals")
        return "\n".join(lines)

    def text(self) -> str:
        """The hint as plain text: the move and verdict, the explanation, then the numbers."""
        lines = [f"Best: {self.best_text} ({self.verdict})"]
        if len(self.plan) > 1:
            lines.append("Plan: " + ", then ".join(self.plan))
        lines.append(self.explanation)
        if self.value is not None:
            lines.append("Details:")
            lines += ["  " + x for x in self.details().splitlines()]
        return "\n".join(lines)


# ------------------------------------------------------------- words
def _principles(facts: list[Fact]) -> list[str]:
    return list(dict.fromkeys(p for f in facts if f.kind != BAD for p in f.principles))


def _rules(facts: list[Fact], refused: list[Refusal]) -> list[str]:
    rules = [r.rule for r in refused] + [f.rule for f in facts if f.rule]
    return list(dict.fromkeys(rules))


def _nudge(action: tuple, facts: list[Fact], phase: str) -> str:
    """A first hint in plain words: where to look, not what to play (no rule numbers, no figures)."""
    ids = {f.id for f in facts}
    verb = action[0]
    if "goes-out" in ids:
        return "Can you get rid of your whole hand this turn?"
    if "top-blocks" in ids or "one-card-pile" in ids:
        return "Look at the top of the pile: can anyone take it?"
    if "stock-empty" in ids:
        return "Look at the stock: what may you still do when it is empty?"
    if "initial-minimum" in ids:
        return "Count what your melds are worth against the minimum your side needs."
    if "frozen-pack" in ids:
        return "Why is the pack hard to take, and what would it take to pick it up?"
    if verb == "take":
        return "Look at the pack before you draw."
    if "stop-three" in ids:
        return "Which of your cards stops the next player from taking the pack?"
    if "safe-discard" in ids:
        return "Which of your cards can the next player not use?"
    if "freezes" in ids:
        return "Think about what the pack is worth to the opponents."
    if "keeps-pairs" in ids:
        return "Which cards do you need to take a frozen pack?"
    if "canasta" in ids or "one-short" in ids or "samba" in ids:
        return "Look at your melds: which one is close to a canasta?"
    if verb == "ask":
        return "Could you go out? Think about your partner's hand."
    if verb in ("yes", "no"):
        return "How many points are you holding?"
    if verb == "discard":
        return "Which card is the least use to you and to the next player?"
    if verb in ("meld", "add"):
        return "Look at your melds: which cards build them?"
    return "Look at the whole table." if phase != "draw" else "Look at the pack before you draw."


def _value_words(obs: Observation) -> str:
    """What a value counts: the side's points less the other side's (classic), less the mean of the
    other sides' (six-handed), or one's own less the others' mean where each plays alone."""
    if obs.variant.n_sides == 2:
        return "points for your side this hand" if obs.partners else "points for you this hand"
    if obs.partners:
        return "points for your side this hand, against the other sides' mean"
    return "points for you this hand, against the others' mean"


def _why_worse(alt_facts: list[Fact], best_facts: list[Fact], best_text: str) -> str:
    """What makes an alternative worse, from facts: its costs, then what the best has that it lacks."""
    bad = [f.text for f in alt_facts if f.kind == BAD]
    have = {f.id for f in alt_facts}
    lacks = [f for f in best_facts if f.kind == GOOD and f.id not in have]
    parts = bad[:2]
    if not parts and lacks:
        parts = [f"it misses what {best_text} gives. {lacks[0].text}"]
    return " ".join(parts)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


#: Student's t at 97.5% for 1..7 degrees of freedom, over ``Z95``: how much wider a 95% interval is when a
#: paired difference rests on 2..8 deals
_T95_OVER_Z = (12.71 / Z95, 4.30 / Z95, 3.18 / Z95, 2.78 / Z95, 2.57 / Z95, 2.45 / Z95, 2.36 / Z95)


def _few_deals(stderr: float, deals: int) -> float:
    """Samba's race drops candidates after two or three deals: on so few, an interval of ``Z95`` standard errors
    is far too narrow, so the standard error is widened to give Student's t interval for the deals played (a
    difference on one deal tells nothing: no bound at all)."""
    if deals < 2:
        return math.inf
    return stderr * _T95_OVER_Z[deals - 2] if deals - 2 < len(_T95_OVER_Z) else stderr


def _comparison(gap: float, gap_stderr: float) -> str:
    if gap <= Z95 * gap_stderr:
        return "about as good as"
    if gap >= 200:
        return "much worse than"
    return "worse than"


def _verdict(alts: list[Alternative]) -> str:
    if not alts:
        return ONLY
    # clear only when every alternative shown is worse beyond its interval: a move the race dropped early
    # was played on fewer deals, so it can still be "about as good" when the runner-up is not
    return CLOSE if any(a.close for a in alts) else CLEAR


#: Facts that say again what a refusal already said, when the refusal cites the same rule.
_REPEATS = frozenset({"top-blocks", "one-card-pile", "stock-empty", "pair-needed"})


def _explanation(best_text: str, verdict: str, facts: list[Fact], refused: list[Refusal],
                 alts: list[Alternative], principles: list[str]) -> str:
    if verdict == ONLY:
        out = [f"{best_text[:1].upper()}{best_text[1:]} is the only legal move."]
        out += [r.text for r in refused]
        said = {r.rule for r in refused}
        out += [f.text for f in facts if f.kind != BAD and not (f.id in _REPEATS and f.rule in said)]
        return " ".join(out)
    out = [f"{best_text[:1].upper()}{best_text[1:]} is {verdict}."]
    out += [f.text for f in facts]
    out += [PRINCIPLES[p].sentence for p in principles]
    out += [a.sentence(best_text) for a in alts[:2]]
    return " ".join(out)


# ------------------------------------------------------------- search
def samples_for(candidates: int, playouts: int = DEFAULT_PLAYOUTS) -> int:
    """Samples of the hidden cards for a search over ``candidates`` actions: the playout
    budget shared out, but never fewer than MIN_SAMPLES.

    >>> samples_for(2), samples_for(8)
    (120, 30)
    """
    return max(MIN_SAMPLES, playouts // max(1, candidates))


def race_budget(variant: Variant) -> int:
    """The playouts of the default hint's race in ``variant``: its ``hint_playouts``, else ``DEFAULT_PLAYOUTS``.

    >>> from canasta_tutor.variants import get_variant
    >>> race_budget(get_variant("classic")), race_budget(get_variant("samba"))
    (1600, 24)
    """
    return variant.hint_playouts or DEFAULT_PLAYOUTS


def compiled_search(variant: Variant) -> bool:
    """Whether the hint searches ``variant`` on the compiled copy (:mod:`canasta_tutor.native`) in this process:
    every variant does where the copy is built."""
    return native.engine() is not None


def _searcher(obs: Observation, state: State) -> tuple[Any, Any]:
    """The search's functions and the state they start from, for the position of ``obs`` (``state``, made
    from it): the compiled copy's where it is built (the state crosses as plain data), else the pure ones.
    The two give the same values."""
    fast = native.engine()
    return (expert, state) if fast is None else (fast, state)


def analyse(obs: Observation, samples: int | None = None, seed: int = 0, max_seconds: float | None = None,
            wide: bool = True, extra: tuple | None = None,
            playouts: int | None = None) -> tuple[State, list[Estimate]]:
    """Search the position of ``obs``; estimates for the candidate actions, best first.

    With ``samples``, every candidate is played out on the same ``samples`` sampled deals (the
    puzzles' verification search).  Without, the candidates race (:func:`~canasta_tutor.bots.expert.race`)
    for a budget of ``playouts`` playouts (default: the variant's ``hint_playouts``, else
    ``DEFAULT_PLAYOUTS``): by elimination where playouts are cut off (see the module docstring), by
    successive halving in Samba.  ``extra`` is an action searched whether or not it is a candidate, and a
    race by elimination never drops it (a move being graded is measured against the best on as many deals
    as the best)."""
    if obs.actor != obs.seat:
        raise IllegalActionError("R-TURN-1", "It is not this seat's turn to act")
    state = state_from_observation(obs)
    cands = candidate_actions(state, obs.seat, wide=wide)
    if extra is not None and extra not in cands:
        cands.append(extra)
    keep = None if extra is None else cands.index(extra)
    if len(cands) == 1:
        return state, [Estimate(cands[0], 0.0, 0.0, 0)]
    engine, start = _searcher(obs, state)
    if samples is None:
        # a variant may declare its own budget (Variant.hint_playouts)
        own = playouts is None and obs.variant.hint_playouts is not None
        turns = obs.variant.playout_turns
        values = engine.race_values(start, obs.seat, cands, playouts or race_budget(obs.variant), seed, max_seconds,
                                    (obs.variant.hint_min_round or RACE_MIN_ROUND) if own else RACE_MIN_ROUND,
                                    turns, drop_z=DROP_Z if turns is not None else None, keep=keep)
        return state, summarize(cands, values)
    return state, summarize(cands, engine.sample_values(start, obs.seat, cands, samples, seed, max_seconds))


#: Verbs after which the rest of the turn still follows from cards the learner knows (Samba's own four too).
_CONTINUES = frozenset(("take", "meld", "add", "run", "put", "join", "takeon"))
#: Verbs that end a plan before they are played: what follows depends on a hidden card or on another seat.
_STOPS = frozenset(("draw", "ask"))
#: The ways of playing the rest of the turn that the plan compares (see the module docstring).
LINES = ("usual", "keep", "all")
PLAN_PLAYOUTS = 96  # playouts for the plan's search, shared out among the lines
OTHER_DISCARDS = 2  # the usual line also ends with each of this many other discards
PLAN_MIN_SAMPLES = 8
MAX_PLAN_STEPS = 40


def plan_playouts(variant: Variant) -> int:
    """The plan's playouts in ``variant``: ``PLAN_PLAYOUTS``, cut in the proportion of the variant's smaller
    hint budget (``Variant.hint_playouts``) where it declares one (a larger budget, for cut-off playouts,
    leaves the plan's as it is)."""
    return PLAN_PLAYOUTS * min(race_budget(variant), DEFAULT_PLAYOUTS) // DEFAULT_PLAYOUTS


def _takes_unseen(state: State, action: tuple) -> bool:
    """Whether ``action`` takes a pack holding cards laid face down (R-ITAL-3): what follows depends on
    cards nobody has seen, so a plan stops there."""
    return action[0] == "take" and state.pile_hidden > 0


def _plan_seed(seed: int, stage: int) -> int:
    """The seed of the plan's ``stage``-th search, derived from the hint's seed."""
    return (seed * 1_000_003 + stage * 7_919) & 0xFFFFFFFF


def _line_step(s: State, seat: int, line: str) -> tuple:
    """The next step of ``line`` on ``s``, from the learner's observation only.  ``usual``: as the
    rules of thumb play it; ``keep``: no further meld, discard now (keep pairs and wild cards in
    hand); ``all``: meld and add everything that can go down (the largest first), then discard,
    which goes out when nothing is left."""
    legal = s.legal_actions()
    obs = observe_compact(s, seat, legal)
    if line == "usual" or s.phase != "meld" or len(legal) == 1:
        return decide(obs)[0]
    melds = [a for a in legal if a[0] in ("meld", "add")]
    discards = [a for a in legal if a[0] == "discard"]
    if line == "all" and melds:
        return max(melds, key=lambda a: (_meld_points(a), a))
    if discards:
        scores = discard_scores(obs)
        return min(discards, key=lambda a: (scores.get(a[1], 0.0), a[1]))
    return decide(obs)[0]


def _line(s1: State, seat: int, line: str) -> list[tuple]:
    """The steps of ``line`` from ``s1`` (the state after the plan's first action) to the end of the
    turn: a discard or going out, or just before a draw or an ask."""
    s = s1.copy()
    out: list[tuple] = []
    for _ in range(MAX_PLAN_STEPS):
        if s.actor != seat or s.phase not in ("meld", "draw"):
            break
        a = _line_step(s, seat, line)
        if a[0] in _STOPS:
            break
        out.append(a)
        hidden = _takes_unseen(s, a)
        s.apply_unchecked(a)
        if a[0] not in _CONTINUES or hidden:
            break
    return out


def _gated(est: list[Estimate], usual: tuple) -> tuple:
    """The search's best, or ``usual`` unless the best beats it by more than the 95% interval of
    their paired difference."""
    top = est[0]
    if top.action == usual:
        return usual
    mine = next(e for e in est if e.action == usual)
    return top.action if top.mean - mine.mean > Z95 * mine.diff_stderr else usual


def _played(s: State, actions: Sequence[tuple]) -> State:
    """A copy of ``s`` after ``actions``."""
    s = s.copy()
    for a in actions:
        s.apply_unchecked(a)
    return s


def _other_discards(s1: State, seat: int, line: list[tuple], count: int) -> list[tuple[tuple, ...]]:
    """``line`` ending instead with each of the next ``count`` discards the rules of thumb rank best."""
    if not line or line[-1][0] != "discard":
        return []
    s = _played(s1, line[:-1])
    legal = s.legal_actions()
    discards = [a for a in legal if a[0] == "discard" and a != line[-1]]
    scores = discard_scores(observe_compact(s, seat, legal))
    discards.sort(key=lambda a: (scores.get(a[1], 0.0), a[1]))
    return [(*line[:-1], d) for d in discards[:count]]


def _goes_out(s1: State, line: tuple[tuple, ...]) -> bool:
    return _played(s1, line).went_out is not None


def _plan_actions(state: State, seat: int, best: tuple, seed: int, samples: int | None,
                  stay_in: bool = False) -> tuple[list[tuple], list[tuple]]:
    """The whole-turn plan as actions: ``best``, then the rest of the turn while it follows from
    known cards, the line the search finds best (see the module docstring); and the rules of
    thumb's line after ``best``."""
    if best[0] not in _CONTINUES or _takes_unseen(state, best):
        return [best], []
    after = _played(state, [best])  # a take, meld or add moves only the learner's own and public cards
    o1 = observe(after, seat)  # the learner's observation after the first action
    s1 = state_from_observation(o1)
    usual = _line(s1, seat, "usual")
    if state.variant.sequences:  # Samba: the rules of thumb's line, not searched (its playouts are slow)
        return [best, *usual], usual
    lines = [tuple(usual), *_other_discards(s1, seat, usual, OTHER_DISCARDS)]
    lines += [tuple(_line(s1, seat, name)) for name in LINES[1:]]
    lines = list(dict.fromkeys(lines))
    if stay_in:  # the hint says this move keeps the hand going: no other line goes out
        lines = lines[:1] + [x for x in lines[1:] if not _goes_out(s1, x)]
    if len(lines) == 1:
        return [best, *usual], usual
    n = max(PLAN_MIN_SAMPLES, samples if samples is not None else plan_playouts(state.variant) // len(lines))
    turns = state.variant.playout_turns if samples is None else None  # as the race that chose ``best``
    engine, start = _searcher(o1, s1)
    est = summarize(list(lines), engine.sample_line_values(start, seat, lines, n, _plan_seed(seed, 1), None, turns))
    return [best, *_gated(est, lines[0])], usual


def _plan_sentences(obs: Observation, plan: list[tuple], usual: list[tuple]) -> list[str]:
    """What the plan's own steps do (those the rules of thumb would not play this turn), where
    the detectors find it (a canasta completed, going out, a safer discard...): one sentence per
    run of equal steps, each step's facts read from the learner's observation before it."""
    left = Counter(usual)
    state = state_from_observation(obs)
    state.apply_unchecked(plan[0])
    out: list[str] = []
    i = 1
    while i < len(plan):
        j = i
        facts: dict[str, str] = {}
        own = False
        while j < len(plan) and plan[j] == plan[i]:
            if left[plan[j]]:
                left[plan[j]] -= 1
            else:
                own = True
            facts.update((f.id, f.text) for f in move_facts(observe(state, obs.seat), plan[j]) if f.kind == GOOD)
            state.apply_unchecked(plan[j])
            j += 1
        if "canasta" in facts:  # the run ends in a canasta: "one short" was only on the way
            facts.pop("one-short", None)
        if own and facts:
            step = format_action(plan[i]) + (f" (x{j - i})" if j - i > 1 else "")
            out.append(f"After {format_action(plan[0])}, {step}: {_lower(' '.join(facts.values()))}")
        i = j
    return out


def _plan(state: State, seat: int, best: tuple, seed: int, samples: int | None = None,
          stay_in: bool = False) -> list[str]:
    """The whole-turn plan after ``best`` as text (see :func:`_plan_actions`)."""
    return _compress([format_action(a) for a in _plan_actions(state, seat, best, seed, samples, stay_in)[0]])


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


def hint(obs: Observation, samples: int | None = None, seed: int = 0, max_seconds: float | None = None,
         budget: float | None = None, iterations: int | None = None) -> Hint:
    """The hint for the seat of ``obs``, which must be the seat to act.

    The search takes ``samples`` samples of the hidden cards (default: :func:`samples_for`
    the number of candidate moves), the same for every candidate, so the same ``seed``
    always gives the same hint.  ``max_seconds`` caps the search by wall-clock time (then
    the result depends on the machine); ``budget`` searches for that many seconds with no
    sample limit unless ``samples`` is given.  ``iterations`` is the old name of ``samples``.
    The whole-turn plan (see the module docstring) plays out each of its lines on ``samples``
    sampled deals when given (at least ``PLAN_MIN_SAMPLES``), else ``PLAN_PLAYOUTS`` shared out.
    """
    start = time.perf_counter()
    samples = samples if samples is not None else iterations
    if budget is not None:
        state, est = analyse(obs, samples if samples is not None else BUDGET_SAMPLES, seed, budget)
    else:
        state, est = analyse(obs, samples, seed, max_seconds)
    best = est[0]
    best_text = format_action(best.action)
    facts = move_facts(obs, best.action, state)
    forced = len(obs.legal_actions) == 1
    refused = refusals(state, list(obs.legal_actions)) if forced else []
    alts: list[Alternative] = []
    for e in est[1:4]:
        gap = e.gap
        alt_facts = move_facts(obs, e.action, state)
        gap_stderr = _few_deals(e.diff_stderr, min(e.samples, best.samples)) if obs.variant.sequences else e.diff_stderr
        comparison = _comparison(gap, gap_stderr)
        why = "" if comparison == "about as good as" else _why_worse(alt_facts, facts, best_text)
        # a move the race dropped early was played on fewer deals: its value is read as the best's
        # less the paired gap, so that value and gap tell the same story
        value = e.mean if e.samples == best.samples else best.mean - gap
        alts.append(Alternative(e.action, format_action(e.action), value, e.stderr, gap, gap_stderr,
                                comparison, why))
    principles = [] if forced else _principles(facts)
    stay_in = any(f.id == "could-go-out" for f in facts)  # the explanation says this move does not go out
    verdict = _verdict(alts) if not forced else ONLY
    plan, usual = _plan_actions(state, obs.seat, best.action, seed, samples, stay_in)
    explanation = _explanation(best_text, verdict, facts, refused, alts, principles)
    explanation = " ".join([explanation, *_plan_sentences(obs, plan, usual)])
    return Hint(
        seat=obs.seat, best=best.action, best_text=best_text, verdict=verdict,
        value=None if forced else best.mean, stderr=None if forced else best.stderr,
        plan=_compress([format_action(a) for a in plan]), facts=facts,
        refusals=refused, alternatives=alts,
        principles=principles, rules=_rules(facts, refused), nudge=_nudge(best.action, facts, obs.phase),
        explanation=explanation, samples=best.samples, elapsed_ms=(time.perf_counter() - start) * 1000, estimates=est,
        value_words=_value_words(obs), searched=best.samples > 0,
    )


def explain_move(obs: Observation, action: tuple) -> list[str]:
    """The facts-based sentences for any legal ``action`` of the seat to act (no search).

    For a forced move the refusals of the other verbs come first."""
    if obs.actor != obs.seat:
        raise IllegalActionError("R-TURN-1", "It is not this seat's turn to act")
    if action not in obs.legal_actions:
        raise IllegalActionError("R-TURN-2", f"{format_action(action)!r} is not legal here", action)
    state = state_from_observation(obs)
    out = []
    if len(obs.legal_actions) == 1:
        out = [r.text for r in refusals(state, list(obs.legal_actions))]
    return out + [f.text for f in move_facts(obs, action, state)]


def compare(obs: Observation, action: tuple, best: tuple, samples: int | None = None, seed: int = 0) -> Alternative:
    """``action`` compared with ``best`` (say, a puzzle's answer) the way the hint compares a
    runner-up: both played out on the same sampled deals (``samples``, default
    :func:`samples_for` two candidates), "about as good as" when the gap lies inside the 95%
    interval of the paired difference, else worse, with the facts that make it worse."""
    if obs.actor != obs.seat:
        raise IllegalActionError("R-TURN-1", "It is not this seat's turn to act")
    for a in (action, best):
        if a not in obs.legal_actions:
            raise IllegalActionError("R-TURN-2", f"{format_action(a)!r} is not legal here", a)
    state = state_from_observation(obs)
    n = samples if samples is not None else SAMBA_SAMPLES if obs.variant.sequences else samples_for(2)
    engine, start = _searcher(obs, state)
    values = engine.sample_values(start, obs.seat, [best, action], n, seed)
    est = {e.action: e for e in summarize([best, action], values)}
    mine, top = est[action], est[best]
    gap = top.mean - mine.mean
    gap_stderr = max(mine.diff_stderr, top.diff_stderr)  # the one not ranked first carries the paired error
    if obs.variant.sequences:
        gap_stderr = _few_deals(gap_stderr, min(mine.samples, top.samples))
    best_text = format_action(best)
    comparison = _comparison(gap, gap_stderr)
    why = "" if comparison == "about as good as" else _why_worse(move_facts(obs, action, state),
                                                                 move_facts(obs, best, state), best_text)
    return Alternative(action, format_action(action), mine.mean, mine.stderr, gap, gap_stderr, comparison, why)


# ------------------------------------------------------------- grades
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


def grade(obs: Observation, action: tuple, seed: int = 0, samples: int | None = None,
          iterations: int | None = None) -> Grade:
    """Grade a learner's action against the best, by the value it loses (deterministic for a seed).
    ``iterations`` is the old name of ``samples``."""
    samples = samples if samples is not None else iterations
    if obs.actor == obs.seat and action not in obs.legal_actions:
        raise IllegalActionError("R-TURN-2", f"{format_action(action)!r} is not legal here", action)
    _, est = analyse(obs, samples, seed, None, extra=action)
    best = est[0]
    mine = next(e for e in est if e.action == action)
    # the loss counts only beyond one standard error of the paired difference, so that
    # sampling noise never grades a move down
    loss = max(0.0, mine.gap - mine.diff_stderr)
    return Grade(action, "best" if mine is best else grade_loss(loss), loss, best.action)


__all__ = ["Hint", "Alternative", "Grade", "Fact", "Refusal", "hint", "grade", "grade_loss", "explain_move",
           "analyse", "race_budget", "samples_for", "compare"]
