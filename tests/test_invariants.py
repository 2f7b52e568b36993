"""check_invariants: silent on real play, loud on deliberately broken states."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from canasta_tutor import Game, RuleOptions
from canasta_tutor.notation.actions import format_action
from canasta_tutor.engine.cards import BLACK_THREE, CARD_KIND, DEUCE, JOKER, RED_THREE
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.notation.record import start_totals


def play_until(seed: int, stop, max_actions: int = 5000, options: RuleOptions | None = None):
    rng = random.Random(seed)
    state = Game(options or RuleOptions()).new_initial_state(seed)
    for _ in range(max_actions):
        if stop(state):
            return state
        state.apply_unchecked(rng.choice(state.legal_actions()))
    raise AssertionError("condition never met")


def new_messages(broken, original) -> list[str]:
    before = set(check_invariants(original))
    return [m for m in check_invariants(broken) if m not in before]


@pytest.fixture(scope="module")
def with_melds():
    """A meld-phase state where the side to play has a meld with room for a wild card."""
    return play_until(4, lambda s: s.phase == "meld" and any(
        k < 11 and len(m[1]) == 0 for k, m in s.melds[s.turn & 1].items()) and s.hand_size[s.turn] > 3)


@pytest.fixture(scope="module")
def hand_over():
    return play_until(6, lambda s: s.phase == "hand_over")


@pytest.mark.parametrize("options", ["", "black_three=stops", "wild_limit=half", "upcard_chain=wild_only"])
def test_invariants_hold_in_random_play(options: str) -> None:
    """Every state of random play satisfies every invariant, under each rule option."""
    opts = RuleOptions.parse(options)
    rng = random.Random(99)
    for game_seed in range(100, 104):
        state = Game(opts).new_initial_state(game_seed)
        begin = start_totals(state)
        assert check_invariants(state, begin) == []
        hands = 0
        while state.phase != "game_over" and hands < 4:
            action = rng.choice(state.legal_actions())
            state.apply_unchecked(action)
            problems = check_invariants(state, begin)
            assert problems == [], (game_seed, state.deal_no, len(state.history), format_action(action))
            hands += state.phase in ("hand_over", "game_over")


def test_fresh_deals_satisfy_invariants() -> None:
    for seed in range(50):
        assert check_invariants(Game().new_initial_state(seed)) == []


def test_detects_a_missing_card(with_melds) -> None:
    """R-CARDS-1: 108 cards."""
    broken = with_melds.copy()
    broken.stock.pop()
    assert any("107 cards" in m for m in new_messages(broken, with_melds))


def test_detects_a_duplicated_card(with_melds) -> None:
    broken = with_melds.copy()
    broken.stock[0] = broken.stock[1]
    msgs = new_messages(broken, with_melds)
    assert any("twice" in m for m in msgs)


def test_detects_a_meld_with_four_wild_cards(with_melds) -> None:
    """R-MELD-2: at most three wild cards in a meld."""
    broken = with_melds.copy()
    side = broken.turn & 1
    k = next(k for k, m in broken.melds[side].items() if k < 11 and not m[1])
    wilds = [c for c in broken.stock if CARD_KIND[c] in (JOKER, DEUCE)][:4]
    for c in wilds:
        broken.stock.remove(c)
        broken.melds[side][k][1].append(c)
    msgs = new_messages(broken, with_melds)
    assert any("4 wild cards" in m and "R-MELD-2" in m for m in msgs), msgs


def test_detects_a_wrong_card_in_a_meld(with_melds) -> None:
    """R-MELD-1: naturals are all of the meld's rank."""
    broken = with_melds.copy()
    side = broken.turn & 1
    k = next(k for k in broken.melds[side] if k < 11)
    other = next(c for c in broken.stock if CARD_KIND[c] < 11 and CARD_KIND[c] != k)
    broken.stock.remove(other)
    broken.melds[side][k][0].append(other)
    assert any("as a natural" in m for m in new_messages(broken, with_melds))


def test_detects_a_meld_of_one_natural(with_melds) -> None:
    broken = with_melds.copy()
    side = broken.turn & 1
    k = next(k for k in broken.melds[side] if k < 11)
    nat = broken.melds[side][k][0]
    broken.stock.extend(nat[1:])
    del nat[1:]
    assert any("R-MELD-2" in m or "R-MELD-1" in m for m in new_messages(broken, with_melds))


def test_detects_black_threes_melded_without_going_out(with_melds) -> None:
    """R-MELD-4: black threes go down only in the turn that goes out."""
    broken = with_melds.copy()
    threes = [c for c in broken.stock if CARD_KIND[c] == BLACK_THREE][:3]
    assert len(threes) == 3, "the fixture's stock no longer holds three black threes: choose another seed"
    for c in threes:
        broken.stock.remove(c)
    broken.melds[broken.turn & 1][BLACK_THREE] = [threes, []]
    assert any("R-MELD-4" in m for m in new_messages(broken, with_melds))


def test_detects_a_red_three_kept_in_hand(with_melds) -> None:
    """R-RED-1/R-RED-2: a red three is laid out, never kept after the first turn."""
    broken = with_melds.copy()
    seat = broken.turn
    red = next((c for c in broken.stock + broken.pile if CARD_KIND[c] == RED_THREE), None)
    if red is None:
        red = broken.red3[0].pop() if broken.red3[0] else broken.red3[1].pop()
    elif red in broken.stock:
        broken.stock.remove(red)
    else:
        broken.pile.remove(red)
    broken.hands[seat][RED_THREE].append(red)
    broken.hand_size[seat] += 1
    assert any("red three after their first turn" in m for m in new_messages(broken, with_melds))


def test_detects_a_wrong_hand_size(with_melds) -> None:
    broken = with_melds.copy()
    broken.hand_size[0] += 1
    assert any("hand_size" in m for m in new_messages(broken, with_melds))


def test_detects_a_wrong_freeze(with_melds) -> None:
    """R-FRZ-2: a wild card in the pile freezes it."""
    broken = with_melds.copy()
    joker = next(c for c in broken.stock if CARD_KIND[c] == JOKER)
    broken.stock.remove(joker)
    broken.pile.insert(0, joker)
    broken.freeze_at = -1
    assert any("freeze_at" in m for m in new_messages(broken, with_melds))


def test_detects_known_cards_beyond_the_hand(with_melds) -> None:
    broken = with_melds.copy()
    broken.known[1][0] = broken.hand_counts(1)[0] + 1
    assert any("known to the table" in m for m in new_messages(broken, with_melds))


def test_detects_an_unknown_phase(with_melds) -> None:
    broken = with_melds.copy()
    broken.phase = "lunch"
    assert check_invariants(broken) == ["unknown phase 'lunch'"]


def test_detects_a_wrong_hand_score(hand_over) -> None:
    """R-SCORE-1..3: the hand's score is recounted from the cards."""
    broken = hand_over.copy()
    result = broken.hand_results[-1]
    ns = replace(result.sides[0], total=result.sides[0].total + 10)
    broken.hand_results[-1] = replace(result, sides=(ns, result.sides[1]))
    broken.totals[0] += 10
    msgs = new_messages(broken, hand_over)
    assert any("R-SCORE" in m and "NS scored" in m for m in msgs), msgs


def test_detects_totals_that_do_not_add_up(hand_over) -> None:
    broken = hand_over.copy()
    broken.totals[1] += 5
    assert any("R-SCORE-4" in m for m in check_invariants(broken))
    assert any("plus the hands" in m for m in check_invariants(hand_over, start_totals=(100, 0)))


def test_detects_a_missed_end_of_game(hand_over) -> None:
    """R-GAME-1: a side at 5,000 ends the game."""
    broken = hand_over.copy()
    broken.totals[0] += 6000
    broken.deal_totals[0] += 6000
    broken.minimums[0] = 120
    msgs = check_invariants(broken)
    assert any("R-GAME-1" in m for m in msgs), msgs


def test_detects_an_empty_hand_in_play(with_melds) -> None:
    """R-OUT-4: nobody plays on with an empty hand."""
    broken = with_melds.copy()
    seat = (broken.turn + 1) % 4
    for kind in broken.hands[seat]:
        broken.stock.extend(kind)
        kind.clear()
    broken.hand_size[seat] = 0
    broken.known[seat] = [0] * len(broken.known[seat])
    assert any("R-OUT-4" in m for m in new_messages(broken, with_melds))


def test_check_is_read_only(hand_over) -> None:
    before = (hand_over.history[:], [k[:] for h in hand_over.hands for k in h], hand_over.totals[:])
    check_invariants(hand_over)
    assert before == (hand_over.history, [k[:] for h in hand_over.hands for k in h], hand_over.totals)
