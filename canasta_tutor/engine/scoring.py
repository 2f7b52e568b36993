"""The score of a hand as typed records (R-SCORE-1..3).

:meth:`canasta_tutor.engine.state.State.score_hand` returns a :class:`HandResult`, and
``State.hand_results`` keeps one per finished hand.  ``to_dict()`` gives the
JSON form (the command line's ``--json`` output, events, widgets).

>>> side = SideScore(natural_canastas=1, mixed_canastas=0, red_threes=100, going_out=100,
...                  concealed=0, melded=150, in_hand=-20, total=830)
>>> result = HandResult(deal=0, went_out="S", concealed=False, sides=(side, side))
>>> result.sides[0].total, result.to_dict()["sides"][1]["red_threes"]
(830, 100)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class SideScore:
    """One side's score for a hand: the bonuses, the card points, and the total.

    ``red_threes`` is negative when the side melded nothing; ``in_hand`` is the
    (negative) value of the cards left in the partners' hands.  ``extra_bonuses`` holds a
    variant's further bonuses (Italian Canasta's five and ten canastas and canasta of deuces,
    R-ITAL-10); it is 0 in the classic game and left out of the JSON form when 0.
    """

    natural_canastas: int
    mixed_canastas: int
    red_threes: int
    going_out: int
    concealed: int
    melded: int
    in_hand: int
    total: int
    extra_bonuses: int = field(default=0, repr=False)  # repr as before: the engine pins digest reprs

    def to_dict(self) -> dict[str, int]:
        """The JSON form, keys in field order (``extra_bonuses`` only when it is not 0)."""
        data = asdict(self)
        if not self.extra_bonuses:
            del data["extra_bonuses"]
        return data


@dataclass(frozen=True)
class SambaSideScore(SideScore):
    """A side's score in Samba: :class:`SideScore` and the number of its sambas, sequences of seven
    worth their own bonus (R-SAMBA-9).  ``natural_canastas`` and ``mixed_canastas`` count its sets."""

    sambas: int = 0


@dataclass(frozen=True)
class BoliviaSideScore(SambaSideScore):
    """A side's score in Bolivia (and Chile): :class:`SambaSideScore` and the number of its bolivias, melds of
    seven wild cards worth their own bonus (R-BOL-3); ``sambas`` counts its escaleras (R-BOL-1)."""

    bolivias: int = 0


@dataclass(frozen=True)
class HandResult:
    """The result of one hand: its deal number (from 0), who went out (a seat
    letter, or None when the stock ran out), whether concealed, and each side's
    score in side order (classic: NS first, then EW; a variant has as many sides as it seats)."""

    deal: int
    went_out: str | None
    concealed: bool
    sides: tuple[SideScore, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"deal", "went_out", "concealed", "sides": [{...}, {...}]}``."""
        return {"deal": self.deal, "went_out": self.went_out, "concealed": self.concealed,
                "sides": [s.to_dict() for s in self.sides]}


__all__ = ["SideScore", "SambaSideScore", "BoliviaSideScore", "HandResult"]
