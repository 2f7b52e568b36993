"""Typed errors.

An illegal action raises :class:`IllegalActionError`, which carries the number
of the rule at fault and a reason a learner understands.  Malformed notation
raises :class:`NotationError`, naming the line and field; a well-formed
position that cannot happen in a real game raises :class:`ImpossiblePositionError`; a file that
is not read at all (a FIFO, a device, a folder, or too large) raises :class:`InputFileError`.
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

    #: messages longer than this are cut (they quote the input, which may be huge)
    MAX_MESSAGE = 400

    def __init__(self, message: str, line: int | None = None, field: str | None = None,
                 source: str | None = None) -> None:
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE] + f"… ({len(message)} characters)"
        if field is not None and len(field) > 40:
            field = field[:40] + "…"
        self.line = line
        self.field = field
        self.message = message
        self.source = source
        where = []
        if source:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        if field:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)

    def in_file(self, source: str) -> "NotationError":
        """The same error (same class), naming the file it came from.

        >>> str(NotationError("'x' is not a card", 3, "S").in_file("lesson.txt"))
        "lesson.txt, line 3, field 'S': 'x' is not a card"
        """
        err = type(self).__new__(type(self))
        NotationError.__init__(err, self.message, self.line, self.field, source)
        err.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("source",)})
        err.source = source
        return err


class InputFileError(NotationError):
    """A file that is not read at all: not a regular file (a folder, a FIFO, a device), or larger
    than the reader's limit.  It names the file (``source``)."""


class ImpossiblePositionError(NotationError):
    """A position that parses but could not arise under the rules (five jokers, 112 cards, ...)."""
