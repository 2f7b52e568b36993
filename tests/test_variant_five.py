"""Five-handed Canasta (R-FIVE-1..4): the book, the variant, the rotation of the player sitting out, the
score kept by side, positions and records that name the player sitting out, and seeded play.

The held-out rule cases (a position and the engine's answer each) are in tests/test_variant_five_cases.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor.bots.expert import rot_policy
from canasta_tutor.engine.cards import RANK_CHARS, SUIT_CHARS
from canasta_tutor.engine.errors import NotationError
from canasta_tutor.engine.five import FiveState, leaving_seat, rotated
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.engine.rulebook import book_path, parse_rules
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER, State
from canasta_tutor.engine.variants import CLASSIC, get_variant
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.notation.record import format_record, parse_record, replay

BOOK = parse_rules(book_path().read_text(encoding="utf-8"))
FIVE = get_variant("five-handed")

#: rule -> the phrases its text must state
FIGURES = {
    "R-FIVE-1": ("Five players", "side of two", "side of three", "sits out", "every classic rule"),
    "R-FIVE-2": ("sit out in turn", "comes back", "over any three hands", "sits out once"),
    "R-FIVE-3": ("takes no part", "hold no cards", "Partner, may I go out?", "help to count the score"),
    "R-FIVE-4": ("two sides", "one column each", "whichever two of its players", "R-MIN-1", "5,000"),
}


@pytest.mark.parametrize("rule", sorted(FIGURES))
def test_the_book_states_the_figures(rule: str) -> None:
    """R-FIVE-1..4 are in the five-handed section and state their figures."""
    assert BOOK[rule].title == "Five-handed Canasta"
    missing = [p for p in FIGURES[rule] if p not in BOOK[rule].text]
    assert not missing, f"{rule} does not state {missing}"


def test_every_five_rule_has_figures() -> None:
    assert sorted(r for r in BOOK if r.startswith("R-FIVE-")) == sorted(FIGURES)


def test_the_variant_is_a_classic_hand_with_a_fifth_player() -> None:
    """R-FIVE-1: four play each hand, with the classic cards, deal, draw, minimums, bonuses and target;
    the fifth player belongs to the side of three, East-West."""
    v = FIVE
    assert (v.players, v.seats, v.sides, v.num_cards, v.hand_size, v.draw) == (4, "NESW", (0, 1, 0, 1), 108, 11, 1)
    assert (v.canastas_to_go_out, v.minimum_bands, v.bonuses, v.target) == (
        CLASSIC.canastas_to_go_out, CLASSIC.minimum_bands, CLASSIC.bonuses, CLASSIC.target)
    assert v.roster == "NESWF" and v.side_names[v.reserve_side] == "EW"
    assert v.rule_area == "FIVE"


def test_five_names_and_the_fifth_drawer_sits_out_first() -> None:
    """R-FIVE-1 and the software note: five players draw; the four highest take the chairs as in the classic
    draw (R-SEAT-3) and the fifth sits out the first hand."""
    names = ("P1", "P2", "P3", "P4", "P5")
    state = Game(variant="five-handed").new_initial_state(seed=8, players=names)
    assert isinstance(state, FiveState)
    assert sorted((*state.players, state.out)) == sorted(names)
    final = {d.player: d.card for d in state.seat_draws if not d.redraw}

    def rank(card: str) -> tuple[int, int]:
        return RANK_CHARS.index(card[0]), -SUIT_CHARS.index(card[1])

    assert state.out == min(final, key=lambda p: rank(final[p]))
    assert all(len(state.hand(s)) >= 11 - 4 for s in "NESW")  # four hands dealt, none for the fifth
    with pytest.raises(NotationError, match="five names"):
        Game(variant="five-handed").new_initial_state(seed=8, players=names[:4])


def test_the_rotation_pairs_each_two_of_the_three_once_in_three_hands() -> None:
    """R-FIVE-2: A and B, A and C, B and C, then again; each sits out one hand in three, and the side of
    two plays every hand."""
    chairs, out = ("N", "A", "S", "B"), "C"
    seen = []
    for k in range(9):
        here, sitting = rotated(chairs, out, 0, k)
        assert here[0] == "N" and here[2] == "S"
        seen.append((frozenset((here[1], here[3])), sitting))
    assert [p for p, _ in seen[:3]] == [frozenset("AB"), frozenset("AC"), frozenset("BC")]
    for k in range(7):
        assert sorted(o for _, o in seen[k:k + 3]) == ["A", "B", "C"]
    assert [FIVE.seats[leaving_seat(FIVE, k)] for k in (1, 2, 3, 4)] == ["W", "E", "W", "E"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40))
def test_the_rotation_runs_back(a: int, b: int) -> None:
    """R-FIVE-2: the rotation is a swap at each deal, so it runs backwards to the same chairs."""
    start = ("N", "x", "S", "y"), "z"
    there = rotated(*start, 0, a)
    assert rotated(*there, a, 0) == start
    assert rotated(*rotated(*there, a, b), b, a) == there


def _play_hand(state: State, rng: random.Random) -> None:
    while state.phase not in (HAND_OVER, GAME_OVER):
        state.apply(rot_policy(state, state.actor) if rng.random() < 0.9 else rng.choice(state.legal_actions()))


def test_the_player_sitting_out_has_no_turn_and_the_chairs_rotate_at_each_deal() -> None:
    """R-FIVE-2, R-FIVE-3: over four hands the one sitting out never acts, holds no cards, and takes the
    chair of the next one to sit out; the side's score is one column across the rotation (R-FIVE-4)."""
    state = Game(variant="five-handed").new_initial_state(seed=11, players=("P1", "P2", "P3", "P4", "P5"))
    assert isinstance(state, FiveState)
    rng = random.Random(11)
    totals = [0, 0]
    outs = []
    for _ in range(4):
        outs.append(state.out)
        assert state.out not in state.players
        _play_hand(state, rng)
        totals = [t + r for t, r in zip(totals, (s.total for s in state.hand_results[-1].sides), strict=True)]
        assert state.totals == totals and len(state.totals) == 2
        assert not check_invariants(state, history=False)
        if state.phase == GAME_OVER:
            break
        before = tuple(state.players)
        state.apply(("deal",))
        seat = leaving_seat(FIVE, state.deal_no)
        assert state.players[seat] == outs[-1] and state.out == before[seat]
        assert state.minimums == [FIVE.minimum_for(t) for t in state.totals]
    assert len(set(outs[:3])) == 3


def test_a_position_names_the_player_sitting_out() -> None:
    """R-FIVE-1: ``out:`` is written and read back; without it the fifth player's letter, F."""
    state = Game(variant="five-handed").new_initial_state(seed=3, dealer="W")
    text = format_position(state)
    assert "out: F" in text.splitlines()
    assert format_position(parse_position(text)) == text
    assert parse_position(text.replace("out: F\n", "")).out == "F"  # type: ignore[attr-defined]
    other = text.replace("out: F", "out: P5")
    assert parse_position(other).out == "P5"  # type: ignore[attr-defined]


def test_a_position_refuses_a_player_both_seated_and_out() -> None:
    """R-FIVE-1: the player sitting out has no chair, so a name also in ``players`` is refused."""
    text = format_position(Game(variant="five-handed").new_initial_state(seed=3, dealer="W"))
    with pytest.raises(NotationError, match="R-FIVE-1") as err:
        parse_position(text.replace("out: F", "out: E"))
    assert err.value.field == "out"


def test_out_is_a_key_of_five_handed_positions_only() -> None:
    text = format_position(Game().new_initial_state(seed=3, dealer="W"))
    with pytest.raises(NotationError, match="unknown key"):
        parse_position(text.replace("dealer:", "out: F\ndealer:"))


NAMES = ("P1", "P2", "P3", "P4", "P5")


@pytest.mark.parametrize(("dealer", "names"), [(None, NAMES), ("E", NAMES), (None, None)])
def test_a_record_replays_across_the_rotation(dealer: str | None, names: tuple[str, ...] | None) -> None:
    """R-FIVE-2: a record names the five players and replays hand after hand, chairs rotating.  Unnamed
    players are called after the chair the draw gave them, F sitting out first."""
    state = Game(variant="five-handed").new_initial_state(seed=5, players=names, dealer=dealer)
    if names is None:
        assert (state.players, state.out) == (("N", "E", "S", "W"), "F")  # type: ignore[attr-defined]
    rng = random.Random(2)
    for _ in range(3):
        _play_hand(state, rng)
        if state.phase == GAME_OVER:
            break
        state.apply(("deal",))
    text = format_record(state)
    assert names is None or "players: P1, P2, P3, P4, P5" in text
    again = replay(parse_record(text))
    assert again.history == state.history and again.players == state.players
    assert again.out == state.out  # type: ignore[attr-defined]


def test_the_table_says_who_sits_out_and_who_plays() -> None:
    """R-FIVE-1, R-FIVE-2: the card table's view names the player sitting out and the two playing for
    East-West; after the next deal the one who sat out plays in West's chair."""
    from canasta_tutor.tutor.session import TableSession

    session = TableSession(seed=3, variant="five-handed")
    v = session.view()
    assert v["variant"] == "five-handed" and len(v["positions"]) == 4
    assert v["sitting_out"]["name"] == "F" and v["sitting_out"]["playing"] == ["E", "W"]
    assert "Sitting out this hand: F" in v["sitting_out"]["text"] and "R-FIVE-2" in v["sitting_out"]["text"]
    state = session.state
    _play_hand(state, random.Random(4))
    if state.phase != GAME_OVER:
        state.apply(("deal",))
        out = session.view()["sitting_out"]
        assert out["name"] == "W" and out["playing"] == ["E", "F"]


def test_the_command_line_deals_and_plays_five_handed(capsys: pytest.CaptureFixture[str]) -> None:
    """R-FIVE-1: ``--variant five-handed`` deals a position naming the player sitting out, and self-play
    (which deals hand after hand, rotating the chairs, R-FIVE-2) reports no invariant violation."""
    import json

    from canasta_tutor.cli.main import main

    assert main(["deal", "--variant", "five-handed", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "five-handed" and "out: F" in data["position"].splitlines()
    assert main(["selfplay", "--variant", "five-handed", "--hands", "12", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["violations"] == 0 and data["hands"] == 12 and data["games"] >= 2
    assert main(["match", "--variant", "five-handed", "rules-of-thumb", "random", "--deals", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["variant"] == "five-handed" and report["deals"] == 1


def test_the_hint_is_classics_on_the_same_hand() -> None:
    """R-FIVE-1: a five-handed hand is a classic hand deal for deal, with classic's search budget and
    evaluation weights, so the hint gives the very answer it gives in the classic game (its latency and its
    agreement with a longer search are classic's)."""
    from canasta_tutor.engine.observer import observe
    from canasta_tutor.hint import hint

    assert (FIVE.hint_playouts, FIVE.hint_min_round, FIVE.playout_turns) == (
        CLASSIC.hint_playouts, CLASSIC.hint_min_round, CLASSIC.playout_turns)
    classic = Game().new_initial_state(seed=4, dealer="W")
    five = Game(variant="five-handed").new_initial_state(seed=4, dealer="W")
    for _ in range(5):
        action = rot_policy(classic, classic.actor)
        classic.apply(action)
        five.apply(action)
    assert classic.hands == five.hands and classic.actor == five.actor
    a = hint(observe(classic, classic.actor), seed=0)
    b = hint(observe(five, five.actor), seed=0)
    assert (a.best, a.value, a.stderr, a.plan, a.explanation) == (b.best, b.value, b.stderr, b.plan, b.explanation)
