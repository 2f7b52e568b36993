"""The hint sweep in small (issue 31; the full one is ``benchmarks/hint_sweep.py``, 500 positions): on
positions of seeded self-play, every claim of a legal move in a hint's text is legal on the real deal, and no
plan holds a step that :func:`canasta_tutor.hint.grade` calls a mistake or worse."""

from __future__ import annotations

import pytest
from helpers_scripts import benchmark_script

import canasta_tutor.hint as hint_module
from canasta_tutor.hint.audit import audit
from canasta_tutor.engine.observer import observe

#: position 63 of the benchmark's seed 0: its plan once ended 'meld Q Q Q, discard 3', and grade called the
#: discard a blunder (216 points lost; 'add 2 to J' first); a few others of every phase
INDICES = (63, 0, 5, 12)


@pytest.fixture(scope="module")
def states():
    positions = benchmark_script("positions").sample_positions(max(INDICES) + 1, seed=0)
    return [positions[i] for i in INDICES]


# Slow (an audit of every swept position at the hint's budget): `make test` runs it; the quick loop keeps the
# audit's test on one position.
@pytest.mark.slow
def test_claims_are_legal_and_no_plan_step_is_a_mistake(states):
    for state in states:
        a = audit(state, seed=0)
        assert (a.illegal, a.unbacked, a.bad_steps) == ([], [], []), a


def test_the_audit_finds_the_mistake_the_plan_once_held(states, monkeypatch):
    """Without the plan's checks the blunder is back: the audit has teeth."""
    monkeypatch.setattr(hint_module, "_checked_plan", lambda obs, state, plan, seed, samples: plan)
    state = states[0]
    h = hint_module.hint(observe(state, state.actor), seed=0)
    a = audit(state, seed=0, the_hint=h)
    assert a.bad_steps and "discard 3" in a.bad_steps[0]
