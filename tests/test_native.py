"""The search's compiled copy (canasta_tutor/bots/native.py) gives the pure search's values, deal by deal.

`make` builds the copy before any test and sets CANASTA_TUTOR_REQUIRE_NATIVE, so there a missing copy
fails these tests; a bare `pytest` without the copy skips the comparisons (the search then runs in
plain Python, which every other test covers).  The tests of what is copied, how imports are rewritten
and when the copy is stale need no build.
"""

from __future__ import annotations

import os
import random
import shutil
import warnings
from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.bots import native
from canasta_tutor.bots import CompiledExpertBot, ExpertBot, make_state_policy
from canasta_tutor.bots import expert
from canasta_tutor.bots.sampling import state_from_observation
from canasta_tutor.hint import DROP_Z, hint
from canasta_tutor.engine.observer import observe
from canasta_tutor.bots.selfplay import run_selfplay
from canasta_tutor.engine.state import State
from canasta_tutor.engine.variants import VARIANTS

REQUIRED = os.environ.get("CANASTA_TUTOR_REQUIRE_NATIVE", "") not in ("", "0")


@pytest.fixture
def fast():
    """The compiled copy (with the environment's pure switch cleared)."""
    if os.environ.get(native.PURE_ENV):
        pytest.skip(f"{native.PURE_ENV} is set")
    engine = native.engine()
    if engine is None:
        if REQUIRED:
            pytest.fail(f"the search's compiled copy is {native.status()}: `make native` builds it")
        pytest.skip(f"the search's compiled copy is {native.status()}")
    return engine


@pytest.fixture
def fresh(monkeypatch):
    """native.engine() looks again (the process's memory of the copy forgotten for the test)."""
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.delenv(native.PURE_ENV, raising=False)


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


# ------------------------------------------------------------------ the copy gives the same values
def test_the_copy_is_built_where_make_ran(fast):
    assert native.status() == "built"
    assert native.engine_name() == "compiled"
    assert fast.entry.__name__ == "canasta_tutor._fast.bots.entry"
    assert fast.entry.__file__.endswith(".so")  # compiled, not a source
    assert fast.module("engine.state").__file__.endswith(".so")
    assert fast.module("engine.observer").__file__.endswith(".py")  # marked: copied, left as Python
    # a benchmark's state, rebuilt as the copy's own (benchmarks/playout_speed.py --compiled)
    state = Game(variant="samba").new_initial_state(seed=2)
    crossed = fast.state(state)
    assert type(crossed).__module__ == "canasta_tutor._fast.engine.samba"
    assert crossed.legal_actions() == state.legal_actions()


# Bolivia, Chile and Pennies from Heaven are slow here (each some seconds of races in both copies): `make test`
# runs them; the quick loop keeps every other variant, Samba's family among them.
@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.slow) if v in ("bolivia", "chile", "pennies")
                                     else v
                                     for v in VARIANTS])
def test_the_compiled_race_gives_the_pure_race_s_values(fast, variant):
    """The hint's race by elimination and the expert's race by halving (Samba: playouts to the end of the
    hand): the same values, deal by deal, in every variant, Samba, Bolivia and Chile included."""
    turns = VARIANTS[variant].playout_turns
    samba_family = VARIANTS[variant].sequences  # playouts to the end of the hand: a small budget
    budget = 6 if samba_family else 48
    checked = 0
    for state in _positions(variant, 1 if samba_family else 2, seed=11):
        obs = observe(state, state.actor)
        pure = state_from_observation(obs)
        cands = expert.candidate_actions(pure, obs.seat, wide=True)
        if len(cands) < 2:
            continue
        for kw in ({"drop_z": DROP_Z if turns else None}, {"keep_first": True, "min_round": 1}):
            mine = expert.race_values(pure, obs.seat, cands, budget, 5, turns=turns, **kw)
            theirs = fast.race_values(pure, obs.seat, cands, budget, 5, turns=turns, **kw)
            assert theirs == mine
            assert sum(map(len, mine)) > 0
        checked += 1
    assert checked >= 1


def test_the_compiled_playouts_to_the_end_and_lines_match(fast):
    """Full playouts (``sample_values``, the puzzles' verification) and whole-turn lines (the plan)."""
    state = _positions("classic", 1, seed=3)[0]
    obs = observe(state, state.actor)
    pure = state_from_observation(obs)
    cands = expert.candidate_actions(pure, obs.seat)[:3]
    assert fast.sample_values(pure, obs.seat, cands, 6, 2) == expert.sample_values(pure, obs.seat, cands, 6, 2)
    lines = [(a,) for a in cands]
    assert fast.sample_line_values(pure, obs.seat, lines, 6, 2, None, 2) == \
        expert.sample_line_values(pure, obs.seat, lines, 6, 2, None, 2)


def test_the_compiled_search_goes_on_from_a_deal_as_the_pure_one(fast):
    """``sample_values_from`` (the puzzles' sequential search, on the copy when mining): deals 4 to 7 of a
    stream are the last four of ``sample_values`` on eight deals, on the copy and in plain Python alike."""
    state = _positions("classic", 1, seed=3)[0]
    obs = observe(state, state.actor)
    pure = state_from_observation(obs)
    cands = expert.candidate_actions(pure, obs.seat)[:3]
    whole = expert.sample_values(pure, obs.seat, cands, 8, 2)
    later = expert.sample_values_from(pure, obs.seat, cands, 4, 8, 2)
    assert later == [v[4:] for v in whole]
    assert fast.sample_values_from(pure, obs.seat, cands, 4, 8, 2) == later


@pytest.mark.parametrize("variant", ["classic", "samba"])
def test_the_hint_is_the_same_with_and_without_the_copy(fast, monkeypatch, variant):
    """A whole hint (race, plan, explanation) with the compiled search and in plain Python."""
    state = _positions(variant, 2, seed=5)[1]
    obs = observe(state, state.actor)
    compiled = hint(obs, seed=0).to_dict()
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.engine() is None
    pure = hint(obs, seed=0).to_dict()
    compiled.pop("elapsed_ms", None)
    pure.pop("elapsed_ms", None)
    assert compiled == pure
    assert compiled["best"]
    assert compiled["samples"] > 0  # searched, not forced


@pytest.mark.parametrize("variant", ["classic", "samba", "italian"])
def test_the_compiled_expert_makes_the_pure_expert_s_choices(fast, variant):
    """The expert's policy in a match gets the true state; it crosses whole, so the copy searches the same
    state and makes the same choices (its deals and measured strength are the pure expert's)."""
    policy = make_state_policy("expert", seed=3, iterations=2)
    assert isinstance(policy.__self__, CompiledExpertBot)
    pure = ExpertBot(iterations=2, seed=3)
    for state in _positions(variant, 2, seed=8):
        assert policy(state, state.actor) == pure.act(state, state.actor)


def test_compiled_self_play_plays_the_same_games(fast):
    """Random self-play on the copy: the same actions and checks as in plain Python, faster."""
    for variant, check in (("classic", False), ("samba", True)):
        mine = run_selfplay(6, 3, check=check, variant=variant)
        theirs = fast.run_selfplay(6, 3, check=check, variant=variant)
        assert theirs.engine == "compiled" and mine.engine == "python"
        assert (theirs.hands, theirs.actions, theirs.games, theirs.violations) == \
            (mine.hands, mine.actions, mine.games, mine.violations)


# ------------------------------------------------------------------ falling back
def test_a_copy_older_than_its_sources_is_not_used(tmp_path, monkeypatch, fresh):
    """A source edited since the build: the search warns once and runs in plain Python."""
    stamp = tmp_path / "SOURCES.json"
    stamp.write_text('{"state": "an older source"}', encoding="utf-8")
    monkeypatch.setattr(native, "STAMP", stamp)
    assert native.status() == "stale"
    with pytest.warns(RuntimeWarning, match="out of date"):
        assert native.engine() is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert native.engine() is None  # warned once
        assert native.engine_name() == "python"
    monkeypatch.setattr(native, "STAMP", tmp_path / "missing.json")
    assert native.status() == "missing"


def test_a_copy_that_fails_to_load_is_not_used(monkeypatch, fresh):
    """Any failure to import the copy (here: a missing package) means the pure search, with a warning."""
    monkeypatch.setattr(native, "status", lambda: "built")
    monkeypatch.setattr(native, "PACKAGE", "canasta_tutor._no_such_copy")
    with pytest.warns(RuntimeWarning, match="could not be loaded .*ModuleNotFoundError"):
        assert native.engine() is None


def test_a_copy_that_chooses_otherwise_is_not_used(fast, monkeypatch, fresh):
    """The self-check at load: a copy whose answer differs from the pure package's is refused."""
    monkeypatch.setattr(native.CompiledEngine, "rot_act", lambda self, state, seat: ("nonsense",))
    with pytest.warns(RuntimeWarning, match="could not be loaded .*chose otherwise"):
        assert native.engine() is None


def test_the_pure_switch_turns_the_copy_off(monkeypatch):
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.engine() is None
    assert native.engine_name() == "python"


# ------------------------------------------------------------------ what is copied, and how
def test_the_copy_is_the_import_closure_of_its_entry():
    """Derived from the imports, not listed: the engine, the search and self-play, and nothing of the tutor,
    the widgets or the command line; the typed errors and the text of a state come from the pure package."""
    held, pure = native.closure()
    assert {"bots.entry", "bots.transfer", "engine.state", "engine.samba", "engine.observer", "bots.expert",
            "bots.sampling", "bots.rules_of_thumb", "bots.selfplay", "engine.invariants", "engine.variants",
            "engine.options", "engine.render"} <= set(held)
    assert not [m for m in held if m.startswith(("tutor", "hint", "ui", "cli", "notation.position"))]
    assert pure == ["engine.errors"]
    assert "engine.observer" not in native.compiled(held)


def _package_copy(tmp_path: Path) -> Path:
    """The package's sources (no build, no data) in a scratch folder, to edit."""
    root = tmp_path / "canasta_tutor"
    shutil.copytree(native.ROOT, root, ignore=shutil.ignore_patterns("_fast", "__pycache__", "*.json", "*.so"))
    return root


# Slow (copies the package and works out the compiled copy's modules again): `make test` runs it; the quick
# loop keeps the test that a rename in a copied module marks the copy stale.
@pytest.mark.slow
def test_a_module_the_engine_starts_to_import_joins_the_copy(tmp_path):
    root = _package_copy(tmp_path)
    (root / "engine" / "speedups.py").write_text("X = 1\n", encoding="utf-8")
    state = root / "engine" / "state.py"
    state.write_text(state.read_text(encoding="utf-8").replace(
        "from .options import RuleOptions\n", "from .options import RuleOptions\nfrom .speedups import X\n", 1),
        encoding="utf-8")
    assert "engine.speedups" in native.closure(native.ROOTS, root)[0]
    assert "engine.speedups" not in native.closure()[0]


def test_a_rename_in_a_module_the_copy_imports_marks_it_stale(tmp_path):
    """The fingerprint covers every module the copy holds and every pure module it imports."""
    root = _package_copy(tmp_path)
    before = native.fingerprint(root)
    for name in ("engine/observer.py", "notation/actions.py", "engine/errors.py"):
        path = root / name
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("def ", "def renamed_", 1), encoding="utf-8")
        after = native.fingerprint(root)
        assert after != before, name
        path.write_text(text, encoding="utf-8")
    assert native.fingerprint(root) == before


def test_imports_are_rewritten_to_the_copy_or_to_the_pure_package():
    src = (
        "from __future__ import annotations\n"
        "from ..engine.cards import (CARD_KIND,\n"
        "    NUM_KINDS)  # kinds\n"
        "from ..engine.observer import Observation\n"
        "from .evaluation import evaluate as ev\n"
        "from .principles import PRINCIPLES\n"
        "from canasta_tutor.engine.state import State\n"
        "from ..engine import errors, variants\n"
        "def f():\n"
        "    from ..notation.position import format_position\n"
        "    return format_position\n"
    )
    held = {"engine.cards", "engine.observer", "bots.evaluation", "engine.state", "engine.variants"}
    out = native.rewrite(src, "bots.expert", held)
    assert out.splitlines() == [
        "from __future__ import annotations",
        "from canasta_tutor._fast.engine.cards import CARD_KIND, NUM_KINDS",
        "  # kinds",
        "from canasta_tutor._fast.engine.observer import Observation",
        "from canasta_tutor._fast.bots.evaluation import evaluate as ev",
        "from canasta_tutor.bots.principles import PRINCIPLES",
        "from canasta_tutor._fast.engine.state import State",
        "from canasta_tutor.engine import errors; from canasta_tutor._fast.engine import variants",
        "def f():",
        "    from canasta_tutor.notation.position import format_position",
        "    return format_position",
    ]
    compile(out, "expert.py", "exec")


def test_imports_the_rewrite_cannot_keep_are_refused(tmp_path):
    with pytest.raises(ValueError, match="above the package"):
        native.rewrite("from ...x import y\n", "bots.expert", set())
    root = _package_copy(tmp_path)
    (root / "bots" / "entry.py").write_text("import canasta_tutor.engine.state\n", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot be rewritten"):
        native.closure(native.ROOTS, root)
    (root / "bots" / "entry.py").write_text("from . import ExpertBot\n", encoding="utf-8")  # (bots/__init__.py's)
    with pytest.raises(ValueError, match=r"from the package canasta_tutor\.bots's __init__"):
        native.closure(native.ROOTS, root)


# ------------------------------------------------------------------ the wheel's build hook
def _hook(monkeypatch, build):
    """The wheel's build hook (hatch_build_native.py) with ``build`` in place of the compiler (and the copy of
    the sources it compiles only noted, in ``hook.seen``)."""
    import importlib.util
    import types

    seen: list = []
    pytest.importorskip("hatchling")
    path = native.ROOT.parent / "hatch_build_native.py"
    spec = importlib.util.spec_from_file_location("hatch_build_native", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "_native", lambda root: types.SimpleNamespace(build=build))
    monkeypatch.setattr(module.shutil, "copytree", lambda src, dst, ignore=None: seen.append((src, dst)))

    class App:
        def __init__(self):
            self.said = []

        def display_info(self, text):
            self.said.append(("info", text))

        def display_warning(self, text):
            self.said.append(("warning", text))

    app = App()
    hook = module.NativeBuildHook(str(native.ROOT.parent), {}, None, None, "", "wheel", app)
    hook.seen = seen
    return hook, app


def _data():
    return {"force_include": {}, "pure_python": True, "infer_tag": False}


def test_the_wheel_carries_what_the_hook_compiled(monkeypatch):
    """Compiled in a scratch copy of the sources (never in the tree being built), then added to the wheel."""
    built = ["canasta_tutor/_fast/__init__.py", "canasta_tutor/_fast/core__mypyc.so"]
    roots = []
    hook, app = _hook(monkeypatch, lambda root: roots.append(root) or built)
    data = _data()
    hook.initialize("standard", data)
    scratch = hook.scratch
    assert hook.seen == [(native.ROOT, scratch / "canasta_tutor")] and roots == [scratch / "canasta_tutor"]
    assert data == {"force_include": {str(scratch / f): f for f in built}, "pure_python": False, "infer_tag": True}
    assert "2 files" in app.said[-1][1]
    hook.finalize("standard", data, "x.whl")
    assert not scratch.exists()


def test_a_wheel_that_cannot_be_compiled_is_pure_python_with_a_warning(monkeypatch):
    def fail(root):
        raise RuntimeError("compiling the search failed: no cc")

    hook, app = _hook(monkeypatch, fail)
    data = _data()
    hook.initialize("standard", data)
    assert data == _data()
    assert app.said[-1][0] == "warning" and "pure Python" in app.said[-1][1] and "no cc" in app.said[-1][1]
    hook.finalize("standard", data, "x.whl")
    assert not hook.scratch.exists()


def test_the_hook_compiles_nothing_for_an_editable_install_or_when_told_not_to(monkeypatch):
    hook, app = _hook(monkeypatch, lambda root: pytest.fail("compiled"))
    data = _data()
    hook.initialize("editable", data)
    monkeypatch.setenv("CANASTA_TUTOR_PURE_WHEEL", "1")
    hook.initialize("standard", data)
    assert data == _data()
    assert app.said == [("warning", "CANASTA_TUTOR_PURE_WHEEL is set: a pure-Python wheel (the search runs in "
                                    "plain Python)")]
