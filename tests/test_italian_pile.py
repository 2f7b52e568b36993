"""Italian Canasta's face-down pile cards (R-ITAL-3): the cards laid face down under the turned card are
hidden from every seat until the pile is taken, and then known to the taker only.

The engine deals them (``State.pile_hidden`` counts them); an observation, a seat's position text, the
sampler and the table show only their number; the position notation writes and reads them.
"""

from __future__ import annotations

import dataclasses

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor.bots.sampling import sample_hidden, state_from_observation
from canasta_tutor.engine.cards import ALL_CARD_CODES, CARD_KIND, KIND_VALUES, RED_THREE, parse_kind
from canasta_tutor.tutor.display import _pile_html, state_html
from canasta_tutor.engine.errors import ImpossiblePositionError, NotationError
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.hidden import unseen_for
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.engine.state import CHAIN_KINDS, State
from canasta_tutor.tutor.view import build_view

ITALIAN_CARDS = 162

# South, down already, takes a pile of five cards face down, a five turned up and the six discarded on it
_TAKE = """\
canasta-tutor position
variant: italian
dealer: E
turn: S draw
totals: NS 0 EW 0
stock: {stock}
pile: 4C 9S KD 7H 8S face down, 5D 6D
N: 4S 5S 6S 9H TH
E: 4H 5H 6H 9D TD
S: 6H 6C QS KS
W: 4D 5H 6S 9C TC
melds NS: 7S 7D 7C
"""


_NAMED = 7 + 3 * 5 + 4 + 3  # the cards _TAKE names: pile, N E W, S, melds


def _take_position() -> State:
    return parse_position(_TAKE.format(stock=ITALIAN_CARDS - _NAMED))


def _codes(cards: list[int]) -> list[str]:
    return [ALL_CARD_CODES[c] for c in cards]


def _public(state: State, seat: int) -> tuple[object, ...]:
    """What ``seat`` sees of ``state``."""
    o = observe(state, seat)
    return (o.position_text, o.pile, o.pile_size, o.pile_hidden, o.freeze_at, o.known, o.hand, o.legal_actions)


def _swap_hidden(state: State, index: int) -> State:
    """``state`` with the card face down at ``index`` of the pile swapped for a stock card of another kind."""
    s = state.copy()
    kind = CARD_KIND[s.pile[index]]
    j = next(j for j, c in enumerate(s.stock) if CARD_KIND[c] not in (kind, RED_THREE))
    s.pile[index], s.stock[j] = s.stock[j], s.pile[index]
    return s


@pytest.mark.parametrize("seed", range(6))
def test_the_deal_lays_the_turned_cards_count_face_down_R_ITAL_3(seed: int) -> None:
    """R-ITAL-3: as many cards as the turned card's count lie face down under it, and the state says so."""
    state = Game(variant="italian").new_initial_state(seed=seed)
    down = state.pile_hidden
    chain = CHAIN_KINDS[state.options.upcard_chain]
    turned = next(c for c in state.pile[down:] if CARD_KIND[c] not in chain)  # the card ending the upcard chain
    assert down == KIND_VALUES[CARD_KIND[turned]] and 0 < down < len(state.pile)
    assert not check_invariants(state)
    # the classic deal has none
    assert Game().new_initial_state(seed=seed).pile_hidden == 0


@pytest.mark.parametrize("seed", range(4))
def test_no_seat_sees_the_cards_face_down_R_ITAL_3(seed: int) -> None:
    """R-ITAL-3: the cards laid face down are nobody's to see: changing them changes no seat's observation
    (the position text, the pile, the known cards, the legal actions), which gives only their number."""
    state = Game(variant="italian").new_initial_state(seed=seed)
    down = state.pile_hidden
    other = _swap_hidden(state, seed % down)
    for seat in range(4):
        assert _public(state, seat) == _public(other, seat)
        obs = observe(state, seat)
        assert obs.pile_hidden == down and obs.pile_size == len(state.pile)
        assert obs.pile == tuple(ALL_CARD_CODES[c] for c in state.pile[down:])
        assert f"pile: {down} cards face down, " in obs.position_text


def test_the_taker_alone_learns_the_cards_face_down_R_ITAL_3() -> None:
    """R-ITAL-3: taking the pile brings its face-down cards into the taker's hand; the public memory of cards
    seen going into a hand (``known``) learns the face-up five but not them, so the other seats still do not
    know them, and the taker does."""
    state = _take_position()
    assert state.pile_hidden == 5
    hidden = state.pile[:5]
    state.apply(("take", CARD_KIND[state.pile[-1]], 2, 0, 0))
    assert state.pile == [] and state.pile_hidden == 0
    south = state.hands[2]
    assert all(c in south[CARD_KIND[c]] for c in hidden)
    assert state.known[2][parse_kind("5")] == 1 and sum(state.known[2]) == 1  # the face-up 5D only
    # swap one of the cards that lay face down (now in South's hand) for a stock card of another kind
    other = state.copy()
    card = hidden[0]
    kind = CARD_KIND[card]
    j = next(j for j, c in enumerate(other.stock) if CARD_KIND[c] not in (kind, RED_THREE))
    new = other.stock[j]
    other.hands[2][kind].remove(card)
    other.hands[2][CARD_KIND[new]].append(new)
    other.stock[j] = card
    for seat in (0, 1, 3):
        assert _public(state, seat) == _public(other, seat)
    assert observe(state, 2).hand != observe(other, 2).hand
    assert not check_invariants(state) and not check_invariants(other)


def test_the_sampler_deals_the_cards_face_down_from_the_unseen_R_ITAL_3() -> None:
    """R-ITAL-3: a state built from a seat's observation has the pile's face-down count with cards the seat
    cannot see, and each sample deals them anew from the unseen cards; every card is somewhere once."""
    state = Game(variant="italian").new_initial_state(seed=2)
    seat = state.actor
    assert seat is not None
    down = state.pile_hidden
    built = state_from_observation(observe(state, seat))
    assert built.pile_hidden == down and _codes(built.pile[down:]) == _codes(state.pile[down:])
    assert set(built.pile[:down]) <= set(unseen_for(built, seat))
    rng = random.Random(1)
    seen = set()
    for _ in range(8):
        det = sample_hidden(built, seat, rng)
        assert det is not None
        assert det.pile_hidden == down and _codes(det.pile[down:]) == _codes(state.pile[down:])
        assert sorted(det.cards_everywhere()) == list(range(ITALIAN_CARDS))
        assert det.hands[seat] == built.hands[seat] and not check_invariants(det)
        seen.add(tuple(det.pile[:down]))
    assert len(seen) > 1


def test_the_sampler_keeps_the_taker_knowledge_R_ITAL_3() -> None:
    """After the take, another seat's samples give South the face-up cards it took (``known``) and
    anything at all for the cards that lay face down."""
    state = _take_position()
    state.apply(("take", CARD_KIND[state.pile[-1]], 2, 0, 0))
    west = observe(state, 3)
    built = state_from_observation(west)
    rng = random.Random(4)
    for _ in range(4):
        det = sample_hidden(built, 3, rng)
        assert det is not None and det.hand_size == state.hand_size
        for k, n in enumerate(state.known[2]):
            assert len(det.hands[2][k]) >= n
        assert not check_invariants(det)


def test_the_notation_writes_and_reads_the_cards_face_down_R_ITAL_3() -> None:
    """R-ITAL-3 in a position: the full position names the cards face down; a seat's view gives their number,
    and parsing it deals them from the unseen cards."""
    state = Game(variant="italian").new_initial_state(seed=5)
    down = state.pile_hidden
    full = format_position(state)
    face_down = " ".join(ALL_CARD_CODES[c] for c in state.pile[:down])
    assert f"pile: {face_down} face down, " in full
    again = parse_position(full)
    assert _codes(again.pile) == _codes(state.pile) and again.pile_hidden == down and format_position(again) == full
    view = format_position(state, "S")
    assert f"pile: {down} cards face down, " in view and face_down not in view
    seen = parse_position(view)
    assert seen.pile_hidden == down and _codes(seen.pile[down:]) == _codes(state.pile[down:])
    assert format_position(seen, "S") == view
    assert sorted(seen.cards_everywhere()) == list(range(ITALIAN_CARDS)) and not check_invariants(seen)


def test_older_italian_positions_still_parse_R_ITAL_3() -> None:
    """A position written before the face-down cards were hidden (every pile card face up) still parses."""
    state = _take_position()
    old = _TAKE.format(stock=ITALIAN_CARDS - _NAMED).replace("4C 9S KD 7H 8S face down, ", "4C 9S KD 7H 8S ")
    before = parse_position(old)
    assert before.pile_hidden == 0 and before.pile == state.pile


@pytest.mark.parametrize(("pile", "error", "words"), [
    ("4C 9S KD 7H 8S face down, 5D 6D", ImpossiblePositionError, "only Italian Canasta"),
])
def test_a_classic_pile_has_no_cards_face_down_R_ITAL_3(pile: str, error: type, words: str) -> None:
    text = "dealer: E\nturn: S draw\nstock: 54\npile: {}\nN: 11\nE: 11\nS: 11\nW: 11\n"
    with pytest.raises(error) as info:
        parse_position(text.format(pile))
    assert words in str(info.value) and info.value.line == 4 and info.value.field == "pile"


@pytest.mark.parametrize(("pile", "error", "words"), [
    ("4C 9S KD 7H face down, 5D 6D", ImpossiblePositionError, "counts 5"),
    ("4C 9S KD 7H 8S face down,", ImpossiblePositionError, "name it after them"),
    ("face down, 5D 6D", NotationError, "their number"),
    ("x cards face down, 5D 6D", NotationError, "not a whole number"),
    ("0 cards face down, 5D 6D", NotationError, "at least 1"),
    ("4 cards face down, 5D 6D", ImpossiblePositionError, "counts 5"),
])
def test_errors_in_the_cards_face_down_name_the_line_and_field_R_ITAL_3(pile: str, error: type, words: str) -> None:
    """R-ITAL-3: the count face down is the turned card's; a bad pile line is refused naming its line and field."""
    named = sum(1 for tok in pile.split() if len(tok.rstrip(",")) == 2 and tok[0] in "456789TJQKA2")
    stock = ITALIAN_CARDS - (_NAMED - 7) - named
    text = _TAKE.format(stock=stock).replace("pile: 4C 9S KD 7H 8S face down, 5D 6D", f"pile: {pile}")
    with pytest.raises(error) as info:
        parse_position(text, "puzzle.pos")
    assert words in str(info.value) and info.value.line == 7 and info.value.field == "pile"
    assert "puzzle.pos" in str(info.value.in_file("puzzle.pos"))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_positions_with_cards_face_down_round_trip_R_ITAL_3(seed: int, steps: int) -> None:
    """R-ITAL-3: after random play, the full position and the view of the seat to act read back as written;
    the view deals the face-down cards from the unseen cards, and every card is somewhere once."""
    state = Game(variant="italian").new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = state.legal_actions()
        if not actions or state.phase not in ("draw", "meld", "answer"):
            break
        state.apply(rng.choice(actions))
    full = format_position(state)
    assert format_position(parse_position(full)) == full
    seat = state.actor
    if seat is None or state.phase not in ("draw", "meld", "answer"):
        return
    view = format_position(state, seat)
    seen = parse_position(view)
    assert format_position(seen, seat) == view
    assert seen.pile_hidden == state.pile_hidden
    assert sorted(seen.cards_everywhere()) == list(range(ITALIAN_CARDS))


def test_the_invariants_account_for_the_cards_face_down_R_ITAL_3() -> None:
    """The checker counts the cards face down among the pile's and refuses a face-down count that no deal
    makes: more than the pile below its turned card, or in a variant that lays none (R-ITAL-3)."""
    state = Game(variant="italian").new_initial_state(seed=1)
    assert not check_invariants(state)
    bad = state.copy()
    bad.pile_hidden = len(bad.pile)
    assert any("face down" in v for v in check_invariants(bad))
    classic = Game().new_initial_state(seed=1)
    classic.pile_hidden = 1
    assert any("face down" in v for v in check_invariants(classic))


def test_the_table_shows_card_backs_for_the_cards_face_down_R_ITAL_3() -> None:
    """R-ITAL-3 on the table: the view model gives the pile's size and the number face down, never their
    cards, and the table draws card backs for them."""
    state = Game(variant="italian").new_initial_state(seed=3)
    down = state.pile_hidden
    view = build_view(observe(state, state.turn))
    assert view["pile"]["down"] == down and view["pile"]["size"] == len(state.pile)
    html = _pile_html(view["pile"], view["stock"], False)
    assert f"{down} cards face down" in html and "ct-pile-down" in html
    classic = build_view(observe(Game().new_initial_state(seed=3), 2))
    assert classic["pile"]["down"] == 0
    assert "face down" not in _pile_html(classic["pile"], classic["stock"], False)
    assert "cards face down" in state_html(state, seat="S") and "cards face down" in state_html(state)


_SHOW_AND_TAKE = """\
canasta-tutor position
variant: italian
seed: 2
dealer: E
turn: S draw
totals: NS 0 EW 0
stock: 87
pile: 10 cards face down, TD
N: 15 cards
E: 15 cards
S: 4S 5D 6S 7H 7D 8S 8H 8C 9D TS TH QH QD AH 2C
W: 15 cards
red threes NS: 3D 3D
red threes EW: 3H 3D
"""


def test_the_hint_plan_stops_at_a_take_of_unseen_cards_R_ITAL_3() -> None:
    """R-ITAL-3: the hint's whole-turn plan follows a take only as far as the learner's known cards go; a pile
    with cards face down brings unseen cards, so the plan ends with the take (it used to play on with
    whatever cards the search had placed there, and a sample with other cards failed)."""
    from canasta_tutor.hint import hint

    state = parse_position(_SHOW_AND_TAKE)
    h = hint(observe(state, "S"), seed=0)
    takes = [i for i, step in enumerate(h.plan) if step.startswith("take")]
    assert not takes or takes[0] == len(h.plan) - 1, h.plan


def test_the_italian_hint_has_its_own_smaller_budget() -> None:
    """Italian Canasta declares a smaller hint budget on its Variant than classic (its cut-off playouts
    cost about two classic ones); the plan's budget is cut in proportion only below the full-playout
    default, which Italian's is above.  The other variants with cut-off playouts declare budgets larger
    than the full-playout default, with the plan's budget unchanged; Samba's is smallest."""
    from canasta_tutor.hint import DEFAULT_PLAYOUTS, PLAN_PLAYOUTS, analyse, plan_playouts
    from canasta_tutor.engine.variants import VARIANTS, get_variant

    italian, classic = get_variant("italian"), get_variant("classic")
    assert italian.hint_playouts is not None and classic.hint_playouts is not None
    assert DEFAULT_PLAYOUTS < italian.hint_playouts < classic.hint_playouts
    assert italian.playout_turns and plan_playouts(italian) == PLAN_PLAYOUTS
    small = dataclasses.replace(italian, hint_playouts=DEFAULT_PLAYOUTS // 2)
    assert plan_playouts(small) == PLAN_PLAYOUTS // 2  # a budget under the default cuts the plan
    for name, v in VARIANTS.items():
        assert v.hint_playouts is not None
        if v.hint_few_deals is not None:  # Samba, Bolivia and Chile: whole-hand playouts on a few deals
            assert v.playout_turns is None and v.hint_playouts < italian.hint_playouts
        elif name == "pennies":  # checked listing, six seats, large hands: a budget of its own, under Italian's
            assert v.playout_turns and v.hint_playouts < italian.hint_playouts
            assert plan_playouts(v) == PLAN_PLAYOUTS * v.hint_playouts // DEFAULT_PLAYOUTS
        elif name != "italian":
            assert v.playout_turns and v.hint_playouts > italian.hint_playouts
            assert v.hint_min_round is None and plan_playouts(v) == PLAN_PLAYOUTS
    state = Game(variant="italian").new_initial_state(seed=4)
    state.apply(("draw",))
    _, est = analyse(observe(state, state.turn))
    assert len(est) > 2 and sum(e.samples for e in est) <= italian.hint_playouts


@pytest.mark.slow
def test_every_seat_view_of_an_italian_hand_reads_back_R_ITAL_3() -> None:
    """R-ITAL-3 over a whole random hand: every seat's view of every state (the cards face down as a count,
    then taken into a hand that the other seats see as a count) parses to a playable state that reads
    back to the same text."""
    rng = random.Random(7)
    state = Game(variant="italian").new_initial_state(seed=11)
    checked = taken = 0
    while state.phase in ("draw", "meld", "answer"):
        for seat in range(4):
            text = observe(state, seat).position_text
            view = parse_position(text)
            assert view.legal_actions(), text
            assert view.pile_hidden == state.pile_hidden and format_position(view, seat) == text
            checked += 1
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] in ("meld", "take")]
        action = rng.choice(keen if keen and rng.random() < 0.5 else legal)
        taken += action[0] == "take" and state.pile_hidden > 0
        state.apply(action)
    assert checked > 100 and taken == 1
