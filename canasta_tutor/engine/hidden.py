"""Hidden cards filled in consistently with what the table has seen.

When a position gives a hand or the stock as a count (a seat's view, a puzzle
written by hand), or when the search samples the cards one seat cannot see,
somebody has to decide where the unseen cards are.  Dealing them uniformly at
random ignores what the turn itself tells the table:

- a player who asked "may I go out?" could go out at that moment (R-ASK-1);
- after "yes", or after melding black threes, the player must go out this turn
  (R-ASK-3, R-MELD-4), so the hand can be melded out;
- points shown toward the initial meld (``pending``) mean the player can still
  reach the minimum (R-MIN-1), and melds ``shown`` to take the pack mean the
  player holds the natural pair the take needs (R-PACK-5);
- a seat past its first turn holds no red three (R-RED-1), and cards known to have
  gone into a hand with a taken pack are still there.

A filling that breaks these can leave the player to move with no legal action,
or the search playing out a hand that could not exist.  This module fills the
hidden cards so that the seat to move is in a hand the flags allow.

The API (stable; the hint's search calls it):

``fill_hidden(state, seats, unseen, rng, *, stock_top=(), keep_stock=False, keep_pile=False, tries=200) -> State``
    Deal the cards ``unseen`` (card ids) into the hands of ``seats`` and the stock,
    in place, and return ``state``.  In Italian Canasta the cards lying face down at
    the bottom of the pile (``state.pile_hidden`` of them, R-ITAL-3) are dealt from
    ``unseen`` too, before the stock, unless ``keep_pile=True`` leaves them as they are.
    Each seat in ``seats`` must already hold its right count in ``state.hand_size``;
    whatever its hand lists now is replaced.
    ``state.known[seat]`` counts (by kind) go into that hand first.  The stock becomes
    the cards left over, shuffled, with ``stock_top`` (card ids, the next card drawn
    first) on top; the ``stock_top`` cards must not be in ``unseen``.  With
    ``keep_stock=True`` the stock is left as it is and ``unseen`` must hold exactly
    the cards the hands (and the face-down pile cards) need.  Random choices come from ``rng`` only, so a seeded
    ``random.Random`` gives the same filling every time.  Raises
    :class:`~canasta_tutor.engine.errors.ImpossiblePositionError` when the counts do not
    add up, or when no filling consistent with the turn flags is found (the flags
    then ask for something the unseen cards cannot give).

``unseen_for(state, seat) -> list[int]``
    The cards ``seat`` cannot see in ``state``: the other hands, the stock and the
    cards face down in the pile.

``turn_problem(state) -> str | None``
    Why the hand of the seat whose turn it is contradicts the turn flags, or why the
    seat to act has no legal action; None when all is well.  The position check
    (:func:`canasta_tutor.notation.position.validate_position`) and :func:`fill_hidden` share it.

>>> import random
>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=3)
>>> seen_by_south = state.copy()
>>> hidden = unseen_for(state, "S")
>>> _ = fill_hidden(seen_by_south, [0, 1, 3], hidden, random.Random(1))
>>> seen_by_south.hand("S") == state.hand("S"), seen_by_south.hand_size == state.hand_size
(True, True)
>>> sorted(seen_by_south.cards_everywhere()) == list(range(108))
True
"""

from __future__ import annotations

import random
from typing import Iterable, Sequence

from .cards import CARD_KIND, DEUCE, JOKER, KIND_VALUES, NUM_KINDS, RED_THREE, is_canasta, shuffle
from .errors import ImpossiblePositionError
from .feasibility import can_go_out
from .pennies import PenniesState
from .samba import SambaState
from .state import ANSWER, DRAW, MELD, State, seat_index

_PLAYING = (DRAW, MELD, ANSWER)


def unseen_for(state: State, seat: int | str) -> list[int]:
    """The card ids ``seat`` cannot see: every other hand, the stock, the cards lying face down at the
    bottom of the pile (R-ITAL-3) and every packet still face down, the seat's own included (R-PEN-4), sorted."""
    s = seat_index(seat, state.variant.seats)
    out: list[int] = list(state.stock)
    out.extend(state.pile[:state.pile_hidden])
    if isinstance(state, PenniesState):
        for p in state.packets:
            out.extend(p)
    for o in range(len(state.hands)):
        if o != s:
            for k in state.hands[o]:
                out.extend(k)
    return sorted(out)


# ------------------------------------------------------------------ the check
def _lone(counts: Sequence[int], melds: dict[int, tuple[int, int]]) -> int:
    return sum(1 for k in range(11) if counts[k] == 1 and k not in melds)


def _could_ask(state: State, counts: Sequence[int], asked: int) -> bool:
    """Whether a hand of these kind counts could have asked (R-ASK-1), as State._why_not_ask checks (Samba:
    its own turn test, on the hand as it stands, since Samba asks only after drawing)."""
    if isinstance(state, SambaState):
        return state.could_have_asked()
    summary = state.meld_summary(state.sides[state.turn])
    need = state.out_need
    if asked == 1:
        return _lone(counts, summary) == 0 and can_go_out(counts, summary, state.options, allow_discard=False,
                                                          canastas=need)
    return _lone(counts, summary) <= 1 and can_go_out(counts, summary, state.options, canastas=need)


def turn_problem(state: State) -> str | None:
    """Why the turn flags contradict the hand of the seat whose turn it is, or why the seat to
    act has no legal action; None if the position is playable as it stands."""
    if state.phase not in _PLAYING:
        return None
    seat = state.turn
    seats = state.variant.seats
    name = seats[seat]
    counts = state.hand_counts(seat)
    if state.asked:
        unchanged = state.phase in (ANSWER, DRAW) or (state.asked == 2 and not state.melded_turn)
        if unchanged and not _could_ask(state, counts, state.asked):
            when = "before drawing" if state.asked == 1 else "after drawing"
            return (f"{name} asked 'may I go out?' {when}, but could not have gone out with this hand "
                    "(one asks only when able to go out)")
        if state.asked == 1 and state.phase == MELD and not state.melded_turn and not state.took_pack:
            ok = False
            for k in range(NUM_KINDS):
                if counts[k]:
                    counts[k] -= 1
                    ok = _could_ask(state, counts, 1)
                    counts[k] += 1
                    if ok:
                        break
            if not ok:
                return (f"{name} asked 'may I go out?' before drawing, but no card of this hand can be the "
                        "one drawn since (one asks only when able to go out)")
    if not state.legal_actions():
        if state.must_out:
            why = "melded black threes" if state.b3_melded and not state.answer else "was told 'yes'"
            return f"{name} {why} and must go out this turn, but this hand cannot go out: no legal action"
        if state.shown:
            return (f"{name} showed melds to take the pack, but this hand cannot take it: no legal action")
        side = state.sides[seat]
        if state.pending and not state.initial[side]:
            return (f"{name} has melded {state.pending} toward the initial meld, but this hand cannot reach "
                    f"the minimum of {state.minimums[side]}: no legal action")
        return f"{seats[state.actor or 0]} has no legal action in this position"
    return None


# ---------------------------------------------------------------- the filling
class _Pool:
    """Unseen cards by kind, shuffled, for picking."""

    def __init__(self, cards: Iterable[int], rng: random.Random) -> None:
        cards = sorted(cards)
        shuffle(rng, cards)
        self.by_kind: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        for c in cards:
            self.by_kind[CARD_KIND[c]].append(c)

    def avail(self, kind: int) -> int:
        return len(self.by_kind[kind])

    def take(self, kind: int) -> int:
        return self.by_kind[kind].pop()

    def take_any(self, rng: random.Random, red_threes: bool) -> int | None:
        """A card drawn at random from the pool (every card as likely; not a red three unless
        ``red_threes``), or None if there is none: ``rng.choices`` over the kinds weighted by their
        counts, written out (the same draw from the generator, the same card, without the lists)."""
        by_kind = self.by_kind
        total = sum(map(len, by_kind))
        if not red_threes:
            total -= len(by_kind[RED_THREE])
        if not total:
            return None
        x = rng.random() * total  # as random.choices: the first kind whose running count exceeds x
        seen = 0
        last = -1
        for k in range(NUM_KINDS):
            n = len(by_kind[k])
            if n and (red_threes or k != RED_THREE):
                seen += n
                last = k
                if x < seen:
                    return by_kind[k].pop()
        return by_kind[last].pop()  # x rounded up to the total: choices takes the last kind too

    def rest(self) -> list[int]:
        return [c for k in self.by_kind for c in k]


def _build(pool: _Pool, hand: list[int], summary: dict[int, tuple[int, int]], state: State,
           rng: random.Random, cards: int, points: int, canasta: bool, exclude: int = -1) -> bool:
    """Add to ``hand`` up to ``cards`` cards from ``pool`` that can all be melded onto ``summary``
    (updated), stopping once they are worth ``points`` and (with ``canasta``) complete a canasta.
    Exactly ``cards`` cards are added when ``points`` is 0 and ``canasta`` is false.  False if
    that failed (the caller tries again)."""
    opts = state.options
    got = 0
    left = cards
    wild = (JOKER, DEUCE)

    def put(kind: int) -> None:
        nonlocal got, left
        hand.append(pool.take(kind))
        got += KIND_VALUES[kind]
        left -= 1

    if canasta and not any(is_canasta(n, w) for n, w in summary.values()):
        options = []
        for k in range(11):
            if k == exclude:
                continue
            n0, w0 = summary.get(k, (0, 0))
            for x in range(pool.avail(k) + 1):
                if n0 == 0 and x < 3:
                    continue
                n = n0 + x
                if n < 4:
                    continue
                y = max(0, 7 - n - w0)
                if w0 + y > opts.wild_cap(n) or y > pool.avail(JOKER) + pool.avail(DEUCE) or x + y > left:
                    continue
                options.append((k, x, y))
                break
        if not options:
            return False
        k, x, y = rng.choice(options)
        for _ in range(x):
            put(k)
        w_added = 0
        for _ in range(y):
            kinds = [w for w in wild if pool.avail(w)]
            put(rng.choice(kinds))
            w_added += 1
        n0, w0 = summary.get(k, (0, 0))
        summary[k] = (n0 + x, w0 + w_added)
    exact = points <= 0 and not canasta
    while left > 0 and (exact or got < points):
        moves: list[tuple[int, ...]] = []
        for k in range(11):
            if k == exclude:
                continue
            if k in summary:
                if pool.avail(k):
                    moves.append((k,))
                n, w = summary[k]
                if w < opts.wild_cap(n):
                    moves.extend((k, wk) for wk in wild if pool.avail(wk))
            elif left >= 3 and pool.avail(k) >= 3:
                moves.append((k, k, k))
            elif left >= 3 and pool.avail(k) >= 2 and opts.wild_cap(2) >= 1:
                moves.extend((k, k, wk) for wk in wild if pool.avail(wk))
        if not moves:
            return False
        if not exact:
            moves.sort(key=lambda m: -sum(KIND_VALUES[x] for x in m[1:] or m))
            moves = moves[: max(3, len(moves) // 3)]
        move = rng.choice(moves)
        k = move[0]
        n, w = summary.get(k, (0, 0))
        if len(move) == 1:
            put(k)
            summary[k] = (n + 1, w)
        elif len(move) == 2:
            put(move[1])
            summary[k] = (n, w + 1)
        else:
            for kind in move:
                put(kind)
            nat = sum(1 for x in move if x == k)
            summary[k] = (nat, len(move) - nat)
    return left >= 0 and ((exact and left == 0) or (not exact and got >= points))


def _propose_turn_hand(state: State, pool: _Pool, hand: list[int], size: int, rng: random.Random) -> bool:
    """Fill the hand of the seat whose turn it is up to ``size`` cards, shaped by the turn flags.
    False if this try failed."""
    seat = state.turn
    side = state.sides[seat]
    summary = dict(state.meld_summary(side))
    counts = [0] * NUM_KINDS
    for c in hand:
        counts[CARD_KIND[c]] += 1
    phase = state.phase
    asked_unchanged = state.asked and (phase in (ANSWER, DRAW) or (state.asked == 2 and not state.melded_turn))
    go_out = asked_unchanged or (state.must_out and phase != DRAW) or (
        state.asked == 1 and phase == MELD and not state.melded_turn and not state.took_pack)
    # a discard may end the turn (then one card need not fit a meld), or the last meld may
    extra = rng.randrange(2) if go_out and ((asked_unchanged and state.asked == 2) or phase == MELD) else 0
    # cards known to be held (from a taken pack) that could not be melded alone get partners,
    # except one lone card that can be the discard
    spare = extra
    for k in range(11):
        if counts[k] == 1 and k not in summary and spare:
            spare = 0
            continue
        if 0 < counts[k] < 3 and k not in summary:
            if pool.avail(k) < 3 - counts[k]:
                continue
            for _ in range(3 - counts[k]):
                hand.append(pool.take(k))
            summary[k] = (3, 0)
        elif counts[k] and k in summary:
            n, w = summary[k]
            summary[k] = (n + counts[k], w)
    extra = spare
    room = size - len(hand)
    if room < 0:
        return False
    if go_out:
        ok = _build(pool, hand, summary, state, rng, room - extra, 0, True)
        if ok and len(hand) < size - extra:
            ok = _build(pool, hand, summary, state, rng, size - extra - len(hand), 0, False)
        if not ok:
            return False
    elif state.shown and phase == DRAW and state.pile:
        top = CARD_KIND[state.pile[-1]]
        if top >= 11 or pool.avail(top) < 2 or room < 4:
            return False
        hand.append(pool.take(top))
        hand.append(pool.take(top))
        need = state.minimums[side] - state.pending - 3 * KIND_VALUES[top]
        if need > 0 and not _build(pool, hand, summary, state, rng, size - len(hand) - 2, need, False, exclude=top):
            return False
    elif state.pending and not state.initial[side] and phase == MELD:
        need = state.minimums[side] - state.pending
        if not _build(pool, hand, summary, state, rng, room - 2, need, False):
            return False
    while len(hand) < size:
        card = pool.take_any(rng, red_threes=False)
        if card is None:
            return False
        hand.append(card)
    return len(hand) == size


def _constrained(state: State) -> bool:
    return state.phase in _PLAYING and bool(
        state.asked or state.must_out or state.shown or (state.pending and not state.initial[state.sides[state.turn]]))


def fill_hidden(state: State, seats: Iterable[int | str], unseen: Iterable[int], rng: random.Random, *,
                stock_top: Sequence[int] = (), keep_stock: bool = False, keep_pile: bool = False,
                keep_packets: bool = False, tries: int = 200) -> State:
    """Deal ``unseen`` into the hands of ``seats``, the cards face down at the bottom of the pile
    (``state.pile_hidden`` of them, R-ITAL-3; not with ``keep_pile``) and the stock, consistently with
    the turn flags (see the module docstring); in place, returns ``state``.  The packets face down (R-PEN-4)
    are dealt from ``unseen`` too, each keeping its size, unless ``keep_packets``."""
    fill = sorted({seat_index(s, state.variant.seats) for s in seats})
    cards = sorted(unseen)
    down = 0 if keep_pile else state.pile_hidden
    packets = state.packets if isinstance(state, PenniesState) and not keep_packets else None
    in_packets = sum(len(p) for p in packets) if packets else 0
    need = sum(state.hand_size[s] for s in fill)
    if (down or in_packets) and keep_stock:
        need += down + in_packets  # the face-down cards come out of ``unseen`` too
    if keep_stock and stock_top:
        raise ValueError("stock_top and keep_stock exclude each other")
    if len(cards) < need or (keep_stock and len(cards) != need):
        have = len(cards)
        raise ImpossiblePositionError(f"the hidden hands hold {need} cards, but {have} cards are unseen"
                                      + ("" if keep_stock else " (the stock would be short)"), None, None)
    letters = state.variant.seats
    turn_filled = state.turn in fill and _constrained(state)
    check = state.turn in fill and state.phase in _PLAYING
    attempts = max(1, tries) if check else 1
    last_problem = ""
    for attempt in range(attempts):
        pool = _Pool(cards, rng)
        hands: dict[int, list[int]] = {}
        for s in fill:
            hand: list[int] = []
            for k in range(NUM_KINDS):
                for _ in range(state.known[s][k]):
                    if not pool.avail(k):
                        raise ImpossiblePositionError(
                            f"{letters[s]} is known to hold {state.known[s][k]} of a kind, but not that many are "
                            "unseen", None, letters[s])
                    hand.append(pool.take(k))
            if len(hand) > state.hand_size[s]:
                raise ImpossiblePositionError(f"{letters[s]} holds {state.hand_size[s]} cards but is known to hold "
                                              f"{len(hand)}", None, letters[s])
            hands[s] = hand
        order = fill[:]
        shaped = turn_filled and attempt % 4 != 3  # now and then a plain random deal, for variety
        if shaped:
            order.remove(state.turn)
            if not _propose_turn_hand(state, pool, hands[state.turn], state.hand_size[state.turn], rng):
                last_problem = "the unseen cards could not make a hand that fits the turn"
                continue
        failed = False
        for s in order:
            hand = hands[s]
            reds = not state.first_turn_done[s]
            while len(hand) < state.hand_size[s]:
                c = pool.take_any(rng, red_threes=reds)
                if c is None:
                    failed = True
                    break
                hand.append(c)
            if failed:
                break
        if failed:
            raise ImpossiblePositionError(
                "not enough unseen cards for the hidden hands (a seat past its first turn holds no red three)",
                None, None)
        for s in fill:
            h: list[list[int]] = [[] for _ in range(NUM_KINDS)]
            for c in hands[s]:
                h[CARD_KIND[c]].append(c)
            state.hands[s] = h
        if not keep_stock or down or in_packets:
            rest = pool.rest()
            shuffle(rng, rest)
            if down:
                if len(rest) < down:
                    raise ImpossiblePositionError(f"{down} cards lie face down in the pile, but only {len(rest)} "
                                                  "unseen cards are left for them", None, "pile")
                state.pile[:down] = rest[:down]
                rest = rest[down:]
            if packets and in_packets:
                if len(rest) < in_packets:
                    raise ImpossiblePositionError(f"the packets hold {in_packets} cards, but only {len(rest)} "
                                                  "unseen cards are left for them", None, "packets")
                for p in packets:
                    n = len(p)
                    p[:] = rest[:n]
                    rest = rest[n:]
            if not keep_stock:
                state.stock = rest + list(reversed(list(stock_top)))
        if not check:
            return state
        problem = turn_problem(state)
        if problem is None:
            return state
        last_problem = problem
    raise ImpossiblePositionError(f"no way to deal the hidden cards that fits the turn: {last_problem}",
                                  None, "turn")


__all__ = ["fill_hidden", "unseen_for", "turn_problem"]
