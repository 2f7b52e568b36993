"""Bots: each receives one seat's observation and returns a legal action.

- ``random``: a uniform choice among the legal actions.
- ``rules-of-thumb``: a club player built from named principles.
- ``expert``: determinized Monte Carlo search with rules-of-thumb playouts (on the search's compiled copy
  where it is built: :class:`CompiledExpertBot`).

Each bot is a callable ``bot(observation) -> action``.  For fast matches each
also has a *state policy* ``policy(state, seat) -> action`` that reads only
what the seat may know (the seat's own hand and public facts; the expert
re-deals every hidden card before searching).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from ..engine.state import State
from .expert import ExpertBot, rot_policy
from .random_bot import RandomBot
from .rules_of_thumb import RulesOfThumbBot

if TYPE_CHECKING:
    from .native import CompiledEngine

BOT_NAMES = ("random", "rules-of-thumb", "expert")


class RandomStatePolicy:
    """Uniform random legal action, seeded per decision so results do not depend on play order."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __call__(self, state: State, seat: int) -> tuple:
        legal = state.legal_actions()
        rng = random.Random(hash((self.seed, state.seed, state.deal_no, len(state.history), seat)))
        return legal[rng.randrange(len(legal))]


class CompiledExpertBot(ExpertBot):
    """The expert, searching on the search's compiled copy (:mod:`canasta_tutor.bots.native`): the state it is given
    crosses whole (:mod:`canasta_tutor.bots.transfer`), so the copy's expert decides on the very state the pure
    one would, and makes the same choices (``tests/test_native.py``), faster."""

    def __init__(self, engine: CompiledEngine, **kw: Any) -> None:
        super().__init__(**kw)
        self.engine = engine

    def act(self, state: State, seat: int) -> tuple:
        return self.engine.expert_act(state, seat, self)


def _expert(seed: int, iterations: int | None, budget: float | None) -> ExpertBot:
    """The expert: on the compiled copy where it is built, else in plain Python."""
    from . import native  # here, not at the top: `python -m canasta_tutor.bots.native` imports this package first

    fast = native.engine()
    if fast is None:
        return ExpertBot(iterations=iterations, seed=seed, max_seconds=budget)
    return CompiledExpertBot(fast, iterations=iterations, seed=seed, max_seconds=budget)


def make_bot(name: str, seed: int = 0, iterations: int | None = None, budget: float | None = None) -> Callable:
    """A bot by name, as an observation policy."""
    if name == "random":
        return RandomBot(seed)
    if name == "rules-of-thumb":
        return RulesOfThumbBot()
    if name == "expert":
        return _expert(seed, iterations, budget)
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")


def make_state_policy(name: str, seed: int = 0, iterations: int | None = None,
                      budget: float | None = None) -> Callable[[State, int], tuple]:
    """A bot by name, as a fast state policy for matches."""
    if name == "random":
        return RandomStatePolicy(seed)
    if name == "rules-of-thumb":
        return rot_policy
    if name == "expert":
        return _expert(seed, iterations, budget).state_policy
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")


__all__ = ["RandomBot", "RulesOfThumbBot", "ExpertBot", "CompiledExpertBot", "BOT_NAMES", "make_bot",
           "make_state_policy", "RandomStatePolicy"]
