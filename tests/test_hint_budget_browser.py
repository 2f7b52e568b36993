"""The hint's lighter budget in the browser (canasta_tutor/hint/budget.py, docs/lite.md): a share of the variant's
race, the same search otherwise, and a hint that says it is lighter."""

from __future__ import annotations

import pytest

from canasta_tutor import Game
from canasta_tutor.hint import analyse, budget, race_budget
from canasta_tutor.engine.observer import observe
from canasta_tutor.tutor.hints import compute_hint
from canasta_tutor.engine.variants import get_variant


@pytest.fixture
def in_browser(monkeypatch):
    monkeypatch.setattr(budget, "IN_BROWSER", True)


def test_a_desktop_keeps_the_variants_budget_and_says_nothing():
    assert race_budget(get_variant("classic")) == 1600
    assert budget.browser_note(1600) == ""


def test_the_browser_races_its_share_of_each_variants_budget(in_browser):
    assert budget.BROWSER_SHARE < 1
    for name in ("classic", "samba", "italian"):
        full = get_variant(name).hint_playouts
        assert race_budget(get_variant(name)) == max(2, round(full * budget.BROWSER_SHARE))
    assert "lighter" in budget.browser_note(1600)


def test_the_browsers_race_is_the_desktops_race_at_that_budget(monkeypatch):
    state = Game().new_initial_state(seed=5)
    obs = observe(state, state.actor)
    small = round(1600 * budget.BROWSER_SHARE)
    _, here = analyse(obs, seed=3, playouts=small)
    monkeypatch.setattr(budget, "IN_BROWSER", True)
    _, there = analyse(obs, seed=3)
    assert [(e.action, e.mean) for e in there] == [(e.action, e.mean) for e in here]


def test_the_hint_says_once_that_it_is_lighter(in_browser):
    state = Game().new_initial_state(seed=5)
    obs = observe(state, state.actor)
    panel = compute_hint(obs, [], (0, 0), 0, seed=1)
    said = [s for s in panel.stages if "In the browser this hint is lighter" in s]
    assert len(said) == 1 and said[0] == panel.stages[min(1, len(panel.stages) - 1)]
    assert f"{round(1600 * budget.BROWSER_SHARE)} sampled deals where a desktop plays 1600" in said[0]
