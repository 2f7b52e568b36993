"""Bounded reading of input files: positions, records, lessons, assignments, logs and puzzles.

Every reader here stops early on input that is too big, too long a line, or not
UTF-8, with a :class:`~canasta_tutor.engine.errors.NotationError` that names the file and
the line.  A UTF-8 byte-order mark is dropped.  Lines are read one at a time, so
an error on line 8 of a huge file is reported at once.  Standard library only.

Only regular files are read (:func:`open_bounded`): a folder, a FIFO or a device (``/dev/zero``,
or a link to one) is refused with :class:`~canasta_tutor.engine.errors.InputFileError` before a byte is
read, and the size limit is checked on the open file descriptor, so a file swapped for
another after the check is still the one measured.  JSON and TOML are parsed with limits on
nesting and on the size of numbers (:func:`load_json`, :func:`load_toml`).

>>> import io
>>> list(iter_lines(io.StringIO("\\ufeffseed: 1\\r\\nactions:\\n"), "game.txt"))
[(1, 'seed: 1'), (2, 'actions:')]
>>> list(iter_lines(io.StringIO("x" * 50), "game.txt", max_line=10))
Traceback (most recent call last):
...
canasta_tutor.engine.errors.NotationError: game.txt, line 1: the line is longer than 10 characters: 'xxxxxxxxxx…'
>>> load_json('{"a": [1, 2.5]}', "log.json")
{'a': [1, 2.5]}
>>> load_json("[" * 100 + "]" * 100, "log.json")
Traceback (most recent call last):
...
canasta_tutor.engine.errors.NotationError: log.json: JSON nested more than 32 deep
>>> load_json('{"points": NaN}', "log.json")
Traceback (most recent call last):
...
canasta_tutor.engine.errors.NotationError: log.json: 'NaN' is not a finite number
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
import sys
import tomllib
from typing import IO, Any, Iterator

from ..engine.errors import InputFileError, NotationError

#: Default limits: a position or record line, and a whole file.
MAX_LINE_CHARS = 4_000
MAX_FILE_CHARS = 5_000_000
#: Default limits of structured content (JSON logs, TOML lessons and assignments): nesting, and
#: the digits of a number (a 64-bit integer has 20; no field of ours needs more).
MAX_DEPTH = 32
MAX_NUMBER_CHARS = 40


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


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def open_bounded(path: str | os.PathLike[str], max_bytes: int | None, source: str | None = None) -> IO[bytes]:
    """A binary stream of the regular file ``path``, at most ``max_bytes`` long; the caller closes it.

    The file is opened without blocking (a FIFO with no writer would wait for ever) and checked on
    its descriptor: anything but a regular file, or a file larger than ``max_bytes``, raises
    :class:`InputFileError` naming it (``max_bytes=None``: the reader counts as it streams, and
    stops at its own limit).  A missing or unreadable file raises ``OSError`` as ``open`` does.
    """
    name = source or os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = next((w for test, w in _KINDS if test(st.st_mode)), "not a regular file")
            raise InputFileError(f"{what}, not a file: only regular files are read", source=name)
        if max_bytes is not None and st.st_size > max_bytes:
            raise InputFileError(f"{st.st_size:,} bytes, larger than the limit of {max_bytes:,}", source=name)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | os.PathLike[str], max_bytes: int, source: str | None = None) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_bounded`); a file that grows past
    ``max_bytes`` while it is read is refused too."""
    name = source or os.fspath(path)
    with open_bounded(path, max_bytes, name) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputFileError(f"larger than the limit of {max_bytes:,} bytes", source=name)
    return data


def read_file_text(path: str | os.PathLike[str], max_bytes: int, source: str | None = None) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``max_bytes`` long (a byte-order mark is
    dropped; line ends are kept).  Text that is not UTF-8 raises :class:`NotationError` naming the
    file and the line."""
    name = source or os.fspath(path)
    return decode_text(read_bytes(path, max_bytes, name), name)


def decode_text(data: bytes, source: str) -> str:
    """``data`` decoded as UTF-8 (a byte-order mark dropped), or a :class:`NotationError` naming the line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise NotationError(f"the file is not UTF-8 text ({e.reason} at byte {column} of the line)", line,
                            source=source) from None
    return text[1:] if text.startswith("\ufeff") else text


# ------------------------------------------------------------------ JSON and TOML within limits
class _Refused(Exception):
    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text  # the number as written


def _json_number(kind: type) -> Any:
    def convert(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise _Refused(f"a number of {len(text)} characters (at most {MAX_NUMBER_CHARS})", text)
        value = kind(text)
        if isinstance(value, float) and not math.isfinite(value):
            raise _Refused(f"{text!r} is not a finite number", text)
        return value
    return convert


def _no_constant(text: str) -> Any:
    raise _Refused(f"{text!r} is not a finite number", text)


# a JSON string (with escapes; the closing quote may be missing), or a bracket: linear, no backtracking
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


def json_depth(text: str, limit: int) -> int:
    """How deep the brackets of the JSON ``text`` nest, counting up to ``limit + 1`` at most."""
    depth = deepest = 0
    for m in _JSON_TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json(text: str, source: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON ``text`` parsed within limits: nesting at most ``max_depth`` deep, numbers of at most
    :data:`MAX_NUMBER_CHARS` characters, and no ``NaN`` or ``Infinity``; any other input raises
    :class:`NotationError` naming ``source`` (and the line, for a syntax error)."""
    if json_depth(text, max_depth) > max_depth:
        raise NotationError(f"JSON nested more than {max_depth} deep", source=source)
    try:
        return json.loads(text, parse_int=_json_number(int), parse_float=_json_number(float),
                          parse_constant=_no_constant)
    except _Refused as e:
        raise NotationError(str(e), source=source) from None
    except json.JSONDecodeError as e:
        raise NotationError(f"not valid JSON: {e.msg} (column {e.colno})", e.lineno, source=source) from None


def data_depth(value: Any, limit: int) -> int:
    """How deep lists and tables nest in parsed data (``value`` itself is depth 1), counting up to
    ``limit + 1`` at most; without recursion, so any depth is measured safely.  A whole number of
    more than :data:`MAX_NUMBER_CHARS` digits counts as too deep (it raises ``ValueError``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > limit:
                break
            stack.extend((x, depth + 1) for x in (item.values() if isinstance(item, dict) else item))
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= _BIG:
            raise ValueError(f"a whole number of more than {MAX_NUMBER_CHARS} digits")
    return deepest


_BIG = 10 ** MAX_NUMBER_CHARS


def load_toml(text: str, source: str, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """TOML ``text`` parsed by ``tomllib`` within limits: nesting at most ``max_depth`` deep, whole
    numbers of at most :data:`MAX_NUMBER_CHARS` digits, finite floats.  A syntax error raises
    ``tomllib.TOMLDecodeError`` (whose message gives the line); any other refusal raises
    :class:`NotationError` naming ``source``."""
    try:
        data = tomllib.loads(text, parse_float=_json_number(float))
    except _Refused as e:
        raise NotationError(str(e), _line_of(text, e.text), source=source) from None
    except RecursionError:
        raise NotationError(f"TOML nested more than {max_depth} deep", source=source) from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as e:  # tomllib turns every digit string into an int: Python's own limit on its length
        raise _too_long(text, source, e) from None
    try:
        deep = data_depth(data, max_depth) > max_depth
    except ValueError as e:
        raise _too_long(text, source, e) from None
    if deep:
        raise NotationError(f"TOML nested more than {max_depth} deep", source=source)
    return data


def _too_long(text: str, source: str, e: ValueError) -> NotationError:
    m = _LONG_DIGITS.search(text)
    return NotationError(f"a number too long to read ({' '.join(str(e).split())[:80]})",
                         None if m is None else text.count("\n", 0, m.start()) + 1, source=source)


_LONG_DIGITS = re.compile(r"[0-9][0-9_]{%d,}" % (MAX_NUMBER_CHARS - 1))


def _line_of(text: str, number: str) -> int | None:
    """The line where ``number`` is first written as a value (``= 1e999``, ``[nan``, ``, inf``)."""
    m = re.search(r"[=\[,]\s*" + re.escape(number) + r"(?![\w.])", text)
    return None if m is None else text.count("\n", 0, m.end()) + 1


def open_text(path: str) -> IO[bytes] | IO[str]:
    """A stream for ``path`` (``-`` is standard input), binary when possible so that lines are
    decoded one by one; a path must be a regular file (see :func:`open_bounded`; the lines read
    from it are counted against their limits as they stream).  The caller closes it."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        return sys.stdin if buffer is None else buffer  # a text stream in tests and notebooks
    return open_bounded(path, None)


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


__all__ = ["iter_lines", "read_lines", "read_text", "open_text", "open_bounded", "read_bytes", "read_file_text",
           "decode_text", "load_json", "load_toml", "json_depth", "data_depth", "MAX_LINE_CHARS", "MAX_FILE_CHARS",
           "MAX_DEPTH", "MAX_NUMBER_CHARS"]
