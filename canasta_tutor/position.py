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
  this turn toward the initial minimum).
- ``totals``: each side's total at the start of this deal; it sets the minimums.
- ``stock``: a count, or the cards bottom to top.
- ``pile``: the discard pile bottom to top; ``*`` after a card marks the card
  turned sideways to show the freeze.  The freeze follows from the cards.
- ``N``, ``E``, ``S``, ``W``: a hand, either its cards or a count (``11`` or ``11 cards``),
  optionally followed by ``known: K K`` (cards the table saw go into it with a pack).
- ``melds NS`` / ``melds EW``: melds separated by ``;``, each a list of cards,
  optionally followed by ``(natural canasta)`` or ``(mixed canasta)`` as a check.
- ``red threes NS`` / ``red threes EW``.
- ``first-turn``: seats that have not had their first turn yet (red threes may be in hand).
- ``melded-before``: seats that have melded on an earlier turn of this hand.

Cards are codes such as ``7H``, ``TS``, ``JK``; a rank alone (``K``) means any king.
Hands given as a count and a stock given as a count are filled from the cards
not named anywhere, in an order set by ``seed``, so a position always parses to
the same state.

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
import re
from typing import Iterable

from .cards import (
    BLACK_THREE,
    CARD_CODE,
    CARD_KIND,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_TOKENS,
    NUM_CARDS,
    NUM_KINDS,
    RED_THREE,
    format_card,
    is_canasta,
    normalize_code,
    sort_key,
)
from .errors import ImpossiblePositionError, NotationError
from .options import RuleOptions
from .state import PHASES, SEATS, SIDE_NAMES, State, minimum_for

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


class _Pool:
    """The 108 physical cards, handed out as the position names them."""

    def __init__(self) -> None:
        self.free: dict[str, list[int]] = {}
        for card, code in enumerate(CARD_CODE):
            self.free.setdefault(code, []).append(card)

    def take_code(self, code: str, line: int, field: str) -> int:
        ids = self.free.get(code)
        if not ids:
            if code == "JK":
                raise ImpossiblePositionError("more than four jokers in the position", line, field)
            raise ImpossiblePositionError(f"more than two {code} in the position (two decks hold two of each)",
                                          line, field)
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


def _side(text: str, line: int, field: str) -> int:
    t = text.strip().upper()
    if t in ("NS", "SN"):
        return 0
    if t in ("EW", "WE"):
        return 1
    raise NotationError(f"{text!r} is not a side: use NS or EW", line, field)


def _seat(text: str, line: int | None, field: str) -> int:
    t = text.strip().upper()
    if len(t) != 1 or t not in SEATS:
        raise NotationError(f"{text!r} is not a seat: use N, E, S or W", line, field)
    return SEATS.index(t)


def _int(text: str, line: int | None, field: str) -> int:
    try:
        return int(text.strip().replace(",", ""))
    except ValueError:
        raise NotationError(f"{text!r} is not a whole number", line, field) from None


_COUNT_RE = re.compile(r"^(\d+)(?:\s+cards?)?$", re.I)


def parse_position(text: str) -> State:  # noqa: C901 - one pass over a line format
    """Parse a position; raises :class:`NotationError` (malformed) or
    :class:`ImpossiblePositionError` (could not happen), naming the line and field."""
    pool = _Pool()
    kind_slots: list[_KindSlot] = []
    values: dict[str, tuple[int, str]] = {}
    order: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line or line.lower() == "canasta-tutor position":
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(f"{raw.strip()!r} is not a 'key: value' line", number)
        key = " ".join(key.lower().split())
        if key in values:
            raise NotationError(f"{key!r} is given twice", number, key)
        values[key] = (number, value.strip())
        order.append(key)
    known_keys = {"seed", "deal", "options", "players", "dealer", "turn", "totals", "stock", "pile",
                  "n", "e", "s", "w", "melds ns", "melds ew", "red threes ns", "red threes ew",
                  "first-turn", "melded-before"}
    for key in order:
        if key not in known_keys:
            raise NotationError(f"unknown key {key!r}; known keys: {', '.join(sorted(known_keys))}",
                                values[key][0], key)
    for key in ("turn", "n", "e", "s", "w"):
        if key not in values:
            raise NotationError(f"the position needs a '{key.upper() if len(key) == 1 else key}:' line",
                                None, key)

    def get(key: str, default: str = "") -> tuple[int | None, str]:
        if key in values:
            return values[key]
        return None, default

    ln, v = get("options")
    try:
        options = RuleOptions.parse(v)
    except NotationError as e:
        raise NotationError(e.message, ln, "options") from None
    ln, v = get("seed", "0")
    seed = _int(v, ln, "seed")
    ln, v = get("deal", "0")
    deal_no = _int(v, ln, "deal")
    state = State(options, seed)
    state.deal_no = deal_no
    ln, v = get("players")
    if v:
        names = tuple(p.strip() for p in v.split(","))
        if len(names) != 4 or not all(names):
            raise NotationError("players: give four names, comma separated, by seat N, E, S, W", ln, "players")
        state.players = names
    ln, v = get("dealer", "E")
    state.dealer = _seat(v, ln, "dealer")
    ln, v = get("totals", "NS 0 EW 0")
    words = v.split()
    if len(words) != 4 or words[0].upper() != "NS" or words[2].upper() != "EW":
        raise NotationError(f"{v!r}: write 'NS <total> EW <total>'", ln, "totals")
    state.totals = [_int(words[1], ln, "totals"), _int(words[3], ln, "totals")]
    state.deal_totals = state.totals[:]
    state.minimums = [minimum_for(state.totals[0]), minimum_for(state.totals[1])]

    # turn line
    ln, v = values["turn"]
    words = v.split()
    if len(words) < 2:
        raise NotationError(f"{v!r}: write the seat and the phase, e.g. 'S draw'", ln, "turn")
    state.turn = _seat(words[0], ln, "turn")
    phase = words[1].lower()
    if phase not in PHASES:
        raise NotationError(f"{words[1]!r} is not a phase: use {', '.join(PHASES)}", ln, "turn")
    state.phase = phase
    for flag in words[2:]:
        f = flag.lower()
        if f == "asked":
            state.asked = 1
        elif f == "asked-after-draw":
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
        else:
            raise NotationError(f"{flag!r} is not a turn flag: use asked, asked-after-draw, answer=yes, "
                                "answer=no, melded, took-pack, shown, pending=N", ln, "turn")

    # explicit cards first, so counts can be filled from what is left
    pile_marks: list[int] = []
    ln, v = get("pile")
    pile_tokens = v.split()
    if pile_tokens == ["-"]:
        pile_tokens = []
    for i, tok in enumerate(pile_tokens):
        if tok.endswith("*"):
            pile_marks.append(i)
            pile_tokens[i] = tok[:-1]
    pile = _cards(" ".join(pile_tokens), pool, ln or 0, "pile", kind_slots)

    melds: list[list[tuple[list[int], str, int]]] = [[], []]
    for side in (0, 1):
        key = f"melds {SIDE_NAMES[side].lower()}"
        ln, v = get(key)
        if not v or v == "-":
            continue
        for part in v.split(";"):
            part = part.strip()
            mark = ""
            m = re.search(r"\(([^)]*)\)\s*$", part)
            if m:
                mark = m.group(1).strip().lower()
                part = part[: m.start()].strip()
                if mark not in ("natural canasta", "mixed canasta", "canasta", "natural", "mixed"):
                    raise NotationError(f"{m.group(0)!r}: mark a canasta '(natural canasta)' or "
                                        "'(mixed canasta)'", ln, key)
            if not part:
                raise NotationError("an empty meld", ln, key)
            melds[side].append((_cards(part, pool, ln or 0, key, kind_slots), mark, ln or 0))

    reds: list[list[int]] = [[], []]
    for side in (0, 1):
        key = f"red threes {SIDE_NAMES[side].lower()}"
        ln, v = get(key)
        if v and v != "-":
            reds[side] = _cards(v, pool, ln or 0, key, kind_slots)

    hands: list[list[int] | None] = [None] * 4
    hand_counts = [0] * 4
    knowns: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
    for seat in range(4):
        key = SEATS[seat].lower()
        ln, v = values[key]
        v, _, known_text = v.partition("known:")
        v = v.strip()
        m = _COUNT_RE.match(v)
        if m:
            hand_counts[seat] = int(m.group(1))
        elif v == "-" or v == "":
            hands[seat] = []
        else:
            hands[seat] = _cards(v, pool, ln, SEATS[seat], kind_slots)
        for tok in known_text.split():
            t = tok.upper()
            kind = _kind_token(t, ln, SEATS[seat])
            knowns[seat][kind] += 1

    ln, v = get("stock", "")
    stock_count = None
    stock_cards: list[int] | None = None
    if v:
        m = _COUNT_RE.match(v)
        if m:
            stock_count = int(m.group(1))
        elif v == "-":
            stock_cards = []
        else:
            stock_cards = _cards(v, pool, ln or 0, "stock", kind_slots)

    for out, slot, token, tln, field in kind_slots:
        out[slot] = pool.take_kind(token, tln, field)

    # fill counted hands and the stock
    rest = sorted(pool.remaining(), key=lambda c: (CARD_CODE[c], c))
    random.Random(f"position/{seed}/{deal_no}").shuffle(rest)
    ln, v = get("first-turn")
    waiting = {_seat(w, ln, "first-turn") for w in v.split()} if v and v != "-" else set()
    # cards known to be in a counted hand (from a taken pack) are placed first, for every seat
    known_part: dict[int, list[int]] = {}
    for seat in range(4):
        if hands[seat] is not None:
            continue
        picked: list[int] = []
        for kind in range(NUM_KINDS):
            for _ in range(knowns[seat][kind]):
                match = next((c for c in reversed(rest) if CARD_KIND[c] == kind), None)
                if match is None:
                    raise ImpossiblePositionError(
                        f"{SEATS[seat]} is said to be known to hold {knowns[seat][kind]} {KIND_NAMES[kind]}, "
                        "but not that many are left", values[SEATS[seat].lower()][0], SEATS[seat])
                rest.remove(match)
                picked.append(match)
        if len(picked) > hand_counts[seat]:
            raise ImpossiblePositionError(f"{SEATS[seat]} holds {hand_counts[seat]} cards but is known to hold "
                                          f"{len(picked)}", values[SEATS[seat].lower()][0], SEATS[seat])
        known_part[seat] = picked
    for seat in range(4):
        if hands[seat] is None:
            n = hand_counts[seat] - len(known_part[seat])
            # a seat past its first turn holds no red three (R-RED-1, R-RED-2)
            allowed = [c for c in rest if seat in waiting or CARD_KIND[c] != RED_THREE]
            if n > len(allowed):
                raise ImpossiblePositionError(f"hand {SEATS[seat]} needs {hand_counts[seat]} cards but only "
                                              f"{len(allowed) + len(known_part[seat])} are left of the 108",
                                              values[SEATS[seat].lower()][0], SEATS[seat])
            picked = allowed[len(allowed) - n:] if n else []
            hands[seat] = known_part[seat] + picked
            chosen = set(picked)
            rest = [c for c in rest if c not in chosen]
    if stock_cards is None:
        n = len(rest) if stock_count is None else stock_count
        if stock_count is not None and stock_count != len(rest):
            total = NUM_CARDS - len(rest) + stock_count
            raise ImpossiblePositionError(f"the position holds {total} cards in all; a game has 108",
                                          values["stock"][0], "stock")
        stock_cards = [rest.pop() for _ in range(n)]
    elif rest:
        raise ImpossiblePositionError(f"the position holds {NUM_CARDS - len(rest)} cards in all; a game has "
                                      "108 (give the stock as a count to fill the rest)", values["stock"][0],
                                      "stock")

    # build the state
    state.stock = stock_cards
    state.pile = pile
    for seat in range(4):
        h: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        for c in hands[seat] or []:
            h[CARD_KIND[c]].append(c)
        state.hands[seat] = h
        state.hand_size[seat] = len(hands[seat] or [])
    state.red3 = reds
    for side in (0, 1):
        for cards, mark, mln in melds[side]:
            _add_meld(state, side, cards, mark, mln)
    for side in (0, 1):
        for c in reds[side]:
            if CARD_KIND[c] != RED_THREE:
                raise ImpossiblePositionError(f"{CARD_CODE[c]} is not a red three", values[
                    f"red threes {SIDE_NAMES[side].lower()}"][0], f"red threes {SIDE_NAMES[side]}")
    state.first_turn_done = [s not in waiting for s in range(4)]
    ln, v = get("melded-before")
    before = {_seat(w, ln, "melded-before") for w in v.split()} if v and v != "-" else set()
    state.has_melded = [s in before for s in range(4)]
    for seat in range(4):
        for k in range(NUM_KINDS):
            if knowns[seat][k] > len(state.hands[seat][k]):
                raise ImpossiblePositionError(
                    f"{SEATS[seat]} is said to be known to hold {knowns[seat][k]} {KIND_NAMES[k]} but holds "
                    f"{len(state.hands[seat][k])}", values[SEATS[seat].lower()][0], SEATS[seat])
    state.known = knowns
    # derived: the freeze, the initial melds, black threes on the table
    state.freeze_at = -1
    for i, c in enumerate(pile):
        kind = CARD_KIND[c]
        if kind in (JOKER, DEUCE, RED_THREE) or (kind == BLACK_THREE and options.black_three == "freezes"):
            state.freeze_at = i
            break
    if pile_marks and pile_marks != [state.freeze_at]:
        ln = values["pile"][0]
        if state.freeze_at < 0:
            raise ImpossiblePositionError("a card is marked as freezing the pile, but the pile holds no "
                                          "freezing card", ln, "pile")
        raise ImpossiblePositionError(f"the freeze mark belongs on {CARD_CODE[pile[state.freeze_at]]}, the "
                                      "lowest freezing card", ln, "pile")
    turn_side = state.turn & 1
    for side in (0, 1):
        has = bool(state.melds[side])
        in_progress = side == turn_side and state.phase in ("draw", "meld", "answer") and (
            state.shown or state.pending)
        state.initial[side] = has and not in_progress
    if BLACK_THREE in state.melds[turn_side]:
        state.b3_melded = len(state.melds[turn_side][BLACK_THREE][0])
        if state.phase in ("draw", "meld", "answer"):
            state.must_out = True
    _check_consistency(state, values)
    return state


def _kind_token(t: str, line: int, field: str) -> int:
    if t == "10":
        t = "T"
    if t in KIND_TOKENS and t != "R3":
        return KIND_TOKENS.index(t)
    raise NotationError(f"{t!r} is not a card kind", line, field)


def _add_meld(state: State, side: int, cards: list[int], mark: str, line: int) -> None:
    field = f"melds {SIDE_NAMES[side]}"
    kinds = [CARD_KIND[c] for c in cards]
    naturals = [c for c in cards if CARD_KIND[c] not in (JOKER, DEUCE)]
    wilds = [c for c in cards if CARD_KIND[c] in (JOKER, DEUCE)]
    text = " ".join(CARD_CODE[c] for c in cards)
    if any(k == RED_THREE for k in kinds):
        raise ImpossiblePositionError(f"meld {text!r}: red threes are never melded", line, field)
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
    if len(wilds) > state.options.wild_cap(len(naturals)):
        raise ImpossiblePositionError(f"meld {text!r}: {len(wilds)} wild cards; a meld may hold at most "
                                      f"{state.options.wild_cap(len(naturals))}", line, field)
    if kind in state.melds[side]:
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
    state.melds[side][kind] = [naturals, wilds]


def _check_consistency(state: State, values: dict[str, tuple[int, str]]) -> None:
    def line_of(key: str) -> int | None:
        return values.get(key, (None, ""))[0]

    for seat in range(4):
        if state.hands[seat][RED_THREE] and state.first_turn_done[seat]:
            raise ImpossiblePositionError(f"{SEATS[seat]} holds a red three after their first turn; red threes "
                                          "are laid out at once", line_of(SEATS[seat].lower()), SEATS[seat])
    playing = state.phase in ("draw", "meld", "answer")
    if playing:
        for seat in range(4):
            if state.hand_size[seat] == 0:
                raise ImpossiblePositionError(f"{SEATS[seat]} holds no cards, but the hand is still being played",
                                              line_of(SEATS[seat].lower()), SEATS[seat])
    if state.phase == "answer" and not state.asked:
        raise ImpossiblePositionError("the phase is 'answer' but nobody asked (add the flag 'asked')",
                                      line_of("turn"), "turn")
    if state.phase == "draw" and (state.took_pack or state.asked == 2):
        raise ImpossiblePositionError("in the draw phase the player can't have taken the pack or asked after "
                                      "drawing", line_of("turn"), "turn")
    if state.shown and state.phase != "draw":
        raise ImpossiblePositionError("'shown' melds belong to the draw phase", line_of("turn"), "turn")
    if state.pending and state.initial[state.turn & 1]:
        raise ImpossiblePositionError("pending points toward the minimum, but the side has made its initial "
                                      "meld", line_of("turn"), "turn")
    for side in (0, 1):
        if len(state.red3[side]) > 4:
            raise ImpossiblePositionError("more than four red threes", line_of(
                f"red threes {SIDE_NAMES[side].lower()}"), f"red threes {SIDE_NAMES[side]}")


def _cards_text(cards: Iterable[int]) -> str:
    return " ".join(CARD_CODE[c] for c in cards)


def format_position(state: State, seat: int | str | None = None) -> str:
    """Format a state as a position.  With ``seat``, only what that seat may know:
    other hands become counts (with the cards known to be in them)."""
    from .state import seat_index

    viewer = None if seat is None else seat_index(seat)
    lines = ["canasta-tutor position"]
    if state.seed or state.deal_no:
        lines.append(f"seed: {state.seed}")
        lines.append(f"deal: {state.deal_no}")
    opts = state.options.format()
    if opts:
        lines.append(f"options: {opts}")
    if state.players != ("N", "E", "S", "W"):
        lines.append("players: " + ", ".join(state.players))
    lines.append(f"dealer: {SEATS[state.dealer]}")
    flags = []
    if state.asked == 1:
        flags.append("asked")
    elif state.asked == 2:
        flags.append("asked-after-draw")
    if state.answer is not None:
        flags.append("answer=yes" if state.answer else "answer=no")
    if state.melded_turn and not state.took_pack and not state.shown:
        flags.append("melded")
    if state.took_pack:
        flags.append("took-pack")
    if state.shown:
        flags.append("shown")
    if state.pending and not state.initial[state.turn & 1]:
        flags.append(f"pending={state.pending}")
    lines.append(" ".join([f"turn: {SEATS[state.turn]} {state.phase}"] + flags))
    lines.append(f"totals: NS {state.deal_totals[0]} EW {state.deal_totals[1]}")
    lines.append(f"stock: {len(state.stock)}")
    pile = [CARD_CODE[c] + ("*" if i == state.freeze_at else "") for i, c in enumerate(state.pile)]
    lines.append("pile: " + (" ".join(pile) if pile else "-"))
    for s in range(4):
        cards = sorted((c for k in state.hands[s] for c in k), key=sort_key)
        known = [KIND_TOKENS[k] for k in range(NUM_KINDS) for _ in range(state.known[s][k])]
        if viewer is None or viewer == s:
            text = _cards_text(cards) if cards else "-"
        else:
            text = f"{len(cards)} cards"
            if known:
                text += " known: " + " ".join(known)
        lines.append(f"{SEATS[s]}: {text}")
    for side in (0, 1):
        parts = []
        for kind in sorted(state.melds[side], key=lambda k: (k == BLACK_THREE, k)):
            nat, wild = state.melds[side][kind]
            cards = sorted(nat, key=sort_key) + sorted(wild, key=sort_key)
            text = _cards_text(cards)
            if is_canasta(len(nat), len(wild)):
                text += " (mixed canasta)" if wild else " (natural canasta)"
            parts.append(text)
        if parts:
            lines.append(f"melds {SIDE_NAMES[side]}: " + "; ".join(parts))
    for side in (0, 1):
        if state.red3[side]:
            lines.append(f"red threes {SIDE_NAMES[side]}: " + _cards_text(state.red3[side]))
    waiting = [SEATS[s] for s in range(4) if not state.first_turn_done[s]]
    if waiting and state.phase in ("draw", "meld", "answer"):
        lines.append("first-turn: " + " ".join(waiting))
    before = [SEATS[s] for s in range(4) if state.has_melded[s]]
    if before:
        lines.append("melded-before: " + " ".join(before))
    return "\n".join(lines) + "\n"


__all__ = ["parse_position", "format_position", "EXAMPLE", "format_card"]
