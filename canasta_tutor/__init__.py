"""canasta-tutor: classic partnership Canasta, a rules engine and a tutor for Jupyter.

>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=3)
>>> state.current_seat
'S'
"""

from typing import Any

from .engine import render as _render
from .engine.cards import format_card, parse_card
from .engine.errors import IllegalActionError, ImpossiblePositionError, NotationError
from .engine.game import Game
from .engine.options import RuleOptions
from .engine.state import State
from .notation.actions import format_action
from .notation.position import format_position, parse_position


def _state_html(state: Any) -> str:
    """A state's table in a notebook (``State._repr_html_``): the tutor's HTML, imported on first use."""
    from .tutor.display import state_html

    return state_html(state)


# The engine shows its states and actions with the layers above it, registered here, from the top: the
# engine itself imports none of them (see canasta_tutor.engine.render).
_render.register(position=format_position, action=format_action, html=_state_html)

__all__ = [
    "Game", "State", "RuleOptions", "IllegalActionError", "NotationError", "ImpossiblePositionError",
    "format_card", "parse_card", "format_position", "parse_position",
]
__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)
