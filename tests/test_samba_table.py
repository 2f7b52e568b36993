"""Samba at the card table without a browser: every Samba verb (``run``, ``put``, ``join``, ``take ... on``)
and the classic ones are made by the widget's messages (select cards, press a button, click a meld), each
button is enabled by the engine's own check, and a refusal is the engine's reason with its rule number
(R-SAMBA-3..7).  Italian Canasta's meld of deuces and its always-frozen pile are shown too (R-ITAL-4,
R-ITAL-6)."""

from __future__ import annotations

import json
import re

from test_variant_samba import build

from canasta_tutor.notation.actions import format_action, parse_action
from canasta_tutor.tutor.display import asset_path, state_html
from canasta_tutor.engine.observer import observe
from canasta_tutor.engine.samba import SambaState
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.tutor.view import build_view
from canasta_tutor.ui.table import CanastaTable


def _table(state: SambaState) -> CanastaTable:
    """The widget on ``state``, South to play; no bot moves while the test looks."""
    return CanastaTable(session=TableSession(state=state, seat="S", variant="samba", bots={}), bot_delay=0)


def _select(table: CanastaTable, *codes: str) -> None:
    seen: dict[str, int] = {}
    idx = []
    for code in codes:
        idx.append(table.session.index_of(code, seen.get(code, 0)))
        seen[code] = seen.get(code, 0) + 1
    assert table.handle({"intent": "select", "indices": idx}).startswith("Selected")


def _engine_says(state: SambaState, text: str) -> str:
    err = state.explain(parse_action(text))
    assert err is not None, text
    return f"[{err.rule}] {err.reason}"


MELD_TURN = dict(hand="7H 8H 9H KC 4C 5D 6S 9C TC",
                 melds=(("set", "QS QH QD"), ("set", "KS KH KD"), ("set", "QC QD JK")))


def test_run_put_and_join_by_clicks_R_SAMBA_3_R_SAMBA_5() -> None:
    """``run 7H 8H 9H`` (select, Meld), ``put K on m2`` (select, Add or a click on m2) and ``join m3 into m1``
    (Join, a click on m3, a click on m1): each button's title is the action the engine accepts."""
    table = _table(build(**MELD_TURN))
    v = table.view
    assert v["variant"] == "samba" and v["choose_for"] is None and v["join_from"] is None
    assert list(v["buttons"])[:5] == ["draw", "take", "meld", "add", "join"]

    _select(table, "7H", "8H", "9H")
    assert table.view["buttons"]["meld"] == {"ok": True, "label": "Meld", "title": "run 7H 8H 9H", "rule": None}
    table.handle({"intent": "meld", "rev": table.view["rev"]})
    assert table.session.last_action == "run 7H 8H 9H"
    seq = table.view["melds"][0][3]
    assert (seq["kind"], seq["number"], seq["sequence"], seq["label"]) == ("m4", 4, True, "7\u20139\u2665")

    _select(table, "KC")
    assert table.view["buttons"]["add"]["title"] == "put K on m2" and table.view["buttons"]["add"]["ok"]
    table.handle({"intent": "add", "to": "m2", "rev": table.view["rev"]})
    assert table.session.last_action == "put K on m2" and len(table.view["melds"][0][1]["cards"]) == 4

    # one pair of sets of queens: the Join button names the join the engine lists, and one press plays it
    join = table.view["buttons"]["join"]
    assert join == {"ok": True, "label": "Join\u2026", "title": "join m3 into m1", "rule": None}
    assert "join m3 into m1" in {format_action(a) for a in table.state.legal_actions() if a[0] == "join"}
    assert table.handle({"intent": "join", "rev": table.view["rev"]}) == "You: join m3 into m1."
    ours = table.view["melds"][0]
    assert [m["kind"] for m in ours] == ["m1", "m2", "m3"] and len(ours[0]["cards"]) == 6 and ours[0]["w"] == 1
    assert table.view["choose_for"] is None and table.view["join_from"] is None and not table.view["choose_meld"]
    # one set of queens and one of kings: the button is off with the engine's reason
    join = table.view["buttons"]["join"]
    assert not join["ok"] and join["title"] == _engine_says(table.state, "join m2 into m1")
    assert join["rule"] == "R-SAMBA-5"

    _select(table, "4C")
    table.handle({"intent": "discard", "rev": table.view["rev"]})
    assert table.session.last_action == "discard 4" and "4C" not in table.view["hand"]


def test_one_pair_of_sets_joins_in_one_press_and_refusals_are_the_engines_R_SAMBA_5() -> None:
    state = build(hand="4C 5D 6S 9C TC", melds=(("set", "QS QH QD"), ("set", "QC QD JK"), ("set", "KS KH 2C"),
                                               ("set", "KD KC JK")))
    table = _table(state)
    # two pairs of sets (queens, kings): Join, then a click on the set that moves, then on the set it joins
    assert table.view["buttons"]["join"]["title"] == "Click the set to join into another set of its rank"
    assert table.handle({"intent": "join", "rev": table.view["rev"]}).startswith("Click the set to join")
    assert table.view["choose_meld"] and table.view["choose_for"] == "join" and table.view["join_from"] is None
    assert table.handle({"intent": "join", "meld": "m2"}) == "Click the set to join m2 into."
    assert table.view["join_from"] == "m2" and table.view["buttons"]["join"]["title"] == "Click the set to join m2 into"
    assert table.view["choose_for"] == "join"
    assert table.handle({"intent": "join", "meld": "m1", "rev": table.view["rev"]}) == "You: join m2 into m1."
    assert table.view["join_from"] is None and table.view["choose_for"] is None
    # one pair left (the kings, m2 and m3): the button names the join into the lower number, as the engine
    # lists it, and one press plays it
    joins = {format_action(a) for a in table.state.legal_actions() if a[0] == "join"}
    assert "join m3 into m2" in joins and joins <= {"join m3 into m2", "join m2 into m3"}
    assert table.view["buttons"]["join"] == {"ok": True, "label": "Join\u2026", "title": "join m3 into m2",
                                             "rule": None}

    # a set clicked, then a set of another rank: the engine's refusal, word for word
    table.handle({"intent": "join", "meld": "m2"})
    out = table.handle({"intent": "join", "meld": "m1"})
    assert out == _engine_says(table.state, "join m2 into m1") and table.view["message_rule"] == "R-SAMBA-5"
    assert table.view["join_from"] is None and table.view["choose_for"] is None
    # clicking the picked set again cancels; Escape (clear) cancels too
    table.handle({"intent": "join", "meld": "m3"})
    assert table.handle({"intent": "join", "meld": "m3"}) == "Join cancelled." and table.view["join_from"] is None
    table.handle({"intent": "join", "meld": "m3"})
    table.handle({"intent": "clear"})
    assert table.view["join_from"] is None and not table.view["choose_meld"]
    # malformed tokens are refused, never raised; a meld named twice is the engine's refusal in m-numbers
    assert table.handle({"intent": "join", "meld": "K"}) == "[refused] 'K' is not a meld to join."
    assert table.handle({"intent": "join", "into": "m1"}).startswith("[refused] Name the set to join")
    out = table.handle({"intent": "join", "from": "m1", "into": "m1"})
    assert out == "[R-SAMBA-5] Your side has no two melds numbered m1 and m1 to join"
    out = table.handle({"intent": "join", "from": "m3", "into": "m2", "rev": table.view["rev"]})
    assert out == "You: join m3 into m2."
    assert [len(m["cards"]) for m in table.view["melds"][0]] == [6, 6]


def test_take_the_top_card_onto_a_meld_by_a_click_R_SAMBA_6() -> None:
    """``take Q on m1``: with nothing selected Take asks which meld when the top card fits two, and the click on
    m1 sends ``take`` with ``to``; a meld it does not fit is the engine's refusal."""
    state = build(hand="4C 5D 6S 9C TC KC", melds=(("set", "QS QH QD"), ("set", "QS QH JK"), ("seq", "4H 5H 6H")),
                  pile="5C QC", phase="draw")
    table = _table(state)
    join = table.view["buttons"]["join"]  # before the draw, joining is the engine's refusal
    assert not join["ok"] and join["title"] == _engine_says(table.state, "join m2 into m1")
    assert join["rule"] == "R-TURN-2"
    take = table.view["buttons"]["take"]
    assert take["ok"] and take["title"].startswith("Click the meld")
    assert table.handle({"intent": "take", "rev": table.view["rev"]}).startswith("Click the meld")
    assert table.view["choose_for"] == "take" and table.view["choose_meld"]
    for bad in ("Q", "m0", 3, "m99999"):
        out = table.handle({"intent": "take", "to": bad})
        assert out == f"[refused] {str(bad)!r} is not a meld to put the top card on." or out.startswith("[R-"), out
    # a click's refusal names the meld clicked, then the engine's own words
    assert table.handle({"intent": "take", "to": "m9"}) == "Take pack onto m9, nothing selected: " + _engine_says(
        table.state, "take Q on m9")
    out = table.handle({"intent": "take", "to": "m3", "rev": table.view["rev"]})
    assert out == "Take pack onto m3, nothing selected: " + _engine_says(table.state, "take Q on m3")
    table.handle({"intent": "take", "to": "m1", "rev": table.view["rev"]})
    assert table.session.last_action == "take Q on m1"
    assert table.view["phase"] == "meld" and len(table.view["melds"][0][0]["cards"]) == 4
    assert table.view["pile"]["size"] == 0 and "KC" in table.view["hand"] and "5C" in table.view["hand"]


def test_the_classic_verbs_draw_take_meld_discard_ask_go_out_R_SAMBA_6_R_SAMBA_7() -> None:
    drawn = _table(build(hand="4C 5D 6S 9C TC KC", melds=(("set", "QS QH QD"),), pile="5C", phase="draw"))
    assert drawn.view["buttons"]["draw"]["ok"]
    assert "You drew" in drawn.handle({"intent": "draw"}) and len(drawn.view["hand"]) >= 8

    # a natural pair takes the pack as a new set; a set of a rank the side has is melded beside it
    pair = _table(build(hand="QC QD 4C 5D 6S KC KD KH 9C", melds=(("set", "QS QH QD"),), pile="5C QH",
                        phase="draw"))
    _select(pair, "QC", "QD")
    assert pair.view["buttons"]["take"]["title"] == "take Q Q Q"
    pair.handle({"intent": "take", "rev": pair.view["rev"]})
    assert pair.session.last_action == "take Q Q Q" and [m["label"] for m in pair.view["melds"][0]] == ["Q", "Q"]
    _select(pair, "KC", "KD", "KH")
    pair.handle({"intent": "meld", "rev": pair.view["rev"]})
    assert pair.session.last_action == "meld K K K"

    # going out needs two canastas (R-SAMBA-7): one is the engine's refusal on the button
    one = _table(build(hand="KC 4C", melds=(("set", "KS KH KD KC KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH"))))
    go = one.view["buttons"]["go_out"]
    err = one.state.explain_go_out(2)
    assert err is not None and not go["ok"] and go["rule"] == "R-SAMBA-7"
    assert go["title"] == f"[R-SAMBA-7] {err.reason}"
    two = _table(build(hand="KC 4C", melds=(("set", "KS KH KD KC KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH JH"))))
    assert two.view["buttons"]["go_out"]["ok"] and two.view["melds"][0][1]["canasta"] == "samba"
    assert two.view["buttons"]["ask"]["ok"]
    two.handle({"intent": "go_out", "rev": two.view["rev"]})
    assert two.state.went_out == 2 and two.view["result"] is not None


def test_the_samba_view_is_small_json_and_never_names_a_rule_in_the_widget() -> None:
    table = _table(build(hand="4C 5D 6S", melds=(("set", "QS QH QD"), ("set", "QC QD JK"), ("set", "KS KH KD"),
                                                ("set", "KD KC JK"))))
    table.handle({"intent": "join"})
    v = table.view
    assert json.loads(json.dumps(v)) == v
    assert v["choose_for"] == "join" and v["join_from"] is None
    assert len(json.dumps({k: v[k] for k in ("choose_for", "join_from")})) < 50
    classic = TableSession(seed=3).view()
    assert "choose_for" not in classic and "join_from" not in classic
    for name in ("table.js", "table.css"):
        assert not re.search(r"R-[A-Z]+-\d", asset_path(name).read_text(encoding="utf-8")), name
    # the static HTML numbers Samba's melds and badges a samba
    done = build(hand="KC 4C", melds=(("set", "KS KH KD"), ("seq", "5H 6H 7H 8H 9H TH JH")))
    html = state_html(done, seat="S")
    assert 'aria-label="meld m2, sequence of 5 to jack of hearts' in html and ">samba</span>" in html


def test_italian_shows_its_canasta_of_deuces_and_the_pile_frozen_for_everyone_R_ITAL_4_R_ITAL_6() -> None:
    from test_variant_italian import position

    state = position("turn: S meld", "pile: 9D", "N: 4S 5S 6S", "E: 4H 5H 6H", "W: 4D 5D 6D",
                     "S: 2S JK 4C 7S 8S 9S",
                     "melds NS: KC KH KD; 2S 2H 2D 2C 2S 2H 2D (canasta of deuces)", "melded-before: N S")
    view = build_view(observe(state, 2))
    deuces = view["melds"][0][0]
    assert (deuces["kind"], deuces["label"], deuces["canasta"], deuces["n"]) == ("2", "2", "deuces", 7)
    assert deuces["top"] is not None and deuces["top"][0] == "2"
    pile = view["pile"]
    assert pile["frozen_all"] and pile["freezer"] is None and not pile["top_sideways"]
    assert pile["note"] == "frozen for everyone: take it only with a natural pair"
    html = state_html(state, seat="S")
    assert "canasta of deuces</span>" in html and "ct-canasta-deuces" in html


def test_the_join_and_take_buttons_agree_with_the_engines_listing_over_a_hand_R_SAMBA_5_R_SAMBA_6() -> None:
    """Over a hand played through the widget's messages (South's moves the rules-of-thumb bot's, sent as
    clicks), the Join button is enabled exactly when the engine lists a join, and Take (nothing selected)
    exactly when it lists a take; a button's title that is an action is one the engine accepts."""
    from test_variant_samba import _samba_intents

    from canasta_tutor.bots.rules_of_thumb import RulesOfThumbBot

    table = CanastaTable(seed=2, variant="samba", bot_delay=0)
    learner = RulesOfThumbBot()
    checked = 0
    while table.state.phase not in ("hand_over", "game_over") and checked < 200:
        state = table.state
        legal = state.legal_actions()
        table.handle({"intent": "clear"})
        buttons = table.view["buttons"]
        assert buttons["join"]["ok"] == any(a[0] == "join" for a in legal), buttons["join"]
        assert buttons["take"]["ok"] == any(a[0] in ("take", "takeon") for a in legal), buttons["take"]
        for name in ("join", "take"):
            title = buttons[name]["title"]
            if buttons[name]["ok"] and title.split(" ")[0] in ("join", "take"):
                assert state.explain(parse_action(title)) is None, title
            if not buttons[name]["ok"] and buttons[name]["rule"]:
                assert re.fullmatch(r"\[R-[A-Z]+-\d+\] .+", title), title
        checked += 1
        action = learner(observe(state, "S"))
        for msg in _samba_intents(table.session, action):
            out = table.handle(msg)
            assert not out.startswith("[R-") and not out.startswith("[refused]"), (action, msg, out)
    assert checked > 5, checked


def test_a_typed_discard_with_a_suit_lays_that_card_R_SAMBA_6() -> None:
    """``discard 9C`` lays the 9♣ and ``discard 9`` one nine, as the engine chooses; in Samba a suit
    decides which sequences a card extends (R-SAMBA-6), so naming a card the hand does not hold is
    refused with what it does hold, and nothing is played."""
    hand = "7H 8H 9H KC 4C 5D 6S 9C TC"
    for typed, gone in (("discard 9C", "9C"), ("discard 9h", "9H"), ("discard 9\u2665", "9H")):
        table = _table(build(hand=hand))
        table.play(typed, run_bots=False)
        left = table.view["hand"]
        assert table.session.last_action == "discard 9"
        assert gone not in left and sum(c in left for c in ("9C", "9H")) == 1, (typed, left)
    table = _table(build(hand=hand))
    before = table.view["hand"]
    msg = table.handle({"intent": "play", "text": "discard 9D", "rev": table.view["rev"]})
    assert msg == "[refused] 'discard 9D': you hold no 9\u2666; of that rank you hold 9\u2665, 9\u2663"
    assert table.view["hand"] == before and table.state.phase == "meld"
    # a kind alone: the engine's choice, as before
    table = _table(build(hand=hand))
    table.play("discard 9", run_bots=False)
    assert sum(c in table.view["hand"] for c in ("9C", "9H")) == 1
