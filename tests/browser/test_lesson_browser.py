"""The "taking the pack" lesson in a real JupyterLab + chromium, by clicks: every level
from the first to the last, the stars, the feedback of deliberate mistakes (an illegal
one on the first level, a legal but wrong one on the last, answered at once), and the
stars still there after a kernel restart (the progress store).

Screenshots are saved outside git, in the browser tests' git-ignored artifacts folder:
``tests/browser/artifacts/lesson-taking-the-pack-done.png`` (every level passed) and
``tests/browser/artifacts/lesson-taking-the-pack-after-restart.png``; the test prints
their paths and its own time (run pytest with ``-s`` to see them).

Time the lesson test alone with
``pytest -m browser -s tests/browser/test_lesson_browser.py``."""

from __future__ import annotations

import os
import tempfile
import time

import pytest
from playwright.sync_api import expect
from table_page import inside_viewport

from canasta_tutor.notation.actions import parse_action
from canasta_tutor.tutor.lessons.player import find_lesson
from canasta_tutor.tutor.lessons.runner import LevelRun

pytestmark = pytest.mark.browser

# the kernel's progress store: a throwaway file (make test-browser sets one too); read at collection,
# before the session's JupyterLab server starts and copies the environment
os.environ.setdefault("CANASTA_TUTOR_PROGRESS", os.path.join(tempfile.mkdtemp(), "progress.sqlite3"))

NOTEBOOK = "lessons/06-taking-the-pack.ipynb"
ROOT = ".jp-NotebookPanel:not(.lm-mod-hidden) .cl-root"


def _matches(code: str, token: str) -> bool:
    token = token.upper()
    if token == "JK":
        return code == "JK"
    if token == "10":
        token = "T"
    return code != "JK" and code[0] == token


def _feedback_count(page) -> int:
    return page.locator(f"{ROOT} .cl-feedback li").count()


def _wait_for_answer(page, before: int) -> None:
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length > n",
        arg=[f"{ROOT} .cl-feedback li", before], timeout=60_000)


def _click_cards(page, tokens: list[str]) -> None:
    hand = page.locator(f"{ROOT} .ct-seat-bottom .ct-hand .ct-card")
    codes = [hand.nth(i).get_attribute("data-card") or "" for i in range(hand.count())]
    used: set[int] = set()
    for t in tokens:
        i = next(i for i, c in enumerate(codes) if i not in used and _matches(c, t))
        used.add(i)
        hand.nth(i).click()


def play_by_clicks(page, text: str, refused: bool = False) -> None:
    """Play one action of the notation by clicking cards, a meld and a button (typed if illegal, unless it is
    a button with nothing selected: Draw, or Take pack for the top card alone onto the side's meld)."""
    before = _feedback_count(page)
    words = text.split()
    verb = words[0]
    if refused and not (verb in ("draw", "pass") or (verb == "take" and len(words) == 2)):
        # an illegal selection the planner would refuse as another press: type it instead
        page.locator(f"{ROOT} .cl-input").fill(text)
        page.locator(f"{ROOT} button.cl-primary").click()
    elif verb in ("draw", "ask", "yes", "no", "pass"):
        page.locator(f"{ROOT} button[data-button={verb}]").click()
    elif verb == "take":
        _click_cards(page, words[2:])
        page.locator(f"{ROOT} button[data-button=take]").click()
    elif verb in ("meld", "discard"):
        _click_cards(page, words[1:])
        page.locator(f"{ROOT} button[data-button={verb}]").click()
    elif verb == "add":
        _click_cards(page, words[1:2])
        if len(words) == 4:
            page.locator(f"{ROOT} .ct-melds-we .ct-meld[data-kind='{words[3].upper()}']").click()
        page.locator(f"{ROOT} button[data-button=add]").click()
    else:
        raise AssertionError(f"no clicks for {text!r}")
    _wait_for_answer(page, before)


def test_taking_the_pack_lesson_by_clicks(lab):
    lesson = find_lesson("taking-the-pack")
    start = time.monotonic()
    page = lab.open(NOTEBOOK)
    lab.run_all_cells()
    assert lab.errors() == []
    root = page.locator(ROOT)
    expect(root).to_have_count(1)

    # the lesson's own introduction is shown, and a rule number in the lesson's words opens the rule
    expect(root.locator(".cl-intro")).to_be_visible()
    expect(root.locator(".cl-intro")).to_contain_text("Instead of drawing from the stock")
    root.locator('.cl-rule-link[data-rule="R-PACK-2"]').first.click()
    rule = root.locator('.cl-rule-panel[data-rule="R-PACK-2"]')
    expect(rule).to_be_visible()
    expect(rule.locator(".cl-rule-text")).to_contain_text("three ways")
    rule.locator(".cl-rule-close").click()
    expect(rule).to_have_count(0)

    for n, level in enumerate(lesson.levels):
        expect(root).to_have_attribute("data-level", level.id)
        run = LevelRun(level, 0, hint_fn=None)  # the widget's seed is 0
        line = run.solutions[0]
        if n == 0:
            # one deliberate mistake: discarding before drawing; the answer names the click and lands in view
            rank = next(c[0] for c in run.state.hand("S") if c != "JK")
            play_by_clicks(page, f"discard {rank}")
            last = root.locator(".cl-feedback li").last
            expect(last).to_contain_text("[R-TURN-2]")
            expect(last).to_have_class("cl-refused")
            expect(last.locator("strong")).to_contain_text("Discard ")
            page.wait_for_timeout(300)
            assert inside_viewport(last.bounding_box(), page.viewport_size), "the answer landed off screen"
        if n + 1 == len(lesson.levels):
            # a legal but wrong move: drawing gives up the pack; it is answered at once, the level still open
            play_by_clicks(page, "draw")
            last = root.locator(".cl-feedback li").last
            expect(last).to_have_class("cl-wrong")
            expect(last).to_contain_text("You drew")
            expect(last).to_contain_text("take ")  # the better move, named by the level or the hint
            expect(root).to_have_attribute("data-status", "open")
            before = root.locator(".ct-seat-bottom .ct-hand .ct-card").evaluate_all(
                "els => els.map(e => e.dataset.card)")
            root.locator("button[data-intent=retry]").click()
            expect(root.locator(".cl-feedback li")).to_have_count(0)
            # a generated level deals a new hand on each try, as its goal says (the next seed)
            expect(root.locator(".cl-deal")).to_contain_text("deal 1")
            run = LevelRun(level, 1, hint_fn=None)
            line = run.solutions[0]
            assert sorted(run.state.hand("S")) != sorted(before) or run.setup_text != LevelRun(level, 0).setup_text
        for text in line:
            illegal = run.state.explain(parse_action(text)) is not None
            play_by_clicks(page, text, refused=illegal)
            run.play(text)
        expect(root).to_have_attribute("data-status", "passed")
        stars = 2 if n == 0 else 3  # the mistake went over par on the first level
        expect(root.locator(".cl-stars")).to_have_attribute("data-stars", str(stars))
        # the conclusion is said once, with how the stars were counted
        conclusion = run.fill(level.conclusion)
        assert root.inner_text().count(conclusion) == 1, conclusion
        expect(root.locator(".cl-star-text")).to_contain_text(f"{stars} stars: ")
        if level.id == "one-card-each":  # Take pack with nothing selected: the top king onto the kings
            expect(root.locator(".cl-feedback li").last.locator("strong")).to_have_text(
                "Take pack, nothing selected")
            expect(root.locator(".cl-feedback li").last).to_contain_text("[R-PACK-7]")
        if n + 1 < len(lesson.levels):
            root.locator("button[data-intent=next]").click()
    # the end of the lesson says so, and names the next lesson with a link to its notebook
    complete = root.locator(".cl-complete")
    expect(complete).to_contain_text("Lesson complete.")
    expect(complete.locator(".cl-next-lesson a")).to_have_text("Canastas")
    expect(complete.locator(".cl-next-lesson a")).to_have_attribute("href", "07-canastas.ipynb")
    done = lab.screenshot("lesson-taking-the-pack-done", full_page=True)
    print(f"screenshot: {done}")
    levels = root.locator(".cl-levels button")
    expect(levels.first).to_contain_text("★★")

    # a kernel restart: the stars come back from the progress store
    page.evaluate("() => { window.jupyterapp.commands.execute('kernelmenu:restart'); }")  # not awaited: it asks
    page.locator(".jp-Dialog .jp-mod-accept").click()
    page.wait_for_timeout(1000)
    lab.wait_for_kernel_idle()
    lab.run_all_cells()
    root = page.locator(ROOT)
    expect(root).to_have_attribute("data-level", lesson.levels[0].id)
    expect(root).to_have_attribute("data-status", "open")
    buttons = root.locator(".cl-levels button")
    expect(buttons).to_have_count(len(lesson.levels))
    expect(buttons.first).to_have_text("1 ★★")
    for i in range(1, len(lesson.levels)):
        expect(buttons.nth(i)).to_have_text(f"{i + 1} ★★★")
    after = lab.screenshot("lesson-taking-the-pack-after-restart", full_page=True)
    print(f"screenshot: {after}")
    print(f"lesson browser test: {time.monotonic() - start:.1f} s")
