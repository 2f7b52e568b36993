"""Turn planning: selected physical cards to engine actions, refusals from the engine only."""

from __future__ import annotations

import textwrap

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor import Game
from canasta_tutor.engine.cards import CARD_CODE, CARD_KIND, DEUCE, JOKER
from canasta_tutor.engine.errors import IllegalActionError
from canasta_tutor.notation.position import parse_position
from canasta_tutor.tutor.planning import Guidance, Plan, plan_button
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.tutor.view import kind_token

S = 2
FIVE, SIX, NINE = 1, 2, 5


def P(text: str):
    """A position; ``stock: auto`` holds the count of cards nobody else holds (108 in all)."""
    text = textwrap.dedent(text)
    used = 0
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key in ("N", "E", "S", "W"):
            used += int(value) if value.isdigit() else len(value.split())
        elif key == "pile" or key.startswith("melds") or key.startswith("red threes"):
            used += len(value.replace(";", " ").split())
    return parse_position(text.replace("stock: auto", f"stock: {108 - used}"))


def ids(state, *codes: str) -> list[int]:
    """The physical ids of these codes in South's hand (distinct copies for repeated codes)."""
    hand = [c for k in state.hands[S] for c in k]
    out: list[int] = []
    for code in codes:
        out.append(next(c for c in hand if CARD_CODE[c] == code and c not in out))
    return out


def before_drawing(pile: str, south: str, melds: str = "") -> object:
    return P(f"""
        dealer: E
        turn: S draw
        stock: auto
        pile: {pile}
        N: 11
        E: 11
        S: {south}
        W: 11
        {melds}
        """)


def test_take_refusal_with_other_cards_is_the_engines_reason_for_the_take():
    # pile top 5♣, 9♠ 9♥ selected before drawing: the take is refused, not "draw before melding"
    state = before_drawing("8D 5C", "9S 9H 6C 7D KS QH 4H")
    out = plan_button(state, S, "take", ids(state, "9S", "9H"))
    assert isinstance(out, IllegalActionError)
    expected = state.explain(("take", FIVE, 0, 0, 0))
    assert expected is not None and (out.rule, out.reason) == (expected.rule, expected.reason)
    assert "Draw" not in out.reason


def test_take_with_pair_and_wild_card_below_the_minimum_says_what_the_take_lacks():
    state = before_drawing("8D 6H", "6S 6C 2C 7D KS QH 4H")
    out = plan_button(state, S, "take", ids(state, "6S", "6C", "2C"))
    assert isinstance(out, IllegalActionError)
    assert out.rule == "R-PACK-5" and "three cards" not in out.reason
    assert out.action == ("take", SIX, 2, 0, 1)
    state = before_drawing("8D 6H", "6S 6C JK 7D KS QH 4H")  # 6 6 6 JK reaches 50
    out = plan_button(state, S, "take", ids(state, "6S", "6C", "JK"))
    assert isinstance(out, Plan) and out.actions == (("take", SIX, 2, 1, 0),)


def test_take_with_pair_and_joker_after_the_initial_meld_adds_the_joker():
    state = before_drawing("8D 6H", "6S 6C JK 7D KS QH 4H", "melds NS: AH AS AD")
    out = plan_button(state, S, "take", ids(state, "6S", "6C", "JK"))
    assert isinstance(out, Plan), out
    assert out.actions == (("take", SIX, 2, 0, 0), ("add", SIX, JOKER))


def test_take_with_the_wrong_pair_names_the_take():
    state = before_drawing("8D 5H", "6S 6C JK 7D KS QH 4H")
    out = plan_button(state, S, "take", ids(state, "6S", "6C", "JK"))
    assert isinstance(out, IllegalActionError) and out.action[0] == "take" and out.rule.startswith("R-PACK")


def test_take_with_nothing_selected_adds_the_top_card_to_the_meld():
    state = before_drawing("8D QC", "7C 7D 8S 9S 4H", "melds NS: QH QS QD")
    out = plan_button(state, S, "take", [])
    assert isinstance(out, Plan) and out.actions == (("take", 8, 0, 0, 0),)


def test_take_shows_a_meld_before_taking_when_the_side_must_open():
    state = before_drawing("8D 6H", "6S 6C AS AH AD 7D 4H")
    out = plan_button(state, S, "take", ids(state, "6S", "6C", "AS", "AH", "AD"))
    assert isinstance(out, Plan), out
    assert out.actions[-1] == ("take", SIX, 2, 0, 0) and out.actions[0][0] == "meld"


def test_meld_refusals_come_from_the_engine():
    state = Game().new_initial_state(seed=11)
    state.apply(("draw",))
    for codes in (["6H", "6C"], ["9S", "9H", "QS", "JK"], ["3C", "JK"], ["JK"]):
        out = plan_button(state, S, "meld", ids(state, *codes))
        assert isinstance(out, IllegalActionError), (codes, out)
        assert out.rule.startswith("R-MELD") or out.rule.startswith("R-RED"), out


def test_wild_cards_go_to_the_meld_that_needs_them():
    state = Game().new_initial_state(seed=11)
    state.apply(("draw",))
    # two sixes and two nines and one joker: only one of the two assignments is a legal meld
    out = plan_button(state, S, "meld", ids(state, "6H", "6C", "4S", "4H", "4C", "JK"))
    assert isinstance(out, Plan), out
    assert ("meld", SIX, 2, 1, 0) in out.actions


def test_guidance_is_not_a_refusal():
    state = Game().new_initial_state(seed=11)
    state.apply(("draw",))
    assert isinstance(plan_button(state, S, "discard", []), Guidance)
    assert isinstance(plan_button(state, S, "meld", []), Guidance)


def test_go_out_uses_the_engines_check():
    state = Game().new_initial_state(seed=11)
    out = plan_button(state, S, "go_out", [])
    assert isinstance(out, IllegalActionError) and out.rule == "R-TURN-2"
    state.apply(("draw",))
    out = plan_button(state, S, "go_out", [])
    assert isinstance(out, IllegalActionError) and out.rule == "R-OUT-1"


def test_not_your_turn_is_r_turn_1():
    state = Game().new_initial_state(seed=11)
    out = plan_button(state, 0, "draw", [])
    assert isinstance(out, IllegalActionError) and out.rule == "R-TURN-1" and "South" in out.reason


# --------------------------------------------------------------------------- exactly the selected cards


def _button_for(action: tuple) -> tuple[str, list[int], str | None]:
    verb = action[0]
    if verb in ("meld", "take"):
        k, n, j, d = action[1:]
        return verb, [k] * n + [JOKER] * j + [DEUCE] * d, None
    if verb == "add":
        return "add", [action[2]], kind_token(action[1])
    if verb == "discard":
        return "discard", [action[1]], None
    if verb == "pass":
        return "draw", [], None
    return verb, [], None


def test_seed_11_discard_moves_the_selected_four():
    s = TableSession(seed=11)
    s.press("draw")
    s.select([s.index_of("4C")])
    assert s.press("discard") == "You discarded 4♣."
    assert CARD_CODE[s.state.pile[-1]] == "4C"
    assert sorted(CARD_CODE[c] for c in s.hand_cards() if CARD_KIND[c] == 0) == ["4H", "4H", "4S"]


def test_seed_11_meld_moves_the_selected_cards():
    s = TableSession(seed=11)
    s.press("draw")
    chosen = [s.hand_cards()[i] for i in (s.index_of("4S"), s.index_of("4C"), s.index_of("JK"))]
    s.select([s.index_of("4S"), s.index_of("4C"), s.index_of("JK")])
    assert s.press("meld") == "You melded 4♠ 4♣ JK."
    meld = s.state.melds[0][0]
    assert sorted(meld[0] + meld[1]) == sorted(chosen)
    assert [CARD_CODE[c] for c in s.hand_cards() if CARD_KIND[c] == 0] == ["4H", "4H"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_exactly_the_selected_cards_move_over_whole_hands(seed, data):
    """A learner picks any legal action and any physical copies of its cards: exactly those move."""
    s = TableSession(seed=seed)
    moves = 0
    for _ in range(400):
        if s.state.phase in ("hand_over", "game_over"):
            break
        if s.bot_to_move():
            s.step_bots(1)
            continue
        action = data.draw(st.sampled_from(s.state.legal_actions()))
        button, kinds, to = _button_for(action)
        hand = s.hand_cards()
        idx: list[int] = []
        for k in kinds:
            options = [i for i, c in enumerate(hand) if CARD_KIND[c] == k and i not in idx]
            idx.append(data.draw(st.sampled_from(options)))
        assert not s.select(idx).startswith("[refused]")
        chosen = {hand[i] for i in idx}
        msg = s.press(button, to)
        assert s.message_kind == "ok", (action, [CARD_CODE[c] for c in chosen], msg)
        after = set(s.hand_cards())
        if kinds:
            assert set(hand) - after == chosen, (action, msg)
            moves += 1
    assert s.state.phase in ("hand_over", "game_over") or moves > 0
