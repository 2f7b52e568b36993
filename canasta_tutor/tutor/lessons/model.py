"""Lessons and levels as read from their files (see ``lessons/FORMAT.md``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...notation.actions import VERBS

#: the lines of a hand's score a scoring level asks by default (see :mod:`.scoring`)
SCORE_ITEMS = ("canastas", "red_threes", "going_out", "melded", "in_hand", "total")


@dataclass(frozen=True)
class Problem:
    """One error in a lesson file: where it is and what is wrong."""

    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "field": self.field, "message": self.message}


@dataclass(frozen=True)
class Failure:
    when: Any
    feedback: str


@dataclass(frozen=True)
class Note:
    text: str
    rule: str | None = None
    verb: str | None = None


@dataclass(frozen=True)
class Wrong:
    line: tuple[str, ...]
    feedback: str
    rule: str | None = None


@dataclass(frozen=True)
class Generator:
    template: str
    vars: dict[str, tuple[str, ...]]
    constraints: tuple[Any, ...] = ()
    tries: int = 200


#: the Samba family's verbs (R-SAMBA-3..6, R-BOL-2), allowed where a level allows the classic verb they stand
#: for: a new sequence or meld of wild cards is a meld, a card put onto a numbered meld or a join an addition,
#: the top card onto a numbered meld a take
ALLOW_AS = {"run": "meld", "wild": "meld", "put": "add", "join": "add", "takeon": "take"}


def verb_allowed(verb: str, allow: tuple[str, ...] | set[str]) -> bool:
    """Whether a level that allows ``allow`` allows an action of ``verb`` (see :data:`ALLOW_AS`)."""
    return ALLOW_AS.get(verb, verb) in allow


@dataclass(frozen=True)
class Level:
    """One level of a lesson."""

    lesson_id: str
    index: int
    id: str
    title: str
    goal: str
    par: int
    success: Any
    solutions: tuple[tuple[str, ...], ...]
    intro: str = ""
    conclusion: str = ""
    rules: tuple[str, ...] = ()
    seat: str = "S"
    turns: int = 1
    allow: tuple[str, ...] = VERBS
    try_illegal: bool = False
    position: str | None = None
    generate: Generator | None = None
    failures: tuple[Failure, ...] = ()
    notes: tuple[Note, ...] = ()
    wrong: tuple[Wrong, ...] = ()
    hints: tuple[str, ...] = ()
    replies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    file: str = ""
    line: int | None = None
    #: a button does only what its label says (no Meld that becomes additions, no Go out button)
    step_by_step: bool = False
    #: a scoring level: the lines of the hand's score the learner answers (None: a level played with actions)
    score: tuple[str, ...] | None = None

    @property
    def key(self) -> str:
        """``lesson-id/level-id``."""
        return f"{self.lesson_id}/{self.id}"

    @property
    def generated(self) -> bool:
        return self.generate is not None

    @property
    def scoring(self) -> bool:
        """A scoring level: the learner answers the score of a finished hand."""
        return self.score is not None

    def note_for(self, rule: str | None = None, verb: str | None = None) -> str:
        """The lesson's note for a refusal under ``rule`` (or of a disallowed ``verb``)."""
        for n in self.notes:
            if verb is not None and n.verb == verb:
                return n.text
            if rule is not None and n.rule == rule:
                return n.text
        if rule is not None:
            for n in self.notes:
                if n.rule is None and n.verb is None:
                    return n.text
        return ""


@dataclass(frozen=True)
class Lesson:
    """One lesson file."""

    id: str
    title: str
    order: int
    summary: str
    levels: tuple[Level, ...]
    intro: str = ""
    file: str = ""

    def level(self, level_id: str | int) -> Level:
        """A level by its id, or by its 1-based number."""
        for lv in self.levels:
            if lv.id == level_id:
                return lv
        if isinstance(level_id, int) or (isinstance(level_id, str) and level_id.isdigit()):
            n = int(level_id)
            if 1 <= n <= len(self.levels):
                return self.levels[n - 1]
        ids = ", ".join(lv.id for lv in self.levels)
        raise KeyError(f"lesson {self.id!r} has no level {level_id!r}; its levels: {ids}")


def build_lesson(data: dict[str, Any], file: str, lines: list[int | None]) -> Lesson:
    """A :class:`Lesson` from a validated TOML table; ``lines`` gives each level's line."""
    levels = []
    for i, lv in enumerate(data["level"]):
        gen = lv.get("generate")
        score = lv.get("score")
        levels.append(Level(
            lesson_id=data["id"], index=i, id=lv["id"], title=lv["title"], goal=lv["goal"], par=lv["par"],
            success=lv.get("success", "hand_over"), solutions=tuple(tuple(s) for s in lv.get("solutions", ())),
            intro=lv.get("intro", ""), conclusion=lv.get("conclusion", ""), rules=tuple(lv.get("rules", ())),
            seat=lv.get("seat", "S"), turns=lv.get("turns", 1), allow=tuple(lv.get("allow", VERBS)),
            try_illegal=lv.get("try_illegal", False), position=lv.get("position"),
            generate=None if gen is None else Generator(
                template=gen["template"], vars={k: tuple(v) for k, v in gen.get("vars", {}).items()},
                constraints=tuple(gen.get("constraints", ())), tries=gen.get("tries", 200)),
            failures=tuple(Failure(f["when"], f["feedback"]) for f in lv.get("failure", ())),
            notes=tuple(Note(n["text"], n.get("rule"), n.get("verb")) for n in lv.get("note", ())),
            wrong=tuple(Wrong(tuple(w["line"]), w["feedback"], w.get("rule")) for w in lv.get("wrong", ())),
            hints=tuple(lv.get("hints", ())),
            replies={seat: tuple(acts) for seat, acts in lv.get("replies", {}).items()},
            file=file, line=lines[i] if i < len(lines) else None, step_by_step=lv.get("step_by_step", False),
            score=None if score is None else tuple(score.get("items", SCORE_ITEMS)),
        ))
    return Lesson(id=data["id"], title=data["title"], order=data["order"], summary=data["summary"],
                  levels=tuple(levels), intro=data.get("intro", ""), file=file)


__all__ = ["Problem", "Failure", "Note", "Wrong", "Generator", "Level", "Lesson", "build_lesson", "ALLOW_AS",
           "verb_allowed"]
