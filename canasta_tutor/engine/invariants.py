"""Invariants of a game state: what must hold after every action.

:func:`check_invariants` returns a list of messages, empty when every invariant
holds.  It is run after every action of the random self-play soak
(:mod:`canasta_tutor.bots.selfplay`), so it is written to be fast, and it recomputes
what it checks from the cards themselves rather than trusting the engine's own
bookkeeping: the hand scores in particular are recounted from a separate table
of card values, not with :meth:`State.score_hand`.

>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=7)
>>> check_invariants(state)
[]
>>> state.stock.pop() >= 0           # lose a card
True
>>> check_invariants(state)
['107 cards in play, not 108']

The checker reads the variant's deck, seats and sides (``state.variant``):

>>> from canasta_tutor.engine.variants import get_variant
>>> six = Game(variant=get_variant("six-handed")).new_initial_state(seed=7)
>>> check_invariants(six), len(six.cards_everywhere())
([], 162)
"""

from __future__ import annotations

from typing import Sequence

from .cards import (
    ALL_CARD_CODES,
    BLACK_THREE,
    CARD_KIND,
    DEUCE,
    JOKER,
    KIND_NAMES,
    NUM_KINDS,
    RED_THREE,
)
from .five import FiveState, five_invariants
from .samba import WILD_SUIT
from .pennies import PenniesState, pennies_hand_end, pennies_invariants
from .state import ANSWER, DRAW, GAME_OVER, HAND_OVER, MELD, PHASES, State

_FREEZERS_ALWAYS = frozenset((JOKER, DEUCE, RED_THREE))
_OVER = (HAND_OVER, GAME_OVER)
#: the actions that lay cards from a hand on the table (Samba's "run", "put" and "takeon" too)
_MELD_VERBS = frozenset(("meld", "add", "take", "run", "put", "takeon"))


def _value_of_code(code: str) -> int:
    """Card values of R-CARDS-3 from the card code alone (independent of cards.CARD_VALUE)."""
    rank, suit = code[0], code[1]
    if code == "JK":
        return 50
    if rank in "2A":
        return 20
    if rank in "89TJQK":
        return 10
    if rank in "4567":
        return 5
    # threes: black 5, red 0 (a red three only scores as a bonus)
    return 5 if suit in "SC" else 0


_VALUE = tuple(_value_of_code(c) for c in ALL_CARD_CODES)
_IS_WILD_CODE = tuple(c == "JK" or c[0] == "2" for c in ALL_CARD_CODES)
_IS_DEUCE_CODE = tuple(c[0] == "2" for c in ALL_CARD_CODES)
_IS_RED3_CODE = tuple(c[0] == "3" and c[1] in "HD" for c in ALL_CARD_CODES)
CARD_CODE = ALL_CARD_CODES  # every variant's card ids (classic 0..107)


def check_invariants(state: State, start_totals: Sequence[int] | None = None, history: bool = True) -> list[str]:
    """Every invariant that fails in ``state``, as a message; ``[]`` when all hold.

    ``start_totals`` (the totals the game started from) adds the check that the
    totals equal them plus every hand's score.  ``history=False`` checks a state read from a
    position (:func:`canasta_tutor.notation.position.parse_position`), which knows no earlier hand and no
    action: the facts that need them (one hand result per deal, going out concealed by the
    actions) are left out, and a finished hand's totals are checked against its cards.
    """
    v: list[str] = []
    opts = state.options
    variant = state.variant
    num_cards = variant.num_cards  # the variant's deck: cards 0..num_cards-1 (R-CARDS-1, R-SIX-2)
    seat_letters = variant.seats
    side_names = variant.side_names
    sides = variant.sides
    phase = state.phase
    if phase not in PHASES:
        return [f"unknown phase {phase!r}"]
    playing = phase not in _OVER

    # -------- five-handed: five players, one of them out of the chairs (R-FIVE-1)
    if isinstance(state, FiveState):
        v += five_invariants(state)
    pennies = isinstance(state, PenniesState)
    if isinstance(state, PenniesState):
        v += pennies_invariants(state)

    # -------- every card exactly once (R-CARDS-1)
    cards = state.cards_everywhere()
    if len(cards) != num_cards or len(set(cards)) != num_cards:
        seen: set[int] = set()
        dup = sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        msg = f"{len(cards)} cards in play, not {num_cards}"
        if dup:
            msg += f"; twice: {' '.join(CARD_CODE[c] if 0 <= c < num_cards else str(c) for c in dup)}"
        v.append(msg)
    if any(not 0 <= c < num_cards for c in cards):
        v.append(f"a card id outside 0..{num_cards - 1}")
        return v
    if (len(state.hands) != variant.players or len(state.hand_size) != variant.players
            or len(state.melds) != variant.n_sides or len(state.red3) != variant.n_sides
            or len(state.totals) != variant.n_sides or len(state.initial) != variant.n_sides):
        return v + [f"the state's tables do not fit {variant.players} seats and {variant.n_sides} sides"]

    # -------- hands: kinds, sizes, red threes, known counts
    hands = state.hands
    SEATS = seat_letters  # noqa: N806 - the seat letters of this variant
    for seat in range(variant.players):
        h = hands[seat]
        size = 0
        for k in range(NUM_KINDS):
            lst = h[k]
            size += len(lst)
            for c in lst:
                if CARD_KIND[c] != k:
                    v.append(f"{SEATS[seat]} holds {CARD_CODE[c]} among the {KIND_NAMES[k]}")
            if state.known[seat][k] > len(lst) or state.known[seat][k] < 0:
                v.append(f"{SEATS[seat]}: {state.known[seat][k]} {KIND_NAMES[k]} known to the table, but holds "
                         f"{len(lst)}")
        if size != state.hand_size[seat]:
            v.append(f"{SEATS[seat]}: hand_size {state.hand_size[seat]} but holds {size} cards")
        if h[RED_THREE] and state.first_turn_done[seat]:
            v.append(f"{SEATS[seat]} holds a red three after their first turn (R-RED-1, R-RED-2)")
        if playing and size == 0:
            v.append(f"{SEATS[seat]} holds no cards while the hand is being played (R-OUT-4)")
    for side in range(variant.n_sides):
        for c in state.red3[side]:
            if not _IS_RED3_CODE[c]:
                v.append(f"{CARD_CODE[c]} laid out among the red threes of {side_names[side]}")

    # -------- melds (R-MELD-1..4)
    for side in range(variant.n_sides):
        sname = side_names[side]
        for k, (nat, wild) in state.melds[side].items():
            if k == DEUCE and pennies:
                continue  # a meld of wild cards (R-PEN-7): pennies_invariants
            if k == DEUCE and variant.deuce_melds:
                # a meld of deuces: three or more deuces and nothing else (R-ITAL-6), never in the initial meld
                if wild or len(nat) < 3 or any(not _IS_DEUCE_CODE[c] for c in nat):
                    v.append(f"{sname} meld of deuces holds {len(nat)} cards and {len(wild)} others (R-ITAL-6)")
                if playing and not state.initial[side]:
                    v.append(f"{sname} has a meld of deuces but no initial meld (R-ITAL-7)")
                continue
            if k in (JOKER, DEUCE, RED_THREE) or not 0 <= k < NUM_KINDS:
                v.append(f"{sname} has a meld of {KIND_NAMES[k] if 0 <= k < NUM_KINDS else k} (R-MELD-3, R-RED-1)")
                continue
            for c in nat:
                if CARD_KIND[c] != k:
                    v.append(f"{sname} meld of {KIND_NAMES[k]} holds {CARD_CODE[c]} as a natural (R-MELD-1)")
            for c in wild:
                if not _IS_WILD_CODE[c]:
                    v.append(f"{sname} meld of {KIND_NAMES[k]} holds {CARD_CODE[c]} as a wild card (R-CARDS-2)")
            if k == BLACK_THREE:
                if wild or not 3 <= len(nat) <= 4:
                    v.append(f"{sname} black-three meld of {len(nat)} naturals and {len(wild)} wilds (R-MELD-4)")
                if playing:
                    if not (phase == MELD and sides[state.turn] == side and state.must_out):
                        v.append(f"{sname} has black threes melded, but no player of the side must go out "
                                 "this turn (R-MELD-4)")
                elif state.went_out is None or sides[state.went_out] != side:
                    v.append(f"{sname} melded black threes but did not go out (R-MELD-4)")
            else:
                if len(nat) < 2:
                    v.append(f"{sname} meld of {KIND_NAMES[k]} has {len(nat)} naturals (R-MELD-2)")
                if len(wild) > opts.wild_cap(len(nat)):
                    v.append(f"{sname} meld of {KIND_NAMES[k]} has {len(wild)} wild cards to {len(nat)} naturals "
                             "(R-MELD-2)")
                if len(nat) + len(wild) < 3:
                    v.append(f"{sname} meld of {KIND_NAMES[k]} has {len(nat) + len(wild)} cards (R-MELD-1)")

    if variant.sequences:
        v.extend(_check_samba_melds(state, playing))

    # -------- the pile and its freeze (R-FRZ-2, R-FRZ-3, R-FRZ-4)
    pile = state.pile
    first = -1
    b3_freezes = opts.black_three == "freezes"
    down = state.pile_hidden  # the cards laid face down at the start (R-ITAL-3): unseen, they never freeze
    if down and (variant.pile_start != "count" or not 0 < down < len(pile)):
        v.append(f"{down} cards lie face down at the bottom of a pile of {len(pile)}; only Italian Canasta's pile "
                 "has them, under at least the turned card (R-ITAL-3)")
    elif down < 0:
        v.append(f"a pile with {down} cards face down")
    for i in range(max(0, down), len(pile)):
        c = pile[i]
        kind = CARD_KIND[c]
        if kind in _FREEZERS_ALWAYS or (kind == BLACK_THREE and b3_freezes):
            first = i
            break
    if state.freeze_at != first:
        v.append(f"freeze_at is {state.freeze_at}, but the lowest freezing card of the pile is at {first}")

    # -------- phase, turn and pending melds
    if not 0 <= state.turn < variant.players:
        v.append(f"turn {state.turn} is not a seat")
        return v
    side = sides[state.turn]
    if playing:
        if not state.first_turn_done[state.turn]:
            v.append(f"{SEATS[state.turn]} is playing a first turn not marked as started")
        if phase == ANSWER and state.pending:
            v.append("a partner is answering 'may I go out?' after melds were shown (R-ASK-4)")
        if phase == ANSWER and not variant.partners(state.turn):
            v.append(f"{SEATS[state.turn]} plays alone but is waiting for a partner's answer (R-TWO-1, R-THREE-1)")
        if phase == DRAW and state.pending and not state.shown:
            v.append(f"pending {state.pending} in the draw phase without shown melds")
        if state.shown and (phase != DRAW or state.initial[side]):
            v.append("melds shown to take the pack outside the draw phase, or by a side already down")
        for s in range(variant.n_sides):
            side_melds = _melds_of(state, s)
            if state.initial[s] and not side_melds:
                v.append(f"{side_names[s]} has made its initial meld but has no melds")
            if not state.initial[s] and side_melds:
                points = sum(_VALUE[c] for _suit, nat, wild in side_melds for c in nat + wild)
                if s != side:
                    v.append(f"{side_names[s]} has melds but no initial meld, outside its turn (R-MIN-1)")
                elif points != state.pending:
                    v.append(f"{side_names[s]} melded {points} this turn, but pending is {state.pending}")
                elif phase == MELD and points >= state.minimums[s]:
                    v.append(f"{side_names[s]} melded {points}, reaching its minimum, but is not marked "
                             "as down (R-MIN-2)")
        if state.totals != state.deal_totals:
            v.append(f"totals {state.totals} changed during the hand from {state.deal_totals}")
        if history and len(state.hand_results) != state.deal_no:
            v.append(f"{len(state.hand_results)} hand results in deal {state.deal_no}")
    expected_min = [variant.minimum_for(t) for t in state.deal_totals]
    if list(state.minimums) != expected_min:
        v.append(f"minimums {state.minimums}, but deal totals {state.deal_totals} give {expected_min} (R-MIN-1)")

    # -------- the end of a hand: who went out, and the score (R-SCORE-1..3)
    if not playing:
        v.extend(_check_hand_end(state, history))
    if start_totals is not None:
        want = [start_totals[s] + sum(r.sides[s].total for r in state.hand_results) for s in range(variant.n_sides)]
        if list(state.totals) != want:
            v.append(f"totals {state.totals}, but the start {list(start_totals)} plus the hands make {want}")
    return v


def _melds_of(state: State, side: int) -> list[tuple[int, list[int], list[int]]]:
    """A side's melds as ``(suit, naturals, wilds)``: classic melds with suit -1, Samba's from its own
    list (a sequence's suit is 0..3)."""
    smelds = getattr(state, "smelds", None)
    if smelds is not None:
        return [(m.suit, m.naturals, m.wilds) for m in smelds[side]]
    return [(-1, nat, wild) for nat, wild in state.melds[side].values()]


_RUN_RANKS = "456789TJQKA"


def _check_samba_melds(state: State, playing: bool) -> list[str]:
    """Samba's melds, from the card codes (R-SAMBA-3, R-SAMBA-4, R-SAMBA-5): sequences of three to seven
    naturals of one suit in rank order (four to ace), no wild card and no three; sets of one rank with at
    least two naturals and at most the variant's wild cards; no meld in the classic table."""
    v: list[str] = []
    variant = state.variant
    for side in range(variant.n_sides):
        sname = variant.side_names[side]
        if state.melds[side]:
            v.append(f"{sname} has classic melds in a game of Samba")
        for suit, nat, wild in _melds_of(state, side):
            codes = [CARD_CODE[c] for c in nat]
            if suit == WILD_SUIT:  # Bolivia's meld of wild cards (R-BOL-2)
                if not variant.wild_melds or nat or not 3 <= len(wild) <= 7 or any(
                        not _IS_WILD_CODE[c] for c in wild):
                    v.append(f"{sname} has a meld of wild cards {' '.join(CARD_CODE[c] for c in nat + wild)} "
                             "(R-BOL-2)")
                continue
            if suit >= 0:
                ranks = "".join(code[0] for code in codes)
                if wild or not 3 <= len(nat) <= 7 or ranks not in _RUN_RANKS or any(
                        code[1] != "SHDC"[suit] for code in codes):
                    v.append(f"{sname} has a sequence {' '.join(codes + [CARD_CODE[c] for c in wild])} (R-SAMBA-3)")
                continue
            if not codes or len({code[0] for code in codes}) != 1 or any(_IS_WILD_CODE[c] for c in nat):
                v.append(f"{sname} has a set of {' '.join(codes)} (R-MELD-1)")
                continue
            if any(not _IS_WILD_CODE[c] for c in wild):
                v.append(f"{sname} set holds {' '.join(CARD_CODE[c] for c in wild)} as wild cards (R-CARDS-2)")
            if codes[0][0] == "3":
                if wild or not 3 <= len(nat) <= 4 or _IS_RED3_CODE[nat[0]]:
                    v.append(f"{sname} black-three meld {' '.join(codes)} (R-MELD-4)")
                if not playing and (state.went_out is None or variant.sides[state.went_out] != side):
                    v.append(f"{sname} melded black threes but did not go out (R-MELD-4)")
                continue
            if len(nat) < 2 or len(nat) + len(wild) < 3 or len(wild) > variant.set_wild_cap:
                v.append(f"{sname} set of {len(nat)} naturals and {len(wild)} wild cards (R-MELD-2, R-SAMBA-4)")
    return v


def _concealed_by_history(state: State, seat: int) -> bool:
    """Whether ``seat`` went out concealed, from the hand's actions (R-CONC-1).

    Concealed: no meld, addition or taken pack by that seat in an earlier turn of
    the deal; melds in the turn that goes out, with or without a final discard,
    do not count.  Turns move on only by a discard.
    """
    hist = state.history
    start = len(hist)
    while start > 0 and hist[start - 1] != ("deal",):
        start -= 1
    players = state.variant.players
    turn = (state.dealer + 1) % players
    melded_earlier = False
    melded_now = False
    # the last action is the one that went out: its turn is not an "earlier" one
    for a in hist[start:-1]:
        verb = a[0]
        if verb in _MELD_VERBS and turn == seat:
            melded_now = True
        elif verb == "discard":
            if turn == seat and melded_now:
                melded_earlier = True
            melded_now = False
            turn = (turn + 1) % players
    return not melded_earlier


def _check_hand_end(state: State, history: bool = True) -> list[str]:  # noqa: C901 - one place for the end of a hand
    v: list[str] = []
    variant = state.variant
    sides = variant.sides
    SEATS = variant.seats  # noqa: N806 - the seat letters of this variant
    bonuses = variant.bonuses
    result = None
    if history:
        if len(state.hand_results) != state.deal_no + 1:
            return [f"{len(state.hand_results)} hand results at the end of deal {state.deal_no}"]
        result = state.hand_results[-1]
        if result.deal != state.deal_no:
            v.append(f"the last hand result is for deal {result.deal}, not {state.deal_no}")
    empty = [s for s in range(variant.players) if state.hand_size[s] == 0]
    if len(empty) > 1:
        v.append(f"{len(empty)} players hold no cards")
    out = empty[0] if empty else None
    if state.went_out != out:
        v.append(f"went_out is {state.went_out}, but the empty hand is {out} (R-OUT-1)")
    if out is None and state.stock:
        v.append(f"the hand is over with nobody out and {len(state.stock)} cards in the stock; without going out a "
                 "hand ends only when the stock runs out (R-STOCK-1..3)")
    pennies = isinstance(state, PenniesState)
    if isinstance(state, PenniesState):  # the four kinds and the score: pennies_hand_end
        got_all = [result.sides[s].total if result is not None else state.totals[s] - state.deal_totals[s]
                   for s in range(variant.n_sides)]
        v.extend(pennies_hand_end(state, got_all))
    if out is not None:
        # a canasta of deuces does not count for going out (R-ITAL-8)
        canastas = sum(1 for _s, n, w in _melds_of(state, sides[out]) if len(n) >= 4 and len(n) + len(w) >= 7
                       and not (CARD_KIND[n[0]] == DEUCE and variant.deuce_melds))
        # Bolivia: a bolivia is a canasta (R-BOL-2), and an escalera must be among them (R-BOL-5)
        canastas += sum(1 for s, _n, w in _melds_of(state, sides[out]) if s == WILD_SUIT and len(w) >= 7)
        if variant.out_needs_sequence and not any(s >= 0 and len(n) >= 7 for s, n, _w in _melds_of(state, sides[out])):
            v.append(f"{SEATS[out]} went out, but their side has no escalera ({variant.go_out_rule})")
        if canastas < variant.canastas_to_go_out and not pennies:
            v.append(f"{SEATS[out]} went out, but their side has {canastas} canastas, not "
                     f"{variant.canastas_to_go_out} ({variant.go_out_rule})")
        concealed = _concealed_by_history(state, out) if history else bool(state.concealed)
        if concealed != bool(state.concealed):
            v.append(f"{SEATS[out]} went out {'concealed' if concealed else 'not concealed'} by the "
                     f"actions, but the state says concealed={state.concealed} (R-CONC-1)")
    else:
        concealed = False
    deal_totals = state.deal_totals
    for side in range(variant.n_sides):
        sname = variant.side_names[side]
        melds = _melds_of(state, side)
        melded = 0
        bonus = 0
        natural = mixed = sambas = bolivias = 0
        deuce_canasta = False
        went = out is not None and sides[out] == side
        for suit, nat, wild in melds:
            melded += sum(_VALUE[c] for c in nat) + sum(_VALUE[c] for c in wild)
            if suit == WILD_SUIT:  # a bolivia (R-BOL-3)
                if len(wild) >= 7:
                    bolivias += 1
                    bonus += variant.wild_meld_bonus
                continue
            if len(nat) >= 4 and len(nat) + len(wild) >= 7:
                if suit >= 0:
                    sambas += 1
                    bonus += variant.samba_bonus  # a samba (R-SAMBA-9)
                elif CARD_KIND[nat[0]] == DEUCE and variant.deuce_melds:
                    # R-ITAL-10: 3,000 for the side that went out, no bonus at all for the other
                    deuce_canasta = True
                    bonus += bonuses.deuce_canasta if went else 0
                elif wild:
                    mixed += 1
                    bonus += bonuses.mixed_canasta
                else:
                    natural += 1
                    bonus += bonuses.natural_canasta
        # R-ITAL-10: five canastas (four natural, one mixed; or five natural: the larger), ten of any kind
        if natural >= 5:
            bonus += bonuses.five_natural_canastas
        elif natural >= 4 and natural + mixed >= 5:
            bonus += bonuses.five_canastas_one_mixed
        if natural + mixed + deuce_canasta >= 10:
            bonus += bonuses.ten_canastas
        canastas = natural + mixed + sambas + deuce_canasta + bolivias
        red = bonuses.red_threes[len(state.red3[side])]  # classic 100 each, 800 for four (R-RED-4; R-SIX-5)
        if (canastas < variant.red_threes_need_canastas) if variant.red_threes_need_canastas else not melds:
            red = -red  # R-RED-5; R-SAMBA-9: two canastas
        going_out = bonuses.going_out if out is not None and sides[out] == side else 0
        conc = bonuses.concealed if going_out and concealed else 0
        in_hand = sum(_VALUE[c] for seat in range(variant.players) if sides[seat] == side
                      for kind in state.hands[seat] for c in kind)
        # R-BOL-6: a black three left in a hand counts the variant's figure, not its count of 5
        in_hand += sum(len(state.hands[seat][BLACK_THREE]) for seat in range(variant.players)
                       if sides[seat] == side) * (variant.black_three_in_hand - 5)
        want = melded + bonus + red + going_out + conc - in_hand
        got = result.sides[side].total if result is not None else state.totals[side] - deal_totals[side]
        if got != want and not pennies:
            v.append(f"{sname} scored {got} for the hand; the cards give {want} (melded {melded}, canastas "
                     f"{bonus}, red threes {red}, out {going_out}, concealed {conc}, in hand -{in_hand}) "
                     "(R-SCORE-1..3)")
        if state.totals[side] != deal_totals[side] + got:
            v.append(f"{sname} total {state.totals[side]} is not {deal_totals[side]} + {got} (R-SCORE-4)")
    totals = list(state.totals)
    best = sorted(totals, reverse=True)
    over = best[0] >= variant.target and best[0] != best[1]
    if over != (state.phase == GAME_OVER):
        v.append(f"totals {totals}, but the phase is {state.phase} (R-GAME-1, R-GAME-2)")
    if over and state.winner != totals.index(best[0]):
        v.append(f"totals {totals}, but the winner is {state.winner} (R-GAME-2)")
    return v


__all__ = ["check_invariants"]
