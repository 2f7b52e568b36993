"""Why the other moves are refused, in the engine's own words.

When only one move is legal a teacher says why each other kind of move is not:
for each verb (take the pack, draw, decline, meld, add, discard, ask) this
module picks a representative action, the one a learner would most likely try,
and asks :meth:`State.explain <canasta_tutor.engine.state.State.explain>` why it is
refused.  Each refusal carries the rule number the engine gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import DEUCE, JOKER, NUM_KINDS
from ..engine.state import State

VERB_NAMES = {"take": "Take the pack", "draw": "Draw", "pass": "Decline the pack", "meld": "Meld",
              "add": "Add to a meld", "discard": "Discard", "ask": "Ask to go out"}


@dataclass(frozen=True)
class Refusal:
    verb: str
    action: tuple
    rule: str
    reason: str

    @property
    def text(self) -> str:
        return f"{VERB_NAMES[self.verb]}: no. {self.reason} ({self.rule})."

    def to_dict(self) -> dict[str, str]:
        return {"verb": self.verb, "rule": self.rule, "reason": self.reason}


def _take(state: State, seat: int) -> tuple | None:
    if not state.pile:
        return None
    from ..engine.cards import CARD_KIND

    top = CARD_KIND[state.pile[-1]]
    if top >= DEUCE:
        return ("take", top if top < NUM_KINDS else 0, 2, 0, 0)
    hand = state.hands[seat]
    side = state.sides[seat]
    n = min(2, len(hand[top]))
    if state.frozen_for(side):
        return ("take", top, n, 0, 0)  # a frozen pack: the engine says what the pair needs
    if top in state.melds[side]:
        return ("take", top, 0, 0, 0)
    if n == 1 and hand[JOKER]:
        return ("take", top, 1, 1, 0)
    if n == 1 and hand[DEUCE]:
        return ("take", top, 1, 0, 1)
    return ("take", top, n, 0, 0)


def _meld(state: State, seat: int) -> tuple | None:
    hand = state.hands[seat]
    best = max(range(DEUCE), key=lambda k: (len(hand[k]), k))
    if not hand[best]:
        return None
    n = len(hand[best])
    wild_j = min(len(hand[JOKER]), max(0, 3 - n))
    wild_d = min(len(hand[DEUCE]), max(0, 3 - n - wild_j))
    return ("meld", best, max(n, 1), wild_j, wild_d) if n + wild_j + wild_d >= 3 else ("meld", best, n, 0, 0)


def _add(state: State, seat: int) -> tuple | None:
    hand = state.hands[seat]
    for k in state.melds[state.sides[seat]]:
        if hand[k]:
            return ("add", k, k)
    return None


def _discard(state: State, seat: int) -> tuple | None:
    hand = state.hands[seat]
    for k in range(NUM_KINDS):
        if hand[k]:
            return ("discard", k)
    return None


def representatives(state: State) -> list[tuple[str, tuple]]:
    """One representative action per verb that may matter in this phase (no asking where each plays
    alone: with no partner there is nobody to ask)."""
    seat = state.turn
    out: list[tuple[str, tuple | None]] = []
    ask = ("ask", ("ask",)) if state.variant.partner_seats[seat] else ("ask", None)
    if state.phase == "draw":
        out = [("take", _take(state, seat)), ("draw", ("draw",))]
        if not state.stock:
            out.append(("pass", ("pass",)))
        out.append(ask)
    elif state.phase == "meld":
        out = [("meld", _meld(state, seat)), ("add", _add(state, seat)), ("discard", _discard(state, seat)), ask]
    return [(v, a) for v, a in out if a is not None]


def refusals(state: State, legal: list[tuple]) -> list[Refusal]:
    """Why each verb with no legal action is refused, one representative action per verb."""
    verbs = {a[0] for a in legal}
    out: list[Refusal] = []
    for verb, action in representatives(state):
        if verb in verbs:
            continue
        err = state.explain(action)
        if err is not None:
            out.append(Refusal(verb, action, err.rule, err.reason))
    return out


__all__ = ["Refusal", "refusals", "representatives"]
