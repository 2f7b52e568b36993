"""The exact end-of-turn test of Samba (canasta_tutor/engine/samba_turn.py) against an exhaustive search of the moves.

The reference below tries every meld, sequence, addition and join the engine allows, in every order
(remembering positions already settled), with no bound: the slow answer.  The fast answer must equal
it on random meld-phase positions: small hands against tables with sets, sequences and sambas, and
every combination of the turn flags (a partner's yes or no, black threes melded, the initial meld to
reach)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from canasta_tutor.engine import samba, samba_turn
from canasta_tutor.engine.cards import CARD_KIND, NUM_KINDS, card_ids_by_code, normalize_code
from canasta_tutor.engine.game import Game
from canasta_tutor.notation.position import parse_position
from canasta_tutor.engine.samba import SambaMeld, SambaState
from canasta_tutor.engine.samba_turn import rank_sets
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.variants import get_variant
from test_fuzz import sized

SAMBA = get_variant("samba")
RANKS = "456789TJQKA"
SUITS = "SHDC"


def exhaustive(state: SambaState) -> bool:
    """Whether the meld-phase turn can end legally: every move sequence, no bound (the reference; going out asks
    the state's own ``side_can_go_out``, so Bolivia's escalera, R-BOL-5, is tested by the same reference)."""
    seat = state.turn
    side = state.sides[seat]
    known: dict[tuple[Any, ...], bool] = {}

    def go(s: SambaState) -> bool:
        if s._discard_ok(seat):
            return True
        key = s._key()
        if key in known:
            return known[key]
        ok = False
        for a in s._meld_moves(seat):
            if s._why_not_meld_local(seat, a) is not None:
                continue
            child = s._probe_copy()
            child._do(a)
            if child.hand_size[seat] == 0:
                ok = child.answer is not False and child.side_can_go_out(side)
            else:
                ok = go(child)
            if ok:
                break
        known[key] = ok
        return ok

    return go(state)


@st.composite
def positions(draw: st.DrawFn) -> SambaState:
    """A meld-phase position: South holds a few cards near the ranks and suits of the side's melds."""
    low = draw(st.integers(0, 6))
    ranks = RANKS[low:low + 5]
    suits = SUITS[:draw(st.integers(1, 2))]
    pool = {code: list(ids) for code, ids in card_ids_by_code(SAMBA.num_cards).items()}

    def take(code: str) -> int | None:
        ids = pool[normalize_code(code)]
        return ids.pop() if ids else None

    melds: list[SambaMeld] = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            r = draw(st.sampled_from(ranks))
            n = draw(st.integers(2, 7))
            w = draw(st.integers(0 if n >= 3 else 1, 2))
            nat = [take(r + draw(st.sampled_from(SUITS))) for _ in range(n)]
            wild = [take(draw(st.sampled_from(["JK", "2S", "2H"]))) for _ in range(w)]
            if None in nat or None in wild:
                continue
            melds.append(SambaMeld(-1, [c for c in nat if c is not None], [c for c in wild if c is not None]))
        else:
            s = draw(st.sampled_from(suits))
            length = draw(st.integers(3, 7))
            lo = draw(st.integers(max(0, low - 2), min(11 - length, low + 4)))
            cards = [take(RANKS[k] + s) for k in range(lo, lo + length)]
            if None in cards:
                continue
            melds.append(SambaMeld(SUITS.index(s), [c for c in cards if c is not None]))
    codes = [r + s for r in ranks for s in suits] + ["JK", "2S", "3S", "3C"]
    hand = [take(c) for c in draw(st.lists(st.sampled_from(codes), min_size=1, max_size=8))]
    state = Game(variant=SAMBA).new_initial_state(seed=5, dealer="E")
    assert isinstance(state, SambaState)
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
    state.minimums = [draw(st.sampled_from([50, 90, 120])), 50]
    state.must_out = draw(st.booleans())
    state.answer = draw(st.sampled_from([None, True, False]))
    return state


def _agrees(state: SambaState) -> None:
    seat = state.turn
    fast = state._discard_ok(seat) or state._turn_can_end(seat)
    assert fast == exhaustive(state)


@settings(max_examples=sized(150), deadline=None)
@given(positions())
def test_the_exact_test_equals_the_exhaustive_search(state: SambaState) -> None:
    _agrees(state)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(positions())
def test_the_exact_test_equals_the_exhaustive_search_on_many_positions(state: SambaState) -> None:
    _agrees(state)


def test_rank_sets_follow_the_set_rules_R_SAMBA_4_R_SAMBA_5() -> None:
    """The sets of one rank: a join alone can make a canasta (R-SAMBA-5), a canasta takes no wild card
    (R-SAMBA-4), one natural makes no set, two naturals and two wild cards make one."""
    assert rank_sets(((3, 0), (4, 0)), 0, 0, 2) == 1
    assert rank_sets(((7, 0),), 0, 1, 2) == -1
    assert rank_sets(((5, 1),), 0, 1, 2) == 1  # the wild card goes on before the set is a canasta
    assert rank_sets((), 1, 0, 2) == -1
    assert rank_sets((), 2, 2, 2) == 0
    assert rank_sets((), 5, 2, 2) == 1


@pytest.mark.slow
def test_self_play_positions_agree_with_the_exhaustive_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every end-of-turn question a seeded random Samba self-play asks (hands up to ten cards, where the
    reference is quick enough) gets the reference's answer."""
    fast = SambaState._turn_can_end
    asked: list[bool] = []

    def checked(self: SambaState, seat: int) -> bool:
        answer = fast(self, seat)
        if self.hand_size[seat] <= 10:
            assert answer == exhaustive(self), (self.hands[seat], self.smelds[self.sides[seat]], self.must_out)
            asked.append(answer)
        return answer

    monkeypatch.setattr(SambaState, "_turn_can_end", checked)
    samba._SETTLED.clear()
    run_selfplay(6, seed=3, check=False, variant="samba")
    samba._SETTLED.clear()
    assert True in asked and False in asked


def test_the_quick_set_test_gives_the_programme_s_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick test that proves going out with sets alone (tried first, for big hands after a "yes") never
    changes an answer: every end-of-turn question of a seeded random Samba self-play, hands of any size, and
    the same question with the player bound to go out, gets the programme's own answer with the quick test
    switched off.  The quick test must have decided some of them."""
    quick = samba_turn._sets_go_out
    fast = SambaState._turn_can_end
    fired: list[bool] = []  # what the quick test said during the current question
    decided: list[bool] = []

    def spy(*args: Any) -> bool:
        fired.append(quick(*args))
        return fired[-1]

    def compared(self: SambaState, seat: int) -> bool:
        bound = self._probe_copy()
        bound.must_out, bound.answer = True, None
        answers = []
        for s in (self, bound):
            fired.clear()
            answers.append(fast(s, seat))
            decided.append(True in fired)
            with monkeypatch.context() as m:
                m.setattr(samba_turn, "_sets_go_out", lambda *args: False)
                assert answers[-1] == fast(s, seat), (s.hands[seat], s.smelds[s.sides[seat]], s.must_out)
        return answers[0]

    monkeypatch.setattr(samba_turn, "_sets_go_out", spy)
    monkeypatch.setattr(SambaState, "_turn_can_end", compared)
    samba._SETTLED.clear()
    run_selfplay(8, seed=11, check=False, variant="samba")
    samba._SETTLED.clear()
    assert decided.count(True) >= 50 and False in decided


_BLACK_THREES = """canasta-tutor position
variant: samba
seed: 978451
deal: 1
players: S, E, W, N
dealer: S
turn: S meld melded
totals: NS 1695 EW 1555
stock: 14
pile: KH
N: 3S TH TD TC KS KD KC KC AH
E: 4C TD KD AH
S: 3S 3C 3C 3C 5S 6S 7D 8D 9S 9H 9C 9C TD QH QC KH AS JK
W: 4S 4S 4H 4D 5D 6S 6D 8H 8D 8C 9H TH QD QC KS 2D
melds NS: 5S 5H 5D 5C JK; 7S 7D 7C 7C; 4S 4H 4D 4D 4C JK; 6S 6H 6H 6H 6D 6D 6C 6C 2S JK (mixed canasta); \
AS AD AC AC AC 2C JK (mixed canasta); 8H 8D 8C 2H 2D; JS JS JC; 7S 7D 2C; JD QD KD; JH JH JC
melds EW: TS TS TS TH TC TC 2S JK (mixed canasta); QS QH QH QD QC 2H 2H (mixed canasta); JS JH JD JD JC 2D; \
7S 7H 7H 7H 7C; AS AD AD; 4C 5C 6C; 9S 9S 9H 9D 9D 2C; KS KH KC; 8S 8S 8H 8C
red threes NS: 3D 3D 3H
red threes EW: 3H 3D 3H
melded-before: N E S W
"""

_ASK = """canasta-tutor position
variant: samba
seed: 978451
deal: 2
players: S, E, W, N
dealer: W
turn: N meld
totals: NS 3350 EW 3755
stock: 43
pile: JC 2D* QS 6H 5C 8D 9C JC
N: 4S 4S 6D 7D 7C 8S 8H 8C 9H 9D 9C TS TH TD TC JH JC AD AD
E: 3S 3C 4D 5H 7S 8S 8D 8C JH KS AD AC JK
S: 3C 4H 4C 5H 8H TC JS
W: 3S 3S 4D 5S 6D 8S 9H TH JS
melds NS: 4S 4H 4H 4D 4C; AS AS AH AC JK; KS KH KH KD 2D; TS TS TC; 7S 7H 7C; 9S 9S 9D; 8D 9D TD
melds EW: QH QH QD QD QD QC JK (mixed canasta); 5S 5S 5D 5D 2S 2H; KS KD KC 2S 2C; 6S 6S 6C 6C 2C; \
7H 7C 2S 2H; AS AH AC 2D
red threes NS: 3D
red threes EW: 3H 3H 3H 3D
melded-before: N E S W
"""


@pytest.mark.parametrize(("text", "action"), [(_BLACK_THREES, ("meld", 13, 3, 0, 0)), (_ASK, ("ask",))])
def test_long_turns_that_must_go_out_offer_every_legal_move_R_MELD_4_R_ASK_1(text: str, action: tuple) -> None:
    """Positions from a random self-play where the old search, bounded at 200 (60 for the question)
    positions, refused a legal move: melding black threes (then the player must go out, R-MELD-4) with
    eighteen cards, and asking "may I go out?" (R-ASK-1) with nineteen.  Both are offered now, and the
    exhaustive search confirms the turn can then end by going out."""
    state = parse_position(text)
    assert isinstance(state, SambaState)
    samba._SETTLED.clear()
    assert action in state.legal_actions()
    probe = state._probe_copy()
    if action == ("ask",):
        probe.must_out = True
    else:
        probe._do(action)
    assert probe.must_out and exhaustive(probe)


def test_the_quick_set_test_puts_no_wild_card_on_a_canasta_R_SAMBA_4() -> None:
    """A set of six natural fours takes one wild card, which makes it a canasta; a second wild card has
    nowhere to go (R-SAMBA-4).  Holding a four, a five and two jokers, with that set, a samba and two
    canastas needed, the player can't go out: the quick test must not say it can (it once counted room
    for two wild cards on the set of six)."""
    from canasta_tutor.engine.cards import KIND_TOKENS

    four, five = KIND_TOKENS.index("4"), KIND_TOKENS.index("5")
    hand = tuple((1, 0, 0, 0) if k in (four, five) else (0, 0, 0, 0) for k in range(11))
    sets = {four: ((6, 0),)}
    assert samba_turn._wild_room(6, 0, 2) == 1 and samba_turn._wild_room(5, 0, 2) == 2
    assert samba_turn._wild_room(3, 1, 2) == 1 and samba_turn._wild_room(7, 0, 2) == 0
    assert not samba_turn._sets_go_out(hand, 2, 1, sets, 1, 2, 2)
    assert not samba_turn.turn_can_end(hand, 2, 0, 0, 0, sets, (), ((), (), (), ()), 1, must_out=True, answer=None,
                                       initial=True, pending=0, minimum=50, need=2, cap=2)
    assert samba_turn._sets_go_out(hand, 1, 1, sets, 1, 2, 2)  # one joker goes on: out, the five discarded
