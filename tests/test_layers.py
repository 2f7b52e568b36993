"""The floor plan holds: the old paths that notebooks already written import still work, the engine shows
itself with what the layers above register, and no private name crosses a package (tests/private_names.py,
which `make lint` runs too, is checked against a made-up offence here)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.engine import render

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import private_names  # noqa: E402 - the lint script beside the tests
import variant_questions  # noqa: E402 - likewise


@pytest.mark.parametrize("old, new, names", [
    ("canasta_tutor.widget", "canasta_tutor.ui.table", ["CanastaTable"]),
    ("canasta_tutor.lesson_widget", "canasta_tutor.ui.lesson", ["LessonWidget", "course_page"]),
    ("canasta_tutor.puzzle_widget", "canasta_tutor.ui.puzzle", ["PuzzleTrainer", "themes_page"]),
    ("canasta_tutor.assignment_cell", "canasta_tutor.ui.assignment_cell", ["item_widget"]),
])
def test_the_old_paths_of_the_widgets_give_the_same_objects(old, new, names):
    """Notebooks a learner copied (or a teacher released to a class) import the widgets from their old paths."""
    before, after = importlib.import_module(old), importlib.import_module(new)
    for name in names:
        assert getattr(before, name) is getattr(after, name)


def test_the_engine_shows_a_state_with_what_the_package_registered():
    state = Game().new_initial_state(seed=3)
    assert str(state).startswith("canasta-tutor position\nseed: 3")
    assert repr(state).startswith("canasta_tutor.parse_position('canasta-tutor position")
    assert "<table" in (state._repr_html_() or "")
    assert set(render.hooks()) == set(render.NAMES)


def test_an_engine_with_nothing_registered_shows_a_summary(monkeypatch):
    monkeypatch.setattr(render, "_HOOKS", {})
    state = Game().new_initial_state(seed=3)
    assert str(state) == "<State: classic, deal 0, draw>"
    assert state._repr_html_() is None
    assert render.action_text(("draw",)) == "('draw',)"
    with pytest.raises(ValueError, match="no such rendering hook 'colour'"):
        render.register(colour=str)


def test_the_engine_alone_imports_no_other_layer():
    """Importing the engine's modules (and the package's __init__, which registers the text) loads no widget,
    no tutor and no search."""
    code = ("import sys, canasta_tutor.engine.state, canasta_tutor.engine.observer; "
            "print(sorted(m for m in sys.modules if m.startswith(('canasta_tutor.tutor', 'canasta_tutor.ui', "
            "'canasta_tutor.bots', 'canasta_tutor.hint', 'anywidget'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# Slow, and repeated in the quick loop: `make lint` (which `make test-fast` runs first) runs the same check over
# the package as a script; `make test` runs this test too.
@pytest.mark.slow
def test_no_private_name_is_imported_across_packages():
    assert private_names.private_imports(HERE.parent / "canasta_tutor") == []


def test_the_private_name_check_finds_an_offence(tmp_path):
    root = tmp_path / "canasta_tutor"
    (root / "engine").mkdir(parents=True)
    (root / "hint").mkdir()
    for package in (root, root / "engine", root / "hint"):
        (package / "__init__.py").write_text("", encoding="utf-8")
    (root / "engine" / "state.py").write_text("_SECRET = 1\n_OTHER = 2\n", encoding="utf-8")
    (root / "engine" / "game.py").write_text("from .state import _SECRET\n", encoding="utf-8")  # same package
    (root / "hint" / "words.py").write_text(
        "def f():\n    from ..engine.state import _OTHER\n    return _OTHER\n", encoding="utf-8")
    found = private_names.private_imports(root)
    assert len(found) == 1
    assert "canasta_tutor.hint.words imports the private name _OTHER from canasta_tutor.engine.state" in found[0]
    assert private_names.main([str(root)]) == 1


# Slow, and repeated in the quick loop: `make lint` (which `make test-fast` runs first) runs the same check over
# the package as a script; `make test` runs this test too.
@pytest.mark.slow
def test_no_module_outside_the_engine_asks_which_variant_it_plays():
    """Issue 32: the layers above the engine read the variant's fields and the state's methods."""
    assert variant_questions.questions(HERE.parent / "canasta_tutor") == []


def test_the_variant_question_check_finds_each_kind_of_offence(tmp_path):
    root = tmp_path / "canasta_tutor"
    (root / "engine").mkdir(parents=True)
    (root / "tutor").mkdir()
    (root / "engine" / "samba.py").write_text("class SambaState:\n    sequences = True\n", encoding="utf-8")
    (root / "tutor" / "view.py").write_text(
        '"""SambaState and .sequences in a docstring are words, not questions."""\n'
        "from ..engine.samba import SambaState\n"
        "def f(state, obs):\n"
        "    a = isinstance(state, SambaState)\n"
        "    b = obs.variant.sequences\n"
        "    return a or b or state.variant.name == 'samba'\n", encoding="utf-8")
    found = variant_questions.questions(root)
    assert [line.split(": ")[0:2] for line in found] == [
        ["canasta_tutor/tutor/view.py:2", "imports SambaState"],
        ["canasta_tutor/tutor/view.py:4", "names SambaState"],
        ["canasta_tutor/tutor/view.py:5", "reads .sequences"],
        ["canasta_tutor/tutor/view.py:6", "compares a variant's name or rules with a string"],
    ]
    assert variant_questions.main([str(root)]) == 1
