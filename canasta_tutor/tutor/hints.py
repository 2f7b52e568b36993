"""The hint panel and the coach of a table session: staged hints with a plan, and grades.

:func:`compute_hint` runs the hint bot (:func:`canasta_tutor.hint.hint`) on the
learner's observation and keeps what the table shows: the stages (the first in
plain words, with no rule number and no ``±``), the moves compared, the cards
to highlight and the plan with its progress.  :func:`coach_grade` grades what one
click played, the whole line (a meld and its additions), after it is played, against
the hint's own plan on the hint's sampled deals (:func:`canasta_tutor.hint.grade_line`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..notation.actions import format_action
from ..bots.principles import PRINCIPLES
from ..engine.cards import CARD_KIND, DEUCE, JOKER
from ..engine.observer import Observation
from ..engine.state import Action

_PLAN_REPEAT = re.compile(r"^(.*) \(x(\d+)\)$")
_RULE_CODE = re.compile(r"\s*\[?R-[A-Z]+-\d+\]?")

#: The hint entry of the view while the search runs.
BUSY: dict[str, Any] = {"busy": True, "stage": 0, "count": 0, "texts": [], "alternatives": [], "principles": [],
                        "table": [], "value_words": "", "cards": [], "plan": [], "plan_done": 0}


def plain(text: str) -> str:
    """A hint stage in plain words: no rule numbers, no ``±``.

    >>> plain("Look at the pack [R-PACK-4] ± 3.")
    'Look at the pack  3.'
    """
    return _RULE_CODE.sub("", text).replace("±", "").strip()


def expand_plan(plan: Sequence[str]) -> list[str]:
    """One step per action: ``add K (x3)`` becomes three ``add K``.

    >>> expand_plan(["meld K K K", "add K (x2)", "discard 5"])
    ['meld K K K', 'add K', 'add K', 'discard 5']
    """
    steps: list[str] = []
    for p in plan:
        m = _PLAN_REPEAT.match(p)
        steps += [m.group(1)] * int(m.group(2)) if m else [p]
    return steps


def card_indices(action: Action, hand: Sequence[int]) -> list[int]:
    """Positions in ``hand`` (card ids in display order) of the cards ``action`` would use."""
    verb = action[0]
    want: list[int] = []
    if verb in ("meld", "take"):
        want = [action[1]] * action[2] + [JOKER] * action[3] + [DEUCE] * action[4]
    elif verb == "add":
        want = [action[2]]
    elif verb == "discard":
        want = [action[1]]
    kinds = [CARD_KIND[c] for c in hand]
    out: list[int] = []
    for k in want:
        i = next((i for i, hk in enumerate(kinds) if hk == k and i not in out), None)
        if i is not None:
            out.append(i)
    return sorted(out)


@dataclass
class HintPanel:
    """The hint of one position: ``stage`` is how far the learner has read; ``done`` how many
    steps of the plan have been played since (``start`` is the history length it was made at)."""

    key: tuple[int, int]
    stages: list[str]
    table: list[dict[str, Any]]
    alternatives: list[dict[str, Any]]
    principles: list[str]
    cards: list[int]
    plan: list[str]
    start: int
    #: what the table's Value column is (the hint's :attr:`~canasta_tutor.hint.Hint.value_words`)
    value_words: str = ""
    stage: int = 0
    done: int = 0
    #: the hint itself (:class:`canasta_tutor.hint.Hint`): the coach grades against the hint the learner saw
    source: Any = None

    @property
    def steps(self) -> list[str]:
        return expand_plan(self.plan)

    @property
    def finished(self) -> bool:
        return self.done >= len(self.steps)

    def next_stage(self) -> None:
        self.stage = min(self.stage + 1, len(self.stages) - 1)

    def follow(self, history: Sequence[Action], key: tuple[int, int]) -> bool:
        """Record the actions played since the hint; False when they left its plan."""
        played = [format_action(a) for a in history[self.start:]]
        steps = self.steps
        if len(played) > len(steps) or played != steps[:len(played)]:
            return False
        self.done = len(played)
        self.key = key
        self.cards = []
        return True

    def plan_done(self) -> int:
        """How many entries of :attr:`plan` are fully played."""
        done, left = 0, self.done
        for p in self.plan:
            m = _PLAN_REPEAT.match(p)
            size = int(m.group(2)) if m else 1
            if left < size:
                break
            left -= size
            done += 1
        return done

    def to_view(self) -> dict[str, Any]:
        last = self.stage + 1 >= len(self.stages)
        return {"busy": False, "stage": self.stage, "count": len(self.stages), "texts": self.stages[:self.stage + 1],
                "alternatives": self.alternatives if last else [], "principles": self.principles if last else [],
                "table": self.table if last else [], "value_words": self.value_words if last else "",
                "cards": self.cards if self.stage >= 1 else [],
                "plan": self.plan if self.stage >= 1 or self.done else [], "plan_done": self.plan_done()}


def compute_hint(obs: Observation, hand: Sequence[int], key: tuple[int, int], start: int, seed: int = 0,
                 budget: float | None = None, iterations: int | None = None) -> HintPanel:
    """Run the hint bot on ``obs``; ``hand`` is the learner's card ids in display order."""
    from ..hint import DEFAULT_PLAYOUTS, hint
    from ..hint.budget import browser_note

    h = hint(obs, budget=budget, seed=seed, iterations=iterations)
    # a forced move has no value; an alternative's verdict is the hint's paired comparison in words
    value = "" if h.value is None else f"{h.value:+.0f}"
    table = [{"action": h.best_text, "verdict": h.verdict, "value": value, "best": True}]
    for a in h.alternatives:
        table.append({"action": a.text, "verdict": a.comparison, "value": f"{a.value:+.0f}", "best": False,
                      "why": a.sentence(h.best_text)})
    alts = [{"text": a.text, "value": round(a.value, 1), "stderr": round(a.stderr, 1), "why": a.sentence(h.best_text)}
            for a in h.alternatives]
    stages = h.stages()
    stages[0] = plain(stages[0])
    note = browser_note(obs.variant.hint_playouts or DEFAULT_PLAYOUTS)
    if note:  # in the browser (docs/lite.md): said once, with the move
        stages[min(1, len(stages) - 1)] += " " + note
    return HintPanel(key=key, stages=stages, table=table, alternatives=alts,
                     principles=[PRINCIPLES[p].sentence for p in h.principles if p in PRINCIPLES],
                     cards=card_indices(h.best, hand), plan=list(h.plan), start=start,
                     value_words=h.value_words if h.value is not None else "", source=h)


def coach_grade(obs: Observation, line: Action | Sequence[Action], seed: int = 0,
                iterations: int | None = None, budget: float | None = None,
                seen: Any = None) -> dict[str, Any] | None:
    """The coach's grade of what one click played from ``obs`` (one action, or the whole line of actions it
    made), against the hint for ``obs`` (``seen``: the hint the learner saw there, else the same one made
    again with ``seed``, ``budget`` and ``iterations``): ``{"action", "grade", "loss", "best", "text"}``,
    ``action`` the whole line, ``best`` the hint's line it was measured against, ``loss`` in points (the
    text says of what).  None when there was no choice."""
    from ..hint import grade_line

    actions: list[Action] = [line] if line and isinstance(line[0], str) else list(line)  # type: ignore[list-item]
    if not actions or actions[0] not in obs.legal_actions or len(obs.legal_actions) < 2:
        return None
    g = grade_line(obs, actions, seed=seed, samples=iterations, budget=budget, the_hint=seen)
    return {"action": "; ".join(format_action(a) for a in g.line), "grade": g.grade, "loss": round(g.loss),
            "best": "; ".join(format_action(a) for a in g.reference), "text": g.text()}


__all__ = ["BUSY", "HintPanel", "card_indices", "coach_grade", "compute_hint", "expand_plan", "plain"]
