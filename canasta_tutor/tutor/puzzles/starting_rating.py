"""A new puzzle's starting rating, from how often weaker solvers find the answer.

Four solvers of known strength each try the puzzle (the first action of the solution, or an
accepted alternative, counts as found):

=================  ======  =====================================================
solver             rating  attempts
=================  ======  =====================================================
random             800     one uniformly random legal move per seed
rules-of-thumb     1200    one attempt (the bot is deterministic)
hint, 8 deals      1500    the hint's search at 8 sampled deals, one per seed
hint, 32 deals     1800    the hint's search at 32 sampled deals, one per seed
=================  ======  =====================================================

Each attempt is a game between the puzzle and the solver (the puzzle wins when the solver
misses), and the puzzle, starting from 1500 with the largest deviation (350), is rated
over them in one Glicko-2 rating period (:func:`.rating.update`).  A puzzle every solver
finds ends well below 1500, one that only the stronger searches find ends near or above
it, and one nobody finds ends highest; the deviation that comes out says how much the
attempts told.  The solvers' ratings are anchors set by hand, in order of strength (the
search finds more with more deals); they set the scale, not a measured strength.

>>> from canasta_tutor.notation.position import parse_position
>>> state = parse_position('''turn: S draw
... pile: 5H 2C 7D 9D
... N: 11
... E: 11
... S: 9H 4D 5S 6C 8D JS QS KD AH AS KH
... W: 11
... melds NS: KS KC KD
... ''')
>>> r = starting_rating(state, [("draw",)], seeds=2)
>>> r.rating < 1500 and r.rd < 350  # a forced draw: every solver finds it
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ...notation.actions import Action
from ...engine.observer import observe
from ...engine.state import State
from .rating import Rating, update

ANCHOR_RD = 100.0  # the solvers' deviation, as opponents


@dataclass(frozen=True)
class Solver:
    """A weaker player that tries puzzles: its name, its anchor rating and how it tries."""

    name: str
    rating: float
    deterministic: bool
    choose: Callable[[State, int, int], Action]  # (state, seat, seed) -> the action it plays


def _random(state: State, seat: int, seed: int) -> Action:
    legal = state.legal_actions()
    return legal[random.Random(seed).randrange(len(legal))]


def _rules_of_thumb(state: State, seat: int, seed: int) -> Action:
    from ...bots.rules_of_thumb import decide
    from ...engine.observer import observe_compact

    return decide(observe_compact(state, seat, state.legal_actions()))[0]


def _hint(samples: int) -> Callable[[State, int, int], Action]:
    def choose(state: State, seat: int, seed: int) -> Action:
        from ...hint import analyse

        _, est = analyse(observe(state, seat), samples=samples, seed=seed)
        return est[0].action

    return choose


SOLVERS = (
    Solver("random", 800.0, False, _random),
    Solver("rules-of-thumb", 1200.0, True, _rules_of_thumb),
    Solver("hint-8", 1500.0, False, _hint(8)),
    Solver("hint-32", 1800.0, False, _hint(32)),
)


def solve_rates(state: State, answers: list[Action], seeds: int = 4) -> dict[str, tuple[int, int]]:
    """For each solver: (attempts that found an answer, attempts), over seeds 0..seeds-1."""
    seat = state.actor
    if seat is None:
        raise ValueError("the position has no seat to act")
    out = {}
    for solver in SOLVERS:
        tries = 1 if solver.deterministic else seeds
        found = sum(1 for s in range(tries) if solver.choose(state.copy(), seat, s) in answers)
        out[solver.name] = (found, tries)
    return out


def rating_from_rates(rates: dict[str, tuple[int, int]]) -> Rating:
    """The puzzle's Glicko-2 rating after one period of games against the solvers: a solver
    who found the answer won that game, one who missed lost it."""
    anchors = {s.name: Rating(s.rating, ANCHOR_RD) for s in SOLVERS}
    games = []
    for name, (found, tries) in rates.items():
        games += [(anchors[name], 0.0)] * found + [(anchors[name], 1.0)] * (tries - found)
    return update(Rating(1500.0, 350.0), games)


def starting_rating(state: State, answers: list[Action], seeds: int = 4) -> Rating:
    """The starting rating of a puzzle whose position is ``state`` and whose correct first
    actions are ``answers`` (rating and deviation rounded to whole points)."""
    r = rating_from_rates(solve_rates(state, answers, seeds))
    return Rating(float(round(r.rating)), float(round(r.rd)), r.volatility)




__all__ = ["SOLVERS", "Solver", "solve_rates", "rating_from_rates", "starting_rating"]
