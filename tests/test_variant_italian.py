"""Italian Canasta (`italian`, rule book area ITAL): a behaviour test for each of R-ITAL-1..11, the deuce
meld in the notation, and checked play (random and rules-of-thumb) with no invariant violation.

Positions are written in the position notation with a ``variant: italian`` line; the stock is given as a
count that fills the rest of the 162 cards.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.bots import make_state_policy
from canasta_tutor.bots.match import deal_state
from canasta_tutor.engine.cards import CARD_KIND, DEUCE, JOKER, KIND_VALUES, RED_THREE, parse_kind
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine.italian import can_go_out_italian, italian_bonuses
from canasta_tutor.engine.options import RuleOptions
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.notation.record import format_record, parse_record, replay
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER, MELD, State
from canasta_tutor.engine.variants import get_variant

ITALIAN = get_variant("italian")
K, Q, A, EIGHT = parse_kind("K"), parse_kind("Q"), parse_kind("A"), parse_kind("8")
_CHAIN = frozenset((DEUCE, JOKER, parse_kind("3"), RED_THREE))


def position(*lines: str, variant: str | None = "italian", totals: str = "NS 0 EW 0") -> State:
    """A position from its lines; the header, dealer and totals are filled in, and the stock is the
    count of the cards not named (162 in Italian Canasta, 108 in the classic game)."""
    body = list(lines)
    named = sum(len(re.findall(r"\b(?:[2-9TJQKA][SHDC]|JK)\b", line.split(":", 1)[1]))
                for line in body if line.split(":", 1)[0] not in ("turn", "melded-before"))
    deck = get_variant(variant or "classic").num_cards
    head = ["canasta-tutor position"] + ([f"variant: {variant}"] if variant else [])
    head += ["dealer: E", f"totals: {totals}", f"stock: {deck - named}"]
    return parse_position("\n".join(head + body) + "\n")


def refused(state: State, text: str) -> tuple[str, str]:
    err = state.explain(parse_action(text))
    assert err is not None, f"{text!r} should be refused"
    return err.rule, err.reason


def legal(state: State, text: str) -> bool:
    action = parse_action(text)
    ok = state.explain(action) is None
    assert ok == (action in state.legal_actions()), text  # the listing agrees with the check
    return ok


# ------------------------------------------------------------------ the deck and the deal
def test_the_deck_is_three_packs_and_six_jokers_R_ITAL_1() -> None:
    """R-ITAL-1: 162 cards, every one once; twelve deuces, six jokers and six red threes among them."""
    assert (ITALIAN.packs, ITALIAN.jokers, ITALIAN.num_cards) == (3, 6, 162)
    state = Game(variant="italian").new_initial_state(seed=4)
    cards = state.cards_everywhere()
    assert sorted(cards) == list(range(162))
    kinds = [CARD_KIND[c] for c in cards]
    assert (kinds.count(DEUCE), kinds.count(JOKER), kinds.count(RED_THREE)) == (12, 6, 6)
    assert check_invariants(state) == []


@pytest.mark.parametrize("seed", range(12))
def test_fifteen_cards_each_and_the_pile_started_by_count_R_ITAL_2_R_ITAL_3(seed: int) -> None:
    """R-ITAL-2: fifteen cards each.  R-ITAL-3 (ruling 10): the dealt red threes are laid out and replaced
    before the pile is started, so no hand holds one; the pile is the upcard chain of R-DEAL-5 on top of as
    many cards as the count of the natural card that ends it."""
    state = Game(variant="italian").new_initial_state(seed=seed)
    assert [len(state.hand(s)) for s in "NESW"] == [15, 15, 15, 15]
    assert all(not h[RED_THREE] for h in state.hands)
    assert all(state.first_turn_done)  # nothing is left for a first turn to lay out
    pile = state.pile
    top = CARD_KIND[pile[-1]]
    assert top < 11  # a natural card ends the chain
    count = KIND_VALUES[top]
    assert count in (5, 10, 20)
    chain = pile[count:-1]
    assert len(pile) >= count + 1 and all(CARD_KIND[c] in _CHAIN for c in chain)
    dealt_reds = sum(len(r) for r in state.red3)
    assert 60 + dealt_reds + len(state.stock) + len(pile) == 162
    assert check_invariants(state) == []


def test_the_classic_deal_is_unchanged_R_ITAL_3() -> None:
    """R-ITAL-3 is Italian only: a classic deal still starts the pile with the upcard chain alone."""
    state = Game().new_initial_state(seed=4)
    assert all(CARD_KIND[c] in _CHAIN for c in state.pile[:-1]) and len(state.pile) < 5


# ------------------------------------------------------------------ the pile is always frozen
_PACK = ("turn: S draw", "pile: 9D 5C KH",
         "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
         "S: KS KD JK 2C 7S 8S 9S",
         "melds NS: KC KC KD; QS QH QD QC QS QH QD (natural canasta)",
         "melded-before: N S")


def test_the_pile_is_always_frozen_R_ITAL_4() -> None:
    """R-ITAL-4: with no wild card in the pile and the side down, the pack is still taken only with a natural
    pair (the refusal cites R-ITAL-4); the classic game takes it with the top card alone or with a wild card."""
    italian = position(*_PACK)
    assert italian.frozen_for(0) and italian.frozen_for(1) and italian.freeze_at < 0
    for text in ("take K", "take K K JK", "take K K 2"):
        rule, reason = refused(italian, text)
        assert rule == "R-ITAL-4" and "always frozen" in reason
    assert legal(italian, "take K K K")
    italian.apply(parse_action("take K K K"))
    assert len(italian.melds[0][K][0]) == 6  # three on the table, the top card and the pair
    classic = position(*_PACK, variant=None)
    assert legal(classic, "take K") and legal(classic, "take K K JK") and not classic.frozen_for(0)


def test_declining_the_pack_at_an_empty_stock_R_ITAL_4() -> None:
    """R-ITAL-4 with R-STOCK-2: the pile is frozen, so a matching meld never forces the take."""
    state = position(*_PACK)
    state.stock = []
    assert legal(state, "pass")


# ------------------------------------------------------------------ draw two
def test_a_draw_takes_two_cards_and_one_discard_ends_the_turn_R_ITAL_5() -> None:
    """R-ITAL-5: drawing takes the top two stock cards; one discard ends the turn."""
    state = Game(variant="italian").new_initial_state(seed=9)
    seat = state.turn
    stock = len(state.stock)
    state.apply(("draw",))
    assert state.phase == MELD and len(state.hand(seat)) == 17
    assert len(state.stock) + sum(len(r) for r in state.red3) >= stock - 2 + 0
    discard = next(a for a in state.legal_actions() if a[0] == "discard")
    state.apply(discard)
    assert len(state.hand(seat)) == 16 and state.turn != seat


def test_asking_before_a_draw_of_two_is_refused_R_ITAL_5() -> None:
    """R-ITAL-5 with R-ASK-1: no hand is sure to go out before a draw of two, so the question waits until
    after the draw (the refusal cites R-ASK-1)."""
    state = Game(variant="italian").new_initial_state(seed=9)
    rule, reason = refused(state, "ask")
    assert rule == "R-ASK-1" and "after drawing" in reason


# ------------------------------------------------------------------ deuces as a rank
_DEUCES = ("turn: S meld", "pile: 9D",
           "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
           "S: 2S 2H 2D 2C 2S JK 4C 7S 8S 9S",
           "melds NS: KC KH KD; QS QH QD QC QS QH QD (natural canasta)",
           "melded-before: N S")


def test_deuces_meld_as_a_rank_of_their_own_R_ITAL_6() -> None:
    """R-ITAL-6: three deuces make a meld of their own (no joker in it); while it is short of seven, no deuce
    goes into another meld as a wild card; a joker still does."""
    state = position(*_DEUCES)
    assert legal(state, "add 2 to K")  # no meld of deuces yet: a deuce is wild as usual
    assert legal(state, "meld 2 2 2")
    state.apply(parse_action("meld 2 2 2"))
    assert state.melds[0][DEUCE] == [state.melds[0][DEUCE][0], []] and len(state.melds[0][DEUCE][0]) == 3
    for text in ("add 2 to K",):
        rule, reason = refused(state, text)
        assert rule == "R-ITAL-6" and "canasta of seven" in reason
    rule, reason = refused(state, "add JK to 2")
    assert rule == "R-ITAL-6" and "deuces only" in reason
    assert legal(state, "add 2") and legal(state, "add JK to K")
    classic = position(*_DEUCES, variant=None)
    assert refused(classic, "meld 2 2 2")[0] == "R-MELD-3"


def test_a_canasta_of_deuces_frees_the_deuces_R_ITAL_6() -> None:
    """R-ITAL-6: once the meld of deuces is a canasta of seven, deuces are wild again (and may still join it);
    a new meld of deuces is never started with a joker."""
    done = position("turn: S meld", "pile: 9D", "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
                    "S: 2S JK 4C 7S 8S 9S",
                    "melds NS: KC KH KD; 2S 2H 2D 2C 2S 2H 2D (canasta of deuces)", "melded-before: N S")
    assert legal(done, "add 2 to K") and legal(done, "add 2")
    fresh = position(*_DEUCES)
    err = fresh.explain(("meld", DEUCE, 2, 1, 0))  # the notation cannot even write it
    assert err is not None and err.rule == "R-ITAL-6" and "never a joker" in err.reason


# ------------------------------------------------------------------ the initial meld
_OPEN = ("turn: S meld", "pile: 9D",
         "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
         "S: KS KH KD QS QH QD 2S 2H 2D JK 4C 7S")


def test_the_initial_meld_holds_no_wild_card_R_ITAL_7() -> None:
    """R-ITAL-7: melds counted toward the initial meld hold no wild card (a meld of deuces is wild cards too);
    once the minimum is reached, wild cards may follow in the same turn."""
    state = position(*_OPEN)
    for text in ("meld K K JK", "meld K K 2", "meld 2 2 2"):
        rule, reason = refused(state, text)
        assert rule == "R-ITAL-7" and "no wild card" in reason
    state.apply(parse_action("meld K K K"))
    assert refused(state, "add JK to K")[0] == "R-ITAL-7"
    state.apply(parse_action("meld Q Q Q"))  # 60: the minimum of 50 is reached
    assert state.initial[0]
    assert legal(state, "add JK to K") and legal(state, "meld 2 2 2")


def test_taking_the_pack_for_the_initial_meld_without_wild_cards_R_ITAL_7() -> None:
    """R-ITAL-7: the take that makes the initial meld holds naturals only."""
    state = position("turn: S draw", "pile: 9D 5C KH", "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
                     "S: KS KD KC JK AS AH AD 7S 8S")
    rule, reason = refused(state, "take K K K JK")
    assert rule == "R-ITAL-7" and "naturals only" in reason
    assert refused(state, "take K K K K")[0] == "R-PACK-5"  # 40 of the 50: more must be shown first
    assert refused(state, "meld A A JK")[0] == "R-ITAL-7"
    state.apply(parse_action("meld A A A"))
    assert legal(state, "take K K K") and refused(state, "take K K K JK")[0] == "R-ITAL-7"


@pytest.mark.parametrize(("totals", "need"), [((-20, 0), (15, 50)), ((1500, 3000), (90, 120)),
                                              ((4995, 5000), (120, 160)), ((7495, 7500), (160, 180)),
                                              ((9995, 10000), (180, 200)), ((11995, 0), (200, 50))])
def test_the_higher_minimums_R_ITAL_7(totals: tuple[int, int], need: tuple[int, int]) -> None:
    """R-ITAL-7 (ruling 12): 160 from 5,000, 180 from 7,500, 200 from 10,000; the classic bands below."""
    state = Game(variant="italian").new_initial_state(seed=2, totals=totals)
    assert tuple(state.minimums) == need
    assert check_invariants(state) == []


# ------------------------------------------------------------------ going out
def _going_out(aces: bool, s_melded: bool = True, totals: str = "NS 0 EW 0", hand: str = "8H") -> State:
    ns = "QS QH QD QC QS QH QD (natural canasta); 2S 2H 2D 2C 2S 2H 2D (canasta of deuces)"
    if aces:
        ns += "; AS AH AD AC AS AH AD (natural canasta)"
    return position("turn: S meld", "pile: 9D", "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
                    f"S: {hand}", f"melds NS: {ns}", "melds EW: 2C 2C 2S 2H 2D; KS KH KD",
                    "red threes NS: 3H 3D 3H 3D", "red threes EW: 3H",
                    "melded-before: N W" + (" S" if s_melded else ""), totals=totals)


def test_two_canastas_besides_the_deuces_to_go_out_R_ITAL_8() -> None:
    """R-ITAL-8: one canasta and a canasta of deuces are not enough to go out (the refusal cites R-ITAL-8
    and says why); with a second canasta the last card goes."""
    one = _going_out(aces=False, hand="8H 8S 8D")
    assert one.side_canastas(0) == 1
    rule, reason = refused(one, "meld 8 8 8")
    assert rule == "R-ITAL-8" and "deuces does not count" in reason
    err = one.explain_go_out(one.turn)
    assert err is not None and err.rule == "R-ITAL-8"
    two = _going_out(aces=True)
    assert two.side_canastas(0) == 2 and legal(two, "discard 8")
    two.apply(parse_action("discard 8"))
    assert two.phase in (HAND_OVER, GAME_OVER) and two.went_out == 2


def test_red_threes_and_going_out_R_ITAL_9() -> None:
    """R-ITAL-9: four red threes are 200 each, one is 100; going out is 300; the canasta bonuses of R-CAN-2
    stand.  Going out concealed earns nothing more."""
    state = _going_out(aces=True)
    state.apply(parse_action("discard 8"))
    ns, ew = state.hand_results[-1].sides
    assert (ns.red_threes, ns.going_out, ns.concealed, ns.natural_canastas) == (800, 300, 0, 2)
    assert ew.red_threes == 100 and ew.going_out == 0
    concealed = _going_out(aces=True, s_melded=False)
    concealed.apply(parse_action("discard 8"))
    result = concealed.hand_results[-1]
    assert result.concealed and result.sides[0].concealed == 0 and result.sides[0].total == ns.total


def test_the_canasta_of_deuces_pays_only_the_side_that_goes_out_R_ITAL_10() -> None:
    """R-ITAL-10: 3,000 for the canasta of deuces of the side going out, in place of its R-CAN-2 bonus; the
    other side's canasta of deuces scores its cards (7 x 20) and no bonus."""
    state = _going_out(aces=True)
    state.apply(parse_action("discard 8"))
    ns, ew = state.hand_results[-1].sides
    assert ns.extra_bonuses == 3000 and ew.extra_bonuses == 0
    # canastas 2 x 500, red threes 800, out 300, deuces 3,000; melded Q 70, A 140, deuces 140; N holds 15
    assert ns.total == 2 * 500 + 800 + 300 + 3000 + (70 + 140 + 140) - 15
    assert "extra_bonuses" not in ew.to_dict() and ns.to_dict()["extra_bonuses"] == 3000
    # West goes out instead: North-South's canasta of deuces is worth its 140 and no bonus at all
    other = position("turn: W meld", "pile: 9D", "N: 4S 5S 6S", "E: 4H 5H 6H", "S: 4D 5D 6D", "W: 8H",
                     "melds NS: QS QH QD QC QS QH QD (natural canasta); 2S 2H 2D 2C 2S 2H 2D (canasta of deuces)",
                     "melds EW: KS KH KD KC KS KH KD (natural canasta); AS AH AD AC AS AH AD (natural canasta)",
                     "melded-before: N W")
    other.apply(parse_action("discard 8"))
    ns, ew = other.hand_results[-1].sides
    assert (ns.natural_canastas, ns.extra_bonuses) == (1, 0)
    assert ns.total == 500 + 70 + 140 - 15 - 15
    assert ew.total == 2 * 500 + 300 + 70 + 140 - 15


@pytest.mark.parametrize(("natural", "mixed", "deuces", "went_out", "extra"), [
    (4, 1, False, False, 1000), (5, 0, False, False, 2000), (5, 1, False, True, 2000), (3, 2, False, True, 0),
    (4, 0, True, True, 3000), (4, 5, True, False, 1000 + 2000), (8, 2, False, False, 2000 + 2000),
    (6, 3, True, True, 2000 + 2000 + 3000), (0, 0, True, False, 0)])
def test_the_five_and_ten_canasta_bonuses_R_ITAL_10(natural: int, mixed: int, deuces: bool, went_out: bool,
                                                     extra: int) -> None:
    """R-ITAL-10 (ruling 14): 1,000 for five canastas with four natural, or 2,000 for five natural (the larger
    only); 2,000 more for ten of any kind (the canasta of deuces counted); 3,000 for the deuces if out."""
    assert italian_bonuses(natural, mixed, deuces, went_out, ITALIAN.bonuses) == extra


def test_five_natural_canastas_in_play_R_ITAL_10() -> None:
    """R-ITAL-10 in a hand: the side going out with five natural canastas scores 2,000 more."""
    melds = "; ".join(" ".join(f"{r}{s}" for s in "SHDCSHD") + " (natural canasta)" for r in "56789")
    state = position("turn: S meld", "pile: 9D", "N: 4S", "E: 4H 5H 6H", "W: 4D 5D 6D", "S: KH",
                     f"melds NS: {melds}", "melded-before: N S")
    state.apply(parse_action("discard K"))
    ns = state.hand_results[-1].sides[0]
    assert ns.natural_canastas == 5 and ns.extra_bonuses == 2000


def test_the_game_is_12000_R_ITAL_11() -> None:
    """R-ITAL-11: a total of 6,000 plays on (the classic game would be over); reaching 12,000 ends it."""
    assert ITALIAN.target == 12000
    on = _going_out(aces=True, totals="NS 6000 EW 0")
    on.apply(parse_action("discard 8"))
    assert on.phase == HAND_OVER and on.totals[0] > 6000
    over = _going_out(aces=True, totals="NS 11000 EW 0")
    over.apply(parse_action("discard 8"))
    assert over.phase == GAME_OVER and over.winner == 0 and over.totals[0] >= 12000


# ------------------------------------------------------------------ the look-ahead
def test_the_look_ahead_knows_the_deuce_meld_R_ITAL_6_R_ITAL_8() -> None:
    """R-ITAL-6, R-ITAL-8 in the look-ahead of going out: deuces finish the meld of deuces before they are
    wild, and a canasta of deuces is not one of the two canastas."""
    opts = RuleOptions()
    c = [0] * 15
    c[K], c[Q] = 6, 7
    c[DEUCE] = 1
    assert can_go_out_italian(c, {}, opts)
    assert not can_go_out_italian(c, {DEUCE: (4, 0)}, opts)
    c[DEUCE] = 4
    assert can_go_out_italian(c, {DEUCE: (4, 0)}, opts)
    c2 = [0] * 15
    c2[Q] = 7
    c2[DEUCE] = 7
    assert not can_go_out_italian(c2, {}, opts)  # one canasta and seven deuces: the deuces do not count


# ------------------------------------------------------------------ notation
def test_a_deuce_meld_in_the_notation_R_ITAL_6() -> None:
    """R-ITAL-6 in the notation: 'meld 2 2 2' and 'add 2' read and write back; a position with a meld and a
    canasta of deuces round-trips byte for byte."""
    assert parse_action("meld 2 2 2") == ("meld", DEUCE, 3, 0, 0)
    assert format_action(("meld", DEUCE, 3, 0, 0)) == "meld 2 2 2"
    assert format_action(parse_action("add 2")) == "add 2"
    state = _going_out(aces=True)
    text = format_position(state)
    assert "(canasta of deuces)" in text and "variant: italian" in text
    assert format_position(parse_position(text)) == text
    short = position(*_DEUCES)
    short.apply(parse_action("meld 2 2 2"))
    text = format_position(short)
    assert re.search(r"melds NS: .*; 2[SHDC] 2[SHDC] 2[SHDC]\n", text)
    assert format_position(parse_position(text)) == text


# ------------------------------------------------------------------ checked play
def test_random_self_play_has_no_violation_R_ITAL_1_to_11() -> None:
    """Every R-ITAL rule held at every step of seeded random play (R-ITAL-1..11): 0 invariant violations."""
    report = run_selfplay(hands=30, seed=13, variant="italian")
    assert report.violations == 0, report.messages
    assert report.actions > 2000


def test_rules_of_thumb_games_meld_deuces_and_go_out_R_ITAL_6_R_ITAL_8() -> None:
    """Seeded rules-of-thumb hands, checked after every action: the bot meets R-ITAL-6 and R-ITAL-8 by going
    out and by melding deuces, and nothing breaks."""
    outs = deuce_melds = 0
    for seed in range(8):
        state = deal_state(seed, "italian")
        policies = [make_state_policy("rules-of-thumb", seed=seed * 4 + i) for i in range(4)]
        while state.phase not in (HAND_OVER, GAME_OVER):
            seat = state.actor
            assert seat is not None
            action = policies[seat](state, seat)
            state.apply(action)
            assert check_invariants(state) == []
        outs += state.went_out is not None
        deuce_melds += sum(DEUCE in m for m in state.melds)
    assert outs >= 6 and deuce_melds >= 2


@pytest.mark.slow
def test_expert_and_hint_play_legal_moves_R_ITAL_4_R_ITAL_7() -> None:
    """The expert plays legal moves through an Italian hand (R-ITAL-4, R-ITAL-7 among others), and the hint
    on an Italian position names a legal move."""
    from canasta_tutor.hint import hint
    from canasta_tutor.engine.observer import observe

    state = deal_state(5, "italian")
    policies = [make_state_policy("expert", seed=i, iterations=4) for i in range(4)]
    rng = random.Random(5)
    for _ in range(60):
        if state.phase in (HAND_OVER, GAME_OVER):
            break
        seat = state.actor
        assert seat is not None
        action = policies[seat](state, seat) if rng.random() < 0.5 else rng.choice(state.legal_actions())
        state.apply(action)
    if state.phase in (HAND_OVER, GAME_OVER):
        state = deal_state(6, "italian")
    seat = state.actor
    assert seat is not None
    h = hint(observe(state, seat), samples=16)
    assert h.best in state.legal_actions()


# ------------------------------------------------------------------ the command line and records
def test_deal_and_selfplay_commands_R_ITAL_1_R_ITAL_2(capsys: pytest.CaptureFixture[str]) -> None:
    """`deal --variant italian` prints a position of 162 cards with fifteen in each hand (R-ITAL-1, R-ITAL-2)
    that reads back; `selfplay --variant italian` reports no violation."""
    from canasta_tutor.cli.main import main

    assert main(["deal", "--variant", "italian", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    state = parse_position(text)
    assert state.variant is ITALIAN and format_position(state) == text
    assert all(len(state.hand(s)) == 15 for s in "NESW") and len(state.cards_everywhere()) == 162
    assert main(["selfplay", "--variant", "italian", "--hands", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "italian" and data["violations"] == 0 and data["check"] is True


def _hand_with_deuces() -> State:
    """A rules-of-thumb hand of Italian Canasta that lays a meld of deuces, played to its end."""
    for seed in range(20):
        state = deal_state(seed, "italian")
        policies = [make_state_policy("rules-of-thumb", seed=i) for i in range(4)]
        while state.phase not in (HAND_OVER, GAME_OVER):
            seat = state.actor
            assert seat is not None
            state.apply(policies[seat](state, seat))
        if any(a[:2] == ("meld", DEUCE) for a in state.history):
            return state
    raise AssertionError("no hand with a meld of deuces")


def test_a_record_with_a_deuce_meld_round_trips_R_ITAL_6() -> None:
    """R-ITAL-6 in a game record: 'meld 2 2 2' is written naturally and the record replays to the same game;
    format(parse(x)) == x for the record and for the final position."""
    state = _hand_with_deuces()
    text = format_record(state)
    assert text.splitlines()[1] == "variant: italian" and "meld 2 2 2" in text
    again = replay(parse_record(text))
    assert again.history == state.history and again.totals == state.totals
    assert format_record(again) == text
    end = format_position(state)
    assert format_position(parse_position(end)) == end


# ------------------------------------------------------------------ bots and the hint
def test_the_rules_of_thumb_bot_knows_the_italian_rules_R_ITAL_4_R_ITAL_6_R_ITAL_7() -> None:
    """The rules-of-thumb bot reads the pile as always frozen (R-ITAL-4), melds its deuces when it holds three
    or more (R-ITAL-6), and opens with naturals only (R-ITAL-7)."""
    from canasta_tutor.bots.rules_of_thumb import decide, next_player_waiting
    from canasta_tutor.engine.observer import observe

    pack = position(*_PACK)
    obs = observe(pack, pack.turn)
    assert obs.frozen_for(0) and obs.frozen_for(1) and not next_player_waiting(obs)
    assert decide(obs)[0] == parse_action("take K K K")
    deuces = position(*_DEUCES)
    action, principles = decide(observe(deuces, deuces.turn))
    assert action == parse_action("meld 2 2 2") and "P-BUILD-CANASTA" in principles
    opening = position(*_OPEN)
    action, _ = decide(observe(opening, opening.turn))
    assert action in opening.legal_actions() and action[0] == "meld" and action[3:] == (0, 0)


def test_the_hint_facts_name_the_italian_pile_R_ITAL_4() -> None:
    """The hint's facts say that the Italian pack is always frozen, citing R-ITAL-4."""
    from canasta_tutor.hint import explain_move
    from canasta_tutor.engine.observer import observe

    pack = position(*_PACK)
    sentences = explain_move(observe(pack, pack.turn), parse_action("take K K K"))
    assert any("R-ITAL-4" in s and "always frozen" in s for s in sentences), sentences


# ------------------------------------------------------------------ the table
def test_the_table_melds_deuces_and_shows_them_like_any_rank_R_ITAL_6() -> None:
    """R-ITAL-6 at the table: three deuces selected and Meld pressed make a meld of deuces, which the view
    model shows like any rank (its kind and label '2'); a deuce selected and Add pressed joins it."""
    from canasta_tutor.engine.observer import observe
    from canasta_tutor.tutor.session import TableSession
    from canasta_tutor.tutor.view import build_view

    session = TableSession(state=position(*_DEUCES), bots={})
    deuces = [session.index_of(code) for code in ("2S", "2H", "2D")]
    session.select(deuces)
    out = session.press("meld")
    assert "[" not in out[:2], out
    state = session.state
    assert len(state.melds[0][DEUCE][0]) == 3
    view = build_view(observe(state, state.variant.seats.index("S")))
    deuce_meld = next(m for m in view["melds"][0] if m["kind"] == "2")
    assert deuce_meld["label"] == "2" and deuce_meld["name"] == "deuces" and len(deuce_meld["cards"]) == 3
    assert view["pile"]["frozen_us"] and view["pile"]["frozen_all"] and "everyone" in view["pile"]["note"]
    # the cards laid face down under the upcard (R-ITAL-3) are never shown crosswise as the freezing card
    for seed in range(8):
        dealt = Game(variant="italian").new_initial_state(seed=seed)
        pile_view = build_view(observe(dealt, dealt.turn))["pile"]
        assert pile_view["freezer"] is None and not pile_view["top_sideways"] and pile_view["frozen_all"]
    session.select([session.index_of("2C")])
    out = session.press("add", "2")
    assert len(state.melds[0][DEUCE][0]) == 4 and "[" not in out[:2], out


def _no_dead_end(state: State, depth: int, budget: list[int]) -> None:
    """Every legal action of the turn leaves a legal action to follow (up to ``depth`` steps deep)."""
    if budget[0] <= 0:
        return
    budget[0] -= 1
    legal_now = state.legal_actions()
    assert legal_now, format_position(state)
    if depth == 0:
        return
    for action in legal_now:
        if action[0] in ("discard", "draw", "ask", "pass", "deal"):
            continue
        after = state.copy()
        after.apply_unchecked(action)
        if after.phase not in (HAND_OVER, GAME_OVER) and after.turn == state.turn:
            _no_dead_end(after, depth - 1, budget)


@pytest.mark.slow
def test_no_legal_move_leads_to_a_dead_end_R_ITAL_6_R_ITAL_7_R_ITAL_8() -> None:
    """The look-ahead of R-ITAL-6 (deuces), R-ITAL-7 (no wild card before the minimum) and R-ITAL-8 (two
    canastas, not the deuces) never offers a step after which the turn cannot end legally: the melds, adds
    and takes of each turn are explored a few steps deep along seeded mixed play."""
    checked = 0
    for seed in range(16):
        state = Game(variant="italian").new_initial_state(seed=seed)
        rng = random.Random(seed)
        policies = [make_state_policy("rules-of-thumb", seed=i) for i in range(4)]
        while state.phase not in (HAND_OVER, GAME_OVER):
            if state.phase in ("draw", MELD) and (state.hand_size[state.turn] <= 8
                                                  or not state.initial[state.sides[state.turn]]):
                _no_dead_end(state, 4, [300])
                checked += 1
            actor = state.actor
            assert actor is not None
            choices = state.legal_actions()
            keen = [a for a in choices if a[0] in ("meld", "add", "take", "ask", "yes")]
            if rng.random() < 0.5:
                state.apply(policies[actor](state, actor))
            else:
                state.apply(rng.choice(keen if keen and rng.random() < 0.7 else choices))
    assert checked > 500


def test_the_italian_fields_default_to_the_classic_game_R_ITAL_4_R_ITAL_6_R_ITAL_7() -> None:
    """The Variant fields for R-ITAL-3, 4, 6, 7 and 10 default to the classic behaviour, so every other variant
    keeps the classic fast listing; Italian Canasta sets them all."""
    from canasta_tutor.engine.variants import VARIANTS

    for name, v in VARIANTS.items():
        fields = (v.deuce_melds, v.pile_always_frozen, v.initial_without_wilds, v.pile_start != "upcard",
                  v.checked_listing, bool(v.bonuses.deuce_canasta or v.bonuses.ten_canastas))
        assert fields == ((True,) * 6 if name == "italian" else (False,) * 6), name


def test_the_hint_says_what_going_out_pays_in_italian_canasta_R_ITAL_9() -> None:
    """The going-out fact names Italian Canasta's own bonus, 300 (R-ITAL-9), and its two-canasta rule
    (R-ITAL-8), not the classic 100 of R-SCORE-1."""
    from canasta_tutor.bots.expert import rot_policy
    from canasta_tutor.hint.detectors import move_facts
    from canasta_tutor.engine.observer import observe

    found = 0
    for seed in range(40):
        state = Game(variant="italian").new_initial_state(seed=seed)
        while state.phase not in (HAND_OVER, GAME_OVER) and not found:
            seat = state.actor
            for a in state.legal_actions():
                after = state.copy()
                after.apply_unchecked(a)
                if after.went_out is not None and seat == state.turn:
                    facts = {f.id: f for f in move_facts(observe(state, seat), a)}
                    fact = facts["goes-out"]
                    assert "+300 for going out" in fact.text and "R-ITAL-9" in fact.text, fact.text
                    assert fact.rule == "R-ITAL-8" and "R-SCORE-1" not in fact.text
                    found += 1
                    break
            state.apply_unchecked(rot_policy(state, state.actor))
        if found:
            break
    assert found
