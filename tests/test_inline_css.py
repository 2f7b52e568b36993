"""The stored (static) card table keeps its look where style sheets are dropped (untrusted notebooks)."""

from __future__ import annotations

import re

from canasta_tutor.ui.inline_css import inline_styles
from canasta_tutor.ui.table import CanastaTable


def test_static_table_has_no_style_sheet_and_styled_cards():
    out = CanastaTable(seed=11, bot_delay=0)._repr_html_()
    assert "<style" not in out
    cards = re.findall(r'<span class="ct-card[^"]*"[^>]*>', out)
    assert len(cards) > 11
    assert all("display: inline-flex" in c and " width: " in c for c in cards), cards[0]
    assert sum("width: 2.9em" in c for c in cards) >= 11  # the hand
    assert "var(" not in out  # custom properties are resolved: the sanitizer keeps literal values only
    board = re.search(r'<div class="ct-board"[^>]*>', out)
    assert board and "display: grid" in board.group(0)


def test_specificity_order_and_inline_style_win():
    css = "<style>div p { color: red } .x { color: green } p { color: blue; margin: 0 }</style>"
    assert inline_styles(css + '<div><p class="x">a</p></div>') == \
        '<div><p class="x" style="color: green; margin: 0">a</p></div>'
    assert inline_styles(css + '<p style="color: black">b</p>') == \
        '<p style="color: blue; margin: 0; color: black">b</p>'


def test_rules_not_applied_statically_are_skipped():
    css = ("<style>.a:hover { color: red } @container ct (max-width: 10px) { .a { color: blue } }"
           " .a + .a { margin: 1px }</style>")
    assert inline_styles(css + '<b class="a">1</b><b class="a">2</b>') == \
        '<b class="a">1</b><b class="a" style="margin: 1px">2</b>'


def test_text_and_attributes_stay_escaped():
    assert inline_styles('<p title="a &quot;b&quot; &amp; c">1 &lt; 2 &amp; 3</p>') == \
        '<p title="a &quot;b&quot; &amp; c">1 &lt; 2 &amp; 3</p>'


def test_container_rules_applied_on_request_in_order():
    css = "<style>.a { color: red } @container ct (max-width: 9px) { .a { color: blue } } .b { margin: 0 }</style>"
    assert inline_styles(css + '<b class="a">1</b>') == '<b class="a" style="color: red">1</b>'
    assert inline_styles(css + '<b class="a">1</b>', container=True) == '<b class="a" style="color: blue">1</b>'
