"""The notebooks as a learner first opens them (1024x768), and play.ipynb in Notebook 7.

- play.ipynb, not yet run and not trusted (as in a fresh clone): its stored table
  is styled, although JupyterLab's sanitizer drops style sheets from it.
- index.ipynb opens without being marked modified, and its rule book link opens
  the rule book beside the notebooks.
- play.ipynb in Notebook 7 (``jupyter notebook``): run it and play one turn by clicks.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest
from playwright.sync_api import expect
from table_page import Table, multiset_minus

pytestmark = pytest.mark.browser


def test_unrun_play_notebook_shows_a_styled_table(lab):
    page = lab.open("play.ipynb", kernel=False)
    lab.open_side_bar()
    # JupyterLab draws only the cells in view: scroll down to the table's cell
    stored = page.locator(".jp-OutputArea-output .ct-table.ct-static").first
    page.locator(".jp-NotebookPanel .jp-Cell").first.hover()
    for _ in range(20):
        if stored.count() and stored.is_visible():
            break
        page.mouse.wheel(0, 300)
        page.wait_for_timeout(150)
    expect(stored).to_be_visible()
    # not trusted, as in a fresh clone: the sanitizer removed the stored <style> elements
    assert stored.locator("style").count() == 0
    card = stored.locator(".ct-my-hand .ct-card, .ct-seat-bottom .ct-card").first
    style = card.evaluate("e => { const s = getComputedStyle(e); return [s.display, s.width, s.backgroundColor]; }")
    assert style[0] in ("flex", "inline-flex") and float(style[1].rstrip("px")) > 30, style  # a styled card face
    board = stored.locator(".ct-board").evaluate("e => getComputedStyle(e).display")
    assert board == "grid", board
    stored.scroll_into_view_if_needed()
    lab.screenshot("notebook-play-unrun-stored-table")


def test_index_opens_unmodified_and_links_the_rule_book(lab):
    page = lab.open("index.ipynb", kernel=False)
    lab.open_side_bar()
    time.sleep(3)  # JupyterLab writes the kernel's language_info into the notebook when the kernel is up
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.model.dirty") is False
    expect(page.locator(".jp-NotebookPanel .jp-mod-dirty, .lm-TabBar-tab.jp-mod-dirty")).to_have_count(0)
    lab.screenshot("notebook-index")
    page.locator(".jp-RenderedMarkdown a", has_text="The rule book").first.click()
    rendered = page.locator(".jp-RenderedMarkdown").filter(has_text="R-FRZ-1")
    expect(rendered.first).to_be_visible()
    lab.screenshot("notebook-rule-book")


def test_play_notebook_in_notebook7_one_turn(nb7):
    page = nb7.open("play.ipynb", ui="notebook")
    nb7.run_all_cells()
    assert nb7.errors() == []
    t = Table(page)
    expect(t.loc(".ct-table")).to_be_visible()
    expect(t.hand()).to_have_count(11)
    t.click(t.button("draw"))
    expect(t.hand()).to_have_count(12)
    codes = t.codes()
    i = next(k for k, c in enumerate(codes) if c[0] == "3" and c[1] in "SC")  # seed 11: South holds 3C
    t.click_index(i)
    chosen, before = t.selected_codes(), t.codes()
    t.click(t.button("discard"))
    assert t.last["pile"] == chosen[0], t.last
    assert Counter(t.last["hand"]) == multiset_minus(before, chosen)
    expect(t.loc(".ct-table")).to_have_attribute("data-actor", "S", timeout=30_000)
    t.root.scroll_into_view_if_needed()
    nb7.screenshot("notebook7-play-one-turn")
