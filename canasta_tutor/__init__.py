"""canasta-tutor: classic partnership Canasta, a rules engine and a tutor for Jupyter.

>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=3)
>>> state.current_seat
'S'
"""

from .cards import format_card, parse_card
from .errors import IllegalActionError, ImpossiblePositionError, NotationError
from .game import Game
from .options import RuleOptions
from .position import format_position, parse_position
from .state import State

__all__ = [
    "Game", "State", "RuleOptions", "IllegalActionError", "NotationError", "ImpossiblePositionError",
    "format_card", "parse_card", "format_position", "parse_position",
]
__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)
