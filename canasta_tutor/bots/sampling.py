"""A state built straight from an :class:`~canasta_tutor.engine.observer.Observation`.

The search needs a :class:`~canasta_tutor.engine.state.State` to play out, but a seat
only knows its own hand and the public facts.  :func:`state_from_observation`
builds the state from the observation's fields (no position text is formatted
or parsed): the seat's own cards, the melds, red threes and pile as they lie,
the turn flags, and every card the seat cannot see placed in the other hands
(cards known from taken packs first), the stock and, in Italian Canasta, the cards
lying face down at the bottom of the pile (R-ITAL-3).  Where those unseen cards go
is arbitrary but fixed; the search re-deals them for every sample with
:func:`sample_hidden`, the one place that decides how hidden cards are sampled
(by :func:`~canasta_tutor.engine.hidden.fill_hidden`, consistently with the turn flags).

>>> from canasta_tutor import Game
>>> from canasta_tutor.engine.observer import observe
>>> state = Game().new_initial_state(seed=3)
>>> obs = observe(state, state.actor)
>>> built = state_from_observation(obs)
>>> built.hand(obs.seat) == state.hand(obs.seat), built.hand_size == state.hand_size
(True, True)
>>> sorted(built.legal_actions()) == sorted(obs.legal_actions)
True
"""

from __future__ import annotations

import random

from ..engine.cards import BLACK_THREE, CARD_KIND, NUM_CARDS, NUM_KINDS, RED_THREE, card_ids_by_code
from ..engine.errors import ImpossiblePositionError
from ..engine.hidden import fill_hidden, unseen_for
from ..engine.observer import Observation
from ..engine.state import LIST_FIELDS, NESTED_FIELDS, SHARED_FIELDS, State
from ..engine.samba import new_state

_IDS = {NUM_CARDS: card_ids_by_code()}

# How a state rebuilt from an observation takes each of the fields the state declares (SHARED_FIELDS,
# LIST_FIELDS, NESTED_FIELDS in canasta_tutor.engine.state); a field the state adds must be put in one of these
# three tables, or tests/test_state_fields.py fails.
#: the observation's field of the same name (a new list for a list field)
FROM_OBSERVATION: tuple[str, ...] = (
    "dealer", "turn", "phase", "pending", "shown", "asked", "answer", "must_out", "melded_turn", "took_pack",
    "totals", "deal_totals", "minimums", "initial", "first_turn_done", "has_melded", "history", "hand_results",
)
#: made here from the observation's cards, with the card ids this state deals: the hands (the seat's own,
#: then the unseen cards), the table, the pile, the stock and what is known of each hand
FROM_CARDS: tuple[str, ...] = (
    "deal_no", "pile", "pile_hidden", "freeze_at", "red3", "melds", "b3_melded", "hands", "hand_size", "stock",
    "known",
)
#: as the new state of the variant sets them: the rules and the variant's tables, the seed, and what an
#: observation made at a decision leaves at its start value (the game's winner, the draw for seats, ...)
AS_NEW: tuple[str, ...] = tuple(name for name in SHARED_FIELDS + LIST_FIELDS + NESTED_FIELDS
                                if name not in FROM_OBSERVATION + FROM_CARDS)


class _Ids:
    """Hands out physical card ids for card codes, each id once (the ids of a deck of ``num_cards``)."""

    def __init__(self, num_cards: int = NUM_CARDS) -> None:
        ids = _IDS.get(num_cards)
        if ids is None:
            ids = _IDS[num_cards] = card_ids_by_code(num_cards)
        self.free = {code: list(cards) for code, cards in ids.items()}

    def take(self, code: str) -> int:
        return self.free[code].pop()

    def rest(self) -> list[int]:
        return sorted(c for ids in self.free.values() for c in ids)


def state_from_observation(obs: Observation) -> State:
    """A state with the observation's public facts and own hand; unseen cards placed arbitrarily
    (the same way every time), respecting hand sizes, cards known from taken packs and that no
    seat past its first turn holds a red three."""
    variant = obs.variant
    ids = _Ids(variant.num_cards)
    s = new_state(obs.options, 0, variant)
    for name in FROM_OBSERVATION:  # the public facts, as the observation has them
        value = getattr(obs, name)
        setattr(s, name, list(value) if name in LIST_FIELDS else value)
    s.deal_no = len(obs.hand_results)
    s.pile = [ids.take(c) for c in obs.pile]  # the face-up cards; the face-down ones (R-ITAL-3) come below
    down = obs.pile_hidden
    s.freeze_at = obs.freeze_at + down if obs.freeze_at >= 0 else -1
    s.red3 = [[ids.take(c) for c in obs.red_threes[side]] for side in range(variant.n_sides)]
    s.place_melds(obs, ids.take)  # the variant's melds: the state's own method
    turn_side = variant.sides[obs.turn]
    if BLACK_THREE in s.melds[turn_side] and obs.phase in ("draw", "meld", "answer"):
        s.b3_melded = len(s.melds[turn_side][BLACK_THREE][0])
    own: list[list[int]] = [[] for _ in range(NUM_KINDS)]
    for code in s.own_hand_codes(obs):
        c = ids.take(code)
        own[CARD_KIND[c]].append(c)
    s.hands[obs.seat] = own
    s.hand_size = list(obs.hand_sizes)
    rest = ids.rest()
    by_kind: list[list[int]] = [[] for _ in range(NUM_KINDS)]
    for c in rest:
        by_kind[CARD_KIND[c]].append(c)
    for o in range(variant.players):
        if o == obs.seat:
            continue
        h: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        for k in range(NUM_KINDS):
            for _ in range(min(obs.known[o][k], len(by_kind[k]))):
                h[k].append(by_kind[k].pop())
        s.hands[o] = h
    plain = [c for k in range(NUM_KINDS) if k != RED_THREE for c in by_kind[k]]
    reds = by_kind[RED_THREE]
    for o in range(variant.players):
        if o == obs.seat:
            continue
        h = s.hands[o]
        need = obs.hand_sizes[o] - sum(len(k) for k in h)
        for _ in range(need):
            c = reds.pop() if reds and not obs.first_turn_done[o] else plain.pop()
            h[CARD_KIND[c]].append(c)
    if any(obs.packet_sizes):  # the packets face down: unseen by every seat, so any of the cards left (R-PEN-4)
        left = reds + plain
        packets = []
        for n in obs.packet_sizes:
            packets.append(left[len(left) - n:] if n else [])
            del left[len(left) - n:]
        s.set_packets(packets)
        plain, reds = left, []
    if down:  # the cards face down under the turned card: unseen, so any of the cards left (R-ITAL-3)
        left = reds + plain  # (plain cards first, for the same look every time)
        s.pile[:0] = left[-down:]
        s.pile_hidden = down
        del left[-down:]
        s.stock = left
    else:
        s.stock = plain + reds
    s.known = [list(k) for k in obs.known]
    s.known[obs.seat] = [0] * NUM_KINDS
    assert len(s.stock) == obs.stock_size, f"the observation does not account for all {variant.num_cards} cards"
    assert sum(s.hand_size) + len(s.stock) + len(s.pile) <= variant.num_cards
    return s


def sample_hidden(state: State, seat: int, rng: random.Random) -> State | None:
    """One sample of the hidden cards (other hands, stock) consistent with what ``seat`` knows
    and with the turn flags (a player who asked could go out, shown melds hold the pair...):
    the single call point the search uses to sample.  None if no consistent deal was found."""
    s = state.copy()
    try:
        return fill_hidden(s, [o for o in range(len(s.hands)) if o != seat], unseen_for(s, seat), rng)
    except ImpossiblePositionError:
        return None


__all__ = ["state_from_observation", "sample_hidden", "FROM_OBSERVATION", "FROM_CARDS", "AS_NEW"]
