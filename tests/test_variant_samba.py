"""Samba (R-SAMBA-1..10, rulings 15 and 16): each rule's behaviour in the engine, a checked self-play soak
and the notation of the new actions.

The positions are built by hand: South (seat 2, side NS) is to play, holding the cards named; the
side's melds, the pile and the turn flags are set as each test needs; every other card lies in the
other hands and the stock, so each state holds the whole Samba deck.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.engine.cards import (
    BLACK_THREE,
    CARD_KIND,
    CARD_VALUE,
    DEUCE,
    JOKER,
    NUM_KINDS,
    RED_THREE,
    card_ids_by_code,
    normalize_code,
    parse_kind,
)
from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine import samba
from canasta_tutor.engine.samba import SambaMeld, SambaState
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.variants import get_variant

SAMBA = get_variant("samba")
K, Q, SEVEN, EIGHT, NINE, TEN = (parse_kind(t) for t in ("K", "Q", "7", "8", "9", "T"))
S, H, D, C = range(4)


def build(hand: str, melds: tuple[tuple[str, str], ...] = (), pile: str = "5C", phase: str = "meld",
          initial: bool = True, opponents: tuple[tuple[str, str], ...] = (), reds: str = "",
          frozen: bool = False) -> SambaState:
    """South to play holding ``hand``; NS's melds as ``("seq" | "set", "cards")``; ``pile`` bottom to top."""
    state = Game(variant=SAMBA).new_initial_state(seed=5, dealer="E")
    assert isinstance(state, SambaState)
    pool = {code: list(ids) for code, ids in card_ids_by_code(SAMBA.num_cards).items()}

    def take(code: str) -> int:
        return pool[normalize_code(code)].pop()

    def meld_list(spec: tuple[tuple[str, str], ...]) -> list[SambaMeld]:
        out = []
        for kind, cards in spec:
            ids = [take(c) for c in cards.split()]
            nat = [c for c in ids if CARD_KIND[c] not in (JOKER, DEUCE)]
            wild = [c for c in ids if CARD_KIND[c] in (JOKER, DEUCE)]
            suit = "SHDC".index(normalize_code(cards.split()[0])[1]) if kind == "seq" else -1
            out.append(SambaMeld(suit, sorted(nat, key=lambda c: CARD_KIND[c]) if suit >= 0 else nat, wild))
        return out

    state.smelds = [meld_list(melds), meld_list(opponents)]
    state.red3 = [[take(c) for c in reds.split()], []]
    state.pile = [take(c) for c in pile.split()]
    south = [take(c) for c in hand.split()]
    rest = [c for ids in pool.values() for c in ids if CARD_KIND[c] != RED_THREE]
    rest += [c for ids in pool.values() for c in ids if CARD_KIND[c] == RED_THREE]
    hands: list[list[list[int]]] = [[[] for _ in range(NUM_KINDS)] for _ in range(4)]
    for card in south:
        hands[2][CARD_KIND[card]].append(card)
    for seat in (0, 1, 3):
        for _ in range(5):
            card = rest.pop(0)
            hands[seat][CARD_KIND[card]].append(card)
    state.hands = hands
    state.hand_size = [sum(map(len, h)) for h in hands]
    state.known = [[0] * NUM_KINDS for _ in range(4)]
    state.stock = rest
    state.turn = 2
    state.phase = phase
    state.first_turn_done = [True] * 4
    state.initial = [initial, bool(opponents)]
    state.freeze_at = 0 if frozen else -1
    state.pending = 0
    return state


def rule_of(state: SambaState, action: tuple) -> str | None:
    err = state.explain(action)
    return None if err is None else err.rule


# ------------------------------------------------------------------ R-SAMBA-1
def test_r_samba_1_three_decks_and_six_jokers() -> None:
    """R-SAMBA-1: 162 cards, six jokers, six red threes; every one accounted for after the deal."""
    state = Game(variant=SAMBA).new_initial_state(seed=3)
    cards = state.cards_everywhere()
    assert len(cards) == len(set(cards)) == 162 == SAMBA.num_cards
    assert sum(1 for c in cards if CARD_KIND[c] == JOKER) == 6
    assert sum(1 for c in cards if CARD_KIND[c] == RED_THREE) == 6
    assert check_invariants(state) == []


# ------------------------------------------------------------------ R-SAMBA-2
def test_r_samba_2_fifteen_cards_and_a_draw_of_two() -> None:
    """R-SAMBA-2: fifteen cards each; a draw from the stock takes two, and one discard ends the turn."""
    state = Game(variant=SAMBA).new_initial_state(seed=8)
    seat = state.turn
    waiting = [s for s in range(4) if s != seat]
    assert all(state.hand_size[s] == 15 for s in waiting)  # their red threes are still in hand
    before = state.hand_size[seat]
    state.apply(("draw",))
    assert state.hand_size[seat] == before + 2
    discard = next(a for a in state.legal_actions() if a[0] == "discard")
    state.apply(discard)
    assert state.hand_size[seat] == before + 1 and state.turn == (seat + 1) % 4


# ------------------------------------------------------------------ R-SAMBA-3
def test_r_samba_3_a_sequence_of_one_suit_is_a_meld() -> None:
    """R-SAMBA-3: three naturals of one suit in a row are melded as a sequence and grow at either end."""
    state = build("7H 8H 9H 6H TH 4C 5C", melds=(("set", "KS KH KD"),))
    assert ("run", H, SEVEN) in state.legal_actions()
    state.apply(("run", H, SEVEN))
    assert state.smelds[0][1].is_sequence
    assert ("put", 1, parse_kind("6")) in state.legal_actions() and ("put", 1, TEN) in state.legal_actions()
    state.apply(("put", 1, parse_kind("6")))
    state.apply(("put", 1, TEN))
    run = state.samba_melds(0)[1].naturals
    assert [CARD_KIND[c] for c in run] == [parse_kind(t) for t in "6 7 8 9 T".split()]
    assert len(state.samba_melds(0)[1]) == 5 and check_invariants(state) == []


def test_r_samba_3_no_wild_card_no_three_and_not_past_ace() -> None:
    """R-SAMBA-3: a sequence takes no wild card and no three, runs from 4 to ace, and needs one suit."""
    state = build("JK 2C 3S 3C QS KS AS 7D 8H 9H 4C 5C", melds=(("seq", "8S 9S TS"), ("set", "KH KD KC")))
    assert rule_of(state, ("put", 0, JOKER)) == "R-SAMBA-3"
    assert rule_of(state, ("put", 0, DEUCE)) == "R-SAMBA-3"
    assert rule_of(state, ("put", 0, BLACK_THREE)) == "R-SAMBA-3"
    assert rule_of(state, ("run", S, parse_kind("Q"))) is None  # Q K A: the ace is highest
    assert rule_of(state, ("run", S, parse_kind("K"))) == "R-SAMBA-3"  # K A and on: no room above the ace
    assert rule_of(state, ("run", H, SEVEN)) == "R-SAMBA-3"  # 7D 8H 9H: not one suit
    assert rule_of(state, ("put", 0, parse_kind("Q"))) == "R-SAMBA-3"  # J of spades missing: not an end
    assert state.explain(("run", S, parse_kind("K"))).reason.startswith("A sequence holds natural cards from 4")


def test_r_samba_3_seven_is_a_samba_closed_and_a_canasta() -> None:
    """R-SAMBA-3: at seven cards the sequence is a samba: it counts as a canasta and takes nothing more."""
    state = build("TS 4S 5C 6C", melds=(("seq", "4S 5S 6S 7S 8S 9S"),))
    state.apply(("put", 0, TEN))
    meld = state.samba_melds(0)[0]
    assert len(meld) == 7 and meld.is_canasta and state.side_canastas(0) == 1
    state2 = build("JS 5C 6C 7C", melds=(("seq", "4S 5S 6S 7S 8S 9S TS"),))
    assert rule_of(state2, ("put", 0, parse_kind("J"))) == "R-SAMBA-3"
    assert ("put", 0, parse_kind("J")) not in state2.legal_actions()
    assert "samba" in state2.explain(("put", 0, parse_kind("J"))).reason


# ------------------------------------------------------------------ R-SAMBA-4 (ruling 15)
def test_r_samba_4_two_wild_cards_at_most_in_a_set() -> None:
    """R-SAMBA-4: a set holds two wild cards at most; a third is refused, as is a take with three."""
    state = build("JK 2C 2D KC 4C 5C 6H", melds=(("set", "KS KH KD"),))
    state.apply(("put", 0, JOKER))
    state.apply(("put", 0, DEUCE))
    assert rule_of(state, ("put", 0, DEUCE)) == "R-SAMBA-4"
    assert ("put", 0, DEUCE) not in state.legal_actions() and ("put", 0, K) in state.legal_actions()
    take = build("QS QH JK JK 2C 4C 5C 6H", pile="8C QD", phase="draw", initial=False)
    assert rule_of(take, ("take", Q, 2, 2, 1)) == "R-SAMBA-4"


def test_r_samba_4_ruling_15_no_wild_card_on_a_canasta() -> None:
    """R-SAMBA-4, ruling 15: once a set is a canasta no wild card joins it (a natural still may)."""
    state = build("JK 2C KC 4C 5C 6H", melds=(("set", "KS KH KD KC KS KH KD"),))
    assert rule_of(state, ("put", 0, JOKER)) == "R-SAMBA-4"
    assert rule_of(state, ("put", 0, DEUCE)) == "R-SAMBA-4"
    assert "canasta" in state.explain(("put", 0, JOKER)).reason
    assert ("put", 0, K) in state.legal_actions()


# ------------------------------------------------------------------ R-SAMBA-5
def test_r_samba_5_several_sets_of_a_rank_and_joining_them() -> None:
    """R-SAMBA-5: a second set of kings is allowed beside the first, and the two may be joined."""
    state = build("KC KC KD 4C 5C 6H 9D", melds=(("set", "KS KH JK"),))
    assert ("meld", K, 3, 0, 0) in state.legal_actions()
    state.apply(("meld", K, 3, 0, 0))
    assert [m.kind for m in state.samba_melds(0)] == [K, K]
    assert ("join", 0, 1) in state.legal_actions()
    state.apply(("join", 0, 1))
    assert len(state.samba_melds(0)) == 1 and len(state.samba_melds(0)[0]) == 6
    assert check_invariants(state) == []


def test_r_samba_5_either_set_joins_the_other() -> None:
    """R-SAMBA-5: two sets of a rank join either way, and the listing offers exactly the joins the check
    accepts: the set joined into keeps its number."""
    state = build("KC KC KD 4C 5C 6H 9D", melds=(("set", "KS KH JK"),))
    state.apply(("meld", K, 3, 0, 0))
    n = len(state.samba_melds(0))
    for i in range(n):
        for i2 in range(n):
            a = ("join", i, i2)
            assert (a in state.legal_actions()) == (state.explain(a) is None), a
    assert {("join", 0, 1), ("join", 1, 0)} <= set(state.legal_actions())
    state.apply(("join", 1, 0))
    assert len(state.samba_melds(0)) == 1 and len(state.samba_melds(0)[0]) == 6
    assert check_invariants(state) == []


def test_r_samba_5_a_join_must_give_a_valid_set() -> None:
    """R-SAMBA-5 (with R-SAMBA-4): joining is refused across ranks, for sequences, and past two wild cards;
    the classic "add to the meld of a rank" names no meld and is refused."""
    state = build("4C 5C 6H 9D", melds=(("set", "KS KH JK 2C"), ("set", "KD KC JK"), ("set", "QS QH QD"),
                                          ("seq", "7H 8H 9H")))
    assert rule_of(state, ("join", 0, 1)) == "R-SAMBA-4"
    assert rule_of(state, ("join", 1, 2)) == "R-SAMBA-5"
    assert rule_of(state, ("join", 2, 3)) == "R-SAMBA-5"
    assert rule_of(state, ("add", K, K)) == "R-SAMBA-5"


# ------------------------------------------------------------------ R-SAMBA-6
def test_r_samba_6_a_natural_pair_always_takes_the_pack() -> None:
    """R-SAMBA-6: with a natural pair of the top card's rank the pack is taken even when frozen."""
    state = build("QS QH 4C 5C 6H 9D", melds=(("set", "KS KH KD"),), pile="2C 8D QD", phase="draw", frozen=True)
    assert ("take", Q, 2, 0, 0) in state.legal_actions()
    wild = build("QS QH JK 4C 5C 6H 9D", melds=(("set", "KS KH KD"),), pile="8D QD", phase="draw")
    assert rule_of(wild, ("take", Q, 2, 1, 0)) == "R-SAMBA-6"  # once down: the wild card goes on after
    state.apply(("take", Q, 2, 0, 0))
    assert state.samba_melds(0)[-1].kind == Q and state.phase == "meld" and not state.pile


def test_r_samba_6_never_one_natural_and_one_wild_card() -> None:
    """R-SAMBA-6: the top card is never taken with one natural and one wild card."""
    state = build("QS JK 2C 4C 5C 6H 9D", melds=(("set", "KS KH KD"),), pile="8D QD", phase="draw")
    assert rule_of(state, ("take", Q, 1, 1, 0)) == "R-SAMBA-6"
    assert rule_of(state, ("take", Q, 1, 0, 1)) == "R-SAMBA-6"
    assert not [a for a in state.legal_actions() if a[0] == "take"]


def test_r_samba_6_the_top_card_alone_onto_an_unfinished_meld() -> None:
    """R-SAMBA-6: when the pile is not frozen against the side, the top card alone goes onto one of its
    sets or sequences that is not yet a canasta; never onto a canasta, and never when frozen."""
    state = build("4C 5C 6H 9D", melds=(("set", "QS QH QC"), ("seq", "9C TC JC"),
                                         ("set", "QS QH QD QC QS QH QD")), pile="8C QD", phase="draw")
    legal = state.legal_actions()
    assert ("takeon", Q, 0) in legal and ("takeon", Q, 2) not in legal
    assert rule_of(state, ("takeon", Q, 2)) == "R-SAMBA-6"
    assert rule_of(state, ("takeon", Q, 1)) == "R-SAMBA-6"  # the queen of diamonds: not the clubs' suit
    seq = build("4C 5C 6H 9D", melds=(("seq", "9D TD JD"),), pile="8C QD", phase="draw")
    assert ("takeon", Q, 0) in seq.legal_actions()
    seq.apply(("takeon", Q, 0))
    assert len(seq.samba_melds(0)[0]) == 4 and seq.samba_melds(0)[0].high == Q
    frozen = build("4C 5C 6H 9D", melds=(("set", "QS QH QC"),), pile="2C 8C QD", phase="draw", frozen=True)
    assert rule_of(frozen, ("takeon", Q, 0)) == "R-SAMBA-6"
    assert "natural pair" in frozen.explain(("takeon", Q, 0)).reason


def test_r_samba_6_no_sequence_is_started_or_extended_with_hand_cards_from_the_pile() -> None:
    """R-SAMBA-6: the top card never starts a sequence, nor extends one together with a hand card: the only
    ways offered are a natural pair (a set) and the top card alone onto a meld."""
    state = build("TD JD 4C 5C 6H", melds=(("seq", "5D 6D 7D"),), pile="8C 9D", phase="draw")
    takes = [a for a in state.legal_actions() if a[0] in ("take", "takeon")]
    assert takes == []  # 9D would start T-J-9 or need 8D: neither is a way to take the pack
    assert rule_of(state, ("take", NINE, 0, 0, 0)) == "R-SAMBA-6"


# ------------------------------------------------------------------ R-SAMBA-7
def test_r_samba_7_going_out_needs_two_canastas() -> None:
    """R-SAMBA-7: with one canasta the last card may not go; with a samba and a canasta it may."""
    one = build("4C", melds=(("set", "KS KH KD KC KS KH KD"), ("set", "QS QH QD")))
    assert rule_of(one, ("discard", parse_kind("4"))) == "R-SAMBA-7"
    two = build("4C", melds=(("set", "KS KH KD KC KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH JH")))
    assert rule_of(two, ("discard", parse_kind("4"))) is None
    two.apply(("discard", parse_kind("4")))
    assert two.went_out == 2 and two.phase in ("hand_over", "game_over")
    assert check_invariants(two) == []


def test_r_samba_7_melding_the_last_card_needs_two_canastas() -> None:
    """R-SAMBA-7: melding away the whole hand is going out, refused with fewer than two canastas."""
    state = build("QC", melds=(("set", "KS KH KD KC KS KH KD"), ("set", "QS QH QD")))
    assert rule_of(state, ("put", 1, Q)) == "R-SAMBA-7"
    state2 = build("QC", melds=(("set", "KS KH KD KC KS KH KD"), ("set", "QS QH QD QC QS QH")))
    assert rule_of(state2, ("put", 1, Q)) is None  # the seventh queen makes the second canasta


# ------------------------------------------------------------------ R-SAMBA-8 (ruling 16)
@pytest.mark.parametrize(("total", "need"), [(-5, 15), (0, 50), (1500, 90), (3000, 120), (6995, 120),
                                             (7000, 160), (12000, 160)])
def test_r_samba_8_minimums(total: int, need: int) -> None:
    """R-SAMBA-8, ruling 16: 120 from 3,000 to 6,995 and 160 from 7,000 up, in the deal's minimum too."""
    assert SAMBA.minimum_for(total) == need
    state = Game(variant=SAMBA).new_initial_state(seed=2, totals=(total, 0))
    assert state.minimums[0] == need


def test_r_samba_8_the_minimum_is_enforced() -> None:
    """R-SAMBA-8 with R-MIN-1: at 7,000 a first meld worth less than 160 is refused."""
    state = build("KS KH KD AS AH AD 4C 5C 6H", initial=False)
    state.minimums = [160, 50]
    assert rule_of(state, ("meld", K, 3, 0, 0)) == "R-MIN-1"  # 30 + 60 for the aces: 90 < 160
    state.minimums = [50, 50]
    assert rule_of(state, ("meld", K, 3, 0, 0)) is None


# ------------------------------------------------------------------ R-SAMBA-9
def test_r_samba_9_bonus_table() -> None:
    """R-SAMBA-9: 1,500 a samba, 500 and 300 for set canastas, 200 for going out and no concealed bonus,
    100 a red three when the side has two canastas."""
    state = build("4C", melds=(("seq", "5H 6H 7H 8H 9H TH JH"), ("set", "KS KH KD KC KS KH KD"),
                               ("set", "QS QH QD QC QS JK 2C")), reds="3H 3D")
    state.apply(("discard", parse_kind("4")))
    ns = state.hand_results[-1].sides[0]
    assert (ns.sambas, ns.natural_canastas, ns.mixed_canastas) == (1, 1, 1)
    assert ns.going_out == 200 and ns.concealed == 0 and ns.red_threes == 200
    cards = (5 + 5 + 5 + 10 + 10 + 10 + 10) + 70 + (50 + 50 + 20)
    north = sum(CARD_VALUE[c] for kind in state.hands[0] for c in kind)
    assert ns.melded == cards and ns.in_hand == -north
    assert ns.total == 1500 + 500 + 300 + 200 + 200 + cards - north
    assert check_invariants(state) == []


def test_r_samba_9_concealed_earns_nothing_more() -> None:
    """R-SAMBA-9: going out concealed earns the 200 for going out and nothing more."""
    state = build("4C", melds=(("seq", "5H 6H 7H 8H 9H TH JH"), ("set", "KS KH KD KC KS KH KD")))
    state.apply(("discard", parse_kind("4")))
    ns = state.hand_results[-1].sides[0]
    assert state.concealed and ns.going_out == 200 and ns.concealed == 0


@pytest.mark.parametrize(("reds", "canastas", "value"), [("3H", 2, 100), ("3H 3D 3H 3D 3H", 2, 500),
                                                          ("3H 3D 3H 3D 3H 3D", 2, 1000), ("3H 3D", 1, -200),
                                                          ("3H 3D 3H 3D 3H 3D", 0, -1000)])
def test_r_samba_9_red_threes_need_two_canastas(reds: str, canastas: int, value: int) -> None:
    """R-SAMBA-9: 100 a red three, 1,000 for all six, counted for the side only with two canastas and taken
    off its score otherwise."""
    melds = (("set", "KS KH KD KC KS KH KD"), ("set", "AS AH AD AC AS AH AD"))[:canastas] + (("set", "QS QH QD"),)
    state = build("4C 5C 6H", melds=melds, reds=reds)
    assert state.score_hand().sides[0].red_threes == value


# ------------------------------------------------------------------ R-SAMBA-10
def test_r_samba_10_the_game_is_10000() -> None:
    """R-SAMBA-10: the hand that brings a side to 10,000 ends the game; 9,995 does not."""
    for start, over in ((10000, True), (9995, False)):
        state = build("4C", melds=(("seq", "5H 6H 7H 8H 9H TH JH"), ("set", "KS KH KD KC KS KH KD")))
        trial = state.copy()
        trial.apply(("discard", parse_kind("4")))
        gain = trial.hand_results[-1].sides[0].total
        state.totals = [start - gain, 0]
        state.deal_totals = state.totals[:]
        state.apply(("discard", parse_kind("4")))
        assert state.totals[0] == start
        assert (state.phase == "game_over") == over
        assert SAMBA.target == 10000


# ------------------------------------------------------------------ the turn and the pack
def test_initial_meld_counts_sequences_and_shown_melds() -> None:
    """R-SAMBA-3 with R-MIN-1 and R-PACK-5: a sequence counts toward the initial meld, and may be shown
    before taking the pack with a natural pair."""
    state = build("JD QD KD 8S 8H 4C 5C 6H", pile="9C 8D", phase="draw", initial=False)
    state.minimums = [50, 50]
    assert rule_of(state, ("take", EIGHT, 2, 0, 0)) == "R-PACK-5"  # 8 + 8 + 8: 30 < 50
    assert ("run", D, parse_kind("J")) in state.legal_actions()
    state.apply(("run", D, parse_kind("J")))
    assert state.shown and rule_of(state, ("draw",)) == "R-PACK-5"
    state.apply(("take", EIGHT, 2, 0, 0))
    assert state.initial[0] and check_invariants(state) == []


def test_asking_is_after_the_draw() -> None:
    """R-ASK-1 in Samba: the question is offered after the draw, when the hand could go out (see the
    module's software choices); and after "yes" the player must go out (R-ASK-3)."""
    canastas = (("set", "KS KH KD KC KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH JH"))
    before = build("4C 5C", melds=canastas, phase="draw")
    assert rule_of(before, ("ask",)) == "R-ASK-1"
    can = build("4C KC", melds=canastas)
    assert ("ask",) in can.legal_actions()
    cannot = build("4C 9D 5S", melds=canastas)
    assert rule_of(cannot, ("ask",)) == "R-ASK-1"
    can.apply(("ask",))
    can.apply(("yes",))
    assert rule_of(can, ("discard", K)) == "R-ASK-3"
    assert can.legal_actions() == [("put", 0, K)]


def test_refusals_never_raise_on_odd_actions() -> None:
    """Every refusal is an IllegalActionError with a rule of the book, for well- and ill-formed actions."""
    from canasta_tutor.engine.rulebook import rule

    state = build("KS KH 7H 8H 9H JK 4C", melds=(("set", "QS QH QD"), ("seq", "4D 5D 6D")))
    odd = [("run", 9, 0), ("run", 0, 40), ("put", 9, K), ("put", 0, 99), ("join", 0, 0), ("join", 5, 1),
           ("takeon", K, 0), ("take", K, 2, 0, 0), ("meld", RED_THREE, 3, 0, 0), ("add", K, K), ("bogus",),
           ("put", 1, JOKER), ("run", 0, "x")]
    for a in odd:
        err = state.explain(a)
        assert err is not None and rule(err.rule) is not None, a


# ------------------------------------------------------------------ soak
@pytest.mark.slow
def test_checked_selfplay_soak_has_no_violations() -> None:
    """A seeded random self-play soak of Samba, every action checked: 0 invariant violations."""
    report = run_selfplay(12, seed=11, check=True, variant="samba")
    assert report.violations == 0, report.messages
    assert report.actions > 300


def test_legal_actions_are_the_accepted_candidates() -> None:
    """The listing is the candidates explain() accepts, a copy plays on the same, and play never gets stuck."""
    rng = random.Random(4)
    state = Game(variant=SAMBA).new_initial_state(seed=4)
    verbs: set[str] = set()
    for _ in range(250):
        legal = state.legal_actions()
        assert legal and legal == [a for a in state._candidates() if state.explain(a) is None]
        verbs.update(a[0] for a in legal)
        melds = [a for a in legal if a[0] not in ("discard", "ask", "draw")]
        action = rng.choice(melds) if melds and rng.random() < 0.8 else rng.choice(legal)
        twin = state.copy()
        state.apply(action)
        twin.apply(action)
        samba._SETTLED.clear()  # a listing never depends on earlier searches
        assert twin.legal_actions() == state.legal_actions()
        assert check_invariants(state) == []
        if state.phase == "game_over":
            break
    assert {"draw", "discard", "meld", "put"} <= verbs


# ------------------------------------------------------------------ notation
_samba_actions = st.one_of(
    st.tuples(st.just("run"), st.integers(0, 3), st.integers(0, 8)),
    st.tuples(st.just("put"), st.integers(0, 60), st.integers(0, NUM_KINDS - 1)),
    st.tuples(st.just("join"), st.integers(0, 60), st.integers(0, 60)),
    st.tuples(st.just("takeon"), st.integers(0, NUM_KINDS - 1), st.integers(0, 60)),
)


@given(_samba_actions)
def test_samba_notation_round_trips(action: tuple) -> None:
    """format_action and parse_action are inverse on Samba's actions."""
    assert parse_action(format_action(action)) == action


@pytest.mark.parametrize(("text", "words"), [("run 7H 8H", "three cards"), ("run 7H 8S 9H", "one suit"),
                                             ("run QH KH AH 2H", "three cards"), ("run KH AH 2H", "one suit"),
                                             ("put K on 0", "meld number"), ("put K m1", "put one card"),
                                             ("join m1 m2", "join two sets"), ("put K on mx", "meld number"),
                                             ("run ZZ 8H 9H", "not a card")])
def test_samba_notation_errors_quote_the_input(text: str, words: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert repr(text) in str(err.value) and words in str(err.value)


def test_samba_notation_examples() -> None:
    assert parse_action("run 9h 8h th") == ("run", H, EIGHT)
    assert format_action(("put", 0, JOKER)) == "put JK on m1" and parse_action("put JK on #1") == ("put", 0, JOKER)
    assert parse_action("join m3 into m1") == ("join", 0, 2)
    assert format_action(("takeon", Q, 1)) == "take Q on m2" and parse_action("take Q on 2") == ("takeon", Q, 1)


# ------------------------------------------------------------------ positions, records, the command line
def _played(seed: int, steps: int) -> SambaState:
    """A Samba game played by a seeded random player that prefers sequences and numbered melds."""
    rng = random.Random(seed)
    state = Game(variant=SAMBA).new_initial_state(seed=seed)
    for _ in range(steps):
        if state.phase == "game_over":
            break
        legal = state.legal_actions()
        melds = [a for a in legal if a[0] in ("run", "put", "join", "takeon", "meld", "take")]
        state.apply(rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(legal))
    assert isinstance(state, SambaState)
    return state


def test_positions_round_trip_with_sequences() -> None:
    """A Samba position (variant line, numbered melds, sequences, several sets of a rank) reads back to
    the same text and the same legal actions."""
    from canasta_tutor.notation.position import format_position, parse_position

    seen_sequence = False
    for steps in (60, 140, 230, 320):
        state = _played(7, steps)
        text = format_position(state)
        assert text.splitlines()[1] == "variant: samba"
        back = parse_position(text)
        assert isinstance(back, SambaState) and format_position(back) == text
        assert back.legal_actions() == state.legal_actions()
        seen_sequence |= any(m.is_sequence for side in back.smelds for m in side)
    assert seen_sequence


def test_position_refuses_a_bad_sequence() -> None:
    """R-SAMBA-3 in a position: a 'sequence' with a gap, two suits or a wild card is refused, naming the line."""
    from canasta_tutor.engine.errors import ImpossiblePositionError
    from canasta_tutor.notation.position import format_position, parse_position

    text = format_position(_played(3, 0))
    for bad in ("7H 8H TH", "7H 8S 9H", "7H 8H 9H JK", "KH AH 2H"):
        with pytest.raises(ImpossiblePositionError) as err:
            parse_position(text + f"melds NS: {bad}\n")
        assert err.value.field == "melds NS" and "a sequence is three to seven natural cards" in str(err.value)


def test_records_round_trip() -> None:
    """A Samba record (variant line, run/put/join/take-on actions) replays to the same game."""
    from canasta_tutor.notation.record import format_record, parse_record, replay

    state = _played(9, 400)
    text = format_record(state)
    assert "variant: samba" in text and " run " in text and " put " in text
    assert replay(parse_record(text)).history == state.history


def test_cli_deal_and_selfplay(capsys: pytest.CaptureFixture[str]) -> None:
    """canasta-tutor deal --variant samba prints a Samba position of fifteen-card hands; selfplay plays it."""
    from canasta_tutor.cli.main import main

    assert main(["deal", "--variant", "samba", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "variant: samba" in out and "stock: 99" in out
    assert main(["selfplay", "--variant", "samba", "--hands", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "variant: samba" in out and "invariant violations: 0" in out


# ------------------------------------------------------------------ bots and the hint
def test_bots_play_seeded_games_to_the_end_of_a_hand() -> None:
    """The rules-of-thumb bot plays legal Samba, melds sequences, keeps sets to two wild cards, and seeded
    hands finish with no exception and no invariant violation; the hint searches and its move is legal."""
    from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot
    from canasta_tutor.hint import hint
    from canasta_tutor.engine.observer import observe

    runs = 0
    searched = 0
    for seed in range(2):
        state = Game(variant=SAMBA).new_initial_state(seed=seed)
        bot = RulesOfThumbBot()
        steps = 0
        while state.deal_no < 1 and state.phase != "game_over":
            assert state.actor is not None
            obs = observe(state, state.actor)
            action = bot(obs)
            assert action in state.legal_actions()
            if steps % 20 == 0:
                advice = hint(obs, samples=1)
                assert advice.best in obs.legal_actions
                assert advice.searched == (len(advice.estimates) > 1)
                searched += advice.searched
            runs += action[0] == "run"
            state.apply(action)
            steps += 1
            assert check_invariants(state) == []
            assert all(len(m.wilds) <= 2 for side in state.smelds for m in side)
        assert state.hand_results
    assert runs > 0 and searched > 0


# Slow (a whole Samba hand with two searching experts): `make test` runs it; the quick loop keeps Samba's
# seeded hint and search tests.
@pytest.mark.slow
def test_the_expert_plays_a_seeded_hand_legally() -> None:
    """The expert searches Samba (its own candidates, Samba's verbs among them): two experts against two
    rules-of-thumb bots play a seeded hand to its end, every move legal and no invariant violated."""
    from canasta_tutor.bots.expert import ExpertBot
    from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot, decide
    from canasta_tutor.engine.observer import observe

    state = Game(variant=SAMBA).new_initial_state(seed=1)
    bots = [RulesOfThumbBot(), ExpertBot(seed=1, iterations=2)] * 2
    overruled = 0
    while state.deal_no < 1 and state.phase != "game_over":
        assert state.actor is not None
        obs = observe(state, state.actor)
        action = bots[state.actor](obs)
        assert action in state.legal_actions()
        overruled += state.actor % 2 == 1 and action != decide(obs)[0]
        state.apply(action)
        assert check_invariants(state) == []
    assert state.hand_results and overruled > 0  # the search did overrule the rules of thumb


def test_the_bot_melds_a_sequence_when_it_holds_three_in_suit() -> None:
    """R-SAMBA-3 for the bot: holding 7H 8H 9H after the draw, it melds the sequence first."""
    from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot
    from canasta_tutor.engine.observer import observe

    state = build("7H 8H 9H KS KH 4C 5D 6S", melds=(("set", "QS QH QD"),))
    assert RulesOfThumbBot()(observe(state, 2)) == ("run", H, SEVEN)


def test_observation_carries_the_numbered_melds() -> None:
    """An observation gives Samba's melds in order, and the search's state built from it has them too."""
    from canasta_tutor.bots.sampling import state_from_observation
    from canasta_tutor.engine.observer import observe

    state = build("4C 5C 6H", melds=(("set", "QS QH QD"), ("seq", "7H 8H 9H")))
    obs = observe(state, 2)
    assert obs.samba_melds[0] == ((-1, ("QS", "QH", "QD")), (H, ("7H", "8H", "9H")))
    built = state_from_observation(obs)
    assert isinstance(built, SambaState)
    assert [repr(m) for m in built.smelds[0]] == [repr(m) for m in state.smelds[0]]


# ------------------------------------------------------------------ the table's view model
def test_view_model_shows_sequences_and_numbered_sets() -> None:
    """The table's view model lists Samba's melds by number: a sequence with its run of ranks and suit (a samba
    at seven), and two sets of one rank side by side (R-SAMBA-3, R-SAMBA-5)."""
    from canasta_tutor.engine.observer import observe
    from canasta_tutor.tutor.view import TableUI, build_view

    state = build("4C 5C 6H", melds=(("set", "QS QH QD"), ("seq", "7H 8H 9H"), ("set", "QC QC JK"),
                                      ("seq", "4S 5S 6S 7S 8S 9S TS")))
    view = build_view(observe(state, 2), TableUI())
    ours = view["melds"][0]
    assert [m["kind"] for m in ours] == ["m1", "m2", "m3", "m4"]
    assert [m["sequence"] for m in ours] == [False, True, False, True]
    assert ours[1]["label"] == "7\u20139\u2665" and ours[1]["cards"] == ["7H", "8H", "9H"]
    assert ours[1]["name"] == "7 to 9 of hearts" and ours[1]["canasta"] is None
    assert ours[0]["label"] == ours[2]["label"] == "Q" and ours[2]["w"] == 1
    assert ours[3]["canasta"] == "samba" and ours[3]["label"] == "4\u201310\u2660"


def test_explain_go_out_needs_two_canastas() -> None:
    """R-SAMBA-7 for the table's "go out" button: possible with a samba and a canasta, refused with one."""
    two = build("KC 4C", melds=(("set", "KS KH KD KC KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH JH")))
    assert two.explain_go_out(2) is None
    one = build("KC 4C", melds=(("set", "KS KH KD KC KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH")))
    err = one.explain_go_out(2)
    assert err is not None and err.rule == "R-SAMBA-7"


# ------------------------------------------------------------------ the table session
def test_the_table_session_plays_samba_melds() -> None:
    """The table's buttons make Samba's actions: a selected run becomes a sequence (then one card at a time),
    a click on meld m1 puts the selected card there, and a selected set beside one of its rank is a new set."""
    from canasta_tutor.tutor.session import TableSession

    state = build("7H 8H 9H TH QC QC QD 6H 4C 5D", melds=(("set", "QS QH QD"),))
    session = TableSession(state=state, seat="S", variant="samba")
    session.select([session.index_of(c) for c in ("7H", "8H", "9H", "TH")])
    session.press("meld")
    ours = session.state.smelds[0]
    assert len(ours) == 2 and ours[1].is_sequence and len(ours[1]) == 4
    session.select([session.index_of("6H")])
    session.press("add", to="m2")
    assert len(session.state.smelds[0][1]) == 5
    session.select([session.index_of("QC"), session.index_of("QC", 1), session.index_of("QD")])
    session.press("meld")
    assert [m.kind for m in session.state.smelds[0]] == [Q, SEVEN - 1, Q]
    session.select([session.index_of("4C")])
    assert "R-MELD-8" in session.press("add", to="m9")  # the engine's refusal: no meld m9
    assert "not a meld" in session.press("add", to="K")
    view = session.view()
    assert [m["kind"] for m in view["melds"][0]] == ["m1", "m2", "m3"]


def _samba_intents(session: object, action: tuple) -> list[dict]:
    """The widget messages a learner sends for a Samba action: select the cards, then press the button; a join
    is the Join button and a click on each set, a take onto a meld a click on Take and on the meld."""
    from canasta_tutor.engine.cards import ALL_CARD_CODES, RANK_CHARS

    verb = action[0]
    if verb in ("draw", "pass"):
        return [{"intent": "draw"}]
    if verb in ("ask", "yes", "no"):
        return [{"intent": verb}]
    if verb == "deal":
        return [{"intent": "new_hand"}]
    if verb == "join":
        if session.view()["buttons"]["join"]["title"] == format_action(action):  # type: ignore[attr-defined]
            return [{"intent": "join"}]  # the only pair of sets: one press
        return [{"intent": "join"}, {"intent": "join", "meld": f"m{action[2] + 1}"},
                {"intent": "join", "meld": f"m{action[1] + 1}"}]
    if verb == "takeon":
        return [{"intent": "clear"}, {"intent": "take", "to": f"m{action[2] + 1}"}]
    state = session.state  # type: ignore[attr-defined]
    hand = [ALL_CARD_CODES[c] for c in session.hand_cards()]  # type: ignore[attr-defined]
    wanted: list[str] = []  # a rank char, or a full code
    special = {JOKER: "JK", DEUCE: "2", BLACK_THREE: "3"}
    if verb == "discard":
        wanted = [RANK_CHARS[action[1] + 2] if action[1] < 11 else special[action[1]]]
    elif verb == "run":
        wanted = [RANK_CHARS[action[2] + i + 2] + "SHDC"[action[1]] for i in range(3)]
    elif verb in ("meld", "take"):
        k, n, j, d = action[1:]
        rank = RANK_CHARS[k + 2] if k < 11 else "3"
        wanted = [rank] * n + ["JK"] * j + ["2"] * d
    elif verb == "put":
        meld = state.smelds[state.sides[state.turn]][action[1]]
        w = action[2]
        token = special.get(w, RANK_CHARS[w + 2] if w < 11 else "")
        wanted = [token + "SHDC"[meld.suit] if meld.is_sequence else token]
    idx: list[int] = []
    for want in wanted:
        for i, code in enumerate(hand):
            fits = code == want if len(want) == 2 else code[0] == want and code != "JK"
            if want == "3":
                fits = code in ("3S", "3C")
            if fits and i not in idx:
                idx.append(i)
                break
    msgs: list[dict] = [{"intent": "select", "indices": idx}] if idx or verb != "takeon" else []
    if verb == "put":
        msgs.append({"intent": "add", "to": f"m{action[1] + 1}"})
    else:
        msgs.append({"intent": {"run": "meld", "takeon": "take"}.get(verb, verb)})
    return msgs


def test_a_hand_is_played_through_the_widgets_messages() -> None:
    """The card table plays Samba: a whole hand through the widget's messages (no browser), the learner's
    moves chosen by the rules-of-thumb bot; the view lists the numbered melds and sequences."""
    from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot
    from canasta_tutor.engine.observer import observe
    from canasta_tutor.ui.table import CanastaTable

    table = CanastaTable(seed=1, variant="samba", bot_delay=0)
    learner = RulesOfThumbBot()
    played = 0
    sequences = 0
    while table.state.phase not in ("hand_over", "game_over") and played < 300:
        assert table.state.current_seat == "S"
        action = learner(observe(table.state, "S"))
        for msg in _samba_intents(table.session, action):
            out = table.handle(msg)
            assert not out.startswith("[R-") and not out.startswith("[refused]"), (action, msg, out)
        played += 1
        view = table.session.view()
        ours = table.state.smelds[0]
        assert [m["kind"] for m in view["melds"][0]] == [f"m{i + 1}" for i in range(len(ours))]
        sequences = max(sequences, sum(m["sequence"] for m in view["melds"][0]))
    assert table.state.phase in ("hand_over", "game_over") and played > 3
    assert check_invariants(table.state) == []
    assert sequences > 0, "no sequence was melded through the table"


def test_a_match_plays_samba_deals() -> None:
    """canasta-tutor match --variant samba deals Samba (a four-seat variant of two sides was dealt as the classic
    game): two policies that play alike tie every duplicate deal."""
    from canasta_tutor.bots.expert import rot_policy
    from canasta_tutor.bots.match import deal_state, play_deal

    assert isinstance(deal_state(3, SAMBA), SambaState)
    assert play_deal(3, rot_policy, rot_policy, SAMBA) == 0.0


def test_empty_stock_must_take_onto_a_meld_but_need_not_start_one() -> None:
    """R-STOCK-2 and R-STOCK-3 with R-SAMBA-6: at an empty stock a top card that goes onto an unfinished meld
    must be taken; one that would only start a new set with a pair may be declined."""
    onto = build("4C 5C 6H", melds=(("seq", "9D TD JD"),), pile="8C QD", phase="draw")
    onto.stock = []
    assert rule_of(onto, ("pass",)) == "R-STOCK-2" and ("takeon", Q, 0) in onto.legal_actions()
    pair = build("QS QH 5C 6H", melds=(("seq", "9C TC JC"),), pile="8C QD", phase="draw")
    pair.stock = []
    assert ("pass",) in pair.legal_actions() and ("take", Q, 2, 0, 0) in pair.legal_actions()


def test_one_card_cannot_take_a_one_card_pile() -> None:
    """R-PACK-7 in Samba: a player holding one card may not add a lone top card to a meld from a pile of one."""
    state = build("4C", melds=(("set", "QS QH QC"),), pile="QD", phase="draw")
    assert rule_of(state, ("takeon", Q, 0)) == "R-PACK-7"


_FUZZ_STATES = [_played(5, n) for n in (0, 1, 30, 80, 150)]
_any_action = st.one_of(
    st.tuples(st.sampled_from(["run", "put", "join", "takeon", "add", "discard"]), st.integers(-3, 20),
              st.integers(-3, 20)),
    st.tuples(st.sampled_from(["meld", "take"]), st.integers(-2, 16), st.integers(-1, 5), st.integers(-1, 3),
              st.integers(-1, 3)),
    st.tuples(st.sampled_from(["draw", "ask", "yes", "no", "pass", "deal", "bogus"])),
)


@given(st.integers(0, len(_FUZZ_STATES) - 1), _any_action)
def test_explain_never_raises_and_agrees_with_the_listing(which: int, action: tuple) -> None:
    """Any tuple gets None or a refusal citing a rule of the book, and None exactly for the listed actions."""
    from canasta_tutor.engine.rulebook import rule

    state = _FUZZ_STATES[which]
    err = state.explain(action)
    assert (err is None) == (action in state.legal_actions())
    if err is not None:
        assert rule(err.rule) is not None and err.reason
