"""Rule tests: information (R-INFO-*): what one seat's observation exposes, and what it hides."""

from __future__ import annotations

import random
import re

import pytest
from helpers_rules import FIVE, FOUR, KING, NINE, P, ok, refuse

from canasta_tutor import Game
from canasta_tutor.engine.cards import CARD_CODE
from canasta_tutor.engine.observer import observe
from canasta_tutor.engine.state import SEATS


def _random_play(seed, steps):
    state = Game().new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal or state.phase in ("hand_over", "game_over"):
            break
        state.apply(rng.choice(legal))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_whole_pile_visible_to_every_seat_R_INFO_1(seed):
    """R-INFO-1: every player can see the whole discard pile at all times (seen face up)."""
    state = _random_play(seed, 40)
    pile = tuple(CARD_CODE[c] for c in state.pile)
    for seat in SEATS:
        obs = observe(state, seat)
        assert obs.pile == pile
        assert obs.freeze_at == state.freeze_at
        line = next(ln for ln in obs.position_text.splitlines() if ln.startswith("pile:"))
        assert line.replace("*", "").split()[1:] == (list(pile) or ["-"])


@pytest.mark.parametrize("seed", range(6))
def test_counts_minimums_totals_visible_R_INFO_2(seed):
    """R-INFO-2: each side's minimum and total at the start of the hand, every hand's card count and
    the stock count are known to every seat."""
    state = _random_play(seed, 30)
    for seat in SEATS:
        obs = observe(state, seat)
        assert obs.hand_sizes == tuple(state.hand_size)
        assert obs.stock_size == len(state.stock)
        assert obs.minimums == tuple(state.minimums)
        assert obs.deal_totals == tuple(state.deal_totals)


def test_info_for_partner_before_answering_R_INFO_2_R_ASK_2():
    """R-INFO-2, R-ASK-2: the partner about to answer "may I go out?" sees the counts, minimums and
    totals."""
    state = P("""
        dealer: E
        turn: S draw
        totals: NS 1600 EW -20
        pile: 4S 9D
        N: 5C 6C 7C
        E: 11
        S: 5S 5H 5D
        W: 9
        melds NS: QS QH QD QC QS QH QD (natural canasta)
    """)
    ok(state, ("ask",))
    obs = observe(state, "N")
    assert obs.is_my_turn and set(obs.legal_actions) == {("yes",), ("no",)}
    assert obs.hand_sizes == (3, 11, 3, 9)
    assert obs.minimums == (90, 15) and obs.deal_totals == (1600, -20)
    assert obs.stock_size == len(state.stock)


def test_minimum_checked_and_stated_for_the_player_R_INFO_3():
    """R-INFO-3: the program checks the minimum itself and states it when refusing; red threes are
    laid out automatically."""
    state = P("""
        dealer: E
        turn: S meld
        totals: NS 3000 EW 0
        pile: 9D
        N: 11
        E: 11
        S: KS KH KD 5C 6C 7C 8C 9S TS JS 4H
        W: 11
    """)
    refuse(state, ("meld", KING, 3, 0, 0), "R-MIN-1", "120")
    assert observe(state, "S").minimums[0] == 120
    for seed in range(30):
        fresh = Game().new_initial_state(seed=seed)
        assert fresh.hand_counts(fresh.actor)[14] == 0


def test_one_card_hand_is_public_R_INFO_5():
    """R-INFO-5: a player down to one card may say so: every seat sees that hand's count of one."""
    state = P("""
        dealer: E
        turn: W draw
        totals: NS 0 EW 0
        pile: 9D
        N: 5
        E: 11
        S: KS
        W: 11
        melds NS: KH KH KD
    """)
    for seat in SEATS:
        assert observe(state, seat).hand_sizes[2] == 1
        assert "S: 1 card\n" in observe(state, seat).position_text or seat == "S"  # one card, not "1 cards"


def test_other_hands_never_shown_R_INFO_1_R_INFO_2():
    """R-INFO-1, R-INFO-2: an observation never holds another seat's hidden cards: other hands are
    counts (plus cards known from a taken pack)."""
    for seed in range(8):
        state = _random_play(seed, 25)
        for s, seat in enumerate(SEATS):
            obs = observe(state, seat)
            assert list(obs.hand) == state.hand(seat)
            for o, other in enumerate(SEATS):
                line = next(ln for ln in obs.position_text.splitlines() if ln.startswith(f"{other}:"))
                if o == s:
                    continue
                assert re.fullmatch(rf"{other}: \d+ cards( known:( \S+)+)?", line), line
                assert obs.known[o] == tuple(state.known[o])


def test_observation_same_whatever_hidden_cards_R_INFO_2():
    """R-INFO-2: two positions that differ only in North's hidden cards look the same to South."""
    base = """
        dealer: E
        turn: S draw
        totals: NS 0 EW 0
        pile: 4S 9D
        N: {n}
        E: 5C 6C 7C 8C TC JC QC KC AC 4C 4D
        S: 5S 5H 5D 9S 9H KS KH AS AH QS QH
        W: 5D 6D 7D 8D TD JD QD KD AD 6S 6H
    """
    one = P(base.format(n="7S 7H 8S 8H TS TH JS JH 6C 7D 8C"))
    two = P(base.format(n="JK JK 2S 2H 2D 2C AC AD KC KD QC"))
    a, b = observe(one, "S"), observe(two, "S")
    assert a.position_text == b.position_text
    assert a.legal_actions == b.legal_actions
    assert a.hand == b.hand and a.hand_sizes == b.hand_sizes
    assert observe(one, "N").hand != observe(two, "N").hand


def test_known_cards_from_taken_pack_R_INFO_1():
    """R-INFO-1: cards that went into a hand with a taken pack were seen by all: they stay known."""
    state = P("""
        dealer: E
        turn: W draw
        totals: NS 0 EW 0
        pile: 4S 5C 5C 9D
        N: 11
        E: 11
        S: 11
        W: 9S 9H 6D 7D 8D TD JD QD KD AD 4H
        melds EW: QS QH QC
    """)
    ok(state, ("take", NINE, 2, 0, 0))
    obs = observe(state, "S")
    assert obs.known[3][FIVE] == 2 and obs.known[3][FOUR] == 1
    w_line = next(ln for ln in obs.position_text.splitlines() if ln.startswith("W:"))
    assert "known:" in w_line and w_line.count(" 5") >= 2
    ok(state, ("discard", FIVE))
    assert observe(state, "N").known[3][FIVE] == 1
