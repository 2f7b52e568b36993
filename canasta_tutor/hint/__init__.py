"""The hint: the best legal move for the seat to act, and why, from facts.

:func:`hint` searches the position seen by one seat (an
:class:`~canasta_tutor.engine.observer.Observation`; it never sees hidden cards) with
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
``hint_min_round`` = 2), ``hint_few_deals`` = 6 deals a move for :func:`compare` (``SAMBA_SAMPLES``), and a
whole-turn plan that is the rules of thumb's line, not searched (any variant that sets ``hint_few_deals``).
Its facts are Samba's own where the classic ones cannot read numbered melds (:mod:`.detectors`, for any
variant with ``numbered_melds``).

:func:`grade` rates any legal action a learner proposes by the value it loses
against the hint's own best (the same search with the same seed: one judge, so a
grade never calls a move best while the hint names another), on the sampled deals
the hint's search played, counting only the part of the loss beyond one standard
error of the paired difference (so sampling noise never grades a move down).
:func:`grade_line` does the same for the whole line one click plays (a meld and its
additions) against the hint's plan.  The thresholds (points of the hand's expected
margin lost: the side's score less the other side's, the figure the details show):

=============  ==========================================
best           the hint's own move (a line: what its plan leaves)
good           less than 30 points lost (within 10: as good as the best, but not it)
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

Then each later step of the chosen line that has a choice is graded (:func:`grade`,
the hint's seed and samples, from the learner's observation before the step; with the
default race a race of a quarter of its budget looks first, then, if needed, the step and that
race's best on 200 shared deals, and only a step whose loss neither look's 95% interval keeps
below a mistake's 80 points is graded in full): a step graded a mistake or a blunder is
replaced by the graded best, and the rest of the
turn is the rules of thumb's line from there, so a plan never holds a move its own
grade calls a mistake (``benchmarks/hint_sweep.py`` counts them on the real deals).
These searches cost a hint with a plan about as much again (figures in
``benchmarks/README.md``); they are kept (:data:`SEARCH_CACHE`), so the hint the
learner asks for after playing the plan's first step is already made.

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

import contextlib
import math
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots import native
from ..notation.actions import format_action
from . import budget
from ..bots import expert
from ..bots.expert import RACE_MIN_ROUND, Estimate, candidate_actions, summarize
from ..bots.sampling import state_from_observation
from ..bots.principles import PRINCIPLES
from ..bots.rules_of_thumb import meld_points, decide, discard_scores
from ..engine.errors import IllegalActionError
from ..engine.observer import Observation, observe, observe_compact
from ..engine.state import State
from ..engine.variants import Variant, get_variant
from .detectors import BAD, GOOD, Fact, check_claim, move_facts
from .refusals import Refusal, refusals

Z95 = 1.96  # a 95% interval is 1.96 standard errors either side
GRADES = (("best", 10.0), ("good", 30.0), ("inaccuracy", 80.0), ("mistake", 200.0))
DEFAULT_PLAYOUTS = 240  # playouts per hint: the budget of the candidates' race
MIN_SAMPLES = 24
#: the race by elimination (cut-off playouts): a move is dropped once it trails the leader by this many paired
#: standard errors (:func:`~canasta_tutor.bots.expert.race_values`, ``drop_z``)
DROP_Z = 2.5
BUDGET_SAMPLES = 100_000  # samples when only a wall-clock budget bounds the search
#: Samba: samples per candidate when :func:`compare` plays both moves on the same deals (Samba's playouts are slow):
#: its variant's ``hint_few_deals``, the field the hint reads
SAMBA_SAMPLES: int = get_variant("samba").hint_few_deals or MIN_SAMPLES

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
    why: str  # facts that make it worse, or what the search alone can say (see :func:`_why_worse`)
    #: the move is a later step of the hint's own plan: the comparison is about the order only
    in_plan: bool = False

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
        """The comparison in words: the facts that make the move worse, or, where no detector names one,
        the search's own figure in points (see :func:`_why_worse`)."""
        cap = f"{self.text[:1].upper()}{self.text[1:]}"
        if self.in_plan and self.action[0] == "discard":  # the plan discards it too, at the end of its turn
            head = f"{cap} at once would end the turn before {best_text}; the plan discards it too, after"
            if self.comparison == "about as good as":
                return head + "."
            return f"{head}: ending the turn now scores about {self.gap:.0f} points less on the same sampled deals."
        if self.in_plan:  # the plan plays both: what differs is only which comes first
            if self.comparison == "about as good as":
                return f"{cap} is in the plan too, after {best_text}; the order makes no difference the search can see."
            return (f"{cap} is in the plan too, after {best_text}; playing it first scores about {self.gap:.0f} points "
                    "less on the same sampled deals.")
        out = f"{cap} is {self.comparison} {best_text}"
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
    #: what :attr:`value` is, as :meth:`details` says it (see :func:`_value_words`)
    value_words: str = "expected points this hand: your side's score less the other side's"
    #: False when no search ran (a single candidate: a forced move)
    searched: bool = True
    #: the whole-turn plan as actions (:attr:`plan` is its text, repeats folded)
    plan_actions: list[tuple] = field(default_factory=list, repr=False)
    #: what the explanation says a player could do, each checked by the engine (see
    #: :attr:`~.detectors.Fact.claims`); the sentences that make them are in :attr:`explanation`
    claims: list[tuple[tuple | None, int, tuple]] = field(default_factory=list, repr=False)
    #: the sentences (facts' texts) that make :attr:`claims`
    claimed: list[str] = field(default_factory=list, repr=False)

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
        lines = [f"Each figure is the {self.value_words}, averaged over sampled deals of the hidden cards, "
                 "± its 95% interval.",
                 f"{self.best_text}: {self.value:+.0f} ± {self.uncertainty:.0f} ({self.samples} sampled deals)"]
        for a in self.alternatives:
            lines.append(f"{a.text}: {a.value:+.0f} ± {a.uncertainty:.0f}; {a.gap:.0f} ± {a.gap_uncertainty:.0f} "
                         "points behind on the same deals")
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


def nudge(obs: Observation, action: tuple) -> str:
    """The first stage of a hint whose move is ``action`` (no search): where to look, in plain words, from
    the facts of that move.  The hint's own nudge is this for its best move; a puzzle's trainer asks it for
    the verified answer."""
    return _nudge(action, move_facts(obs, action), obs.phase)


def _value_words(obs: Observation) -> str:
    """What a value is: the expected score of the hand for the learner's side less the other side's
    (classic), less the mean of the other sides' (six-handed), or one's own less the others' mean where
    each plays alone.  A margin, not a score: it can pass anything one side could score alone.

    >>> from canasta_tutor import Game
    >>> _value_words(observe(Game().new_initial_state(seed=1), 0))
    "expected points this hand: your side's score less the other side's"
    """
    if obs.variant.n_sides == 2:
        return ("expected points this hand: your side's score less the other side's" if obs.partners
                else "expected points this hand: your score less your opponent's")
    if obs.partners:
        return "expected points this hand: your side's score less the mean of the other sides'"
    return "expected points this hand: your score less the mean of the others'"


#: What a good fact gives, in a few words, for "it misses what X gives: ..." when the fact was said already.
GAINS = {
    "canasta": "the canasta", "samba": "the samba", "goes-out": "going out", "concealed": "going out concealed",
    "concealed-chance": "the concealed go-out", "one-short": "a meld one card short of a canasta",
    "safe-discard": "a discard the next player cannot take", "stop-three": "the stop of a black three",
    "freezes": "freezing the pack", "keeps-pairs": "keeping your pairs against a frozen pack",
    "pair-needed": "taking the frozen pack with your pair", "stock-empty": "the take the empty stock requires",
    "initial-minimum": "your initial meld", "pack-size": "the pack", "ask-binds": "asking your partner",
    "partner-hand": "your partner's say", "answer-points": "the answer your hand calls for",
    "canastas-needed": "the canastas your side needs", "take-on": "the pack",
}


def _why_worse(alt_facts: list[Fact], best_facts: list[Fact], best_text: str, gap: float,
               said: bool = True) -> str:
    """What makes an alternative worse: its costs (bad facts), else what the best has that it lacks (a good
    fact; in a few words when ``said``, the explanation having told it already, so no sentence is told
    twice), else, honestly, the search's figure: it prefers the best by ``gap`` points for reasons no
    detector names."""
    bad = [f.text for f in alt_facts if f.kind == BAD]
    have = {f.id for f in alt_facts}
    lacks = [f for f in best_facts if f.kind == GOOD and f.id not in have]
    parts = bad[:2]
    if not parts and lacks:
        if not said:
            parts = [f"it misses what {best_text} gives. {lacks[0].text}"]
        else:
            gain = GAINS.get(lacks[0].id)
            parts = [f"it misses what {best_text} gives: {gain}." if gain else
                     f"it misses the reason given above for {best_text}."]
    if not parts:
        parts = [f"no fact the hint can name makes the difference, but the search prefers {best_text} by about "
                 f"{gap:.0f} points on the same sampled deals."]
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
        return " ".join(dict.fromkeys(out))
    out = [f"{best_text[:1].upper()}{best_text[1:]} is {verdict}."]
    out += [f.text for f in facts]
    out += [PRINCIPLES[p].sentence for p in principles]
    out += [a.sentence(best_text) for a in alts[:2]]
    return " ".join(dict.fromkeys(out))  # no sentence twice


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

    >>> from canasta_tutor.engine.variants import get_variant
    >>> race_budget(get_variant("classic")), race_budget(get_variant("samba"))
    (1600, 24)
    """
    return budget.scaled(variant.hint_playouts or DEFAULT_PLAYOUTS)  # a share of it in the browser (budget.py)


def compiled_search(variant: Variant) -> bool:
    """Whether the hint searches ``variant`` on the compiled copy (:mod:`canasta_tutor.bots.native`) in this process:
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
    key = _search_key(obs, (samples, seed, wide, extra, playouts)) if max_seconds is None else None
    kept = _SEARCHES.get(key) if key is not None else None
    if key is not None and kept is not None:  # read once: a review in a background thread may evict it meanwhile
        with contextlib.suppress(KeyError):
            _SEARCHES.move_to_end(key)
        return state_from_observation(obs), [replace(e) for e in kept]
    state, est = _analyse(obs, samples, seed, max_seconds, wide, extra, playouts)
    if key is not None:
        _SEARCHES[key] = [replace(e) for e in est]
        while len(_SEARCHES) > SEARCH_CACHE:
            with contextlib.suppress(KeyError):  # another thread emptied it first
                _SEARCHES.popitem(last=False)
    return state, est


#: how many searches :func:`analyse` keeps (least recently used first out): the plan's checks search the
#: positions the learner's next hints will ask about, and the coach the one its hint searched
SEARCH_CACHE = 64
_SEARCHES: OrderedDict[tuple, list[Estimate]] = OrderedDict()


def _search_key(obs: Observation, args: tuple) -> tuple | None:
    """What a search's result depends on: the seat's whole view (its position text and the public history),
    the variant and rules, and the search's arguments; None for a compact observation (no text)."""
    try:
        text = obs.position_text
    except AttributeError:
        return None
    return (text, obs.history, obs.variant.name, repr(obs.options), obs.seat, obs.legal_actions, args)


def _analyse(obs: Observation, samples: int | None, seed: int, max_seconds: float | None, wide: bool,
             extra: tuple | None, playouts: int | None) -> tuple[State, list[Estimate]]:
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
    """Whether ``action`` brings cards nobody has seen into the hand (a pack holding cards laid face down,
    R-ITAL-3; a packet taken up, R-PEN-4): what follows depends on them, so a plan stops there."""
    return state.reveals_hidden(action)


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
        return max(melds, key=lambda a: (meld_points(a), a))
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
    if state.variant.hint_few_deals is not None:  # slow playouts (Samba): the rules of thumb's line, not searched
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


def _plan_sentences(obs: Observation, plan: list[tuple], usual: list[tuple]
                    ) -> tuple[list[str], list[tuple[tuple, tuple[tuple | None, int, tuple], str]]]:
    """What the plan's own steps do (those the rules of thumb would not play this turn), where
    the detectors find it (a canasta completed, going out, a safer discard...): one sentence per
    run of equal steps, each step's facts read from the learner's observation before it.  With the
    claims those sentences make, each with the plan's steps before it (see :attr:`Hint.claims`)."""
    left = Counter(usual)
    state = state_from_observation(obs)
    state.apply_unchecked(plan[0])
    out: list[str] = []
    claims: list[tuple[tuple, tuple[tuple | None, int, tuple], str]] = []
    i = 1
    while i < len(plan):
        j = i
        facts: dict[str, Fact] = {}
        at: dict[str, tuple] = {}
        own = False
        while j < len(plan) and plan[j] == plan[i]:
            if left[plan[j]]:
                left[plan[j]] -= 1
            else:
                own = True
            for f in move_facts(observe(state, obs.seat), plan[j]):
                if f.kind == GOOD:
                    facts[f.id], at[f.id] = f, tuple(plan[:j])
            state.apply_unchecked(plan[j])
            j += 1
        if "canasta" in facts:  # the run ends in a canasta: "one short" was only on the way
            facts.pop("one-short", None)
        if own and facts:
            step = format_action(plan[i]) + (f" (x{j - i})" if j - i > 1 else "")
            out.append(f"After {format_action(plan[0])}, {step}: {_lower(' '.join(f.text for f in facts.values()))}")
            claims += [(at[k], c, f.text) for k, f in facts.items() for c in f.claims]
        i = j
    return out, claims


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
    sampled deals when given (at least ``PLAN_MIN_SAMPLES``), else ``PLAN_PLAYOUTS`` shared out;
    then each of its later steps is graded (:func:`grade`, the same seed and samples) where it
    has a choice, and a step graded a mistake or worse is replaced by the graded best (the plan
    goes on from there as the rules of thumb play it, or stops before a draw or an ask).
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
    principles = [] if forced else _principles(facts)
    stay_in = any(f.id == "could-go-out" for f in facts)  # the explanation says this move does not go out
    plan, usual = _plan_actions(state, obs.seat, best.action, seed, samples, stay_in)
    plan = _checked_plan(obs, state, plan, seed, samples)
    if stay_in and len(plan) > 1 and _played(state, plan).went_out is not None:
        # a later step of the turn was graded a mistake and the graded best goes out: the plan goes out, so
        # the explanation must not say that this turn keeps the hand going
        facts = [f for f in facts if f.id != "could-go-out"]
        principles = [] if forced else _principles(facts)
    later = set(plan[1:])
    alts: list[Alternative] = []
    said_facts: list[Fact] = list(facts)
    for e in est[1:4]:
        gap = e.gap
        alt_facts = move_facts(obs, e.action, state)
        gap_stderr = (_few_deals(e.diff_stderr, min(e.samples, best.samples)) if obs.variant.hint_few_deals is not None
                      else e.diff_stderr)
        comparison = _comparison(gap, gap_stderr)
        in_plan = e.action in later
        why = "" if comparison == "about as good as" or in_plan else _why_worse(alt_facts, facts, best_text, gap)
        said_facts += [f for f in alt_facts if f.kind == BAD]
        # a move the race dropped early was played on fewer deals: its value is read as the best's
        # less the paired gap, so that value and gap tell the same story
        value = e.mean if e.samples == best.samples else best.mean - gap
        alts.append(Alternative(e.action, format_action(e.action), value, e.stderr, gap, gap_stderr,
                                comparison, why, in_plan))
    verdict = _verdict(alts) if not forced else ONLY
    explanation = _explanation(best_text, verdict, facts, refused, alts, principles)
    steps, step_claims = _plan_sentences(obs, plan, usual)
    explanation = " ".join([explanation, *steps])
    claimed = [f for f in said_facts if f.claims and f.text[1:] in explanation]
    claims = [c for f in claimed for c in f.claims]
    claims += [c for prefix, c, _ in step_claims if not prefix]
    claims += [_prefixed(prefix, c) for prefix, c, _ in step_claims if prefix]
    return Hint(
        seat=obs.seat, best=best.action, best_text=best_text, verdict=verdict,
        value=None if forced else best.mean, stderr=None if forced else best.stderr,
        plan=_compress([format_action(a) for a in plan]), facts=facts,
        refusals=refused, alternatives=alts,
        principles=principles, rules=_rules(facts, refused), nudge=_nudge(best.action, facts, obs.phase),
        explanation=explanation, samples=best.samples, elapsed_ms=(time.perf_counter() - start) * 1000, estimates=est,
        value_words=_value_words(obs), searched=best.samples > 0, plan_actions=list(plan),
        claims=list(dict.fromkeys(claims)),
        claimed=list(dict.fromkeys([f.text for f in claimed] + [t for _, _, t in step_claims])),
    )


#: the plan's first look at a step: a race of this share of the hint's budget; a step is graded in full unless
#: that look rules out a mistake (a mistake loses ``MISTAKE_LOSS`` points or more): unless the upper end of the
#: 95% interval of the paired difference it measured on its few deals stays below that
SCREEN_SHARE = 4
MISTAKE_LOSS = dict(GRADES)["inaccuracy"]


def _rules_out_mistake(loss: float, stderr: float) -> bool:
    """Whether a look's measure rules out a mistake: ``loss`` is the paired difference less one standard
    error (or 0), so the upper end of the difference's 95% interval is at most ``loss + (1 + Z95) * stderr``."""
    return loss + (1 + Z95) * stderr < MISTAKE_LOSS


def _step_grade(obs: Observation, action: tuple, seed: int, samples: int | None) -> tuple[Grade | None, int]:
    """The grade of a later step of the plan, or None where a look rules out a mistake, with the playouts the
    looks asked for (the plan's checks spend at most :func:`plan_check_budget` of them). With the default
    race, a race of a quarter of its budget looks first; a step whose loss could still reach a mistake's
    (``MISTAKE_LOSS``) within the 95% interval of that look gets a second look, the step and the first look's
    best played on the same sampled deals, as many as the first look's playouts allow two moves (200 in
    classic: the first look often measured the step on a few dozen deals, after its race dropped it); a step
    the second look cannot clear either is graded in full, by :func:`grade` itself; with ``samples``,
    :func:`grade` at once.  So the plan costs little more where its steps are plainly sound, and a step is
    never passed unless a look's interval rules out a mistake."""
    spent = 0
    if samples is None and obs.variant.hint_few_deals is None:
        looks = max(1, race_budget(obs.variant) // SCREEN_SHARE)
        first = grade(obs, action, seed=seed, playouts=looks)
        spent += looks
        if _rules_out_mistake(first.loss, first.stderr):
            return None, spent
        deals = looks // 2
        if first.deals < deals:
            gap, se = _paired(obs, state_from_observation(obs), [(first.best,), (action,)], deals, seed, None)
            spent += 2 * deals
            if _rules_out_mistake(max(0.0, gap - se), se):
                return None, spent
    full = grade(obs, action, seed=seed, samples=samples)
    spent += race_budget(obs.variant) + 2 * full.deals if samples is None else 0
    return full, spent


def _prefixed(prefix: tuple, claim: tuple[tuple | None, int, tuple]) -> tuple[tuple | None, int, tuple]:
    """A claim made after the plan's steps ``prefix``, as a claim on the hint's own position: the steps
    and the claim's move in one move tuple ``("line", steps...)`` (see :func:`check_hint_claim`)."""
    move, seat, action = claim
    return (("line", *prefix, *(() if move is None else (move,))), seat, action)


def check_hint_claim(state: State, claim: tuple[tuple | None, int, tuple]) -> str | None:
    """:func:`~.detectors.check_claim` for a claim of :attr:`Hint.claims` on ``state`` (the hint's position,
    say the real deal): a claim made after some of the plan's steps names them as ``("line", steps...)``;
    each step must be legal, and then what the claim says.  None when the engine allows it, else why not."""
    move, seat, action = claim
    if move is None or move[0] != "line":
        return check_claim(state, claim)
    s = state.copy()
    for a in move[1:-1]:
        err = s.explain(a)
        if err is not None:
            return f"[{err.rule}] {err.reason}"
        s.apply_unchecked(a)
    return check_claim(s, (move[-1] if len(move) > 1 else None, seat, action))


def plan_check_budget(variant: Variant) -> int:
    """The playouts the plan's checks of its later steps may ask for in all (``PLAN_CHECK_SHARE`` times the
    race's budget): once they are spent, the plan stops before the next step with a choice, so no step is
    shown unchecked and the hint's time stays bounded on a long turn (a count, not a clock: the same plan for a
    seed on any machine)."""
    return PLAN_CHECK_SHARE * race_budget(variant)


#: the plan's checks may ask for this many times the race's playouts (see :func:`plan_check_budget`)
PLAN_CHECK_SHARE = 2


def _checked_plan(obs: Observation, state: State, plan: list[tuple], seed: int, samples: int | None) -> list[tuple]:
    """The plan with no later step that :func:`grade` calls a mistake or worse: each step with a choice is
    graded from the learner's observation before it (the same seed and samples as the hint); a step graded a
    mistake or a blunder is replaced by the graded best, and the rest of the turn is the rules of thumb's
    line from there (or nothing, after a discard; the plan stops before a draw or an ask).  With the default
    race the checks spend at most :func:`plan_check_budget` playouts: the plan stops before the first step
    with a choice left when they are spent."""
    steps = list(plan)
    s = _played(state, steps[:1])
    budget_left = plan_check_budget(obs.variant) if samples is None else None
    i = 1
    while i < len(steps):
        a = steps[i]
        o = observe(s, obs.seat)
        if len(o.legal_actions) > 1 and a in o.legal_actions:
            if budget_left is not None and budget_left <= 0:
                return steps[:i]
            g, spent = _step_grade(o, a, seed, samples)
            if budget_left is not None:
                budget_left -= spent
            if g is not None and g.grade in ("mistake", "blunder"):
                if g.best[0] in _STOPS:
                    return steps[:i]
                after = _played(s, [g.best])
                rest = _line(after, obs.seat, "usual") if g.best[0] in _CONTINUES else []
                steps = steps[:i] + [g.best, *rest]
                a = g.best
        s.apply_unchecked(a)
        i += 1
    return steps


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
    few = obs.variant.hint_few_deals
    n = samples if samples is not None else few if few is not None else samples_for(2)
    engine, start = _searcher(obs, state)
    values = engine.sample_values(start, obs.seat, [best, action], n, seed)
    est = {e.action: e for e in summarize([best, action], values)}
    mine, top = est[action], est[best]
    gap = top.mean - mine.mean
    gap_stderr = max(mine.diff_stderr, top.diff_stderr)  # the one not ranked first carries the paired error
    if few is not None:
        gap_stderr = _few_deals(gap_stderr, min(mine.samples, top.samples))
    best_text = format_action(best)
    comparison = _comparison(gap, gap_stderr)
    why = "" if comparison == "about as good as" else _why_worse(move_facts(obs, action, state),
                                                                 move_facts(obs, best, state), best_text, gap,
                                                                 said=False)
    return Alternative(action, format_action(action), mine.mean, mine.stderr, gap, gap_stderr, comparison, why)


# ------------------------------------------------------------- grades
@dataclass
class Grade:
    """A learner's move (or the whole line one click played, :attr:`line`) against the hint's best.

    ``loss`` is in points of the hand's expected margin (the figure the hint's details show), counted only
    beyond one standard error of the paired difference; ``best`` is the hint's own best move and
    ``reference`` the hint's line it was measured against; ``deals`` the sampled deals both were played on
    (0: no search was needed)."""

    action: tuple
    grade: str
    loss: float
    best: tuple
    line: tuple[tuple, ...] = ()
    reference: tuple[tuple, ...] = ()
    deals: int = 0
    stderr: float = 0.0  # standard error of the paired difference behind ``loss`` (0: none measured)

    def to_dict(self) -> dict[str, Any]:
        return {"action": format_action(self.action), "grade": self.grade, "loss": round(self.loss, 1),
                "best": format_action(self.best)}

    def text(self) -> str:
        """What the grade means, with what its figure is; never "best" for a move other than the hint's."""
        ref = "; ".join(format_action(a) for a in (self.reference or (self.best,)))
        if self.grade == "best":
            same = tuple(self.line) == tuple(self.reference) or not self.line
            return "The hint's own move." if same else f"The same as the hint's {ref}, in another order."
        on = f"on the same {self.deals} sampled deals" if self.deals else "on the same sampled deals"
        if self.loss < 0.5:
            return f"The hint plays {ref}; {on} the search finds no difference beyond its noise."
        return (f"The hint plays {ref}; {on} yours scores about {self.loss:.0f} points less (points of the hand's "
                "expected score, your side's less theirs, beyond the search's noise).")


def grade_loss(loss: float) -> str:
    """The grade for a value loss in points (see the module docstring for the thresholds).

    >>> [grade_loss(x) for x in (0, 25, 50, 150, 400)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, limit in GRADES:
        if loss < limit or (name == "best" and loss <= limit):
            return name
    return "blunder"


def _not_best(loss: float) -> str:
    """The grade of a move that is not the hint's best: "best" is the hint's move alone, so a move within
    ``GRADES``' first step of it is "good"."""
    g = grade_loss(loss)
    return "good" if g == "best" else g


def _paired(obs: Observation, state: State, lines: list[tuple[tuple, ...]], n: int, seed: int,
            samples: int | None) -> tuple[float, float]:
    """The mean and standard error of the first line's value less the second's, both played on the same
    ``n`` sampled deals as the hint's search with ``seed`` (the race's cut-off playouts with coupled draws, or
    whole hands when ``samples`` is asked, as :func:`analyse` plays them)."""
    engine, start = _searcher(obs, state)
    turns = obs.variant.playout_turns if samples is None else None
    values = engine.sample_line_values(start, obs.seat, lines, n, seed, None, turns)
    diffs = [x - y for x, y in zip(values[0], values[1], strict=True)]
    if not diffs:
        return 0.0, 0.0
    m = sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs)) if len(diffs) > 1 else 0.0
    return m, se


def _deals(best: Estimate, samples: int | None, variant: Variant, playouts: int | None = None) -> int:
    """Deals for a paired comparison with the hint's best: ``samples`` when asked; else as many as two moves
    would be played on with the whole race's budget (so a move the race dropped early is measured as
    precisely as the budget allows: on a few deals the loss beyond one standard error would go easy on a
    clear mistake), and never fewer than the best was played on.  A first look (``playouts`` given, the
    plan's screen) settles for the best's deals, at least ``MIN_SAMPLES`` (Samba: ``SAMBA_SAMPLES``)."""
    if samples is not None:
        return samples
    least = variant.hint_few_deals if variant.hint_few_deals is not None else MIN_SAMPLES
    if playouts is not None:
        return max(best.samples, least)
    return max(best.samples, race_budget(variant) // 2, least)


def grade(obs: Observation, action: tuple, seed: int = 0, samples: int | None = None,
          iterations: int | None = None, playouts: int | None = None) -> Grade:
    """Grade a learner's action against the hint's best, by the value it loses (deterministic for a seed).

    One judge: the best is the hint's own (the same search, :func:`analyse`, with the same seed and
    samples), so a grade never calls a move best while the hint names another.  The loss is the paired
    difference beyond one standard error on the hint's sampled deals: read from the search when the move was
    played on as many as :func:`_deals` asks, else from the two moves played again on that many deals, the
    first of them the deals the hint's search played.  ``iterations`` is the old name of ``samples``;
    ``playouts`` a smaller race than the hint's (the plan's first look, :func:`_checked_plan`)."""
    samples = samples if samples is not None else iterations
    if obs.actor == obs.seat and action not in obs.legal_actions:
        raise IllegalActionError("R-TURN-2", f"{format_action(action)!r} is not legal here", action)
    state, est = analyse(obs, samples, seed, None, playouts=playouts)
    best = est[0]
    if action == best.action:
        return Grade(action, "best", 0.0, best.action, (action,), (best.action,), best.samples)
    mine = next((e for e in est if e.action == action), None)
    n = _deals(best, samples, obs.variant, playouts)
    if mine is not None and mine.samples == best.samples and best.samples >= n:
        gap, se = mine.gap, mine.diff_stderr
    else:
        gap, se = _paired(obs, state, [(best.action,), (action,)], n, seed, samples)
    loss = max(0.0, gap - se)  # sampling noise never grades a move down
    return Grade(action, _not_best(loss), loss, best.action, (action,), (best.action,), n, se)


def _outcome(state: State, seat: int) -> tuple:
    """What a line leaves that matters for comparing lines: the seat's hand by kind, its side's melds (natural
    and wild cards by kind), the pile's size, the phase, who acts and who went out."""
    from ..engine.cards import CARD_KIND

    side = state.sides[seat]
    melds = sorted((k, len(m[0]), tuple(sorted(CARD_KIND[c] for c in m[1])))
                   for k, m in state.melds[side].items()) if isinstance(state.melds[side], dict) else repr(
        state.melds[side])
    return (tuple(len(k) for k in state.hands[seat]), repr(melds), len(state.pile), state.phase, state.actor,
            state.went_out)


def _turn_ends(state: State, seat: int) -> bool:
    return state.actor != seat or state.phase not in ("draw", "meld")


def grade_line(obs: Observation, line: Sequence[tuple], seed: int = 0, samples: int | None = None,
               budget: float | None = None, the_hint: Hint | None = None) -> Grade:
    """Grade the whole line one click played (say the selection 4♠ 4♥ 4♥ 4♣ JK melded: a meld and two
    additions) against the hint's own line, on the hint's sampled deals: the coach's grade.

    ``the_hint`` is the hint the learner saw for ``obs`` (else it is computed with the same ``seed``,
    ``samples`` and ``budget``, and is the same).  A line that leaves what some first steps of the hint's plan
    leave (the same hand, melds and turn, in any order) is "best".  Else the line and the hint's plan (the
    whole plan when the line ends the turn, else as many of its steps as the line has) are played on the same
    sampled deals as the hint's search (its seed; as many deals as its best was played on, at least
    ``MIN_SAMPLES``) and the loss is their paired difference beyond one standard error; a move other than the
    hint's is never "best"."""
    line = tuple(tuple(a) for a in line)
    if not line:
        raise ValueError("grade_line needs at least one action")
    h = the_hint if the_hint is not None else hint(obs, samples=samples, seed=seed, budget=budget)
    state = state_from_observation(obs)
    plan = tuple(h.plan_actions or [h.best])
    err = _line_error(state, line)
    if err is not None:
        raise err
    mine = _played(state, line)
    end = _outcome(mine, obs.seat)
    for k in range(1, len(plan) + 1):
        if _outcome(_played(state, plan[:k]), obs.seat) == end:
            return Grade(line[0], "best", 0.0, h.best, line, plan[:k], 0)
    ref = plan if _turn_ends(mine, obs.seat) else plan[:max(1, min(len(line), len(plan)))]
    best_est = h.estimates[0] if h.estimates else Estimate(h.best, 0.0, 0.0, h.samples)
    n = _deals(best_est, samples, obs.variant)
    gap, se = _paired(obs, state, [ref, line], n, seed, samples)
    loss = max(0.0, gap - se)
    return Grade(line[0], _not_best(loss), loss, h.best, line, ref, n)


def _line_error(state: State, line: Sequence[tuple]) -> IllegalActionError | None:
    s = state.copy()
    for a in line:
        err = s.explain(a)
        if err is not None:
            return err
        s.apply_unchecked(a)
    return None


__all__ = ["Hint", "Alternative", "Grade", "Fact", "Refusal", "hint", "grade", "grade_line", "grade_loss",
           "explain_move", "analyse", "race_budget", "samples_for", "compare", "check_hint_claim", "nudge"]
