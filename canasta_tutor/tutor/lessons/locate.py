"""Line numbers for fields of a TOML file.

``tomllib`` gives values but no line numbers, so errors are placed by scanning
the text: table headers (``[[level]]``, ``[level.generate]``) and key lines
(``success = ...``).  The answer is the line of the field when it can be found,
otherwise the line of the nearest enclosing table.

>>> text = 'id = "x"\\n[[level]]\\nid = "a"\\n[[level]]\\nid = "b"\\nsuccess = "went_out"\\n'
>>> locate(text, ["level", 1, "success"])
6
>>> locate(text, ["level", 0])
2
>>> format_field(["level", 1, "failure", 0, "when"])
'level[1].failure[0].when'
"""

from __future__ import annotations

import re
from typing import Sequence

_ARRAY_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.\- ]+?)\s*\]\]")
_TABLE_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\- ]+?)\s*\]")


def format_field(path: Sequence[str | int]) -> str:
    """A field path as text: ``level[3].success``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _headers(lines: list[str]) -> list[tuple[int, str, bool]]:
    out = []
    in_multiline = None
    for i, line in enumerate(lines):
        if in_multiline:
            if in_multiline in line:
                in_multiline = None
            continue
        for quote in ("'''", '"""'):
            if line.count(quote) % 2 == 1:
                in_multiline = quote
        if in_multiline:
            continue
        m = _ARRAY_HEADER.match(line)
        if m:
            out.append((i, m.group(1).replace(" ", ""), True))
            continue
        m = _TABLE_HEADER.match(line)
        if m and "=" not in line.split("]", 1)[0]:
            out.append((i, m.group(1).replace(" ", ""), False))
    return out


def locate(text: str, path: Sequence[str | int]) -> int | None:
    """The 1-based line of a field path in a TOML text, or of its nearest enclosing table."""
    lines = text.splitlines()
    headers = _headers(lines)
    start, end = 0, len(lines)
    best: int | None = None
    prefix = ""
    i = 0
    while i < len(path):
        part = path[i]
        if isinstance(part, int):
            i += 1
            continue
        dotted = prefix + part
        nxt = path[i + 1] if i + 1 < len(path) else None
        inside = [h for h in headers if start <= h[0] < end]
        arrays = [h for h in inside if h[2] and h[1] == dotted]
        if arrays and isinstance(nxt, int):
            if nxt >= len(arrays):
                return best
            h = arrays[nxt]
            start, end = h[0], _block_end(headers, h[0], dotted, end)
            best = start + 1
            prefix = dotted + "."
            i += 2
            continue
        tables = [h for h in inside if not h[2] and h[1] == dotted]
        if tables:
            h = tables[0]
            start, end = h[0], _block_end(headers, h[0], dotted, end)
            best = start + 1
            prefix = dotted + "."
            i += 1
            continue
        own_end = min([h[0] for h in inside if h[0] > start] + [end])
        key = re.compile(r"^\s*(?:" + re.escape(part) + r'|"' + re.escape(part) + r'")\s*=')
        for n in range(start, own_end):
            if key.match(lines[n]):
                return n + 1
        return best
    return best


def _block_end(headers: list[tuple[int, str, bool]], at: int, dotted: str, limit: int) -> int:
    for line, name, _ in headers:
        if line > at and line < limit and not name.startswith(dotted + "."):
            return line
    return limit


def value_start_line(text: str, key_line: int) -> int:
    """For a multi-line string starting on ``key_line`` (1-based), the line of its first character.

    TOML drops a newline that directly follows the opening quotes, so the
    string's first line is then the next line.
    """
    lines = text.splitlines()
    if 0 < key_line <= len(lines):
        after = lines[key_line - 1].split("=", 1)[-1].strip()
        if after in ("'''", '"""'):
            return key_line + 1
    return key_line


__all__ = ["locate", "format_field", "value_start_line"]
