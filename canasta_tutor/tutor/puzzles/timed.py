"""Timed mode, after lichess's Puzzle Storm: as many puzzles as you can solve against a clock.

A :class:`TimedRun` takes a :class:`~.trainer.Trainer`'s pool (its theme filter holds) and
serves a seeded sample of it in rising rating, easiest first:

- **The clock:** a fixed time (:data:`SECONDS`, three minutes) starts with the first puzzle.
  Every miss (a wrong move, or giving up) takes :data:`PENALTY` seconds off it and
  breaks the combo; every :data:`BONUS_EVERY` puzzles solved in a row give :data:`BONUS`
  seconds back.  A move played after the time is up is not judged: the run is over, and the
  puzzle on the table then counts for nothing.  The run also ends when the sample is used up.
- **The score:** the puzzles solved.  The result also gives the misses, the best combo and
  the highest-rated puzzle solved.
- **Judging:** each puzzle is a :class:`~.trainer.PuzzleRun` like any other, without the
  hint's search (a wrong answer is explained by the puzzle's own verification figures and
  note: there is no time for a search).  There are no hints.  A finished puzzle is followed at
  once by the next.
- **Saving:** each finished puzzle is an attempt in the progress store marked
  ``mode="timed"``.  Timed attempts leave every rating alone (as Puzzle Storm does on
  lichess): speed play says less about strength than a puzzle solved at leisure, and a rating
  earned in rated mode should not fall because a clock ran out.  They count in the per-theme
  summary.

Only the clock function given (default: the trainer's) says what time it is, so a test
drives a run with a fake clock; the browser's countdown only asks Python to look.

>>> from canasta_tutor.tutor.puzzles.library import load_library
>>> from canasta_tutor.tutor.puzzles.trainer import Trainer
>>> now = [0.0]
>>> t = Trainer(load_library(), store=None, explain=None, clock=lambda: now[0])
>>> storm = TimedRun(t, seconds=60)
>>> v = storm.play(storm.run.puzzle.solution[0])
>>> storm.score, storm.remaining()
(1, 60.0)
>>> now[0] = 61.0
>>> storm.check(), storm.over, storm.ended
(True, True, 'time')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...notation.actions import Action
from ...engine.errors import IllegalActionError
from .trainer import OPEN, SOLVED, PuzzleRun, Trainer, TrainerError, Verdict

MODE = "timed"
SECONDS = 180.0  # the clock
PENALTY = 10.0  # seconds a miss costs
BONUS_EVERY = 5  # puzzles solved in a row that earn ...
BONUS = 5.0  # ... this many seconds back
LENGTH = 60  # puzzles in a run's sample (more than anyone solves in three minutes)
MIN_SECONDS, MAX_SECONDS = 30, 600  # the clocks a learner may choose


class TimedRun:
    """One timed run of one learner: the clock, the puzzles in rising rating and the score."""

    def __init__(self, trainer: Trainer, seconds: float = SECONDS, penalty: float = PENALTY,
                 bonus_every: int = BONUS_EVERY, bonus: float = BONUS, length: int = LENGTH,
                 seed: int | None = None, clock: Callable[[], float] | None = None) -> None:
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise TrainerError(f"a timed run lasts {MIN_SECONDS} to {MAX_SECONDS} seconds, not {seconds:g}")
        self.trainer = trainer
        self.clock = clock if clock is not None else trainer.clock
        self.seconds, self.penalty, self.bonus_every, self.bonus = float(seconds), penalty, bonus_every, bonus
        pool = trainer.pool()
        if not pool:
            raise TrainerError("no puzzle matches the theme")
        rng = random.Random(trainer.seed if seed is None else seed)
        chosen = rng.sample(pool, min(length, len(pool)))
        self.queue = sorted(chosen, key=lambda p: (trainer.rating_of(p).rating, p.id))
        self.index = 0
        self.score = 0
        self.misses = 0
        self.combo = 0
        self.best_combo = 0
        self.extra = 0.0  # seconds won (bonuses) minus seconds lost (penalties)
        self.best_rating: float | None = None
        self.ended: str | None = None  # "time", "done" (no puzzle left) or "stopped"
        self.verdicts: list[Verdict] = []
        self.started = self.clock()
        self._end_at: float | None = None
        self.run = self._open()

    def _open(self) -> PuzzleRun:
        return PuzzleRun(self.queue[self.index], self.trainer.seed, None, self.clock)

    # ------------------------------------------------------------ the clock
    @property
    def over(self) -> bool:
        return self.ended is not None

    def elapsed(self) -> float:
        return (self._end_at if self._end_at is not None else self.clock()) - self.started

    def remaining(self) -> float:
        """Seconds left on the clock (0 when the run is over by time)."""
        return max(0.0, self.seconds + self.extra - self.elapsed())

    def check(self) -> bool:
        """End the run if the time is up; True when the run is over."""
        if not self.over and self.remaining() <= 0:
            self._end("time")
        return self.over

    def stop(self) -> None:
        """Stop the run early (the puzzle on the table counts for nothing)."""
        if not self.over:
            self._end("stopped")

    def _end(self, why: str) -> None:
        self.ended = why
        self._end_at = min(self.clock(), self.started + self.seconds + self.extra)

    # ------------------------------------------------------------ solving
    def _judge(self, judge: Callable[[], Verdict]) -> Verdict:
        if self.check():
            raise TrainerError(self._over_text())
        v = judge()
        if v.status != OPEN:
            self._done(v)
        return v

    def play(self, action: Action | str) -> Verdict:
        """Judge one move of the puzzle on the table; a finished puzzle is saved and the next one
        served.  Raises :class:`TrainerError` once the time is up."""
        return self._judge(lambda: self.run.play(action))

    def refused(self, action: Action | tuple[Any, ...], err: IllegalActionError, press: str = "") -> Verdict:
        """A move the engine refused: shown with its rule; the puzzle stays open (no miss, no penalty;
        ``press``: the click, as :meth:`PuzzleRun.refused` shows it)."""
        return self._judge(lambda: self.run.refused(action, err, press))

    def give_up(self) -> Verdict:
        """Skip the puzzle on the table: a miss (it costs the penalty), then the next one."""
        return self._judge(self.run.give_up)

    def _done(self, v: Verdict) -> None:
        run = self.run
        self.verdicts.append(v)
        if run.status == SOLVED:
            self.score += 1
            self.combo += 1
            self.best_combo = max(self.best_combo, self.combo)
            rating = self.trainer.rating_of(run.puzzle).rating
            self.best_rating = rating if self.best_rating is None else max(self.best_rating, rating)
            if self.combo % self.bonus_every == 0:
                self.extra += self.bonus
        else:
            self.misses += 1
            self.combo = 0
            self.extra -= self.penalty
        self.trainer.save_unrated(run, MODE)
        if self.check():
            return
        self.index += 1
        if self.index >= len(self.queue):
            self._end("done")
            return
        self.run = self._open()

    # ------------------------------------------------------------ results
    def _over_text(self) -> str:
        why = {"time": "Time is up", "done": "Every puzzle of the run is played",
               "stopped": "The timed run is stopped"}[self.ended or "time"]
        return f"{why}: {self.score} solved, {self.misses} missed."

    def result(self) -> dict[str, Any]:
        """The run's figures: plain numbers and words."""
        return {"score": self.score, "misses": self.misses, "combo": self.combo, "best_combo": self.best_combo,
                "seconds": self.seconds, "remaining": round(self.remaining(), 1), "over": self.over,
                "ended": self.ended or "", "played": self.score + self.misses,
                "puzzles": len(self.queue), "best_rating": round(self.best_rating) if self.best_rating else None,
                "penalty": self.penalty, "bonus": self.bonus, "bonus_every": self.bonus_every}

    def status(self) -> str:
        state = self._over_text() if self.over else f"{self.remaining():.0f} s left, {self.score} solved"
        return f"timed run: {state}"


__all__ = ["TimedRun", "MODE", "SECONDS", "PENALTY", "BONUS", "BONUS_EVERY", "LENGTH", "MIN_SECONDS", "MAX_SECONDS"]
