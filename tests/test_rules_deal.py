"""Rule tests: the deal (R-DEAL-*), including the upcard chain and its option."""

from __future__ import annotations

import functools
import random as _random
import types

import pytest
from helpers_rules import BLACK_THREE, DEUCE, JOKER, RED_THREE, KING, P, ok, refuse

import canasta_tutor.engine.state as state_module
from canasta_tutor import Game, RuleOptions
from canasta_tutor.engine.cards import CARD_CODE, CARD_KIND
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import format_position
from canasta_tutor.engine.state import SEATS

CHAIN = {
    "wild_or_three": {DEUCE, JOKER, BLACK_THREE, RED_THREE},
    "wild_or_red_three": {DEUCE, JOKER, RED_THREE},
    "wild_only": {DEUCE, JOKER},
}


@functools.lru_cache(maxsize=None)
def _deals(chain: str, black_three: str = "freezes", n: int = 3000):
    game = Game(RuleOptions(upcard_chain=chain, black_three=black_three))
    return [(seed, game.new_initial_state(seed=seed, dealer="E")) for seed in range(n)]


def _find(chain, pred, black_three="freezes"):
    """The first of 3000 seeded deals whose pile fits ``pred`` (dealt one at a time: most are found early)."""
    game = Game(RuleOptions(upcard_chain=chain, black_three=black_three))
    for seed in range(3000):
        state = game.new_initial_state(seed=seed, dealer="E")
        if pred([CARD_KIND[c] for c in state.pile]):
            return state
    pytest.fail("no seed found for the wanted upcard chain")


# ------------------------------------------------------------------ R-DEAL-1
def test_east_deals_first_south_plays_first_R_DEAL_1():
    """R-DEAL-1: the first dealer sits on the right of the highest drawer (South): East deals."""
    for seed in range(5):
        state = Game().new_initial_state(seed=seed)
        assert SEATS[state.dealer] == "E"
        assert state.current_seat == "S"


def _hand_over_position(dealer: str, turn: str) -> str:
    """A hand that ended with nobody out, so when the stock ran out (R-STOCK-1..3): its cards are in the
    hands, the red threes laid out."""
    return f"""
        dealer: {dealer}
        turn: {turn} hand_over
        totals: NS 0 EW 0
        stock: 0
        pile: 9D
        N: 26
        E: 26
        S: 26
        W: 25
        red threes NS: 3H 3D
        red threes EW: 3H 3D
    """


def test_deal_moves_one_seat_to_the_left_each_hand_R_DEAL_1_R_TURN_1():
    """R-DEAL-1, R-TURN-1: after each deal the deal passes clockwise (E, S, W, N, E); the player
    on the new dealer's left plays first."""
    state = P(_hand_over_position("E", "S"))
    seen = []
    for _ in range(5):
        assert state.phase == "hand_over"
        refuse(state, ("draw",), "R-OUT-4")
        ok(state, ("deal",))
        seen.append((SEATS[state.dealer], state.current_seat))
        # end this hand straight away: the same dealer, the hand over
        state = P(_hand_over_position(SEATS[state.dealer], state.current_seat))
    assert seen == [("S", "W"), ("W", "N"), ("N", "E"), ("E", "S"), ("S", "W")]


def test_deal_refused_while_hand_is_played_R_DEAL_1():
    """R-DEAL-1: the next deal comes only after the hand is over."""
    state = Game().new_initial_state(seed=3)
    refuse(state, ("deal",), "R-DEAL-1")


# ------------------------------------------------------------------ R-DEAL-2
def test_seeded_deal_really_shuffles_all_cards_R_DEAL_2():
    """R-DEAL-2: all 108 cards are shuffled from the seed: different seeds give different stocks and
    hands, the same seed the same deal, and the upcard is not always the lowest card."""
    stocks = set()
    upcards = set()
    for seed in range(30):
        state = Game().new_initial_state(seed=seed, dealer="E")
        assert sorted(state.cards_everywhere()) == list(range(108))
        stocks.add(tuple(state.stock))
        upcards.add(state.pile[0])
        again = Game().new_initial_state(seed=seed, dealer="E")
        assert format_position(again) == format_position(state)
    assert len(stocks) == 30
    assert len(upcards) > 10
    assert min(upcards) != max(upcards)
    # the shuffled cards are spread: every kind turns up as an upcard somewhere, including high cards
    kinds = {CARD_KIND[c] for c in upcards}
    assert len(kinds) > 5


def test_next_deal_is_a_new_shuffle_R_DEAL_2():
    """R-DEAL-2: before each deal the cards are shuffled again (deal 2 differs from deal 1)."""
    state = P(_hand_over_position("E", "S"))
    ok(state, ("deal",))
    first = format_position(state)
    state2 = P(_hand_over_position("E", "S").replace("dealer: E", "dealer: E\n        deal: 1"))
    ok(state2, ("deal",))
    assert format_position(state2) != first
    assert sorted(state.cards_everywhere()) == list(range(108))


# ------------------------------------------------------------------ R-DEAL-3
class _NoShuffle(_random.Random):
    """A random generator whose shuffle leaves the deck in order (the cut still happens)."""

    def shuffle(self, x, *args, **kwargs):  # noqa: D401
        return None


def test_eleven_cards_each_one_at_a_time_from_dealers_left_R_DEAL_3(monkeypatch):
    """R-DEAL-3: eleven cards each, one at a time clockwise, first card to the dealer's left and
    the last to the dealer.  With the shuffle disabled the deck is in order (rotated by the cut),
    so each hand holds every fourth card of the dealt block, and the dealer's last card lies next
    to the undealt stock."""
    fake = types.SimpleNamespace(Random=_NoShuffle)
    monkeypatch.setattr(state_module, "random", fake)
    state = Game().new_initial_state(seed=0, dealer="W")  # North plays first
    bottom = state.stock[0]
    deck = [(bottom + i) % 108 for i in range(108)]  # bottom .. top
    stock_and_pile = len(state.stock) + len(state.pile)
    dealt = deck[stock_and_pile:]
    assert len(dealt) == 44
    dealt_from_top = dealt[::-1]
    dealer = state.dealer
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        expected = sorted(dealt_from_top[i::4])
        held = sorted(c for k in state.hands[seat] for c in k)
        reds = sorted(state.red3[seat & 1]) if seat == (dealer + 1) % 4 else []
        assert len(expected) == 11
        if not reds:
            assert held == expected, f"seat {SEATS[seat]}"
    # the last card dealt went to the dealer
    assert dealt_from_top[43] in [c for k in state.hands[dealer] for c in k]
    assert dealt_from_top[0] in [c for k in state.hands[(dealer + 1) % 4] for c in k] + state.red3[
        ((dealer + 1) % 4) & 1]


@pytest.mark.parametrize("seed", range(10))
def test_each_player_gets_eleven_R_DEAL_3(seed):
    """R-DEAL-3: every player holds eleven cards after the deal (red threes of the first player
    are laid out and replaced, R-RED-1, so the count stays eleven)."""
    state = Game().new_initial_state(seed=seed)
    assert [state.hand_size[i] for i in range(4)] == [11, 11, 11, 11]
    assert observe(state, "N").hand_sizes == (11, 11, 11, 11)


# ------------------------------------------------------------------ R-DEAL-4
@pytest.mark.parametrize("seed", range(10))
def test_stock_and_upcard_R_DEAL_4(seed):
    """R-DEAL-4: the undealt cards form the stock; its top card starts the discard pile."""
    state = Game().new_initial_state(seed=seed, dealer="E")
    reds = len(state.red3[0]) + len(state.red3[1])
    assert len(state.stock) + len(state.pile) + reds == 108 - 44
    assert len(state.pile) >= 1
    assert observe(state, "S").stock_size == len(state.stock)


def test_upcard_is_the_stock_top_after_the_deal_R_DEAL_4(monkeypatch):
    """R-DEAL-4: the upcard is the card that lay on top of the stock (next after the dealt cards)."""
    monkeypatch.setattr(state_module, "random", types.SimpleNamespace(Random=_NoShuffle))
    state = Game().new_initial_state(seed=0, dealer="W")
    bottom = state.stock[0]
    deck = [(bottom + i) % 108 for i in range(108)]
    assert state.pile[0] == deck[len(state.stock)]


# ------------------------------------------------------------------ R-DEAL-5
def test_upcard_chain_turns_until_natural_and_cards_stay_in_pile_R_DEAL_5_R_FRZ_2():
    """R-DEAL-5, R-FRZ-2: a wild upcard makes the dealer turn the next card onto it until a natural
    shows; the turned cards stay in the pile under it, and the pile is frozen for everyone."""
    state = _find("wild_or_three", lambda k: len(k) >= 2 and k[0] in (DEUCE, JOKER))
    kinds = [CARD_KIND[c] for c in state.pile]
    assert all(k in CHAIN["wild_or_three"] for k in kinds[:-1])
    assert kinds[-1] < 11
    assert state.freeze_at == 0
    assert state.frozen_for(0) and state.frozen_for(1)
    assert sorted(state.cards_everywhere()) == list(range(108))
    assert "*" in format_position(state).split("pile:")[1].splitlines()[0]


@pytest.mark.parametrize("chain", ["wild_or_three", "wild_or_red_three", "wild_only"])
def test_chain_kinds_by_option_R_DEAL_5(chain):
    """R-DEAL-5 (option upcard_chain): over many deals, every card under the top of the pile is a
    chain card for the option, and the top is a natural card or one that ends the chain."""
    for seed, state in _deals(chain, n=1500):
        kinds = [CARD_KIND[c] for c in state.pile]
        assert all(k in CHAIN[chain] for k in kinds[:-1]), (seed, kinds)
        assert kinds[-1] not in CHAIN[chain], (seed, kinds)


def test_red_three_in_upcard_chain_stays_in_pile_and_freezes_R_DEAL_5_R_FRZ_2():
    """R-DEAL-5, R-FRZ-2: a red three turned up stays in the pile (nobody gets it at the deal,
    no replacement), and it freezes the pile."""
    state = _find("wild_or_three", lambda k: k[0] == RED_THREE)
    assert CARD_KIND[state.pile[0]] == RED_THREE
    assert state.freeze_at == 0
    assert all(state.pile[0] not in r for r in state.red3)
    assert state.pile[0] in state.cards_everywhere()


def test_black_three_in_chain_freezes_by_default_R_DEAL_5_R_FRZ_3():
    """R-DEAL-5, R-FRZ-3: with the default, a black three turned up keeps the chain going and
    freezes the pile."""
    state = _find("wild_or_three", lambda k: k[0] == BLACK_THREE)
    assert len(state.pile) >= 2 and CARD_KIND[state.pile[-1]] < 11
    assert state.freeze_at == 0


def test_black_three_in_chain_does_not_freeze_with_stops_R_DEAL_5_R_FRZ_3():
    """R-DEAL-5, R-FRZ-3 (black_three=stops): a black three in the chain does not freeze the pile."""
    state = _find("wild_or_three", lambda k: k == [BLACK_THREE, k[-1]] and k[-1] < 11, black_three="stops")
    assert state.freeze_at == -1
    assert "*" not in format_position(state).split("pile:")[1].splitlines()[0]


def test_wild_or_red_three_black_three_ends_chain_and_blocks_R_DEAL_5_R_PACK_3():
    """R-DEAL-5 (upcard_chain=wild_or_red_three): a black three ends the chain and stays on top,
    blocking the pile until covered (R-PACK-3)."""
    state = _find("wild_or_red_three", lambda k: k[-1] == BLACK_THREE)
    assert CARD_KIND[state.pile[-1]] == BLACK_THREE
    assert ("draw",) in state.legal_actions()
    assert not any(a[0] == "take" for a in state.legal_actions())
    refuse(state, ("take", BLACK_THREE, 2, 0, 0), "R-PACK-3")


def test_wild_only_red_three_upcard_freezes_and_blocks_R_DEAL_5_R_FRZ_2():
    """R-DEAL-5 (upcard_chain=wild_only): a three ends the chain; a red three left as the upcard
    freezes the pile (R-FRZ-2) and blocks it (R-PACK-3)."""
    state = _find("wild_only", lambda k: k[-1] == RED_THREE)
    assert CARD_KIND[state.pile[-1]] == RED_THREE
    assert state.freeze_at == len(state.pile) - 1 or state.freeze_at == 0
    assert state.freeze_at >= 0
    assert state.frozen_for(0) and state.frozen_for(1)
    refuse(state, ("take", RED_THREE, 2, 0, 0), "R-PACK-3")


def test_wild_only_black_three_upcard_stays_R_DEAL_5():
    """R-DEAL-5 (upcard_chain=wild_only): a black three ends the chain as the top card."""
    state = _find("wild_only", lambda k: k[-1] == BLACK_THREE)
    assert CARD_KIND[state.pile[-1]] == BLACK_THREE
    assert state.freeze_at >= 0  # default black_three=freezes


def test_wild_only_red_three_upcard_goes_to_taker_without_replacement_R_DEAL_5_R_RED_3():
    """R-DEAL-5, R-RED-3 (wild_only): a red three left as the upcard goes, with no replacement, to
    the side that takes the pile."""
    state = P("""
        options: upcard_chain=wild_only
        dealer: E
        turn: S draw
        totals: NS -100 EW 0
        pile: 3H* KD
        N: 11
        E: 11
        S: KS KH AS AH AD 5C 6C 7C 8C 9C TC
        W: 11
    """)
    stock = len(state.stock)
    ok(state, ("take", KING, 2, 0, 0))
    assert [CARD_CODE[c] for c in state.red3[0]] == ["3H"]
    assert len(state.stock) == stock
    assert state.hand_size[2] == 11 - 2
