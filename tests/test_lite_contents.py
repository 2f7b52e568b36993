"""The JupyterLite site's notebooks (lite/build.py's ``contents``): the course's notebooks but those the site
leaves out, and no link to a left-out notebook (their links turn into text marked as in the desktop course only)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
assert _spec is not None and _spec.loader is not None
lite_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lite_build)

LINK = re.compile(r"\]\(([^)#]+\.ipynb)\)")


def _markdown(notebook: dict) -> str:
    return "".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                   for c in notebook["cells"] if c["cell_type"] == "markdown")


def test_a_link_to_a_left_out_notebook_becomes_its_text():
    nb = {"cells": [{"cell_type": "markdown",
                     "source": ["- [Review](review.ipynb): graded.\n", "a [game review](./review.ipynb)\n"]},
                    {"cell_type": "code", "source": ["'[Review](review.ipynb)'\n"]},
                    {"cell_type": "markdown", "source": "[Play](play.ipynb)"}]}
    assert lite_build.unlink_left_out(nb) == 2
    assert nb["cells"][0]["source"] == ["- Review (in the desktop course only): graded.\n",
                                        "a game review (in the desktop course only)\n"]
    assert nb["cells"][1]["source"] == ["'[Review](review.ipynb)'\n"]  # code is not touched
    assert nb["cells"][2]["source"] == "[Play](play.ipynb)"


def test_the_site_has_no_dead_notebook_link(tmp_path, monkeypatch):
    monkeypatch.setattr(lite_build, "CACHE", tmp_path)
    dest = lite_build.contents()
    assert not any((dest / name).exists() for name in lite_build.LEFT_OUT)
    assert (dest / "index.ipynb").is_file() and (dest / "rules.md").is_file()
    links = 0
    for path in sorted(dest.rglob("*.ipynb")):
        for target in LINK.findall(_markdown(json.loads(path.read_text(encoding="utf-8")))):
            links += 1
            assert (path.parent / target).resolve().is_file(), f"{path.relative_to(dest)} links to {target}"
    assert links >= 5  # the index links the course's notebooks
    index = _markdown(json.loads((dest / "index.ipynb").read_text(encoding="utf-8")))
    assert "Review (in the desktop course only)" in index
