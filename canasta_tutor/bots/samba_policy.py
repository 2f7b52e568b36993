"""The rules of thumb for Samba (R-SAMBA): what the rules-of-thumb bot plays in that variant.

The classic decision table reads kind counts and one meld per rank; Samba's melds are numbered and
include sequences, so this short table reads the observation's ``samba_melds`` and picks among
the engine's legal actions (which already keep every set to two wild cards, R-SAMBA-4).  In order:

- answer the partner "yes" (P-PARTNER-ANSWER);
- take the pack whenever a way is legal, adding the top card alone first, then with the fewest
  cards from the hand (P-TAKE-PACK);
- after the draw: a sequence as soon as three cards of a suit follow each other (P-BUILD-CANASTA),
  then naturals onto sequences and sets (the meld nearest to a canasta first), new natural sets,
  joins of two sets of one rank, wild cards onto sets of five or six (to finish a canasta), and
  sets with a wild card only while the initial meld is still to be made (P-OPEN-EARLY);
- then the discard: a black three first (P-STOP-THREE), never a wild card while another card will
  do (P-FREEZE), otherwise the lowest single natural (P-SAFE-DISCARD).  The bot never asks.

Bolivia and Chile (R-BOL) play by the same table, with their melds of wild cards: a wild card goes onto
a meld of wild cards before any natural goes anywhere but a sequence (a bolivia earns 2,500), and three
wild cards start one after new natural sets and joins, before a set with a wild card.

>>> from canasta_tutor import Game
>>> from canasta_tutor.engine.observer import observe
>>> state = Game(variant="samba").new_initial_state(seed=3)
>>> action, why = samba_decide(observe(state, state.actor))
>>> action in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Sequence

from ..engine.cards import BLACK_THREE, CARD_KIND, DEUCE, JOKER, KIND_VALUES, parse_card
from ..engine.observer import Observation
from ..engine.samba import WILD_SUIT


#: the most candidates searched in Samba: (for the bot, for the hint)
MAX_CANDIDATES = (4, 6)


def _meld_len(v: Observation, index: int) -> int:
    return len(v.samba_melds[v.side][index][1])


def _is_wild_meld(v: Observation, index: int) -> bool:
    """Bolivia: whether the side's meld number ``index`` is a meld of wild cards (R-BOL-2)."""
    return v.samba_melds[v.side][index][0] == WILD_SUIT


def _rank(v: Observation, index: int) -> int:
    return CARD_KIND[parse_card(v.samba_melds[v.side][index][1][0])]


def samba_decide(v: Observation) -> tuple[tuple, list[str]]:
    """The action for an observation of the seat to act in Samba, with the principles behind it."""
    legal = v.legal_actions
    if len(legal) == 1:
        return legal[0], []
    phase = v.phase
    if phase == "answer":
        return ("yes",), ["P-PARTNER-ANSWER"]
    if phase == "hand_over":
        return ("deal",), []
    if phase == "draw":
        return _draw(v, legal)
    return _meld(v, legal)


def _draw(v: Observation, legal: Sequence[tuple]) -> tuple[tuple, list[str]]:
    ontos = [a for a in legal if a[0] == "takeon"]
    if ontos:
        return max(ontos, key=lambda a: (_meld_len(v, a[2]), -a[2])), ["P-TAKE-PACK"]
    takes = [a for a in legal if a[0] == "take"]
    if takes:
        return min(takes, key=lambda a: (a[3] * 2 + a[4], a[2])), ["P-TAKE-PACK"]
    if ("draw",) in legal:
        return ("draw",), []
    shows = [a for a in legal if a[0] in ("meld", "run", "wild")]
    if shows:
        return shows[0], ["P-TAKE-PACK", "P-OPEN-EARLY"]
    return legal[0], []


def _meld(v: Observation, legal: Sequence[tuple]) -> tuple[tuple, list[str]]:  # noqa: C901 - one table
    initial = v.initial[v.side]
    best: tuple | None = None
    best_key: tuple[int, ...] = (-1,)
    for a in legal:
        verb = a[0]
        key: tuple[int, ...] | None = None
        if verb == "run":
            key = (90, a[2])
        elif verb == "put":
            length = _meld_len(v, a[1])
            if _is_wild_meld(v, a[1]):  # Bolivia: a meld of wild cards grows toward a bolivia (R-BOL-3)
                key = (85, length)
            elif a[2] in (JOKER, DEUCE):
                if length >= 5 or v.must_out or (v.pending and not initial):
                    key = (40, length)
            elif a[2] == BLACK_THREE:
                key = (95, 0)
            else:
                key = (80, length)
        elif verb == "meld":
            if a[1] == BLACK_THREE:
                key = (95, 0)
            elif a[3] + a[4] == 0:
                key = (70, KIND_VALUES[a[1]])
            elif not initial or v.must_out:
                key = (30, KIND_VALUES[a[1]])
        elif verb == "join":
            key = (60, 0)
        elif verb == "wild":  # Bolivia: three wild cards start a meld toward a bolivia of seven (R-BOL-2)
            key = (50, a[1])
        if key is not None and key > best_key:
            best, best_key = a, key
    if best is not None:
        return best, ["P-BUILD-CANASTA" if initial else "P-OPEN-EARLY"]
    discards = [a for a in legal if a[0] == "discard"]
    if not discards:
        return legal[0], ["P-GO-OUT"]
    choice = min(discards, key=lambda a: discard_cost(v, a[1]))
    return choice, ["P-STOP-THREE" if choice[1] == BLACK_THREE else "P-SAFE-DISCARD"]


def discard_cost(v: Observation, kind: int) -> tuple[int, int]:
    """How much a discard of ``kind`` costs by the table above (lower is discarded first): a black
    three, then the lowest single natural, then a natural of a pair or more, a wild card last."""
    if kind == BLACK_THREE:
        return (0, 0)
    if kind in (JOKER, DEUCE):
        return (3, 0)
    return (1 if v.hand_counts[kind] == 1 else 2, KIND_VALUES[kind])


def _show_points(a: tuple) -> int:
    """The count of the cards a meld-phase action puts down (a join puts none down)."""
    verb = a[0]
    if verb == "meld":
        return int(a[2] * KIND_VALUES[a[1]] + 50 * a[3] + 20 * a[4])
    if verb == "run":
        return sum(KIND_VALUES[a[2] + i] for i in range(3))
    if verb == "put":
        return int(KIND_VALUES[a[2]])
    if verb == "wild":
        return int(50 * a[1] + 20 * a[2])
    return 0


def samba_candidates(v: Observation, wide: bool = False) -> list[tuple]:
    """The actions worth searching in Samba, the rules of thumb's choice first: all of them when few,
    else at most :data:`MAX_CANDIDATES` (Samba's playouts are slow), taken from each verb in turn, the
    strongest of each first: the cheapest discards by :func:`discard_cost`, the take adding the top card
    alone to the longest meld and the take using the fewest wild cards, the draw and the one-word verbs,
    the new sequences and sets that put down the most, the natural cards put onto the longest melds, and
    a join."""
    legal = list(v.legal_actions)
    choice = samba_decide(v)[0]
    cap = MAX_CANDIDATES[wide]
    if len(legal) <= cap:
        return [choice] + [a for a in legal if a != choice]
    by_verb: dict[str, list[tuple]] = {}
    for a in legal:
        by_verb.setdefault(a[0], []).append(a)
    ranked = [
        sorted(by_verb.get("discard", []), key=lambda a: (discard_cost(v, a[1]), a[1])),
        sorted(by_verb.get("takeon", []), key=lambda a: (-_meld_len(v, a[2]), a[2])),
        sorted(by_verb.get("take", []), key=lambda a: (a[3] * 2 + a[4], a[2], a)),
        [a for a in legal if a[0] in ("draw", "ask", "pass", "yes", "no")],
        sorted(by_verb.get("run", []) + by_verb.get("meld", []) + by_verb.get("wild", []),
               key=lambda a: (-_show_points(a), a)),
        sorted(by_verb.get("put", []), key=lambda a: (a[2] in (JOKER, DEUCE), -_meld_len(v, a[1]), a)),
        by_verb.get("join", []),
    ]
    cands = [choice]
    depth = 0
    while len(cands) < cap and any(depth < len(r) for r in ranked):
        for r in ranked:
            if depth < len(r) and r[depth] not in cands and len(cands) < cap:
                cands.append(r[depth])
        depth += 1
    return cands


__all__ = ["samba_decide", "samba_candidates", "discard_cost"]
