"""The table for two-, three- and six-handed play: the session, the view model, the static HTML and the
widget's messages (no browser).  A whole hand of each variant is played through the widget's messages,
the learner's moves chosen by the rules-of-thumb bot, checking after every sync that the view shows every
seat and side and no card the learner may not see."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from test_widget import CODE_RE, _codes_in, _intents_for

from canasta_tutor import Game
from canasta_tutor.bots import RulesOfThumbBot
from canasta_tutor.engine.cards import ALL_CARD_CODES
from canasta_tutor.tutor.display import state_html
from canasta_tutor.engine.observer import observe
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.tutor.view import build_view, side_order, table_positions
from canasta_tutor.engine.variants import UnknownVariantError, get_variant
from canasta_tutor.ui.table import CanastaTable

VARIANTS = ("two-handed", "three-handed", "six-handed", "italian")
CLASSIC_KEYS = {"rev", "seat", "deal", "deal_label", "phase", "actor", "turn_text", "players", "hand", "labels",
                "selected", "melds", "side_titles", "red3", "pile", "stock", "score", "result", "message",
                "message_kind", "message_rule", "buttons", "answer_needed", "choose_meld", "log", "hint", "rule",
                "coach", "four_colour"}


# --------------------------------------------------------------------------- the view model


@pytest.mark.parametrize("name", VARIANTS)
def test_the_view_seats_every_player_and_lists_every_side(name):
    variant = get_variant(name)
    v = TableSession(seed=3, variant=name).view()
    assert set(v) == CLASSIC_KEYS | {"variant", "positions", "sides"}
    assert v["variant"] == name and v["positions"] == list(table_positions(variant.players))
    assert list(v["players"]) == v["positions"]
    seats = [v["players"][p]["seat"] for p in v["positions"]]
    me = variant.seats.index("S")
    assert seats == [variant.seats[(me + i) % variant.players] for i in range(variant.players)]  # turn order
    assert v["players"]["bottom"]["name"] == "You" and v["players"]["bottom"]["count"] == len(v["hand"])
    assert all(p["count"] == variant.hand_size for p in v["players"].values() if p["seat"] != "S") or v["log"]
    n = variant.n_sides
    assert len(v["melds"]) == len(v["red3"]) == len(v["side_titles"]) == len(v["sides"]) == n
    assert v["sides"][0]["seats"] == [variant.seats[s] for s in variant.side_seats[variant.sides[me]]]
    assert [s["title"] for s in v["sides"]] == v["side_titles"]
    json.dumps(v)


def test_two_handed_titles_name_each_player():
    v = TableSession(seed=3, variant="two-handed").view()
    assert v["side_titles"] == ["You (S)", "North (N)"]
    assert v["players"]["top"]["partner"] is False


def test_three_handed_puts_the_next_player_on_the_left():
    v = TableSession(seed=3, variant="three-handed").view()
    assert [v["players"][p]["seat"] for p in ("bottom", "left", "right")] == ["S", "W", "E"]
    assert v["side_titles"] == ["You (S)", "West (W)", "East (E)"]


def test_six_handed_partners_sit_opposite_and_sides_are_named():
    v = TableSession(seed=3, variant="six-handed").view()
    pl = v["players"]
    assert pl["top"]["seat"] == "N" and pl["top"]["partner"] is True
    assert [p["seat"] for pos, p in pl.items() if p["partner"]] == ["N"]
    # the partnerships E-W and P-Q sit opposite each other too
    assert {pl["bottom-left"]["seat"], pl["top-right"]["seat"]} == {"W", "E"}
    assert {pl["top-left"]["seat"], pl["bottom-right"]["seat"]} == {"Q", "P"}
    assert pl["bottom-right"]["name"] == "Seat P"
    assert v["side_titles"] == ["We (N\u2013S)", "They (E\u2013W)", "They (P\u2013Q)"]


def test_the_pile_note_speaks_to_a_player_who_plays_alone():
    for name, note in (("three-handed", "frozen for you until your initial meld"),
                       ("six-handed", "frozen for us until our initial meld")):
        v = TableSession(seed=3, variant=name).view()
        assert not v["pile"]["frozen_all"] and v["pile"]["frozen_us"] and v["pile"]["note"] == note


def test_side_order_keeps_the_classic_we_and_they():
    classic = get_variant("classic")
    assert [side_order(classic, s) for s in range(4)] == [[0, 1], [1, 0], [0, 1], [1, 0]]


def test_a_classic_view_has_no_variant_keys():
    v = build_view(observe(Game().new_initial_state(seed=11), "S"))
    assert set(v) == CLASSIC_KEYS


# --------------------------------------------------------------------------- the session


def test_two_handed_draws_two_and_says_both_cards():
    s = TableSession(seed=5, variant="two-handed")
    before = s.state.hand_size[s.me]
    text = s.press("draw")
    assert s.state.hand_size[s.me] == before + 2  # R-TWO-3: two cards from the stock
    assert text.startswith("You drew ") and " and " in text
    assert s.view()["log"][-1]["text"] == text.split(" Meld")[0]


def test_the_variant_must_agree_with_the_position():
    state = Game(variant="two-handed").new_initial_state(seed=1)
    assert TableSession(state=state).variant.name == "two-handed"
    with pytest.raises(ValueError, match="'six-handed' does not match"):
        TableSession(state=state, variant="six-handed")
    with pytest.raises(UnknownVariantError, match="'five-handed' is not a variant"):
        TableSession(variant="five-handed")
    with pytest.raises(ValueError, match="not a seat"):
        TableSession(variant="two-handed", seat="E")  # two-handed has only N and S


def test_ask_partner_is_offered_only_where_players_have_partners():
    assert "ask" in TableSession(seed=4, variant="six-handed").view()["buttons"]
    for name in ("two-handed", "three-handed"):
        s = TableSession(seed=4, variant=name)
        assert "ask" not in s.view()["buttons"]
        s.press("draw")
        # a typed "ask" (the P key) still gets the engine's refusal, with the variant's rule number
        area = get_variant(name).rule_area
        assert s.press("ask").startswith(f"[R-{area}-1] You play alone")


def test_a_bot_sits_in_every_other_seat():
    for name in VARIANTS:
        s = TableSession(seed=2, variant=name)
        assert sorted(s.bots) == [i for i in range(s.variant.players) if i != s.me]


# --------------------------------------------------------------------------- the static HTML


@pytest.mark.parametrize("name", VARIANTS)
def test_state_html_shows_every_seat_and_side(name):
    variant = get_variant(name)
    state = Game(variant=name).new_initial_state(seed=4)
    out = state_html(state, seat="S")
    for letter in variant.seats:
        assert f'data-seat="{letter}"' in out
    assert out.count('class="ct-melds ') == variant.n_sides
    assert f"ct-players-{variant.players}" in out
    teacher = state_html(state)
    assert all(f'data-card="{c}"' in teacher for seat in variant.seats for c in state.hand(seat))


# --------------------------------------------------------------------------- the widget


def test_the_widget_checks_its_variant_argument():
    with pytest.raises(UnknownVariantError, match="known: classic, two-handed"):
        CanastaTable(variant="twohanded", bot_delay=0)
    with pytest.raises(UnknownVariantError):
        CanastaTable(variant=2, bot_delay=0)  # type: ignore[arg-type]
    t = CanastaTable(variant=get_variant("three-handed"), bot_delay=0)
    assert t.variant.name == "three-handed" and repr(t).startswith("CanastaTable(seat='S'")
    assert 'data-seat="W"' in t._repr_html_()


class Recording(CanastaTable):
    def _sync(self):
        super()._sync()
        state = self.get_state()
        self.records.append((self.state.copy(), state, {k: json.dumps(v) for k, v in state.items()}))


def _check(state, synced: dict, dumped: dict) -> None:
    """The synced view shows every seat and side of the variant, and only cards the learner may see."""
    variant = state.variant
    me = variant.seats.index("S")
    public = Counter(state.hand(me))
    for side in state.melds:
        for m in side.values():
            public.update(ALL_CARD_CODES[c] for c in m[0] + m[1])
    for r in state.red3:
        public.update(ALL_CARD_CODES[c] for c in r)
    public.update(ALL_CARD_CODES[c] for c in state.pile)
    hidden = Counter(ALL_CARD_CODES[c] for c in state.stock)
    for seat in range(variant.players):
        if seat != me:
            hidden.update(state.hand(seat))
    hidden_only = {c for c in hidden if c not in public}
    view = synced["view"]
    found: Counter[str] = Counter()
    _codes_in(view, found)
    assert not (found - public), f"the view holds cards nobody may see: {found - public}"
    assert not [c for c in CODE_RE.findall(dumped["view"]) if c in hidden_only]
    assert view["hand"] == state.hand(me)
    assert len(view["players"]) == variant.players and len(view["melds"]) == variant.n_sides
    for p in view["players"].values():
        assert p["cards"] is None
        assert p["count"] == state.hand_size[variant.seats.index(p["seat"])]
    for i, s in enumerate(side_order(variant, me)):
        assert [m["kind"] for m in view["melds"][i]] == [m["kind"] for m in
                                                           build_view(observe(state, me))["melds"][i]]
        assert sum(len(m["cards"]) for m in view["melds"][i]) == sum(
            len(m[0]) + len(m[1]) for m in state.melds[s].values())


@pytest.mark.parametrize("name", VARIANTS)
def test_a_hand_of_each_variant_is_played_through_the_widgets_messages(name):
    t = Recording.__new__(Recording)
    t.records = []
    Recording.__init__(t, seed=7, variant=name, bot_delay=0)
    learner = RulesOfThumbBot()
    played = 0
    while t.state.phase not in ("hand_over", "game_over") and played < 400:
        assert t.state.current_seat == "S"
        action = learner(observe(t.state, "S"))
        for msg in _intents_for(t, action):
            out = t.handle(msg)
            assert not out.startswith("[R-") and not out.startswith("[refused]"), (action, msg, out)
        played += 1
        assert t.session.message_kind != "error", t.message
    assert t.state.phase in ("hand_over", "game_over"), f"{played} actions and the hand goes on"
    assert played > 3 and len(t.records) > 10
    for state, synced, dumped in t.records:
        _check(state, synced, dumped)
    result = t.view["result"]
    assert result is not None and len(result["sides"]) == t.variant.n_sides
    assert len(t.view["score"]["rows"][-1]) == 1 + t.variant.n_sides
    # the next hand is dealt by the next seat round the table
    dealer = t.state.dealer
    out = t.handle({"intent": "new_hand"})
    assert out.startswith("Deal 2: a new hand."), out
    assert t.state.deal_no == 1 and t.state.dealer == t.variant.next_seat(dealer)
    assert t.view["log"][0]["text"].startswith(t.view["players"][
        t.view["positions"][(t.state.dealer - t.variant.seats.index("S")) % t.variant.players]]["name"])
