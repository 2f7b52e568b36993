"""The card-table widget's Python side: intents, refusals, undo, bots, and what is synced.

No browser: messages are fed to :meth:`CanastaTable.handle` as the front end
would send them with ``model.send``.
"""

from __future__ import annotations

import asyncio
import json
import re
import textwrap
from collections import Counter

import pytest

from canasta_tutor import Game
from canasta_tutor.notation.actions import format_action
from canasta_tutor.bots import RulesOfThumbBot
from canasta_tutor.engine.cards import CARD_CODE, CARD_KIND, DEUCE, JOKER
from canasta_tutor.tutor.display import state_html
from canasta_tutor.engine.observer import observe
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.tutor.session import TableSession
from canasta_tutor.ui.table import CanastaTable

SEED = 11  # South moves first and, after drawing, can meld 4 4 4 4 JK (70 >= 50)
CODE_RE = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][SHDC](?![A-Za-z0-9])")


def P(text: str):
    """Parse a position; ``stock: auto`` holds the cards nobody else holds (108 in all)."""
    text = textwrap.dedent(text)
    used = 0
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key in ("N", "E", "S", "W"):
            used += int(value) if value.isdigit() else len(value.split())
        elif key == "pile" or key.startswith("melds") or key.startswith("red threes"):
            used += len(value.replace(";", " ").split())
    return parse_position(text.replace("stock: auto", f"stock: {108 - used}"))


def table(**kw) -> CanastaTable:
    kw.setdefault("seed", SEED)
    kw.setdefault("bot_delay", 0)
    return CanastaTable(**kw)


def select(t: CanastaTable, *codes: str) -> None:
    hand = list(t.view["hand"])
    idx = []
    for c in codes:
        i = next(i for i, h in enumerate(hand) if h == c and i not in idx)
        idx.append(i)
    assert t.handle({"intent": "select", "indices": idx}).startswith("[refused]") is False


# --------------------------------------------------------------------------- text forms


def test_repr_is_stable_and_html_falls_back_to_the_learners_view():
    t = table()
    assert repr(t) == "CanastaTable(seat='S', deal=0, phase='draw', turn='S')"
    assert "0x" not in repr(t)
    out = t._repr_html_()
    assert all(f'data-card="{c}"' in out for c in t.state.hand("S"))
    assert out.count('class="ct-card ct-back"') >= 3
    assert t.status().startswith("deal 0, phase draw, turn S; your hand: 11 cards")


def test_state_html_teacher_view_shows_every_hand():
    state = Game().new_initial_state(seed=SEED)
    teacher = state_html(state)
    for seat in "NESW":
        assert all(f'data-card="{c}"' in teacher for c in state.hand(seat))
    assert 'class="ct-card ct-back"' not in teacher.split("ct-stock")[0]
    assert state._repr_html_() == teacher
    south = state_html(state, seat="S")
    west_only = set(state.hand("W")) - set(state.hand("S")) - set(state.hand("N")) - {CARD_CODE[c] for c in state.pile}
    assert not any(f'data-card="{c}"' in south for c in west_only)
    assert 'data-count="11"' in south
    assert 'aria-label="discard pile: 1 card"' in south  # the upcard: one card, not "1 cards"
    assert f'aria-label="stock: {len(state.stock)} cards"' in south


# --------------------------------------------------------------------------- each intent


def test_draw_meld_discard_turn():
    t = table()
    assert t.handle({"intent": "draw"}).startswith("You drew ")
    assert t.view["phase"] == "meld" and len(t.view["hand"]) == 12
    select(t, "4S", "4H", "4H", "4C", "JK")
    assert t.view["buttons"]["meld"]["ok"]
    assert t.view["buttons"]["meld"]["title"] == "meld 4 4 4; add 4; add JK to 4"
    msg = t.handle({"intent": "meld"})
    assert msg == "You melded 4♥ 4♥ 4♣ 4♠ JK."
    meld = t.view["melds"][0][0]
    assert meld["kind"] == "4" and len(meld["cards"]) == 5 and (meld["n"], meld["w"]) == (4, 1)
    assert t.view["score"]["initial_we"] is True
    assert t.view["selected"] == []
    select(t, "3C")
    assert t.handle({"intent": "discard"}) == "You discarded 3♣."
    # the bots played round to South again
    assert t.state.current_seat == "S" and t.view["phase"] == "draw"
    assert t.view["message"] == "Your turn: draw from the stock or take the pack."
    assert t.view["log"][-1]["who"] == "East" and t.view["log"][-1]["text"].startswith("East ")


def test_take_pack_with_selected_pair_and_add_to_meld():
    t = table(state=P("""
        dealer: E
        turn: S draw
        totals: NS 0 EW 0
        stock: auto
        pile: 5H 9D KD
        N: 11
        E: 11
        S: KH KS 7C 7D 8S JK 2C
        W: 11
        melds NS: QH QS QD
        """))
    select(t, "KH", "KS")
    assert t.view["buttons"]["take"]["ok"], t.view["buttons"]["take"]["title"]
    assert t.handle({"intent": "take"}).startswith("You took the pack of 3 cards with K♠ K♥.")
    assert t.view["pile"]["size"] == 0
    kinds = [m["kind"] for m in t.view["melds"][0]]
    assert "K" in kinds
    # Add to…: a wild card with two melds to choose from asks which meld
    select(t, "JK")
    assert t.handle({"intent": "add"}) == "Click the meld to add the selected wild cards to."
    assert t.view["choose_meld"] is True
    assert t.handle({"intent": "add", "to": "Q"}) == "You added JK to the queens."
    q = next(m for m in t.view["melds"][0] if m["kind"] == "Q")
    assert q["w"] == 1
    # a natural card goes to its own meld without asking
    select(t, "9D")
    assert t.handle({"intent": "add"}).startswith("Add 9♦: [R-MELD-8]")


def test_take_without_selection_adds_top_card_to_meld():
    t = table(state=P("""
        dealer: E
        turn: S draw
        stock: auto
        pile: 5H QC
        N: 11
        E: 11
        S: 7C 7D 8S 9S 4H
        W: 11
        melds NS: QH QS QD
        """))
    assert t.view["buttons"]["take"]["title"] == "take Q"
    assert t.handle({"intent": "take"}).startswith("You took the pack")
    q = next(m for m in t.view["melds"][0] if m["kind"] == "Q")
    assert len(q["cards"]) == 4


ASK_POSITION = """
    dealer: E
    turn: S meld
    stock: auto
    pile: 5H 9D
    N: 11
    E: 11
    S: 8S 8H 8D 6C
    W: 11
    melds NS: KH KS KD KC KH KS KD; QH QS QD
    """


def _always(answer):
    def bot(obs):
        if obs.phase == "answer":
            return (answer,)
        return RulesOfThumbBot()(obs)
    return bot


def test_ask_partner_yes_then_go_out_and_deal_the_next_hand():
    t = table(state=P(ASK_POSITION), bots={"N": _always("yes")})
    assert t.view["buttons"]["go_out"]["ok"] is True
    assert t.view["buttons"]["ask"]["ok"] is True
    msg = t.handle({"intent": "ask"})
    assert msg == "You asked 'Partner, may I go out?' North (partner) says yes: you must go out this turn."
    msg = t.handle({"intent": "go_out"})
    assert msg.startswith("You melded") and "You went out" in msg and "This hand: We +" in msg, msg
    assert t.view["phase"] in ("hand_over", "game_over")
    assert not any(p["active"] for p in t.view["players"].values())
    kinds = [e["kind"] for e in t.view["log"]]
    assert kinds[-2:] == ["went_out", "hand_over"]
    result = t.view["result"]
    assert result["we"]["going_out"] == 100 and result["we"]["natural_canastas"] == 1
    assert set(result["we"]) >= {"natural_canastas", "mixed_canastas", "red_threes", "going_out",
                                 "concealed", "melded", "in_hand", "total"}
    assert t.view["buttons"]["new_hand"]["ok"]
    assert t.handle({"intent": "new_hand"}).startswith("Deal 2: a new hand")
    assert t.state.deal_no == 1 and t.state.phase != "hand_over"
    assert t.view["deal_label"] == "Deal 2" and t.view["score"]["rows"][-1][0] == 1


def test_ask_partner_no_forbids_going_out():
    t = table(state=P(ASK_POSITION), bots={"N": _always("no")})
    msg = t.handle({"intent": "ask"})
    assert msg.endswith("North (partner) says no: you may not go out this turn."), msg
    assert t.handle({"intent": "go_out"}).startswith("[R-ASK-3]")
    assert t.view["message_rule"] == "R-ASK-3"


def test_go_out_refused_without_canasta():
    t = table()
    t.handle({"intent": "draw"})
    assert t.handle({"intent": "go_out"}).startswith("[R-OUT-1]")
    assert t.view["buttons"]["go_out"]["title"].startswith("[R-OUT-1]")


def test_partner_answer_needed_shows_yes_no():
    t = table(state=P("""
        dealer: E
        turn: N answer asked
        stock: auto
        pile: 5H 9D
        N: KC 2S 2H JK
        E: 11
        S: 8S 8H 8D 6C
        W: 11
        melds NS: KH KS KD KC KH KS KD
        """), seat="S")
    assert t.view["answer_needed"] is True
    assert set(t.view["buttons"]) >= {"yes", "no"}
    assert t.handle({"intent": "no"}) == "You answered no."
    assert ("no",) in t.state.history and "You answered no." in [e["text"] for e in t.view["log"]]


def test_four_colour_and_selection_intents():
    t = table()
    assert t.four_colour is False
    t.handle({"intent": "four_colour", "on": True})
    assert t.four_colour is True and t.view["four_colour"] is True
    assert t.view["message_kind"] != "error"
    t.handle({"intent": "toggle", "index": 2})
    t.handle({"intent": "toggle", "index": 0})
    assert t.view["selected"] == [0, 2]
    t.handle({"intent": "toggle", "index": 2})
    assert t.view["selected"] == [0]
    t.handle({"intent": "clear"})
    assert t.view["selected"] == []


def test_play_text_api():
    t = table()
    assert t.play("draw", run_bots=False).startswith("You drew")
    assert t.play("meld 4 4 JK", run_bots=False).startswith("You melded")
    assert t.play("add 4", run_bots=False) == "You added 4♣ to the 4s."
    assert t.handle({"intent": "play", "text": "discard 3"}) == "You discarded 3♣."
    assert t.handle({"intent": "play", "text": "fly away"}).startswith("[refused]")


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("intent, rule", [
    ("discard", "[R-TURN-2]"), ("meld", "Select the cards"), ("ask", "[R-ASK-1]"),
    ("new_hand", "[R-DEAL-1]"), ("go_out", "[R-TURN-2]"),
])
def test_refusals_before_drawing(intent, rule):
    t = table()
    before = format_position(t.state)
    msg = t.handle({"intent": intent})
    assert msg.startswith(rule), msg
    assert t.view["message"] == msg and t.view["message_kind"] == "error"
    assert format_position(t.state) == before
    assert t.view["buttons"][intent]["ok"] is False


def test_disabled_buttons_say_why_with_the_engines_rule():
    t = table()
    b = t.view["buttons"]
    assert b["discard"]["title"].startswith("[R-TURN-2] Draw from the stock")
    assert b["draw"]["ok"] and b["draw"]["title"] == "draw"
    assert b["undo"]["title"].startswith("Nothing to undo")
    assert b["new_hand"]["title"].startswith("[R-DEAL-1]")


def test_invalid_meld_reports_first_refusal_and_leaves_state():
    t = table()
    t.handle({"intent": "draw"})
    before = format_position(t.state)
    select(t, "6H", "6C")
    msg = t.handle({"intent": "meld"})
    # the refusal names the cards the learner selected, then the engine's rule and reason
    assert msg.startswith("Meld 6♥ 6♣: [R-MELD-"), msg
    assert msg.endswith(": " + t.view["buttons"]["meld"]["title"])
    select(t, "9S", "9H", "QS", "JK")
    # cards of two ranks: not one meld, said for the whole selection (R-MELD-1), no card dropped
    assert t.handle({"intent": "meld"}) == ("Meld 9♠ 9♥ Q♠ JK: [R-MELD-1] A meld holds cards of one rank, and "
                                            "these are two 9s, one queen and one wild card")
    select(t, "3C", "JK")
    assert t.handle({"intent": "meld"}).startswith("Meld 3♣ JK: [R-")
    assert format_position(t.state) == before


def test_not_your_turn():
    t = table(seed=1)  # any seed: make it West's move by hand
    t.state.apply(("draw",))
    t.state.apply(("discard", t.state.legal_actions()[-1][1]))
    t._sync()
    assert t.state.current_seat != "S"
    msg = t.handle({"intent": "draw"})
    assert msg == "[R-TURN-1] It is West's turn to act"
    assert t.view["buttons"]["meld"]["title"].startswith("[R-TURN-1]")


@pytest.mark.parametrize("msg", [
    None, 7, "draw", [], {}, {"intent": 3}, {"intent": "fly"}, {"intent": "_sync"}, {"intent": "__class__"},
    {"intent": "toggle"}, {"intent": "toggle", "index": "1"}, {"intent": "toggle", "index": True},
    {"intent": "toggle", "index": -1}, {"intent": "toggle", "index": 1.0}, {"intent": "select", "indices": "12"},
    {"intent": "select", "indices": [0, 0]}, {"intent": "select", "indices": [99]},
    {"intent": "add", "to": 5}, {"intent": "add", "to": "ZZ"}, {"intent": "four_colour", "on": "yes"},
    {"intent": "play", "text": 5}, {"intent": "play", "text": "x" * 500}, {"intent": "x" * 10_000},
])
def test_malformed_messages_are_refused_never_raised(msg):
    t = table()
    before = format_position(t.state)
    rev = t.view["rev"]
    out = t.handle(msg)
    assert out.startswith("[") and t.view["message_kind"] == "error", out
    assert format_position(t.state) == before
    assert t.view["rev"] > rev
    assert len(t.view["message"]) < 300


def test_message_via_comm_handler():
    t = table()
    t._on_msg(t, {"intent": "draw"}, [])
    assert t.view["phase"] == "meld"


# --------------------------------------------------------------------------- undo


def test_undo_takes_back_melds_but_never_the_draw():
    t = table()
    t.handle({"intent": "draw"})
    after_draw = format_position(t.state)
    assert t.view["buttons"]["undo"]["ok"] is False  # the draw showed a card
    select(t, "4S", "4C", "JK")
    t.handle({"intent": "meld"})
    select(t, "4H")
    t.handle({"intent": "add"})
    assert t.view["buttons"]["undo"]["ok"]
    assert t.handle({"intent": "undo"}) == "Undone: add 4."
    assert t.handle({"intent": "undo"}) == "Undone: meld 4 4 JK."
    assert format_position(t.state) == after_draw
    assert t.handle({"intent": "undo"}).startswith("Nothing to undo")
    assert format_position(t.state) == after_draw
    select(t, "3C")
    t.handle({"intent": "discard"})  # the bots play round: what they do may show what they drew
    assert t.view["buttons"]["undo"]["ok"] is False


# --------------------------------------------------------------------------- hint


def test_hint_stages():
    t = CanastaTable(session=TableSession(seed=SEED, hint_iterations=24), bot_delay=0)
    assert t.view["buttons"]["hint"]["ok"]
    t.handle({"intent": "hint"})
    h = t.view["hint"]
    assert h["stage"] == 0 and len(h["texts"]) == 1 and h["count"] >= 2
    for _ in range(h["count"]):
        t.handle({"intent": "hint"})
    h = t.view["hint"]
    assert len(h["texts"]) == h["count"]
    t.handle({"intent": "draw"})
    assert t.view["hint"] is None


# --------------------------------------------------------------------------- bots


def test_default_bots_are_the_rules_of_thumb_bot():
    t = table()
    assert sorted(t.session.bots) == [0, 1, 3]  # every seat but the learner's (South)
    assert all(isinstance(b, RulesOfThumbBot) for b in t.session.bots.values())

    def mine(obs):
        return RulesOfThumbBot()(obs)

    t = table(bots={"W": mine})  # seats left out keep the default
    assert t.session.bots[3] is mine
    assert isinstance(t.session.bots[0], RulesOfThumbBot) and isinstance(t.session.bots[1], RulesOfThumbBot)


def test_bots_are_any_callable_and_run_bots_is_synchronous():
    seen = []

    def bot(obs):
        seen.append(obs.seat)
        assert obs.actor == obs.seat and obs.legal_actions
        return RulesOfThumbBot()(obs)

    t = CanastaTable(seed=SEED, bots=bot, bot_delay=5)  # no event loop here: bots play at once
    t.play("draw", run_bots=False)
    t.play("discard 3", run_bots=False)
    assert t.state.current_seat == "S"
    assert set(seen) == {0, 1, 3}


def test_paced_bots_use_the_event_loop():
    async def main():
        t = CanastaTable(seed=SEED, bot_delay=0.01)
        t.handle({"intent": "draw"})
        select(t, "3C")
        t.handle({"intent": "discard"})
        assert t.state.current_seat == "W"  # nothing yet: the bots wait their pace
        revs = {t.view["rev"]}
        for _ in range(200):
            await asyncio.sleep(0.01)
            revs.add(t.view["rev"])
            if t.state.current_seat == "S":
                break
        assert t.state.current_seat == "S"
        assert len(revs) >= 4  # one view per bot action
        assert t.view["buttons"]["undo"]["ok"] is False  # the bots' moves are not undone

    asyncio.run(main())


# --------------------------------------------------------------------------- hidden cards


def _codes_in(value, out: Counter, key: str | None = None) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "top" and isinstance(value.get("cards"), list):
                assert v is None or v in value["cards"]  # a canasta's top card is one of its cards
                continue
            _codes_in(v, out, k)
    elif isinstance(value, list):
        for v in value:
            _codes_in(v, out, key)
    elif isinstance(value, str) and (value == "JK" or CODE_RE.fullmatch(value)):
        out[value] += 1


class Recording(CanastaTable):
    def _sync(self):
        super()._sync()
        state = self.get_state()
        self.records.append((self.state.copy(), state, {k: json.dumps(v) for k, v in state.items()}))


def _check_no_hidden(state, synced: dict, dumped: dict, me: int = 2) -> None:
    public = Counter(state.hand(me))
    for side in state.melds:
        for m in side.values():
            public.update(CARD_CODE[c] for c in m[0] + m[1])
    for r in state.red3:
        public.update(CARD_CODE[c] for c in r)
    public.update(CARD_CODE[c] for c in state.pile)
    hidden = Counter()
    for seat in range(4):
        if seat != me:
            hidden.update(state.hand(seat))
    hidden.update(CARD_CODE[c] for c in state.stock)
    hidden_only = {c for c in hidden if c not in public}
    assert set(synced) >= {"view", "four_colour"}
    for name, text in dumped.items():
        if name in ("_esm", "_css"):
            continue  # the static front-end files, the same for every game
        found = Counter()
        _codes_in(synced[name], found)
        assert not (found - public), f"{name} holds cards nobody may see: {found - public}"
        leaks = [c for c in CODE_RE.findall(text) if c in hidden_only]
        assert not leaks, f"{name} mentions hidden cards {leaks}"
    view = synced["view"]
    assert view["hand"] == state.hand(me)
    for p in view["players"].values():
        assert "cards" not in p or p["cards"] is None
        assert p["count"] == state.hand_size["NESW".index(p["seat"])]


def _indices_for(t: CanastaTable, kinds: list[int]) -> list[int]:
    hand = [CARD_KIND[c] for c in t.session.hand_cards()]
    used: list[int] = []
    for k in kinds:
        used.append(next(i for i, hk in enumerate(hand) if hk == k and i not in used))
    return sorted(used)


def _intents_for(t: CanastaTable, action: tuple) -> list[dict]:
    verb = action[0]
    kinds = []
    if verb in ("draw", "pass"):
        return [{"intent": "draw"}]
    if verb in ("ask", "yes", "no", "discard") and verb != "discard":
        return [{"intent": verb}]
    if verb == "deal":
        return [{"intent": "new_hand"}]
    if verb == "discard":
        kinds = [action[1]]
    elif verb in ("meld", "take"):
        k, n, j, d = action[1:]
        kinds = [k] * n + [JOKER] * j + [DEUCE] * d
    elif verb == "add":
        kinds = [action[2]]
    idx = _indices_for(t, kinds)
    msgs = [{"intent": "select", "indices": idx}]
    if verb == "add":
        tok = format_action(("add", action[1], action[1])).split()[1]
        msgs.append({"intent": "add", "to": tok})
    else:
        msgs.append({"intent": verb})
    return msgs


@pytest.mark.parametrize("seed", [SEED, 2, 5])
def test_no_hidden_card_is_ever_synced_over_a_played_hand(seed):
    t = Recording.__new__(Recording)
    t.records = []
    Recording.__init__(t, seed=seed, bot_delay=0)
    learner = RulesOfThumbBot()
    learner_actions = 0
    sizes = []
    while t.state.phase not in ("hand_over", "game_over") and learner_actions < 300:
        assert t.state.current_seat == "S"
        action = learner(observe(t.state, "S"))
        for msg in _intents_for(t, action):
            out = t.handle(msg)
            assert not out.startswith("[R-") and not out.startswith("[refused]"), (action, msg, out)
        learner_actions += 1
        assert t.session.message_kind != "error", t.message  # a bot stuck at an engine dead end is a failure
    assert learner_actions > 3
    assert len(t.records) > 10
    for state, synced, dumped in t.records:
        _check_no_hidden(state, synced, dumped)
        sizes.append(len(dumped["view"]))
    assert max(sizes) <= 20_000, f"a state update of {max(sizes)} bytes"
    if t.state.phase in ("hand_over", "game_over"):
        assert t.view["result"] is not None


# --------------------------------------------------------------------------- Python wins


def test_a_browser_write_to_a_synced_trait_is_undone_and_resent():
    t = table()
    view = t.view
    t.set_state({"four_colour": True})  # as if the browser wrote the trait
    assert t.four_colour is False
    t.set_state({"view": {"rev": -1}})
    assert t.view == view
    t.handle({"intent": "four_colour", "on": True})
    assert t.four_colour is True and t.view["four_colour"] is True


def test_a_double_click_on_draw_keeps_the_drawn_card_message():
    t = table()
    rev = t.view["rev"]
    t.handle({"intent": "draw", "rev": rev})
    t.handle({"intent": "draw", "rev": rev})
    assert t.view["message"] == "You drew 4♥. Meld or add to your melds, then discard."
    assert t.view["message_kind"] == "ok"


def test_the_hint_shows_a_busy_mark_while_it_searches():
    async def main():
        t = CanastaTable(session=TableSession(seed=SEED, hint_iterations=24), bot_delay=0)
        t.handle({"intent": "hint"})
        assert t.view["hint"]["busy"] is True
        for _ in range(500):
            await asyncio.sleep(0.01)
            if not t.view["hint"]["busy"]:
                break
        assert t.view["hint"]["busy"] is False and t.view["hint"]["texts"]

    asyncio.run(main())


def test_coach_grades_after_the_table_is_sent():
    async def main():
        t = CanastaTable(session=TableSession(seed=SEED, hint_iterations=24), bot_delay=0)
        t.handle({"intent": "coach", "on": True})
        t.handle({"intent": "draw"})
        select(t, "3C")
        t.handle({"intent": "discard"})
        assert t.view["message"] == "Your turn: draw from the stock or take the pack."
        assert t.view["coach"]["last"] is None  # the table first
        for _ in range(300):
            await asyncio.sleep(0.01)
            if t.view["coach"]["last"] is not None:
                break
        assert t.view["coach"]["last"]["action"] == "discard 3"

    asyncio.run(main())
