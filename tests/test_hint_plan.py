"""The hint's whole-turn plan: searched over whole lines from the learner's observation.

The plan is checked step by step against the engine from the learner's own position, it
never goes past a draw or an ask (their outcome is hidden) nor past the discard, the same
seed gives the same plan, and on a take-then-meld position where the rules of thumb would
play the turn differently the plan is the searched line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.bots.expert import rot_policy
from canasta_tutor.bots.rules_of_thumb import decide
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.hint import hint
from canasta_tutor.engine.observer import Observation, observe, observe_compact
from canasta_tutor.notation.position import parse_position
from canasta_tutor.engine.state import GAME_OVER, HAND_OVER, State
from canasta_tutor.tutor.hints import expand_plan

HERE = Path(__file__).resolve().parent
TAKE_THEN_CANASTA = HERE / "positions" / "plan-take-then-complete-canasta.txt"
NOT_OUT = HERE / "golden" / "hints" / "19-when-not-to-go-out.txt"


def _obs(path: Path) -> Observation:
    state = parse_position(path.read_text())
    return observe(state, state.actor)


def _play_plan(obs: Observation, plan: list[str]) -> State:
    """Play the plan on the learner's own position (hidden cards placed arbitrarily: the plan
    moves only the learner's cards and public ones); every step must be legal for the learner."""
    state = state_from_observation(obs)
    for step in expand_plan(plan):
        assert state.actor == obs.seat, f"{step!r}: the turn is already over"
        action = parse_action(step)
        assert action in state.legal_actions(), f"{step!r} is not legal here"
        state.apply(action)
    return state


def _rules_of_thumb_turn(obs: Observation, first: tuple) -> list[str]:
    """The rest of the turn as the rules of thumb would play it after ``first``."""
    state = state_from_observation(obs)
    state.apply(first)
    out = [format_action(first)]
    while state.actor == obs.seat and state.phase in ("meld", "draw"):
        a = decide(observe_compact(state, obs.seat))[0]
        if a[0] in ("draw", "ask"):
            break
        out.append(format_action(a))
        state.apply(a)
        if a[0] == "discard":
            break
    return out


def _turn_positions(count: int) -> list[Observation]:
    """Learner positions from seeded rules-of-thumb hands where the rules of thumb take, meld or add."""
    out: list[Observation] = []
    seed = 40
    while len(out) < count:
        state = Game().new_initial_state(seed=seed, dealer="E")
        seed += 1
        while state.phase not in (HAND_OVER, GAME_OVER) and len(out) < count:
            seat = state.actor
            assert seat is not None
            a = rot_policy(state, seat)
            if len(state.legal_actions()) > 1 and a[0] in ("take", "meld", "add") and len(state.history) % 3 == 0:
                out.append(observe(state, seat))
            state.apply_unchecked(a)
    return out


# Slow (ten hints at the default budget): `make test` runs it; the quick loop keeps the module's other plans.
@pytest.mark.slow
def test_searched_plan_differs_from_the_rules_of_thumb():
    """Take with a pair of nines: the rules of thumb would keep both deuces and discard; the search
    finds the line that adds them to the aces (a mixed canasta) before the discard better.

    The line leads the rules of thumb's by about 100 points (3000 deals: ±7), but the plan plays each
    line on 24 deals and keeps the rules of thumb's unless beaten beyond the 95% interval, so on some
    seeds it keeps theirs (on 9 of 60 seeds of the plan's own search, measured): most seeds find it."""
    obs = _obs(TAKE_THEN_CANASTA)
    hints = [hint(obs, seed=seed) for seed in range(10)]
    assert all(h.best_text == "take 9 9 9" for h in hints)
    usual = ["take 9 9 9", "discard 6"]
    searched = ["take 9 9 9", "add 2 to A (x2)", "discard 6"]
    assert _rules_of_thumb_turn(obs, hints[0].best) == usual
    assert all(h.plan in (usual, searched) for h in hints)
    assert sum(h.plan == searched for h in hints) >= 8
    h = next(h for h in hints if h.plan == searched)
    assert h.to_dict()["plan"] == h.plan
    assert h.move() == "Play: take 9 9 9, then add 2 to A (x2), then discard 6."
    assert "Plan: take 9 9 9, then add 2 to A (x2), then discard 6" in h.text()
    # the step the rules of thumb would not play is explained by the detectors; the discard they share is not
    assert h.explanation.endswith("After take 9 9 9, add 2 to A (x2): this completes a mixed canasta of aces: "
                                  "+300 (R-CAN-2).")
    assert "After take 9 9 9, discard 6" not in h.explanation
    after = _play_plan(obs, h.plan)
    assert after.actor != obs.seat  # the discard ended the turn


def test_same_seed_same_plan():
    obs = _obs(TAKE_THEN_CANASTA)
    assert hint(obs, seed=3).plan == hint(obs, seed=3).plan
    assert hint(obs, samples=16, seed=5).plan == hint(obs, samples=16, seed=5).plan


@pytest.mark.parametrize("obs", _turn_positions(6), ids=lambda o: f"{o.phase}-{len(o.history)}")
def test_plan_is_legal_and_stops_at_the_end_of_the_known_turn(obs: Observation):
    h = hint(obs, samples=8, seed=1)
    steps = [parse_action(s) for s in expand_plan(h.plan)]
    assert steps[0] == h.best
    # never past a draw or an ask (what follows is hidden), nor past the discard
    assert all(a[0] not in ("draw", "ask") for a in steps[1:])
    assert all(a[0] != "discard" for a in steps[:-1])
    if steps[0][0] in ("draw", "ask", "discard", "yes", "no"):
        assert len(steps) == 1
    _play_plan(obs, h.plan)


def test_plan_does_not_go_out_when_the_move_keeps_the_hand_going():
    """The explanation says the move keeps the hand going (could-go-out): the plan does not go out."""
    obs = _obs(NOT_OUT)
    for seed in range(4):
        h = hint(obs, samples=48, seed=seed)
        # a plan whose later step is graded a mistake is mended, and the mended plan may go out: then the
        # explanation no longer says that the turn keeps the hand going
        says_stay = "could-go-out" in {f.id for f in h.facts}
        assert not (says_stay and _play_plan(obs, h.plan).went_out is not None), (seed, h.plan)


def test_a_draw_has_no_plan():
    obs = _obs(HERE / "golden" / "hints" / "01-frozen-by-wild-card.txt")
    h = hint(obs, samples=8)
    assert h.best_text == "draw" and h.plan == ["draw"]


def test_plan_checks_stop_the_plan_when_their_budget_is_spent(monkeypatch):
    """The plan's checks ask for at most ``plan_check_budget`` playouts: once spent, the plan stops before the
    next step with a choice, so no later step is shown unchecked (a count of playouts, the same on any machine)."""
    import canasta_tutor.hint as hint_module

    obs = _obs(TAKE_THEN_CANASTA)
    full = hint(obs, seed=0)
    assert len(expand_plan(full.plan)) > 1
    checked: list[tuple] = []

    def costly(o, action, seed, samples):  # every look spends the whole budget and rules out a mistake
        checked.append(action)
        return None, hint_module.plan_check_budget(o.variant)

    monkeypatch.setattr(hint_module, "_step_grade", costly)
    monkeypatch.setattr(hint_module, "_SEARCHES", type(hint_module._SEARCHES)())
    h = hint(obs, seed=0)
    steps = [parse_action(s) for s in expand_plan(h.plan)]
    assert steps[0] == full.best
    assert len(checked) == 1 and steps[1:] == checked  # one check, then the plan stops before the next choice
    monkeypatch.setattr(hint_module, "PLAN_CHECK_SHARE", 0)
    checked.clear()
    assert hint(obs, seed=0).plan == [full.best_text] and not checked

