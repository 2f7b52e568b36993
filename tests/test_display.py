"""Tests for canasta_tutor.tutor.display (pure HTML rendering, no engine needed)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta_tutor.tutor.display import card_html, card_label, hand_html, sort_key

RANKS = "23456789TJQKA"
SUITS = "SHDC"
ALL_CODES = [r + s for r in RANKS for s in SUITS] + ["JK"]


class _Collector(HTMLParser):
    """Collects (tag, attrs, depth) for every start tag, plus the text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None], int]] = []
        self.text: list[str] = []
        self.depth = 0
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs), self.depth))
        self.depth += 1

    def handle_endtag(self, tag):
        self.depth -= 1
        if self.depth < 0:
            self.errors.append(f"unbalanced </{tag}>")

    def handle_data(self, data):
        self.text.append(data)


def parse(markup: str) -> _Collector:
    c = _Collector()
    c.feed(markup)
    c.close()
    assert not c.errors
    assert c.depth == 0, "every tag is closed"
    return c


def cards_of(markup: str) -> list[dict[str, str | None]]:
    return [a for t, a, _ in parse(markup).tags if "ct-card" in (a.get("class") or "").split()]


@pytest.mark.parametrize(
    "code, label",
    [
        ("7H", "seven of hearts"),
        ("TS", "ten of spades"),
        ("JK", "joker"),
        ("AD", "ace of diamonds"),
        ("2C", "two of clubs"),
        ("3D", "three of diamonds"),
        ("QS", "queen of spades"),
        ("KH", "king of hearts"),
        ("JC", "jack of clubs"),
    ],
)
def test_card_label(code, label):
    assert card_label(code) == label


@pytest.mark.parametrize("bad", ["", "7", "7X", "1H", "10H", "7h", "jk", "JKR", "XH", " 7H", None, 7])
def test_bad_codes_raise_value_error_quoting_input(bad):
    for fn in (card_label, card_html, sort_key):
        with pytest.raises(ValueError) as info:
            fn(bad)
        assert repr(bad) in str(info.value)


def test_hand_html_rejects_bad_card_and_bare_string():
    with pytest.raises(ValueError, match=re.escape("'ZZ'")):
        hand_html(["7H", "ZZ"])
    with pytest.raises(ValueError, match="'7H'"):
        hand_html("7H")


def test_card_html_attributes_and_face():
    (card,) = cards_of(card_html("7H"))
    assert card["data-card"] == "7H"
    assert card["aria-label"] == "seven of hearts"
    assert card["title"] == "seven of hearts"
    assert "ct-red" in card["class"].split()
    text = "".join(parse(card_html("7H")).text)
    assert "7" in text and "\u2665" in text


def test_ten_shows_10_and_black_spade():
    markup = card_html("TS")
    (card,) = cards_of(markup)
    assert "ct-black" in card["class"].split()
    assert "".join(parse(markup).text) == "10\u2660"


@pytest.mark.parametrize("code, glyph", [("AS", "\u2660"), ("AH", "\u2665"), ("AD", "\u2666"), ("AC", "\u2663")])
def test_suit_glyphs(code, glyph):
    assert glyph in card_html(code)


def test_joker_face():
    markup = card_html("JK")
    (card,) = cards_of(markup)
    assert card["aria-label"] == "joker"
    assert card["data-card"] == "JK"
    text = "".join(parse(markup).text)
    assert "JKR" in text and "\u2605" in text


@pytest.mark.parametrize(
    "code, two, four",
    [("KH", "red", "red"), ("KD", "red", "blue"), ("KC", "black", "green"), ("KS", "black", "black")],
)
def test_two_and_four_colour_decks(code, two, four):
    (c2,) = cards_of(card_html(code))
    (c4,) = cards_of(card_html(code, four_colour=True))
    assert f"ct-{two}" in c2["class"].split()
    assert f"ct-{four}" in c4["class"].split()


def test_hand_sort_order_threes_first_wilds_last():
    codes = ["JK", "2H", "AS", "3H", "7C", "4D", "KS", "3S", "TD", "2S", "9H"]
    markup = hand_html(codes, title="South")
    order = [c["data-card"] for c in cards_of(markup)]
    assert order == ["3S", "3H", "4D", "7C", "9H", "TD", "KS", "AS", "2S", "2H", "JK"]


def test_hand_structure_cards_are_direct_children_and_style_once():
    codes = ["5H", "5D", "QC", "JK"]
    markup = hand_html(codes, title="North <partner>")
    assert markup.count("<style>") == 1
    tags = parse(markup).tags
    (hand,) = [(t, a, d) for t, a, d in tags if (a.get("class") or "") == "ct-hand"]
    assert hand[0] == "div"
    assert hand[1]["aria-label"] == "North <partner>"  # parser unescapes attributes
    card_depths = {d for t, a, d in tags if "ct-card" in (a.get("class") or "").split()}
    assert card_depths == {hand[2] + 1}
    # the title is escaped, not injected
    assert "<partner>" not in markup
    assert "North &lt;partner&gt;" in markup


def test_hand_css_is_scoped_and_theme_safe():
    markup = hand_html(["7H"])
    css = markup.split("<style>")[1].split("</style>")[0]
    selectors = re.findall(r"(^|\})\s*([^{}]+)\{", css)
    for _, sel in selectors:
        for part in sel.split(","):
            assert part.strip().startswith(".ct-"), part
    # cards: white face, dark ink; surrounding text inherits the theme colour
    assert "background: #ffffff" in css
    assert re.search(r"\.ct-hand-wrap \{[^}]*color: inherit", css)


def test_empty_hand():
    markup = hand_html([])
    assert cards_of(markup) == []
    assert 'class="ct-hand"' in markup


@given(st.lists(st.sampled_from(ALL_CODES), max_size=20), st.booleans())
def test_hand_keeps_every_card_and_is_sorted(codes, four):
    rendered = [c["data-card"] for c in cards_of(hand_html(codes, four_colour=four))]
    assert sorted(rendered) == sorted(codes)
    assert rendered == sorted(rendered, key=sort_key)
    assert all(card_label(c) for c in rendered)


def test_every_code_has_unique_label():
    labels = [card_label(c) for c in ALL_CODES]
    assert len(set(labels)) == len(ALL_CODES)
