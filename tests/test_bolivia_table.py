"""Bolivia at the card table without a browser (R-BOL-1, R-BOL-2, R-BOL-5): a meld of wild cards made by the
widget's messages (select the wild cards, press Meld), a wild card added to it by a click on the meld, the
view's badges for a bolivia and an escalera, and the engine's refusal, with its rule number, of a go-out without
an escalera."""

from __future__ import annotations

from test_variant_bolivia import ESCALERA, position

from canasta_tutor.engine.bolivia import BoliviaState
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.ui.table import CanastaTable


def _table(state: BoliviaState) -> CanastaTable:
    """The widget on ``state``, South to play; no bot moves while the test looks."""
    return CanastaTable(session=TableSession(state=state, seat="S", variant=state.variant.name, bots={}),
                        bot_delay=0)


def _select(table: CanastaTable, *codes: str) -> None:
    seen: dict[str, int] = {}
    idx = []
    for code in codes:
        idx.append(table.session.index_of(code, seen.get(code, 0)))
        seen[code] = seen.get(code, 0) + 1
    assert table.handle({"intent": "select", "indices": idx}).startswith("Selected")


def test_a_meld_of_wild_cards_by_clicks_R_BOL_2() -> None:
    """Three wild cards selected, Meld: ``wild JK 2 2``, shown as meld m4 labelled "wild"; a joker selected and
    added to m4 (a click on it) goes on."""
    table = _table(position("9H 9D 2H 2C JK JK 5S"))
    _select(table, "JK", "2H", "2C")
    assert table.view["buttons"]["meld"]["ok"] and table.view["buttons"]["meld"]["title"] == "wild JK 2 2"
    table.handle({"intent": "meld", "rev": table.view["rev"]})
    assert table.session.last_action == "wild JK 2 2"
    meld = table.view["melds"][0][3]
    assert (meld["kind"], meld["label"], meld["name"], meld["n"], meld["w"], meld["canasta"]) == (
        "m4", "wild", "wild cards", 0, 3, None)
    _select(table, "JK")
    table.handle({"intent": "add", "to": "m4", "rev": table.view["rev"]})
    assert table.session.last_action == "put JK on m4"
    assert len(table.view["melds"][0][3]["cards"]) == 4


def test_the_badges_of_a_bolivia_and_an_escalera_R_BOL_1_R_BOL_2() -> None:
    table = _table(position("9H 9D 9C 5S", more="; JK JK 2S 2H 2D 2C JK (bolivia)" + ESCALERA))
    melds = table.view["melds"][0]
    assert [m["canasta"] for m in melds[3:]] == ["bolivia", "escalera"]


def test_going_out_without_an_escalera_is_refused_with_its_rule_R_BOL_5() -> None:
    table = _table(position("9H 9D 9C"))
    _select(table, "9H", "9D", "9C")
    meld = table.view["buttons"]["meld"]
    assert not meld["ok"] and meld["rule"] == "R-BOL-5"
