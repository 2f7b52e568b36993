"""welcome.ipynb in a real JupyterLab + chromium: South's hand renders as cards."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from canasta_tutor.tutor.display import card_label, sort_key

pytestmark = pytest.mark.browser

HAND_SIZE = 11


def test_welcome_notebook_shows_south_hand(lab):
    page = lab.open("welcome.ipynb")
    lab.run_all_cells()

    assert lab.errors() == [], "a cell wrote to stderr / raised"

    hand = page.locator(".jp-OutputArea-output .ct-hand")
    expect(hand).to_have_count(1)
    cards = hand.locator(":scope > .ct-card")
    expect(cards).to_have_count(HAND_SIZE)
    expect(hand).to_be_visible()

    codes = [cards.nth(i).get_attribute("data-card") for i in range(HAND_SIZE)]
    labels = [cards.nth(i).get_attribute("aria-label") for i in range(HAND_SIZE)]
    assert labels == [card_label(c) for c in codes]
    assert codes == sorted(codes, key=sort_key)

    # The page shows exactly the hand the engine deals for this seed.
    from canasta_tutor import Game

    state = Game().new_initial_state(seed=7)
    assert sorted(codes, key=sort_key) == sorted(state.hand("S"), key=sort_key)
    seat_names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    turn = f"It is {seat_names[state.current_seat]}'s turn ({state.current_seat})."
    expect(page.locator(".jp-OutputArea-output").filter(has_text=turn)).to_have_count(1)

    hand.scroll_into_view_if_needed()
    lab.screenshot("welcome-notebook", full_page=True)
    hand.screenshot(path=str(lab.artifacts / "welcome-south-hand.png"))
