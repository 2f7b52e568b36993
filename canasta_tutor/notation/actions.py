"""Text form of actions: what a learner types and what the tutor prints.

The engine's actions are plain tuples (see :mod:`canasta_tutor.engine.state`); this
module turns them into short words and back.  Cards are named by *kind*:
``4`` .. ``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``2`` (a deuce), ``JK`` (a
joker) and ``3`` (a black three).  Parsing also accepts lower case, ``10`` for
``T`` and card codes with a suit (``7H`` is a seven).

=============================  ==============================================
``draw``                       ``("draw",)``
``take K K K``                 ``("take", K, 2, 0, 0)``: the whole meld the pile's
                               top card makes, top card first
``take K``                     ``("take", K, 0, 0, 0)``: the top card goes onto the
                               side's meld of kings
``meld K K JK``                ``("meld", K, 2, 1, 0)``
``add K`` / ``add JK to K``    ``("add", K, K)`` / ``("add", K, JOKER)``
``meld 2 2 2``, ``add 2``      a meld of deuces and a deuce added to it (Italian
                               Canasta; the classic engine refuses them)
``discard 7``                  ``("discard", 7's kind)``
``ask``, ``yes``, ``no``,      the one-word actions
``pass``, ``deal``
=============================  ==============================================

Samba (:mod:`canasta_tutor.engine.samba`) names a side's melds by number, ``m1`` for its first
(``i = 0`` in the tuple; ``#1`` and ``1`` are read too, but ``#`` starts a comment in files),
and adds sequences:

=============================  ==============================================
``run 7H 8H 9H``               ``("run", suit, 7's kind)``: a new sequence
``put K on m2``                ``("put", 1, K)``: one card onto meld m2 (a
                               sequence's card is named by rank; its suit is the
                               sequence's)
``join m3 into m1``            ``("join", 0, 2)``: set m3 joins set m1
``take K on m2``               ``("takeon", K, 1)``: the top card alone onto m2
=============================  ==============================================

Bolivia and Chile (:mod:`canasta_tutor.engine.bolivia`) add melds of wild cards alone:
``wild JK 2 2`` is ``("wild", 1, 2)``, a new meld of one joker and two deuces (R-BOL-2); a wild card
joins it with ``put JK on m3``, as onto any numbered meld.

>>> from canasta_tutor.engine.cards import DEUCE, parse_kind
>>> K = parse_kind("K")
>>> parse_action("take K K K") == ("take", K, 2, 0, 0)
True
>>> format_action(("meld", K, 2, 0, 1))
'meld K K 2'
>>> format_action(parse_action("Meld 2 kh K"))      # any order in, canonical order out
'meld K K 2'
>>> format_action(parse_action("add joker to k"))
'add JK to K'
>>> format_action(parse_action("meld 2 2 2")), format_action(("add", DEUCE, DEUCE))
('meld 2 2 2', 'add 2')

Parsing checks the *shape* of an action, not whether it is legal; that is the
engine's job (:meth:`State.explain <canasta_tutor.engine.state.State.explain>`).
Malformed text raises :class:`~canasta_tutor.engine.errors.NotationError` quoting it:

>>> format_action(parse_action("run 9h 8h th"))
'run 8H 9H TH'
>>> parse_action("put 2 on m1") == ("put", 0, parse_kind("2"))
True

>>> parse_action("meld K Q K")
Traceback (most recent call last):
...
canasta_tutor.engine.errors.NotationError: 'meld K Q K': a meld holds one rank, but this names kings and queens
"""

from __future__ import annotations

from typing import Any, Iterable

from ..engine.cards import (
    BLACK_THREE,
    CARD_KIND,
    RANK_CHARS,
    SUIT_CHARS,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_TOKENS,
    NUM_KINDS,
    RED_THREE,
    WILD_KINDS,
    normalize_code,
    parse_card,
    parse_kind,
)
from ..engine.errors import NotationError

Action = tuple[Any, ...]

#: The one-word actions.
SIMPLE_VERBS = ("draw", "ask", "yes", "no", "pass", "deal")
#: Every verb, in the order a turn uses them.
VERBS = ("draw", "take", "meld", "add", "discard", "ask", "yes", "no", "pass", "deal")
#: Samba's verbs for sequences and numbered melds (``take K on m1`` is the tuple verb ``takeon``).
SAMBA_VERBS = ("run", "put", "join")
#: Bolivia's verb for a new meld of wild cards (R-BOL-2)
BOLIVIA_VERBS = ("wild",)

_TOKEN = {k: ("3" if k == BLACK_THREE else KIND_TOKENS[k]) for k in range(NUM_KINDS)}


def kind_token(kind: int) -> str:
    """The token of a kind in action text.

    >>> [kind_token(k) for k in (0, 6, 10, 11, 12, 13, 14)]
    ['4', 'T', 'A', '2', 'JK', '3', 'R3']
    """
    return _TOKEN[kind]


def _kind(token: str, text: str) -> int:
    if token.upper() == "R3":
        return RED_THREE
    try:
        return parse_kind(token)
    except NotationError as e:
        raise NotationError(f"{text!r}: {e.message}") from None


def _check_kind(k: object) -> int:
    if type(k) is not int or not 0 <= k < NUM_KINDS:  # noqa: E721 - bool is not a kind
        raise NotationError(f"{k!r} is not a card kind (0..{NUM_KINDS - 1})")
    return k


def _check_count(n: object) -> int:
    if type(n) is not int or n < 0:  # noqa: E721
        raise NotationError(f"{n!r} is not a card count")
    return n


def format_action(a: Action) -> str:
    """The canonical text of an action tuple.

    Meld and take list naturals first, then jokers, then deuces:

    >>> from canasta_tutor.engine.cards import parse_kind, JOKER, DEUCE
    >>> K = parse_kind("K")
    >>> format_action(("take", K, 3, 1, 1))
    'take K K K K JK 2'
    >>> format_action(("add", K, JOKER)), format_action(("add", K, K))
    ('add JK to K', 'add K')
    >>> format_action(("discard", parse_kind("3")))
    'discard 3'

    Raises :class:`NotationError` for something that is not an action tuple, or
    for the few tuples the text cannot say unambiguously (a meld of wild cards
    with no natural rank).
    """
    if not isinstance(a, tuple) or not a or not isinstance(a[0], str):
        raise NotationError(f"{a!r} is not an action")
    verb = a[0]
    if verb in SIMPLE_VERBS:
        if len(a) != 1:
            raise NotationError(f"{a!r} is not an action: {verb!r} takes no cards")
        return verb
    if verb == "discard":
        if len(a) != 2:
            raise NotationError(f"{a!r} is not an action: discard names one card kind")
        return f"discard {_TOKEN[_check_kind(a[1])]}"
    if verb == "add":
        if len(a) != 3:
            raise NotationError(f"{a!r} is not an action: add names a meld and a card kind")
        k, w = _check_kind(a[1]), _check_kind(a[2])
        return f"add {_TOKEN[k]}" if w == k else f"add {_TOKEN[w]} to {_TOKEN[k]}"
    if verb in ("meld", "take"):
        if len(a) != 5:
            raise NotationError(f"{a!r} is not an action: {verb} has a kind and three counts")
        k = _check_kind(a[1])
        n, j, d = (_check_count(x) for x in a[2:])
        if verb == "meld":
            # a meld of deuces (Italian Canasta, R-ITAL-6) is 'meld 2 2 2'; wild cards alone, which the
            # engine refuses (R-MELD-3), are ("meld", DEUCE, deuces, jokers, 0) or ("meld", JOKER, 0, jokers, 0)
            wild_only = (k == DEUCE and not d and n + j) or (k == JOKER and not n and not d and j)
            if (k in WILD_KINDS or n == 0) and not wild_only:
                raise NotationError(f"{a!r} cannot be written: a meld is named by its natural cards")
            tokens = [_TOKEN[k]] * n

        else:
            if (k == JOKER and j) or (k == DEUCE and d):
                raise NotationError(f"{a!r} cannot be written: its wild cards would read as naturals")
            tokens = [_TOKEN[k]] * (n + 1)
        tokens += ["JK"] * j + ["2"] * d
        return f"{verb} {' '.join(tokens)}"
    if verb in ("run", "put", "join", "takeon"):
        return _format_samba(a)
    if verb == "wild":
        if len(a) != 3 or type(a[1]) is not int or type(a[2]) is not int or a[1] < 0 or a[2] < 0:  # noqa: E721
            raise NotationError(f"{a!r} is not a meld of wild cards: ('wild', jokers, deuces)")
        return "wild " + " ".join(["JK"] * a[1] + ["2"] * a[2])
    raise NotationError(f"{a!r} is not an action: unknown verb {verb!r}")


def _check_index(i: object) -> int:
    if type(i) is not int or i < 0:  # noqa: E721
        raise NotationError(f"{i!r} is not a meld number (0 for m1, ...)")
    return i


def _format_samba(a: Action) -> str:
    verb = a[0]
    if len(a) != 3:
        raise NotationError(f"{a!r} is not an action: {verb} has two fields")
    if verb == "run":
        s, k = a[1], a[2]
        if type(s) is not int or not 0 <= s < 4 or type(k) is not int or not 0 <= k <= 8:  # noqa: E721
            raise NotationError(f"{a!r} is not a sequence: a suit 0..3 and a lowest rank from 4 to Q")
        return "run " + " ".join(RANK_CHARS[k + 2 + i] + SUIT_CHARS[s] for i in range(3))
    if verb == "put":
        i, w = _check_index(a[1]), _check_kind(a[2])
        return f"put {_TOKEN[w]} on m{i + 1}"
    if verb == "join":
        i, i2 = _check_index(a[1]), _check_index(a[2])
        return f"join m{i2 + 1} into m{i + 1}"
    k, i = _check_kind(a[1]), _check_index(a[2])
    return f"take {_TOKEN[k]} on m{i + 1}"


def _meld_number(token: str, text: str) -> int:
    t = token.strip()
    digits = t[1:] if t[:1] in ("#", "m", "M") else t
    if not digits.isdigit() or int(digits) < 1 or len(digits) > 4:
        raise NotationError(f"{text!r}: {token!r} is not a meld number; melds are numbered m1, m2, ...")
    return int(digits) - 1


def _parse_samba(verb: str, rest: list[str], text: str) -> Action:
    if verb == "run":
        if len(rest) != 3:
            raise NotationError(f"{text!r}: a sequence starts with three cards of one suit, like 'run 7H 8H 9H'")
        try:
            codes = sorted((normalize_code(t) for t in rest), key=lambda c: RANK_CHARS.index(c[0]))
        except NotationError as e:
            raise NotationError(f"{text!r}: {e.message}") from None
        kinds = [CARD_KIND[parse_card(c)] for c in codes]
        if any(k > 10 for k in kinds) or len({c[1] for c in codes}) != 1 or kinds != list(
                range(kinds[0], kinds[0] + 3)):
            raise NotationError(f"{text!r}: a sequence is three natural cards of one suit in a row, from 4 up to "
                                "ace, like 'run 7H 8H 9H'")
        return ("run", SUIT_CHARS.index(codes[0][1]), kinds[0])
    if verb == "join":
        if len(rest) != 3 or rest[1].lower() not in ("into", "to", "onto", "on"):
            raise NotationError(f"{text!r}: join two sets by number, like 'join m2 into m1'")
        return ("join", _meld_number(rest[2], text), _meld_number(rest[0], text))
    if len(rest) != 3 or rest[1].lower() not in ("on", "to", "onto"):
        raise NotationError(f"{text!r}: put one card onto a meld by its number, like 'put K on m1'")
    return ("put", _meld_number(rest[2], text), _kind(rest[0], text))


def _split_wilds(kinds: list[int], k: int) -> tuple[int, int, int]:
    n = sum(1 for x in kinds if x == k)
    j = sum(1 for x in kinds if x == JOKER and k != JOKER)
    d = sum(1 for x in kinds if x == DEUCE and k != DEUCE)
    return n, j, d


def parse_action(text: str) -> Action:
    """Parse an action's text to its tuple (shape only, not legality).

    >>> from canasta_tutor.engine.cards import parse_kind, JOKER, DEUCE, BLACK_THREE
    >>> K = parse_kind("K")
    >>> parse_action("take K") == ("take", K, 0, 0, 0)
    True
    >>> parse_action("take K K JK") == ("take", K, 1, 1, 0)
    True
    >>> parse_action("meld 3 3 3") == ("meld", BLACK_THREE, 3, 0, 0)
    True
    >>> parse_action("add 2 to K") == ("add", K, DEUCE)
    True
    >>> parse_action("meld 2 2 JK") == ("meld", DEUCE, 2, 1, 0)  # the engine refuses it (R-MELD-3)
    True
    >>> parse_action("DISCARD 10h") == ("discard", parse_kind("T"))
    True
    >>> parse_action("take")
    Traceback (most recent call last):
    ...
    canasta_tutor.engine.errors.NotationError: 'take': name the pile's top card, then the cards from your hand, like ...
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not action text")
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(f"{text!r}: empty action; actions are {', '.join(VERBS)}")
    verb = words[0].lower()
    rest = words[1:]
    if verb in SIMPLE_VERBS:
        if rest:
            raise NotationError(f"{text!r}: {verb!r} takes no cards")
        return (verb,)
    if verb == "discard":
        if len(rest) != 1:
            raise NotationError(f"{text!r}: discard exactly one card, like 'discard 7'")
        return ("discard", _kind(rest[0], text))
    if verb == "add":
        if len(rest) == 1:
            k = _kind(rest[0], text)
            return ("add", k, k)
        if len(rest) == 3 and rest[1].lower() in ("to", "on", "onto"):
            return ("add", _kind(rest[2], text), _kind(rest[0], text))
        raise NotationError(f"{text!r}: add one card at a time, like 'add K' or 'add JK to K'")
    if verb == "meld":
        if not rest:
            raise NotationError(f"{text!r}: name the cards of the meld, like 'meld K K K'")
        kinds = [_kind(t, text) for t in rest]
        ranks = list(dict.fromkeys(x for x in kinds if x not in WILD_KINDS))
        if all(x == DEUCE for x in kinds):
            return ("meld", DEUCE, len(kinds), 0, 0)  # deuces as a rank of their own (Italian Canasta)
        if not ranks:
            # wild cards alone: an action the engine refuses with its own rule (R-MELD-3; a meld of
            # deuces holding a joker is Italian Canasta's R-ITAL-6), not a notation error
            deuces = kinds.count(DEUCE)
            return ("meld", DEUCE, deuces, len(kinds) - deuces, 0) if deuces else ("meld", JOKER, 0, len(kinds), 0)
        if len(ranks) > 1:
            names = " and ".join(KIND_NAMES[x] for x in ranks)
            raise NotationError(f"{text!r}: a meld holds one rank, but this names {names}")
        k = ranks[0]
        return ("meld", k, *_split_wilds(kinds, k))
    if verb in SAMBA_VERBS:
        return _parse_samba(verb, rest, text)
    if verb == "wild":
        kinds = [_kind(t, text) for t in rest]
        if not kinds or any(x not in WILD_KINDS for x in kinds):
            raise NotationError(f"{text!r}: a meld of wild cards names jokers and deuces only, like 'wild JK 2 2'")
        return ("wild", kinds.count(JOKER), kinds.count(DEUCE))
    if verb == "take" and len(rest) == 3 and rest[1].lower() in ("on", "to", "onto"):
        return ("takeon", _kind(rest[0], text), _meld_number(rest[2], text))
    if verb == "take":
        if not rest:
            raise NotationError(f"{text!r}: name the pile's top card, then the cards from your hand, "
                                "like 'take K K K'")
        kinds = [_kind(t, text) for t in rest]
        k = kinds[0]
        others = kinds[1:]
        strays = list(dict.fromkeys(x for x in others if x != k and x not in WILD_KINDS))
        if strays:
            names = " and ".join(KIND_NAMES[x] for x in [k] + strays)
            raise NotationError(f"{text!r}: a meld holds one rank, but this names {names}")
        return ("take", k, *_split_wilds(others, k))
    hint = ", ".join(VERBS + SAMBA_VERBS + BOLIVIA_VERBS)
    raise NotationError(f"{text!r}: unknown action {words[0]!r}; actions are {hint}")


def format_actions(actions: Iterable[Action]) -> list[str]:
    """Format several actions (a convenience for listings)."""
    return [format_action(a) for a in actions]


__all__ = ["format_action", "parse_action", "format_actions", "kind_token", "VERBS", "SIMPLE_VERBS", "SAMBA_VERBS",
           "BOLIVIA_VERBS"]
