"""Bolivia's end of turn (R-BOL-2, R-BOL-5) in canasta_tutor/engine/samba_turn.py against an exhaustive search.

As tests/test_samba_turn.py does for Samba: the reference tries every move the engine allows, in every
order, and the fast answer must equal it on random meld-phase positions, here with melds of wild cards
(new ones and the side's own, bolivias among them), wild cards in the hand, and going out that needs an
escalera among the two canastas."""

from __future__ import annotations


import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from canasta_tutor.engine import samba
from canasta_tutor.engine.bolivia import BoliviaState
from canasta_tutor.engine.cards import CARD_KIND, NUM_KINDS, card_ids_by_code, normalize_code
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.samba import WILD_SUIT, SambaMeld
from canasta_tutor.engine.samba_turn import wild_fits
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.variants import get_variant
from test_fuzz import sized
from test_samba_turn import exhaustive  # the reference, with the state's own test of going out

BOLIVIA = get_variant("bolivia")
RANKS = "456789TJQKA"
SUITS = "SHDC"


@st.composite
def positions(draw: st.DrawFn) -> BoliviaState:
    """A meld-phase position: South holds a few cards near the ranks and suits of the side's melds, wild
    cards often among them, and the side may have melds of wild cards and sequences near seven."""
    low = draw(st.integers(0, 6))
    ranks = RANKS[low:low + 5]
    suits = SUITS[:draw(st.integers(1, 2))]
    pool = {code: list(ids) for code, ids in card_ids_by_code(BOLIVIA.num_cards).items()}

    def take(code: str) -> int | None:
        ids = pool[normalize_code(code)]
        return ids.pop() if ids else None

    melds: list[SambaMeld] = []
    for _ in range(draw(st.integers(0, 4))):
        what = draw(st.sampled_from(["set", "run", "wild"]))
        if what == "set":
            r = draw(st.sampled_from(ranks))
            n = draw(st.integers(2, 7))
            w = draw(st.integers(0 if n >= 3 else 1, 2))
            nat = [take(r + draw(st.sampled_from(SUITS))) for _ in range(n)]
            wild = [take(draw(st.sampled_from(["JK", "2S", "2H"]))) for _ in range(w)]
            if None in nat or None in wild:
                continue
            melds.append(SambaMeld(-1, [c for c in nat if c is not None], [c for c in wild if c is not None]))
        elif what == "run":
            s = draw(st.sampled_from(suits))
            length = draw(st.integers(3, 7))
            lo = draw(st.integers(max(0, low - 2), min(11 - length, low + 4)))
            cards = [take(RANKS[k] + s) for k in range(lo, lo + length)]
            if None in cards:
                continue
            melds.append(SambaMeld(SUITS.index(s), [c for c in cards if c is not None]))
        else:
            wild = [take(draw(st.sampled_from(["JK", "2S", "2D"]))) for _ in range(draw(st.integers(3, 7)))]
            if None in wild:
                continue
            melds.append(SambaMeld(WILD_SUIT, [], [c for c in wild if c is not None]))
    codes = [r + s for r in ranks for s in suits] + ["JK", "2S", "2C", "3S", "3C"]
    hand = [take(c) for c in draw(st.lists(st.sampled_from(codes), min_size=1, max_size=8))]
    state = Game(variant=BOLIVIA).new_initial_state(seed=5, dealer="E")
    assert isinstance(state, BoliviaState)
    hands: list[list[list[int]]] = [[[] for _ in range(NUM_KINDS)] for _ in range(4)]
    for card in hand:
        if card is not None:
            hands[2][CARD_KIND[card]].append(card)
    state.hands = hands
    state.hand_size = [sum(map(len, h)) for h in hands]
    assume(state.hand_size[2] > 0)  # an empty hand has gone out
    state.known = [[0] * NUM_KINDS for _ in range(4)]
    state.smelds = [melds, []]
    state.turn = 2
    state.phase = "meld"
    state.initial = [draw(st.booleans()), False]
    state.pending = 0 if state.initial[0] else draw(st.sampled_from([0, 15, 40, 45]))
    state.minimums = [draw(st.sampled_from([50, 90, 120, 150])), 50]
    state.must_out = draw(st.booleans())
    state.answer = draw(st.sampled_from([None, True, False]))
    return state


def _agrees(state: BoliviaState) -> None:
    seat = state.turn
    fast = state._discard_ok(seat) or state._turn_can_end(seat)
    assert fast == exhaustive(state), (state.hands[seat], state.smelds[0], state.must_out, state.answer)


@settings(max_examples=sized(200), deadline=None)
@given(positions())
def test_the_exact_test_equals_the_exhaustive_search_R_BOL_2_R_BOL_5(state: BoliviaState) -> None:
    _agrees(state)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(positions())
def test_the_exact_test_equals_the_exhaustive_search_on_many_positions(state: BoliviaState) -> None:
    _agrees(state)


def test_wild_fits_places_wild_cards_in_melds_of_three_to_seven_R_BOL_2() -> None:
    """One or two wild cards make no new meld; three to seven make one, seven a bolivia; a meld on the table
    takes cards up to seven; ten make a bolivia and a meld of three."""
    assert wild_fits((), 2) == (0, -1, -1)
    assert wild_fits((), 7)[3:] == (0, 0, 0, 0, 1)
    assert wild_fits((6,), 1) == (0, 1)
    assert wild_fits((), 10)[10] == 1
    assert wild_fits((3, 3), 8)[8] == 2


@pytest.mark.slow
def test_self_play_positions_agree_with_the_exhaustive_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every end-of-turn question a seeded random Bolivia self-play asks (hands up to ten cards) gets the
    reference's answer."""
    fast = BoliviaState._turn_can_end
    asked: list[bool] = []

    def checked(self: BoliviaState, seat: int) -> bool:
        answer = fast(self, seat)
        if self.hand_size[seat] <= 10:
            assert answer == exhaustive(self), (self.hands[seat], self.smelds[self.sides[seat]], self.must_out)
            asked.append(answer)
        return answer

    monkeypatch.setattr(BoliviaState, "_turn_can_end", checked)
    samba._SETTLED.clear()
    run_selfplay(6, seed=3, check=False, variant="bolivia")
    samba._SETTLED.clear()
    assert True in asked and False in asked
