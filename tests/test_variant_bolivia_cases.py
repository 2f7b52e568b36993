"""Held-out rule cases for Bolivia (and Chile): each a position and the engine's answer.

Each case was written from a point of the sources (the rule book's labels: Bicycle-Bolivia, "Bolivia" at
bicyclecards.ca; RG-Bolivia, "Bolivia Rules" at rummy-games.com; WK-Bolivia, "Bolivia" at
whiteknucklecards.com; BC-Bolivia, "Bolivian Canasta", a games page of 2001 in the Internet Archive; RG-Chile,
"Chilean Canasta Rules"), which its docstring names, and checked against that point rather than against the
code.  The positions are not used by any other test; the rules they exercise are R-BOL-1..9 and the Samba
rules Bolivia keeps.
"""

from __future__ import annotations

from canasta_tutor.engine.cards import BLACK_THREE, DEUCE, JOKER, parse_kind
from canasta_tutor.engine.state import State
from canasta_tutor.notation.actions import parse_action
from canasta_tutor.notation.position import parse_position


def _position(turn: str, south: str, melds: str, pile: str = "5C QC", totals: str = "NS 0 EW 0",
              variant: str = "bolivia", east: str = "5H 7D 9S JD AS") -> State:
    """North-South's melds and South's hand as given, the other hands small, the stock the rest of the 162."""
    body = {"pile": pile, "N": "4S 6D 8C TD JC", "E": east, "S": south, "W": "5S 7C 9D JH AC",
            "melds NS": melds}
    held = sum(1 for v in body.values() for w in v.replace(";", " ").split() if "(" not in w and ")" not in w)
    text = (f"canasta-tutor position\nvariant: {variant}\nseed: 9\ndeal: 0\ndealer: E\nturn: {turn}\n"
            f"totals: {totals}\nstock: {162 - held}\n" + "".join(f"{k}: {v}\n" for k, v in body.items()))
    return parse_position(text)


def _refused(state: State, text: str) -> str:
    err = state.explain(parse_action(text))
    assert err is not None, text
    return err.rule


ESCALERA = "4H 5H 6H 7H 8H 9H TH (escalera)"
NAT_K = "KS KH KD KC KS KH KD (natural canasta)"


def test_case_01_three_wild_cards_make_a_meld() -> None:
    """RG-Bolivia, "Wild cards may be melded as a set of their own (three or more)"; Bicycle-Bolivia, "Three or
    more wild cards may be melded": a joker and two deuces are a legal meld."""
    state = _position("S meld", "JK 2S 2D 9H 9D", NAT_K)
    assert state.explain(parse_action("wild JK 2 2")) is None


def test_case_02_two_wild_cards_are_not_a_meld() -> None:
    """The same sources' "three or more": two wild cards alone are never a meld (R-BOL-2)."""
    state = _position("S meld", "JK 2S 9H 9D 5S", NAT_K)
    assert not any(a[0] == "wild" for a in state.legal_actions())
    assert _refused(state, "wild JK 2") == "R-BOL-2"


def test_case_03_jokers_and_deuces_mix_freely() -> None:
    """RG-Bolivia and Bicycle-Bolivia, "There is no distinction between jokers and twos": three deuces, or
    three jokers, or any mixture, start a meld of wild cards."""
    state = _position("S meld", "JK JK JK 2S 2D 2H 9H", NAT_K)
    legal = {a for a in state.legal_actions() if a[0] == "wild"}
    assert legal == {("wild", 3, 0), ("wild", 2, 1), ("wild", 1, 2), ("wild", 0, 3)}


def test_case_04_a_bolivia_is_worth_2500() -> None:
    """Bicycle-Bolivia, "A canasta of seven wild cards, called a 'bolivia,' counts 2,500"; BC-Bolivia, "worth
    2500 points": going out with a bolivia and an escalera scores 2,500 for the bolivia on top of its cards."""
    state = _position("S meld", "9H 9D 9C", f"JK JK JK 2S 2H 2D 2C (bolivia); {ESCALERA}")
    state.apply(parse_action("meld 9 9 9"))
    ns = state.hand_results[-1].sides[0]
    assert ns.bolivias == 1  # type: ignore[attr-defined]
    cards = 3 * 50 + 4 * 20 + 50 + 30
    assert ns.total == cards + 2500 + 1500 + 200 - 40


def test_case_05_nothing_is_added_to_a_bolivia() -> None:
    """RG-Bolivia, "No additional cards may be added to a bolivia": a deuce onto the side's bolivia is
    refused."""
    state = _position("S meld", "2C 9H 9D 5S", f"{NAT_K}; JK JK JK 2S 2H 2D 2C (bolivia)")
    assert ("put", 1, DEUCE) not in state.legal_actions()
    assert _refused(state, "put 2 on m2") == "R-BOL-2"


def test_case_06_a_wild_card_on_top_bars_the_pack() -> None:
    """Bicycle-Bolivia, "When the discard pile is topped by a wild card, it may not be taken"; RG-Bolivia, the
    same: with a deuce on top, South holding two jokers and a meld of wild cards can only draw."""
    state = _position("S draw", "JK JK 9H 9D 5S", f"{NAT_K}; JK 2S 2H", pile="5C 2D")
    assert state.legal_actions() == [("draw",)]
    assert _refused(state, "take 2 on m2") == "R-BOL-4"


def test_case_07_two_canastas_without_an_escalera_do_not_go_out() -> None:
    """Bicycle-Bolivia, "At least one of the two canastas must be a sequence canasta"; RG-Bolivia, the same:
    with a natural canasta and a bolivia but no escalera, South may not meld his last cards."""
    state = _position("S meld", "9H 9D 9C", f"{NAT_K}; JK JK JK 2S 2H 2D 2C (bolivia)")
    assert _refused(state, "meld 9 9 9") == "R-BOL-5"
    assert ("meld", parse_kind("9"), 3, 0, 0) not in state.legal_actions()


def test_case_08_an_escalera_and_any_other_canasta_go_out() -> None:
    """BC-Bolivia, "Two canastas are required to go out and at least one of them must be an Escalera": an
    escalera and a natural canasta let South go out by melding his last three cards."""
    state = _position("S meld", "9H 9D 9C", f"{NAT_K}; {ESCALERA}")
    state.apply(parse_action("meld 9 9 9"))
    assert state.went_out == 2


def test_case_09_one_escalera_alone_does_not_go_out() -> None:
    """The sources' "two canastas": an escalera alone is one canasta, not two."""
    state = _position("S meld", "9H 9D 9C", f"KS KH KD; {ESCALERA}")
    assert _refused(state, "meld 9 9 9") == "R-BOL-5"


def test_case_10_a_black_three_left_in_hand_costs_100() -> None:
    """Bicycle-Bolivia, "A black three left in the hand when any other player (including a partner) goes out
    counts minus 100 points"; RG-Bolivia, "they each count 100 points against you": East's black three costs
    East-West 100, not 5."""
    state = _position("S meld", "9H 9D 9C", f"{NAT_K}; {ESCALERA}", east="5H 7D 3S 3C AS")
    state.apply(parse_action("meld 9 9 9"))
    ew = state.hand_results[-1].sides[1]
    assert ew.in_hand == -(5 + 5 + 100 + 100 + 20) - (5 + 5 + 10 + 10 + 20)


def test_case_11_black_threes_melded_going_out_count_5() -> None:
    """Bicycle-Bolivia, "Black threes melded in going out count 5 points each"; BC-Bolivia, "A black three
    melded counts only 5 points": South goes out melding three black threes, which add 15."""
    state = _position("S meld", "3S 3S 3C", f"{NAT_K}; {ESCALERA}")
    state.apply(("meld", BLACK_THREE, 3, 0, 0))
    ns = state.hand_results[-1].sides[0]
    assert state.went_out == 2 and ns.melded == 70 + 50 + 15


def test_case_12_the_minimum_is_150_from_7000() -> None:
    """Bicycle-Bolivia, "The initial meld requirement stays at 150 from 7,000 points up"; BC-Bolivia, "7000 or
    more needs 150 pts.": at 7,000 a meld of 140 is short and one of 150 is enough."""
    state = _position("S meld", "AS AH AD JK 2S 2D KS KH KD 5S", "", totals="NS 7000 EW 0")
    assert state.minimums[0] == 150  # type: ignore[attr-defined]
    # three aces and a meld of three wild cards: 60 + 90 = 150
    state.apply(parse_action("meld A A A"))
    state.apply(parse_action("wild JK 2 2"))
    assert state.initial[0]  # type: ignore[attr-defined]


def test_case_13_the_minimum_below_7000_is_samba_s() -> None:
    """BC-Bolivia, "3000-6995 needs 120 pts.": at 6,995 the minimum is 120."""
    state = _position("S draw", "9H 9D 5S", "", totals="NS 6995 EW 0")
    assert state.minimums[0] == 120  # type: ignore[attr-defined]


def test_case_14_the_game_is_15000() -> None:
    """Bicycle-Bolivia, "Game is 15,000"; RG-Bolivia, "A game-winning score is 15000 points": a side that ends a
    hand at 14,310 plays on (Samba's 10,000 would have ended the game); one that ends it at 15,110 wins."""
    state = _position("S meld", "9H 9D 9C", f"{NAT_K}; {ESCALERA}", totals="NS 12000 EW 11000")
    state.apply(parse_action("meld 9 9 9"))
    assert state.totals[0] == 14310 and state.phase == "hand_over"
    state = _position("S meld", "9H 9D 9C", f"{NAT_K}; {ESCALERA}", totals="NS 12800 EW 11000")
    state.apply(parse_action("meld 9 9 9"))
    assert state.totals[0] == 15110 and state.phase == "game_over" and state.winner == 0


def test_case_15_chile_plays_bolivia_s_rules() -> None:
    """RG-Chile, "sequence melds ... as in Samba, and wildcard melds ... as in Bolivia": in Chile three wild
    cards meld alone and a sequence of seven is needed to go out, exactly as in Bolivia (R-BOL-9)."""
    state = _position("S meld", "JK 2S 2D 9H 9D 9C", f"{NAT_K}; JK JK JK 2S 2H 2D 2C (bolivia)", variant="chile")
    assert state.explain(parse_action("wild JK 2 2")) is None
    state = _position("S meld", "9H 9D 9C", f"{NAT_K}; JK JK JK 2S 2H 2D 2C (bolivia)", variant="chile")
    assert _refused(state, "meld 9 9 9") == "R-BOL-5"


def test_case_16_a_set_still_holds_two_wild_cards_at_most() -> None:
    """Bicycle-Bolivia and RG-Bolivia, "the same game as Samba" but for their changes, so Samba's limit of two
    wild cards in a set stands (ruling 18): a third wild card on a set of kings is refused."""
    state = _position("S meld", "JK 9H 9D 5S", "KS KH KD 2S 2H")
    assert _refused(state, "put JK on m1") == "R-SAMBA-4"
    assert ("put", 0, JOKER) not in state.legal_actions()
