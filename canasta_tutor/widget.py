"""The card table: play Canasta against three bots in a notebook (an anywidget).

Python is the single source of truth.  The browser draws the table from one
small synced ``view`` dict and sends *intents* (``{"intent": "draw"}``,
``{"intent": "toggle", "index": 3}``, ...); :meth:`CanastaTable.handle` checks
every one and answers with a new view.  The view is built from
:func:`~canasta_tutor.observer.observe` for the learner's seat, so another
player's hidden cards and the stock never reach the browser.

>>> table = CanastaTable(seed=11, bot_delay=0)
>>> table
CanastaTable(seat='S', deal=0, phase='draw', turn='S')
>>> table.handle({"intent": "discard"})
'[R-TURN-2] Draw from the stock or take the pack before discarding'
>>> table.handle({"intent": "draw"})
'You drew 4♥. Meld or add to your melds, then discard.'
>>> table.handle({"intent": "fly"})
"[refused] Unknown intent 'fly'."
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from typing import Any, Callable, Mapping

import anywidget
import traitlets

from .actions import format_action
from .bots import RulesOfThumbBot
from .cards import (
    BLACK_THREE,
    CARD_KIND,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_TOKENS,
    KIND_VALUES,
    RED_THREE,
    format_card,
    kind_of_code,
    parse_card,
)
from .display import asset_path, card_label, state_html
from .errors import CanastaError, IllegalActionError
from .feasibility import can_go_out
from .game import Game
from .observer import Observation, observe
from .state import GAME_OVER, HAND_OVER, SEATS, State, seat_index

Policy = Callable[[Observation], tuple]

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "go_out", "hint", "undo", "new_hand")
LABELS = {
    "draw": "Draw", "take": "Take pack", "meld": "Meld", "add": "Add to…", "discard": "Discard",
    "ask": "Ask partner", "go_out": "Go out", "hint": "Hint", "undo": "Undo", "new_hand": "New hand",
    "yes": "Yes, go out", "no": "No",
}
WILDS = (JOKER, DEUCE)
MAX_UNDO = 100
GO_OUT_NODES = 20000


def _tok(kind: int) -> str:
    return "3" if kind == BLACK_THREE else KIND_TOKENS[kind]


def _refusal(err: IllegalActionError | tuple[str, str]) -> str:
    rule, reason = (err.rule, err.reason) if isinstance(err, IllegalActionError) else err
    return f"[{rule}] {reason}"


class CanastaTable(anywidget.AnyWidget):
    """A Canasta table: the learner plays ``seat`` (South) against three bots.

    Parameters: ``seed`` (the game, replayable), ``seat`` (the learner's seat),
    ``bots`` (one policy for all three other seats, or ``{seat: policy}``; a
    policy is any callable ``policy(observation) -> action``; seats left out
    get the rules-of-thumb bot, :class:`~canasta_tutor.bots.RulesOfThumbBot`), ``bot_delay``
    (seconds between bot actions when an event loop runs, 0 to play them at
    once), ``four_colour`` (clubs green, diamonds blue), ``state`` (start from
    a given :class:`~canasta_tutor.state.State`).
    """

    _esm = asset_path("table.js")
    _css = asset_path("table.css")

    #: Everything the browser draws: public information and the learner's own cards only.
    view = traitlets.Dict().tag(sync=True)
    #: Four-colour deck (clubs green, diamonds blue).
    four_colour = traitlets.Bool(False).tag(sync=True)

    def __init__(self, seed: int = 0, seat: str = "S", bots: Policy | Mapping[str, Policy] | None = None,
                 bot_delay: float = 0.4, four_colour: bool = False, state: State | None = None,
                 hint_budget: float | None = None, game: Game | None = None, **kwargs: Any) -> None:
        super().__init__(four_colour=four_colour, **kwargs)
        self.seed = seed
        self.me = seat_index(seat)
        self.game = game or Game()
        self.state = state.copy() if state is not None else self.game.new_initial_state(seed=seed)
        self.bot_delay = float(bot_delay)
        self.hint_budget = hint_budget
        self.bots: dict[int, Policy] = {}
        default = RulesOfThumbBot()
        for s in range(4):
            if s == self.me:
                continue
            if bots is None:
                self.bots[s] = default
            elif callable(bots):
                self.bots[s] = bots
            else:
                self.bots[s] = bots.get(SEATS[s], default)
        self.selected: list[int] = []
        self.message = ""
        self.message_kind = "info"
        self.last_action = "none"
        self._undo: list[tuple[State, str]] = []
        self._log: deque[str] = deque(maxlen=8)
        self._hint: dict[str, Any] | None = None
        self._choose_meld = False
        self._gen = 0
        self._rev = 0
        self._games = 0
        self.on_msg(self._on_msg)
        self._greet()
        self._after_change()

    # ------------------------------------------------------------ text forms
    def __repr__(self) -> str:
        turn = self.state.current_seat
        return (f"CanastaTable(seat={SEATS[self.me]!r}, deal={self.state.deal_no}, "
                f"phase={self.state.phase!r}, turn={turn!r})")

    def _repr_html_(self) -> str:
        """Static HTML of the learner's view, for exports and viewers without a kernel."""
        return state_html(self.state, seat=SEATS[self.me], four_colour=self.four_colour)

    def status(self) -> str:
        """One stable line about the Python-side state (the browser test re-runs a cell printing it)."""
        s = self.state
        turn = s.current_seat or "-"
        return (f"deal {s.deal_no}, phase {s.phase}, turn {turn}; your hand: {s.hand_size[self.me]} cards; "
                f"melds We {len(s.melds[self.me & 1])}, They {len(s.melds[1 - (self.me & 1)])}; "
                f"last action: {self.last_action}")

    @property
    def observation(self) -> Observation:
        return observe(self.state, self.me)

    # ------------------------------------------------------------ messages
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        self.handle(content)

    def handle(self, msg: Any) -> str:
        """Check and carry out one intent from the browser; return the message shown.

        Never raises: a malformed or illegal intent is refused with a message.
        """
        try:
            text = self._dispatch(msg)
        except CanastaError as exc:  # notation problems and the like
            text = self._say(f"[refused] {exc}", "error")
        except Exception as exc:  # noqa: BLE001 - the browser must always get an answer
            text = self._say(f"[refused] Could not do that: {type(exc).__name__}: {exc}", "error")
        self._sync()
        return text

    def _dispatch(self, msg: Any) -> str:
        if not isinstance(msg, dict) or not isinstance(msg.get("intent"), str):
            return self._say("[refused] A message must be an object with an 'intent' string.", "error")
        intent = msg["intent"]
        handler = getattr(self, f"_do_{intent}", None) if intent.isidentifier() else None
        if handler is None:
            return self._say(f"[refused] Unknown intent {intent[:40]!r}.", "error")
        return handler(msg)

    def _say(self, text: str, kind: str = "info") -> str:
        self.message = text
        self.message_kind = kind
        return text

    # ------------------------------------------------------------ selection
    def _hand(self) -> list[str]:
        return self.state.hand(self.me)

    def _check_index(self, i: Any, size: int) -> bool:
        return type(i) is int and 0 <= i < size

    def _do_toggle(self, msg: dict) -> str:
        i = msg.get("index")
        if not self._check_index(i, len(self._hand())):
            return self._say(f"[refused] No card at position {i!r} in your hand.", "error")
        if i in self.selected:
            self.selected.remove(i)
        else:
            self.selected.append(i)
            self.selected.sort()
        self._choose_meld = False
        return self._selection_message()

    def _do_select(self, msg: dict) -> str:
        idx = msg.get("indices")
        size = len(self._hand())
        if not isinstance(idx, list) or not all(self._check_index(i, size) for i in idx) or len(set(idx)) != len(idx):
            return self._say("[refused] 'indices' must list distinct positions of cards in your hand.", "error")
        self.selected = sorted(idx)
        self._choose_meld = False
        return self._selection_message()

    def _do_clear(self, msg: dict) -> str:
        self.selected = []
        self._choose_meld = False
        return self._selection_message()

    def _do_four_colour(self, msg: dict) -> str:
        on = msg.get("on")
        if not isinstance(on, bool):
            return self._say("[refused] 'on' must be true or false.", "error")
        self.four_colour = on
        return self.message

    def _selection_message(self) -> str:
        hand = self._hand()
        names = [format_card(parse_card(hand[i]), glyphs=True) if hand[i] != "JK" else "JK" for i in self.selected]
        text = f"Selected: {' '.join(names)}." if names else "Nothing selected."
        return self._say(text, "info")

    def _selected_kinds(self) -> list[int]:
        hand = self._hand()
        return [kind_of_code(hand[i]) for i in self.selected if i < len(hand)]

    # ------------------------------------------------------------ building learner actions
    def _my_move(self) -> str | None:
        """None if the learner may act now, else why not."""
        s = self.state
        if s.phase == GAME_OVER:
            return "[R-GAME-1] The game is over: click New hand for a new game"
        if s.phase == HAND_OVER:
            return "[R-OUT-4] The hand is over: click New hand to deal the next one"
        if s.actor != self.me:
            return f"[R-TURN-1] Wait: it is {self._name(s.actor)}'s turn"
        return None

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == self.me:
            return "you"
        n = SEAT_NAMES[SEATS[seat]]
        return f"{n} (partner)" if seat == (self.me + 2) % 4 else n

    def _meld_seq(self, kinds: list[int]) -> tuple[list[tuple] | None, str]:
        if not kinds:
            return None, "Select the cards to meld first"
        nat = Counter(k for k in kinds if k not in WILDS)
        j, d = kinds.count(JOKER), kinds.count(DEUCE)
        if RED_THREE in nat:
            return None, "[R-RED-1] Red threes are laid out, never melded"
        if not nat:
            return None, "[R-MELD-3] Wild cards can't be melded on their own: select natural cards too"
        if len(nat) > 1 and (j or d):
            return None, "[R-MELD-1] A meld holds one rank: meld wild cards with one rank at a time"
        own = self.state.melds[self.me & 1]
        seq: list[tuple] = []
        for k in sorted(nat):
            n = nat[k]
            wj, wd = (j, d) if len(nat) == 1 else (0, 0)
            if k in own:
                seq += [("add", k, k)] * n
            else:
                if n >= 3:
                    seq.append(("meld", k, 3, 0, 0))
                    n -= 3
                elif n == 2 and wj:
                    seq.append(("meld", k, 2, 1, 0))
                    n, wj = 0, wj - 1
                elif n == 2 and wd:
                    seq.append(("meld", k, 2, 0, 1))
                    n, wd = 0, wd - 1
                else:
                    seq.append(("meld", k, n, wj, wd))
                    n = wj = wd = 0
                seq += [("add", k, k)] * n
            seq += [("add", k, JOKER)] * wj + [("add", k, DEUCE)] * wd
        return seq, ""

    def _take_seq(self, kinds: list[int]) -> tuple[list[tuple] | None, str]:
        s = self.state
        if not s.pile:
            e = s.explain(("take", 0, 2, 0, 0))
            return None, _refusal(e) if e else "The discard pile is empty"
        top = CARD_KIND[s.pile[-1]]
        side = self.me & 1
        if top >= 11:
            e = s.explain(("take", top, 2, 0, 0))
            return None, _refusal(e) if e else "You can't take the pack now"
        own = s.melds[side]
        if not kinds:
            if s.initial[side] and s.freeze_at < 0 and top in own:
                return [("take", top, 0, 0, 0)], ""
            takes = [a for a in s.legal_actions() if a[0] == "take"] if s.actor == self.me else []
            if takes:
                return [min(takes, key=lambda a: (a[3] + a[4], a[2]))], ""
            return [("take", top, 2, 0, 0)], ""
        sel = Counter(kinds)
        n, j, d = sel.pop(top, 0), sel.pop(JOKER, 0), sel.pop(DEUCE, 0)
        others = [k for k in kinds if k not in (top, JOKER, DEUCE)]
        show: list[tuple] = []
        if others:
            show, why = self._meld_seq(others)
            if show is None:
                return None, why
        if not s.initial[side]:
            return show + [("take", top, n, j, d)], ""
        # the side has melded: take with the base, then add the rest
        if top in own and s.freeze_at < 0:
            base = (0, 0, 0)
        elif n >= 2:
            base = (2, 0, 0)
        elif n == 1 and j and s.freeze_at < 0:
            base = (1, 1, 0)
        elif n == 1 and d and s.freeze_at < 0:
            base = (1, 0, 1)
        else:
            return show + [("take", top, n, j, d)], ""
        rest = [("add", top, top)] * (n - base[0]) + [("add", top, JOKER)] * (j - base[1])
        rest += [("add", top, DEUCE)] * (d - base[2])
        return show + [("take", top, *base)] + rest, ""

    def _add_seq(self, kinds: list[int], target: int | None) -> tuple[list[tuple] | None, str]:
        if not kinds:
            return None, "Select the cards to add to a meld first"
        own = self.state.melds[self.me & 1]
        nat = sorted({k for k in kinds if k not in WILDS})
        if target is None:
            if len(nat) == 1:
                target = nat[0]
            elif not nat:
                wild_ok = [k for k in own if k != BLACK_THREE]
                if len(wild_ok) == 1:
                    target = wild_ok[0]
                else:
                    return None, "choose"
            else:
                if any(k in WILDS for k in kinds):
                    return None, "[R-MELD-1] Add wild cards to one meld at a time: click the meld"
                return [("add", k, k) for k in kinds], ""
        ordered = sorted(kinds, key=lambda k: k in WILDS)
        return [("add", target, k) for k in ordered], ""

    def _check_seq(self, seq: list[tuple]) -> IllegalActionError | None:
        trial = self.state.copy()
        for a in seq:
            err = trial.explain(a)
            if err is not None:
                return err
            trial.apply(a)
        return None

    def _candidate(self, button: str) -> tuple[list[tuple] | None, str]:
        """The engine actions a button would play now, or (None, why not)."""
        s = self.state
        kinds = self._selected_kinds()
        if button == "draw":
            return ([("pass",)] if s.phase == "draw" and not s.stock and s.pile else [("draw",)]), ""
        if button == "take":
            return self._take_seq(kinds)
        if button == "meld":
            return self._meld_seq(kinds)
        if button == "add":
            return self._add_seq(kinds, None)
        if button == "discard":
            if len(kinds) != 1:
                if s.phase != "meld":
                    e = s.explain(("discard", kinds[0] if kinds else 0))
                    if e is not None and e.rule == "R-TURN-2" and "Draw" in e.reason:
                        return None, _refusal(e)
                return None, "Select exactly one card to discard"
            return [("discard", kinds[0])], ""
        if button == "ask":
            return [("ask",)], ""
        return None, ""

    # ------------------------------------------------------------ intents that play
    def _play_seq(self, seq: list[tuple], verb_text: str) -> str:
        err = self._check_seq(seq)
        if err is not None:
            return self._say(_refusal(err), "error")
        self._push_undo("; ".join(format_action(a) for a in seq))
        for a in seq:
            self._apply(self.me, a)
        self.selected = []
        self._choose_meld = False
        self.last_action = "; ".join(format_action(a) for a in seq)
        text = self._say(verb_text, "ok")
        self._after_change()
        return text

    def _button_intent(self, button: str, describe: Callable[[list[tuple]], str]) -> str:
        why = self._my_move()
        if why:
            return self._say(why, "error")
        seq, why = self._candidate(button)
        if seq is None:
            return self._say(why, "error")
        return self._play_seq(seq, describe(seq))

    def _do_draw(self, msg: dict) -> str:
        before = [k[:] for k in self.state.hands[self.me]]

        def describe(seq: list[tuple]) -> str:
            return "You declined the pack." if seq[0] == ("pass",) else "You drew from the stock."

        text = self._button_intent("draw", describe)
        if self.message_kind == "ok" and self.state.history[-1:] == [("draw",)]:
            new = [c for k, old in zip(self.state.hands[self.me], before) for c in k if c not in old]
            if new:
                text = f"You drew {format_card(new[0], glyphs=True)}."
            if self.state.actor == self.me and self.state.phase == "meld":
                text += " Meld or add to your melds, then discard."
            self._say(text, "ok")
        return text

    def _do_take(self, msg: dict) -> str:
        return self._button_intent(
            "take", lambda seq: "You took the pack: " + "; ".join(format_action(a) for a in seq) + ".")

    def _do_meld(self, msg: dict) -> str:
        return self._button_intent(
            "meld", lambda seq: "You melded: " + "; ".join(format_action(a) for a in seq) + ".")

    def _do_add(self, msg: dict) -> str:
        why = self._my_move()
        if why:
            return self._say(why, "error")
        to = msg.get("to")
        target = None
        if to is not None:
            if not isinstance(to, str) or to.upper() not in KIND_TOKENS:
                return self._say(f"[refused] {str(to)[:20]!r} is not a meld to add to.", "error")
            target = 13 if to == "3" else KIND_TOKENS.index(to.upper())
        seq, why = self._add_seq(self._selected_kinds(), target)
        if seq is None:
            if why == "choose":
                self._choose_meld = True
                return self._say("Click the meld to add the selected wild card(s) to.", "info")
            return self._say(why, "error")
        return self._play_seq(seq, "You added: " + "; ".join(format_action(a) for a in seq) + ".")

    def _do_discard(self, msg: dict) -> str:
        why = self._my_move()
        if why:
            return self._say(why, "error")
        seq, why = self._candidate("discard")
        if seq is None:
            return self._say(why, "error")
        hand = self._hand()
        code = hand[self.selected[0]]
        name = format_card(parse_card(code), glyphs=True)
        return self._play_seq(seq, f"You discarded {name}.")

    def _do_ask(self, msg: dict) -> str:
        why = self._my_move()
        if why:
            return self._say(why, "error")
        err = self.state.explain(("ask",))
        if err is not None:
            return self._say(_refusal(err), "error")
        self._push_undo("ask")
        self._apply(self.me, ("ask",))
        partner = (self.me + 2) % 4
        try:
            answer = self.bots[partner](observe(self.state, partner))
        except Exception:  # noqa: BLE001 - a broken bot says no
            answer = ("no",)
        if answer not in (("yes",), ("no",)):
            answer = ("no",)
        self._apply(partner, answer)
        self.last_action = f"ask; {self._name(partner)} said {answer[0]}"
        if answer == ("yes",):
            text = "North says yes: you must go out this turn [R-ASK-3]."
        else:
            text = "North says no: you may not go out this turn [R-ASK-3]."
        text = text.replace("North", SEAT_NAMES[SEATS[partner]])
        self._say(text, "ok")
        self._after_change()
        return text

    def _answer(self, verb: str) -> str:
        s = self.state
        if s.phase != "answer" or s.actor != self.me:
            return self._say("[R-ASK-2] Nobody is asking you 'may I go out?'", "error")
        return self._play_seq([(verb,)], f"You answered {verb}.")

    def _do_yes(self, msg: dict) -> str:
        return self._answer("yes")

    def _do_no(self, msg: dict) -> str:
        return self._answer("no")

    def _do_go_out(self, msg: dict) -> str:
        why = self._my_move()
        if why:
            return self._say(why, "error")
        seq, why = self._going_out()
        if seq is None:
            return self._say(why, "error")
        return self._play_seq(seq, "You went out: " + "; ".join(format_action(a) for a in seq) + ".")

    def _going_out(self) -> tuple[list[tuple] | None, str]:
        s = self.state
        if s.phase != "meld":
            return None, "[R-TURN-2] Draw from the stock or take the pack first; then go out"
        if s.answer is False:
            return None, "[R-ASK-3] Your partner said no, so you may not go out this turn"
        side = self.me & 1
        if not can_go_out(s.hand_counts(self.me), s.meld_summary(side), s.options, b3_on_table=s.b3_melded):
            if not s.side_has_canasta(side):
                return None, ("[R-OUT-1] You can't go out: your side has no canasta, and your hand "
                              "can't make one while melding every card")
            return None, ("[R-OUT-1] You can't go out: you can't meld every card in your hand "
                          "(keeping at most one to discard)")
        me = self.me
        seen: set = set()
        budget = [GO_OUT_NODES]

        def dfs(st: State, path: list[tuple]) -> list[tuple] | None:
            if st.went_out == me and st.phase in (HAND_OVER, GAME_OVER):
                return path
            if st.phase != "meld" or st.turn != me or budget[0] <= 0:
                return None
            key = (tuple(len(k) for k in st.hands[me]), tuple(sorted(st.meld_summary(side).items())), st.pending)
            if key in seen:
                return None
            seen.add(key)
            budget[0] -= 1
            acts = st.legal_actions()
            size = st.hand_size[me]
            first = [a for a in acts if a[0] in ("meld", "add")]
            first.sort(key=lambda a: (a[0] != "meld", a[-1] in WILDS))
            if size == 1:
                first = [a for a in acts if a[0] == "discard"] + first
            for a in first:
                child = st.copy()
                child.apply_unchecked(a)
                found = dfs(child, path + [a])
                if found:
                    return found
            return None

        found = dfs(s.copy(), [])
        if not found:
            return None, "[R-OUT-1] No way to go out was found: meld your cards one by one instead"
        return found, ""

    def _do_undo(self, msg: dict) -> str:
        if not self._undo:
            return self._say("Nothing to undo.", "error")
        state, what = self._undo.pop()
        self.state = state
        self._gen += 1  # cancels bots waiting to move
        self.selected = []
        self._choose_meld = False
        self._hint = None
        self.last_action = f"undo ({what})"
        self._log.append(f"You took back: {what}")
        self._say(f"Undone: {what}.", "ok")
        self._after_change(run=False)
        return self.message

    def _do_new_hand(self, msg: dict) -> str:
        s = self.state
        if s.phase == GAME_OVER:
            self._push_undo("new game")
            self._games += 1
            self.state = self.game.new_initial_state(seed=self.seed + 1000 * self._games)
            self.selected = []
            self._log.append("A new game begins.")
            self.last_action = "new game"
            self._greet()
            self._after_change()
            return self.message
        err = s.explain(("deal",))
        if err is not None:
            return self._say(_refusal(err) + ": finish it first", "error")
        return self._play_seq([("deal",)], f"Deal {s.deal_no + 1}: a new hand.")

    def _do_play(self, msg: dict) -> str:
        """``{"intent": "play", "text": "meld K K JK"}``: an action typed as text."""
        text = msg.get("text")
        if not isinstance(text, str) or len(text) > 100:
            return self._say("[refused] 'text' must be a short action like 'meld K K K'.", "error")
        return self.play(text, run_bots=False)

    def _do_hint(self, msg: dict) -> str:
        why = self._my_move()
        if why:
            return self._say(why, "error")
        key = (self.state.deal_no, len(self.state.history))
        if self._hint is None or self._hint["key"] != key:
            from .bots.principles import PRINCIPLES
            from .hint import hint

            h = hint(observe(self.state, self.me), budget=self.hint_budget, seed=self.seed)
            alts = [{"text": a.text, "value": _num(a.value), "stderr": _num(a.stderr), "why": a.why}
                    for a in h.alternatives]
            principles = [f"{p}: {PRINCIPLES[p].sentence}" for p in h.principles]
            self._hint = {"key": key, "stage": 0, "stages": h.stages(), "alternatives": alts,
                          "principles": principles}
        else:
            self._hint["stage"] = min(self._hint["stage"] + 1, max(0, len(self._hint["stages"]) - 1))
        return self._say("Hint: click Hint again for more." if self._hint["stage"] + 1 < len(self._hint["stages"])
                         else "Hint: that is the whole explanation.", "info")

    # ------------------------------------------------------------ Python API
    def play(self, text: str, run_bots: bool = True) -> str:
        """Play an action typed as text (``'draw'``, ``'meld K K JK'``, ``'discard 7'``...) as the learner.

        The bots then answer at once (``run_bots=False`` leaves that to the pacing).
        """
        from .actions import parse_action

        a = parse_action(text)
        verb = a[0]
        if verb in ("meld", "take"):
            k, n, j, d = a[1:]
            if verb == "take":
                kinds = [k] * n + [JOKER] * j + [DEUCE] * d
                if not kinds:
                    self.selected = []
                    out = self._button_intent("take", lambda seq: "You took the pack.")
                    self._finish_play(run_bots)
                    return out
            else:
                kinds = [k] * n + [JOKER] * j + [DEUCE] * d
            self.selected = self._indices_for(kinds)
            if self.selected is None:
                self.selected = []
                out = self._say(f"[R-MELD-1] You don't hold the cards for {text!r}", "error")
            else:
                out = getattr(self, f"_do_{verb}")({})
        elif verb == "add":
            idx = self._indices_for([a[2]])
            if idx is None:
                out = self._say(f"[R-MELD-8] You hold no {KIND_NAMES[a[2]][:-1]} to add", "error")
            else:
                self.selected = idx
                out = self._do_add({"to": _tok(a[1])})
        elif verb == "discard":
            idx = self._indices_for([a[1]])
            if idx is None:
                self.selected = []
                out = self._say(f"[R-TURN-2] You hold no {KIND_NAMES[a[1]][:-1]} to discard", "error")
            else:
                self.selected = idx
                out = self._do_discard({})
        elif verb in ("draw", "pass"):
            out = self._do_draw({})
        elif verb == "deal":
            out = self._do_new_hand({})
        else:
            out = getattr(self, f"_do_{verb}")({})
        self._finish_play(run_bots)
        return out

    def _finish_play(self, run_bots: bool) -> None:
        if run_bots:
            self.run_bots()
        self._sync()

    def _indices_for(self, kinds: list[int]) -> list[int] | None:
        hand = [kind_of_code(c) for c in self._hand()]
        used: list[int] = []
        for k in kinds:
            for i, hk in enumerate(hand):
                if hk == k and i not in used:
                    used.append(i)
                    break
            else:
                return None
        return sorted(used)

    # ------------------------------------------------------------ bots
    def run_bots(self, max_actions: int = 5000) -> int:
        """Let the bots play until it is the learner's move or the hand is over; returns the count."""
        self._gen += 1
        n = 0
        while n < max_actions and self._bot_step():
            n += 1
        self._sync()
        return n

    def _bot_step(self) -> bool:
        s = self.state
        actor = s.actor
        if actor is None or actor == self.me or s.phase in (HAND_OVER, GAME_OVER):
            return False
        try:
            action = self.bots[actor](observe(s, actor))
            err = s.explain(action)
        except Exception as exc:  # noqa: BLE001
            self._say(f"{self._name(actor)}'s bot failed ({type(exc).__name__}: {exc}); use Undo.", "error")
            return False
        if err is not None:
            self._say(f"{self._name(actor)}'s bot tried an illegal move: {_refusal(err)}", "error")
            return False
        self._apply(actor, action)
        if s.actor == self.me or s.phase in (HAND_OVER, GAME_OVER):
            self._greet()
        return True

    def _after_change(self, run: bool = True) -> None:
        """After the learner changed the state: let the bots move (paced or at once)."""
        self._gen += 1
        self._hint = None if self._hint is None or self._hint.get("key") != (
            self.state.deal_no, len(self.state.history)) else self._hint
        if run:
            loop = _running_loop()
            if self.bot_delay > 0 and loop is not None:
                self._schedule(loop, self._gen)
            else:
                while self._bot_step():
                    pass
        self._sync()

    def _schedule(self, loop: asyncio.AbstractEventLoop, gen: int) -> None:
        s = self.state
        if s.actor is None or s.actor == self.me or s.phase in (HAND_OVER, GAME_OVER):
            return
        loop.call_later(self.bot_delay, self._tick, loop, gen)

    def _tick(self, loop: asyncio.AbstractEventLoop, gen: int) -> None:
        if gen != self._gen:
            return
        moved = self._bot_step()
        self._sync()
        if moved:
            self._schedule(loop, gen)

    def _apply(self, seat: int, action: tuple) -> None:
        s = self.state
        before_pile = len(s.pile)
        s.apply(action)
        who = "You" if seat == self.me else SEAT_NAMES[SEATS[seat]]
        verb = action[0]
        if verb == "draw":
            text = "drew from the stock"
        elif verb == "discard":
            card = s.pile[-1] if s.pile and len(s.pile) > before_pile else None
            text = "discarded " + (format_card(card, glyphs=True) if card is not None else _tok(action[1]))
            if s.phase in (HAND_OVER, GAME_OVER):
                text += " and went out"
        elif verb == "take":
            text = f"took the pack of {before_pile} cards ({format_action(action)})"
        elif verb == "deal":
            text = f"dealt hand {s.deal_no + 1}"
            who = SEAT_NAMES[SEATS[s.dealer]]
        elif verb in ("yes", "no"):
            text = f"answered {verb}"
        elif verb == "ask":
            text = "asked 'Partner, may I go out?'"
        else:
            text = format_action(action).replace("meld ", "melded ").replace("add ", "added ")
            if s.phase in (HAND_OVER, GAME_OVER):
                text += " and went out"
        self._log.append(f"{who} {text}")

    def _greet(self) -> None:
        s = self.state
        if s.phase == GAME_OVER:
            we = s.totals[self.me & 1] > s.totals[1 - (self.me & 1)]
            self._say(("You won the game! " if we else "They won the game. ")
                      + "Click New hand for a new game.", "ok")
        elif s.phase == HAND_OVER:
            r = s.hand_results[-1]
            who = r.went_out
            side = self.me & 1
            head = (f"{self._name(SEATS.index(who)).capitalize()} went out"
                    + (" concealed" if r.concealed else "")) if who else "The stock ran out"
            self._say(f"{head}. This hand: We {r.sides[side].total:+d}, "
                      f"They {r.sides[1 - side].total:+d}. Click New hand.", "ok")
        elif s.actor == self.me:
            if s.phase == "draw":
                self._say("Your turn: draw from the stock or take the pack.", "info")
            elif s.phase == "answer":
                self._say(f"{self._name(s.turn).capitalize()} asks: 'Partner, may I go out?'", "info")

    def _push_undo(self, what: str = "your last action") -> None:
        self._undo.append((self.state.copy(), what))
        del self._undo[:-MAX_UNDO]

    # ------------------------------------------------------------ the view
    def _sync(self) -> None:
        self._rev += 1
        self.view = self.build_view()

    def build_view(self) -> dict:
        """The synced view: the learner's observation, shaped for drawing, plus the UI state."""
        s = self.state
        me = self.me
        obs = observe(s, me)
        side = me & 1
        hand = list(obs.hand)
        self.selected = [i for i in self.selected if i < len(hand)]
        seats = {"bottom": me, "left": (me + 1) % 4, "top": (me + 2) % 4, "right": (me + 3) % 4}
        players = {}
        for pos, seat in seats.items():
            players[pos] = {
                "seat": SEATS[seat], "name": "You" if seat == me else self._name(seat),
                "count": obs.hand_sizes[seat], "active": obs.actor == seat,
                "dealer": obs.dealer == seat,
            }
        melds = []
        for sd in (side, 1 - side):
            out = []
            for k in sorted(obs.melds[sd], key=lambda k: (k == BLACK_THREE, -KIND_VALUES[k], k)):
                cards = list(obs.melds[sd][k])
                nat, wild = obs.meld_summary[sd][k]
                top = s.canasta_top(sd, k)
                out.append({
                    "kind": _tok(k), "name": KIND_NAMES[k], "cards": cards, "n": nat, "w": wild,
                    "canasta": ("mixed" if wild else "natural") if top else None, "top": top,
                    "short": s.one_short(sd, k),
                })
            melds.append(out)
        pile = obs.pile
        frozen_all = obs.freeze_at >= 0
        pile_view = {
            "top": pile[-1] if pile else None, "size": len(pile),
            "freezer": pile[obs.freeze_at] if frozen_all and obs.freeze_at < len(pile) - 1 else None,
            "top_sideways": frozen_all and obs.freeze_at == len(pile) - 1,
            "frozen_all": frozen_all, "frozen_us": obs.frozen_for(side),
            "blocked": bool(pile) and kind_of_code(pile[-1]) in (JOKER, DEUCE, BLACK_THREE, RED_THREE),
        }
        we, they = side, 1 - side
        score = {
            "we": obs.totals[we], "they": obs.totals[they],
            "min_we": obs.minimums[we], "min_they": obs.minimums[they],
            "initial_we": obs.initial[we], "initial_they": obs.initial[they],
            "rows": [[r.deal + 1, r.sides[we].total, r.sides[they].total]
                     for r in obs.hand_results][-8:],
            "pending": obs.pending if obs.turn == me else 0,
        }
        result = None
        if obs.phase in (HAND_OVER, GAME_OVER) and obs.hand_results:
            r = obs.hand_results[-1]
            result = {"went_out": self._name(SEATS.index(r.went_out)) if r.went_out else None,
                      "concealed": r.concealed, "we": r.sides[we].to_dict(), "they": r.sides[they].to_dict(),
                      "game_over": obs.phase == GAME_OVER,
                      "winner": None if obs.phase != GAME_OVER else ("we" if obs.totals[we] > obs.totals[they]
                                                                     else "they")}
        hint = None
        if self._hint is not None:
            st = self._hint["stage"]
            last = st + 1 >= len(self._hint["stages"])
            hint = {"stage": st, "count": len(self._hint["stages"]), "texts": self._hint["stages"][:st + 1],
                    "alternatives": self._hint["alternatives"] if last else [],
                    "principles": self._hint["principles"] if last else []}
        return {
            "rev": self._rev, "seat": SEATS[me], "deal": obs.deal_no if hasattr(obs, "deal_no") else s.deal_no,
            "phase": obs.phase, "actor": SEATS[obs.actor] if obs.actor is not None else None,
            "turn_text": self._turn_text(obs), "players": players, "hand": hand,
            "labels": [card_label(c) for c in hand], "selected": list(self.selected), "melds": melds,
            "red3": [list(obs.red_threes[side]), list(obs.red_threes[1 - side])], "pile": pile_view,
            "stock": obs.stock_size, "score": score, "message": self.message, "message_kind": self.message_kind,
            "buttons": self._buttons(), "choose_meld": self._choose_meld, "hint": hint, "result": result,
            "log": list(self._log)[-8:], "answer_needed": obs.phase == "answer" and obs.actor == me,
        }

    def _turn_text(self, obs: Observation) -> str:
        if obs.phase == GAME_OVER:
            return "Game over"
        if obs.phase == HAND_OVER:
            return "Hand over"
        who = self._name(obs.actor)
        if obs.actor == self.me:
            return {"draw": "Your turn: draw", "meld": "Your turn: meld and discard",
                    "answer": "Your answer"}.get(obs.phase, "Your turn")
        return f"{who.capitalize()} to play"

    def _buttons(self) -> dict:
        s = self.state
        out: dict[str, dict] = {}
        not_mine = self._my_move()
        for b in BUTTONS:
            label = LABELS[b]
            if b == "undo":
                ok = bool(self._undo)
                out[b] = {"ok": ok, "label": label,
                          "title": "Take back your last action" if ok else "Nothing to undo"}
                continue
            if b == "new_hand":
                if s.phase == GAME_OVER:
                    out[b] = {"ok": True, "label": "New game", "title": "Start a new game"}
                else:
                    e = s.explain(("deal",))
                    out[b] = {"ok": e is None, "label": label,
                              "title": "Deal the next hand" if e is None else _refusal(e) + ": finish it first"}
                continue
            if b == "hint":
                out[b] = {"ok": not_mine is None, "label": label,
                          "title": not_mine or "A hint for this position (click again for more)"}
                continue
            if not_mine:
                out[b] = {"ok": False, "label": label, "title": not_mine}
                continue
            if b == "go_out":
                seq, why = (None, "") if s.phase != "meld" else (True, "")
                if s.phase != "meld":
                    why = "[R-TURN-2] Draw from the stock or take the pack first; then go out"
                elif s.answer is False:
                    seq, why = None, "[R-ASK-3] Your partner said no, so you may not go out this turn"
                elif not can_go_out(s.hand_counts(self.me), s.meld_summary(self.me & 1), s.options,
                                    b3_on_table=s.b3_melded):
                    seq, why = None, "[R-OUT-1] You can't meld every card with a canasta for your side"
                out[b] = {"ok": seq is not None, "label": label,
                          "title": "Meld your whole hand and go out" if seq is not None else why}
                continue
            seq, why = self._candidate(b)
            if b == "draw" and seq and seq[0] == ("pass",):
                label = "Pass"
            if seq is None:
                if b == "add" and why == "choose":
                    out[b] = {"ok": True, "label": label, "title": "Choose the meld to add the wild cards to"}
                else:
                    out[b] = {"ok": False, "label": label, "title": why}
                continue
            err = self._check_seq(seq)
            out[b] = {"ok": err is None, "label": label,
                      "title": ("; ".join(format_action(a) for a in seq)) if err is None else _refusal(err)}
        if s.phase == "answer" and s.actor == self.me:
            for b in ("yes", "no"):
                out[b] = {"ok": True, "label": LABELS[b], "title": f"Answer '{b}' [R-ASK-2]"}
        return out


def _num(x: Any) -> float | None:
    try:
        return None if x is None else round(float(x), 2)
    except (TypeError, ValueError):
        return None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


__all__ = ["CanastaTable", "SEAT_NAMES"]
