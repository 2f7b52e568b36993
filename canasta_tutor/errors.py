"""Typed errors.

An illegal action raises :class:`IllegalActionError`, which carries the number
of the rule at fault and a reason a learner understands.  Malformed notation
raises :class:`NotationError`, naming the line and field; a well-formed
position that cannot happen in a real game raises :class:`ImpossiblePositionError`.
"""

from __future__ import annotations


class CanastaError(Exception):
    """Base class of the package's errors."""


class IllegalActionError(CanastaError, ValueError):
    """An action the rules do not allow here.

    >>> e = IllegalActionError("R-PACK-3", "You can't take the pack: a joker is on top")
    >>> str(e)
    "You can't take the pack: a joker is on top [R-PACK-3]"
    """

    def __init__(self, rule: str, reason: str, action: object = None) -> None:
        self.rule = rule
        self.reason = reason
        self.action = action
        super().__init__(f"{reason} [{rule}]")


class NotationError(CanastaError, ValueError):
    """Text that does not parse: a card, action, position or record.

    ``line`` (1-based) and ``field`` say where, when known.
    """

    def __init__(self, message: str, line: int | None = None, field: str | None = None) -> None:
        self.line = line
        self.field = field
        self.message = message
        where = []
        if line is not None:
            where.append(f"line {line}")
        if field:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class ImpossiblePositionError(NotationError):
    """A position that parses but could not arise under the rules (five jokers, 112 cards, ...)."""
