"""The class tools in a real JupyterLab + Debian chromium.

- teacher.ipynb run on a class whose student ids, display names, rules and reasons hold HTML and
  script (and a shared-folder store named like a script): no dialog fires, the text shows literally,
  and the course's store is unchanged byte for byte after Run All;
- an assignment's puzzle and lesson level in their widgets, by clicks: a wrong move says why without
  the answer, the hint button says its cost and turns off, Give up shows the answer.

Screenshots go to tests/browser/artifacts/.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from canasta_tutor.tutor.assignments.spec import Item
from canasta_tutor.tutor.progress import Attempt, ProgressStore

pytestmark = pytest.mark.browser

os.environ.setdefault("CANASTA_TUTOR_PROGRESS", os.path.join(tempfile.mkdtemp(), "progress.sqlite3"))

XSS = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"
SVG = "<svg onload=alert(3)>"


def _hostile_course(course: Path) -> None:
    t = "2026-01-05T10:{:02d}:00+00:00"
    with ProgressStore.for_course(course) as store:
        store.add_learner(XSS, SCRIPT)
        store.add_learner('=HYPERLINK("http://evil.example","x")', f"<b onmouseover=alert(4)>{SCRIPT}</b>")
        for n, who in enumerate((XSS, '=HYPERLINK("http://evil.example","x")')):
            for m in range(2):
                store.record(Attempt(who, "melds", "natural-meld", "failed", started=t.format(n * 3 + m),
                                     finished=t.format(n * 3 + m + 1), actions=[
                                         {"kind": "refused", "text": f"meld {XSS}", "rule": f"R-{SCRIPT}",
                                          "reason": f"because {XSS}"}]))
        store.record(Attempt(XSS, "puzzles", "c22-take-the-pack", "passed", stars=3, kind="puzzle",
                             started=t.format(20), finished=t.format(21)))
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (course / "progress").mkdir()
    with ProgressStore(course / "progress" / f"{SVG}.sqlite3") as own:
        own.record(Attempt("learner", "melds", "natural-meld", "passed", stars=3, started=t.format(30),
                           finished=t.format(31), actions=[{"kind": "action", "text": "meld 7 7 7"}]))


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*.sqlite3"))}


def _set_first_code_cell(page, old: str, new: str) -> None:
    page.evaluate("""([old, neu]) => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        const cell = nb.widgets.find((c) => c.model.type === 'code');
        const src = cell.model.sharedModel.getSource();
        if (!src.includes(old)) throw new Error('no ' + old);
        cell.model.sharedModel.setSource(src.replace(old, neu));
    }""", [old, new])


def test_the_teacher_notebook_shows_a_hostile_class_as_text_and_writes_nothing(lab):
    root = lab.server.root_dir
    course = root / "hostile-course"
    course.mkdir()
    _hostile_course(course)
    before = _digest(course)
    dialogs: list[str] = []
    page = lab.page
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    lab.open("teacher.ipynb")
    _set_first_code_cell(page, "COURSE = None", 'COURSE = Path("hostile-course")')
    lab.run_all_cells()
    assert lab.errors() == []
    outputs = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output")
    expect(outputs.filter(has_text="3 students (0 not started)").first).to_be_visible()
    grid = outputs.filter(has=page.locator("table#T_canasta-stars")).first
    expect(grid.locator("th", has_text=XSS).first).to_be_attached()   # the id, as text
    assert outputs.locator("img[src='x'], svg[onload], b[onmouseover]").count() == 0
    assert outputs.locator("script").count() == 0
    expect(outputs.filter(has_text=f"because {XSS}").first).to_be_attached()   # a reason, as text
    expect(outputs.filter(has_text=SVG).first).to_be_attached()   # the shared store's student, as text
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    lab.screenshot("teacher-hostile-class")
    assert dialogs == []
    assert _digest(course) == before   # Run All wrote nothing into the course's stores


def _exam_notebook(path: Path) -> None:
    puzzle = Item(id="p4", kind="puzzle", puzzle="c22-take-the-pack", points=5, hint_penalty=2, number=4,
                  assignment="exam")
    level = Item(id="l1", kind="level", lesson="melds", level="natural-meld", points=10, hint_penalty=2, number=1,
                 title="A natural meld", assignment="exam")
    cells = [
        'import os\nos.environ["CANASTA_TUTOR_STUDENT"] = "s01"\n'
        'from canasta_tutor.ui.assignment_cell import item_widget',
        f"item_widget({puzzle.cell_dict()!r})",
        f"item_widget({level.cell_dict()!r})",
    ]
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                     "source": src} for i, src in enumerate(cells)],
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                      "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")


def test_an_assignment_item_is_an_exam_by_clicks(lab):
    folder = lab.server.root_dir / "exam"
    folder.mkdir()
    _exam_notebook(folder / "exam.ipynb")
    page = lab.open("exam/exam.ipynb")
    lab.run_all_cells()
    assert lab.errors() == []
    out = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output")
    puzzle = out.filter(has=page.locator(".cp-root")).first
    panel, table = puzzle.locator(".cp-root"), puzzle.locator(".ct-root")
    expect(panel.locator(".cp-exam")).to_have_attribute("data-closed", "")
    expect(panel.locator(".cp-id")).to_contain_text("Puzzle 4")
    assert panel.locator(".cp-rating, select.cp-theme, [data-cp='timed-on'], [data-cp='streak-on']").count() == 0
    hint = table.locator('.ct-btn[data-intent="hint"]')
    expect(hint).to_have_text("Hint (costs 2 points)")
    puzzle.scroll_into_view_if_needed()

    table.locator('.ct-btn[data-intent="draw"]').click()   # the answer is to take the pack
    expect(panel.locator(".cp-verdict")).to_contain_text("Not this: draw.")
    assert "take 9 9 9" not in panel.inner_text() and "take 9 9 9" not in table.locator(".ct-message").inner_text()
    panel.locator('button[data-cp="retry"]').click()
    expect(panel.locator(".cp-id")).to_contain_text("attempt 2")
    hint.click()
    expect(panel.locator(".cp-hints li")).to_have_count(1)
    hint.click()
    expect(panel.locator(".cp-hints li")).to_have_count(2)
    hint.click()
    expect(panel.locator(".cp-hints li")).to_have_count(3)
    expect(hint).to_have_attribute("aria-disabled", "true")   # all three hints seen: no new hint left
    lab.screenshot("exam-puzzle-hints")
    panel.locator('button[data-cp="give_up"]').click()
    expect(panel.locator(".cp-exam")).to_have_attribute("data-closed", "given up")
    expect(panel.locator(".cp-solution")).to_contain_text("take 9 9 9")
    expect(panel.locator(".cp-result")).to_contain_text("given up (2 attempts, replayed): 0 of 5 points")
    lab.screenshot("exam-puzzle-given-up")

    level = out.filter(has=page.locator(".cl-root")).first
    level.scroll_into_view_if_needed()
    expect(level.locator('button[data-intent="hint"]')).to_have_text("Hint (costs 2 points)")
    assert level.locator(".cl-levels, .cl-stars, button[data-intent='next']").count() == 0
    level.locator(".cl-input").fill("discard 5")
    level.locator(".cl-input").press("Enter")
    expect(level.locator(".cl-root")).to_have_attribute("data-status", "failed")
    expect(level.locator(".cl-feedback")).to_contain_text("Not this time: the goal was not reached.")
    assert "meld 7 7 7" not in level.locator(".cl-feedback").inner_text()
    level.locator('button[data-intent="give_up"]').click()
    expect(level.locator(".cl-exam")).to_have_attribute("data-closed", "given up")
    expect(level.locator(".cl-answer")).to_contain_text("meld 7 7 7")
    lab.screenshot("exam-level-given-up")
    logs = sorted(p.name for p in (folder / "canasta-log").iterdir())
    assert logs == ["l1.json", "p4.json"]
