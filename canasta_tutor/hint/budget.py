"""The hint's budget in the browser: the course run in a browser tab (JupyterLite's Pyodide kernel, docs/lite.md).

There the search runs in plain Python compiled to WebAssembly, several times slower than on a desktop (where
it also has its compiled copy), so the hint races a share of its variant's playouts, :data:`BROWSER_SHARE`,
chosen so that one hint takes at most about 3 seconds in Chromium on a small machine (the figures, and how
often the lighter race picks the move a long search picks, are in docs/lite.md).  The race is the same
search: for a position, a seed and a budget it picks the same move in the browser as on a desktop.  The
table and the hint say that in-browser hints are lighter (:func:`browser_note`).
"""

from __future__ import annotations

import sys

#: the hint runs in Pyodide (a browser tab)
IN_BROWSER = sys.platform == "emscripten"
#: the share of a variant's race (``Variant.hint_playouts``) that the hint runs in the browser
BROWSER_SHARE = 0.25


def share() -> float:
    """The share of its variant's playouts the hint races here: :data:`BROWSER_SHARE` in the browser, else 1."""
    return BROWSER_SHARE if IN_BROWSER else 1.0


def scaled(playouts: int) -> int:
    """``playouts``, the variant's race, as the hint runs it here (never below 2).

    >>> scaled(1600) == (400 if IN_BROWSER else 1600)
    True
    """
    return playouts if not IN_BROWSER else max(2, round(playouts * BROWSER_SHARE))


def browser_note(playouts: int) -> str:
    """What the hint says of its lighter budget in the browser ("" elsewhere); ``playouts`` is the variant's
    full race."""
    if not IN_BROWSER:
        return ""
    return (f"In the browser this hint is lighter: it plays out {scaled(playouts)} sampled deals where a "
            f"desktop plays {playouts}, so on a close call it may choose another move than canasta-tutor "
            f"installed on a computer would.")


__all__ = ["BROWSER_SHARE", "IN_BROWSER", "browser_note", "scaled", "share"]
