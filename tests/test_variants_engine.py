"""The variant descriptions (canasta_tutor/engine/variants.py) and the engine playing each variant."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from canasta_tutor.engine.cards import ALL_CARD_CODES, CARD_CODE, CARD_KIND, KIND_TOKENS, NUM_KINDS, RED_THREE
from canasta_tutor.cli.main import main
from canasta_tutor.engine.errors import CanastaError, NotationError
from canasta_tutor.engine.feasibility import can_go_out
from canasta_tutor.engine.game import Game, seating_order
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine.options import RuleOptions
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.state import SEATS, State
from canasta_tutor.engine.variants import CLASSIC, VARIANTS, UnknownVariantError, Variant, get_variant

NAMES = ("classic", "two-handed", "three-handed", "six-handed", "italian", "samba", "five-handed", "bolivia", "chile",
         "pennies")


def test_the_variant_names() -> None:
    assert tuple(VARIANTS) == NAMES
    assert CLASSIC is get_variant("classic")
    assert get_variant(CLASSIC) is CLASSIC


def test_unknown_name_is_typed_and_quoted() -> None:
    with pytest.raises(UnknownVariantError) as err:
        get_variant("samba!")
    assert isinstance(err.value, CanastaError)
    assert "'samba!'" in str(err.value) and "two-handed" in str(err.value)


def test_classic_facts() -> None:
    v = CLASSIC
    assert (v.players, v.seats, v.sides, v.packs, v.jokers, v.num_cards) == (4, "NESW", (0, 1, 0, 1), 2, 4, 108)
    assert (v.hand_size, v.draw, v.canastas_to_go_out, v.target) == (11, 1, 1, 5000)
    assert v.side_names == ("NS", "EW") and v.n_sides == 2
    assert [v.partners(s) for s in range(4)] == [(2,), (3,), (0,), (1,)]
    assert [v.next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [v.minimum_for(t) for t in (-5, 0, 1495, 1500, 2995, 3000)] == [15, 50, 50, 90, 90, 120]
    assert [v.red_three_bonus(n) for n in range(5)] == [0, 100, 200, 300, 800]
    assert v.partnerships


@pytest.mark.parametrize("name", NAMES)
def test_tables_agree(name: str) -> None:
    v: Variant = get_variant(name)
    assert len(v.seats) == len(v.sides) == v.players
    assert sorted(s for seats in v.side_seats for s in seats) == list(range(v.players))
    for seat in range(v.players):
        assert v.side_of(seat) == v.sides[seat]
        assert seat not in v.partners(seat)
        assert all(v.side_of(p) == v.side_of(seat) for p in v.partners(seat))
    # every red three in the deck has a bonus entry
    assert len(v.bonuses.red_threes) == 2 * v.packs + 1


# ---------------------------------------------------------------- the engine playing each variant
#
# Positions in the notation do not carry a variant yet, so these tests build their states from a
# seeded deal and move cards by hand: ``_give`` takes named cards out of the stock into a hand,
# ``_lay`` puts a meld on the table, ``_empty`` returns a hand to the stock.

KINDS = {tok: i for i, tok in enumerate(KIND_TOKENS)}


def _game(name: str, seed: int = 1, **kw: object) -> State:
    return Game(variant=get_variant(name)).new_initial_state(seed, **kw)  # type: ignore[arg-type]


def _take_code(s: State, token: str) -> int:
    """A card of kind ``token`` (``K``, ``7``, ``JK``, ``R3``...) taken out of the stock, else out of the
    hand of a seat not in turn, so every card stays accounted for."""
    want = KINDS[token]
    for i in range(len(s.stock) - 1, -1, -1):
        if CARD_KIND[s.stock[i]] == want:
            return s.stock.pop(i)
    for seat, hand in enumerate(s.hands):
        if seat != s.turn and hand[want]:
            s.hand_size[seat] -= 1
            s.known[seat][want] = min(s.known[seat][want], len(hand[want]) - 1)
            return hand[want].pop()
    raise AssertionError(f"no {token} left in the stock or the other hands")


def _empty(s: State, seat: int) -> None:
    for kind in s.hands[seat]:
        s.stock[:0] = kind
        kind.clear()
    s.hand_size[seat] = 0
    s.known[seat] = [0] * NUM_KINDS


def _give(s: State, seat: int, codes: str) -> None:
    for code in codes.split():
        card = _take_code(s, code)
        s.hands[seat][CARD_KIND[card]].append(card)
        s.hand_size[seat] += 1


def _lay(s: State, side: int, naturals: str, wilds: str = "") -> None:
    nat = [_take_code(s, c) for c in naturals.split()]
    wild = [_take_code(s, c) for c in wilds.split()]
    s.melds[side][CARD_KIND[nat[0]]] = [nat, wild]
    s.initial[side] = True


def _to_meld_phase(s: State) -> int:
    """Draw for the seat in turn (after its hand was set) and return the seat."""
    seat = s.turn
    assert s.phase == "draw"
    s.apply(("draw",))
    assert s.phase == "meld"
    return seat


def _clear_reds(s: State) -> None:
    """Every red three out of the hands into the stock's bottom (so a set-up hand holds none)."""
    for seat, hand in enumerate(s.hands):
        reds = hand[RED_THREE]
        s.stock[:0] = reds
        s.hand_size[seat] -= len(reds)
        reds.clear()


@pytest.mark.parametrize("name", NAMES)
def test_deal_sizes_and_deck(name: str) -> None:
    """Deal sizes and the deck (R-DEAL-3, R-CARDS-1; R-TWO-2, R-THREE-2, R-SIX-2, R-SIX-3)."""
    v = get_variant(name)
    for seed in range(5):
        s = _game(name, seed)
        assert s.variant is v
        assert s.hand_size == [v.hand_size] * v.players
        assert [sum(map(len, h)) for h in s.hands] == s.hand_size
        cards = sorted(s.cards_everywhere())
        assert cards == list(range(v.num_cards))
        assert check_invariants(s) == []
    codes = Counter(ALL_CARD_CODES[c] for c in range(v.num_cards))
    assert codes.pop("JK") == v.jokers
    assert len(codes) == 52 and set(codes.values()) == {v.packs}


def test_six_handed_deck_R_SIX_2() -> None:
    """R-SIX-2: three decks and six jokers, 162 cards; twelve of each rank, twelve deuces, six red threes."""
    v = get_variant("six-handed")
    kinds = Counter(CARD_KIND[c] for c in range(v.num_cards))
    assert v.num_cards == 162
    assert all(kinds[k] == 12 for k in range(11))
    assert kinds[KINDS["2"]] == 12 and kinds[KINDS["JK"]] == 6 and kinds[RED_THREE] == 6
    # the classic tables are untouched: the first 108 ids are the classic deck
    assert CARD_CODE == ALL_CARD_CODES[:108] and len(CARD_CODE) == 108


@pytest.mark.parametrize(("name", "rule"), [("two-handed", "R-TWO-2"), ("three-handed", "R-THREE-2"),
                                            ("six-handed", "R-SIX-3")])
def test_hand_size_per_variant(name: str, rule: str) -> None:
    """R-TWO-2: fifteen cards; R-THREE-2 and R-SIX-3: thirteen."""
    assert rule
    want = {"two-handed": 15, "three-handed": 13, "six-handed": 13}[name]
    assert _game(name, 4).hand_size == [want] * get_variant(name).players


@pytest.mark.parametrize("name", NAMES)
def test_draw_count(name: str) -> None:
    """A draw from the stock takes one card; two in two-handed (R-TURN-2, R-TWO-3, R-THREE-2, R-SIX-3)."""
    v = get_variant(name)
    for seed in range(8):
        s = _game(name, seed)
        seat = s.turn
        before = s.hand_size[seat]
        s.apply(("draw",))
        assert s.hand_size[seat] == before + v.draw
        assert s.hands[seat][RED_THREE] == []
        assert check_invariants(s) == []


def test_two_handed_draws_two_and_replaces_red_threes_R_TWO_3() -> None:
    """R-TWO-3: two cards from the stock; a red three among them is laid out and replaced."""
    s = _game("two-handed", 2)
    _clear_reds(s)
    seat = s.turn
    red = _take_code(s, "R3")
    s.stock.append(red)  # the first card drawn is a red three
    before = s.hand_size[seat]
    reds = len(s.red3[s.sides[seat]])
    s.apply(("draw",))
    assert s.hand_size[seat] == before + 2
    assert red in s.red3[s.sides[seat]] and len(s.red3[s.sides[seat]]) == reds + 1
    # taking the pack replaces the whole draw: no draw is offered after it
    t = _game("two-handed", 2)
    assert all(a[0] != "draw" for a in t.legal_actions() if t.phase == "meld")


def test_two_handed_last_stock_card_R_TWO_4() -> None:
    """R-TWO-4: with one card left in the stock, the draw takes it alone and the turn goes on."""
    s = _game("two-handed", 3)
    _clear_reds(s)
    seat = s.turn
    last = _take_code(s, "K")
    s.stock[:] = [last] + []  # the other stock cards leave the game for this test
    before = s.hand_size[seat]
    s.apply(("draw",))
    assert s.phase == "meld" and not s.stock
    assert s.hand_size[seat] == before + 1


@pytest.mark.parametrize("name", NAMES)
def test_sides_and_turn_order(name: str) -> None:
    """Turns pass to the next seat, hands and deals rotate (R-TURN-1, R-DEAL-1; R-TWO-1, R-THREE-1, R-SIX-1)."""
    v = get_variant(name)
    s = _game(name, 5)
    assert s.turn == (s.dealer + 1) % v.players
    seen = []
    for _ in range(v.players * 2):
        seat = s.turn
        seen.append(seat)
        s.apply(("draw",))
        discard = next(a for a in s.legal_actions() if a[0] == "discard")
        s.apply(discard)
        if s.phase != "draw":
            break
        assert s.turn == v.next_seat(seat)
    assert seen[: v.players] == [(s.dealer + 1 + i) % v.players for i in range(v.players)][: len(seen)]


def test_six_handed_partners_sit_opposite_R_SIX_1() -> None:
    """R-SIX-1: three sides of two, partners three seats apart; the turn meets the sides in order twice."""
    v = get_variant("six-handed")
    assert v.n_sides == 3 and v.side_names == ("NS", "EW", "PQ")
    assert [v.partners(s) for s in range(6)] == [(3,), (4,), (5,), (0,), (1,), (2,)]
    assert [v.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


def _two_canasta_setup(name: str) -> tuple[State, int, int]:
    """The seat in turn (after drawing) holds K K 7 with one canasta (of queens) on the table, and a
    meld of kings with six naturals: melding K K makes a second canasta."""
    s = _game(name, 6)
    _clear_reds(s)
    seat = s.turn
    side = s.sides[seat]
    _empty(s, seat)
    _lay(s, side, "Q Q Q Q Q Q Q")  # a natural canasta
    _lay(s, side, "K K K K")  # four kings
    _give(s, seat, "K K 7")
    for other in range(s.variant.players):
        if other != seat and s.hand_size[other] == 0:
            _give(s, other, "4 4")
    s.stock.append(_take_code(s, "9"))  # the draw brings a nine
    if s.variant.draw == 2:
        s.stock.append(_take_code(s, "9"))
    _to_meld_phase(s)
    return s, seat, side


@pytest.mark.parametrize(("name", "rule"), [("two-handed", "R-TWO-5"), ("six-handed", "R-SIX-4")])
def test_going_out_needs_two_canastas(name: str, rule: str) -> None:
    """R-TWO-5 and R-SIX-4: one canasta is not enough to go out; two are."""
    s, seat, side = _two_canasta_setup(name)
    # down to one card with one canasta on the table: the last card can't go
    _empty(s, seat)
    _give(s, seat, "7")
    err = s.explain(("discard", KINDS["7"]))
    assert err is not None and err.rule == rule, err
    assert "fewer than two canastas" in err.reason
    assert ("discard", KINDS["7"]) not in s.legal_actions()
    # a second canasta opens the way out
    m = s.melds[side][KINDS["K"]]
    m[0].extend(_take_code(s, c) for c in ("K", "K", "K"))
    assert s.side_canastas(side) == 2
    assert s.explain(("discard", KINDS["7"])) is None
    s.apply(("discard", KINDS["7"]))
    assert s.went_out == seat and s.phase in ("hand_over", "game_over")
    assert check_invariants(s) == []


@pytest.mark.parametrize(("name", "rule"), [("two-handed", "R-TWO-5"), ("six-handed", "R-SIX-4")])
def test_meld_that_empties_the_hand_needs_two_canastas(name: str, rule: str) -> None:
    """R-TWO-5 and R-SIX-4 also refuse a meld that would use the last card with one canasta."""
    s, seat, side = _two_canasta_setup(name)
    _empty(s, seat)
    _give(s, seat, "K")
    err = s.explain(("add", KINDS["K"], KINDS["K"]))
    assert err is not None and err.rule == rule, err
    # with three kings in hand the last addition makes the second canasta and goes out
    _give(s, seat, "K K")
    s.apply(("add", KINDS["K"], KINDS["K"]))
    s.apply(("add", KINDS["K"], KINDS["K"]))
    assert s.side_canastas(side) == 1
    s.apply(("add", KINDS["K"], KINDS["K"]))
    assert s.side_canastas(side) == 2 and s.went_out == seat
    assert check_invariants(s) == []


def test_three_handed_one_canasta_is_enough_R_THREE_2() -> None:
    """R-THREE-2: one canasta still lets a three-handed player go out."""
    s = _game("three-handed", 6)
    _clear_reds(s)
    seat = s.turn
    side = s.sides[seat]
    _empty(s, seat)
    _lay(s, side, "Q Q Q Q Q Q Q")
    _give(s, seat, "7 7")
    for other in range(3):
        if other != seat and s.hand_size[other] == 0:
            _give(s, other, "4 4")
    s.stock.append(_take_code(s, "7"))
    _to_meld_phase(s)
    assert ("meld", KINDS["7"], 3, 0, 0) in s.legal_actions()
    s.apply(("meld", KINDS["7"], 3, 0, 0))
    assert s.went_out == seat
    assert check_invariants(s) == []


@pytest.mark.parametrize(("name", "rule"), [("two-handed", "R-TWO-1"), ("three-handed", "R-THREE-1")])
def test_nobody_to_ask(name: str, rule: str) -> None:
    """R-TWO-1 and R-THREE-1: each plays alone, so "partner, may I go out?" is never offered."""
    for seed in range(6):
        s = _game(name, seed)
        assert ("ask",) not in s.legal_actions()
        err = s.explain(("ask",))
        assert err is not None and err.rule == rule
        s.apply(("draw",))
        assert ("ask",) not in s.legal_actions()
        assert s.explain(("ask",)) is not None


def test_six_handed_partner_answers() -> None:
    """R-ASK-1, R-ASK-2 in six-handed: the question goes to the partner three seats away."""
    s = _game("six-handed", 6)
    _clear_reds(s)
    seat = s.turn
    side = s.sides[seat]
    _empty(s, seat)
    _lay(s, side, "Q Q Q Q Q Q Q")
    _lay(s, side, "K K K K K K K")
    _give(s, seat, "7 7 7")
    s.stock.append(_take_code(s, "7"))
    _to_meld_phase(s)
    assert ("ask",) in s.legal_actions()
    s.apply(("ask",))
    assert s.actor == (seat + 3) % 6 == s.variant.partners(seat)[0]
    assert s.current_seat == s.variant.seats[(seat + 3) % 6]
    s.apply(("yes",))
    assert s.actor == seat and s.must_out


def test_six_handed_ask_refusal_counts_two_canastas() -> None:
    """R-ASK-1 with R-SIX-4: asking with one canasta on the table is refused, and the reason
    names the two canastas this variant needs (the classic text says "a canasta")."""
    s = _game("six-handed", 6)
    _clear_reds(s)
    seat = s.turn
    side = s.sides[seat]
    _empty(s, seat)
    _lay(s, side, "Q Q Q Q Q Q Q")
    _give(s, seat, "7 8 9")
    s.stock.append(_take_code(s, "4"))
    _to_meld_phase(s)
    err = s.explain(("ask",))
    assert err is not None and err.rule == "R-ASK-1", err
    assert "with 2 canastas for your side" in err.reason


@pytest.mark.parametrize("name", NAMES)
def test_minimums_follow_each_side_total(name: str) -> None:
    """R-MIN-1 for every side; R-SIX-6 keeps the classic bands in six-handed; Pennies from Heaven has its own
    bands (R-PEN-12: 150 from 1,500)."""
    v = get_variant(name)
    totals = (-20, 1500, 3100)[: v.n_sides] if v.n_sides == 3 else (-20, 1500)
    s = _game(name, 2, totals=totals)
    assert s.totals == list(totals)
    assert s.minimums == [v.minimum_for(t) for t in totals]
    assert s.minimums[:2] == ([15, 150] if name == "pennies" else [15, 90])
    if v.n_sides == 3:
        assert s.minimums[2] == 120


def test_totals_must_match_the_sides() -> None:
    with pytest.raises(NotationError):
        _game("three-handed", 1, totals=(0, 0))


def _score_setup(name: str) -> State:
    s = _game(name, 9)
    for seat in range(s.variant.players):
        _empty(s, seat)
    for reds in s.red3:
        s.stock[:0] = reds
        reds.clear()
    s.stock[:0] = s.pile
    s.pile = []
    s.freeze_at = -1
    return s


def test_six_handed_scoring_three_sides_R_SIX_5() -> None:
    """R-SIX-5: 100 a red three up to four, 1,000 for five, 1,200 for six; three sides scored."""
    s = _score_setup("six-handed")
    s.red3[0].extend(_take_code(s, c) for c in ("R3", "R3", "R3", "R3", "R3"))
    _lay(s, 0, "K K K K K K K")  # natural canasta: 500 + 70
    s.red3[1].append(_take_code(s, "R3"))
    _lay(s, 1, "7 7 7", "JK")  # 15 + 50
    _give(s, 4, "A")  # E's partner seat (seat 4 is W, side 1): -20
    _give(s, 1, "4")  # seat 1 (E), side 1: -5
    _give(s, 2, "Q")  # side 2 melded nothing: -10
    r = s.score_hand()
    assert len(r.sides) == 3
    assert (r.sides[0].red_threes, r.sides[0].natural_canastas, r.sides[0].total) == (1000, 1, 1000 + 500 + 70)
    assert (r.sides[1].red_threes, r.sides[1].in_hand, r.sides[1].total) == (100, -25, 100 + 65 - 25)
    assert (r.sides[2].red_threes, r.sides[2].total) == (0, -10)
    s.stock.extend(s.red3[1])
    s.red3[1].clear()
    s.red3[0].append(_take_code(s, "R3"))
    assert s.score_hand().sides[0].red_threes == 1200
    assert r.to_dict()["sides"][2]["total"] == -10


def test_three_handed_scoring_each_alone_R_THREE_3() -> None:
    """R-THREE-3: each player is a side with a score of their own; all four red threes 800 (R-RED-4)."""
    s = _score_setup("three-handed")
    s.red3[2].extend(_take_code(s, c) for c in ("R3", "R3", "R3", "R3"))
    _lay(s, 2, "A A A")
    r = s.score_hand()
    assert [x.total for x in r.sides] == [0, 0, 800 + 60]


@pytest.mark.parametrize(("name", "target"), [("classic", 5000), ("two-handed", 5000), ("three-handed", 5000),
                                              ("six-handed", 7500)])
def test_game_target(name: str, target: int) -> None:
    """R-GAME-1, R-GAME-2; R-THREE-3 and R-SIX-6: the first side past the target with the single highest
    total wins; an equal highest total plays another deal."""
    v = get_variant(name)
    assert v.target == target
    s = _score_setup(name)
    start = [target - 500] + [target - 100] * (v.n_sides - 1)
    s.totals = start[:]
    s.deal_totals = start[:]
    _lay(s, 0, "K K K K K K K")  # 570: side 0 passes the target alone
    s._end_hand()
    assert s.phase == "game_over" and s.winner == 0
    assert s.totals[0] == target + 70
    # a tie at the top plays on
    t = _score_setup(name)
    t.totals = [target - 570] * v.n_sides
    t.deal_totals = t.totals[:]
    _lay(t, 0, "K K K K K K K")
    _lay(t, 1, "Q Q Q Q Q Q Q")
    t._end_hand()
    assert t.phase == "hand_over" and t.winner is None


@pytest.mark.parametrize("name", NAMES)
def test_checked_selfplay_soak(name: str) -> None:
    """A few hands of checked random play per variant: invariants after every action, none broken."""
    report = run_selfplay(hands=4, seed=11, variant=name)
    assert report.hands == 4 and report.actions > 100
    assert report.violations == 0, report.messages
    assert report.variant == name


def test_cli_selfplay_and_deal_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--variant", "three-handed", "--hands", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "three-handed" and data["violations"] == 0
    assert main(["deal", "--variant", "six-handed", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "six-handed" and data["totals"] == [0, 0, 0]
    assert main(["deal", "--variant", "six-handed", "--totals", "10,20,30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == [10, 20, 30]
    assert main(["deal", "--variant", "seven-handed"]) == 2
    assert "'seven-handed' is not a variant" in capsys.readouterr().err


def test_classic_seating_and_dealer_unchanged() -> None:
    """The draw for seats (R-SEAT-3) and the first dealer (R-DEAL-1) are the classic ones."""
    s = Game().new_initial_state(3)
    assert s.variant is CLASSIC and SEATS[s.dealer] == "E"
    assert [CLASSIC.seats[i] for i in seating_order(CLASSIC)] == ["S", "N", "W", "E"]
    six = get_variant("six-handed")
    order = seating_order(six)
    assert six.side_of(order[0]) == six.side_of(order[1])  # the two highest drawers are partners


def test_can_go_out_with_two_canastas() -> None:
    """The look-ahead behind R-TWO-5 and R-SIX-4: the hand must finish two canastas, not one."""
    opts = RuleOptions()
    c = [0] * NUM_KINDS
    c[KINDS["K"]] = 7  # a canasta of kings in hand
    c[KINDS["7"]] = 1  # and a card to discard
    assert can_go_out(c, {}, opts) and not can_go_out(c, {}, opts, canastas=2)
    melds = {KINDS["Q"]: (5, 0)}  # five queens on the table: two wild cards would make a canasta
    assert not can_go_out(c, melds, opts, canastas=2)
    c[KINDS["JK"]] = 2
    assert can_go_out(c, melds, opts, canastas=2)
    c[KINDS["JK"]] = 1  # one short
    assert not can_go_out(c, melds, opts, canastas=2)
    assert can_go_out(c, {KINDS["Q"]: (7, 0)}, opts, canastas=2)  # a canasta already down
    # the wild cards must also cover the pairs: a pair of aces needs one more
    c[KINDS["JK"]] = 2
    c[KINDS["A"]] = 2
    assert not can_go_out(c, melds, opts, canastas=2)
    c[KINDS["2"]] = 1
    assert can_go_out(c, melds, opts, canastas=2)


def _rich_choice(rng: random.Random, legal: list[tuple[object, ...]]) -> tuple[object, ...]:
    rich = [a for a in legal if a[0] in ("take", "meld", "add", "ask", "yes", "no", "pass")]
    if rich and rng.random() < 0.6:
        return rng.choice(rich)
    return rng.choice(legal)


# Samba's family lists its moves its own way: tests/test_variant_samba.py, tests/test_bolivia_turn.py
@pytest.mark.parametrize("name", [n for n in NAMES[1:] if n not in ("samba", "bolivia", "chile")])
def test_fast_listing_is_the_checked_candidates_in_order(name: str) -> None:
    """As tests/test_legal_fast.py for each variant: the fast legal-action list is exactly the structural
    candidates that State.explain accepts, in order, along play biased towards melds and takes; and a
    copy of the state plays on the same."""
    rng = random.Random(3)
    verbs: set[str] = set()
    states = 0
    game = Game(variant=get_variant(name))
    for game_seed in range(3):
        state = game.new_initial_state(game_seed)
        hands = 0
        while state.phase != "game_over" and hands < 2:
            legal = state.legal_actions()
            reference = [a for a in state._candidates() if state.explain(a) is None]
            assert legal == reference, (game_seed, len(state.history))
            verbs.update(str(a[0]) for a in legal)
            states += 1
            action = _rich_choice(rng, legal)
            twin = state.copy()
            state.apply_unchecked(action)
            twin.apply_unchecked(action)
            assert twin.legal_actions() == state.legal_actions() and twin.totals == state.totals
            hands += state.phase in ("hand_over", "game_over")
    assert states > 300
    assert {"draw", "take", "meld", "add", "discard", "deal"} <= verbs
    assert ("ask" in verbs) == (name in ("six-handed", "italian", "five-handed"))


def test_two_handed_draw_meets_the_end_of_the_stock() -> None:
    """R-TWO-3 with R-STOCK-1: a red three as the stock's last card ends the hand, even as the second
    card of a draw of two; a natural last card leaves the player one card to play on with (R-TWO-4)."""
    s = _game("two-handed", 5)
    _clear_reds(s)
    seat = s.turn
    s.stock[:] = [_take_code(s, "R3"), _take_code(s, "9")]  # the nine is drawn first, the red three last
    s.apply(("draw",))
    assert s.phase in ("hand_over", "game_over") and not s.stock
    assert len(s.red3[s.sides[seat]]) == 1 and s.went_out is None
    t = _game("two-handed", 5)
    _clear_reds(t)
    seat = t.turn
    before = t.hand_size[seat]
    t.stock[:] = [_take_code(t, "9"), _take_code(t, "R3")]  # a red three first, replaced by the last card
    t.apply(("draw",))
    assert t.phase == "meld" and not t.stock
    assert t.hand_size[seat] == before + 1 and len(t.red3[t.sides[seat]]) == 1


def test_game_takes_a_variant_name() -> None:
    assert Game(variant="six-handed").variant is get_variant("six-handed")
    assert Game().variant is CLASSIC and Game().options == RuleOptions()
    with pytest.raises(UnknownVariantError):
        Game(variant="samba-ish")
