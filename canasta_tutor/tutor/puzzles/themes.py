"""Puzzle themes: one detector per theme, reading the solver's observation and the answer.

Most detectors reuse the hint's fact detectors (:mod:`canasta_tutor.hint.detectors`):
a theme holds when the answer's facts include the fact that names it.  The rest read
the observation directly.  Each detector answers only from what the solver sees.

>>> sorted(THEMES)[:3]
['ask-partner', 'complete-canasta', 'decline-the-pack']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...notation.actions import Action
from ...engine.cards import BLACK_THREE, DEUCE, JOKER
from ...hint.detectors import move_facts
from ...engine.observer import Observation
from ...engine.state import State


@dataclass(frozen=True)
class Situation:
    """What a theme detector reads: the solver's observation, the answer, and the facts
    the hint's detectors find for it."""

    obs: Observation
    action: Action
    facts: frozenset[str]

    @property
    def verb(self) -> str:
        return str(self.action[0])


Detector = Callable[[Situation], bool]


def _fact(fact_id: str, *verbs: str) -> Detector:
    def detect(s: Situation) -> bool:
        return fact_id in s.facts and (not verbs or s.verb in verbs)

    return detect


def _take_to_open(s: Situation) -> bool:
    return s.verb == "take" and not s.obs.initial[s.obs.side]


def _take_frozen(s: Situation) -> bool:
    return s.verb == "take" and s.obs.freeze_at >= 0


def _take_open(s: Situation) -> bool:
    return s.verb == "take" and s.obs.freeze_at < 0 and s.obs.initial[s.obs.side]


def _hold(s: Situation) -> bool:
    return "could-go-out" in s.facts and "goes-out" not in s.facts


def _meld_minimum(s: Situation) -> bool:
    return "initial-minimum" in s.facts and s.verb in ("meld", "take") and not s.obs.initial[s.obs.side]


def _red_three(s: Situation) -> bool:
    # red threes on the table count for a side that melds and against one that does not (R-RED-*)
    return bool(s.obs.red_threes[s.obs.side]) and not s.obs.initial[s.obs.side]


def _ask(s: Situation) -> bool:
    return s.verb in ("ask", "yes", "no")


def _last_stock(s: Situation) -> bool:
    return s.obs.stock_size <= 1


def _near_out(s: Situation) -> bool:
    return "opponent-short" in s.facts


def _forced(s: Situation) -> bool:
    return len(s.obs.legal_actions) == 1


def _wild_take(s: Situation) -> bool:
    return s.verb == "take" and (s.action[3] > 0 or s.action[4] > 0)


def _discard_wild(s: Situation) -> bool:
    return s.verb == "discard" and s.action[1] in (JOKER, DEUCE)


def _wild_add(s: Situation) -> bool:
    return s.verb == "add" and s.action[2] in (JOKER, DEUCE)


def _stop(s: Situation) -> bool:
    return s.verb == "discard" and s.action[1] == BLACK_THREE


def _meld_size(obs: Observation, side: int, kind: int) -> int:
    """Cards in ``side``'s meld of ``kind`` (0 when it has none)."""
    naturals, wilds = obs.meld_summary[side].get(kind, (0, 0))
    return int(naturals + wilds)


def _next_seat(obs: Observation) -> int:
    return (obs.seat + 1) % len(obs.hand_sizes)


def _natural_discards(obs: Observation) -> list[int]:
    return [a[1] for a in obs.legal_actions if a[0] == "discard" and a[1] < DEUCE]


def _keep_meld_card(s: Situation) -> bool:
    """The discard leaves a card in hand that fits a meld of the side better than the one let go:
    the discarded rank has no meld of the side, or a smaller one than a rank kept."""
    if s.verb != "discard" or s.action[1] >= DEUCE or "goes-out" in s.facts:
        return False
    k = s.action[1]
    left = list(s.obs.hand_counts)
    left[k] -= 1
    gone = _meld_size(s.obs, s.obs.side, k)
    return any(n > 0 and j != k and _meld_size(s.obs, s.obs.side, j) > gone
               for j, n in enumerate(left[:DEUCE]))


def _new_meld(s: Situation) -> bool:
    """A new meld of a rank the side has not melded yet, after its initial meld."""
    return (s.verb == "meld" and bool(s.obs.initial[s.obs.side])
            and s.action[1] not in s.obs.meld_summary[s.obs.side])


def _decline_pack(s: Situation) -> bool:
    return s.verb == "draw" and any(a[0] == "take" for a in s.obs.legal_actions)


def _spare_near_canasta(s: Situation) -> bool:
    """Every natural discard matches a meld the next player may take the pack onto, and the
    answer feeds a smaller one than another discard would bring to six or seven cards."""
    o = s.obs
    nxt = _next_seat(o)
    side = nxt & 1  # the side of a seat, as the observation counts sides
    if s.verb != "discard" or s.action[1] >= DEUCE or o.freeze_at >= 0 or not o.initial[side]:
        return False
    options = _natural_discards(o)
    if not all(k in o.meld_summary[side] for k in options):
        return False
    fed = _meld_size(o, side, s.action[1])
    return any(5 <= _meld_size(o, side, j) <= 6 and _meld_size(o, side, j) > fed for j in options)


#: Theme name -> (what it means, detector).
THEMES: dict[str, tuple[str, Detector]] = {
    "take-to-open": ("take the pack to make the side's initial meld", _take_to_open),
    "take-frozen-pack": ("take a frozen pack with a natural pair", _take_frozen),
    "take-open-pack": ("take an open pack onto the side's melds", _take_open),
    "stop-card": ("discard a black three to stop the next player", _stop),
    "safe-discard": ("discard a card the next player cannot use", _fact("safe-discard", "discard")),
    "freeze-on-purpose": ("discard a wild card to freeze the pack", _discard_wild),
    "complete-canasta": ("complete a canasta", _fact("canasta")),
    "go-out": ("go out", _fact("goes-out")),
    "go-out-concealed": ("go out concealed, melding the whole hand at once", _fact("concealed")),
    "hold-dont-go-out": ("keep the hand going when going out is possible", _hold),
    "keep-pairs": ("keep pairs against a frozen pack", _fact("keeps-pairs", "discard")),
    "meld-minimum": ("meet the initial meld minimum", _meld_minimum),
    "red-three": ("red threes count against a side that has not melded", _red_three),
    "ask-partner": ("ask partner, or answer partner, about going out", _ask),
    "last-stock-card": ("play with one card or none left in the stock", _last_stock),
    "defend-near-out": ("defend against an opponent close to going out", _near_out),
    "frozen-pack": ("the pack is frozen", lambda s: "frozen-pack" in s.facts),
    "top-blocked": ("a black three or a wild card on top blocks the pack", _fact("top-blocks")),
    "open-with-wild": ("use a wild card to take the pack for the minimum", _wild_take),
    "forced-move": ("only one move is legal: know why", _forced),
    "wild-to-meld": ("add a wild card to a meld", _wild_add),
    "one-short-of-canasta": ("bring a meld to six cards, one short of a canasta", _fact("one-short")),
    "keep-meld-card": ("discard the card your melds need least; keep the one that builds a meld", _keep_meld_card),
    "new-meld": ("start a meld of a new rank: more ways to a canasta, fewer points left in hand", _new_meld),
    "decline-the-pack": ("draw from the stock although the pack could be taken", _decline_pack),
    "spare-near-canasta": ("when every discard feeds the next player, feed the meld furthest from a canasta",
                           _spare_near_canasta),
}


def detect(obs: Observation, action: Action, state: State | None = None) -> list[str]:
    """The themes of ``action`` (the answer) in the solver's observation ``obs``."""
    facts = frozenset(f.id for f in move_facts(obs, action, state))
    s = Situation(obs, action, facts)
    return [name for name, (_, det) in THEMES.items() if det(s)]


__all__ = ["THEMES", "detect", "Situation"]
