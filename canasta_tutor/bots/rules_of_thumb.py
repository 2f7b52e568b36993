"""The rules-of-thumb bot: a club player built from named principles.

Each decision returns an action and the principle IDs behind it (see
:mod:`canasta_tutor.bots.principles`).  The bot reads only the
:class:`~canasta_tutor.engine.observer.Observation` of its seat (its kind counts and
public facts); it never reads hidden cards.  Inside the search each decision
reads a compact observation (:func:`~canasta_tutor.engine.observer.observe_compact`).

>>> from canasta_tutor import Game
>>> from canasta_tutor.engine.observer import observe
>>> state = Game().new_initial_state(seed=2)
>>> action = RulesOfThumbBot()(observe(state, state.actor))
>>> action in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Sequence

from ..engine.cards import BLACK_THREE, DEUCE, JOKER, KIND_VALUES, NUM_KINDS, is_canasta
from ..engine.feasibility import max_meld_points
from ..engine.italian import DEUCE_CANASTA, can_go_out_for, max_natural_points
from ..engine.observer import Observation, opponent_seats
from .samba_policy import samba_decide

_WILD = (DEUCE, JOKER)


def hand_points(hand: Sequence[int]) -> int:
    """The count of the cards in a hand (what they cost if the hand ends now)."""
    return sum(n * KIND_VALUES[k] for k, n in enumerate(hand))


def take_cost(a: tuple) -> tuple[int, int]:
    """What a way of taking the pack spends: wild cards first (a joker worth two deuces), then naturals."""
    return (a[3] * 2 + a[4], a[2])


def side_canastas(v: Observation, side: int) -> int:
    """A side's canastas that count for going out (in Italian Canasta not the canasta of deuces, R-ITAL-8)."""
    melds = v.meld_summary[side]
    n = sum(1 for m in melds.values() if is_canasta(*m))
    if v.variant.deuce_melds and melds.get(DEUCE, (0, 0))[0] >= DEUCE_CANASTA:
        n -= 1
    return n


def pile_open(v: Observation) -> bool:
    """No card in the pile freezes it, and the variant does not keep it frozen (R-ITAL-4)."""
    return v.freeze_at < 0 and not v.variant.pile_always_frozen


def opp_min_cards(v: Observation) -> int:
    """The fewest cards an opponent holds."""
    sizes = v.hand_sizes
    opp = opponent_seats(v.variant)[v.seat]
    if len(opp) == 2:
        return min(sizes[opp[0]], sizes[opp[1]])
    return min(sizes[o] for o in opp)


def next_side(v: Observation) -> int:
    """The side of the next player, the opponent who may take our discard (classic: the other side)."""
    variant = v.variant
    return variant.sides[variant.next_seats[v.seat]]


def want_go_out(v: Observation) -> bool:
    """P-GO-OUT / P-KEEP-BUILDING: go out when the opponents are close, the stock is low,
    or our side is not gaining by staying in."""
    side = v.side
    ours = side_canastas(v, side)
    theirs = max(side_canastas(v, o) for o in range(len(v.meld_summary)) if o != side)
    if v.stock_size < 20 or opp_min_cards(v) <= 4 or theirs >= ours:
        return True
    return ours >= 3


#: Size from which the pack is worth stopping the next player from taking it.
WORTH_STOPPING = 4
#: Size from which the pack is worth a wild card to freeze it against the next player.
WORTH_FREEZING = 8


def next_player_waiting(v: Observation) -> bool:
    """Whether the next player could take a pack worth having: it is open to them (not frozen,
    their side has melded) and holds at least :data:`WORTH_STOPPING` cards."""
    return pile_open(v) and v.initial[next_side(v)] and v.pile_size >= WORTH_STOPPING


def discard_scores(v: Observation) -> dict[int, float]:
    """Lower is a better discard.  Safety first (P-SAFE-DISCARD), then keeping pairs
    (P-HOLD-PAIRS, more so when the pack is frozen against us and worth taking, since only a
    natural pair takes it) and wild cards, then the points left in hand (P-COUNT-CARDS).
    Stop cards: a black three is the first discard (P-STOP-THREE); when the next player is
    waiting for a big pack and every other discard would feed it, a wild card freezes it
    instead (P-FREEZE)."""
    hand = v.hand_counts
    side = v.side
    opp = next_side(v)
    known_next = v.known_of(v.variant.next_seats[v.seat])
    summary = v.meld_summary
    opp_melds = summary[opp]
    our_melds = summary[side]
    open_pile = pile_open(v)
    pile_open_to_next = open_pile and v.initial[opp]
    waiting = next_player_waiting(v)
    frozen_for_us = not open_pile or not v.initial[side]
    opp_near_out = opp_min_cards(v) <= 3
    freeze_wanted = v.initial[opp] and not v.initial[side] and open_pile and v.pile_size >= 4
    stop_with_wild = waiting and v.pile_size >= WORTH_FREEZING and not hand[BLACK_THREE]
    scores: dict[int, float] = {}
    for k in range(NUM_KINDS - 1):
        n = hand[k]
        if not n:
            continue
        s = 0.0
        if k == BLACK_THREE:
            # the safest discard of all: it stops the next player.  (Keeping it back until the next
            # player is waiting lost about 45 points a deal in rules-of-thumb duplicate play.)
            s = -40.0
        elif k in _WILD:
            s = 120.0 if k == JOKER else 90.0
            if freeze_wanted:
                s = -30.0 if k == DEUCE else 10.0
            elif stop_with_wild:
                s = 30.0 if k == DEUCE else 80.0
        else:
            if pile_open_to_next and k in opp_melds:
                s += 200.0
            if known_next[k]:
                s += 70.0 if open_pile else 35.0
            if k in our_melds:
                s += 25.0  # we could add it to our meld instead
            if n == 2:
                s += 60.0 if frozen_for_us and v.pile_size >= WORTH_STOPPING else 35.0
            elif n >= 3:
                s += 60.0
            if v.pile_top == k:
                s -= 10.0
        if opp_near_out:
            s -= KIND_VALUES[k] * 0.8
        else:
            s += KIND_VALUES[k] * 0.2
        scores[k] = s
    return scores


def meld_points(a: tuple) -> int:
    """The points a meld or an addition puts on the table (0 for any other action)."""
    if a[0] == "meld":
        return a[2] * KIND_VALUES[a[1]] + 50 * a[3] + 20 * a[4]
    if a[0] == "add":
        return KIND_VALUES[a[2]]
    return 0


class RulesOfThumbBot:
    """Callable policy: ``bot(observation) -> action``."""

    name = "rules-of-thumb"

    def __call__(self, obs: Observation) -> tuple:
        return decide(obs)[0]

    def decide(self, obs: Observation) -> tuple[tuple, list[str]]:
        return decide(obs)


def decide(v: Observation) -> tuple[tuple, list[str]]:  # noqa: C901 - one decision table
    """The bot's action for an observation of the seat to act, with the principles behind it."""
    if v.variant.numbered_melds:  # numbered melds and sequences (Samba) have their own table
        return samba_decide(v)
    legal = v.legal_actions
    if len(legal) == 1:
        return legal[0], []
    phase = v.phase
    if phase == "answer":
        # P-PARTNER-ANSWER: say no while holding many points we could still meld
        pts = hand_points(v.hand_counts)
        return (("no",), ["P-PARTNER-ANSWER"]) if pts >= 90 and v.stock_size > 10 else (("yes",), ["P-PARTNER-ANSWER"])
    if phase == "hand_over":
        return ("deal",), []
    side = v.side
    if phase == "draw":
        return _draw_decision(v, legal, side)
    return _meld_decision(v, legal, side)


def _draw_decision(v: Observation, legal: Sequence[tuple], side: int) -> tuple[tuple, list[str]]:
    if ("ask",) in legal and want_go_out(v):
        return ("ask",), ["P-ASK-PARTNER"]
    takes = [a for a in legal if a[0] == "take"]
    pile_n = v.pile_size
    fewest = opp_min_cards(v)
    if takes:
        # the pack costs little and gives cards: take it (P-TAKE-PACK), unless it is big,
        # an opponent is about to go out and we could not meld it (P-COUNT-CARDS)
        if v.initial[side] and pile_n >= 12 and fewest <= 1 and v.stock_size > 0 and ("draw",) in legal:
            return ("draw",), ["P-COUNT-CARDS"]
        if not v.initial[side]:
            take = min(takes, key=take_cost)
            return take, ["P-TAKE-PACK", "P-OPEN-EARLY"]
        if pile_n >= 2 or takes[0][2] == 0:
            return min(takes, key=take_cost), ["P-TAKE-PACK"]
    shows = [a for a in legal if a[0] in ("meld", "add")]
    if shows and pile_n >= 3:
        return max(shows, key=meld_points), ["P-TAKE-PACK", "P-OPEN-EARLY"]
    if ("draw",) in legal:
        return ("draw",), []
    if takes:
        return min(takes, key=take_cost), ["P-TAKE-PACK"]
    if shows:
        return max(shows, key=meld_points), ["P-TAKE-PACK"]
    return ("pass",), []


def _meld_decision(v: Observation, legal: Sequence[tuple], side: int) -> tuple[tuple, list[str]]:  # noqa: C901
    melds = [a for a in legal if a[0] in ("meld", "add")]
    discards = [a for a in legal if a[0] == "discard"]
    hand = v.hand_counts
    size = v.hand_sizes[v.seat]
    our = v.meld_summary[side]
    if v.must_out:
        if melds:
            return max(melds, key=lambda a: (meld_points(a), a)), ["P-GO-OUT"]
        return (discards or legal)[0], ["P-GO-OUT"]
    if v.pending and not v.initial[side]:
        if melds:
            return max(melds, key=meld_points), ["P-OPEN-EARLY"]
    # going out
    if our and can_go_out_for(v.variant, hand, our, v.options):
        if want_go_out(v):
            if ("ask",) in legal and v.answer is None:
                return ("ask",), ["P-ASK-PARTNER"]
            if v.answer is not False:
                if melds:
                    best = max(melds, key=lambda a: (meld_points(a), a))
                    return best, ["P-GO-OUT"]
                if discards and size == 1:
                    return discards[0], ["P-GO-OUT"]
    if not v.initial[side]:
        # (an initial meld of naturals only in Italian Canasta, R-ITAL-7)
        most = (max_natural_points if v.variant.initial_without_wilds else max_meld_points)(hand, {}, v.options)
        if melds and most >= v.minimums[side]:
            return max(melds, key=lambda a: (meld_points(a), a)), ["P-OPEN-EARLY"]
        if melds and v.pending == 0 and not discards:
            return max(melds, key=meld_points), ["P-OPEN-EARLY"]
    else:
        keep = 3 if side_canastas(v, side) == 0 else 2
        best_meld = None
        best_key = None
        principles: list[str] = []
        for a in melds:
            if a[1] == DEUCE:
                # Italian Canasta: deuces held three or more go down as their own meld, and then onto it
                # until it is a canasta (R-ITAL-6), before anything else
                if size - (3 if a[0] == "meld" else 1) < keep:
                    continue
                key = (5, 0)
                tags = ["P-BUILD-CANASTA"]
            elif a[0] == "add":
                k, w = a[1], a[2]
                nat, wild = our[k]
                if w == k:
                    key = (3, nat + wild)
                    tags = ["P-BUILD-CANASTA"]
                elif nat + wild == 6 and nat >= 4:
                    key = (4, 0)
                    tags = ["P-BUILD-CANASTA"]
                else:
                    continue  # P-NATURAL-CANASTA: keep wild cards for finishing canastas
                if size - 1 < keep:
                    continue
            else:
                k, n = a[1], a[2]
                if n == 3:
                    if size - 3 < keep + 1:
                        continue
                    key = (2, KIND_VALUES[k])
                    tags = ["P-BUILD-CANASTA"]
                else:
                    # a pair with a wild card: only when the hand is big (P-HOLD-PAIRS)
                    if size < 10:
                        continue
                    key = (1, KIND_VALUES[k])
                    tags = ["P-BUILD-CANASTA"]
            if best_key is None or key > best_key:
                best_key = key
                best_meld = a
                principles = tags
        if best_meld is not None:
            return best_meld, principles
    if discards:
        scores = discard_scores(v)
        best = min(discards, key=lambda a: (scores.get(a[1], 0.0), a[1]))
        k = best[1]
        if k == BLACK_THREE:
            return best, ["P-SAFE-DISCARD", "P-STOP-THREE"]
        if k in _WILD:
            return best, ["P-FREEZE"]
        return best, ["P-SAFE-DISCARD"]
    if melds:
        return max(melds, key=meld_points), []
    return legal[0], []


__all__ = ["RulesOfThumbBot", "decide", "discard_scores", "want_go_out", "hand_points", "take_cost",
           "next_player_waiting"]
