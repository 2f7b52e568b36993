"""Positions, records, observations, bots and the hint for the two-, three- and six-handed variants.

The notation for each variant (the ``variant:`` header, its seat letters and side names) round-trips
byte for byte; an observation hides every other hand whatever the number of seats; the bots play a
whole hand of each variant; and the hint command gives a legal move in a position of each.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tutor.notation.actions import parse_action
from canasta_tutor.bots.expert import ExpertBot, determinize, rot_policy
from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot
from canasta_tutor.bots.sampling import sample_hidden, state_from_observation
from canasta_tutor.engine.cards import ALL_CARD_CODES
from canasta_tutor.cli.main import main
from canasta_tutor.engine.errors import ImpossiblePositionError, NotationError
from canasta_tutor.engine.game import Game
from canasta_tutor.engine.hidden import unseen_for
from canasta_tutor.hint.refusals import representatives
from canasta_tutor.engine.observer import Observer, observe
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.notation.record import format_record, parse_record, replay
from canasta_tutor.engine.state import State
from canasta_tutor.engine.variants import VARIANTS, get_variant
from test_fuzz import PLAYING, SETTINGS, _check_position_text, examples, mutated

OTHERS = [name for name in VARIANTS if name != "classic"]


def _play(name: str, seed: int, steps: int) -> State:
    """A game of ``name`` after ``steps`` rules-of-thumb actions (or at the end of its first hand)."""
    state = Game(variant=name).new_initial_state(seed=seed)
    for _ in range(steps):
        if state.phase in ("hand_over", "game_over"):
            break
        state.apply(rot_policy(state, state.actor))
    return state


def _codes(cards: list[int]) -> list[str]:
    return sorted(ALL_CARD_CODES[c] for c in cards)


def _hand(name: str, seed: int) -> State:
    return _play(name, seed, 10_000)


# ------------------------------------------------------------------ positions
SIX = """\
variant: six-handed
dealer: W
turn: S draw
totals: NS 1200 EW 300 PQ 2400
stock: 77
pile: 5H 2C* 9D 9S
N: 12
E: 11
P: 13
S: 9H 9C KH KD KS 4D 7C JK
W: 10
Q: 13
melds EW: QH QS QD JK; 8H 8D 8S 8C 8H 8D 8S (natural canasta)
red threes EW: 3H
red threes PQ: 3D 3D
"""


def test_six_handed_position_reads_its_seats_and_sides() -> None:
    state = parse_position(SIX)
    assert state.variant.name == "six-handed"
    assert state.current_seat == "S" and state.turn == 3
    assert state.hand_size == [12, 11, 13, 8, 10, 13]
    assert state.deal_totals == [1200, 300, 2400]
    assert len(state.melds[1]) == 2 and not state.melds[0] and not state.melds[2]
    assert len(state.red3[2]) == 2  # three decks: three 3D in the game
    assert sorted(state.cards_everywhere()) == list(range(162))
    text = format_position(state)
    assert text.splitlines()[:2] == ["canasta-tutor position", "variant: six-handed"]
    assert "totals: NS 1200 EW 300 PQ 2400" in text and "(natural canasta); QS QH QD JK\n" in text
    assert format_position(parse_position(text)) == text


THREE = """\
variant: three-handed
turn: W meld
totals: E 0 S 250 W 1600
pile: 7D 4C
E: 13
S: 12
W: QH QD JK 5C 9S 9S 4H 8D AC AS KH 6S TD
melds S: 7H 7C 7S
red threes W: 3H
"""


def test_three_handed_position_sides_of_one_seat() -> None:
    state = parse_position(THREE)
    assert state.variant.name == "three-handed" and state.variant.seats == "ESW"
    assert state.dealer == 0  # no dealer line: the seat before South deals
    assert state.minimums == [50, 50, 90]
    text = format_position(state)
    assert "totals: E 0 S 250 W 1600" in text and "melds S: 7S 7H 7C" in text and "red threes W: 3H" in text
    assert format_position(parse_position(text)) == text


TWO = """\
variant: two-handed
turn: N draw
totals: N 3100 S 120
pile: KS
N: 17
S: 15
melds N: 6H 6C 6S 2D
"""


def test_two_handed_position_and_its_hand_that_grows() -> None:
    state = parse_position(TWO)
    assert state.variant.name == "two-handed" and state.players == ("N", "S")
    assert state.minimums == [120, 50]
    # drawing two and discarding one, a hand grows without melding: 17 cards is no contradiction
    text = format_position(state)
    assert "totals: N 3100 S 120" in text and "melds N: 6S 6H 6C 2D" in text
    assert format_position(parse_position(text)) == text


@pytest.mark.parametrize("name", OTHERS)
@pytest.mark.parametrize("steps", [0, 7, 33, 80])
def test_position_round_trip(name: str, steps: int) -> None:
    state = _play(name, 11, steps)
    text = format_position(state)
    assert text.splitlines()[1] == f"variant: {name}"
    again = parse_position(text)
    assert format_position(again) == text
    assert again.legal_actions() == state.legal_actions()
    for seat in range(state.variant.players):
        assert again.hand(seat) == state.hand(seat)
    # a seat's view parses back to the same view
    view = format_position(state, state.actor)
    assert format_position(parse_position(view), state.actor) == view


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(OTHERS), seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_position_round_trip_property(name: str, seed: int, steps: int) -> None:
    state = _play(name, seed, steps)
    text = format_position(state)
    assert format_position(parse_position(text)) == text


def test_named_players_by_seat() -> None:
    text = SIX.replace("dealer: W", "players: P1, P2, P3, P4, P5, P6\ndealer: W")
    state = parse_position(text)
    assert state.players == ("P1", "P2", "P3", "P4", "P5", "P6")
    assert "players: P1, P2, P3, P4, P5, P6" in format_position(state)


@pytest.mark.parametrize(("text", "line", "field", "words"), [
    ("variant: seven-handed\nturn: S draw\nN: 11\nE: 11\nS: 11\nW: 11\n", 1, "variant", "'seven-handed' is not"),
    (THREE.replace("E: 13", "N: 13"), 5, "n", "unknown key 'n'"),
    (THREE.replace("totals: E 0 S 250 W 1600", "totals: NS 0 EW 250"), 3, "totals", "write 'E <total> S <total> W"),
    (THREE.replace("W meld", "W draw asked"), 2, "turn", "each plays alone"),
    (SIX.replace("dealer: W", "dealer: X"), 2, "dealer", "use N, E, P, S, W or Q"),
    (SIX.replace("dealer: W", "players: P1, P2\ndealer: W"), 2, "players", "six names"),
    (TWO.replace("pile: KS", "pile: KS KS KS"), 4, "pile", "more than two KS"),
    (SIX.replace("pile: 5H 2C* 9D 9S", "pile: 5H 2C* 9S 9S 9S 9S"), 6, "pile", "more than three 9S"),
])
def test_errors_quote_the_input_and_name_line_and_field(text: str, line: int, field: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_position(text)
    e = info.value
    assert (e.line, e.field) == (line, field), str(e)
    assert words in str(e)


def test_no_asking_without_a_partner_is_an_impossible_position() -> None:
    with pytest.raises(ImpossiblePositionError, match="nobody asks a partner"):
        parse_position(TWO.replace("N draw", "N answer asked"))


def test_classic_files_carry_no_variant_line() -> None:
    state = Game().new_initial_state(seed=2)
    assert "variant" not in format_position(state) and "variant" not in format_record(state)
    text = format_position(state)
    explicit = text.replace("canasta-tutor position\n", "canasta-tutor position\nvariant: classic\n")
    assert format_position(parse_position(explicit)) == text


# ------------------------------------------------------------------ records
@pytest.mark.parametrize("name", OTHERS)
def test_record_round_trip(name: str) -> None:
    state = _hand(name, 5)
    state.apply(("deal",))
    for _ in range(20):
        state.apply(rot_policy(state, state.actor))
    text = format_record(state)
    lines = text.splitlines()
    assert lines[1] == f"variant: {name}"
    rec = parse_record(text)
    assert rec.variant is get_variant(name) and len(rec.result or ()) == state.variant.n_sides
    again = replay(rec)
    assert again.history == state.history and again.totals == state.totals
    assert format_record(again) == text
    assert lines[-1] == "result: " + " ".join(f"{n} {t}" for n, t in zip(state.variant.side_names, state.totals,
                                                                          strict=True))


def test_record_with_a_dealer_seat_and_start_totals() -> None:
    game = Game(variant="three-handed")
    state = game.new_initial_state(seed=9, players=("P1", "P2", "P3"), totals=(100, 0, 2000), dealer="W")
    for _ in range(12):
        state.apply(rot_policy(state, state.actor))
    text = format_record(state)
    assert "dealer: W" in text and "totals: 100 0 2000" in text and "players: P1, P2, P3" in text
    assert format_record(replay(parse_record(text))) == text


@pytest.mark.parametrize(("text", "line", "field", "words"), [
    ("seed: 1\nvariant: two-handed\n", 2, "variant", "the variant line comes first"),
    ("variant: two-handed\nseed: 1\nactions:\nE draw\n", 4, "actions", "(N or S)"),
    ("variant: six-handed\nseed: 1\ntotals: 0 0\n", 3, "totals", "give three totals, NS, EW then PQ"),
    ("variant: three-handed\nseed: 1\nplayers: A, B, C, D\n", 3, "players", "name three players"),
    ("variant: three-handed\nseed: 1\ndealer: N\n", 3, "dealer", "E, S or W"),
    ("variant: nine\nseed: 1\n", 1, "variant", "'nine' is not a variant"),
])
def test_record_errors(text: str, line: int, field: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_record(text)
    assert (info.value.line, info.value.field) == (line, field), str(info.value)
    assert words in str(info.value)


# ------------------------------------------------------------------ observation
@pytest.mark.parametrize("name", OTHERS)
def test_observer_hides_the_other_hands(name: str) -> None:
    state = _play(name, 4, 40)
    variant = state.variant
    for seat in range(variant.players):
        obs = observe(state, seat)
        assert list(obs.hand) == state.hand(seat)
        assert obs.hand_sizes == tuple(state.hand_size) and len(obs.hand_sizes) == variant.players
        assert len(obs.meld_summary) == len(obs.totals) == len(obs.initial) == variant.n_sides
        assert obs.partners == variant.partners(seat)
        assert set(obs.opponents) == {s for s in range(variant.players) if variant.sides[s] != variant.sides[seat]}
        lines = obs.position_text.splitlines()
        for other in range(variant.players):
            line = next(x for x in lines if x.startswith(f"{variant.seats[other]}: "))
            if other == seat:
                assert line == f"{variant.seats[seat]}: " + (" ".join(state.hand(seat)) or "-")
            else:
                assert line.split(":", 1)[1].split()[1] == "cards"  # a count, no card
        assert Observer(variant.seats[seat], name)(state).hand == obs.hand
        # the state the search builds from it keeps the seat's hand and every count, and re-deals the rest
        built = state_from_observation(obs)
        assert built.hand(seat) == state.hand(seat) and built.hand_size == state.hand_size
        assert sorted(built.cards_everywhere()) == list(range(variant.num_cards))
        assert _codes(unseen_for(built, seat)) == _codes(unseen_for(state, seat))


@pytest.mark.parametrize("name", OTHERS)
def test_sampling_redeals_only_what_the_seat_cannot_see(name: str) -> None:
    state = _play(name, 8, 60)
    seat = state.actor
    assert seat is not None
    for s in (sample_hidden(state, seat, random.Random(1)), determinize(state, seat, random.Random(2))):
        assert s is not None
        assert s.hand(seat) == state.hand(seat) and s.hand_size == state.hand_size
        assert s.pile == state.pile and s.melds == state.melds
        assert sorted(unseen_for(s, seat)) == sorted(unseen_for(state, seat))


# ------------------------------------------------------------------ bots and hint
@pytest.mark.slow
@pytest.mark.parametrize("name", OTHERS)
def test_bots_play_a_whole_hand(name: str) -> None:
    rot = RulesOfThumbBot()
    expert = ExpertBot(iterations=2, seed=1)
    state = Game(variant=name).new_initial_state(seed=21)
    n = state.variant.players
    bots = [expert if s % 2 == 0 else rot for s in range(n)]
    while state.phase not in ("hand_over", "game_over"):
        seat = state.actor
        assert seat is not None
        action = bots[seat](observe(state, seat))
        state.apply(action)
    assert len(state.hand_results) == 1 and len(state.hand_results[0].sides) == state.variant.n_sides


def test_no_asking_is_offered_or_refused_without_a_partner() -> None:
    state = _play("three-handed", 3, 0)
    assert all(verb != "ask" for verb, _ in representatives(state))
    assert ("ask",) not in state.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("name", OTHERS)
def test_hint_command_gives_a_legal_move(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _play(name, 6, 25)
    path = tmp_path / "position.txt"
    path.write_text(format_position(state), encoding="utf-8")
    code = main(["hint", str(path), "--json", "--samples", "24"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["seat"] == state.current_seat
    assert parse_action(data["best"]) in state.legal_actions()


# ------------------------------------------------------------------ fuzzing (as tests/test_fuzz.py, per variant)
def _random_play(name: str, seed: int, steps: int) -> State:
    """A game of ``name`` after up to ``steps`` random legal actions (asks, melds and takes favoured)."""
    state = Game(variant=name).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase == "game_over":
            break
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] in ("ask", "yes", "meld", "take")]
        state.apply(rng.choice(keen if keen and rng.random() < 0.5 else legal))
    return state


@st.composite
def variant_positions(draw: st.DrawFn) -> str:
    """The text of a reachable position of a non-classic variant: the full state, or one seat's view."""
    name = draw(st.sampled_from(OTHERS))
    state = _random_play(name, draw(st.integers(0, 10**6)), draw(st.integers(0, 200)))
    seat = draw(st.sampled_from([None, *range(state.variant.players)]))
    return format_position(state) if seat is None else observe(state, seat).position_text


@st.composite
def variant_records(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(OTHERS))
    return format_record(_random_play(name, draw(st.integers(0, 10**6)), draw(st.integers(0, 150))))


@settings(max_examples=examples("variant positions"), **SETTINGS)
@given(mutated(variant_positions()))
def test_mutated_variant_positions_are_refused_cleanly_or_playable(text: str) -> None:
    _check_position_text(text)


@settings(max_examples=40, **SETTINGS)
@given(variant_positions())
def test_generated_variant_positions_read_back(text: str) -> None:
    state = parse_position(text)
    assert format_position(parse_position(format_position(state))) == format_position(state)
    if state.phase in PLAYING:
        assert state.legal_actions()


@settings(max_examples=examples("variant records"), **SETTINGS)
@given(mutated(variant_records()))
def test_mutated_variant_records_are_refused_cleanly_or_replay(text: str) -> None:
    try:
        record = parse_record(text)
        state = replay(record)
    except NotationError as e:
        assert str(e) and len(str(e)) < 1200
        return
    again = replay(parse_record(format_record(state, start=record.totals)))
    assert again.history == state.history and again.totals == state.totals


@pytest.mark.parametrize("name", OTHERS)
def test_every_seat_view_of_a_random_hand_reads_back(name: str) -> None:
    rng = random.Random(4)
    state = Game(variant=name).new_initial_state(seed=4)
    checked = 0
    while state.phase in PLAYING:
        if len(state.history) % 5 == 0:
            for seat in range(state.variant.players):
                text = observe(state, seat).position_text
                view = parse_position(text)
                assert view.legal_actions(), text
                assert view.current_seat == state.current_seat
                assert format_position(view, seat) == text
                checked += 1
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] in ("ask", "yes", "meld", "take")]
        state.apply(rng.choice(keen if keen and rng.random() < 0.5 else legal))
    assert checked > 10


@pytest.mark.parametrize("name", OTHERS)
def test_match_command_plays_each_side_of_a_variant(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "rules-of-thumb", "random", "--deals", "1", "--variant", name, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["variant"] == name
    assert data["hands"] == get_variant(name).n_sides and data["deals"] == 1
