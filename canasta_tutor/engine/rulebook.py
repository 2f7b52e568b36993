"""The rule book (``seeds/rules.md``) as data: look a rule up by its number.

Every refusal names a rule (``R-AREA-N``); the table shows that rule's text
when the learner asks for it.  The book ships inside the wheel
(``canasta_tutor/seeds/rules.md``); in a source checkout it is read from the
repository's ``seeds/`` folder.

>>> r = rule("R-FRZ-1")
>>> r.id, r.title
('R-FRZ-1', 'Freezing the pile')
>>> rule("no such rule") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_RULE_LINE = re.compile(r"^- \*\*(R-[A-Z]+-\d+)\*\* — (.*)$")
_HEADING = re.compile(r"^## (.*?)(?: \(([A-Z]+)\))?\s*$")
_SOURCES = re.compile(r"\s*\*Sources?:[^*]*\*\s*$")
RULE_ID = re.compile(r"^R-[A-Z]+-\d+$")


@dataclass(frozen=True)
class Rule:
    """One numbered rule: its number, the title of its section and its text (sources left out)."""

    id: str
    title: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "text": self.text}


def book_path() -> Path:
    """The rule book file: inside the installed package first, then the source checkout's."""
    here = Path(__file__).resolve().parent.parent  # the package (this file is in its engine/)
    for path in (here / "seeds" / "rules.md", here.parent / "seeds" / "rules.md"):
        if path.is_file():
            return path
    raise FileNotFoundError(f"rules.md not found in {here / 'seeds'} or {here.parent / 'seeds'}")


def parse_rules(text: str) -> dict[str, Rule]:
    """Every ``- **R-AREA-N** — text`` line of a rule book, under its ``## Title (AREA)`` heading.

    >>> book = parse_rules("## Melds (MELD)\\n- **R-MELD-1** — Three cards. *Sources: 000.*\\n")
    >>> book["R-MELD-1"]
    Rule(id='R-MELD-1', title='Melds', text='Three cards.')
    """
    rules: dict[str, Rule] = {}
    title = ""
    for line in text.splitlines():
        head = _HEADING.match(line)
        if head:
            title = head.group(1)
            continue
        m = _RULE_LINE.match(line)
        if m:
            rules[m.group(1)] = Rule(m.group(1), title, _SOURCES.sub("", m.group(2)).strip())
    return rules


@lru_cache(maxsize=1)
def rules() -> dict[str, Rule]:
    """The whole rule book, by number."""
    return parse_rules(book_path().read_text(encoding="utf-8"))


def rule(rule_id: str) -> Rule | None:
    """The rule with this number, or None."""
    if not isinstance(rule_id, str) or not RULE_ID.match(rule_id):
        return None
    return rules().get(rule_id)


__all__ = ["Rule", "rule", "rules", "parse_rules", "book_path", "RULE_ID"]
