"""The Jupyter extension as a pip user gets it: the wheel, built once per run, installed by
``pip install`` alone into a fresh virtual environment, then JupyterLab (and Notebook 7) on an
empty folder, driven in Debian's chromium.

- ``jupyter labextension list`` and ``jupyter server extension list`` show both halves enabled;
- JupyterLab: a click on the launcher's "Start" card opens the start page (the time from the
  click to its first rendered cell is printed and kept in ``extension-figures.json``), the side
  panel lists the 12 lessons, one level is played by clicks, and its stars appear in the panel
  without a reload; a rule number on the start page opens the rule book at that rule, the
  Help menu opens the book, and the command palette opens a lesson by name;
- Notebook 7: the panel lists the lessons, its start page link opens the start page, and the
  Help menu's rule book has every rule anchored;
- without the server extension (as in JupyterLite), on a folder holding the course: the panel
  lists the lessons it finds and says where the stars show, and the launcher still opens the
  start page.

Slow (about a minute and a half, most of it the fresh environment's ``pip install``):
``pytest -m browser -s tests/browser/test_extension_browser.py``."""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import LabPage, _start_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CARDS = '.jp-LauncherCard[data-category="Canasta Tutor"]'
PANEL = "#canasta-tutor-course"
ROOT = ".jp-NotebookPanel:not(.lm-mod-hidden) .cl-root"


@pytest.fixture(scope="module")
def store_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="canasta-ext-store-"))


@pytest.fixture(scope="module")
def wheel_lab(wheel_env, tmp_path_factory, artifacts_dir, store_dir):
    """JupyterLab from the fresh environment, on an empty folder, with its own progress store."""
    env = {"CANASTA_TUTOR_PROGRESS": str(store_dir / "lab.sqlite3")}
    yield from _start_server("lab", tmp_path_factory, artifacts_dir, python=str(wheel_env), notebooks=None,
                             extra_env=env, name="wheel-lab")


@pytest.fixture(scope="module")
def wheel_notebook(wheel_env, tmp_path_factory, artifacts_dir, store_dir):
    env = {"CANASTA_TUTOR_PROGRESS": str(store_dir / "nb7.sqlite3")}
    yield from _start_server("notebook", tmp_path_factory, artifacts_dir, python=str(wheel_env), notebooks=None,
                             extra_env=env, name="wheel-notebook")


def _figure(artifacts_dir: Path, **figures) -> None:
    path = artifacts_dir / "extension-figures.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update(figures)
    path.write_text(json.dumps(data, sort_keys=True) + "\n")


def test_pip_install_alone_enables_both_halves(wheel_env, built_wheel, artifacts_dir):
    bindir = wheel_env.parent
    labext = subprocess.run([str(bindir / "jupyter"), "labextension", "list"], capture_output=True, text=True)
    server = subprocess.run([str(bindir / "jupyter"), "server", "extension", "list"], capture_output=True, text=True)
    lab_lines = [line for line in (labext.stdout + labext.stderr).splitlines() if "canasta-tutor" in line]
    server_lines = [line for line in (server.stdout + server.stderr).splitlines() if "canasta_tutor" in line]
    assert lab_lines and "enabled" in lab_lines[0] and "OK" in lab_lines[0], labext.stdout + labext.stderr
    assert any("canasta_tutor.jupyter_ext" in line and "enabled" in line for line in server_lines), server.stderr
    assert any("OK" in line for line in server_lines), server.stderr
    static = wheel_env.parent.parent / "share" / "jupyter" / "labextensions" / "canasta-tutor" / "static"
    bundle = sum(f.stat().st_size for f in static.glob("*.js"))
    _figure(artifacts_dir, wheel_bytes=built_wheel.stat().st_size, bundle_js_bytes=bundle)
    print(f"wheel: {built_wheel.stat().st_size} bytes; the lab extension's JavaScript: {bundle} bytes")


def test_lab_launcher_start_page_panel_and_a_new_star(page, wheel_lab, artifacts_dir):
    lab = LabPage(page, wheel_lab, artifacts_dir)
    page.goto(wheel_lab.base_url + "/lab?reset")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    assert not (wheel_lab.root_dir / "canasta-tutor").exists()  # nothing is placed before first use

    # the launcher's section: Start, Lessons, Puzzles, Play a hand, and Review (the course has review.ipynb)
    cards = page.locator(CARDS)
    expect(cards.nth(4)).to_have_text("Review")
    labels = [t.strip() for t in cards.all_inner_texts()]
    assert labels == ["Start", "Lessons", "Puzzles", "Play a hand", "Review"]
    start = cards.filter(has_text="Start")
    start.scroll_into_view_if_needed()
    t0 = time.monotonic()
    start.click()
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    expect(notebook.locator(".jp-MarkdownCell .jp-RenderedMarkdown").first).to_be_visible()
    click_to_start = time.monotonic() - t0
    path = page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path")
    assert path == "canasta-tutor/index.ipynb"
    assert (wheel_lab.root_dir / "canasta-tutor" / "lessons" / "01-cards.ipynb").is_file()
    _figure(artifacts_dir, lab_click_to_start_page_s=round(click_to_start, 2))
    print(f"launcher card click to the start page: {click_to_start:.2f} s")
    lab.screenshot("extension-lab-start-page")

    # the side panel lists the course
    page.locator('.jp-SideBar .lm-TabBar-tab[data-id="canasta-tutor-course"]').click()
    panel = page.locator(PANEL)
    expect(panel).to_be_visible()
    lessons = panel.locator(".ct-ext-lesson")
    expect(lessons.nth(11)).to_be_visible()
    assert lessons.count() >= 12
    cards_row = panel.locator('.ct-ext-lesson[data-lesson="cards"]')
    expect(cards_row).to_have_attribute("data-stars", "0")
    expect(panel.locator(".ct-ext-status")).to_contain_text("No progress yet")

    # a click opens the first lesson; play its first level by clicks (draw, then discard the 4)
    cards_row.locator(".ct-ext-lesson-link").click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.context?.path === 'canasta-tutor/lessons/01-cards.ipynb'")
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").first.wait_for()
    lab.wait_for_kernel_idle()
    lab.run_all_cells()
    root = page.locator(ROOT)
    expect(root).to_have_attribute("data-level", "a-turn")
    page.locator(f"{ROOT} button[data-button=draw]").click()
    expect(root.locator(".cl-feedback li")).to_have_count(1)
    page.locator(f'{ROOT} .ct-seat-bottom .ct-hand .ct-card[data-card^="4"]').first.click()
    page.locator(f"{ROOT} button[data-button=discard]").click()
    expect(root).to_have_attribute("data-status", "passed")

    # the star appears in the panel, with no reload
    expect(cards_row).to_have_attribute("data-stars", "3", timeout=20_000)
    expect(cards_row.locator(".ct-ext-stars")).to_have_text("★ 3 / 18")
    expect(panel.locator(".ct-ext-status")).to_have_count(0)
    # and the review queue's line: a level passed with three stars puts nothing in it
    expect(panel.locator(".ct-ext-review")).to_have_text("0 cards due for review")
    lab.screenshot("extension-lab-star-in-panel")

    # a rule number in rendered Markdown or an output is a link to the rule book: here the start page's
    # (the widgets show theirs in place, as buttons of their own, which the extension leaves alone)
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text="index.ipynb").click()
    link = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown a.ct-ext-rule-ref").first
    rule = link.get_attribute("data-rule")
    expect(link).to_have_text(rule)
    link.click()
    book = page.locator(".ct-ext-rulebook")
    expect(book.locator(f'[id="{rule}"]')).to_have_class("ct-ext-rule ct-ext-rule-current")
    expect(book.locator(f'[id="{rule}"]')).to_be_in_viewport()
    assert book.locator(".ct-ext-rule").count() > 100  # every rule of the book is anchored

    # the Help menu opens the same book; its own rule numbers link inside it
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text="01-cards.ipynb").click()
    page.locator(".lm-MenuBar-itemLabel", has_text="Help").click()
    page.locator(".lm-Menu-itemLabel", has_text="Canasta rule book").click()
    expect(book.locator('[id="R-PACK-4"]')).to_be_attached()
    book.locator('.ct-ext-rule-ref[data-rule="R-MELD-7"]').first.click()
    expect(book.locator('[id="R-MELD-7"]')).to_have_class("ct-ext-rule ct-ext-rule-current")
    lab.screenshot("extension-lab-rule-book")

    # the command palette's Canasta category: a lesson by its name
    lab.command("apputils:activate-command-palette")
    page.keyboard.type("Freezing the pack")
    item = page.locator(".lm-CommandPalette-item", has_text="Open lesson 5: Freezing the pack")
    expect(item).to_be_visible()
    item.click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.context?.path === 'canasta-tutor/lessons/05-freezing.ipynb'")


def test_notebook7_panel_start_page_and_rule_book(page, wheel_notebook, artifacts_dir):
    lab = LabPage(page, wheel_notebook, artifacts_dir)
    page.goto(wheel_notebook.base_url + "/tree")
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.commands.hasCommand('canasta-tutor:show-panel')")
    # Notebook 7 keeps its side panels closed: View > Left Sidebar > Canasta Tutor, or this command
    lab.command("canasta-tutor:show-panel")
    panel = page.locator(PANEL)
    expect(panel).to_be_visible()
    expect(panel.locator(".ct-ext-lesson").nth(11)).to_be_visible()
    with page.expect_popup() as popup:
        panel.locator('button[data-page="start"]').click()
    start = popup.value
    start.wait_for_function("() => window.jupyterapp !== undefined")
    expect(start.locator(".jp-MarkdownCell .jp-RenderedMarkdown").first).to_be_visible(timeout=60_000)
    assert start.url.endswith("/notebooks/canasta-tutor/index.ipynb")
    start.close()
    page.locator(".lm-MenuBar-itemLabel", has_text="Help").click()
    page.locator(".lm-Menu-itemLabel", has_text="Canasta rule book").click()
    expect(page.locator('.ct-ext-rulebook [id="R-PACK-4"]')).to_be_attached()
    lab.screenshot("extension-notebook7")


@pytest.fixture(scope="module")
def lab_without_server_extension(tmp_path_factory, artifacts_dir):
    """This environment's JupyterLab on a copy of notebooks/, with the server extension switched off."""
    off = '--ServerApp.jpserver_extensions={"canasta_tutor.jupyter_ext": False}'
    yield from _start_server("lab", tmp_path_factory, artifacts_dir, name="lab-no-server-ext", extra_args=(off,))


def test_without_the_server_extension_the_panel_falls_back(page, lab_without_server_extension, artifacts_dir):
    server = lab_without_server_extension
    lab = LabPage(page, server, artifacts_dir)
    page.goto(server.base_url + "/lab?reset")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    status = page.evaluate("() => fetch('/canasta-tutor/api/course').then(r => r.status)")
    assert status == 404  # the server half is not there
    page.locator('.jp-SideBar .lm-TabBar-tab[data-id="canasta-tutor-course"]').click()
    panel = page.locator(PANEL)
    expect(panel.locator(".ct-ext-lesson").nth(11)).to_be_visible()
    expect(panel.locator('.ct-ext-lesson[data-lesson="05-freezing"] .ct-ext-lesson-link')).to_have_text(
        "5. Freezing the pack")
    expect(panel.locator(".ct-ext-status")).to_contain_text("once its notebook has run")
    lab.screenshot("extension-lab-no-server-extension")
    page.locator(f'{CARDS}:has-text("Start")').click()
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget?.context?.path === 'index.ipynb'")
    assert not (server.root_dir / "canasta-tutor").exists()  # nothing is placed without the server half
