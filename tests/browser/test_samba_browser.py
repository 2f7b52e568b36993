"""A Samba table in a real JupyterLab + Debian chromium: one whole turn of South's by clicks; and an Italian
table's canasta of deuces and always-frozen pile as the page draws them.

The test writes a small notebook next to the copied ones: a Samba table started from a position where
South, to draw, holds a run of hearts and a king, the pile's top card is a queen, and North-South have
two sets of queens (m1, m3) and two of kings (m2, m4).  South's turn, only by clicks (and one key):

1. Take: the queen fits two sets, so the table asks for a meld; a click on m1 plays ``take Q on m1``.
2. 7H 8H 9H selected, Meld: ``run 7H 8H 9H``, a sequence shown as meld m5.
3. 9C selected, a click on the sequence m5: the click named, then the engine's refusal, its rule number a link
   (R-SAMBA-3).
4. KC selected, a click on m2: ``put K on m2``.
5. Join, then Enter on m3 (picked: pressed), then a click on m1: ``join m3 into m1``.
6. 4C selected, Discard; the bots play and it is South's turn again.

After every step the page is compared with Python's view in the kernel (hand, pile, melds and their
card counts, the message), which proves the round trip browser -> kernel -> browser.

The Italian table (R-ITAL-4, R-ITAL-6) starts where North-South have a canasta of seven deuces, a set of
kings and a set of queens with three deuces; the page must badge the deuces as a canasta of deuces, show
the pile frozen for everyone with no card crosswise, and draw two cards on a click on Draw.
"""

from __future__ import annotations

import json
import re

import nbformat
import pytest
from playwright.sync_api import expect
from table_page import kernel_print

from canasta_tutor.notation.position import parse_position

pytestmark = pytest.mark.browser

NOTEBOOK = "samba_table.ipynb"
NAME = "samba"  # the table's name in the notebook
POSITION = """canasta-tutor position
variant: samba
seed: 5
deal: 0
dealer: E
turn: S draw
totals: NS 0 EW 0
stock: 123
pile: 5C QC
N: 4S 6D 8C TD JC
E: 5H 7D 9S JD AS
S: 4C 5D 6S 7H 8H 9H 9C TC JS KC
W: 5S 7C 9D JH AC
melds NS: QS QH QD; KS KH KD; QD QC JK; KD KC 2C
"""


ITALIAN = """canasta-tutor position
variant: italian
dealer: E
turn: S draw
totals: NS 0 EW 0
stock: 128
pile: 5C 9D
N: 4S 5S 6S
E: 4H 5H 6H
S: 4C 7S 8S 9S 9H 2S JK
W: 4D 5D 6D
melds NS: QS QH QD 2H 2D 2C; KH KD KC; 2S 2S 2H 2H 2D 2D 2C (canasta of deuces)
melded-before: N S
"""


def _write_notebook(root, notebook: str, name: str, position: str) -> None:
    cells = [
        nbformat.v4.new_markdown_cell("A table started from a position (written by the browser test)."),
        nbformat.v4.new_code_cell(
            "from canasta_tutor.notation.position import parse_position\n"
            "from canasta_tutor.ui.table import CanastaTable\n"
            f"POSITION = {position!r}\n"
            f"{name} = CanastaTable(state=parse_position(POSITION), bot_delay=0.2)\n"
            f"{name}"),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(root / notebook))


class SambaTable:
    """The Samba table on the page; each click waits for Python's next view (``data-rev`` grew)."""

    def __init__(self, page):
        self.page = page
        self.root = page.locator('.jp-OutputArea-output .ct-root:has(.ct-table[data-variant="samba"])')
        self.table = self.root.locator(".ct-table")

    def loc(self, selector: str):
        return self.root.locator(selector)

    def meld(self, kind: str):
        return self.loc(f'.ct-melds-we button.ct-meld[data-kind="{kind}"]')

    def button(self, intent: str):
        return self.loc(f'.ct-btn[data-intent="{intent}"]')

    def codes(self) -> list[str]:
        return self.loc(".ct-my-hand .ct-card").evaluate_all("els => els.map(e => e.dataset.card)")

    def _after(self, rev: int) -> None:
        self.page.wait_for_function(
            """([rev]) => {
                const t = document.querySelector('.ct-table[data-variant="samba"]');
                return t && Number(t.dataset.rev) > rev && !t.closest('.ct-root').classList.contains('ct-inflight');
            }""", arg=[rev])

    def click(self, locator) -> None:
        rev = int(self.table.get_attribute("data-rev") or 0)
        locator.click()
        self._after(rev)

    def press(self, locator, key: str) -> None:
        rev = int(self.table.get_attribute("data-rev") or 0)
        locator.focus()
        locator.press(key)
        self._after(rev)

    def select(self, *codes: str) -> None:
        for code in codes:
            idx = self.codes().index(code)
            self.click(self.loc(f'.ct-my-hand .ct-card[data-idx="{idx}"]'))
        chosen = self.loc(".ct-my-hand .ct-card.ct-selected").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(chosen) == sorted(codes)

    def python_view(self) -> dict:
        return json.loads(kernel_print(self.page, f"import json; print(json.dumps({NAME}.view))"))

    def check_against_python(self) -> dict:
        """The page shows what Python's view holds: hand, pile, our melds and their card counts, the message."""
        view = self.python_view()
        expect(self.loc(".ct-my-hand .ct-card")).to_have_count(len(view["hand"]))
        assert self.codes() == view["hand"]
        expect(self.loc(".ct-pile .ct-pile-size")).to_have_text(str(view["pile"]["size"]))
        shown = self.loc(".ct-melds-we .ct-meld").evaluate_all(
            "els => els.map(m => [m.dataset.kind, Number(m.querySelector('.ct-meld-info .ct-count').textContent),"
            " m.querySelector('.ct-meld-no').textContent])")
        assert shown == [[m["kind"], len(m["cards"]), m["kind"]] for m in view["melds"][0]], shown
        expect(self.loc(".ct-message")).to_have_text(view["message"])
        return view


def test_the_positions_are_south_to_draw():
    for text, variant in ((POSITION, "samba"), (ITALIAN, "italian")):
        state = parse_position(text)
        assert state.variant.name == variant and state.current_seat == "S" and state.phase == "draw"


def test_a_samba_turn_by_clicking_with_a_sequence_and_a_join(lab, jupyter_server):
    _write_notebook(jupyter_server.root_dir, NOTEBOOK, NAME, POSITION)
    page = lab.open(NOTEBOOK)
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = SambaTable(page)
    expect(t.table).to_be_visible()
    t.table.scroll_into_view_if_needed()
    expect(t.table).to_have_attribute("data-actor", "S")
    expect(t.loc(".ct-melds-we .ct-meld-no")).to_have_text(["m1", "m2", "m3", "m4"])
    expect(t.button("join")).to_have_text("Join\u2026")
    t.check_against_python()
    lab.screenshot("samba-1-start")

    # 1. take the pack by adding its top card (a queen) to m1: Take asks which meld, the click answers
    t.click(t.button("take"))
    expect(t.table).to_have_attribute("data-choose", "take")
    expect(t.meld("m1")).to_have_attribute("aria-label", re.compile(r"take the pack: the top card onto this meld$"))
    t.click(t.meld("m1"))
    expect(t.loc(".ct-message")).to_contain_text("take Q on m1")
    expect(t.table).not_to_have_attribute("data-choose", "take")
    view = t.check_against_python()
    assert view["phase"] == "meld" and view["pile"]["size"] == 0 and len(view["melds"][0][0]["cards"]) == 4

    # 2. a sequence: select three hearts in a row, and the Meld button says it makes "run 7H 8H 9H"
    t.select("7H", "8H", "9H")
    expect(t.button("meld")).to_have_attribute("title", "run 7H 8H 9H")
    expect(t.button("meld")).to_have_attribute("aria-disabled", "false")
    t.click(t.button("meld"))
    expect(t.loc(".ct-message")).to_contain_text("run 7H 8H 9H")
    expect(t.meld("m5")).to_have_attribute("aria-label", re.compile(r"^meld m5, sequence of 7 to 9 of hearts"))
    view = t.check_against_python()
    assert view["melds"][0][4]["sequence"] and view["melds"][0][4]["cards"] == ["7H", "8H", "9H"]
    lab.screenshot("samba-2-sequence")

    # 3. a card that does not fit the sequence: the engine's refusal in its own words, with a rule link
    t.select("9C")
    t.click(t.meld("m5"))
    view = t.check_against_python()
    rule, reason = json.loads(kernel_print(page, (
        "import json; from canasta_tutor.notation.actions import parse_action; "
        f"e = {NAME}.state.explain(parse_action('put 9 on m5')); print(json.dumps([e.rule, e.reason]))")))
    # the click named as it was made (the card and the meld clicked), then the engine's rule and reason
    assert view["message"] == f"Add 9♣ to m5: [{rule}] {reason}" and view["message_kind"] == "error"
    assert rule.startswith("R-")
    expect(t.loc(f'.ct-message .ct-rule-link[data-rule="{rule}"]')).to_have_count(1)
    t.click(t.loc(".ct-my-hand .ct-card.ct-selected"))  # unselect the nine

    # 4. put a king on the set of kings m2 by a click on it
    t.select("KC")
    t.click(t.meld("m2"))
    expect(t.loc(".ct-message")).to_contain_text("put K on m2")
    view = t.check_against_python()
    assert len(view["melds"][0][1]["cards"]) == 4

    # 5. join m3 into m1: the Join button, Enter on m3 (the keyboard), a click on m1
    expect(t.button("join")).to_have_attribute("aria-disabled", "false")
    t.click(t.button("join"))
    expect(t.table).to_have_attribute("data-choose", "join")
    expect(t.meld("m5")).to_have_class(re.compile(r"\bct-sequence\b"))  # a sequence is never joined: dimmed
    expect(t.loc(".ct-message")).to_have_text("Click the set to join into another set of its rank.")
    t.press(t.meld("m3"), "Enter")
    expect(t.meld("m3")).to_have_class(re.compile(r"\bct-join-from\b"))
    expect(t.meld("m3")).to_have_attribute("aria-pressed", "true")
    expect(t.meld("m1")).to_have_attribute("aria-label", re.compile(r"join m3 into this set$"))
    expect(t.button("join")).to_have_attribute("title", "Click the set to join m3 into")
    lab.screenshot("samba-3-join-picked")
    t.click(t.meld("m1"))
    expect(t.loc(".ct-message")).to_contain_text("join m3 into m1")
    view = t.check_against_python()
    assert [m["kind"] for m in view["melds"][0]] == ["m1", "m2", "m3", "m4"]
    assert len(view["melds"][0][0]["cards"]) == 7 and view["melds"][0][0]["canasta"] == "mixed"
    assert view["melds"][0][3]["sequence"]
    expect(t.meld("m1")).to_have_class(re.compile(r"\bct-canasta-mixed\b"))
    lab.screenshot("samba-4-joined")

    # 6. discard; the bots play and it is South's turn again
    t.select("4C")
    t.click(t.button("discard"))
    expect(t.loc(".ct-pile .ct-pile-top .ct-card")).to_have_attribute("data-card", "4C")
    expect(t.table).to_have_attribute("data-actor", "S", timeout=60_000)
    expect(t.table).to_have_attribute("data-phase", "draw")
    view = t.check_against_python()
    log = view["log"]
    mine = [e["text"] for e in log if e["who"] == "You"]
    assert any("join m3 into m1" in text for text in mine) and any("run 7H 8H 9H" in text for text in mine)
    assert {"North", "East", "West"} <= {e["who"] for e in log}
    lab.screenshot("samba-5-south-again")


def test_an_italian_table_shows_its_canasta_of_deuces_and_the_frozen_pile(lab, jupyter_server):
    _write_notebook(jupyter_server.root_dir, "italian_table.ipynb", "ital", ITALIAN)
    page = lab.open("italian_table.ipynb")
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    root = page.locator('.jp-OutputArea-output .ct-root:has(.ct-table[data-variant="italian"])')
    table = root.locator(".ct-table")
    expect(table).to_be_visible()
    table.scroll_into_view_if_needed()
    deuces = root.locator('.ct-melds-we .ct-meld[data-kind="2"]')
    expect(deuces).to_have_class(re.compile(r"\bct-canasta-deuces\b"))
    expect(deuces.locator(".ct-badge")).to_have_text("canasta of deuces")
    expect(deuces).to_have_attribute("aria-label", re.compile(r"^meld of deuces: 7 cards.*canasta of deuces"))
    expect(deuces.locator(".ct-stack .ct-card")).to_have_attribute("data-card", re.compile(r"^2[HD]$"))
    queens = root.locator('.ct-melds-we .ct-meld[data-kind="Q"]')
    expect(queens.locator(".ct-meld-cards .ct-card")).to_have_count(6)
    expect(queens.locator(".ct-badge")).to_have_text("one to go")
    pile = root.locator(".ct-pile")
    expect(pile).to_have_class(re.compile(r"\bct-frozen\b"))
    expect(pile.locator(".ct-frozen-tag")).to_have_text("FROZEN")
    expect(pile.locator(".ct-sideways, .ct-sideways-top")).to_have_count(0)
    view = json.loads(kernel_print(page, "import json; print(json.dumps(ital.view))"))
    expect(pile.locator(".ct-pile-note")).to_have_text(view["pile"]["note"])
    assert view["pile"]["frozen_all"] and view["melds"][0][0]["canasta"] == "deuces"
    lab.screenshot("italian-1-deuces-and-frozen-pile")
    rev = int(table.get_attribute("data-rev") or 0)
    root.locator('.ct-btn[data-intent="draw"]').click()
    page.wait_for_function("""([rev]) => {
        const t = document.querySelector('.ct-table[data-variant="italian"]');
        return t && Number(t.dataset.rev) > rev; }""", arg=[rev])
    expect(root.locator(".ct-my-hand .ct-card")).to_have_count(9)
    expect(root.locator(".ct-message")).to_contain_text("You drew")
