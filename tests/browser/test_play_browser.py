"""play.ipynb in a real JupyterLab + Debian chromium at 1024x768, side bar open.

The first test runs the notebook, then, only by clicking the widget: tries an
illegal discard (the rule number in the message line opens the rule's text),
draws, opens the hint to its last stage (the felt keeps its height; the hand
and the buttons stay inside the window), tries an illegal meld, turns the
coach on, selects 4 4 4 4 JK card by card and melds them (the coach grades
the whole selection; undo clears the grade; melded again), discards, and waits for the three bots to
play round.  It proves the state reached Python by re-running the notebook's
status cell, measures click-to-render times and the size of one update, and
saves screenshots in tests/browser/artifacts/.  The second test plays a whole
hand by clicks and checks after every play that the cards clicked are the
cards that moved.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest
from playwright.sync_api import expect
from table_page import ARM_TIMER, Table, check_median, inside_viewport, kernel_print, multiset_minus, view_bytes

from canasta_tutor import Game
from canasta_tutor.tutor.display import card_label
from canasta_tutor.tutor.view import card_text

pytestmark = pytest.mark.browser

SEED = 11  # must match the notebook: South can meld 4 4 4 4 JK after drawing
STATUS_CELL = 4  # index of the cell `print(table.status())`
WIRE_LIMIT = 20_000  # bytes of one view update
MEDIAN_LIMIT_MS = 100.0
MIN_CENTRE_PX = 300  # the felt's centre column (melds, stock and pile)


def run_cell(lab, index: int) -> str:
    """Re-run one cell of the open notebook; return its output text."""
    page = lab.page
    page.evaluate(
        """async (i) => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = i;
            await window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )
    lab.wait_for_cells_done()
    cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(index)
    return cell.locator(".jp-OutputArea-output").inner_text()


def height(locator) -> float:
    return locator.bounding_box()["height"]


def assert_hand_and_buttons_visible(t: Table, page) -> None:
    """Scroll the buttons into view; then the whole hand and every button lie inside the window."""
    t.loc(".ct-controls").scroll_into_view_if_needed()
    vp = page.viewport_size
    hand_box, buttons_box = t.loc(".ct-my-hand").bounding_box(), t.loc(".ct-controls").bounding_box()
    assert inside_viewport(hand_box, vp), f"hand {hand_box} outside {vp}"
    assert inside_viewport(buttons_box, vp), f"buttons {buttons_box} outside {vp}"
    for b in t.loc(".ct-controls .ct-btn").all():
        assert inside_viewport(b.bounding_box(), vp), f"button {b.get_attribute('data-intent')} outside {vp}"


def open_table(lab) -> Table:
    page = lab.open("play.ipynb")
    lab.open_side_bar()
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = Table(page)
    expect(t.root.locator(".ct-table")).to_be_visible()
    return t


def test_play_a_turn_by_clicking(lab):
    started = time.monotonic()
    t = open_table(lab)
    page = lab.page
    expect(t.hand()).to_have_count(11)
    state = Game().new_initial_state(seed=SEED)
    codes = t.codes()
    assert codes == state.hand("S")
    labels = t.hand().evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels == [card_label(c) for c in codes]
    expect(t.loc(".ct-seat-left .ct-count")).to_have_text("11 cards")
    # the widget's own stylesheet is live (a notebook saved with widget state would pin an old one)
    assert t.root.evaluate("e => getComputedStyle(e).containerType") == "inline-size"
    expect(t.loc(".ct-stock-count")).to_have_text(str(len(state.stock)))
    expect(t.button("draw")).to_have_attribute("aria-disabled", "false")
    # beside the open side bar the centre of the felt keeps room for melds, stock and pile
    centre = t.loc(".ct-center").bounding_box()["width"]
    assert centre >= MIN_CENTRE_PX, f"centre column squeezed to {centre:.0f} px"
    assert_hand_and_buttons_visible(t, page)
    lab.screenshot("play-1-start")

    # an illegal attempt: discard before drawing; the button says why, and so does the message line
    title = t.button("discard").get_attribute("title")
    assert title.startswith("[R-TURN-2]"), title
    t.click(t.button("discard"), force=True)
    expect(t.message()).to_contain_text("[R-TURN-2]")
    link = t.message().locator('.ct-rule-link[data-rule="R-TURN-2"]')
    expect(link).to_have_count(1)
    # the rule number opens the rule's text, which comes from Python's rule book
    t.click(link)
    panel = t.loc('.ct-rule-panel[data-rule="R-TURN-2"]')
    expect(panel).to_be_visible()
    rule = json.loads(kernel_print(page, "import json; print(json.dumps(table.view['rule']))"))
    assert rule["id"] == "R-TURN-2" and rule["text"]
    expect(panel.locator(".ct-rule-text")).to_have_text(rule["text"])
    lab.screenshot("play-2-rule-text")
    panel.locator(".ct-rule-close").click()
    expect(panel).to_have_count(0)
    # a rule number in a button's tooltip is clickable too (the why line under the buttons)
    t.button("discard").hover()
    tip = t.loc('.ct-why-line .ct-rule-link[data-rule="R-TURN-2"]')
    expect(tip).to_have_count(1)
    t.click(tip)
    expect(t.loc('.ct-rule-panel[data-rule="R-TURN-2"]')).to_be_visible()

    # draw; a double click does not turn "You drew ..." into an error
    t.button("draw").dblclick()
    expect(t.hand()).to_have_count(12)
    expect(t.message()).to_contain_text("You drew")
    expect(t.message()).not_to_have_class(re.compile(r"ct-msg-error"))
    expect(t.loc(".ct-stock-count")).to_have_text(str(len(state.stock) - 1))

    # the hint, opened to its last stage: the felt keeps its height, hand and buttons stay in the window
    felt = height(t.loc(".ct-board"))
    hint = t.loc(".ct-hint")
    for stage in range(1, 10):
        t.button("hint").click()
        expect(hint.locator(".ct-hint-stage")).to_have_count(stage, timeout=60_000)
        expect(hint).not_to_have_class(re.compile(r"ct-busy"))
        view = json.loads(kernel_print(page, "import json; print(json.dumps(table.view['hint']))"))
        if view["stage"] + 1 >= view["count"]:
            break
    assert abs(height(t.loc(".ct-board")) - felt) < 1, "opening the hint changed the felt's height"
    expect(hint.locator(".ct-alts thead th")).to_have_text(["Move", "Verdict", "Value"])
    # what the values are, in words (issue 31: the figure was a margin, read as the side's own points)
    expect(hint.locator(".ct-alts-what")).to_contain_text("your side's score less the other side's")
    expect(hint.locator(".ct-alts tbody tr")).to_have_count(len(view["table"]))
    expect(hint.locator(".ct-alts tbody tr.ct-best")).to_have_count(1)
    assert view["texts"] and not re.search(r"R-[A-Z]+-\d|\u00b1", view["texts"][0]), view["texts"][0]
    hinted = t.loc(".ct-my-hand .ct-card.ct-hinted").evaluate_all("els => els.map(e => Number(e.dataset.idx))")
    assert hinted == sorted(view["cards"])
    assert_hand_and_buttons_visible(t, page)
    lab.screenshot("play-3-hint-open-1024x768")

    # an illegal meld: two sixes alone
    t.click_card("6H")
    t.click_card("6C")
    why = t.button("meld").get_attribute("title")
    assert why.startswith("[R-MELD-"), why  # the engine's own check, shown on hover
    t.click(t.button("meld"), force=True)
    # the refusal names the cards selected, then the engine's rule and reason
    expect(t.message()).to_have_text(f"Meld {card_text('6H')} {card_text('6C')}: {why}")
    t.click(t.loc(".ct-my-hand .ct-card.ct-selected").first)
    t.click(t.loc(".ct-my-hand .ct-card.ct-selected").first)
    expect(t.loc(".ct-my-hand .ct-card.ct-selected")).to_have_count(0)

    # the coach on: select 4 4 4 4 JK by clicking, then meld: exactly these cards go down, and the coach
    # grades the whole selection (a meld and two additions: the hint's own plan in another order) as best,
    # with no second "Best:" naming another move; undo takes the grade away (issue 31)
    t.loc(".ct-coach-toggle").check()
    expect(t.loc(".ct-coach")).to_be_visible()
    coach = t.loc(".ct-coach-last")
    for attempt in range(2):
        for code, nth in (("4S", 0), ("4H", 0), ("4H", 1), ("4C", 0), ("JK", 0)):
            t.click_card(code, nth)
        expect(t.loc(".ct-my-hand .ct-card.ct-selected")).to_have_count(5)
        expect(t.button("meld")).to_have_attribute("aria-disabled", "false")
        chosen, before = t.selected_codes(), t.codes()
        if attempt:
            lab.screenshot("play-4-selected")
        t.click(t.button("meld"))
        expect(coach.locator(".ct-grade")).to_have_text("best", timeout=60_000)
        expect(coach).to_contain_text("meld 4 4 4")
        expect(coach.locator(".ct-coach-text")).to_contain_text("the hint's meld 4 4 JK")
        expect(t.loc(".ct-coach-best")).to_have_count(0)
        if not attempt:
            t.click(t.button("undo"))
            expect(coach).to_have_count(0)
            expect(t.hand()).to_have_count(12)
    meld = t.loc('.ct-melds-we .ct-meld[data-kind="4"]')
    expect(meld).to_have_count(1)
    expect(meld.locator(".ct-card")).to_have_count(5)
    expect(t.hand()).to_have_count(7)
    assert Counter(t.codes()) == multiset_minus(before, chosen)
    assert Counter(t.meld_codes()["4"]) == Counter(chosen)
    expect(t.message()).to_contain_text("You melded")
    lab.screenshot("play-5-melded")

    # discard the black three; then the bots play round at their pace
    t.click_card("3C")
    t.click(t.button("discard"))
    expect(t.message()).to_contain_text("You discarded")
    expect(t.loc(".ct-pile .ct-pile-top .ct-card")).to_have_attribute("data-card", "3C")
    expect(t.hand()).to_have_count(6)
    expect(t.loc(".ct-table")).to_have_attribute("data-actor", "W")
    expect(t.loc(".ct-table")).to_have_attribute("data-actor", "S", timeout=30_000)
    expect(t.loc(".ct-table")).to_have_attribute("data-phase", "draw")
    expect(t.message()).to_contain_text("Your turn")
    log = t.loc(".ct-log li")
    expect(log).not_to_have_count(0)
    entries = json.loads(kernel_print(page, "import json; print(json.dumps(table.view['log']))"))
    expect(log).to_have_count(len(entries))
    lab.screenshot("play-6-bots-played", full_page=False)

    # keyboard: focus a card, move right, select with Space, clear with Escape
    t.hand().first.focus()
    page.keyboard.press("ArrowRight")
    page.evaluate(ARM_TIMER)
    page.keyboard.press("Space")
    page.evaluate("() => window.__ctTiming")
    expect(t.loc('.ct-my-hand .ct-card[data-idx="1"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(t.loc(".ct-my-hand .ct-card.ct-selected")).to_have_count(0)

    # the state reached Python: the notebook's status cell, re-run, tells
    out = run_cell(lab, STATUS_CELL)
    assert "deal 0, phase draw, turn S; your hand: 6 cards" in out, out
    assert "melds We " in out and "melds We 0" not in out and "last action: discard 3" in out, out

    # one state update on the wire
    size = view_bytes(page)
    assert size < WIRE_LIMIT, size

    # dark theme: the chrome follows JupyterLab's variables
    lab.command("apputils:change-theme", {"theme": "JupyterLab Dark"})
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
    t.root.scroll_into_view_if_needed()
    t.root.screenshot(path=str(lab.artifacts / "play-7-dark.png"))
    lab.command("apputils:change-theme", {"theme": "JupyterLab Light"})

    median = t.median_ms()
    elapsed = time.monotonic() - started
    report = {"clicks": len(t.timings), "median_click_to_render_ms": round(median, 1),
              "max_click_to_render_ms": round(max(t.timings), 1), "view_bytes": size,
              "test_seconds": round(elapsed, 1)}
    report["median_check"] = check_median(median, MEDIAN_LIMIT_MS)
    (lab.artifacts / "play-figures.json").write_text(json.dumps(report, indent=2))
    print(f"\nplay a turn: click-to-render over {len(t.timings)} clicks: median {median:.1f} ms, "
          f"max {max(t.timings):.1f} ms; view update {size} bytes; test {elapsed:.1f} s")
    print("median click-to-render:", report["median_check"])


NATURAL_RANKS = "456789TJQKA"
WILD = ("JK",)


def _meld_choices(codes: list[str], ours: dict[str, list[str]]) -> list[list[int]]:
    """Groups of hand indices worth trying with the Meld button: adds to our melds, then new melds."""
    by_rank: dict[str, list[int]] = {}
    for i, c in enumerate(codes):
        if c != "JK" and c[0] in NATURAL_RANKS:
            by_rank.setdefault(c[0], []).append(i)
    adds = [idx for r, idx in by_rank.items() if r in ours]
    news = [idx for r, idx in by_rank.items() if r not in ours and len(idx) >= 3]
    return adds + news


def _discard_choice(codes: list[str]) -> list[int]:
    """Hand indices to try discarding, the least useful first: black threes, lone naturals, wild cards last."""
    counts = Counter(c[0] for c in codes)
    order = sorted(range(len(codes)), key=lambda i: (
        codes[i] in ("JK",) or codes[i][0] == "2",
        codes[i][0] != "3" or codes[i][1] in "HD",
        counts[codes[i][0]],
    ))
    return order


def test_cards_clicked_are_cards_moved_over_a_whole_hand(lab):
    """Play South's whole first hand by clicks; after every play the selected cards (read from the DOM,
    suits included) left the hand and landed on a meld or the pile.  Click-to-render times and the
    largest view update are measured over the hand."""
    started = time.monotonic()
    t = open_table(lab)
    page = lab.page
    # the bots keep their pacing (the learner's move is drawn first), only faster than a person needs
    assert kernel_print(page, "table.bot_delay = 0.05; print('ok')").strip() == "ok"
    table = t.loc(".ct-table")
    plays = melds = undos = 0
    melded_this_turn = 0
    no_melds = False  # after an undo: this turn, only discard
    sizes = [view_bytes(page)]
    for _turn in range(400):
        page.wait_for_function(
            """() => { const t = document.querySelector('.jp-OutputArea-output .ct-table');
                       return t && (t.dataset.actor === 'S' || /over/.test(t.dataset.phase)); }""",
            timeout=60_000)
        phase, actor = t.attr("data-phase"), t.attr("data-actor")
        if phase in ("hand_over", "game_over"):
            break
        assert actor == "S", f"waiting for S, but {actor!r} is to act in phase {phase!r}"
        if phase == "answer":
            t.click(t.button("yes"))
            continue
        if phase == "draw":
            t.click(t.button("draw"))
            melded_this_turn, no_melds = 0, False
            continue
        # meld phase: try the Meld button on each group; keep two cards for the discard
        for group in ([] if no_melds else _meld_choices(t.codes(), t.meld_codes())):
            if t.hand().count() - len(group) < 2:
                continue
            for i in group:
                t.click_index(i)
            if t.button("meld").get_attribute("aria-disabled") == "true":
                for i in group:
                    t.click_index(i)
                expect(t.loc(".ct-my-hand .ct-card.ct-selected")).to_have_count(0)
                continue
            chosen, before, counts = t.selected_codes(), t.codes(), t.meld_counts()
            assert len(chosen) == len(group)
            t.click(t.button("meld"))
            expect(t.hand()).to_have_count(len(before) - len(chosen))
            assert Counter(t.codes()) == multiset_minus(before, chosen), (before, chosen, t.codes())
            kind = chosen[0][0]
            after = t.meld_codes().get(kind)
            assert after is not None, f"no meld of {kind} after melding {chosen}"
            if t.meld_counts()[kind] == len(after):  # not yet a canasta: every card is face up
                assert not Counter(chosen) - Counter(after), (chosen, after)
            assert t.meld_counts()[kind] == counts.get(kind, 0) + len(chosen)
            plays += 1
            melds += 1
            melded_this_turn += 1
            break  # the hand changed: look again next time round
        else:
            # discard: the first candidate the Discard button accepts
            codes = t.codes()
            for i in _discard_choice(codes):
                t.click_index(i)
                if t.button("discard").get_attribute("aria-disabled") == "false":
                    break
                t.click_index(i)
            else:
                # melds short of the initial minimum: take them back (Undo) and only discard this turn
                assert melded_this_turn, f"no card of {codes} may be discarded"
                for _ in range(melded_this_turn):
                    t.click(t.button("undo"))
                undos += melded_this_turn
                melded_this_turn, no_melds = 0, True
                continue
            chosen, before = t.selected_codes(), t.codes()
            assert len(chosen) == 1
            t.click(t.button("discard"))
            # the table drawn right after the click (before the bots move): the card is on the pile
            assert t.last["pile"] == chosen[0], (chosen, t.last)
            assert Counter(t.last["hand"]) == multiset_minus(before, chosen), (before, chosen, t.last)
            expect(t.hand()).to_have_count(len(before) - 1)
            assert Counter(t.codes()) == multiset_minus(before, chosen), (before, chosen, t.codes())
            # and the log names the card, suit included
            mine = json.loads(kernel_print(
                page, "import json; print(json.dumps([e['text'] for e in table.view['log'] if e['who'] == 'You']))"))
            assert mine and card_text(chosen[0]) in mine[-1], (chosen, mine[-1:])
            plays += 1
            sizes.append(view_bytes(page))
    else:
        pytest.fail("the hand did not end within 400 steps")
    expect(table).to_have_attribute("data-phase", re.compile("hand_over|game_over"))
    sizes.append(view_bytes(page))
    # the table talk's numbers keep every digit from 10 up: the list's margin holds its widest number
    entries = t.loc(".ct-log li").count()
    assert entries >= 10, entries
    room, widest = t.loc(".ct-log").evaluate(
        """ol => { const cs = getComputedStyle(ol.querySelector('li')); const c = document.createElement('canvas')
                   .getContext('2d'); c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
                   return [parseFloat(getComputedStyle(ol).paddingLeft),
                           c.measureText(`${ol.children.length}. `).width]; }""")
    assert room >= widest, f"{entries} entries: numbers need {widest:.1f} px, the list leaves {room:.1f} px"
    t.loc(".ct-controls").scroll_into_view_if_needed()
    lab.screenshot("hand-1-over")
    median, largest = t.median_ms(), max(sizes)
    elapsed = time.monotonic() - started
    report = {"clicks": len(t.timings), "plays": plays, "melds": melds, "undos": undos,
              "median_click_to_render_ms": round(median, 1), "max_click_to_render_ms": round(max(t.timings), 1),
              "median_ms_by_click": t.medians_by_kind(), "largest_view_bytes": largest,
              "last_view_bytes": sizes[-1], "test_seconds": round(elapsed, 1)}
    report["median_check"] = check_median(median, MEDIAN_LIMIT_MS)
    (lab.artifacts / "hand-figures.json").write_text(json.dumps(report, indent=2))
    print(f"\nwhole hand: {plays} plays ({melds} melds), click-to-render over {len(t.timings)} clicks: median "
          f"{median:.1f} ms, max {max(t.timings):.1f} ms; view update: largest {largest} bytes, "
          f"last {sizes[-1]} bytes; test {elapsed:.1f} s; medians by click: {t.medians_by_kind()}")
    assert melds >= 1, "no meld was played in the whole hand"
    print("median click-to-render:", report["median_check"])
    assert largest < WIRE_LIMIT, f"a view update of {largest} bytes"
