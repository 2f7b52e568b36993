"""The notebooks folder as a learner opens it: the rule book beside it, clean notebook metadata."""

from __future__ import annotations

import json
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


def test_the_start_page_has_the_puzzles_by_theme():
    """Every theme the start page lists is a real theme with puzzles in the library, and it links the trainer."""
    import re

    from canasta_tutor.tutor.puzzles import load_library
    from canasta_tutor.tutor.themes import THEMES

    cells = json.loads((NOTEBOOKS / "index.ipynb").read_text())["cells"]
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "](puzzles.ipynb)" in text
    listed = re.findall(r"^- `([a-z-]+)`: ", text, re.M)
    have = {t for p in load_library() for t in p.themes}
    assert len(listed) >= 15 and set(listed) <= have and set(listed) <= set(THEMES)
    assert any("themes_page()" in "".join(c["source"]) for c in cells if c["cell_type"] == "code")
