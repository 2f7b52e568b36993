"""The rule book and the code agree: every rule number the code can raise or show exists in
``seeds/rules.md``, and every rule the book defines is cited by at least one test.

A rule is *defined* by a list item that starts with its bold number (``- **R-PACK-4** — ...``).
The code side is every ``R-AREA-N`` in the package source and the shipped front end (refusals,
comments and docstrings alike: a number that is not in the book leads the reader nowhere).  A
test *cites* a rule in its name (``..._R_PACK_4``), docstring, comment or data; a range such as
``R-SCORE-1..3`` cites every rule in it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "seeds" / "rules.md"

_DEFINED = re.compile(r"^- \*\*(R-[A-Z]+-\d+)\*\*", re.M)
_IN_CODE = re.compile(r"R-[A-Z]+-\d+")
_CITED = re.compile(r"\bR[-_]([A-Z]+)[-_](\d+)(?:\.\.(\d+))?")
_BINARY = {".png", ".jpg", ".jpeg", ".webm", ".zip", ".pyc"}


def _book() -> set[str]:
    return set(_DEFINED.findall(BOOK.read_text(encoding="utf-8")))


def _code_files() -> list[Path]:
    files = sorted((ROOT / "canasta_tutor").rglob("*.py"))
    files += sorted(p for p in (ROOT / "widgets").glob("*") if p.suffix in (".js", ".css"))
    return files


def test_the_book_defines_rules() -> None:
    book = _book()
    assert len(book) >= 70, sorted(book)
    assert {"R-CARDS-1", "R-PACK-4", "R-GAME-3"} <= book


def test_every_rule_number_in_the_code_is_in_the_book() -> None:
    book = _book()
    missing = {}
    for path in _code_files():
        for rule in _IN_CODE.findall(path.read_text(encoding="utf-8")):
            if rule not in book:
                missing.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    assert not missing, f"rule numbers not defined in seeds/rules.md: {missing}"


def test_every_rule_in_the_book_is_cited_by_a_test() -> None:
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*"):
        if (path.is_file() and path.name != Path(__file__).name and path.suffix not in _BINARY
                and "__pycache__" not in path.parts):
            for area, lo, hi in _CITED.findall(path.read_text(encoding="utf-8", errors="replace")):
                cited.update(f"R-{area}-{n}" for n in range(int(lo), int(hi or lo) + 1))
    uncited = sorted(_book() - cited, key=lambda r: (r.rsplit("-", 1)[0], int(r.rsplit("-", 1)[1])))
    assert not uncited, f"rules with no test citing them: {uncited}"
