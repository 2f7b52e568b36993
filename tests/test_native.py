"""The search's compiled copy (canasta_tutor/native.py) gives the pure search's values, deal by deal.

`make` builds the copy before any test and sets CANASTA_TUTOR_REQUIRE_NATIVE, so there a missing copy
fails these tests; a bare `pytest` without the copy skips the comparisons (the search then runs in
plain Python, which every other test covers).
"""

from __future__ import annotations

import os
import random
import warnings

import pytest

from canasta_tutor import Game, native
from canasta_tutor.bots import expert
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.hint import DROP_Z, hint
from canasta_tutor.observer import observe
from canasta_tutor.state import State
from canasta_tutor.variants import VARIANTS

REQUIRED = os.environ.get("CANASTA_TUTOR_REQUIRE_NATIVE", "") not in ("", "0")


@pytest.fixture
def fast():
    """The compiled expert module (with the environment's pure switch cleared)."""
    if os.environ.get(native.PURE_ENV):
        pytest.skip(f"{native.PURE_ENV} is set")
    module = native.fast_expert()
    if module is None:
        if REQUIRED:
            pytest.fail(f"the search's compiled copy is {native.status()}: `make native` builds it")
        pytest.skip(f"the search's compiled copy is {native.status()}")
    return module


def _positions(variant: str, count: int, seed: int) -> list[State]:
    """Decision points with a choice, from rules-of-thumb self-play of ``variant``."""
    from canasta_tutor.bots.rules_of_thumb import decide

    rng = random.Random(seed)
    state = Game(variant=variant).new_initial_state(seed=seed)
    out: list[State] = []
    while len(out) < count and state.phase not in ("hand_over", "game_over"):
        legal = state.legal_actions()
        if len(legal) > 2 and rng.random() < 0.3:
            out.append(state.copy())
        state.apply(decide(observe(state, state.actor))[0])
    return out


def test_the_copy_is_built_where_make_ran(fast):
    assert native.status() == "built"
    assert fast.__name__ == "canasta_tutor._fast.bots.expert"
    assert fast.__file__.endswith(".so")  # compiled, not a source


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "samba"])
def test_the_compiled_race_gives_the_pure_race_s_values(fast, variant):
    """The hint's race by elimination and the expert's race by halving, on cut-off playouts with coupled
    draws: the same values, deal by deal, in every variant the hint compiles for."""
    turns = VARIANTS[variant].playout_turns
    checked = 0
    for state in _positions(variant, 4, seed=11):
        obs = observe(state, state.actor)
        pure = state_from_observation(obs)
        cands = expert.candidate_actions(pure, obs.seat, wide=True)
        if len(cands) < 2:
            continue
        for kw in ({"drop_z": DROP_Z}, {"keep_first": True, "min_round": 1}):
            mine = expert.race_values(pure, obs.seat, cands, 120, 5, turns=turns, **kw)
            theirs = fast.race_values(fast.state_from_observation(obs), obs.seat, cands, 120, 5, turns=turns, **kw)
            assert theirs == mine
            assert sum(map(len, mine)) > 0
        checked += 1
    assert checked >= 2


def test_the_compiled_playouts_to_the_end_and_lines_match(fast):
    """Full playouts (``sample_values``, the puzzles' verification) and whole-turn lines (the plan)."""
    state = _positions("classic", 1, seed=3)[0]
    obs = observe(state, state.actor)
    pure = state_from_observation(obs)
    cands = expert.candidate_actions(pure, obs.seat)[:3]
    assert fast.sample_values(fast.state_from_observation(obs), obs.seat, cands, 6, 2) == \
        expert.sample_values(pure, obs.seat, cands, 6, 2)
    lines = [(a,) for a in cands]
    assert fast.sample_line_values(fast.state_from_observation(obs), obs.seat, lines, 6, 2, None, 2) == \
        expert.sample_line_values(pure, obs.seat, lines, 6, 2, None, 2)


def test_the_hint_is_the_same_with_and_without_the_copy(fast, monkeypatch):
    """A whole hint (race, plan, explanation) with the compiled search and in plain Python."""
    state = _positions("classic", 2, seed=5)[1]
    obs = observe(state, state.actor)
    compiled = hint(obs, seed=0).to_dict()
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.fast_expert() is None
    pure = hint(obs, seed=0).to_dict()
    compiled.pop("elapsed_ms", None)
    pure.pop("elapsed_ms", None)
    assert compiled == pure
    assert compiled["best"]
    assert compiled["samples"] > 0  # searched, not forced


def test_a_copy_older_than_its_sources_is_not_used(tmp_path, monkeypatch):
    """A source edited since the build: the search warns once and runs in plain Python."""
    stamp = tmp_path / "SOURCES.json"
    stamp.write_text('{"state": "an older source"}', encoding="utf-8")
    monkeypatch.setattr(native, "STAMP", stamp)
    monkeypatch.setattr(native, "_seen", {})
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native.status() == "stale"
    with pytest.warns(RuntimeWarning, match="out of date"):
        assert native.fast_expert() is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert native.fast_expert() is None  # warned once
    monkeypatch.setattr(native, "STAMP", tmp_path / "missing.json")
    assert native.status() == "missing"


def test_the_pure_switch_turns_the_copy_off(monkeypatch):
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.fast_expert() is None


def test_imports_outside_the_copy_go_to_the_pure_package():
    src = (
        "from __future__ import annotations\n"
        "from ..cards import CARD_KIND\n"
        "from ..observer import Observation\n"
        "from .evaluation import evaluate\n"
        "from .principles import PRINCIPLES\n"
        "    from ..position import format_position\n"
    )
    assert native.rewrite(src, "bots/expert").splitlines() == [
        "from __future__ import annotations",
        "from ..cards import CARD_KIND",
        "from canasta_tutor.observer import Observation",
        "from .evaluation import evaluate",
        "from canasta_tutor.bots.principles import PRINCIPLES",
        "    from canasta_tutor.position import format_position",
    ]
    with pytest.raises(ValueError, match="above the package"):
        native.rewrite("from ...x import y\n", "bots/expert")


def test_every_module_the_copy_holds_imports_only_the_copy_or_the_pure_package():
    """No copied module imports a module of the package by an absolute name (that would be the pure one)."""
    for m in native.MODULES:
        text = (native.ROOT / f"{m}.py").read_text(encoding="utf-8")
        for line in text.splitlines():
            stripped = line.strip()
            assert not stripped.startswith(("import canasta_tutor", "from canasta_tutor")), (m, line)
