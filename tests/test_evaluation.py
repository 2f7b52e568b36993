"""The cut-off playouts' evaluation (bots/evaluation.py) and the cut-off playout itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.bots.evaluation import (
    FEATURES,
    SIDE_FEATURES,
    WEIGHTS_FILE,
    evaluate,
    features,
    fitted_on,
    side_features,
    weights,
    weights_file,
)
from canasta_tutor.bots.expert import margin, playout, rot_policy, sample_values
from canasta_tutor.bots.sampling import sample_hidden
from canasta_tutor.engine.cards import parse_card
from canasta_tutor.engine.state import DRAW, GAME_OVER, HAND_OVER, State
from canasta_tutor.engine.variants import CLASSIC, VARIANTS

ROOT = Path(__file__).resolve().parent.parent


def _states(seed: int, every: int = 9, variant: str = "classic") -> list[State]:
    """Turn starts of a rules-of-thumb hand."""
    state = Game(variant=variant).new_initial_state(seed=seed)
    out = []
    while state.phase not in (HAND_OVER, GAME_OVER):
        if state.phase == DRAW and len(state.history) % every == 0:
            out.append(state.copy())
        state.apply_unchecked(rot_policy(state, state.actor))
    return out


CUT_OFF = [name for name, v in VARIANTS.items() if v.playout_turns is not None]


@pytest.mark.parametrize("name", CUT_OFF)
def test_the_weights_file_matches_the_features(name: str) -> None:
    """Each variant whose playouts are cut off reads its own fit, made on its own self-play; five-handed reads
    classic's, its hands being classic hands deal for deal (R-FIVE-1)."""
    path = weights_file(name)
    assert (path == WEIGHTS_FILE) == (name in ("classic", "five-handed"))
    assert fitted_on(name) == ("classic" if name == "five-handed" else name)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES) and data["variant"] == fitted_on(name)
    b, w = weights(name)
    assert len(w) == len(FEATURES) and all(isinstance(x, float) for x in w)
    assert 0.1 < data["held_out_explained"] < 1  # the fit explains part of the final margin, on unseen hands
    named = dict(zip(FEATURES, w, strict=True))
    assert named["our_table_points"] > 0.5 and named["their_table_points"] < -0.5


def test_every_variant_without_sequences_cuts_its_playouts_off_two_rounds_after_the_move() -> None:
    """Classic, two-, three-, five-, six-handed, Italian Canasta and Pennies from Heaven stop their playouts two
    rounds after the move; the melds of the games with sequences (Samba, Bolivia, Chile) are not what the
    evaluation's facts describe, so those games play their playouts out."""
    for name, v in VARIANTS.items():
        if v.sequences:
            assert v.playout_turns is None
        else:
            assert name in CUT_OFF and v.playout_turns == 2 * v.players
    assert sorted(CUT_OFF) == sorted(n for n, v in VARIANTS.items() if not v.sequences)


def test_a_weights_file_of_another_variant_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta_tutor.bots import evaluation

    data = json.loads(weights_file("two-handed").read_text(encoding="utf-8"))
    moved = tmp_path / "evaluation_weights.json"
    moved.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(evaluation, "WEIGHTS_FILE", moved)
    evaluation.weights.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"evaluation_weights\.json .*--variant classic"):
            evaluation.weights("classic")
    finally:
        evaluation.weights.cache_clear()


@pytest.mark.parametrize("variant", ["three-handed", "six-handed"])
def test_with_three_sides_the_other_facts_are_the_others_mean(variant: str) -> None:
    """The margin with three sides is a side's score less the others' mean, so the estimate reads
    the other two sides' facts as their mean."""
    for state in _states(3, every=7, variant=variant)[:6]:
        for side in range(3):
            f = features(state, side)
            others = [side_features(state, s) for s in range(3) if s != side]
            assert f[:len(SIDE_FEATURES)] == side_features(state, side)
            assert f[len(SIDE_FEATURES):] == pytest.approx([(a + b) / 2 for a, b in zip(*others, strict=True)])


def test_the_estimate_is_the_same_for_both_sides_with_the_sign_turned() -> None:
    """The fit sees every turn start from both sides with the margin negated, so one side's
    estimate is the other's negated: the search reads the same hand the same way from either seat."""
    for state in _states(5) + _states(6) + _states(5, variant="two-handed"):
        assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1), abs=1e-6)


def test_the_weights_read_points_the_way_the_score_does() -> None:
    """Points on the table count for a side and the card points in its hands against it (R-SCORE-1);
    a meld one card short of a canasta is worth more than a short one."""
    _, w = weights()
    named = dict(zip(FEATURES, w, strict=True))
    assert named["our_table_points"] > 0.5 and named["their_table_points"] < -0.5
    assert named["our_melds_at_6"] > named["our_melds_at_4_or_less"]
    state = _states(5)[3]
    better = state.copy()
    side = better.sides[better.turn]
    nines = ("9H", "9D", "9S", "9C", "9H", "9D", "9S")
    better.melds[side][5] = [[parse_card(c) for c in nines], []]  # a natural canasta of nines
    assert evaluate(better, side) > evaluate(state, side) + 500


def test_side_features_count_what_lies_on_the_table_and_in_hand() -> None:
    state = Game().new_initial_state(seed=2)
    f = dict(zip((n for n in FEATURES if n.startswith("our_")), side_features(state, 0), strict=True))
    cards = sum(len(k) for seat in CLASSIC.side_seats[0] for k in state.hands[seat])
    assert f["our_hand_cards"] == cards and f["our_table_points"] <= 0 and f["our_has_melded"] == 0
    assert len(features(state, 0)) == len(FEATURES)


def test_a_cut_off_playout_stops_at_a_turn_start_and_reads_the_estimate() -> None:
    """``playout(state, seat, turns=k)`` plays the rules of thumb until the k-th turn after this one
    starts, then returns the estimate of the hand's margin there; the same walk by hand gives the same value."""
    state = _states(8)[2]
    seat = state.actor
    assert seat is not None
    for k in (1, 4, 8):
        walked = state.copy()
        passed, last = 0, walked.turn
        while True:
            if walked.turn != last:
                passed, last = passed + 1, walked.turn
                if passed >= k and walked.phase == DRAW:
                    break
            walked.apply_unchecked(rot_policy(walked, walked.actor))
        assert playout(state.copy(), seat, turns=k) == pytest.approx(evaluate(walked, walked.sides[seat]))


def test_a_hand_that_ends_before_the_cut_off_scores_as_it_ended() -> None:
    state = _states(8)[-1]
    seat = state.actor
    assert seat is not None
    full = state.copy()
    value = playout(full, seat)
    assert playout(state.copy(), seat, turns=10_000) == value == margin(full.hand_results[-1].sides, full.sides[seat])


def test_cut_off_values_vary_less_than_full_ones() -> None:
    """The point of the cut-off: on the same sampled deals, the paired difference between two
    moves is measured with a smaller spread."""
    import random
    import statistics

    state = _states(9)[4]
    seat = state.actor
    assert seat is not None
    state.apply_unchecked(("draw",))
    discards = [a for a in state.legal_actions() if a[0] == "discard"][:2]
    full = sample_values(state, seat, discards, 40, seed=1)
    cut = sample_values(state, seat, discards, 40, seed=1, turns=8)
    spread = [statistics.pstdev([x - y for x, y in zip(v[0], v[1], strict=True)]) for v in (full, cut)]
    assert spread[1] < spread[0]
    assert sample_hidden(state, seat, random.Random(0)) is not None


@pytest.mark.slow
def test_the_fitting_script_runs_and_reports_the_fit(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fit_evaluation.py"), "--hands", "40",
                          "--dry-run"], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert "all held out: spread" in out.stdout and "our_table_points" in out.stdout
    assert "wrote" not in out.stdout  # a dry run leaves the weights alone
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fit_evaluation.py"), "--hands", "20",
                          "--variant", "three-handed", "--dry-run"], capture_output=True, text=True, check=True,
                         cwd=tmp_path)
    assert out.stdout.startswith("three-handed: hands 20") and "wrote" not in out.stdout
