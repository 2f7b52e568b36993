"""Generated setups: a position template, variables and constraints; a seed picks the deal.

>>> from canasta_tutor.tutor.lessons.model import Generator
>>> template = "turn: S draw\\npile: 5H {top}\\nN: 11\\nE: 11\\nS: {top} {top} 4 4 4 5 5 5 6 6 6\\nW: 11\\n"
>>> g = Generator(template=template, vars={"top": ("9", "K")}, constraints=({"holds_of_top": 2},))
>>> deal = generate(g, "S", seed=3)
>>> deal.values["top"] in ("9", "K"), deal.state.current_seat
(True, 'S')
>>> generate(g, "S", seed=3).text == deal.text
True
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from ...engine.errors import CanastaError, NotationError
from ...notation.position import parse_position
from ...engine.state import State
from .model import Generator
from .predicates import Context, evaluate

PLACEHOLDER = re.compile(r"\{(~?)([a-z_][a-z0-9_]*)\}")
_SEED_LINE = re.compile(r"^\s*seed\s*:", re.M)


class GenerationError(CanastaError, ValueError):
    """No candidate satisfied the constraints within the allowed tries."""


@dataclass(frozen=True)
class Deal:
    """A generated setup: the position text, its state and the values of the named variables."""

    text: str
    state: State
    values: dict[str, str] = field(default_factory=dict)
    tries: int = 1


def fill(text: str, values: dict[str, str], rng: random.Random | None = None,
         pools: dict[str, tuple[str, ...]] | None = None) -> str:
    """Replace ``{name}`` by ``values[name]`` and ``{~name}`` by a fresh draw from ``pools[name]``
    (a ``{name}`` without a value is left as it is)."""
    def sub(m: re.Match[str]) -> str:
        fresh, name = m.group(1), m.group(2)
        if fresh:
            if rng is None or pools is None or name not in pools:
                raise KeyError(name)
            return rng.choice(pools[name])
        return values.get(name, m.group(0))

    return PLACEHOLDER.sub(sub, text)


def generate(gen: Generator, seat: str, seed: int) -> Deal:
    """The deal for ``seed``: the first candidate that parses and meets every constraint."""
    last_error = ""
    for t in range(gen.tries):
        rng = random.Random(f"lesson-generator/{seed}/{t}")
        values = {name: rng.choice(pool) for name, pool in sorted(gen.vars.items())}
        text = fill(gen.template, values, rng, gen.vars)
        if not _SEED_LINE.search(text):
            text = f"seed: {seed * 1000 + t}\n" + text
        try:
            state = parse_position(text)
        except NotationError as e:
            last_error = str(e)
            continue
        ctx = Context(state=state, start=state, events=(), seat=seat)
        if all(evaluate(c, ctx) for c in gen.constraints):
            return Deal(text=text, state=state, values=values, tries=t + 1)
        last_error = "the constraints did not hold"
    raise GenerationError(f"no deal for seed {seed} met the constraints in {gen.tries} tries "
                          f"(last: {last_error[:160]})")


def placeholders(text: str) -> list[tuple[bool, str]]:
    """The placeholders of a text as ``(fresh, name)`` pairs."""
    return [(m.group(1) == "~", m.group(2)) for m in PLACEHOLDER.finditer(text)]


__all__ = ["Deal", "GenerationError", "generate", "fill", "placeholders", "PLACEHOLDER"]
