"""HTML rendering of playing cards for notebooks.

Cards are drawn with HTML and CSS only (no images, no JavaScript), so the
output works in JupyterLab, in exported HTML and in a plain browser.  Every
card carries its code in ``data-card`` and a spoken name in ``aria-label``
so screen readers and browser tests can find it.

Card codes are a rank character (``2 3 4 5 6 7 8 9 T J Q K A``) followed by
a suit character (``S H D C``); the joker is ``JK``.

>>> card_label('7H')
'seven of hearts'
>>> 'data-card="TS"' in card_html('TS')
True
>>> hand_html(['AS', '2C', '3H', '7D']).count('class="ct-card')
4
"""

from __future__ import annotations

import html
from collections.abc import Sequence

__all__ = ["card_label", "card_html", "hand_html", "sort_key", "HAND_CSS"]

JOKER = "JK"

RANKS = "23456789TJQKA"
SUITS = "SHDC"

_RANK_NAMES = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
_RANK_FACES = {"T": "10"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_GLYPHS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
# Colour class per suit: classic two-colour deck, and the four-colour deck
# (clubs green, diamonds blue) that is easier to read at a glance.
_SUIT_COLOURS = {"S": "black", "H": "red", "D": "red", "C": "black"}
_SUIT_COLOURS_4 = {"S": "black", "H": "red", "D": "blue", "C": "green"}

# Display order: black threes/red threes first, natural ranks 4..A, then the
# wild cards (deuces, then jokers) grouped at the end.
_RANK_ORDER = {r: i for i, r in enumerate("3456789TJQKA2")}
_SUIT_ORDER = {s: i for i, s in enumerate("SHCD")}

HAND_CSS = """
.ct-hand-wrap { margin: 0.25em 0; color: inherit; font-family: inherit; }
.ct-hand-title { font-weight: 600; margin: 0 0 0.3em 0; color: inherit; }
.ct-hand { display: flex; flex-wrap: wrap; gap: 0.3em; align-items: flex-start; }
.ct-card {
  box-sizing: border-box; display: inline-flex; flex-direction: column;
  align-items: center; justify-content: center;
  width: 2.6em; height: 3.7em; padding: 0.15em;
  background: #ffffff; color: #1a1a1a;
  border: 1px solid #777; border-radius: 0.35em;
  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.35);
  font-family: "DejaVu Sans", "Segoe UI Symbol", system-ui, sans-serif;
  line-height: 1.1; user-select: none;
}
.ct-card .ct-rank { font-weight: 700; font-size: 1.05em; }
.ct-card .ct-suit { font-size: 1.25em; }
.ct-card.ct-black { color: #1a1a1a; }
.ct-card.ct-red { color: #c8102e; }
.ct-card.ct-green { color: #0a7a2f; }
.ct-card.ct-blue { color: #0b4fb3; }
.ct-card.ct-joker { color: #6a1b9a; }
.ct-card.ct-joker .ct-rank { font-size: 0.8em; letter-spacing: 0.03em; }
.ct-card.ct-wild { border-color: #b8860b; border-width: 2px; }
""".strip()


def _parse(code: str) -> tuple[str, str]:
    """Split a card code into (rank, suit); the joker is ('JK', '').

    >>> _parse('TS')
    ('T', 'S')
    >>> _parse('JK')
    ('JK', '')
    >>> _parse('1S')
    Traceback (most recent call last):
    ...
    ValueError: bad card code '1S': expected rank 2-9/T/J/Q/K/A plus suit S/H/D/C, or 'JK'
    """
    if isinstance(code, str):
        if code == JOKER:
            return JOKER, ""
        if len(code) == 2 and code[0] in RANKS and code[1] in SUITS:
            return code[0], code[1]
    raise ValueError(
        f"bad card code {code!r}: expected rank 2-9/T/J/Q/K/A plus suit S/H/D/C, or 'JK'"
    )


def card_label(code: str) -> str:
    """Return the spoken name of a card, for screen readers and tooltips.

    >>> card_label('7H')
    'seven of hearts'
    >>> card_label('TS')
    'ten of spades'
    >>> card_label('AD')
    'ace of diamonds'
    >>> card_label('JK')
    'joker'
    >>> card_label('ZZ')
    Traceback (most recent call last):
    ...
    ValueError: bad card code 'ZZ': expected rank 2-9/T/J/Q/K/A plus suit S/H/D/C, or 'JK'
    """
    rank, suit = _parse(code)
    if rank == JOKER:
        return "joker"
    return f"{_RANK_NAMES[rank]} of {_SUIT_NAMES[suit]}"


def sort_key(code: str) -> tuple[int, int]:
    """Key that orders cards for display: threes, 4..A, then deuces and jokers.

    >>> sorted(['JK', '2C', 'AS', '4H', '3D'], key=sort_key)
    ['3D', '4H', 'AS', '2C', 'JK']
    """
    rank, suit = _parse(code)
    if rank == JOKER:
        return (len(_RANK_ORDER), 0)
    return (_RANK_ORDER[rank], _SUIT_ORDER[suit])


def card_html(code: str, four_colour: bool = False) -> str:
    """Return one card face as an HTML fragment (needs ``HAND_CSS`` to look right).

    The element has ``class="ct-card ..."``, ``data-card`` holding the code,
    and ``aria-label``/``title`` holding :func:`card_label`.  Hearts and
    diamonds are red; with ``four_colour=True`` clubs are green and diamonds
    blue.  Jokers show ``JKR`` and a star.

    >>> print(card_html('TS'))  # doctest: +NORMALIZE_WHITESPACE
    <span class="ct-card ct-black" data-card="TS" role="img" aria-label="ten of spades"
    title="ten of spades"><span class="ct-rank" aria-hidden="true">10</span><span
    class="ct-suit" aria-hidden="true">♠</span></span>
    >>> 'ct-blue' in card_html('9D', four_colour=True)
    True
    >>> 'JKR' in card_html('JK')
    True
    """
    rank, suit = _parse(code)
    label = html.escape(card_label(code), quote=True)
    if rank == JOKER:
        classes = "ct-card ct-joker ct-wild"
        face, glyph = "JKR", "\u2605"
    else:
        colour = (_SUIT_COLOURS_4 if four_colour else _SUIT_COLOURS)[suit]
        classes = f"ct-card ct-{colour}" + (" ct-wild" if rank == "2" else "")
        face, glyph = _RANK_FACES.get(rank, rank), _SUIT_GLYPHS[suit]
    return (
        f'<span class="{classes}" data-card="{html.escape(code, quote=True)}" role="img" '
        f'aria-label="{label}" title="{label}">'
        f'<span class="ct-rank" aria-hidden="true">{face}</span>'
        f'<span class="ct-suit" aria-hidden="true">{glyph}</span></span>'
    )


def hand_html(
    codes: Sequence[str], title: str | None = None, four_colour: bool = False
) -> str:
    """Return a sorted row of cards as HTML, with its ``<style>`` included once.

    Cards are the direct children of ``<div class="ct-hand">``, ordered by
    :func:`sort_key`: threes first, then 4 up to ace, then the wild cards
    (deuces and jokers) grouped at the end.  The optional ``title`` is shown
    above the row and used as the group's accessible name.  Text outside the
    cards inherits the page colours, so it reads in light and dark themes.

    >>> out = hand_html(['JK', 'KH', '3C', '2S'], title='South')
    >>> out.count('<style>')
    1
    >>> [part.split('"')[0] for part in out.split('data-card="')[1:]]
    ['3C', 'KH', '2S', 'JK']
    >>> hand_html(['XX'])
    Traceback (most recent call last):
    ...
    ValueError: bad card code 'XX': expected rank 2-9/T/J/Q/K/A plus suit S/H/D/C, or 'JK'
    """
    if isinstance(codes, str):
        raise ValueError(f"hand_html expects a sequence of card codes, got the string {codes!r}")
    ordered = sorted(codes, key=sort_key)  # validates every code
    cards = "".join(card_html(c, four_colour=four_colour) for c in ordered)
    label = html.escape(title if title is not None else "hand", quote=True)
    heading = (
        f'<div class="ct-hand-title">{html.escape(title)}</div>' if title is not None else ""
    )
    return (
        f'<div class="ct-hand-wrap"><style>{HAND_CSS}</style>{heading}'
        f'<div class="ct-hand" role="group" aria-label="{label}">{cards}</div></div>'
    )
