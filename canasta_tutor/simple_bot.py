"""A simple greedy Canasta player: the widget's default opponents and partner.

A bot is any callable ``policy(observation) -> action`` that picks one of
``observation.legal_actions``.  This one is deliberately plain (the real bots
come from :mod:`canasta_tutor.bots`): it takes the pack when it legally can,
melds and adds what it can, and discards the card it needs least.  As a
partner it answers "yes" to "may I go out?" unless it holds many points.

>>> from canasta_tutor import Game
>>> from canasta_tutor.observer import observe
>>> state = Game().new_initial_state(seed=3)
>>> action = simple_policy(observe(state, state.current_seat))
>>> action in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Callable

from .cards import BLACK_THREE, DEUCE, JOKER, KIND_VALUES, RED_THREE
from .observer import Observation

Policy = Callable[[Observation], tuple]

#: A partner holding more than this many points in hand answers "no".
NO_ABOVE = 100


def _hand_points(obs: Observation) -> int:
    return sum(n * KIND_VALUES[k] for k, n in enumerate(obs.hand_counts))


def _discard_cost(obs: Observation, k: int) -> float:
    """How much we would miss a card of kind ``k`` (lower is a better discard)."""
    counts = obs.hand_counts
    if k == BLACK_THREE:
        return -10  # a stopper, and worth little
    if k in (DEUCE, JOKER):
        return 200 + KIND_VALUES[k]
    own = obs.meld_summary[obs.side]
    theirs = obs.meld_summary[1 - obs.side]
    cost = KIND_VALUES[k] + 15 * (counts[k] - 1)
    if k in own:
        cost += 25  # could have been added
    if k in theirs and not obs.frozen_for(1 - obs.side):
        cost += 60  # would hand them the pack
    return cost


def simple_policy(obs: Observation) -> tuple:
    """Pick a legal action greedily.  ``obs`` must be for the seat to act."""
    legal = list(obs.legal_actions)
    if not legal:
        raise ValueError("simple_policy: no legal action (is it this seat's move?)")
    if len(legal) == 1:
        return legal[0]
    verbs = {a[0] for a in legal}
    if obs.phase == "answer":
        return ("yes",) if _hand_points(obs) <= NO_ABOVE else ("no",)
    if "deal" in verbs:
        return ("deal",)
    if obs.phase == "draw":
        takes = [a for a in legal if a[0] == "take"]
        if takes:
            # the fewest wild cards, then the fewest naturals
            return min(takes, key=lambda a: (a[3] + a[4], a[2]))
        if ("draw",) in legal:
            return ("draw",)
        if ("pass",) in legal:
            return ("pass",)
        return legal[0]
    # meld phase: new natural melds, natural additions, then wild cards where they complete
    # a canasta, then wild melds; otherwise discard
    own = obs.meld_summary[obs.side]

    def rank(a: tuple) -> tuple:
        if a[0] == "meld":
            _, k, n, j, d = a
            return (0 if j + d == 0 else 3, -KIND_VALUES[k])
        if a[0] == "add":
            _, k, w = a
            if w == k:
                return (1, 0)
            nat, wild = own.get(k, (0, 0))
            if nat + wild >= 4:
                return (2, -(nat + wild), 0 if w == DEUCE else 1)
            return (9, 0)
        return (10, 0)

    melds = [a for a in legal if a[0] in ("meld", "add")]
    if melds:
        best = min(melds, key=rank)
        if rank(best)[0] < 9:
            return best
    discards = [a for a in legal if a[0] == "discard" and a[1] != RED_THREE]
    if discards:
        return min(discards, key=lambda a: (_discard_cost(obs, a[1]), a[1]))
    return min(melds, key=rank) if melds else legal[0]


__all__ = ["simple_policy", "Policy", "NO_ABOVE"]
