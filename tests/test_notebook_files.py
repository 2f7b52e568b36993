"""The notebooks folder as a learner opens it: the rule book beside it, clean notebook metadata."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def test_rule_book_copy_beside_the_notebooks_is_current():
    """`make lab` copies seeds/rules.md to notebooks/rules.md; the committed copy must match it."""
    assert (NOTEBOOKS / "rules.md").read_text(encoding="utf-8") == (ROOT / "seeds" / "rules.md").read_text(
        encoding="utf-8"), "run `make notebooks/rules.md`"


def test_notebooks_link_the_rule_book():
    for name in ("index.ipynb", "welcome.ipynb"):
        text = "".join("".join(c["source"]) for c in json.loads((NOTEBOOKS / name).read_text())["cells"])
        assert "](rules.md)" in text, name


def test_notebook_metadata_is_what_the_kernel_reports():
    """JupyterLab marks a notebook modified when the kernel's language_info differs from the stored one,
    and saved widget state would pin an old copy of the widget's code."""
    for path in NOTEBOOKS.glob("*.ipynb"):
        meta = json.loads(path.read_text())["metadata"]
        assert meta["kernelspec"]["name"] == "python3", path.name
        assert {"codemirror_mode", "file_extension", "mimetype", "name", "nbconvert_exporter",
                "pygments_lexer"} <= set(meta["language_info"]), path.name
        assert "widgets" not in meta, path.name


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / name).read_text())["cells"]


def _stored(cell: dict, mime: str = "text/plain") -> str:
    return "".join("".join(o.get("data", {}).get(mime, o.get("text", ""))) for o in cell.get("outputs", []))


def _code(name: str, call: str) -> dict:
    return next(c for c in _cells(name) if c["cell_type"] == "code" and call in "".join(c["source"]))


def test_the_start_page_lists_the_course_and_the_themes_from_their_files():
    """The start page listed 17 themes with stale counts (the library has more) and a lesson 9 of 9 levels:
    its lists are now generated, from the lesson files and the puzzle library, and the stored outputs are
    what they generate (nbval compares them too: the cells are not NBVAL_IGNORE_OUTPUT)."""
    from canasta_tutor.ui.lesson import course_page
    from canasta_tutor.ui.puzzle import themes_page

    cells = _cells("index.ipynb")
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "](puzzles.ipynb)" in text and "](lessons/00-rules-primer.ipynb)" in text
    assert not re.findall(r"^- `[a-z-]+`: ", text, re.M), "a hand-written theme list goes stale"
    assert "](lessons/01-" not in text, "a hand-written lesson list goes stale"
    course, themes = _code("index.ipynb", "course_page()"), _code("index.ipynb", "themes_page()")
    for cell in (course, themes):
        assert "NBVAL_IGNORE_OUTPUT" not in "".join(cell["source"])
    assert _stored(course) == repr(course_page(store=None))
    assert _stored(themes) == repr(themes_page(store=None))
    assert 'href="lessons/09-going-out-concealed.ipynb"' in _stored(course, "text/html")


def test_the_welcome_page_says_what_exists_counted_from_the_files():
    """welcome.ipynb said the lessons were planned and not written yet."""
    from canasta_tutor.ui.lesson import course_page
    from canasta_tutor.ui.puzzle import themes_page

    text = "".join("".join(c["source"]) for c in _cells("welcome.ipynb") if c["cell_type"] == "markdown")
    assert "planned" not in text and "not written" not in text
    assert "](index.ipynb)" in text and "](puzzles.ipynb)" in text
    stored = _stored(_code("welcome.ipynb", "totals()"))
    assert stored == (f"The course: {course_page(store=None).totals()}.\n"
                      f"The puzzles: {themes_page(store=None).totals()}.\n")


def test_the_puzzles_page_holds_one_trainer_and_starts_no_timed_run():
    """Run All in puzzles.ipynb started a three-minute timed run off-screen, and three trainers on the page
    showed three ratings."""
    code = "\n".join("".join(c["source"]) for c in _cells("puzzles.ipynb") if c["cell_type"] == "code")
    assert code.count("PuzzleTrainer(") == 1 and "timed=" not in code


def test_the_readme_counts_are_the_course_and_the_library():
    """The README's counts of lessons, levels, puzzles and themes are those of the files (they were stale)."""
    from canasta_tutor.tutor.lessons.player import load_course
    from canasta_tutor.tutor.puzzles.library import load_library
    from canasta_tutor.tutor.puzzles.themes import THEMES

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    course = load_course()
    levels = sum(len(lesson.levels) for lesson in course)
    assert f"{len(course)} lessons with {levels} levels" in readme
    assert f"{len(course)} files, {len(course)} lessons, {levels} levels checked in" in readme
    library = load_library()
    composed = sum(1 for p in library if p.source == "composed")
    assert f"{composed} composed and {len(library) - composed} mined" in readme
    assert f"{len(THEMES)} tested theme" in readme
