"""Cards, card kinds and their values.

The engine tracks all 108 physical cards (two 52-card decks and four jokers,
rule R-CARDS-1) as small integers, so a shuffle is a real shuffle and every
card can be accounted for.  For the rules only the *kind* of a card matters:
its rank for fours to aces, and for threes its colour.  Legal actions are
therefore stated in kinds, never in particular cards.

Card codes are two characters, rank then suit, as a teacher would write them:

>>> parse_card("7H")
21
>>> format_card(parse_card("TS"))
'TS'
>>> format_card(parse_card("JK"))
'JK'
>>> kind_of(parse_card("3D")) == RED_THREE
True
>>> format_card(parse_card("9C"), glyphs=True)
'9♣'
"""

from __future__ import annotations

import random
from typing import Final, Iterable

from .errors import NotationError

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "SHDC"
SUIT_GLYPHS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
GLYPH_SUITS: Final = {v: k for k, v in SUIT_GLYPHS.items()}
RED_SUITS: Final = frozenset("HD")

CARDS_PER_DECK: Final = 54  # 52 cards and two jokers
NUM_CARDS: Final = 2 * CARDS_PER_DECK  # 108, rule R-CARDS-1
#: The most cards any variant uses: four decks and eight jokers (Pennies from Heaven, R-PEN-2).  Card ids
#: 108..161 are the third deck and 162..215 the fourth, laid out like the first two; classic games use ids
#: 0..107 only.
MAX_CARDS: Final = 4 * CARDS_PER_DECK

# Kinds.  0..10 are the natural ranks 4..A; then the two wild kinds and threes.
NATURAL_KINDS: Final = tuple(range(11))
DEUCE: Final = 11
JOKER: Final = 12
BLACK_THREE: Final = 13
RED_THREE: Final = 14
NUM_KINDS: Final = 15
WILD_KINDS: Final = (DEUCE, JOKER)

#: Token for each kind as used in action notation.
KIND_TOKENS: Final = ("4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "JK", "3", "R3")
TOKEN_KINDS: Final = {t: i for i, t in enumerate(KIND_TOKENS)}
#: Plural names for learner-facing messages.
KIND_NAMES: Final = (
    "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces",
    "deuces", "jokers", "black threes", "red threes",
)
KIND_SINGULAR: Final = (
    "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    "deuce", "joker", "black three", "red three",
)


def a_kind(kind: int) -> str:
    """The singular name with its article, as a sentence says it: ``a 7``, ``an 8``, ``an ace``.

    >>> a_kind(4), a_kind(10), a_kind(9)
    ('an 8', 'an ace', 'a king')
    """
    word = KIND_SINGULAR[kind]
    return f"an {word}" if word in ("8", "ace") else f"a {word}"


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``.

    >>> plural(1, "card"), plural(0, "card")
    ('1 card', '0 cards')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: Point value of each kind, rule R-CARDS-3 (a red three has no count value).
KIND_VALUES: Final = (5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50, 5, 0)


def _build_tables(decks: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    kinds: list[int] = []
    codes: list[str] = []
    for _deck in range(decks):
        for rank in RANK_CHARS:
            for suit in SUIT_CHARS:
                codes.append(rank + suit)
                if rank == "2":
                    kinds.append(DEUCE)
                elif rank == "3":
                    kinds.append(RED_THREE if suit in RED_SUITS else BLACK_THREE)
                else:
                    kinds.append(RANK_CHARS.index(rank) - 2)
        for _ in range(2):
            codes.append("JK")
            kinds.append(JOKER)
    return tuple(kinds), tuple(codes)


#: ``CARD_KIND[card]`` is the kind of each card id, ``0..MAX_CARDS-1`` (ids below 108 are the classic
#: deck; the table is as long as the largest deck so the engine's hot paths need no variant look-up).
CARD_KIND, ALL_CARD_CODES = _build_tables(4)
#: The code of each of the classic 108 cards (``ALL_CARD_CODES`` covers every variant's deck).
CARD_CODE: Final = ALL_CARD_CODES[:NUM_CARDS]
#: Point value of each card id.
CARD_VALUE: Final = tuple(KIND_VALUES[k] for k in CARD_KIND)


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: for a plain :class:`random.Random` its algorithm is written out here
    (the same draws from the generator, the same order, without two calls per card); any other
    generator, which may shuffle its own way, is asked to shuffle.  tests/test_engine_pin.py holds
    the two to each other."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)  # as Random._randbelow_with_getrandbits(n)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def kind_of(card: int) -> int:
    """Return the kind of a card id."""
    return CARD_KIND[card]


def kind_of_code(code: str) -> int:
    """The kind of a card written as a code.

    >>> kind_of_code("3S") == BLACK_THREE, kind_of_code("JK") == JOKER
    (True, True)
    """
    return CARD_KIND[parse_card(code)]


def is_canasta(naturals: int, wilds: int) -> bool:
    """A meld of seven or more cards with at least four naturals is a canasta (R-CAN-1)."""
    return naturals >= 4 and naturals + wilds >= 7


def is_wild(kind: int) -> bool:
    """Jokers and deuces are wild (R-CARDS-2)."""
    return kind == DEUCE or kind == JOKER


def is_natural(kind: int) -> bool:
    """Fours to aces are natural (R-CARDS-2)."""
    return kind < 11


def card_ids_by_code(num_cards: int = NUM_CARDS) -> dict[str, list[int]]:
    """Map each card code to its physical card ids among the first ``num_cards`` (classic: two per
    code, four jokers; a variant passes its deck size)."""
    table: dict[str, list[int]] = {}
    for card, code in enumerate(ALL_CARD_CODES[:num_cards]):
        table.setdefault(code, []).append(card)
    return table


_IDS_BY_CODE: Final = card_ids_by_code()


def normalize_code(text: str) -> str:
    """Return the canonical code for a card written as ``7H``, ``7h``, ``7♥``, ``10H`` or ``JK``.

    >>> normalize_code("10♥")
    'TH'

    Raises :class:`NotationError` quoting the text when it is not a card.
    """
    raw = text.strip()
    t = raw.upper()
    if t in ("JK", "JOKER", "★", "X"):
        return "JK"
    if len(raw) >= 2 and raw[-1] in GLYPH_SUITS:
        t = raw[:-1].upper() + GLYPH_SUITS[raw[-1]]
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise NotationError(f"{text!r} is not a card: write rank then suit, like 7H, TS, 10D or JK")
    return t


def parse_card(text: str) -> int:
    """Parse a card code to the id of the first physical card with that code."""
    return _IDS_BY_CODE[normalize_code(text)][0]


def ids_for_code(code: str) -> list[int]:
    """All physical ids for a (normalized) card code."""
    return list(_IDS_BY_CODE[normalize_code(code)])


def format_card(card: int, glyphs: bool = False) -> str:
    """Format a card id as its code, optionally with a suit glyph (``9♣``)."""
    code = ALL_CARD_CODES[card]
    if glyphs and code != "JK":
        return code[0] + SUIT_GLYPHS[code[1]]
    return code


def format_cards(cards: Iterable[int], glyphs: bool = False) -> str:
    """Format card ids separated by spaces."""
    return " ".join(format_card(c, glyphs) for c in cards)


def parse_kind(token: str) -> int:
    """Parse a kind token used in actions: ``4``..``9``, ``T`` (or ``10``), ``J``, ``Q``, ``K``, ``A``,
    ``2`` (deuce), ``JK`` (joker), ``3`` (black three).  A card code such as ``7H`` is accepted too.

    >>> KIND_TOKENS[parse_kind("10")]
    'T'
    >>> parse_kind("JK") == JOKER
    True
    """
    t = token.strip().upper()
    if t == "10":
        t = "T"
    if t in ("JOKER", "X", "★"):
        t = "JK"
    if t in TOKEN_KINDS and t != "R3":
        return TOKEN_KINDS[t]
    try:
        return CARD_KIND[parse_card(token)]
    except NotationError:
        raise NotationError(
            f"{token!r} is not a card kind: use 4-9, T, J, Q, K, A, 2 (deuce), JK (joker) or 3 (black three)"
        ) from None


def sort_key(card: int) -> tuple[int, int]:
    """Display order: threes first, then 4..A, then deuces and jokers grouped last."""
    kind = CARD_KIND[card]
    order = {BLACK_THREE: -2, RED_THREE: -1}.get(kind, kind)
    return (order, card % CARDS_PER_DECK)
