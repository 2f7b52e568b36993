"""Bolivia and Chile (R-BOL-1..9): the book, the variant, its melds of wild cards, the pack a wild card bars,
going out with an escalera, the black threes' 100, the figures, positions and seeded play.

The exact end-of-turn test is checked against an exhaustive search in tests/test_bolivia_turn.py; the held-out
rule cases (a position and the engine's answer each) are in tests/test_variant_bolivia_cases.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.bolivia import BoliviaState
from canasta_tutor.engine.cards import BLACK_THREE, DEUCE, JOKER, parse_kind
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine.rulebook import book_path, parse_rules
from canasta_tutor.engine.samba import WILD_SUIT
from canasta_tutor.engine.variants import get_variant
from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.notation.position import format_position, parse_position

BOOK = parse_rules(book_path().read_text(encoding="utf-8"))
BOLIVIA = get_variant("bolivia")
SAMBA = get_variant("samba")
NINE = parse_kind("9")

#: rule -> the phrases its text must state
FIGURES = {
    "R-BOL-1": ("three to seven", "four lowest and ace highest", "escalera", "1,500"),
    "R-BOL-2": ("three or more jokers and deuces", "R-MELD-3", "more than one", "At seven cards", "bolivia"),
    "R-BOL-3": ("2,500",),
    "R-BOL-4": ("wild card on top", "R-PACK-3", "never goes onto a meld of wild cards"),
    "R-BOL-5": ("two canastas", "escalera", "R-SAMBA-7", "bolivia counts"),
    "R-BOL-6": ("black three", "100", "count of 5"),
    "R-BOL-7": ("7,000", "150", "not 160", "15", "50", "90", "120"),
    "R-BOL-8": ("15,000", "R-SAMBA-10"),
    "R-BOL-9": ("Chile", "`chile`", "under another name"),
}

#: South to play, after drawing: the side has two natural canastas and three wild cards melded
BASE = """canasta-tutor position
variant: bolivia
seed: 5
deal: 0
dealer: E
turn: S meld
totals: NS 0 EW 0
stock: {stock}
pile: 5C QC
N: 4S 6D 8C TD JC
E: 5H 7D 9S JD AS
S: {south}
W: 5S 7C 9D JH AC
melds NS: KS KH KD KC KS KH KD (natural canasta); QS QH QD QC QS QH QD; JK JK 2S{more}
"""


def position(south: str, more: str = "", **changes: str) -> BoliviaState:
    """BASE with South's hand, more melds for North-South and replacements (``_`` for a space in a key); the
    stock holds the rest of the 162 cards."""
    text = BASE.replace("{south}", south).replace("{more}", more)
    for old, new in changes.items():
        text = text.replace(old.replace("_", " "), new)
    held = 0
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        if key in ("pile", "N", "E", "S", "W", "melds NS", "melds EW"):
            held += sum(1 for word in value.replace(";", " ").split() if "(" not in word and ")" not in word)
    state = parse_position(text.replace("{stock}", str(162 - held)))
    assert isinstance(state, BoliviaState)
    return state


ESCALERA = "; 4H 5H 6H 7H 8H 9H TH (escalera)"


@pytest.mark.parametrize("rule", sorted(FIGURES))
def test_the_book_states_the_figures(rule: str) -> None:
    """R-BOL-1..9 are in the Bolivia section and state their figures."""
    assert BOOK[rule].title == "Bolivia"
    missing = [p for p in FIGURES[rule] if p not in BOOK[rule].text]
    assert not missing, f"{rule} does not state {missing}"


def test_every_bolivia_rule_has_figures() -> None:
    assert sorted(r for r in BOOK if r.startswith("R-BOL-")) == sorted(FIGURES)


def test_the_variant_is_samba_with_its_changes_R_BOL_1_R_BOL_3_R_BOL_7_R_BOL_8() -> None:
    """R-BOL-1: Samba's cards, deal, draw and sequences (an escalera 1,500); R-BOL-3: a bolivia 2,500;
    R-BOL-7: 150 from 7,000 up; R-BOL-8: game 15,000."""
    v = BOLIVIA
    for field in ("players", "seats", "sides", "num_cards", "hand_size", "draw", "canastas_to_go_out", "bonuses",
                  "set_wild_cap", "samba_bonus", "red_threes_need_canastas", "sequences"):
        assert getattr(v, field) == getattr(SAMBA, field), field
    assert (v.rule_area, v.rules, v.wild_meld_bonus, v.target, v.black_three_in_hand) == ("BOL", "bolivia", 2500,
                                                                                          15000, 100)
    assert [v.minimum_for(t) for t in (-5, 0, 1500, 3000, 6995, 7000, 14000)] == [15, 50, 90, 120, 120, 150, 150]
    assert v.out_needs_sequence and v.wild_melds and v.go_out_rule == "R-BOL-5"


def test_chile_is_bolivia_under_another_name_R_BOL_9() -> None:
    """R-BOL-9, ruling 19: every field but the name is Bolivia's, and the state is Bolivia's."""
    chile = get_variant("chile")
    assert chile.name == "chile"
    for field in BOLIVIA.__dataclass_fields__:
        if field != "name":
            assert getattr(chile, field) == getattr(BOLIVIA, field), field
    assert type(Game(variant="chile").new_initial_state(seed=1)) is BoliviaState


def test_melds_of_wild_cards_are_offered_made_and_grown_R_BOL_2() -> None:
    """R-BOL-2: three wild cards make a meld of their own, a fourth joins it by number, and a wild card is never
    melded as a set of one rank."""
    s = position("9H 9D 2H 2C JK 5S")
    legal = s.legal_actions()
    assert ("wild", 1, 2) in legal and ("put", 2, JOKER) in legal and ("put", 2, DEUCE) in legal
    refused = s.explain(("meld", JOKER, 0, 3, 0))
    assert refused is not None and refused.rule == "R-BOL-2"
    s.apply(("wild", 1, 2))
    melds = s.samba_melds(0)
    assert melds[-1].suit == WILD_SUIT and len(melds[-1].wilds) == 3 and not melds[-1].naturals
    assert parse_action("wild JK 2 2") == ("wild", 1, 2) and format_action(("wild", 1, 2)) == "wild JK 2 2"


def test_a_bolivia_is_closed_at_seven_R_BOL_2() -> None:
    """R-BOL-2: a meld of seven wild cards is a bolivia, a canasta that takes no further card."""
    s = position("9H 9D 9S JK 5S", more="; JK JK 2S 2H 2D 2C JK (bolivia)")
    assert s.samba_melds(0)[3].is_canasta
    refused = s.explain(("put", 3, JOKER))
    assert refused is not None and refused.rule == "R-BOL-2"
    assert ("put", 2, JOKER) in s.legal_actions()


def test_a_wild_top_card_bars_the_pack_R_BOL_4() -> None:
    """R-BOL-4: with a joker on top, even a player holding two jokers may only draw."""
    s = position("9H JK JK 5S", more=ESCALERA, **{"turn: S meld": "turn: S draw", "pile: 5C QC": "pile: 5C JK"})
    assert s.legal_actions() == [("draw",)]
    refused = s.explain(("take", JOKER, 2, 0, 0))
    assert refused is not None and refused.rule == "R-BOL-4"


def test_the_top_card_never_goes_onto_a_meld_of_wild_cards_R_BOL_4() -> None:
    s = position("9H 5S 7D", more=ESCALERA, **{"turn: S meld": "turn: S draw", "pile: 5C QC": "pile: 5C 9C"})
    refused = s.explain(("takeon", NINE, 2))
    assert refused is not None and refused.rule == "R-BOL-4"


def test_going_out_needs_an_escalera_R_BOL_5() -> None:
    """R-BOL-5: two natural canastas are not enough; with an escalera the same meld goes out."""
    s = position("9H 9D 9C")
    refused = s.explain(("meld", NINE, 3, 0, 0))
    assert refused is not None and refused.rule == "R-BOL-5" and "escalera" in str(refused)
    s = position("9H 9D 9C", more=ESCALERA)
    s.apply(("meld", NINE, 3, 0, 0))
    assert s.went_out == 2 and not check_invariants(s)


def test_a_bolivia_counts_toward_going_out_R_BOL_5() -> None:
    """R-BOL-5, ruling 18: an escalera and a bolivia are two canastas."""
    s = position("9H 9D 9C", more="; JK JK 2S 2H 2D 2C JK (bolivia)" + ESCALERA,
                 **{"KS KH KD KC KS KH KD (natural canasta)": "KS KH KD", "QS QH QD QC QS QH QD;": "QS QH QD;"})
    assert ("meld", NINE, 3, 0, 0) in s.legal_actions()


def test_the_score_of_a_hand_R_BOL_3_R_BOL_6() -> None:
    """R-BOL-3: a bolivia earns 2,500 besides its cards; R-BOL-6: a black three left in a hand costs 100; the
    escalera earns 1,500 (R-BOL-1) and going out 200 (R-SAMBA-9)."""
    s = position("9H 9D 9C", more="; JK JK 2S 2H 2D 2C JK (bolivia)" + ESCALERA,
                 **{"E: 5H 7D 9S JD AS": "E: 5H 7D 9S JD 3S"})
    s.apply(("meld", NINE, 3, 0, 0))
    ns, ew = s.hand_results[-1].sides
    assert ns.bolivias == 1 and ns.sambas == 1 and ns.natural_canastas == 2 and ns.mixed_canastas == 0
    # cards melded: kings 70, queens 70, JK JK 2S 120, bolivia 3*50 + 4*20 = 230, escalera 50, nines 30
    assert ns.melded == 70 + 70 + 120 + 230 + 50 + 30
    assert ns.total == ns.melded + 2 * 500 + 2500 + 1500 + 200 - 40
    assert ew.in_hand == -(5 + 5 + 10 + 10 + 100 + 5 + 5 + 10 + 10 + 20) and ew.total == ew.in_hand
    assert not check_invariants(s)


def test_melded_black_threes_keep_their_count_R_BOL_6() -> None:
    s = position("3S 3S 3C", more=ESCALERA)
    s.apply(("meld", BLACK_THREE, 3, 0, 0))
    ns = s.hand_results[-1].sides[0]
    assert ns.melded == 70 + 70 + 120 + 50 + 15 and not check_invariants(s)


@pytest.mark.parametrize("name", ["bolivia", "chile"])
def test_positions_round_trip_with_melds_of_wild_cards_R_BOL_2(name: str) -> None:
    s = position("9H 9D 9C 5S", more="; JK JK 2S 2H 2D 2C JK (bolivia)" + ESCALERA,
                 **{"variant: bolivia": f"variant: {name}"})
    text = format_position(s)
    assert f"variant: {name}" in text and "(bolivia)" in text and "(escalera)" in text
    assert format_position(parse_position(text)) == text


def test_seeded_self_play_breaks_no_invariant_R_BOL_1_R_BOL_8() -> None:
    for name in ("bolivia", "chile"):
        report = run_selfplay(hands=4, seed=11, variant=name)
        assert report.hands == 4 and report.violations == 0, report.messages


def test_the_hint_names_a_bolivia_and_an_escalera_R_BOL_1_R_BOL_3_R_BOL_5() -> None:
    """The hint's facts in Bolivia: a seventh wild card makes a bolivia (+2,500), a seventh card of a sequence an
    escalera, and going out is told as needing an escalera among the two canastas."""
    from canasta_tutor.engine.observer import observe
    from canasta_tutor.hint.detectors import move_facts

    s = position("JK TH 5S 7D", more="; JK JK 2S 2H 2D 2C; 4H 5H 6H 7H 8H 9H")
    obs = observe(s, 2)
    words = " ".join(f.text for f in move_facts(obs, ("put", 3, JOKER)))
    assert "bolivia" in words and "2,500" in words and "R-BOL-3" in words
    words = " ".join(f.text for f in move_facts(obs, ("put", 4, parse_kind("T"))))
    assert "escalera" in words and "R-BOL-1" in words
    assert "an escalera among them, enough to go out" in words and "R-BOL-5" in words


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["bolivia", "chile"]), st.integers(0, 10**6), st.integers(0, 160), st.booleans())
def test_positions_of_play_with_melds_of_wild_cards_read_back_R_BOL_2(name: str, seed: int, steps: int,
                                                                       view: bool) -> None:
    """Hypothesis: random play that melds wild cards alone whenever it may (so melds of wild cards and bolivias
    turn up), then the position's text, or the seat to play's view, reads back to the same text and a playable
    state."""
    import random

    from canasta_tutor.engine.observer import observe

    state = Game(variant=name).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase == "game_over":
            break
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] == "wild" or (a[0] == "put" and a[2] in (JOKER, DEUCE))]
        state.apply(rng.choice(keen) if keen else rng.choice(legal))
    seat = state.actor if view and state.actor is not None else None
    text = format_position(state) if seat is None else observe(state, seat).position_text
    again = parse_position(text)
    assert format_position(again, seat) == text
    if again.phase not in ("hand_over", "game_over"):
        assert again.legal_actions()
