"""How the engine's objects are shown, filled in from the layers above.

A state prints as its position text (``str(state)``), shows as a table in a notebook
(``state._repr_html_()``) and names a wrong action in our notation in its refusals.  Those
texts are made by the notation (:mod:`canasta_tutor.notation`) and the table's HTML by the
tutor (:mod:`canasta_tutor.tutor.display`), which both import the engine: the engine may not
import them back.  So the engine asks this module, and the package registers the real functions
when it is imported (``canasta_tutor/__init__.py``).

Until something is registered (the engine imported alone, or the search's compiled copy, which
:mod:`canasta_tutor.bots.native` fills in from the pure package's), a state prints as a short
summary, an action as its ``repr`` and a state has no HTML form (Jupyter then shows the text).
"""

from __future__ import annotations

from typing import Any, Callable

#: ``position(state, seat)``: the position text, ``seat`` None for the whole table
PositionText = Callable[[Any, Any], str]
#: ``action(a)``: an action in the notation (raises on what is not an action)
ActionText = Callable[[Any], str]
#: ``html(state)``: the state as an HTML table
StateHTML = Callable[[Any], str]

_HOOKS: dict[str, Callable[..., str]] = {}
NAMES = ("position", "action", "html")


def register(**hooks: Callable[..., str]) -> None:
    """Register the functions that show the engine's objects, by name: ``position``, ``action``, ``html``."""
    for name, fn in hooks.items():
        if name not in NAMES:
            raise ValueError(f"no such rendering hook {name!r}: one of {', '.join(NAMES)}")
        _HOOKS[name] = fn


def hooks() -> dict[str, Callable[..., str]]:
    """The functions registered, by name (a copy), for another copy of the engine to register too."""
    return dict(_HOOKS)


def position_text(state: Any, seat: Any = None) -> str:
    """The position text of ``state`` (as ``seat`` sees it, or the whole table), or a summary if none is
    registered."""
    fn = _HOOKS.get("position")
    if fn is None:
        return f"<{type(state).__name__}: {state.variant.name}, deal {state.deal_no}, {state.phase}>"
    return fn(state) if seat is None else fn(state, seat)


def action_text(a: Any) -> str:
    """``a`` in the notation (raising whatever the notation raises on a non-action), or its ``repr``."""
    fn = _HOOKS.get("action")
    return repr(a) if fn is None else fn(a)


def state_html(state: Any) -> str | None:
    """The HTML table of ``state``, or None (Jupyter then shows its text) if none is registered."""
    fn = _HOOKS.get("html")
    return None if fn is None else fn(state)


__all__ = ["register", "hooks", "position_text", "action_text", "state_html", "NAMES"]
