"""Bounded reading of text files: positions, records and other hand-written notation.

Every reader here stops early on input that is too big, too long a line, or not
UTF-8, with a :class:`~canasta_tutor.errors.NotationError` that names the file and
the line.  A UTF-8 byte-order mark is dropped.  Lines are read one at a time, so
an error on line 8 of a huge file is reported at once.  Standard library only.

>>> import io
>>> list(iter_lines(io.StringIO("\\ufeffseed: 1\\r\\nactions:\\n"), "game.txt"))
[(1, 'seed: 1'), (2, 'actions:')]
>>> list(iter_lines(io.StringIO("x" * 50), "game.txt", max_line=10))
Traceback (most recent call last):
...
canasta_tutor.errors.NotationError: game.txt, line 1: the line is longer than 10 characters: 'xxxxxxxxxx…'
"""

from __future__ import annotations

import io
import sys
from typing import IO, Iterator

from .errors import NotationError

#: Default limits: a position or record line, and a whole file.
MAX_LINE_CHARS = 4_000
MAX_FILE_CHARS = 5_000_000


def iter_lines(stream: IO[str], source: str, max_line: int = MAX_LINE_CHARS,
               max_chars: int = MAX_FILE_CHARS) -> Iterator[tuple[int, str]]:
    """``(number, line)`` pairs from a text stream, without the line end, within the limits."""
    total = 0
    number = 0
    while True:
        number += 1
        try:
            raw = stream.readline(max_line + 2)
        except UnicodeDecodeError as e:
            raise NotationError(f"the file is not UTF-8 text ({e.reason} at byte {e.start} of a read)", number,
                                source=source) from None
        if not raw:
            return
        total += len(raw)
        if total > max_chars:
            raise NotationError(f"the file is longer than {max_chars} characters", number, source=source)
        line = raw[:-1] if raw.endswith("\n") else raw
        if line.endswith("\r"):
            line = line[:-1]
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if len(line) > max_line:
            raise NotationError(f"the line is longer than {max_line} characters: {line[:10]!r}"[:-1] + "…'",
                                number, source=source)
        yield number, line


def open_text(path: str) -> IO[str]:
    """A UTF-8 text stream for ``path`` (``-`` is standard input); the caller closes it."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # standard input replaced by a text stream (tests, notebooks)
            return sys.stdin
        return io.TextIOWrapper(buffer, encoding="utf-8-sig", newline="")
    return open(path, encoding="utf-8-sig", newline="")


def read_lines(path: str, max_line: int = MAX_LINE_CHARS, max_chars: int = MAX_FILE_CHARS) -> Iterator[tuple[int, str]]:
    """Stream the numbered lines of the file ``path`` (``-``: standard input) within the limits."""
    stream = open_text(path)
    try:
        yield from iter_lines(stream, "<stdin>" if path == "-" else path, max_line, max_chars)
    finally:
        if path != "-":
            stream.close()
        elif stream is not sys.stdin and isinstance(stream, io.TextIOWrapper):
            stream.detach()  # leave standard input itself open


def read_text(path: str, max_line: int = MAX_LINE_CHARS, max_chars: int = MAX_FILE_CHARS) -> str:
    """The whole text of ``path`` (lines joined by ``\\n``), read within the limits."""
    return "\n".join(line for _, line in read_lines(path, max_line, max_chars)) + "\n"


__all__ = ["iter_lines", "read_lines", "read_text", "open_text", "MAX_LINE_CHARS", "MAX_FILE_CHARS"]
