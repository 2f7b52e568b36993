"""The puzzle trainer: the next puzzle near the learner's rating, answers judged at once,
every wrong answer explained, Glicko-2 ratings, streaks and a per-theme summary.

:class:`Trainer` serves puzzles from the library (:mod:`.puzzles`) to one learner:

- **Choosing:** :meth:`Trainer.next` picks a puzzle near the learner's rating (within
  :data:`WINDOW` points, or as near as the nearest puzzle not yet tried; a seeded
  choice among them), optionally only puzzles of one theme (:meth:`Trainer.set_theme`).
  In streak mode (:meth:`Trainer.start_streak`) the puzzles come from easy to hard and
  the streak ends at the first miss.
- **Judging:** a :class:`PuzzleRun` judges each action as it is played: the solution's
  first action or an accepted alternative is right; a whole-turn line is then played
  step by step (the remaining steps in any order, the discard last).  Anything else is
  a miss, explained at once, words first: the facts that make the move worse than the
  answer (the detectors' sentences: what the move gives away, what the answer gains) and the
  puzzle's note; then the numbers: the puzzle's own verification figures and the hint's
  quick comparison on the same sampled deals (:func:`canasta_tutor.hint.compare`).  A
  puzzle's answer is verified, so a miss is never called "about as good".  An illegal
  action is not a miss: the engine's refusal with its rule number is shown and the
  learner tries again, as in the lessons (the try is saved with the attempt).
- **Hints:** the puzzle's themes, then a nudge in plain words from the facts of the
  verified answer, then the kind of move.  The trainer's full hint
  (:func:`puzzle_hint`) is the default hint where its move is a verified answer, and
  where the default budget finds another move it is built on the puzzle's own
  verification instead, so it never contradicts the answer.
- **Giving up:** :meth:`Trainer.give_up` (the widget's Skip button) ends the open puzzle
  as a miss with no move tried and shows the answer with its proof; it is saved and rated
  like any miss.  Moving on without it (:meth:`Trainer.next` on an open puzzle, a new
  theme) leaves the puzzle unsaved and unrated, as on lichess a puzzle left before any
  move or a look at the solution counts for nothing.
- **Rating:** each finished puzzle is one Glicko-2 rating period for the learner and the
  puzzle (:mod:`.rating`): solved is a win, a miss (given up included) a loss, solved
  after a hint a draw.
- **Saving:** each finished puzzle is an attempt in the progress store
  (``kind="puzzle"``, ``lesson="puzzles"``, ``level=<puzzle id>``), with its start and
  end, the hints used, every move tried (an ``attempt_actions`` row: ``action`` when
  right, ``wrong`` with the hint's reason, ``refused`` with the engine's rule and reason),
  the puzzle's themes, the trainer's ``mode`` (``rated`` or ``streak``) and the learner's
  rating before and after.  A given-up attempt is ``failed`` with no move tried (``tries``
  0).  Ratings are not stored apart:
  :func:`replay_ratings` recomputes every learner's and puzzle's rating from the saved
  attempts, the same way the trainer computed them.

Nothing here imports a widget; the puzzle widget (:mod:`canasta_tutor.ui.puzzle`)
is a thin shell over it.

>>> from canasta_tutor.tutor.puzzles.library import load_library
>>> t = Trainer(load_library(), store=None, explain=None)
>>> t.set_theme("frozen-pack")
>>> run = t.next()
>>> "frozen-pack" in run.puzzle.themes
True
>>> v = t.play(run.puzzle.solution[0])
>>> v.status, v.solved, t.learner.rating > 1500
('solved', True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ...notation.actions import Action, format_action, parse_action
from ...engine.errors import CanastaError, IllegalActionError, NotationError
from ...engine.observer import observe
from ...engine.state import State
from ..progress import Attempt, ProgressStore
from .library import Puzzle
from .rating import Rating, update
from .themes import THEMES

LESSON = "puzzles"  # the progress store's "lesson" for every puzzle attempt
KIND = "puzzle"
WINDOW = 150.0  # rating points either side of the learner for the first look
START = Rating(1500.0, 350.0, 0.06)
OPEN, SOLVED, MISSED = "open", "solved", "missed"
#: modes whose attempts are saved but leave every rating alone (see :mod:`.timed`)
UNRATED_MODES = frozenset(("timed",))

#: explain(state, seat, tried, answer, seed) -> why ``tried`` is worse than ``answer`` (words)
ExplainFn = Callable[[State, int, Action, Action, int], str]


class TrainerError(CanastaError, ValueError):
    """A trainer request that cannot be met (an unknown theme, no puzzle left, a puzzle over)."""


def hint_explanation(state: State, seat: int, tried: Action, answer: Action, seed: int) -> str:
    """The hint's quick comparison of ``tried`` with the verified ``answer``, in figures: the points it
    trails by on the same sampled deals, or, where so few deals cannot tell them apart, that they cannot
    (never "about as good": the answer's own verification, on thousands of deals, can)."""
    from ...hint import compare, samples_for

    alt = compare(observe(state, seat), tried, answer, seed=seed)
    n = samples_for(2)
    if alt.comparison == "about as good as":
        return (f"A quick search on {n} sampled deals cannot tell {alt.text} from {format_action(answer)} apart "
                "(the puzzle's verification, on many more, can).")
    return (f"A quick search on {n} sampled deals puts {alt.text} about {alt.gap:.0f} points behind "
            f"{format_action(answer)} this hand, ± {alt.gap_uncertainty:.0f}.")


def plain_reason(state: State, seat: int, tried: Action, answer: Action) -> str:
    """Why ``tried`` is worse than ``answer``, in words, from the detectors (no search): what the move
    gives away, and what the answer gains that it does not; or, where no fact tells them apart, that the
    search's figures must."""
    from ...hint.detectors import BAD, GOOD, move_facts

    obs = observe(state, seat)
    mine, theirs = move_facts(obs, tried), move_facts(obs, answer)
    have = {f.id for f in mine}
    bad = [f.text for f in mine if f.kind == BAD][:2]
    gains = [f.text for f in theirs if f.kind == GOOD and f.id not in have][:2]
    t, a = format_action(tried), format_action(answer)
    parts = []
    if bad:
        parts.append(f"{_cap(t)}: {_low(' '.join(bad))}")
    if gains:
        parts.append(f"{_cap(a)} instead: {_low(' '.join(gains))}")
    if not parts:
        parts.append(f"No single fact of the position tells {t} from {a}; the figures below do.")
    return " ".join(parts)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _low(text: str) -> str:
    return text[:1].lower() + text[1:]


@dataclass
class PuzzleHint:
    """The trainer's full hint for a puzzle (:func:`puzzle_hint`): the move, a nudge, the explanation, and
    where it comes from: ``search`` (the default hint, whose move is a verified answer) or ``verification``
    (the default budget found another move, so the hint is the puzzle's own verified answer)."""

    move: str
    nudge: str
    explanation: str
    source: str


def puzzle_hint(puzzle: Puzzle, seed: int = 0) -> PuzzleHint:
    """The trainer's hint for ``puzzle``: the default hint (:func:`canasta_tutor.hint.hint` with ``seed``)
    when its move is one of the puzzle's verified answers, else the verified answer explained by its facts
    and the puzzle's verification figures."""
    from ...hint import hint, nudge
    from ...hint.detectors import BAD, move_facts

    state = puzzle.state()
    seat = state.actor
    assert seat is not None  # a puzzle always has a seat to act (checked when it is read)
    obs = observe(state, seat)
    h = hint(obs, seed=seed)
    if h.best in puzzle.answers():
        return PuzzleHint(h.best_text, h.nudge, h.explanation, "search")
    answer = puzzle.answers()[0]
    a = format_action(answer)
    facts = [f.text for f in move_facts(obs, answer) if f.kind != BAD]
    v = puzzle.verification
    proof = ("" if v.forced else f"On {v.samples} sampled deals it scores {v.best_value:+.0f} points this hand and "
             f"the best other move, {v.second}, {v.second_value:+.0f} (a gap of {v.difference:.0f}, 95% interval "
             f"{v.low:.0f} to {v.high:.0f}).")
    text = " ".join(x for x in (f"{_cap(a)} is the puzzle's verified answer.", *facts, proof) if x)
    return PuzzleHint(a, nudge(obs, answer), text, "verification")


@dataclass
class Verdict:
    """The answer to one move: ``status`` is the puzzle's (open, solved or missed)."""

    action: str
    status: str
    correct: bool
    text: str
    explanation: str = ""
    rule: str = ""
    legal: bool = True
    #: the numbers behind a miss (the verification's and the quick search's), told after the words
    figures: str = ""

    @property
    def solved(self) -> bool | None:
        return None if self.status == OPEN else self.status == SOLVED

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "status": self.status, "correct": self.correct, "text": self.text,
                "explanation": self.explanation, "rule": self.rule, "legal": self.legal, "figures": self.figures}


@dataclass
class PuzzleRun:
    """One learner solving one puzzle: the line played so far and the verdicts."""

    puzzle: Puzzle
    seed: int = 0
    explain: ExplainFn | None = hint_explanation
    clock: Callable[[], float] = time.time
    state: State = field(init=False)
    seat: int = field(init=False)
    status: str = field(init=False, default=OPEN)
    played: list[str] = field(init=False, default_factory=list)
    tried: list[dict[str, str]] = field(init=False, default_factory=list)
    verdicts: list[Verdict] = field(init=False, default_factory=list)
    hints: list[str] = field(init=False, default_factory=list)
    started: float = field(init=False)
    finished: float | None = field(init=False, default=None)
    _line: list[Action] = field(init=False, default_factory=list)
    _hint: PuzzleHint | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.state = self.puzzle.state()
        actor = self.state.actor
        if actor is None:
            raise TrainerError(f"puzzle {self.puzzle.id}: no seat to act")
        self.seat = actor
        self.started = self.clock()

    @property
    def over(self) -> bool:
        return self.status != OPEN

    @property
    def seconds(self) -> float:
        return (self.finished if self.finished is not None else self.clock()) - self.started

    def expected(self) -> list[Action]:
        """The moves judged right now: the answers at the first step, then the rest of the line."""
        if not self.played:
            return self.puzzle.answers()
        line = [parse_action(a) for a in self.puzzle.solution]
        left = list(line)
        for a in self._line:
            if a in left:
                left.remove(a)
        if len(left) > 1:  # the last step (the discard) stays last
            return list(dict.fromkeys(left[:-1]))
        return left

    def play(self, action: Action | str) -> Verdict:
        """Judge one move of the solver; a right one is applied to :attr:`state`."""
        if self.over:
            raise TrainerError(f"puzzle {self.puzzle.id} is already {self.status}: go on to the next one")
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except NotationError as e:
                raise TrainerError(e.message) from None
        err = self.state.explain_for(self.seat, action)
        if err is not None:
            return self.refused(action, err)
        text = format_action(action)
        if action in self.expected():
            self.tried.append({"kind": "action", "text": text, "rule": ""})
            self.state.apply(action)
            self._line.append(action)
            self.played.append(text)
            first_alt = len(self._line) == 1 and action != parse_action(self.puzzle.solution[0])
            done = first_alt or len(self._line) >= len(self.puzzle.solution) or self.state.actor != self.seat
            if done:
                return self._finish(Verdict(text, SOLVED, True, _solved_text(self.puzzle, text, first_alt)))
            v = Verdict(text, OPEN, True, "Right. Go on: play the rest of the turn.")
            self.verdicts.append(v)
            return v
        answer = self.expected()[0]
        reason = plain_reason(self.state, self.seat, action, answer)
        quick = ""
        if self.explain is not None:
            try:
                quick = self.explain(self.state.copy(), self.seat, action, answer, self.seed)
            except (CanastaError, ValueError, KeyError, IndexError) as e:
                quick = f"(The hint could not compare the moves: {e}.)"
        figures = " ".join(x for x in (self._proof(), quick) if x)
        said = " ".join(x for x in (reason, quick) if x)
        self.tried.append({"kind": "wrong", "text": text, "rule": "", "reason": said})
        explanation = " ".join(x for x in (reason, self._note()) if x)
        return self._finish(Verdict(text, MISSED, False, f"Not this: {text}. The answer was {format_action(answer)}.",
                                    explanation, figures=figures))

    def refused(self, action: Action | tuple[Any, ...], err: IllegalActionError, press: str = "") -> Verdict:
        """A move the engine refuses: not a miss.  The refusal with its rule number is shown and the
        puzzle stays open, as in the lessons; the try is kept with the attempt.  ``press`` names the click
        the refusal answers ("Add J♥ J♠"): the verdict names it, not the planner's step, which the log
        keeps so that a replay meets the same refusal."""
        if self.over:
            raise TrainerError(f"puzzle {self.puzzle.id} is already {self.status}: go on to the next one")
        try:
            text = format_action(action) if action else str(err.action or "")
        except NotationError:
            text = str(action)
        self.tried.append({"kind": "refused", "text": text or "?", "rule": err.rule, "reason": err.reason})
        refusal = f"[{err.rule}] {err.reason.rstrip('.')}."
        said = press or text or "that move"
        v = Verdict(press or text, OPEN, False, f"Not allowed: {said}. {refusal} Try again.", refusal,
                    rule=err.rule, legal=False)
        self.verdicts.append(v)
        return v

    def give_up(self) -> Verdict:
        """The solver gives up: a miss with no move tried; the answer is shown with the
        puzzle's verification figures and its note."""
        if self.over:
            raise TrainerError(f"puzzle {self.puzzle.id} is already {self.status}: go on to the next one")
        answer = format_action(self.expected()[0])
        return self._finish(Verdict("", MISSED, False, f"Given up. The answer was {answer}.", self._note(),
                                    figures=self._proof()))

    def hint_stages(self) -> list[str]:
        """The puzzle's hints in order: its themes in words, then a nudge in plain words (the trainer's hint's,
        which agrees with the verified answer; with no search allowed, or past the first move, the nudge of
        the answer's own facts), then the kind of move that solves it."""
        from ...hint import nudge

        answer = self.expected()[0]
        searched = self.explain is not None and not self._line
        where = self.trainer_hint().nudge if searched else nudge(observe(self.state, self.seat), answer)
        return [("Think about: " + "; ".join(THEMES[t][0] for t in self.puzzle.themes if t in THEMES) + ".")
                if self.puzzle.themes else "Look at the whole table.",
                where,
                f"The answer starts with: {format_action(answer).split()[0]}."]

    def hint(self) -> str:
        """The next hint (:meth:`hint_stages`; the last again once they are all shown)."""
        if self.over:
            raise TrainerError(f"puzzle {self.puzzle.id} is already {self.status}")
        stages = self.hint_stages()
        text = stages[min(len(self.hints), len(stages) - 1)]
        self.hints.append(text)
        self.tried.append({"kind": "hint", "text": text, "rule": ""})
        return text

    def trainer_hint(self) -> PuzzleHint:
        """The trainer's hint for this puzzle (:func:`puzzle_hint`, with the run's seed), made once."""
        if self._hint is None:
            self._hint = puzzle_hint(self.puzzle, self.seed)
        return self._hint

    def _proof(self) -> str:
        v = self.puzzle.verification
        if len(self._line) or v.forced:
            return ""
        return (f"The puzzle's verification: on {v.samples} sampled deals {v.best} scores {v.best_value:+.0f} points "
                f"this hand and the best other move it searched, {v.second}, {v.second_value:+.0f} (a gap of "
                f"{v.difference:.0f}, 95% interval {v.low:.0f} to {v.high:.0f}).")

    def _note(self) -> str:
        return self.puzzle.note

    def _finish(self, v: Verdict) -> Verdict:
        self.status = v.status
        self.finished = self.clock()
        self.verdicts.append(v)
        return v


def _solved_text(p: Puzzle, text: str, alternative: bool) -> str:
    if alternative:
        return f"Right: {text} is accepted too (the main answer was {p.solution[0]})."
    if len(p.solution) > 1:
        return f"Solved: {', '.join(p.solution)}."
    return f"Solved: {text} is the answer."


def score(solved: bool, hints: int) -> float:
    """The Glicko-2 score of an attempt: 1 solved, 0.5 solved after a hint, 0 missed."""
    return (0.5 if hints else 1.0) if solved else 0.0


def _stamp(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds")


def replay_ratings(attempts: Sequence[dict[str, Any]], puzzles: Sequence[Puzzle]
                   ) -> tuple[dict[str, Rating], dict[str, Rating]]:
    """Every learner's and puzzle's rating after the saved puzzle attempts (oldest first):
    learners start at 1500 (deviation 350), puzzles at their library rating.  Attempts of an
    unrated mode (:data:`UNRATED_MODES`) change nothing."""
    learners: dict[str, Rating] = {}
    ratings = {p.id: Rating(p.rating, p.rd) for p in puzzles}
    for a in attempts:
        if a.get("kind") != KIND or a.get("lesson") != LESSON or a.get("level") not in ratings:
            continue
        if a.get("mode") in UNRATED_MODES:
            continue
        who, pid = str(a["learner"]), str(a["level"])
        me, it = learners.get(who, START), ratings[pid]
        s = score(a["status"] == "passed", int(a.get("hints") or 0))
        learners[who], ratings[pid] = update(me, [(it, s)]), update(it, [(me, 1.0 - s)])
    return learners, ratings


class Trainer:
    """One learner's puzzle session.

    ``puzzles``: the library (default :func:`~.puzzles.load_library`); ``store``: the
    progress store (None keeps everything in memory); ``explain``: how a legal wrong move
    is explained (default: the hint's comparison; None for no search); ``seed``: the
    choice of puzzles and the hint's sampling.
    """

    def __init__(self, puzzles: Sequence[Puzzle] | None = None, learner: str = "learner",
                 store: ProgressStore | None = None, explain: ExplainFn | None = hint_explanation, seed: int = 0,
                 clock: Callable[[], float] = time.time) -> None:
        if puzzles is None:
            from .library import load_library

            puzzles = load_library()
        if not puzzles:
            raise TrainerError("the puzzle library is empty")
        self.puzzles = list(puzzles)
        self.by_id = {p.id: p for p in self.puzzles}
        self.learner_name = learner
        self.store = store
        self.explain = explain
        self.seed = seed
        self.clock = clock
        self.rng = random.Random(seed)
        saved = store.attempts() if store is not None else []
        learners, self.ratings = replay_ratings(saved, self.puzzles)
        self.learner = learners.get(learner, START)
        self.history: list[dict[str, Any]] = [
            {"puzzle": a["level"], "solved": a["status"] == "passed", "hints": int(a.get("hints") or 0),
             "rating_before": a.get("rating_before"), "rating_after": a.get("rating_after")}
            for a in saved if a.get("kind") == KIND and a.get("learner") == learner and a.get("level") in self.by_id]
        self.theme: str | None = None
        self.streak_mode = False
        self.streak = 0
        self.best_streak = 0
        self.run: PuzzleRun | None = None
        self.last_change: tuple[float, float] | None = None  # the learner's rating before and after
        self._session_tried: set[str] = set()

    # ------------------------------------------------------------ choosing
    def set_theme(self, theme: str | None) -> None:
        """Only puzzles of ``theme`` from now on (None: every theme)."""
        if theme is not None and theme not in THEMES:
            raise TrainerError(f"unknown theme {str(theme)[:30]!r} (known: {', '.join(sorted(THEMES))})")
        if theme is not None and not any(theme in p.themes for p in self.puzzles):
            raise TrainerError(f"no puzzle has the theme {theme!r} yet")
        self.theme = theme

    def themes(self) -> list[tuple[str, str, int]]:
        """The themes with at least one puzzle: name, meaning and count, most puzzles first."""
        counts: dict[str, int] = {}
        for p in self.puzzles:
            for t in p.themes:
                counts[t] = counts.get(t, 0) + 1
        return sorted(((t, THEMES[t][0], n) for t, n in counts.items() if t in THEMES), key=lambda x: (-x[2], x[0]))

    def pool(self) -> list[Puzzle]:
        """The puzzles of the current theme (all when none is set)."""
        return [p for p in self.puzzles if self.theme is None or self.theme in p.themes]

    def rating_of(self, p: Puzzle) -> Rating:
        return self.ratings.get(p.id, Rating(p.rating, p.rd))

    def choose(self) -> Puzzle:
        """The next puzzle: near the learner's rating, not tried yet when any is left (in streak
        mode: the easiest one harder than the last)."""
        pool = self.pool()
        if not pool:
            raise TrainerError("no puzzle matches the theme")
        tried = {h["puzzle"] for h in self.history} | self._session_tried
        fresh = [p for p in pool if p.id not in tried] or [p for p in pool if p.id not in self._session_tried]
        if not fresh:  # every puzzle of the pool was played in this session: start the round again
            self._session_tried -= {p.id for p in pool}
            fresh = pool
        if self.streak_mode:
            last = self.run.puzzle.id if self.run is not None else None
            fresh = [p for p in fresh if p.id != last] or fresh
            return min(fresh, key=lambda p: (self.rating_of(p).rating, p.id))
        target = self.learner.rating
        width = max(WINDOW, min(abs(self.rating_of(p).rating - target) for p in fresh))
        near = [p for p in fresh if abs(self.rating_of(p).rating - target) <= width]
        return self.rng.choice(sorted(near, key=lambda p: p.id))

    def next(self, puzzle_id: str | None = None) -> PuzzleRun:
        """Start the next puzzle (or the one named); an unfinished one is left unsaved."""
        if self.streak_mode and self.run is not None and self.run.status == MISSED:
            raise TrainerError("the streak is over: start a new streak or leave streak mode")
        if puzzle_id is not None:
            if puzzle_id not in self.by_id:
                raise TrainerError(f"no puzzle {str(puzzle_id)[:40]!r} in the library")
            p = self.by_id[puzzle_id]
        else:
            p = self.choose()
        self._session_tried.add(p.id)
        self.run = PuzzleRun(p, self.seed, self.explain, self.clock)
        return self.run

    def start_streak(self) -> PuzzleRun:
        """Streak mode: puzzles from easy to hard until the first miss."""
        self.streak_mode = True
        self.streak = 0
        self.run = None
        return self.next()

    def stop_streak(self) -> None:
        self.streak_mode = False

    @property
    def mode(self) -> str:
        """The mode saved with each attempt: ``streak`` or ``rated``."""
        return "streak" if self.streak_mode else "rated"

    # ------------------------------------------------------------ solving
    def _current(self) -> PuzzleRun:
        if self.run is None:
            raise TrainerError("no puzzle yet: ask for the next one")
        return self.run

    def play(self, action: Action | str) -> Verdict:
        """Judge one move of the current puzzle; a finished puzzle is rated and saved."""
        v = self._current().play(action)
        if v.status != OPEN:
            self._finished()
        return v

    def refused(self, action: Action | tuple[Any, ...], err: IllegalActionError, press: str = "") -> Verdict:
        """A move the engine refused (a planner found it illegal): shown with its rule; the puzzle stays
        open (a try, not a miss)."""
        v = self._current().refused(action, err, press)
        if v.status != OPEN:
            self._finished()
        return v

    def hint(self) -> str:
        return self._current().hint()

    def give_up(self) -> Verdict:
        """Give up the current puzzle: it is saved (not solved, with the time spent and the hints
        used) and rated as a loss, exactly as a wrong answer.  This is lichess's choice: a puzzle
        whose solution the solver asks to see counts as failed, because otherwise skipping the
        hard puzzles would keep a rating above the solver's strength and the puzzles' ratings
        would never learn that they are hard; the answer shown after giving up is then a lesson,
        not a free pass."""
        v = self._current().give_up()
        self._finished()
        return v

    def _finished(self) -> None:
        run = self._current()
        p = run.puzzle
        solved = run.status == SOLVED
        before, it = self.learner, self.rating_of(p)
        s = score(solved, len(run.hints))
        self.learner = update(before, [(it, s)])
        self.ratings[p.id] = update(it, [(before, 1.0 - s)])
        self.last_change = (before.rating, self.learner.rating)
        if self.streak_mode:
            self.streak = self.streak + 1 if solved else self.streak
            self.best_streak = max(self.best_streak, self.streak)
        self.history.append({"puzzle": p.id, "solved": solved, "hints": len(run.hints),
                             "rating_before": before.rating, "rating_after": self.learner.rating})
        if self.store is not None:
            self.store.record(self.attempt(run, before, self.learner))

    def save_unrated(self, run: PuzzleRun, mode: str) -> None:
        """Save a finished run of an unrated mode (:data:`UNRATED_MODES`): it joins the history
        and the per-theme summary, and every rating stays as it is."""
        if mode not in UNRATED_MODES:
            raise TrainerError(f"mode {mode[:20]!r} is rated: finish its puzzles through the trainer")
        if not run.over:
            raise TrainerError(f"puzzle {run.puzzle.id} is still open")
        me = self.learner
        self.history.append({"puzzle": run.puzzle.id, "solved": run.status == SOLVED, "hints": len(run.hints),
                             "rating_before": me.rating, "rating_after": me.rating})
        if self.store is not None:
            self.store.record(self.attempt(run, me, me, mode))

    def attempt(self, run: PuzzleRun, before: Rating, after: Rating, mode: str | None = None) -> Attempt:
        """The progress store's record of a finished run (``mode``: the trainer's own when None)."""
        return Attempt(learner=self.learner_name, lesson=LESSON, level=run.puzzle.id, kind=KIND,
                       status="passed" if run.status == SOLVED else "failed", stars=0, seed=self.seed,
                       tries=len([t for t in run.tried if t["kind"] != "hint"]), par=len(run.puzzle.solution),
                       hints=len(run.hints), actions=[dict(t) for t in run.tried], started=_stamp(run.started),
                       finished=_stamp(run.finished if run.finished is not None else self.clock()),
                       rating_before=round(before.rating, 1), rating_after=round(after.rating, 1),
                       themes=list(run.puzzle.themes), mode=mode or self.mode)

    # ------------------------------------------------------------ results
    def summary(self) -> list[dict[str, Any]]:
        """The learner's results by theme: puzzles tried, solved, the share solved and the mean
        rating of the puzzles tried (every theme of a puzzle counts it), most tried first."""
        rows: dict[str, dict[str, Any]] = {}
        for h in self.history:
            p = self.by_id.get(h["puzzle"])
            if p is None:
                continue
            for t in p.themes:
                r = rows.setdefault(t, {"theme": t, "meaning": THEMES[t][0] if t in THEMES else "", "tried": 0,
                                        "solved": 0, "ratings": []})
                r["tried"] += 1
                r["solved"] += int(bool(h["solved"]))
                r["ratings"].append(p.rating)
        out = []
        for r in rows.values():
            ratings = r.pop("ratings")
            out.append({**r, "share": round(r["solved"] / r["tried"], 2), "puzzle_rating": round(sum(ratings)
                                                                                                  / len(ratings))})
        return sorted(out, key=lambda r: (-r["tried"], r["theme"]))

    def summary_text(self) -> str:
        rows = self.summary()
        if not rows:
            return "No puzzles tried yet."
        return "\n".join(f"{r['theme']}: {r['solved']} of {r['tried']} solved ({r['share']:.0%}), puzzles rated "
                         f"about {r['puzzle_rating']}" for r in rows)

    def status(self) -> str:
        """One stable line: the learner's rating, the streak and the current puzzle."""
        run = self.run
        now = f"puzzle {run.puzzle.id} {run.status}" if run is not None else "no puzzle yet"
        streak = f", streak {self.streak}" if self.streak_mode else ""
        return (f"{self.learner_name}: rating {self.learner.rating:.0f} (deviation {self.learner.rd:.0f}), "
                f"{len(self.history)} puzzle{'' if len(self.history) == 1 else 's'} tried{streak}; {now}")


class ThemeOverview:
    """The start page's themed set: every theme with puzzles, how many, and the learner's
    results (shows as a table in a notebook)."""

    def __init__(self, puzzles: Sequence[Puzzle] | None = None, learner: str = "learner",
                 store: ProgressStore | None = None) -> None:
        self.trainer = Trainer(puzzles, learner, store, explain=None)

    def rows(self) -> list[dict[str, Any]]:
        done = {r["theme"]: r for r in self.trainer.summary()}
        return [{"theme": t, "meaning": text, "puzzles": n, "tried": done.get(t, {}).get("tried", 0),
                 "solved": done.get(t, {}).get("solved", 0)} for t, text, n in self.trainer.themes()]

    def _repr_html_(self) -> str:
        import html

        body = "".join(f"<tr><td><code>{html.escape(r['theme'])}</code></td><td>{html.escape(r['meaning'])}</td>"
                       f"<td>{r['puzzles']}</td><td>{r['solved']} / {r['tried']}</td></tr>" for r in self.rows())
        return (f'<p class="cp-themes-totals">{html.escape(self.totals())}</p>'
                '<table class="cp-themes-page"><thead><tr><th>Theme</th><th>What it trains</th><th>Puzzles</th>'
                f"<th>You solved</th></tr></thead><tbody>{body}</tbody></table>")

    def totals(self) -> str:
        """One line for the library, counted from its files: ``556 puzzles in 26 themes``."""
        n, themes = len(self.trainer.puzzles), len(self.rows())
        return f"{n} puzzle{'s' if n != 1 else ''} in {themes} theme{'s' if themes != 1 else ''}"

    def __repr__(self) -> str:
        return "\n".join([self.totals()] + [f"{r['theme']}: {r['puzzles']} puzzle{'' if r['puzzles'] == 1 else 's'}, "
                                            f"solved {r['solved']} of {r['tried']}" for r in self.rows()])


__all__ = ["Trainer", "ThemeOverview", "PuzzleRun", "Verdict", "TrainerError", "replay_ratings", "score",
           "hint_explanation", "plain_reason", "puzzle_hint", "PuzzleHint", "LESSON", "KIND", "WINDOW", "OPEN",
           "SOLVED", "MISSED", "UNRATED_MODES"]
