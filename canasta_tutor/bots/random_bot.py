"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

import random

from ..engine.observer import Observation


class RandomBot:
    """Callable policy picking uniformly from ``observation.legal_actions``; seeded."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, obs: Observation) -> tuple:
        return self.rng.choice(obs.legal_actions)
