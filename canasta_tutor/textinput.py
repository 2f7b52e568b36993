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


def iter_lines(stream: IO[str] | IO[bytes], source: str, max_line: int = MAX_LINE_CHARS,
               max_chars: int = MAX_FILE_CHARS) -> Iterator[tuple[int, str]]:
    """``(number, line)`` pairs from a text or binary stream, without the line end, within the
    limits.  Bytes are decoded as UTF-8 line by line, so a decoding error names its line."""
    total = 0
    number = 0
    while True:
        number += 1
        limit = max_line * 4 + 8 if _is_binary(stream) else max_line + 2
        chunk = stream.readline(limit)
        if not chunk:
            return
        if isinstance(chunk, bytes):
            if len(chunk) >= limit and not chunk.endswith(b"\n"):
                raise NotationError(f"the line is longer than {max_line} characters", number, source=source)
            try:
                raw = chunk.decode("utf-8")
            except UnicodeDecodeError as e:
                raise NotationError(f"the file is not UTF-8 text ({e.reason} at character {e.start + 1} of the "
                                    "line)", number, source=source) from None
        else:
            raw = chunk
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


def _is_binary(stream: IO[str] | IO[bytes]) -> bool:
    return isinstance(stream, (io.BufferedIOBase, io.RawIOBase)) or "b" in getattr(stream, "mode", "")


def open_text(path: str) -> IO[bytes] | IO[str]:
    """A stream for ``path`` (``-`` is standard input), binary when possible so that lines are
    decoded one by one; the caller closes it."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        return sys.stdin if buffer is None else buffer  # a text stream in tests and notebooks
    return open(path, "rb")


def read_lines(path: str, max_line: int = MAX_LINE_CHARS, max_chars: int = MAX_FILE_CHARS) -> Iterator[tuple[int, str]]:
    """Stream the numbered lines of the file ``path`` (``-``: standard input) within the limits."""
    stream = open_text(path)
    try:
        yield from iter_lines(stream, "<stdin>" if path == "-" else path, max_line, max_chars)
    finally:
        if path != "-":
            stream.close()


def read_text(path: str, max_line: int = MAX_LINE_CHARS, max_chars: int = MAX_FILE_CHARS) -> str:
    """The whole text of ``path`` (lines joined by ``\\n``), read within the limits."""
    return "\n".join(line for _, line in read_lines(path, max_line, max_chars)) + "\n"


__all__ = ["iter_lines", "read_lines", "read_text", "open_text", "MAX_LINE_CHARS", "MAX_FILE_CHARS"]
