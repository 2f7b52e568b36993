"""A two-handed table in play.ipynb, in a real JupyterLab + Debian chromium: one whole turn by clicks.

The notebook's last table (``duel``, seed 7) is a two-handed game where South plays first.  The test
checks the layout (the learner at the bottom, North at the top, each side's melds under its name, a
score sheet with a column per side), then plays South's first turn only by clicking: draw (two cards
come in), select the naturals the rules-of-thumb bot would meld and meld them, select its discard and
discard.  After every click the page is compared with Python's view in the kernel (the hand, the stock,
the pile and the melds), and at the end North's bot plays and it is South's turn again.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from playwright.sync_api import expect
from table_page import kernel_print, multiset_minus

from canasta_tutor.notation.actions import format_action
from canasta_tutor.bots import RulesOfThumbBot
from canasta_tutor.engine.observer import observe
from canasta_tutor.tutor.session import TableSession

pytestmark = pytest.mark.browser

SEED = 7  # must match the notebook's two-handed table: South plays first and melds naturals after drawing
NAME = "duel"  # the table's name in the notebook


def expected_turn() -> tuple[list[str], str]:
    """The ranks the rules-of-thumb bot melds (or adds) in South's first turn, and the rank it discards."""
    s = TableSession(seed=SEED, variant="two-handed")
    s.press("draw")
    bot = RulesOfThumbBot()
    melded: list[str] = []
    while True:
        action = bot(observe(s.state, "S"))
        words = format_action(action).split()
        if words[0] == "discard":
            return melded, words[1]
        assert words[0] in ("meld", "add") and "JK" not in words and "2" not in words, words
        melded += words[1:] if words[0] == "meld" else [words[1]]
        s.play(format_action(action))


class VariantTable:
    """The two-handed table on the page; each click waits for Python's next view (``data-rev`` grew)."""

    def __init__(self, page):
        self.page = page
        self.root = page.locator('.jp-OutputArea-output .ct-root:has(.ct-table[data-variant="two-handed"])')
        self.table = self.root.locator(".ct-table")

    def loc(self, selector: str):
        return self.root.locator(selector)

    def codes(self) -> list[str]:
        return self.loc(".ct-my-hand .ct-card").evaluate_all("els => els.map(e => e.dataset.card)")

    def click(self, locator) -> None:
        rev = int(self.table.get_attribute("data-rev") or 0)
        locator.click()
        self.page.wait_for_function(
            """([rev]) => {
                const t = document.querySelector('.ct-table[data-variant="two-handed"]');
                return t && Number(t.dataset.rev) > rev;
            }""", arg=[rev])

    def select_rank(self, rank: str, taken: set[int]) -> None:
        idx = next(i for i, c in enumerate(self.codes()) if c[0] == rank and i not in taken)
        taken.add(idx)
        self.click(self.loc(f'.ct-my-hand .ct-card[data-idx="{idx}"]'))

    def check_against_python(self) -> dict:
        """The page shows what Python's view holds: hand, stock, pile top, melds of both sides."""
        view = json.loads(kernel_print(self.page, f"import json; print(json.dumps({NAME}.view))"))
        expect(self.loc(".ct-my-hand .ct-card")).to_have_count(len(view["hand"]))
        assert self.codes() == view["hand"]
        expect(self.loc(".ct-stock-count")).to_have_text(str(view["stock"]))
        top = self.loc(".ct-pile .ct-pile-top .ct-card")
        if view["pile"]["top"]:
            expect(top).to_have_attribute("data-card", view["pile"]["top"])
        for who, melds in zip(("we", "they"), view["melds"], strict=True):
            shown = self.loc(f".ct-melds-{who} .ct-meld").evaluate_all("els => els.map(m => m.dataset.kind)")
            assert shown == [m["kind"] for m in melds], (who, shown, melds)
        counts = {p["seat"]: p["count"] for p in view["players"].values()}
        expect(self.loc('.ct-seat-top[data-seat="N"] .ct-count')).to_have_attribute("data-count", str(counts["N"]))
        return view


def test_a_two_handed_turn_by_clicking(lab):
    melds, discard = expected_turn()
    page = lab.open("play.ipynb")
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = VariantTable(page)
    expect(t.table).to_be_visible()
    t.table.scroll_into_view_if_needed()

    # the layout: two seats, the learner at the bottom and North at the top; one meld area per side
    expect(t.table).to_have_class(re.compile(r"\bct-players-2\b"))
    expect(t.loc(".ct-seat")).to_have_count(2)
    expect(t.loc('.ct-seat-bottom[data-seat="S"] .ct-my-hand .ct-card')).to_have_count(15)
    expect(t.loc('.ct-seat-top[data-seat="N"] .ct-count')).to_have_text("15 cards")
    top, bottom = t.loc(".ct-seat-top").bounding_box(), t.loc(".ct-seat-bottom").bounding_box()
    centre = t.loc(".ct-center").bounding_box()
    assert top["y"] + top["height"] <= centre["y"] + 1 and centre["y"] + centre["height"] <= bottom["y"] + 1
    expect(t.loc(".ct-melds-we .ct-melds-title")).to_have_text("You (S)")
    expect(t.loc(".ct-melds-they .ct-melds-title")).to_have_text("North (N)")
    expect(t.loc(".ct-score thead th")).to_have_text(["", "You (S)", "North (N)"])
    expect(t.table).to_have_attribute("data-actor", "S")
    start = t.check_against_python()
    lab.screenshot("variant-1-two-handed-start")

    # draw: two cards from the stock (the variant's draw)
    before = t.codes()
    t.click(t.loc('.ct-btn[data-intent="draw"]'))
    expect(t.loc(".ct-my-hand .ct-card")).to_have_count(17)
    expect(t.loc(".ct-message")).to_contain_text("You drew")
    expect(t.loc(".ct-message")).to_contain_text(" and ")
    view = t.check_against_python()
    assert view["stock"] == start["stock"] - 2
    assert sum(multiset_minus(t.codes(), before).values()) == 2

    # meld the naturals the bot would meld: select them card by card, then one click on Meld
    taken: set[int] = set()
    for rank in melds:
        t.select_rank(rank, taken)
        t.check_against_python()
    chosen, before = t.loc(".ct-my-hand .ct-card.ct-selected").evaluate_all(
        "els => els.map(e => e.dataset.card)"), t.codes()
    assert sorted(c[0] for c in chosen) == sorted(melds)
    expect(t.loc('.ct-btn[data-intent="meld"]')).to_have_attribute("aria-disabled", "false")
    lab.screenshot("variant-2-selected")
    t.click(t.loc('.ct-btn[data-intent="meld"]'))
    expect(t.loc(".ct-message")).to_contain_text("You melded")
    view = t.check_against_python()
    assert Counter(t.codes()) == multiset_minus(before, chosen)
    on_table = t.loc(".ct-melds-we .ct-meld .ct-card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert Counter(on_table) == Counter(chosen)
    assert {m["kind"] for m in view["melds"][0]} == set(melds)
    lab.screenshot("variant-3-melded")

    # discard: select the bot's discard and click Discard; then North's bot plays and it is South's turn
    t.select_rank(discard, set())
    card = t.loc(".ct-my-hand .ct-card.ct-selected").get_attribute("data-card")
    t.click(t.loc('.ct-btn[data-intent="discard"]'))
    expect(t.loc(".ct-message")).to_contain_text("You discarded")
    expect(t.loc(".ct-pile .ct-pile-top .ct-card")).to_have_attribute("data-card", card)
    expect(t.table).to_have_attribute("data-actor", "S", timeout=60_000)
    expect(t.table).to_have_attribute("data-phase", "draw")
    view = t.check_against_python()
    assert view["players"]["top"]["seat"] == "N" and len(view["hand"]) == 17 - len(melds) - 1
    log = json.loads(kernel_print(page, f"import json; print(json.dumps({NAME}.view['log']))"))
    assert [e["who"] for e in log][:3] == ["You", "You", "You"] and "North" in {e["who"] for e in log}
    expect(t.loc(".ct-log li")).to_have_count(len(log))
    lab.screenshot("variant-4-north-played")
