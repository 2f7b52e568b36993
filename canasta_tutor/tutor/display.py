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
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.cards import plural
from ..engine.observer import observe
from ..engine.state import seat_title
from ..notation.cardnames import JOKER, card_label, split_code
from .view import POSITIONS, TableUI, build_view, player_name, side_order

__all__ = ["card_label", "card_html", "hand_html", "sort_key", "HAND_CSS", "state_html", "asset_path", "back_html"]

_RANK_FACES = {"T": "10"}
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


def sort_key(code: str) -> tuple[int, int]:
    """Key that orders cards for display: threes, 4..A, then deuces and jokers.

    >>> sorted(['JK', '2C', 'AS', '4H', '3D'], key=sort_key)
    ['3D', '4H', 'AS', '2C', 'JK']
    """
    rank, suit = split_code(code)
    if rank == JOKER:
        return (len(_RANK_ORDER), 0)
    return (_RANK_ORDER[rank], _SUIT_ORDER[suit])


def card_html(code: str, four_colour: bool = False) -> str:
    """Return one card face as an HTML fragment (needs ``HAND_CSS`` to look right).

    The element has ``class="ct-card ..."``, ``data-card`` holding the code,
    and ``aria-label``/``title`` holding :func:`card_label`.  Hearts and
    diamonds are red; with ``four_colour=True`` clubs are green and diamonds
    blue.  Jokers show ``JKR`` and a star.

    A ten carries ``ct-ten`` (its two-character face is drawn narrower, so a card
    overlapping it in a meld never hides the 0), as in the live table.

    >>> print(card_html('TS'))  # doctest: +NORMALIZE_WHITESPACE
    <span class="ct-card ct-black ct-ten" data-card="TS" role="img" aria-label="ten of spades"
    title="ten of spades"><span class="ct-rank" aria-hidden="true">10</span><span
    class="ct-suit" aria-hidden="true">♠</span></span>
    >>> 'ct-blue' in card_html('9D', four_colour=True)
    True
    >>> 'JKR' in card_html('JK')
    True
    """
    rank, suit = split_code(code)
    label = html.escape(card_label(code), quote=True)
    if rank == JOKER:
        classes = "ct-card ct-joker ct-wild"
        face, glyph = "JKR", "\u2605"
    else:
        colour = (_SUIT_COLOURS_4 if four_colour else _SUIT_COLOURS)[suit]
        classes = f"ct-card ct-{colour}" + (" ct-wild" if rank == "2" else "") + (" ct-ten" if rank == "T" else "")
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


# --------------------------------------------------------------------------
# the whole table, as static HTML


def asset_path(name: str) -> Path:
    """Path of a front-end file: the installed package's ``widgets/`` first, then the repo's.

    >>> asset_path("table.css").name
    'table.css'
    """
    here = Path(__file__).resolve().parent.parent  # the package (this file is in its tutor/)
    for folder in (here / "widgets", here.parent / "widgets"):
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"front-end file {name!r} not found in {here / 'widgets'} or {here.parent / 'widgets'}")


@lru_cache(maxsize=1)
def _table_css() -> str:
    try:
        return asset_path("table.css").read_text(encoding="utf-8")
    except OSError:  # pragma: no cover - a broken install still renders, unstyled
        return ""


def back_html() -> str:
    """A face-down card.

    >>> 'ct-back' in back_html()
    True
    """
    return '<span class="ct-card ct-back" aria-hidden="true"></span>'


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


#: a canasta's badge by the view's ``canasta`` (Samba's sequence of seven; Italian Canasta's deuces)
BADGES = {"natural": "natural canasta", "mixed": "mixed canasta", "samba": "samba", "deuces": "canasta of deuces"}


def _meld_html(meld: dict, four_colour: bool) -> str:
    classes = ["ct-meld"]
    badge = ""
    text = BADGES.get(meld["canasta"], f"{meld['canasta']} canasta") if meld["canasta"] else ""
    if meld["canasta"]:
        classes.append(f"ct-canasta ct-canasta-{meld['canasta']}")
        badge = f'<span class="ct-badge ct-badge-{_e(meld["canasta"])}">{_e(text)}</span>'
        cards = f'<span class="ct-stack">{card_html(meld["top"], four_colour)}</span>'
    else:
        cards = "".join(card_html(c, four_colour) for c in meld["cards"])
        if meld["short"]:
            classes.append("ct-short")
            badge = '<span class="ct-badge ct-badge-short">one to go</span>'
    count = len(meld["cards"])
    number = meld.get("number")
    kind = "sequence" if meld.get("sequence") else "set"
    head = f"meld m{number}, {kind} of" if number is not None else "meld of"
    label = f"{head} {meld['name']}: {count} cards, {meld['n']} natural, {meld['w']} wild"
    if meld["canasta"]:
        label += f", {text}"
    elif meld["short"]:
        label += ", one card short of a canasta"
    tag = f'<span class="ct-meld-no" aria-hidden="true">m{number}</span>' if number is not None else ""
    return (f'<div class="{" ".join(classes)}" data-kind="{_e(meld["kind"])}" aria-label="{_e(label)}">'
            f'<div class="ct-meld-cards">{cards}</div>'
            f'<div class="ct-meld-info">{tag}<span class="ct-count">{count}</span>{badge}</div></div>')


def _seat_html(pos: str, p: dict, four_colour: bool) -> str:
    cls = f"ct-seat ct-seat-{pos}" + (" ct-active" if p["active"] else "")
    dealer = ' <span class="ct-dealer" title="dealer">D</span>' if p["dealer"] else ""
    head = (f'<div class="ct-seat-name">{_e(p["name"])} ({p["seat"]}){dealer} '
            f'<span class="ct-count" data-count="{p["count"]}">{_e(p["count_text"])}</span></div>')
    if p["cards"] is not None:
        body = "".join(card_html(c, four_colour) for c in sorted(p["cards"], key=sort_key))
        body = f'<div class="ct-hand" role="group" aria-label="{_e(p["name"])}\'s hand">{body}</div>'
    else:
        backs = back_html() * min(p["count"], 15)
        body = (f'<div class="ct-backs" role="img" aria-label="{_e(p["name"])}: {_e(p["count_text"])}, face down">'
                f'{backs}</div>')
    return f'<div class="{cls}" data-seat="{p["seat"]}">{head}{body}</div>'


def _pile_html(pile: dict, stock: int, four_colour: bool) -> str:
    stock_html = (f'<div class="ct-stock" aria-label="stock: {plural(stock, "card")}">'
                  f'{back_html() if stock else "<span class=ct-empty></span>"}'
                  f'<div class="ct-caption">Stock <span class="ct-stock-count">{stock}</span></div></div>')
    if pile["top"]:
        freezer = ""
        if pile["freezer"]:
            freezer = (f'<span class="ct-sideways" title="frozen by the {_e(card_label(pile["freezer"]))}">'
                       f'{card_html(pile["freezer"], four_colour)}</span>')
        top = card_html(pile["top"], four_colour)
        if pile["top_sideways"]:
            top = f'<span class="ct-sideways-top">{top}</span>'
        frozen = '<span class="ct-frozen-tag">FROZEN</span>' if pile["frozen_all"] else ""
        down = pile.get("down", 0)
        if down:  # the cards face down under the turned card (R-ITAL-3)
            freezer = (f'<span class="ct-pile-down" title="{plural(down, "card")} face down">{back_html()}</span>'
                       + freezer)
        inner = f'{freezer}<span class="ct-pile-top">{top}</span>{frozen}'
    else:
        inner = '<span class="ct-empty"></span>'
    cls = "ct-pile" + (" ct-frozen" if pile["frozen_all"] else "")
    label = f"discard pile: {plural(pile['size'], 'card')}" + (", frozen" if pile["frozen_all"] else "")
    if pile["top"] and pile["freezer"]:
        label += f", the {card_label(pile['freezer'])} set crosswise"
    if pile.get("down"):
        label += f", {plural(pile['down'], 'card')} face down"
    cards = "ct-pile-cards ct-crosswise" if pile["top"] and pile["freezer"] else "ct-pile-cards"
    return (stock_html + f'<div class="{cls}" aria-label="{_e(label)}"><div class="{cards}">{inner}</div>'
            f'<div class="ct-caption">Pile <span class="ct-pile-size">{pile["size"]}</span></div></div>')


def _melds_html(title: str, melds: list[dict], red3: list[str], who: str, four_colour: bool) -> str:
    reds = "".join(card_html(c, four_colour) for c in red3)
    reds_html = f'<div class="ct-red3" aria-label="red threes: {len(red3)}">{reds}</div>' if red3 else ""
    body = "".join(_meld_html(m, four_colour) for m in melds) or '<span class="ct-none">no melds yet</span>'
    return (f'<div class="ct-melds ct-melds-{who}" data-side="{who}"><div class="ct-melds-title">{_e(title)}'
            f'</div>{reds_html}<div class="ct-meld-row">{body}</div></div>')


def _score_html(view: dict) -> str:
    if "sides" in view:  # a variant: one column per side
        heads = "".join(f"<th>{_e(t)}</th>" for t in view["side_titles"])
        rows = "".join(f'<tr><th>Hand {r[0]}</th>{"".join(f"<td>{x}</td>" for x in r[1:])}</tr>'
                       for r in view["score"]["rows"])
        totals = "".join(f'<td>{sd["total"]}</td>' for sd in view["sides"])
        mins = "".join(f'<td>{sd["minimum"]}{" ✓" if sd["initial"] else ""}</td>' for sd in view["sides"])
        return (f'<div class="ct-panel"><h4>Score sheet</h4><table class="ct-score"><thead><tr><th></th>{heads}'
                f'</tr></thead><tbody>{rows}<tr><th>Total</th>{totals}</tr><tr><th>Minimum</th>{mins}</tr>'
                f'</tbody></table><div class="ct-turn">{_e(view["deal_label"])}: {_e(_turn_text(view))}</div></div>')
    sc = view["score"]
    rows = "".join(f'<tr><th>Hand {r[0]}</th><td>{r[1]}</td><td>{r[2]}</td></tr>' for r in sc["rows"])
    return (f'<div class="ct-panel"><h4>Score sheet</h4><table class="ct-score"><thead><tr><th></th><th>We</th>'
            f'<th>They</th></tr></thead><tbody>{rows}'
            f'<tr><th>Total</th><td class="ct-we">{sc["we"]}</td><td class="ct-they">{sc["they"]}</td></tr>'
            f'<tr><th>Minimum</th><td>{sc["min_we"]}{" ✓" if sc["initial_we"] else ""}</td>'
            f'<td>{sc["min_they"]}{" ✓" if sc["initial_they"] else ""}</td></tr></tbody></table>'
            f'<div class="ct-turn">{_e(view["deal_label"])}: {_e(_turn_text(view))}</div></div>')


def _turn_text(view: dict) -> str:
    if view["phase"] == "game_over":
        return "Game over"
    if view["phase"] == "hand_over":
        return "Hand over"
    actor = view["actor"]
    return f"{seat_title(actor)} to play ({view['phase']})"


def _result_html(result: dict, titles: list[str] | None = None) -> str:
    rows = (("natural_canastas", "Natural canastas"), ("mixed_canastas", "Mixed canastas"),
            ("red_threes", "Red threes"), ("going_out", "Going out"), ("concealed", "Concealed"),
            ("melded", "Cards melded"), ("in_hand", "Cards in hand"), ("total", "Hand total"))
    sides = result.get("sides") or [result["we"], result["they"]]
    heads = "".join(f"<th>{_e(t)}</th>" for t in (titles or ["We", "They"]))
    body = "".join(f'<tr><th>{label}</th>{"".join(f"<td>{sd[key]}</td>" for sd in sides)}</tr>' for key, label in rows)
    return (f'<div class="ct-panel"><h4>Score of the hand</h4><table class="ct-result"><thead><tr><th>This hand'
            f'</th>{heads}</tr></thead><tbody>{body}</tbody></table></div>')


def _totals_before_the_hand(view: dict, state: Any, me: int) -> None:
    """The score sheet as it stood when the finished hand began: its row left out, each total less the
    hand's score (a lesson that asks for the score must not show it)."""
    hand = state.score_hand().sides
    score = view["score"]
    score["rows"] = [r for r in score["rows"] if r[0] != state.deal_no + 1]
    if "sides" in view:
        for sd, side in zip(view["sides"], side_order(state.variant, me), strict=False):
            sd["total"] -= hand[side].total
    else:
        we = state.sides[me]
        score["we"] -= hand[we].total
        score["they"] -= hand[1 - we].total


def state_html(state: Any, seat: str | None = None, four_colour: bool = False, result: bool = True) -> str:
    """A static HTML table view of a position (no JavaScript needed), drawn from the same view
    model as the live table (:func:`canasta_tutor.tutor.view.build_view`).

    ``seat=None`` is the teacher's view with every hand face up (seen from
    South); a seat (``"S"``) shows that seat's cards and card backs with counts
    for the others.  The styles are ``widgets/table.css``, the same as the live widget.
    ``result=False`` leaves out a finished hand's score (a lesson that asks the learner for it).

    >>> from canasta_tutor import Game
    >>> state = Game().new_initial_state(seed=7)
    >>> out = state_html(state, seat="S")
    >>> out.count('class="ct-card ct-back"') > 0, 'data-seat="N"' in out
    (True, True)
    >>> all(f'data-card="{c}"' in out for c in state.hand("S"))
    True
    """
    variant = state.variant
    letters = variant.seats
    me = letters.index(seat) if seat else max(letters.find("S"), 0)
    obs = observe(state, me)
    ui = TableUI(four_colour=four_colour)
    if seat is None:
        ui.reveal = {s: state.hand(letters[s]) for s in range(variant.players)}
    else:
        ui.reveal = {me: list(obs.hand)}
    view = build_view(obs, ui)
    pl = view["players"]
    positions = view.get("positions", POSITIONS)
    for pos in positions:
        pl[pos]["name"] = player_name(variant, letters.index(pl[pos]["seat"]))  # a printed table names every seat
        if pos != "bottom" and seat is not None:
            pl[pos]["cards"] = None
    if "sides" not in view:
        side_names = ("N–S", "E–W") if me & 1 == 0 else ("E–W", "N–S")
        melds = (_melds_html(f"They ({side_names[1]})", view["melds"][1], view["red3"][1], "they", four_colour)
                 + f'<div class="ct-middle">{_pile_html(view["pile"], view["stock"], four_colour)}</div>'
                 + _melds_html(f"We ({side_names[0]})", view["melds"][0], view["red3"][0], "we", four_colour))
        board = (_seat_html("top", pl["top"], four_colour) + _seat_html("left", pl["left"], four_colour)
                 + f'<div class="ct-center">{melds}</div>' + _seat_html("right", pl["right"], four_colour)
                 + _seat_html("bottom", pl["bottom"], four_colour))
    else:  # a variant: every other side's melds above the pile, the learner's below
        titles = view["side_titles"]
        others = "".join(_melds_html(titles[i], view["melds"][i], view["red3"][i], "they", four_colour)
                         for i in range(1, len(titles)))
        melds = (others + f'<div class="ct-middle">{_pile_html(view["pile"], view["stock"], four_colour)}</div>'
                 + _melds_html(titles[0], view["melds"][0], view["red3"][0], "we", four_colour))
        board = ("".join(_seat_html(pos, pl[pos], four_colour) for pos in positions[1:])
                 + f'<div class="ct-center">{melds}</div>' + _seat_html("bottom", pl["bottom"], four_colour))
    if not result and state.phase == "hand_over":  # nor the score sheet's line and totals after the hand
        view["result"] = None
        _totals_before_the_hand(view, state, me)
    side = _score_html(view)
    if view["result"]:
        side += _result_html(view["result"], view["side_titles"] if "sides" in view else None)
    label = "teacher's view: every hand" if seat is None else f"seen from {player_name(variant, me)}"
    classes = "ct-table ct-static" + (" ct-four" if four_colour else "")
    if "sides" in view:
        classes += f" ct-players-{variant.players}"
    return (f'<div class="ct-root"><style>{_table_css()}</style>'
            f'<div class="{classes}" role="region" aria-label="Canasta table, {_e(label)}">'
            f'<div class="ct-board">{board}</div><div class="ct-side">{side}</div></div></div>')
