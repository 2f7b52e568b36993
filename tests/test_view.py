"""The one table view model: built from an Observation, shared by the widget and the static HTML."""

from __future__ import annotations

import json
import re
import statistics

from canasta_tutor import Game
from canasta_tutor.notation.actions import format_action
from canasta_tutor.bots import RulesOfThumbBot
from canasta_tutor.tutor.display import state_html
from canasta_tutor.engine.observer import observe
from canasta_tutor.tutor import view as view_module
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.tutor.view import TableUI, build_view, card_text, kind_label, plural
from test_planning import P

KEYS = {"rev", "seat", "deal", "deal_label", "phase", "actor", "turn_text", "players", "hand", "labels", "selected",
        "melds", "side_titles", "red3", "pile", "stock", "score", "result", "message", "message_kind", "message_rule",
        "buttons", "answer_needed", "choose_meld", "log", "hint", "rule", "coach", "four_colour"}

TENS = """
    dealer: E
    turn: S meld
    stock: auto
    pile: 5H 9D
    N: 11
    E: 1
    S: TC 8S 8H 8D 6C
    W: 11
    melds NS: TH TS TD
    """


def test_every_documented_key_is_in_the_view_and_the_docstring():
    v = TableSession(seed=11).view()
    assert set(v) == KEYS
    doc = view_module.__doc__ or ""
    for key in KEYS:
        assert f"``{key}``" in doc, key
    json.dumps(v)  # JSON-ready


def test_view_is_built_from_the_observation_alone():
    state = Game().new_initial_state(seed=11)
    obs = observe(state, "S")
    v = build_view(obs, TableUI(rev=3))
    assert v["hand"] == list(obs.hand) and v["rev"] == 3
    assert all(p["cards"] is None for p in v["players"].values())


def test_tens_are_labelled_10_everywhere():
    s = TableSession(state=P(TENS))
    v = s.view()
    meld = v["melds"][0][0]
    assert meld["kind"] == "T" and meld["label"] == "10" and meld["name"] == "10s"
    assert card_text("TC") == "10♣" and kind_label(6) == "10"
    s.select([s.index_of("TC")])
    assert s.press("add") == "You added 10♣ to the 10s."
    assert "10♣" in s.view()["log"][-1]["text"]
    assert re.search(r"\b1[♠♥♦♣]", json.dumps(s.view(), ensure_ascii=False)) is None
    html = state_html(s.state, seat="S")
    assert '<span class="ct-rank" aria-hidden="true">10</span>' in html


def test_counting_words():
    s = TableSession(state=P(TENS))
    v = s.view()
    east = next(p for p in v["players"].values() if p["seat"] == "E")
    assert east["count_text"] == "1 card" and plural(2, "card") == "2 cards"
    assert ">1 card<" in state_html(s.state, seat="S")


def test_static_html_and_widget_share_the_view():
    state = Game().new_initial_state(seed=7)
    south = state_html(state, seat="S")
    teacher = state_html(state)
    assert all(f'data-card="{c}"' in teacher for seat in "NESW" for c in state.hand(seat))
    assert not all(f'data-card="{c}"' in south for c in state.hand("N"))
    assert "Deal 1" in south


def _play_hand_measuring(seed: int) -> list[int]:
    s = TableSession(seed=seed)
    learner = RulesOfThumbBot()
    sizes = [len(json.dumps(s.view(), ensure_ascii=False).encode())]
    for _ in range(3000):
        if s.state.phase in ("hand_over", "game_over"):
            break
        if s.bot_to_move():
            s.step_bots(1)
        else:
            s.play(format_action(learner(observe(s.state, "S"))))
        sizes.append(len(json.dumps(s.view(), ensure_ascii=False).encode()))
    assert s.state.phase in ("hand_over", "game_over")
    return sizes


def test_one_view_update_stays_under_20_kb_over_whole_hands():
    sizes = [n for seed in (11, 2, 5) for n in _play_hand_measuring(seed)]
    assert max(sizes) < 20_000, max(sizes)
    assert statistics.median(sizes) < 10_000
