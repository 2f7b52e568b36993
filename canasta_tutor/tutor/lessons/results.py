"""What a level run answers: its status words, the answer to one learner action and the error for an action
after the level is over.  Shared by the run (:mod:`.runner`) and the clicks that drive it (:mod:`.clicks`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine.errors import CanastaError

OPEN, PASSED, FAILED = "open", "passed", "failed"


class LevelOverError(CanastaError, ValueError):
    """An action after the level was passed or failed."""


@dataclass
class ActionResult:
    """The answer to one learner action.  ``wrong``: a legal action that leaves the level's lines
    with no way left to pass (then ``feedback`` says why)."""

    text: str
    notation: str = ""
    accepted: bool = False
    counted: bool = True
    rule: str = ""
    reason: str = ""
    note: str = ""
    feedback: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    status: str = OPEN
    position: str = ""
    wrong: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.text, "notation": self.notation, "accepted": self.accepted, "rule": self.rule,
                "reason": self.reason, "note": self.note, "wrong": self.wrong, "feedback": self.feedback,
                "replies": self.replies, "status": self.status, "position": self.position}


__all__ = ["OPEN", "PASSED", "FAILED", "ActionResult", "LevelOverError"]
