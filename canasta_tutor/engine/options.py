"""Rule options: the named alternatives where the rule sources disagree.

Each default is the reading the rule book (``seeds/rules.md``) adopts.

>>> RuleOptions()
RuleOptions(black_three='freezes', upcard_chain='wild_or_three', wild_limit='three', round_totals=False)
>>> RuleOptions.parse("black_three=stops round_totals=true").black_three
'stops'
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from .errors import NotationError

_CHOICES: dict[str, tuple[object, ...]] = {
    "black_three": ("freezes", "stops"),
    "upcard_chain": ("wild_or_three", "wild_or_red_three", "wild_only"),
    "wild_limit": ("three", "half"),
    "round_totals": (False, True),
}
_CAPS = {"three": (3,) * 17, "half": tuple(min(3, n // 2) for n in range(17))}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Options of classic partnership Canasta.

    - ``black_three``: ``"freezes"`` (R-FRZ-3) or ``"stops"``: a black three only stops the next player.
    - ``upcard_chain``: which turned-up cards make the dealer turn another (R-DEAL-5).
    - ``wild_limit``: ``"three"`` (R-MELD-2) or ``"half"``: also two naturals for every wild card.
    - ``round_totals``: round final totals to the nearest 100 (R-GAME-3).
    """

    black_three: str = "freezes"
    upcard_chain: str = "wild_or_three"
    wild_limit: str = "three"
    round_totals: bool = False
    #: ``wild_cap`` for 0..16 naturals, as a table (for the engine's hot paths); follows ``wild_limit``
    wild_caps: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for f in fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if value not in _CHOICES[f.name]:
                allowed = ", ".join(str(c).lower() for c in _CHOICES[f.name])
                raise NotationError(f"option {f.name}={value!r} is not one of: {allowed}", field=f.name)
        object.__setattr__(self, "wild_caps", _CAPS[self.wild_limit])  # frozen: set once, here

    def format(self) -> str:
        """Options that differ from the defaults, as ``name=value`` words (empty for defaults)."""
        default = RuleOptions()
        words = []
        for f in fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                words.append(f"{f.name}={str(value).lower()}")
        return " ".join(words)

    @classmethod
    def parse(cls, text: str) -> "RuleOptions":
        """Parse ``name=value`` words; unknown names or values raise :class:`NotationError`."""
        opts = cls()
        for word in text.split():
            name, sep, value = word.partition("=")
            if not sep or name not in _CHOICES:
                known = ", ".join(_CHOICES)
                raise NotationError(f"{word!r} is not an option setting; known options: {known}", field="options")
            parsed: Any = value  # str or bool: the field is named at run time
            if isinstance(_CHOICES[name][0], bool):
                if value.lower() not in ("true", "false"):
                    raise NotationError(f"{word!r}: {name} takes true or false", field=name)
                parsed = value.lower() == "true"
            opts = replace(opts, **{name: parsed})
        return opts

    def wild_cap(self, naturals: int) -> int:
        """Most wild cards a meld with this many naturals may hold (R-MELD-2)."""
        if self.wild_limit == "half":
            return min(3, naturals // 2)
        return 3
