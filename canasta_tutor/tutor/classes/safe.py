"""Showing what students wrote: every student string is made harmless where it is shown.

A student chooses their nbgrader id (a folder name), and writes their logs and stores; the
class report shows those strings in three more places than HTML, each with its own danger:

- a spreadsheet reads a CSV cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return as a formula (OWASP's "CSV injection"): :func:`csv_cell` puts a ``'`` in front, as
  OWASP recommends, so the cell shows as text;
- a terminal obeys control characters (an escape sequence can rewrite the screen) and shows
  right-to-left overrides that turn text around: :func:`terminal_text` shows them as visible
  escapes instead;
- matplotlib reads ``$...$`` as mathematics: :func:`plot_label` escapes the dollar sign (and puts
  one space for any run of blanks: a label is one line).

HTML is escaped by the tools that build it: pandas' ``Styler`` with ``escape="html"`` and
jinja2 with autoescape (see :mod:`.page`).

>>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("-3"), csv_cell("s01")
('\\'=HYPERLINK("http://x")', "'-3", 's01')
>>> terminal_text("s01\\x1b[2Js02\\u202etxt.exe")
's01\\\\x1b[2Js02\\\\u202etxt.exe'
>>> plot_label("$x$")
'\\\\$x\\\\$'
"""

from __future__ import annotations

import re
from typing import Any

#: what makes a spreadsheet read a cell as a formula (OWASP)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# C0 and C1 controls (but newline and tab), and the Unicode characters that reorder or hide text
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell a spreadsheet shows as text (a string starting as a formula gets a ``'``)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def terminal_text(text: str) -> str:
    """Text a terminal shows as it is: control and reordering characters as visible escapes."""
    return _UNSAFE.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


def plot_label(text: str, most: int = 24) -> str:
    """A label for matplotlib: no mathematics, no control characters, at most ``most`` characters."""
    text = " ".join(terminal_text(text).split())
    if len(text) > most:
        text = text[:most - 1] + "…"
    return text.replace("$", r"\$")


def short(text: str, most: int = 24) -> str:
    """A name cut to ``most`` characters for a column of text (the whole name is in the CSV and JSON)."""
    text = terminal_text(text)
    return text if len(text) <= most else text[:most - 1] + "…"


__all__ = ["FORMULA_START", "csv_cell", "plot_label", "short", "terminal_text"]
