"""Positions as plain text, small enough for a teacher to write by hand.

A position is a set of ``key: value`` lines; ``#`` starts a comment and blank
lines are ignored.  Only ``turn`` and the four hands are required::

    # South to play: take the pack?
    dealer: E
    turn: S draw
    totals: NS 1200 EW 300
    stock: 54
    pile: 5H 2C* 9D 9S
    N: 11
    E: 9
    S: 9H 9C KH KD KS 4D 7C JK
    W: 10
    melds EW: QH QS QD JK; 8H 8D 8S 8C 8H 8D 8S (natural canasta)
    red threes EW: 3H

The keys:

- ``seed`` and ``deal``: where later shuffles come from (default 0 and 0).
- ``options``: rule options that differ from the defaults (``black_three=stops``...).
- ``players``: names by seat, comma separated.
- ``dealer``: the seat that dealt this hand.
- ``turn``: the seat whose turn it is and the phase (``draw``, ``meld``, ``answer``,
  ``hand_over``, ``game_over``), then any turn flags: ``asked`` (before the draw),
  ``asked-after-draw``, ``answer=yes``/``answer=no``, ``melded`` (melded this turn),
  ``took-pack``, ``shown`` (melds shown to take the pack), ``pending=N`` (points melded
  this turn toward the initial minimum).  A finished hand may say who ended it:
  ``turn: W hand_over went-out`` (or ``went-out-concealed``), so that it scores right.
- ``totals``: each side's total at the start of this deal; it sets the minimums.
- ``stock``: a count (``stock: 0`` or ``stock: -`` is an empty stock), or the cards
  bottom to top, or a count with the cards on top fixed, the next card drawn first:
  ``stock: 54 top 3H 6S`` (3♥ comes next, then 6♠; the other 52 are filled in).
- ``pile``: the discard pile bottom to top; ``*`` after a card marks the card
  turned sideways to show the freeze.  The freeze follows from the cards.  In Italian
  Canasta the cards laid face down under the turned card (R-ITAL-3) come first, then
  ``face down,`` and the face-up cards: ``pile: 4C 9S KD 7H 5S face down, 6D``, or in a
  seat's view, which does not know them, ``pile: 5 cards face down, 6D``.
- ``N``, ``E``, ``S``, ``W``: a hand, either its cards or a count (``11``, ``11 cards``, ``1 card``),
  optionally followed by ``known: K K`` (cards the table saw go into it with a pack).
- ``melds NS`` / ``melds EW``: melds separated by ``;``, each a list of cards,
  optionally followed by ``(natural canasta)`` or ``(mixed canasta)`` as a check.
- ``red threes NS`` / ``red threes EW``.
- ``first-turn``: seats that have not had their first turn yet (red threes may be in hand).
- ``melded-before``: seats that have melded on an earlier turn of this hand.

Other variants (:mod:`canasta_tutor.engine.variants`) are named by a ``variant:`` line, e.g.
``variant: three-handed``; a position without one is the classic four-player game.  The
variant decides the seat letters and side names, and with them the keys:

- ``two-handed``: seats ``N`` and ``S``, each its own side: ``totals: N 0 S 0``,
  ``melds N:``, ``melds S:``, ``red threes S:``.
- ``three-handed``: seats ``E``, ``S``, ``W`` (North's chair is empty), each its own side:
  ``totals: E 0 S 0 W 0``, ``melds W:``...
- ``samba``: the classic seats and sides with three decks.  A side's melds are numbered in the
  order written (``m1`` first, as in the actions ``put K on m1``); a meld of one suit in a row of
  ranks is a sequence (``7H 8H 9H``; ``(samba)`` may mark one of seven), and a side may have
  several sets of one rank.
- ``bolivia`` and ``chile`` (the same game, R-BOL-9): Samba's melds, and a meld of wild cards alone
  (``JK 2S 2H``; ``(bolivia)`` may mark one of seven, R-BOL-2); a sequence of seven may be marked
  ``(escalera)``, Bolivia's name for it, or ``(samba)``.
- ``six-handed``: seats ``N E P S W Q`` in turn order (``P`` between East and South,
  ``Q`` between West and North), partners opposite, sides ``NS``, ``EW`` and ``PQ``:
  ``totals: NS 0 EW 0 PQ 0``, ``melds PQ:``...; three decks, so three of each card and six jokers.
- ``five-handed``: the classic seats, sides and cards; ``players`` names the four in the chairs and
  ``out: F`` the player sitting out this hand (R-FIVE-1; by default ``F``, the fifth player's letter).

``players`` names one player per seat, in the variant's seat order; there is one hand line
per seat (all required), and ``first-turn``/``melded-before`` use the variant's letters.
Where each plays alone nobody asks "may I go out?", so the turn flags ``asked`` and
``answer=...`` and the phase ``answer`` are refused.  Without a ``dealer`` line the seat
before South deals.  The ``variant`` line is written after the header line by
:func:`format_position` (never for the classic game, so classic files are unchanged).

Cards are codes such as ``7H``, ``TS``, ``JK``; a rank alone (``K``) means any king.
Hands given as a count and a stock given as a count are filled from the cards
not named anywhere, in an order set by ``seed``, so a position always parses to
the same state.  The filling respects what the turn says (see
:mod:`canasta_tutor.engine.hidden`): a player who asked "may I go out?" gets a hand that
could go out, and so on.

Every position is checked (:func:`validate_position`): one that no legal play
can reach, or where the player to act has no legal action, raises
:class:`ImpossiblePositionError` naming the line, the field and the reason.  Last, the
engine's own invariants (:func:`~canasta_tutor.engine.invariants.check_invariants`, less the facts
only a game's history holds) must pass, so every position read is one the engine could hold.
Input is bounded: at most ``MAX_POSITION_CHARS`` characters and
``MAX_LINE_CHARS`` per line; a UTF-8 byte-order mark is allowed.

>>> state = parse_position(EXAMPLE.replace("stock: 54", "stock: 54 top 3H 6S"))
>>> format_position(state).splitlines()[4]
'stock: 54 top 3H 6S'
>>> state.apply(("draw",))    # South draws 3H, lays it out and draws 6S in its place
>>> "6S" in state.hand("S"), [format_card(c) for c in state.red3[0]], len(state.stock)
(True, ['3H'], 52)

>>> state = parse_position(EXAMPLE)
>>> state.current_seat, state.phase, len(state.stock)
('S', 'draw', 54)
>>> parse_position(format_position(state)) .hand("S") == state.hand("S")
True
>>> format_position(parse_position(format_position(state))) == format_position(state)
True
"""

from __future__ import annotations

import random
from typing import Iterable, Mapping, NoReturn, Sequence

from ..engine.cards import (
    ALL_CARD_CODES,
    BLACK_THREE,
    CARD_KIND,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_TOKENS,
    KIND_VALUES,
    NUM_KINDS,
    RED_THREE,
    format_card,
    is_canasta,
    normalize_code,
    plural,
    sort_key,
)
from ..engine.errors import ImpossiblePositionError, NotationError
from ..engine.game import check_player_names
from ..engine.hidden import fill_hidden, turn_problem
from ..engine.pennies_melds import SEVEN as SEVEN_KIND
from ..engine.invariants import check_invariants
from ..engine.options import RuleOptions
from ..engine.samba import BOLIVIA_LENGTH, WILD_SUIT, new_state
from ..engine.state import (
    CHAIN_KINDS as _CHAIN,
    ANSWER,
    DRAW,
    GAME_OVER,
    HAND_OVER,
    MELD,
    PHASES,
    State,
)
from ..engine.variants import CLASSIC, UnknownVariantError, Variant, get_variant

EXAMPLE = """\
# South to play: take the pack?
dealer: E
turn: S draw
totals: NS 1200 EW 300
stock: 54
pile: 5H 2C* 9D 9S
N: 11
E: 9
S: 9H 9C KH KD KS 4D 7C JK
W: 10
melds EW: QH QS QD JK; 8H 8D 8S 8C 8H 8D 8S (natural canasta)
red threes EW: 3H
"""

_KIND_ONLY = {"4", "5", "6", "7", "8", "9", "T", "10", "J", "Q", "K", "A", "2", "3"}


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _or_list(items: Iterable[str]) -> str:
    """``N, E, S or W``."""
    got = list(items)
    return got[0] if len(got) == 1 else ", ".join(got[:-1]) + " or " + got[-1]


class _Pool:
    """The physical cards of the variant's deck (classic: 108), handed out as the position names them."""

    def __init__(self, variant: Variant = CLASSIC) -> None:
        self.variant = variant
        self.free: dict[str, list[int]] = {}
        for card, code in enumerate(ALL_CARD_CODES[:variant.num_cards]):
            self.free.setdefault(code, []).append(card)

    def take_code(self, code: str, line: int, field: str) -> int:
        ids = self.free.get(code)
        if not ids:
            v = self.variant
            if code == "JK":
                raise ImpossiblePositionError(f"more than {_word(v.jokers)} jokers in the position", line, field)
            raise ImpossiblePositionError(f"more than {_word(v.packs)} {code} in the position ({_word(v.packs)} "
                                          f"decks hold {_word(v.packs)} of each)", line, field)
        return ids.pop(0)

    def take_kind(self, token: str, line: int, field: str) -> int:
        t = "T" if token == "10" else token
        if t == "3":
            codes = ["3S", "3C"]
        else:
            codes = [t + s for s in "SHDC"]
        for code in codes:
            if self.free.get(code):
                return self.free[code].pop(0)
        name = "black threes" if t == "3" else KIND_NAMES[KIND_TOKENS.index(t)]
        raise ImpossiblePositionError(f"too many {name} in the position", line, field)

    def remaining(self) -> list[int]:
        return sorted(c for ids in self.free.values() for c in ids)


_KindSlot = tuple[list[int], int, str, int, str]  # (cards, index, kind token, line, field)


def _cards(text: str, pool: _Pool, line: int, field: str, pending: list[_KindSlot]) -> list[int]:
    """Parse card tokens; kind-only tokens are resolved after all codes are placed."""
    out: list[int] = []
    for tok in text.split():
        t = tok.upper()
        if t in _KIND_ONLY:
            slot = len(out)
            out.append(-1)
            pending.append((out, slot, t, line, field))
            continue
        try:
            code = normalize_code(tok)
        except NotationError:
            raise NotationError(f"{tok!r} is not a card: write 7H, TS, JK, or a rank alone like K", line,
                                field) from None
        out.append(pool.take_code(code, line, field))
    return out


def _seat(text: str, line: int | None, field: str, seats: str = CLASSIC.seats) -> int:
    t = text.strip().upper()
    if len(t) != 1 or t not in seats:
        raise NotationError(f"{text!r} is not a seat: use {_or_list(seats)}", line, field)
    return seats.index(t)


def game_ended(totals: Sequence[int], target: int) -> bool:
    """Whether these totals end the game: one side alone has the most, at least ``target``."""
    top = max(totals)
    return top >= target and list(totals).count(top) == 1


def variant_line(text: str, source: str | None = None) -> tuple[int | None, Variant]:
    """The ``variant:`` line of a position (its line number and variant); classic when there is none."""
    found: tuple[int | None, Variant] = (None, CLASSIC)
    for number, raw in position_lines(text, source):
        key, sep, value = raw.split("#", 1)[0].partition(":")
        if sep and " ".join(key.lower().split()) == "variant":
            name = value.strip().lower()
            try:
                return number, get_variant(name)
            except UnknownVariantError as e:
                raise NotationError(str(e), number, "variant") from None
    return found


MAX_POSITION_CHARS = 100_000
MAX_LINE_CHARS = 4_000
_MAX_DIGITS = 7


def quote(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters.

    >>> quote("x" * 100, 10)
    "'xxxxxxxxxx…' (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit] + "…") + f" ({len(text)} characters)"


def _int(text: str, line: int | None, field: str, low: int | None = None) -> int:
    t = text.strip().replace(",", "")
    digits = t[1:] if t[:1] in "+-" else t
    if not digits.isascii() or not digits.isdigit():
        raise NotationError(f"{quote(text)} is not a whole number", line, field)
    if len(digits) > _MAX_DIGITS:
        raise NotationError(f"{quote(text)} is too large a number (at most {_MAX_DIGITS} digits)", line, field)
    value = int(t)
    if low is not None and value < low:
        raise NotationError(f"{quote(text)}: give a number of at least {low}", line, field)
    return value


def _count(text: str) -> str | None:
    """The digits of a count such as ``11`` or ``11 cards``, else None (linear, no regular expression)."""
    words = text.split()
    if not words or not words[0].isascii() or not words[0].isdigit():
        return None
    if len(words) == 1 or (len(words) == 2 and words[1].lower() in ("card", "cards")):
        return words[0]
    return None


def position_lines(text: str, source: str | None = None) -> list[tuple[int, str]]:
    """The numbered lines of a position, checked for size; a byte-order mark is dropped."""
    if len(text) > MAX_POSITION_CHARS:
        raise NotationError(f"{source or 'the position'} is {len(text)} characters long; a position has at "
                            f"most {MAX_POSITION_CHARS}")
    if text.startswith("\ufeff"):
        text = text[1:]
    out = []
    for number, raw in enumerate(text.split("\n"), 1):
        if len(raw) > MAX_LINE_CHARS:
            key = " ".join(raw[:40].partition(":")[0].split()) if ":" in raw[:40] else None
            field = key.upper() if key and len(key) == 1 else key
            raise NotationError(f"the line is {len(raw)} characters long; at most {MAX_LINE_CHARS}: "
                                f"{quote(raw)}", number, field)
        out.append((number, raw.rstrip("\r")))
    return out


def parse_position(text: str, source: str | None = None) -> State:  # noqa: C901 - one pass over a line format
    """Parse a position; raises :class:`NotationError` (malformed) or
    :class:`ImpossiblePositionError` (could not happen), naming the line and field.
    ``source`` (a file name) is named in size errors."""
    _, variant = variant_line(text, source)
    seats = variant.seats
    side_names = variant.side_names
    players = variant.players
    sides = range(variant.n_sides)
    pool = _Pool(variant)
    kind_slots: list[_KindSlot] = []
    values: dict[str, tuple[int, str]] = {}
    order: list[str] = []
    known_keys = {"seed", "deal", "options", "players", "dealer", "turn", "totals", "stock", "pile",
                  "first-turn", "melded-before"}
    known_keys.update(seat.lower() for seat in seats)
    known_keys.update(f"{what} {name.lower()}" for what in ("melds", "red threes") for name in side_names)
    known_keys.add("variant")
    if variant.reserve:
        known_keys.add("out")
    if variant.packet_size:
        known_keys.add("packets")
    for number, raw in position_lines(text, source):
        line = raw.split("#", 1)[0].strip()
        if not line or line.lower() == "canasta-tutor position":
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(f"{quote(raw.strip())} is not a 'key: value' line", number)
        key = " ".join(key.lower().split())
        if key not in known_keys:
            raise NotationError(f"unknown key {quote(key)}; known keys: {', '.join(sorted(known_keys))}",
                                number, key[:40])
        if key in values:
            raise NotationError(f"{key!r} is given twice", number, key)
        values[key] = (number, value.strip())
        order.append(key)
    for key in ("turn", *seats.lower()):
        if key not in values:
            raise NotationError(f"the position needs a '{key.upper() if len(key) == 1 else key}:' line",
                                None, key)

    def get(key: str, default: str = "") -> tuple[int | None, str]:
        if key in values:
            return values[key]
        return None, default

    def line_of(key: str) -> int | None:
        return values.get(key, (None, ""))[0]

    ln, v = get("options")
    try:
        options = RuleOptions.parse(v)
    except NotationError as e:
        raise NotationError(e.message, ln, "options") from None
    ln, v = get("seed", "0")
    seed = _int(v, ln, "seed", low=0)
    ln, v = get("deal", "0")
    deal_no = _int(v, ln, "deal", low=0)
    state = new_state(options, seed, variant)
    state.deal_no = deal_no
    ln, v = get("players")
    if v:
        names = tuple(p.strip() for p in v.split(","))
        try:
            state.players = check_player_names(names, seats)
        except NotationError as e:
            raise NotationError(e.message, ln, "players") from None
    if state.sitting_out() is not None:  # a variant with a player beyond the seats (five-handed)
        _read_out(state, *get("out", variant.reserve))
    # by default the seat before South deals, so South plays first
    ln, v = get("dealer", seats[(seats.index("S") - 1) % players] if "S" in seats else seats[-1])
    state.dealer = _seat(v, ln, "dealer", seats)
    ln, v = get("totals", " ".join(f"{name} 0" for name in side_names))
    words = v.split()
    if len(words) != 2 * len(side_names) or any(words[2 * i].upper() != name for i, name in enumerate(side_names)):
        raise NotationError(f"{quote(v)}: write '{' '.join(f'{name} <total>' for name in side_names)}'", ln,
                            "totals")
    state.totals = [_int(words[2 * i + 1], ln, "totals") for i in sides]
    state.deal_totals = state.totals[:]
    state.minimums = [variant.minimum_for(t) for t in state.totals]

    # turn line
    ln, v = values["turn"]
    words = v.split()
    if len(words) < 2:
        raise NotationError(f"{quote(v)}: write the seat and the phase, e.g. 'S draw'", ln, "turn")
    state.turn = _seat(words[0], ln, "turn", seats)
    phase = words[1].lower()
    if phase not in PHASES:
        raise NotationError(f"{quote(words[1])} is not a phase: use {', '.join(PHASES)}", ln, "turn")
    state.phase = phase
    seen_flags: set[str] = set()
    for flag in words[2:]:
        f = flag.lower()
        name = f.split("=", 1)[0]
        if name in seen_flags:
            raise NotationError(f"the flag {quote(name)} is given twice", ln, "turn")
        seen_flags.add(name)
        if f == "asked":
            state.asked = 1
        elif f == "asked-after-draw":
            if "asked" in seen_flags:
                raise NotationError("give 'asked' or 'asked-after-draw', not both", ln, "turn")
            state.asked = 2
        elif f in ("answer=yes", "answer=no"):
            state.answer = f.endswith("yes")
            state.must_out = state.answer
        elif f == "melded":
            state.melded_turn = True
        elif f == "took-pack":
            state.took_pack = True
            state.melded_turn = True
        elif f == "shown":
            state.shown = True
            state.melded_turn = True
        elif f.startswith("pending="):
            state.pending = _int(f[8:], ln, "turn")
        elif f in ("went-out", "went-out-concealed"):
            if phase not in (HAND_OVER, GAME_OVER):
                raise ImpossiblePositionError(f"{quote(flag)}: the hand is over once a player goes out; use the "
                                              "phase hand_over or game_over", ln, "turn")
            state.went_out = state.turn
            state.concealed = f.endswith("concealed")
        else:
            raise NotationError(f"{quote(flag)} is not a turn flag: use asked, asked-after-draw, answer=yes, "
                                "answer=no, melded, took-pack, shown, pending=N, went-out, went-out-concealed",
                                ln, "turn")
    if "asked" in seen_flags and "asked-after-draw" in seen_flags:
        raise NotationError("give 'asked' or 'asked-after-draw', not both", ln, "turn")

    # explicit cards first, so counts can be filled from what is left
    pile_marks: list[int] = []
    ln, v = get("pile")
    down_cards, down_count, v = _face_down(v, pool, ln, kind_slots, variant)
    pile_tokens = v.split()
    if pile_tokens == ["-"]:
        pile_tokens = []
    for i, tok in enumerate(pile_tokens):
        if tok.endswith("*"):
            pile_marks.append(i + down_count)
            pile_tokens[i] = tok[:-1]
    face_up = _cards(" ".join(pile_tokens), pool, ln or 0, "pile", kind_slots)
    if down_count and not face_up:
        raise ImpossiblePositionError("the turned card lies face up on the cards laid face down (R-ITAL-3): name "
                                      "it after them", ln, "pile")

    melds: list[list[tuple[list[int], str, int]]] = [[] for _ in sides]
    for side in sides:
        key = f"melds {side_names[side].lower()}"
        ln, v = get(key)
        if not v or v == "-":
            continue
        for part in v.split(";"):
            part = part.strip()
            mark = ""
            if part.endswith(")"):
                start = part.rfind("(")
                if start < 0:
                    raise NotationError(f"{quote(part)}: a ')' without its '('", ln, key)
                mark = " ".join(part[start + 1:-1].lower().split())
                if mark not in ("natural canasta", "mixed canasta", "canasta", "natural", "mixed",
                                "canasta of deuces", "samba", "escalera", "bolivia", "canasta of sevens",
                                "wild canasta"):
                    raise NotationError(f"{quote(part[start:])}: mark a canasta '(natural canasta)' or "
                                        "'(mixed canasta)'", ln, key)
                part = part[:start].strip()
            if not part:
                raise NotationError("an empty meld", ln, key)
            melds[side].append((_cards(part, pool, ln or 0, key, kind_slots), mark, ln or 0))

    reds: list[list[int]] = [[] for _ in sides]
    for side in sides:
        key = f"red threes {side_names[side].lower()}"
        ln, v = get(key)
        if v and v != "-":
            reds[side] = _cards(v, pool, ln or 0, key, kind_slots)

    hands: list[list[int] | None] = [None] * players
    hand_counts = [0] * players
    knowns: list[list[int]] = [[0] * NUM_KINDS for _ in range(players)]
    for seat in range(players):
        key = seats[seat].lower()
        ln, v = values[key]
        v, _, known_text = v.partition("known:")
        v = v.strip()
        digits = _count(v)
        if digits is not None:
            hand_counts[seat] = _int(digits, ln, seats[seat])
        elif v == "-" or v == "":
            hands[seat] = []
        else:
            hands[seat] = _cards(v, pool, ln, seats[seat], kind_slots)
        for tok in known_text.split():
            t = tok.upper()
            kind = _kind_token(t, ln, seats[seat])
            knowns[seat][kind] += 1

    ln, v = get("stock", "")
    stock_count: int | None = None
    stock_cards: list[int] | None = None
    stock_top: list[int] = []
    if v:
        count_text, _, top_text = v.partition(" top ")
        digits = _count(count_text.strip())
        if top_text or (digits is None and count_text.strip().lower().endswith(" top")):
            if digits is None:
                raise NotationError(f"{quote(v)}: write the stock as 'N top' and the next cards drawn, "
                                    "e.g. 'stock: 54 top 9H 3H'", ln, "stock")
            stock_count = _int(digits, ln, "stock")
            stock_top = _cards(top_text, pool, ln or 0, "stock", kind_slots)
            if not stock_top:
                raise NotationError("name the cards on top of the stock after 'top'", ln, "stock")
            if len(stock_top) > stock_count:
                raise ImpossiblePositionError(f"the stock holds {stock_count} cards, but {len(stock_top)} are "
                                              "named on top", ln, "stock")
        elif digits is not None:
            stock_count = _int(digits, ln, "stock")
        elif v == "-":
            stock_cards = []
        else:
            stock_cards = _cards(v, pool, ln or 0, "stock", kind_slots)

    for out, slot, token, tln, field in kind_slots:
        out[slot] = pool.take_kind(token, tln, field)
    # (cards face down given as a count are dealt from the unseen cards with the hidden hands)
    pile = (down_cards if down_cards is not None else [-1] * down_count) + face_up

    # the state, with everything named; counted hands and the stock are filled last
    state.pile = pile
    state.pile_hidden = down_count
    counted = [seat for seat in range(players) if hands[seat] is None]
    for seat in range(players):
        h: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        for c in hands[seat] or []:
            h[CARD_KIND[c]].append(c)
        state.hands[seat] = h
        state.hand_size[seat] = len(hands[seat] or []) if seat not in counted else hand_counts[seat]
    state.red3 = reds
    for side in sides:
        for c in reds[side]:
            if CARD_KIND[c] != RED_THREE:
                key = f"red threes {side_names[side].lower()}"
                raise ImpossiblePositionError(f"{ALL_CARD_CODES[c]} is not a red three", line_of(key),
                                              f"red threes {side_names[side]}")
    for side in sides:
        for cards, mark, mln in melds[side]:
            _add_meld(state, side, cards, mark, mln)
    ln, v = get("first-turn")
    waiting = {_seat(w, ln, "first-turn", seats) for w in v.split()} if v and v != "-" else set()
    state.first_turn_done = [s not in waiting for s in range(players)]
    ln, v = get("melded-before")
    before = {_seat(w, ln, "melded-before", seats) for w in v.split()} if v and v != "-" else set()
    state.has_melded = [s in before for s in range(players)]
    state.known = knowns
    # derived: the freeze, the initial melds, black threes on the table
    state.freeze_at = -1
    for i in range(down_count, len(pile)):  # cards face down never freeze it (R-ITAL-3)
        c = pile[i]
        kind = CARD_KIND[c]
        if kind in (JOKER, DEUCE, RED_THREE) or (kind == BLACK_THREE and options.black_three == "freezes"):
            state.freeze_at = i
            break
    if pile_marks and pile_marks != [state.freeze_at]:
        ln = values["pile"][0]
        if state.freeze_at < 0:
            raise ImpossiblePositionError("a card is marked as freezing the pile, but the pile holds no "
                                          "freezing card", ln, "pile")
        raise ImpossiblePositionError(f"the freeze mark belongs on {ALL_CARD_CODES[pile[state.freeze_at]]}, the "
                                      "lowest freezing card", ln, "pile")
    turn_side = variant.sides[state.turn]
    for side in sides:
        has = _has_melds(state, side)
        in_progress = side == turn_side and state.phase in ("draw", "meld", "answer") and (
            state.shown or state.pending)
        state.initial[side] = has and not in_progress
    b3 = _black_threes(state, turn_side)
    if b3:
        state.b3_melded = b3
        if state.phase in ("draw", "meld", "answer"):
            state.must_out = True
    lines = {key: number for key, (number, _) in values.items()}
    # checks that need no hidden card come before the filling
    _check_static(state, lines, counted)

    if state.phase == GAME_OVER and counted:
        # cards still in hand only cost points: with the counted hands still empty the score is at its best
        best = state.score_hand().sides
        top = max(state.deal_totals[i] + best[i].total for i in sides)
        if top < variant.target:
            raise ImpossiblePositionError(f"the game is over only when a side reaches {variant.target}; after this "
                                          f"hand the best total is {top}", line_of("turn"), "turn")
    if down_count:
        _check_face_down(face_up, down_count, options, ln_pile=line_of("pile"))
    rest = pool.remaining()
    need = sum(hand_counts[s] for s in counted) + (down_count if down_cards is None else 0)
    packet_counts = _read_packets(variant, *get("packets", " ".join(f"{s} {variant.packet_size}" for s in seats)))
    need += sum(packet_counts)
    if stock_cards is not None:
        if len(rest) != need:
            total = variant.num_cards - len(rest) + need
            raise ImpossiblePositionError(f"the position holds {total} cards in all; a game has "
                                          f"{variant.num_cards} (give the stock as a count to fill the rest)",
                                          line_of("stock"), "stock")
        state.stock = stock_cards
    else:
        below = len(rest) - need
        if stock_count is not None and below != stock_count - len(stock_top):
            total = variant.num_cards - below + stock_count - len(stock_top)
            field = "stock" if "stock" in values else (seats[counted[0]] if counted else "stock")
            raise ImpossiblePositionError(f"the position holds {total} cards in all; a game has "
                                          f"{variant.num_cards}", line_of(field.lower()), field)
        if below < 0:
            raise ImpossiblePositionError(f"the hands given as counts need {need} cards, but only "
                                          f"{len(rest)} are left of the {variant.num_cards}",
                                          line_of(seats[counted[0]].lower()), seats[counted[0]])
    if variant.packet_size:
        # the packets, face down, are dealt with the hidden cards from the cards the position does not place
        state.set_packets([[-1] * n for n in packet_counts])  # (R-PEN-4)
    rng = random.Random(f"position/{seed}/{deal_no}")
    try:
        fill_hidden(state, counted, rest, rng, stock_top=stock_top,
                    keep_stock=stock_cards is not None, keep_pile=down_cards is not None)
    except ImpossiblePositionError as e:
        field = e.field if e.field is not None and len(e.field) == 1 and e.field in seats else "turn"
        raise ImpossiblePositionError(e.message, line_of(field.lower()), field) from None
    if stock_top or stock_cards is not None:
        state.stock_fixed = len(state.stock) - len(stock_top) if stock_cards is None else 0
    if state.phase in (HAND_OVER, GAME_OVER):
        result = state.score_hand()
        state.totals = [state.deal_totals[i] + result.sides[i].total for i in sides]
        if state.phase == GAME_OVER:
            state.winner = max(sides, key=lambda i: (state.totals[i], i))
    validate_position(state, lines, exact_score=not counted)
    _check_invariants(state, lines)
    return state


def _read_packets(variant: Variant, ln: int | None, v: str) -> list[int]:
    """Pennies from Heaven: the ``packets:`` line, each seat's letter and the number of cards in its packet,
    face down: the variant's packet size, or 0 once taken up (R-PEN-3, R-PEN-4)."""
    if not variant.packet_size:
        return [0] * variant.players
    words = v.split()
    seats = variant.seats
    if len(words) != 2 * len(seats) or [w.upper() for w in words[::2]] != list(seats):
        raise NotationError(f"{quote(v)}: write '{' '.join(f'{s} <cards>' for s in seats)}'", ln, "packets")
    counts = [_int(w, ln, "packets", low=0) for w in words[1::2]]
    for seat, n in zip(seats, counts, strict=True):
        if n not in (0, variant.packet_size):
            raise ImpossiblePositionError(f"{seat}'s packet holds {n} cards: a packet holds "
                                          f"{variant.packet_size} until its owner takes it up, then none (R-PEN-4)",
                                          ln, "packets")
    return counts


def _read_out(state: State, ln: int | None, v: str) -> None:
    """Five-handed: the ``out:`` line, the player sitting out this hand (R-FIVE-1), a name unlike the four
    in the chairs."""
    try:
        state.set_sitting_out(check_player_names((*state.players, v), state.variant.roster)[-1])
    except NotationError as e:
        raise NotationError(f"out: {e.message} (the player sitting out R-FIVE-1 has a name of their own)", ln,
                            "out") from None


def _check_invariants(state: State, lines: Mapping[str, int]) -> None:
    """The engine's own invariants (:func:`~canasta_tutor.engine.invariants.check_invariants`, without the facts
    a position cannot know: earlier hands and the actions), so that every position read is one the engine
    could hold; the first that fails is the error."""
    problems = check_invariants(state, history=False)
    if problems:
        raise ImpossiblePositionError(f"the engine could never hold this position: {problems[0]}", lines.get("turn"),
                                      "turn")


def _face_down(text: str, pool: _Pool, line: int | None, slots: list[_KindSlot],
               variant: Variant) -> tuple[list[int] | None, int, str]:
    """The cards laid face down at the bottom of the pile (R-ITAL-3), written before the face-up cards as
    ``4C 9S KD 7H 5S face down, 8D 9S`` (the cards) or ``5 cards face down, 8D 9S`` (their number only):
    the cards (None when given as a number), their number, and the rest of the line."""
    at = text.lower().find("face down")
    if at < 0:
        return None, 0, text
    head = text[:at].strip()
    tail = text[at + len("face down"):].strip()
    if tail.startswith(","):
        tail = tail[1:].strip()
    if variant.pile_start != "count":
        raise ImpossiblePositionError(f"{quote(text)}: only Italian Canasta lays cards face down in the pile "
                                      "(R-ITAL-3)", line, "pile")
    words = head.split()
    if len(words) == 2 and words[1].lower() in ("card", "cards"):
        return None, _int(words[0], line, "pile", low=1), tail
    if not head:
        raise NotationError(f"{quote(text)}: write the cards face down, or their number as '10 cards face down', "
                            "before the face-up cards", line, "pile")
    cards = _cards(head, pool, line or 0, "pile", slots)
    return cards, len(cards), tail


def _check_face_down(face_up: Sequence[int], down: int, options: RuleOptions, ln_pile: int | None) -> None:
    """As many cards lie face down as the count of the turned card that ended the upcard chain (R-ITAL-3,
    R-CARDS-3, ruling 10): the lowest face-up card that is not a chain card."""
    chain = _CHAIN[options.upcard_chain]
    for c in face_up:
        kind = CARD_KIND[c]
        if kind not in chain:
            count = KIND_VALUES[kind]
            if count != down:
                raise ImpossiblePositionError(
                    f"{down} cards face down, but the turned card {ALL_CARD_CODES[c]} counts {count} (R-CARDS-3), so "
                    f"{count} cards lie face down under it (R-ITAL-3)", ln_pile, "pile")
            return


def _kind_token(t: str, line: int, field: str) -> int:
    if t == "10":
        t = "T"
    if t in KIND_TOKENS and t != "R3":
        return KIND_TOKENS.index(t)
    raise NotationError(f"{t!r} is not a card kind", line, field)


def _has_melds(state: State, side: int) -> bool:
    """Whether a side has melds on the table (a numbered list too)."""
    return state.has_table_melds(side)


def _black_threes(state: State, side: int) -> int:
    """How many black threes a side has melded (0: none)."""
    return state.black_threes_melded(side)


def _add_listed_meld(state: State, side: int, cards: list[int], mark: str, line: int) -> None:
    """A meld of a variant whose melds are numbered (Samba, R-SAMBA-3, R-SAMBA-4): a sequence when its
    naturals differ in rank, else a set."""
    field = f"melds {state.variant.side_names[side]}"
    naturals = [c for c in cards if CARD_KIND[c] not in (JOKER, DEUCE)]
    text = " ".join(ALL_CARD_CODES[c] for c in cards)
    if not naturals and state.variant.wild_melds:  # a meld of wild cards (Bolivia, R-BOL-2)
        if not 3 <= len(cards) <= BOLIVIA_LENGTH:
            raise ImpossiblePositionError(f"meld {text!r}: a meld of wild cards holds three to seven of them "
                                          "(R-BOL-2)", line, field)
        if mark and (mark != "bolivia" or len(cards) != BOLIVIA_LENGTH):
            raise ImpossiblePositionError(f"meld {text!r}: a meld of wild cards is marked only '(bolivia)', at "
                                          "seven cards", line, field)
        state.lay_meld(side, [], list(cards), WILD_SUIT)
        return
    if mark == "bolivia":
        raise ImpossiblePositionError(f"meld {text!r} is marked a bolivia but is not seven wild cards", line, field)
    if mark == "escalera":
        mark = "samba"
    if len({CARD_KIND[c] for c in naturals}) <= 1:
        if mark == "samba":
            raise ImpossiblePositionError(f"meld {text!r} is marked a samba but is not a sequence", line, field)
        cap = state.variant.set_wild_cap
        wilds = [c for c in cards if CARD_KIND[c] in (JOKER, DEUCE)]
        if len(wilds) > cap and naturals and CARD_KIND[naturals[0]] != BLACK_THREE:
            raise ImpossiblePositionError(f"meld {text!r}: {len(wilds)} wild cards; a set may hold at most {cap} "
                                          "(R-SAMBA-4)", line, field)
        _add_meld(state, side, cards, mark, line, listed=True)
        return
    suit = state.sequence_suit(cards)
    if suit is None:
        raise ImpossiblePositionError(f"meld {text!r}: a sequence is three to seven natural cards of one suit in "
                                      "a row, from 4 up to ace, with no wild card (R-SAMBA-3)", line, field)
    if mark and (mark != "samba" or len(cards) != 7):
        raise ImpossiblePositionError(f"meld {text!r}: a sequence is marked only '(samba)', at seven cards", line,
                                      field)
    state.lay_meld(side, cards, [], suit)


def _add_meld(state: State, side: int, cards: list[int], mark: str, line: int, listed: bool = False) -> None:
    if state.variant.numbered_melds and not listed:
        _add_listed_meld(state, side, cards, mark, line)
        return
    field = f"melds {state.variant.side_names[side]}"
    kinds = [CARD_KIND[c] for c in cards]
    naturals = [c for c in cards if CARD_KIND[c] not in (JOKER, DEUCE)]
    wilds = [c for c in cards if CARD_KIND[c] in (JOKER, DEUCE)]
    text = " ".join(ALL_CARD_CODES[c] for c in cards)
    if any(k == RED_THREE for k in kinds):
        raise ImpossiblePositionError(f"meld {text!r}: red threes are never melded", line, field)
    if not naturals and state.variant.deuce_melds and all(k == DEUCE for k in kinds):
        # a meld of deuces, a rank of its own in Italian Canasta (R-ITAL-6)
        if len(cards) < 3:
            raise ImpossiblePositionError(f"meld {text!r}: a meld of deuces needs three of them", line, field)
        if DEUCE in state.melds[side]:
            raise ImpossiblePositionError("two melds of deuces for one side", line, field)
        if mark and ("mixed" in mark or ("canasta" in mark and len(cards) < 7) or mark == "natural canasta"):
            raise ImpossiblePositionError(f"meld {text!r}: mark a canasta of seven deuces '(canasta of deuces)'",
                                          line, field)
        state.melds[side][DEUCE] = [cards, []]
        return
    if not naturals and state.variant.four_kinds:
        # a meld of wild cards, kept under the rank of deuces (R-PEN-7)
        if len(cards) < 3 or len(cards) > 7:
            raise ImpossiblePositionError(f"meld {text!r}: a meld of wild cards holds three to seven of them", line,
                                          field)
        if DEUCE in state.melds[side]:
            raise ImpossiblePositionError("two melds of wild cards for one side", line, field)
        if mark and ("canasta" in mark) != (len(cards) == 7):
            raise ImpossiblePositionError(f"meld {text!r}: a canasta of wild cards has seven, marked "
                                          "'(wild canasta)'", line, field)
        state.melds[side][DEUCE] = [cards, []]
        return
    if not naturals:
        raise ImpossiblePositionError(f"meld {text!r}: wild cards can't be melded alone", line, field)
    kind = CARD_KIND[naturals[0]]
    if any(CARD_KIND[c] != kind for c in naturals):
        raise ImpossiblePositionError(f"meld {text!r}: a meld holds cards of one rank", line, field)
    if len(cards) < 3 or len(naturals) < 2:
        raise ImpossiblePositionError(f"meld {text!r}: a meld needs three cards, two of them natural", line,
                                      field)
    if kind == BLACK_THREE:
        if wilds or len(naturals) > 4:
            raise ImpossiblePositionError(f"meld {text!r}: black threes are melded three or four, no wild cards",
                                          line, field)
    if not listed and len(wilds) > state.options.wild_cap(len(naturals)):
        raise ImpossiblePositionError(f"meld {text!r}: {len(wilds)} wild cards; a meld may hold at most "
                                      f"{state.options.wild_cap(len(naturals))}", line, field)
    if kind in state.melds[side] and not listed:
        raise ImpossiblePositionError(f"two melds of {KIND_NAMES[kind]} for one side", line, field)
    canasta = is_canasta(len(naturals), len(wilds))
    if mark:
        if "canasta" in mark and not canasta:
            raise ImpossiblePositionError(f"meld {text!r} is marked a canasta but is not one (seven cards, "
                                          "four natural)", line, field)
        if mark.startswith("natural") and wilds:
            raise ImpossiblePositionError(f"meld {text!r} is marked natural but holds a wild card", line, field)
        if mark.startswith("mixed") and not wilds:
            raise ImpossiblePositionError(f"meld {text!r} is marked mixed but holds no wild card", line, field)
    state.lay_meld(side, naturals, wilds)


def _check_static(state: State, lines: Mapping[str, int], counted: Iterable[int] = ()) -> None:
    """The checks that need no hidden card (see :func:`validate_position`)."""
    def fail(message: str, key: str) -> NoReturn:
        field = key.upper() if len(key) == 1 else key
        raise ImpossiblePositionError(message, lines.get(key.lower()), field)

    counted = set(counted)
    variant = state.variant
    seats = variant.seats
    side_names = variant.side_names
    side_of = variant.sides
    players = variant.players
    hand_size = variant.hand_size
    phase = state.phase
    playing = phase in (DRAW, MELD, ANSWER)
    turn = state.turn
    side = side_of[turn]
    name = seats[turn]
    opts = state.options
    # the turn line
    if state.pending < 0:
        fail(f"pending={state.pending}: points melded toward the minimum are never negative", "turn")
    if not variant.partnerships and (state.asked or state.answer is not None or phase == ANSWER):
        fail(f"in the {variant.name} game each plays alone (R-{variant.rule_area}-1), so nobody asks a partner "
             "'may I go out?'", "turn")
    if not playing and (state.asked or state.answer is not None or state.melded_turn or state.pending):
        fail(f"turn flags belong to a hand being played, not to '{phase}'", "turn")
    if state.answer is not None and not state.asked:
        fail("an answer without a question: add 'asked' or 'asked-after-draw'", "turn")
    if phase == ANSWER and not state.asked:
        fail("the phase is 'answer' but nobody asked (add the flag 'asked')", "turn")
    if phase == ANSWER and state.answer is not None:
        fail("the partner has answered already, so the phase is no longer 'answer'", "turn")
    if phase == DRAW and (state.took_pack or state.asked == 2):
        fail("in the draw phase the player can't have taken the pack or asked after drawing", "turn")
    if state.asked == 2 and phase == ANSWER and (state.melded_turn or state.took_pack):
        fail("one can't ask after melding or taking the pack this turn", "turn")
    if state.shown and phase != DRAW:
        fail("'shown' melds belong to the draw phase", "turn")
    if phase == DRAW and state.pending and not state.shown:
        fail(f"pending={state.pending} in the draw phase: points toward the initial meld are melded after the draw, "
             "or shown to take the pack (add 'shown')", "turn")
    if state.shown:
        if not state.pile:
            fail("melds are shown to take the pack, but the discard pile is empty", "turn")
        if CARD_KIND[state.pile[-1]] >= 11:
            fail(f"melds are shown to take the pack, but {ALL_CARD_CODES[state.pile[-1]]} on top can't be taken",
                 "turn")
        if not state.pending or not _has_melds(state, side):
            fail("'shown' needs the shown melds on the table and their points as pending=N", "turn")
        if state.asked:
            fail("one can't ask after showing melds to take the pack", "turn")
    if state.pending:
        if not _has_melds(state, side):
            fail(f"pending={state.pending}, but {side_names[side]} has no melds on the table", "turn")
        if phase == MELD and not state.melded_turn:
            fail("points are pending, so the player has melded this turn: add the flag 'melded'", "turn")
        if phase == ANSWER:
            fail("one can't ask after melding this turn", "turn")
        if phase == MELD and state.pending >= state.minimums[side]:
            fail(f"pending={state.pending} already reaches the minimum of {state.minimums[side]}, so the "
                 "initial meld is made: drop the flag", "turn")
    if state.took_pack and not _has_melds(state, side):
        fail(f"'took-pack', but {side_names[side]} has no melds on the table", "turn")
    if state.melded_turn and not _has_melds(state, side):
        fail(f"'melded', but {side_names[side]} has no melds on the table", "turn")
    if playing and game_ended(state.deal_totals, variant.target):
        fail(f"a side has {max(state.deal_totals)} points: the game ended at {variant.target}", "totals")
    # black threes go down only when going out, which ends the hand
    for s in range(variant.n_sides):
        if _black_threes(state, s) and playing and not (s == side and phase == MELD and state.melded_turn):
            fail("black threes are melded only when going out, so they can't be on the table "
                 + ("in the draw phase" if s == side and phase != MELD else "while the hand goes on"),
                 f"melds {side_names[s].lower()}")
        if _black_threes(state, s) and not playing and (state.went_out is None or side_of[state.went_out] != s):
            fail(f"black threes are melded only when going out (R-MELD-4), but {side_names[s]} did not go out "
                 "(a player who went out is written 'turn: W hand_over went-out')", f"melds {side_names[s].lower()}")
    # the pile: a red three can only be the upcard (or in the chain of upcards) at the bottom; in Italian
    # Canasta the cards laid face down under the upcard may hold red threes too (R-ITAL-3)
    chain = _CHAIN[opts.upcard_chain]
    for i, c in enumerate(state.pile if variant.pile_start == "upcard" else ()):
        if CARD_KIND[c] == RED_THREE and any(CARD_KIND[x] not in chain for x in state.pile[:i]):
            fail(f"{ALL_CARD_CODES[c]} in the middle of the pile: a red three is never discarded, it can only "
                 "be turned up at the bottom when the pack is started", "pile")
    # first turns
    waiting = [s for s in range(players) if not state.first_turn_done[s]]
    if playing and waiting:
        if turn in waiting:
            fail(f"{name} is playing, so {name}'s first turn has come (red threes are laid out then): drop "
                 f"{name} from 'first-turn'", "first-turn")
        expect = []
        s = (turn + 1) % players
        while s != (state.dealer + 1) % players:
            expect.append(s)
            s = (s + 1) % players
        if sorted(expect) != waiting:
            fail(f"first turns go round from the dealer's left, so the seats still waiting after {name} are "
                 f"{' '.join(seats[x] for x in expect) or 'none'}", "first-turn")
    for s in range(players):
        if state.has_melded[s] and not state.first_turn_done[s]:
            fail(f"{seats[s]} has not had a first turn, so can't have melded before", "melded-before")
        if state.has_melded[s] and not _has_melds(state, side_of[s]):
            fail(f"{seats[s]} melded before, but {side_names[side_of[s]]} has no melds on the table",
                 "melded-before")
    # hands
    for s in range(players):
        key = seats[s].lower()
        if state.hands[s][RED_THREE] and state.first_turn_done[s]:
            fail(f"{seats[s]} holds a red three after their first turn; red threes are laid out at once", key)
        if playing and state.hand_size[s] == 0:
            fail(f"{seats[s]} holds no cards, but the hand is still being played", key)
        if playing and not state.first_turn_done[s] and state.hand_size[s] != hand_size:
            fail(f"{seats[s]} has not played yet, so holds the {hand_size} cards dealt, not "
                 f"{state.hand_size[s]}", key)
        if playing and not _has_melds(state, side_of[s]) and variant.draw == 1:
            # (drawing two and discarding one, a hand grows by a card a turn without melding)
            most = hand_size + (1 if s == turn and phase == MELD else 0)
            if state.hand_size[s] > most:
                fail(f"{seats[s]} holds {state.hand_size[s]} cards, but {side_names[side_of[s]]} has never "
                     f"taken the pack (no melds), so a hand holds at most {most}", key)
        if sum(state.known[s]) > state.hand_size[s]:
            fail(f"{seats[s]} holds {state.hand_size[s]} cards but is known to hold {sum(state.known[s])}", key)
        if s not in counted:
            for k in range(NUM_KINDS):
                if state.known[s][k] > len(state.hands[s][k]):
                    fail(f"{seats[s]} is said to be known to hold {state.known[s][k]} {KIND_NAMES[k]} but holds "
                         f"{len(state.hands[s][k])}", key)
    for s in range(variant.n_sides):
        if len(state.red3[s]) > 2 * variant.packs:
            fail(f"more than {_word(2 * variant.packs)} red threes", f"red threes {side_names[s].lower()}")
    if state.pending and state.initial[side]:
        fail("pending points toward the minimum, but the side has made its initial meld", "turn")


def validate_position(state: State, lines: Mapping[str, int] | None = None, exact_score: bool = True) -> None:
    """Raise :class:`ImpossiblePositionError` unless ``state`` is a position legal play can reach and,
    while the hand is played, the seat to act has a legal action.  ``lines`` maps position keys
    (``turn``, ``n``, ``pile``, ``melds ns``...) to line numbers for the message.  ``exact_score``
    false skips the check that a finished hand's totals agree with its phase (hands given as counts
    make the score unknown).

    The widget, the search and :func:`parse_position` share this one check.
    """
    where = lines or {}
    _check_static(state, where)
    variant = state.variant
    # the totals after a finished hand (the score of its hidden cards too) decide if the game is over
    ended = game_ended(state.totals, variant.target)
    if not exact_score:
        pass
    elif state.phase == GAME_OVER and not ended:
        got = ", ".join(f"{name} {t}" for name, t in zip(variant.side_names, state.totals, strict=True))
        raise ImpossiblePositionError(f"the game is over only when a side reaches {variant.target} (totals after "
                                      f"this hand: {got})", where.get("turn"), "turn")
    if state.phase == HAND_OVER and ended:
        raise ImpossiblePositionError(f"after this hand a side has {max(state.totals)} points, so the game is "
                                      "over, not just the hand", where.get("turn"), "turn")
    if state.phase in (HAND_OVER, GAME_OVER) and state.went_out is None and state.stock:
        raise ImpossiblePositionError(f"the hand is over, but nobody went out and the stock holds {len(state.stock)} "
                                      "cards: without going out a hand ends only when the stock runs out "
                                      "(R-STOCK-1..3); write who went out ('turn: W hand_over went-out') or "
                                      "'stock: 0'", where.get("turn"), "turn")
    if sorted(state.cards_everywhere()) != list(range(variant.num_cards)):
        raise ImpossiblePositionError(f"the position does not hold each of the {variant.num_cards} cards exactly "
                                      "once", where.get("stock"), "stock")
    problem = turn_problem(state)
    if problem is not None:
        key = variant.seats[state.turn].lower() if "no legal action" in problem or "asked" in problem else "turn"
        if state.phase == ANSWER or "asked" in problem:
            key = "turn"
        raise ImpossiblePositionError(problem, where.get(key), key.upper() if len(key) == 1 else key)


def _cards_text(cards: Iterable[int]) -> str:
    return " ".join(ALL_CARD_CODES[c] for c in cards)


def format_position(state: State, seat: int | str | None = None) -> str:
    """Format a state as a position.  With ``seat``, only what that seat may know:
    other hands become counts (with the cards known to be in them)."""
    from ..engine.state import seat_index

    variant = state.variant
    seats = variant.seats
    side_names = variant.side_names
    viewer = None if seat is None else seat_index(seat, seats)
    lines = ["canasta-tutor position"]
    if variant is not CLASSIC:
        lines.append(f"variant: {variant.name}")
    if state.seed or state.deal_no:
        lines.append(f"seed: {state.seed}")
        lines.append(f"deal: {state.deal_no}")
    opts = state.options.format()
    if opts:
        lines.append(f"options: {opts}")
    if tuple(state.players) != tuple(seats):
        lines.append("players: " + ", ".join(check_player_names(state.players, seats)))
    out = state.sitting_out()
    if out is not None:
        lines.append(f"out: {out}")
    lines.append(f"dealer: {seats[state.dealer]}")
    flags: list[str] = []
    if state.phase not in (DRAW, MELD, ANSWER):
        # the flags of the last turn no longer matter; who went out does (the turn stays with them)
        if state.went_out is not None:
            flags.append("went-out-concealed" if state.concealed else "went-out")
    elif state.asked == 1:
        flags.append("asked")
    elif state.asked == 2:
        flags.append("asked-after-draw")
    if state.phase in (DRAW, MELD, ANSWER):
        if state.answer is not None:
            flags.append("answer=yes" if state.answer else "answer=no")
        if state.melded_turn and not state.took_pack and not state.shown:
            flags.append("melded")
        if state.took_pack:
            flags.append("took-pack")
        if state.shown:
            flags.append("shown")
        if state.pending and not state.initial[variant.sides[state.turn]]:
            flags.append(f"pending={state.pending}")
    turn = state.went_out if state.phase in (HAND_OVER, GAME_OVER) and state.went_out is not None else state.turn
    lines.append(" ".join([f"turn: {seats[turn]} {state.phase}"] + flags))
    lines.append("totals: " + " ".join(f"{name} {t}" for name, t in zip(side_names, state.deal_totals, strict=True)))
    fixed = state.stock_fixed
    if viewer is None and 0 <= fixed < len(state.stock):
        lines.append(f"stock: {len(state.stock)} top {_cards_text(reversed(state.stock[fixed:]))}")
    else:
        lines.append(f"stock: {len(state.stock)}")
    if variant.packet_size:  # face down: a number each, for every reader (R-PEN-4)
        lines.append("packets: " + " ".join(f"{seats[s]} {state.packet_count(s)}" for s in range(variant.players)))
    down = state.pile_hidden
    pile = [ALL_CARD_CODES[c] + ("*" if i == state.freeze_at else "") for i, c in enumerate(state.pile) if i >= down]
    if down:  # the cards laid face down under the turned card (R-ITAL-3): a seat sees only their number
        hidden = plural(down, "card") if viewer is not None else _cards_text(state.pile[:down])
        pile.insert(0, f"{hidden} face down,")
    lines.append("pile: " + (" ".join(pile) if pile else "-"))
    for s in range(variant.players):
        cards = sorted((c for k in state.hands[s] for c in k), key=sort_key)
        known = [KIND_TOKENS[k] for k in range(NUM_KINDS) for _ in range(state.known[s][k])]
        if viewer is None or viewer == s or state.phase in (HAND_OVER, GAME_OVER):
            # (once the hand is over every hand is shown for the count)
            text = _cards_text(cards) if cards else "-"
        else:
            text = plural(len(cards), "card")
            if known:
                text += " known: " + " ".join(known)
        lines.append(f"{seats[s]}: {text}")
    for side in range(variant.n_sides):
        parts = []
        for m in state.listed_melds(side):  # in the order made: the meld numbers of the actions
            text = _cards_text(m.naturals if m.suit >= 0 else sorted(m.naturals, key=sort_key)
                               + sorted(m.wilds, key=sort_key))
            if m.is_canasta:
                if m.suit == WILD_SUIT:
                    text += " (bolivia)"
                elif m.suit >= 0:
                    text += " (escalera)" if state.variant.wild_melds else " (samba)"
                else:
                    text += " (mixed canasta)" if m.wilds else " (natural canasta)"
            parts.append(text)
        for kind in sorted(state.melds[side], key=lambda k: (k == BLACK_THREE, k)):
            nat, wild = state.melds[side][kind]
            cards = sorted(nat, key=sort_key) + sorted(wild, key=sort_key)
            text = _cards_text(cards)
            if kind == DEUCE and variant.four_kinds:
                if len(nat) >= 7:
                    text += " (wild canasta)"  # R-PEN-7, R-PEN-8
            elif kind == DEUCE and is_canasta(len(nat), len(wild)):
                text += " (canasta of deuces)"  # R-ITAL-6
            elif kind == SEVEN_KIND and variant.four_kinds and is_canasta(len(nat), len(wild)):
                text += " (canasta of sevens)"  # R-PEN-8
            elif is_canasta(len(nat), len(wild)):
                text += " (mixed canasta)" if wild else " (natural canasta)"
            parts.append(text)
        if parts:
            lines.append(f"melds {side_names[side]}: " + "; ".join(parts))
    for side in range(variant.n_sides):
        if state.red3[side]:
            lines.append(f"red threes {side_names[side]}: " + _cards_text(state.red3[side]))
    waiting = [seats[s] for s in range(variant.players) if not state.first_turn_done[s]]
    if waiting:
        lines.append("first-turn: " + " ".join(waiting))
    before = [seats[s] for s in range(variant.players) if state.has_melded[s]]
    if before:
        lines.append("melded-before: " + " ".join(before))
    return "\n".join(lines) + "\n"


__all__ = ["parse_position", "format_position", "EXAMPLE", "format_card"]
