"""A five-handed table in a real JupyterLab + Debian chromium: who sits out, and one turn of South's by clicks.

The test writes a small notebook: a five-handed table started from a position at the second hand (deal 1),
where West's player W sits out and F, who sat out the first hand, plays in West's chair (R-FIVE-2).
The score panel must say so, with the rule number as a link; a click on the link shows R-FIVE-2 in the
rule panel.  Then South's turn, only by clicks: Draw (one card comes in), a card selected, Discard; the
three other chairs' bots play (F among them, at West) and it is South's turn again, the same player still
sitting out.  After each step the page is compared with Python's view in the kernel.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from table_page import VariantTable, kernel_print
from test_samba_browser import _write_notebook

from canasta_tutor.notation.position import parse_position

pytestmark = pytest.mark.browser

NOTEBOOK = "five_table.ipynb"
NAME = "five"  # the table's name in the notebook
POSITION = """canasta-tutor position
variant: five-handed
seed: 5
deal: 1
players: N, E, S, F
out: W
dealer: E
turn: S draw
totals: NS 120 EW 340
pile: 9D
N: 11
E: 11
S: 4C 5D 7S 8S 9S 9H KH KD QS JC 6H
W: 11
"""


class FiveTable(VariantTable):
    """The five-handed table on the page; each click waits for Python's next view (``data-rev`` grew)."""

    def __init__(self, page):
        super().__init__(page, "five-handed", NAME)

    def check_against_python(self) -> dict:
        """The page shows what Python's view holds: the hand, the pile's size, who sits out."""
        view = self.check_hand_and_pile()
        out = self.loc(".ct-sitting-out")
        expect(out).to_have_attribute("data-out", view["sitting_out"]["name"])
        expect(out).to_have_text(view["sitting_out"]["text"])
        return view


def test_the_position_is_south_to_draw_at_the_second_hand():
    state = parse_position(POSITION)
    assert state.variant.name == "five-handed" and state.current_seat == "S" and state.phase == "draw"
    assert state.deal_no == 1 and state.out == "W" and state.players[3] == "F"  # type: ignore[attr-defined]


def test_a_five_handed_turn_shows_who_sits_out(lab, jupyter_server):
    _write_notebook(jupyter_server.root_dir, NOTEBOOK, NAME, POSITION)
    page = lab.open(NOTEBOOK)
    lab.run_all_cells()
    assert lab.errors() == [], "a cell wrote to stderr / raised"
    t = FiveTable(page)
    expect(t.table).to_be_visible()
    t.table.scroll_into_view_if_needed()
    expect(t.table).to_have_attribute("data-actor", "S")
    view = t.check_against_python()
    assert view["sitting_out"]["name"] == "W" and view["sitting_out"]["playing"] == ["E", "F"]
    expect(t.loc(".ct-sitting-out")).to_contain_text("Sitting out this hand: W")
    lab.screenshot("five-1-start")

    # the rule number in the line is a link: the rule panel shows R-FIVE-2
    link = t.loc('.ct-sitting-out .ct-rule-link[data-rule="R-FIVE-2"]')
    expect(link).to_have_count(1)
    t.click(link)
    expect(t.loc('.ct-rule-panel[data-rule="R-FIVE-2"]')).to_be_visible()

    # South's turn by clicks: draw one card, select the jack of clubs, discard it
    hand = len(t.codes())
    t.click(t.button("draw"))
    expect(t.loc(".ct-my-hand .ct-card")).to_have_count(hand + 1)
    t.check_against_python()
    idx = t.codes().index("JC")
    t.click(t.loc(f'.ct-my-hand .ct-card[data-idx="{idx}"]'))
    expect(t.button("discard")).to_have_attribute("aria-disabled", "false")
    t.click(t.button("discard"))

    # the bots play East, North and West (F's chair), and it is South's turn again, W still sitting out
    expect(t.table).to_have_attribute("data-actor", "S", timeout=60_000)
    expect(t.table).to_have_attribute("data-phase", "draw")
    view = t.check_against_python()
    assert view["sitting_out"]["name"] == "W"
    turns = json.loads(kernel_print(page, f"import json; print(json.dumps(len({NAME}.state.history)))"))
    assert turns >= 8  # South's draw and discard, and a draw and a discard at least for each of the others
    lab.screenshot("five-2-after-the-round")
