"""The spoken names of cards (``"seven of hearts"``), for screen readers, tooltips and the table's labels.

Cards are named here by their codes (``7H``, ``TS``, ``JK``), as the table's view model holds them.
"""

from __future__ import annotations

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
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def split_code(code: str) -> tuple[str, str]:
    """Split a card code into (rank, suit); the joker is ('JK', '').

    >>> split_code('TS')
    ('T', 'S')
    >>> split_code('JK')
    ('JK', '')
    >>> split_code('1S')
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
    rank, suit = split_code(code)
    if rank == JOKER:
        return "joker"
    return f"{_RANK_NAMES[rank]} of {_SUIT_NAMES[suit]}"


__all__ = ["JOKER", "RANKS", "SUITS", "split_code", "card_label"]
