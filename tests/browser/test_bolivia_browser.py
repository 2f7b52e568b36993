"""A Bolivia table in a real JupyterLab + Debian chromium: one turn of South's by clicks that makes a bolivia.

The test writes a small notebook: a Bolivia table started from a position where South, to draw, holds a
joker, North-South have a set of kings (m1), an escalera of hearts (m2, badged "escalera", R-BOL-1) and a
meld of six wild cards (m3, R-BOL-2).  South's turn, only by clicks:

1. Draw: two cards come in (R-SAMBA-2).
2. The joker selected, a click on m3: ``put JK on m3``; m3 is a bolivia of seven wild cards, shown stacked
   with the badge "bolivia" (R-BOL-2, R-BOL-3).
3. A card selected, Discard; the bots play and it is South's turn again.

After each step the page is compared with Python's view in the kernel (the hand, the pile, our melds).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from table_page import VariantTable, kernel_print
from test_samba_browser import _write_notebook

from canasta_tutor.notation.position import parse_position

pytestmark = pytest.mark.browser

NOTEBOOK = "bolivia_table.ipynb"
NAME = "bolivia"  # the table's name in the notebook
POSITION = """canasta-tutor position
variant: bolivia
seed: 5
deal: 0
dealer: E
turn: S draw
totals: NS 0 EW 0
stock: 122
pile: 5C QC
N: 4S 6D 8C TD JC
E: 5H 7D 9S JD AS
S: JK 4C 5D 6S 9C TC JS
W: 5S 7C 9D JH AC
melds NS: KS KH KD; 4H 5H 6H 7H 8H 9H TH (escalera); JK JK 2S 2H 2D 2C
"""


class BoliviaTable(VariantTable):
    """The Bolivia table on the page; each click waits for Python's next view (``data-rev`` grew)."""

    def __init__(self, page):
        super().__init__(page, "bolivia", NAME)

    def meld(self, kind: str):
        return self.loc(f'.ct-melds-we button.ct-meld[data-kind="{kind}"]')

    def check_against_python(self) -> dict:
        """The page shows what Python's view holds: the hand, the pile's size, our melds and their badges."""
        view = self.check_hand_and_pile()
        ours = view["melds"][0]
        expect(self.loc(".ct-melds-we .ct-meld")).to_have_count(len(ours))
        for m in ours:
            if m["canasta"]:
                expect(self.meld(m["kind"]).locator(f'.ct-badge-{m["canasta"]}')).to_have_count(1)
        return view


def test_the_position_is_south_to_draw_with_a_meld_of_six_wild_cards():
    state = parse_position(POSITION)
    assert state.variant.name == "bolivia" and state.current_seat == "S" and state.phase == "draw"
    melds = state.samba_melds(0)  # type: ignore[attr-defined]
    assert len(melds[2].wilds) == 6 and melds[1].is_canasta


def test_a_bolivia_turn_makes_a_bolivia_by_clicks(lab, jupyter_server):
    _write_notebook(jupyter_server.root_dir, NOTEBOOK, NAME, POSITION)
    page = lab.open(NOTEBOOK)
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = BoliviaTable(page)
    expect(t.table).to_be_visible()
    t.table.scroll_into_view_if_needed()
    expect(t.table).to_have_attribute("data-actor", "S")
    expect(t.loc(".ct-melds-we .ct-meld-no")).to_have_text(["m1", "m2", "m3"])
    expect(t.meld("m2").locator(".ct-badge-escalera")).to_have_text("escalera")
    t.check_against_python()
    lab.screenshot("bolivia-1-start")

    # 1. draw two cards
    hand = len(t.codes())
    t.click(t.button("draw"))
    expect(t.loc(".ct-my-hand .ct-card")).to_have_count(hand + 2)
    t.check_against_python()

    # 2. the joker onto the meld of six wild cards: a bolivia
    idx = t.codes().index("JK")
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{idx}"]'))
    t.click(t.meld("m3"))
    expect(t.loc(".ct-message")).to_contain_text("put JK on m3")
    expect(t.meld("m3")).to_have_class(re.compile(r"\bct-canasta-bolivia\b"))
    expect(t.meld("m3").locator(".ct-badge-bolivia")).to_have_text("bolivia")
    view = t.check_against_python()
    assert view["melds"][0][2]["canasta"] == "bolivia" and len(view["melds"][0][2]["cards"]) == 7
    lab.screenshot("bolivia-2-bolivia")

    # 3. discard the four of clubs; the bots play and it is South's turn again
    idx = t.codes().index("4C")
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{idx}"]'))
    expect(t.button("discard")).to_have_attribute("aria-disabled", "false")
    t.click(t.button("discard"))
    expect(t.table).to_have_attribute("data-actor", "S", timeout=90_000)
    expect(t.table).to_have_attribute("data-phase", "draw")
    t.check_against_python()
    turns = json.loads(kernel_print(page, f"import json; print(json.dumps(len({NAME}.state.history)))"))
    assert turns >= 9  # South's draw, put and discard, and a draw and a discard at least for each of the others
    lab.screenshot("bolivia-3-after-the-round")
