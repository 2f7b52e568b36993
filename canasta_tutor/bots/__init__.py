"""Bots: each receives one seat's observation and returns a legal action.

- ``random``: a uniform choice among the legal actions.
- ``rules-of-thumb``: a club player built from named principles.
- ``expert``: determinized Monte Carlo search with rules-of-thumb playouts.
"""

from __future__ import annotations

from .random_bot import RandomBot
from .rules_of_thumb import RulesOfThumbBot

__all__ = ["RandomBot", "RulesOfThumbBot"]
