"""Helpers for the rule tests (tests/test_rules_*.py, test_properties.py, test_position.py).

A plain module (not a conftest) so the test files can import it by name:
``from helpers_rules import P, refuse, ...``.  Positions are written in the
plain-text format of :mod:`canasta_tutor.notation.position`.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter

import pytest

from canasta_tutor import IllegalActionError
from canasta_tutor.engine.cards import CARD_CODE, KIND_TOKENS, normalize_code
from canasta_tutor.notation.position import format_position, parse_position

#: Kind numbers by token: K["4"] .. K["A"], K["2"] (deuce), K["JK"], K["3"] (black three), K["R3"].
K = {tok: i for i, tok in enumerate(KIND_TOKENS)}
FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(11)
DEUCE, JOKER, BLACK_THREE, RED_THREE = 11, 12, 13, 14

RULE_RE = re.compile(r"^R-[A-Z]+-[0-9]+$")


def P(text: str):
    """Parse a (dedented) position."""
    return parse_position(textwrap.dedent(text))


def snap(state) -> tuple:
    """Everything observable about a state, to check that a refused action changed nothing."""
    return (
        format_position(state),
        tuple(state.history),
        repr(state.hand_results),
        tuple(state.totals),
        state.phase,
        state.actor,
        tuple(CARD_CODE[c] for c in state.stock),
        tuple(state.minimums),
    )


def refuse(state, action, rule, *words):
    """Assert ``action`` is illegal for ``rule``, its message holds ``words``, and nothing changed."""
    before = snap(state)
    assert action not in state.legal_actions(), f"{action} is listed as legal"
    err = state.explain(action)
    assert err is not None, f"{action} was not refused"
    assert isinstance(err, IllegalActionError)
    allowed = (rule,) if isinstance(rule, str) else tuple(rule)
    assert err.rule in allowed, f"refused for {err.rule} ({err}), expected {allowed}"
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    e = info.value
    assert e.rule == err.rule
    assert f"[{e.rule}]" in str(e)
    msg = str(e).lower()
    for w in words:
        assert w.lower() in msg, f"{w!r} not in message {str(e)!r}"
    assert snap(state) == before, "a refused action changed the state"
    assert not state.is_legal(action)
    return e


def ok(state, action):
    """Assert ``action`` is legal (listed, explain None, is_legal) and apply it (checked)."""
    assert state.explain(action) is None, f"{action} refused: {state.explain(action)}"
    assert state.is_legal(action)
    assert action in state.legal_actions(), f"{action} legal but not listed"
    state.apply(action)
    return state


def play(state, *actions):
    for a in actions:
        ok(state, a)
    return state


# ----------------------------------------------------------- full positions
_ALL = Counter(CARD_CODE)


def _codes_in(value: str) -> list[str]:
    out = []
    value = value.split("known:", 1)[0]
    value = re.sub(r"\([^)]*\)", " ", value).replace(";", " ")
    for tok in value.split():
        tok = tok.rstrip("*")
        if tok == "-" or re.fullmatch(r"\d+", tok) or tok.lower() == "cards":
            continue
        out.append(normalize_code(tok))
    return out


def full(text: str, stock: list[str] | str, filler: str = "E"):
    """Parse a position whose stock is exactly ``stock`` (codes, bottom to top), nearly empty.

    Every card not named in ``text`` or ``stock`` goes into the hand of ``filler``
    (whose line in ``text`` is replaced).  Name all four red threes somewhere.
    For the end of the stock only: to fix just the next cards drawn, a position
    says ``stock: 54 top 3H 9C`` itself.
    """
    if isinstance(stock, str):
        stock = stock.split()
    text = textwrap.dedent(text)
    used: Counter = Counter()
    lines = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0]
        key, sep, value = line.partition(":")
        k = key.strip().lower()
        if sep and k == filler.lower():
            continue
        if sep and (k in ("pile", "n", "e", "s", "w") or k.startswith("melds") or k.startswith("red threes")):
            used.update(_codes_in(value))
        lines.append(raw)
    used.update(normalize_code(c) for c in stock)
    rest = _ALL - used
    assert not (used - _ALL), f"too many cards named: {used - _ALL}"
    lines.append(f"{filler}: " + " ".join(sorted(rest.elements())))
    lines.append("stock: " + (" ".join(stock) if stock else "-"))
    return parse_position("\n".join(lines) + "\n")
