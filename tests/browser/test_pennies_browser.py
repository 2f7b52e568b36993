"""A Pennies from Heaven table in a real JupyterLab + Debian chromium: taking up the pennies, and a refused seven.

The test writes a small notebook: a six-player table started from a position where South's side (East, South
and Q) has six kings on the table and South holds the seventh.  Every packet lies face down, and each seat's
card count says so.  South's turn, only by clicks: Draw (two cards come in); the king selected, Add: the
canasta is complete, so South's packet of eleven comes into the hand (R-PEN-4) and South's seat no longer shows
cards face down; a seven selected, Discard: refused with R-PEN-9 (no side has its canasta of sevens), the hand
unchanged; another card discarded; the five bots play and it is South's turn again.  After each step the
page is compared with Python's view in the kernel.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from table_page import VariantTable, kernel_print
from test_samba_browser import _write_notebook

from canasta_tutor.notation.position import parse_position

pytestmark = pytest.mark.browser

NOTEBOOK = "pennies_table.ipynb"
NAME = "pennies"  # the table's name in the notebook
POSITION = """canasta-tutor position
variant: pennies
seed: 5
dealer: P
turn: S draw
totals: NPW 120 ESQ 340
packets: N 11 E 11 P 11 S 11 W 11 Q 11
pile: 9D
N: 13 cards
E: 13 cards
P: 13 cards
S: 4C 5D 7S 7H 8S 9S 9H KC QS JC 6H TD 3S
W: 13 cards
Q: 13 cards
melds ESQ: KS KH KD KC KS KH
"""


class PenniesTable(VariantTable):
    """The Pennies from Heaven table on the page; each click waits for Python's next view (``data-rev`` grew)."""

    def __init__(self, page):
        super().__init__(page, "pennies", NAME)

    def face_down(self):
        return self.loc('.ct-count:has-text("face down")')

    def check_against_python(self) -> dict:
        """The page shows what Python's view holds: the hand, the pile's size, the packets face down."""
        view = self.check_hand_and_pile()
        packets = sum(1 for p in view["players"].values() if p.get("packet"))
        expect(self.face_down()).to_have_count(packets)
        return view


def test_the_position_is_south_to_draw_with_every_packet_face_down():
    state = parse_position(POSITION)
    assert state.variant.name == "pennies" and state.current_seat == "S" and state.phase == "draw"
    assert [len(p) for p in state.packets] == [11] * 6  # type: ignore[attr-defined]


def test_a_pennies_turn_takes_up_the_packet_and_refuses_a_seven(lab, jupyter_server):
    _write_notebook(jupyter_server.root_dir, NOTEBOOK, NAME, POSITION)
    page = lab.open(NOTEBOOK)
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = PenniesTable(page)
    expect(t.table).to_be_visible()
    t.table.scroll_into_view_if_needed()
    expect(t.table).to_have_attribute("data-actor", "S")
    view = t.check_against_python()
    assert view["players"]["bottom"]["packet"] == 11
    lab.screenshot("pennies-1-start")

    # South draws two cards
    hand = len(t.codes())
    t.click(t.button("draw"))
    expect(t.hand()).to_have_count(hand + 2)
    t.check_against_python()

    # the seventh king on the side's six: a canasta, and South's packet comes into the hand (R-PEN-4)
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{t.codes().index("KC")}"]'))
    t.click(t.button("add"))
    view = t.check_against_python()
    assert "packet" not in view["players"]["bottom"]
    assert len(view["hand"]) >= hand + 2 - 1 + 11 - 8  # eleven more, less any red threes laid out
    packet_in = json.loads(kernel_print(page, f"import json; print(json.dumps(len({NAME}.state.packets[3])))"))
    assert packet_in == 0
    lab.screenshot("pennies-2-packet-taken-up")

    # a seven may not be discarded: no side has its canasta of sevens (R-PEN-9); the hand stays as it was
    before = t.codes()
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{before.index("7S")}"]'))
    t.click(t.button("discard"), force=True)
    expect(t.message()).to_contain_text("R-PEN-9")
    assert sorted(t.codes()) == sorted(before)

    # another card goes instead; the five bots play, and it is South's turn again
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{t.codes().index("7S")}"]'))  # unselect the seven
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{t.codes().index("4C")}"]'))
    expect(t.button("discard")).to_have_attribute("aria-disabled", "false")
    t.click(t.button("discard"))
    expect(t.table).to_have_attribute("data-actor", "S", timeout=90_000)
    expect(t.table).to_have_attribute("data-phase", "draw")
    t.check_against_python()
    turns = json.loads(kernel_print(page, f"import json; print(json.dumps(len({NAME}.state.history)))"))
    assert turns >= 14  # South's draw, addition and discard, a draw and a discard at least for each bot
    lab.screenshot("pennies-3-after-the-round")
