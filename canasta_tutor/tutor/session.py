"""A table session: one learner against bots, driven from Python, tests or a widget.

:class:`TableSession` holds the game state, the learner's seat, the bots (any
policy: a callable from an :class:`~canasta_tutor.engine.observer.Observation` to an
action), undo, the hint and the coach, and a typed event log
(:mod:`canasta_tutor.tutor.events`).  The learner selects physical cards by
their position in the hand and presses buttons; :mod:`.planning` turns that
into the engine's actions, and exactly the selected cards leave the hand.
Bots move only when asked (:meth:`TableSession.step_bots`), so a widget can
pace them.

>>> s = TableSession(seed=11)
>>> s.press("discard")
'[R-TURN-2] Draw from the stock or take the pack before discarding'
>>> s.press("draw")
'You drew 4♥. Meld or add to your melds, then discard.'
>>> s.select([s.index_of("4S"), s.index_of("4C"), s.index_of("JK")])
'Selected: 4♠ 4♣ JK.'
>>> s.press("meld")
'You melded 4♠ 4♣ JK.'
>>> s.undo()
'Undone: meld 4 4 JK.'
>>> s.play("discard 3")
'You discarded 3♣.'
>>> s.step_bots() > 0, s.events[-1].kind
(True, 'action')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..notation.actions import format_action, parse_action
from ..bots import RulesOfThumbBot
from ..engine.cards import ALL_CARD_CODES, CARD_KIND, normalize_code, parse_kind, sort_key
from ..engine.errors import CanastaError, IllegalActionError, NotationError
from ..engine.game import Game
from ..engine.observer import Observation, observe
from ..engine.rulebook import rule as lookup_rule
from ..engine.state import GAME_OVER, HAND_OVER, MELD, Action, State, seat_index
from ..engine.variants import Variant, get_variant
from .events import ActionEvent, Event, RedThreeEvent, RefusedEvent
from .eventlog import ShownEvents, apply_and_record, hand_score_text, log_entries, opening_events, summary
from .hints import BUSY, HintPanel, coach_grade, compute_hint
from .planning import Guidance, Plan, plan_button, plan_join, press_text
from .view import TableUI, build_view, card_text, player_name, plural, seat_name, side_order

Policy = Callable[[Observation], tuple]

PLAY_BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "go_out", "yes", "no", "new_hand")
BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "go_out", "hint", "undo", "new_hand")
LABELS = {
    "draw": "Draw", "take": "Take pack", "meld": "Meld", "add": "Add to…", "discard": "Discard",
    "ask": "Ask partner", "go_out": "Go out", "hint": "Hint", "undo": "Undo", "new_hand": "New hand",
    "yes": "Yes, go out", "no": "No", "join": "Join…",
}
#: Actions after which undo stops: they reveal a card or a hidden hand's judgement.
REVEALING = frozenset(("draw", "take", "pass", "deal", "ask", "yes", "no"))
MAX_UNDO = 100


class TableSession:
    """One learner (``seat``) at a table with a bot in every other seat.

    ``bots``: one policy for all other seats or ``{seat: policy}`` (seats left
    out get :class:`~canasta_tutor.bots.RulesOfThumbBot`).  ``hint_iterations``
    or ``hint_budget`` (seconds) size the hint and coach searches.  ``variant``
    (a name such as ``"two-handed"`` or a :class:`~canasta_tutor.engine.variants.Variant`;
    classic by default) sets the table; a ``game`` or ``state`` given carries its own,
    and a ``variant`` that disagrees with it is refused.
    """

    def __init__(self, seed: int = 0, seat: str | int = "S", bots: Policy | Mapping[str, Policy] | None = None,
                 state: State | None = None, game: Game | None = None, hint_budget: float | None = None,
                 hint_iterations: int | None = None, coach: bool = False, four_colour: bool = False,
                 variant: str | Variant | None = None) -> None:
        self.seed = seed
        wanted = None if variant is None else get_variant(variant)
        if game is None:
            game = Game(variant=wanted or (state.variant if state is not None else get_variant("classic")))
        self.game = game
        self.state = state.copy() if state is not None else self.game.new_initial_state(seed=seed)
        self.variant: Variant = self.state.variant
        for given in (game.variant, wanted):
            if given is not None and given.name != self.variant.name:
                raise ValueError(f"variant {given.name!r} does not match the position's {self.variant.name!r}")
        self.me = seat_index(seat, self.variant.seats)
        self.hint_budget = hint_budget
        self.hint_iterations = hint_iterations
        default = RulesOfThumbBot()
        self.bots: dict[int, Policy] = {}
        for s in range(self.variant.players):
            if s != self.me:
                if bots is None:
                    self.bots[s] = default
                elif callable(bots):
                    self.bots[s] = bots
                else:
                    self.bots[s] = bots.get(self.variant.seats[s], default)
        self.events: list[Event] = []
        self.selected: list[int] = []
        self.message = ""
        self.message_kind = "info"
        self.message_rule: str | None = None
        self.choose_meld = False
        #: what a click on one of the side's melds does while ``choose_meld`` is on: ``add``, ``take`` or
        #: ``join``; and the set picked to join another (Samba, R-SAMBA-5), by its index
        self.choose_for: str | None = None
        self.join_from: int | None = None
        self.coach_on = coach
        #: grade each move at once (True), or leave it in ``coach_pending`` for :meth:`grade_pending`
        #: (a widget grades after it has sent the new table)
        self.coach_inline = True
        #: the learner's observation before a click, the whole line the click played, and the hint the
        #: learner saw there (or None)
        self.coach_pending: tuple[Observation, tuple[Action, ...], Any] | None = None
        self.coach_last: dict[str, Any] | None = None
        self.four_colour = four_colour
        self.rule: dict[str, str] | None = None
        self.hint_busy = False
        self.last_action = "none"
        self.rev = 0
        self.action_rev = 0
        self._hint: HintPanel | None = None
        self._undo: list[tuple[State, int, str]] = []
        self._games = 0
        self._log_start = 0
        self._shown = ShownEvents()
        opening_events(self.state, self.me, self.events)
        self._greet()

    # ------------------------------------------------------------ reading
    def __repr__(self) -> str:
        s = self.state
        return (f"TableSession(seat={self.variant.seats[self.me]!r}, deal={s.deal_no}, phase={s.phase!r}, "
                f"turn={s.current_seat!r})")

    @property
    def observation(self) -> Observation:
        return observe(self.state, self.me)

    def hand_cards(self) -> list[int]:
        """The learner's card ids in display order (the order of ``view["hand"]``)."""
        return sorted((c for k in self.state.hands[self.me] for c in k), key=sort_key)

    def index_of(self, code: str, nth: int = 0) -> int:
        """Position in the hand of the ``nth`` card with this code (``"4C"``, ``"JK"``)."""
        hits = [i for i, c in enumerate(self.hand_cards()) if ALL_CARD_CODES[c] == code]
        if nth >= len(hits):
            raise ValueError(f"no {code!r} (number {nth + 1}) in the hand")
        return hits[nth]

    def status(self) -> str:
        """One stable line about the game."""
        s = self.state
        side, *others = side_order(self.variant, self.me)
        return (f"deal {s.deal_no}, phase {s.phase}, turn {s.current_seat or '-'}; your hand: "
                f"{plural(s.hand_size[self.me], 'card')}; "
                f"melds We {len(s.melds[side])}, They {sum(len(s.melds[o]) for o in others)}; "
                f"last action: {self.last_action}")

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def bot_to_move(self) -> bool:
        """Whether a bot is to act now."""
        s = self.state
        return s.actor is not None and s.actor != self.me and s.phase not in (HAND_OVER, GAME_OVER)

    # ------------------------------------------------------------ messages
    def _say(self, text: str, kind: str = "info", rule: str | None = None) -> str:
        self.message, self.message_kind, self.message_rule = text, kind, rule
        return text

    def _refuse(self, err: IllegalActionError, action: Action = (), press: str = "", lead: bool = True) -> str:
        """Record and show the engine's refusal; ``press`` names the click it answers ("Meld 7♠ 7♣ J♥"),
        which (with ``lead``) then leads the message, so the learner reads the cards they chose, not a
        planner's step."""
        act: Action = action or (err.action if isinstance(err.action, tuple) else ())
        text = f"[{err.rule}] {err.reason}"
        if press and lead:
            text = f"{press}: {text}"
        self.events.append(RefusedEvent(index=len(self.events), seat=self.variant.seats[self.me],
                                        text=text, action=tuple(act), notation=_notation(act), rule=err.rule,
                                        reason=err.reason, press=press))
        return self._say(text, "error", err.rule)

    def refuse(self, err: IllegalActionError, action: Action = (), press: str = "") -> str:
        """Record the engine's refusal ``err`` of the learner's ``action`` (a :class:`RefusedEvent`) and
        show it; returns the message.  For a front end that checks or plans actions itself (lessons);
        ``press`` names the click when the refusal answers one."""
        return self._refuse(err, action, press)

    def _greet(self) -> None:
        s = self.state
        side, *others = side_order(self.variant, self.me)
        if s.phase == GAME_OVER:
            we = s.totals[side] > max(s.totals[o] for o in others)
            self._say(("You won the game! " if we else "They won the game. ") + "Click New hand for a new game.", "ok")
        elif s.phase == HAND_OVER:
            r = s.hand_results[-1] if s.hand_results else s.score_hand()  # a finished hand set up as a position
            who = r.went_out
            head = (f"{_cap(self._name(self.variant.seats.index(who)))} went out"
                    + (" concealed" if r.concealed else "")) if who else "The stock ran out"
            self._say(f"{head}. This hand: {hand_score_text(r, self.me, self.variant)}. Click New hand.", "ok")
        elif s.actor == self.me:
            if s.phase == "draw":
                self._say("Your turn: draw from the stock or take the pack.")
            elif s.phase == "answer":
                self._say(f"{_cap(self._name(s.turn))} asks: 'Partner, may I go out?'")

    def _name(self, seat: int) -> str:
        """A seat as the learner reads it: ``you``, ``North (partner)``, ``West``."""
        return seat_name(seat, self.me, self.variant)

    # ------------------------------------------------------------ selection
    def select(self, indices: Sequence[int]) -> str:
        """Select the cards at these hand positions (replacing the selection)."""
        size = self.state.hand_size[self.me]
        idx = list(indices)
        if not all(type(i) is int and 0 <= i < size for i in idx) or len(set(idx)) != len(idx):
            return self._say("[refused] Select distinct positions of cards in your hand.", "error")
        self.selected = sorted(idx)
        self._unchoose()
        return self._selection_message()

    def toggle(self, index: int) -> str:
        if not (type(index) is int and 0 <= index < self.state.hand_size[self.me]):
            return self._say(f"[refused] No card at position {index!r} in your hand.", "error")
        self.selected = sorted(set(self.selected) ^ {index})
        self._unchoose()
        return self._selection_message()

    def clear(self) -> str:
        self.selected = []
        self._unchoose()
        return self._selection_message()

    def _selection_message(self) -> str:
        hand = self.hand_cards()
        names = [card_text(ALL_CARD_CODES[hand[i]]) for i in self.selected]
        return self._say(f"Selected: {' '.join(names)}." if names else "Nothing selected.")

    def selected_cards(self) -> list[int]:
        hand = self.hand_cards()
        return [hand[i] for i in self.selected if i < len(hand)]

    # ------------------------------------------------------------ the learner plays
    def press(self, button: str, to: str | None = None) -> str:
        """Press a button with the current selection; ``to`` is the meld clicked for ``add``."""
        if button == "undo":
            return self.undo()
        if button == "hint":
            return self.hint()
        if button not in PLAY_BUTTONS:
            return self._say(f"[refused] Unknown button {str(button)[:20]!r}.", "error")
        if button == "new_hand" and self.state.phase == GAME_OVER:
            return self.new_game()
        target = None
        if to is not None:
            try:
                if self.variant.numbered_melds:  # melds named by number (Samba): m1, m2, ...
                    ok = isinstance(to, str) and 2 <= len(to) <= 4 and to[0] == "m" and to[1:].isdigit()
                    target = int(to[1:]) - 1 if ok and int(to[1:]) >= 1 else None
                else:
                    target = parse_kind(to) if isinstance(to, str) and len(to) <= 3 else None
            except CanastaError:
                target = None
            if target is None:
                verb = "put the top card on" if button == "take" else "add to"
                return self._say(f"[refused] {str(to)[:20]!r} is not a meld to {verb}.", "error")
        cards = self.selected_cards()
        seat = self.state.actor if button == "new_hand" and self.state.phase == HAND_OVER else self.me
        outcome = plan_button(self.state, seat if seat is not None else self.me, button, cards, target)
        if isinstance(outcome, IllegalActionError):
            # a press of cards (or Take pack, which means the top card alone when nothing is selected) is
            # answered naming what was selected
            named = bool(cards) or button == "take"
            return self._refuse(outcome, press=press_text(button, cards, target, self.variant.numbered_melds),
                                lead=named)
        if isinstance(outcome, Guidance):
            self.choose_meld = outcome.choose_meld
            self.choose_for = button if outcome.choose_meld else None
            return self._say(outcome.text, "info" if outcome.choose_meld else "error")
        return self._play_plan(outcome, button)

    def _unchoose(self) -> None:
        self.choose_meld = False
        self.choose_for = None
        self.join_from = None

    def _meld_number(self, token: object) -> int | None:
        """Samba's meld token ``m3`` as an index (2), or None."""
        ok = isinstance(token, str) and 2 <= len(token) <= 4 and token[0] == "m" and token[1:].isdigit()
        return int(token[1:]) - 1 if ok and int(token[1:]) >= 1 else None  # type: ignore[index]

    def join(self, meld: str | None = None, source: str | None = None, into: str | None = None) -> str:
        """Join two of the side's sets of one rank (Samba, R-SAMBA-5), in clicks or at once.

        With nothing named it is the Join button: when the engine accepts joining one pair of sets only, that
        join is played, else the learner is asked to click a set.  ``meld`` is a set clicked: first the set
        that moves, then the set it joins (the first clicked again cancels).  ``source`` and ``into`` name
        both at once.
        """
        picked: list[int | None] = []
        for token in (meld, source, into):
            index = None if token is None else self._meld_number(token)
            if token is not None and index is None:
                self._unchoose()
                return self._say(f"[refused] {str(token)[:20]!r} is not a meld to join.", "error")
            picked.append(index)
        clicked, src, dst = picked
        if clicked is not None:
            if self.join_from is None:
                src, dst = clicked, None
            elif clicked == self.join_from:
                self._unchoose()
                return self._say("Join cancelled.")
            else:
                src, dst = self.join_from, clicked
        elif src is None and dst is None:
            src = self.join_from  # the Join button again while a set is picked
        if dst is not None and src is None:
            self._unchoose()
            return self._say("[refused] Name the set to join ('from') as well as the set it joins ('into').",
                             "error")
        outcome = plan_join(self.state, self.me, src, dst)
        if isinstance(outcome, IllegalActionError):
            self._unchoose()
            return self._refuse(outcome)
        if isinstance(outcome, Guidance):
            self.choose_meld, self.choose_for, self.join_from = True, "join", src
            return self._say(outcome.text)
        return self._play_plan(outcome, "join")

    def play(self, text: str) -> str:
        """Play one action typed as text (``'draw'``, ``'meld 4 4 JK'``, ``'discard 3'``) as the learner."""
        action = parse_action(text)
        if action == ("deal",) and self.state.phase == GAME_OVER:
            return self.new_game()
        err = self.state.explain_for(self.me, action) if action != ("deal",) else self.state.explain(action)
        if err is not None:
            return self._refuse(err, action)
        verb = str(action[0])
        return self._play_plan(Plan((action,), self._typed_card(action, text)),
                               {"deal": "new_hand", "pass": "draw"}.get(verb, verb))

    def _typed_card(self, action: Action, text: str) -> tuple[int, ...]:
        """The card a typed discard names with its suit (``discard 4S``), so that card is the one
        laid; ``()`` when the text names a kind only (``discard 4``), and the engine lays one of
        that kind.  In Samba, where a card's suit decides which sequences it extends (R-SAMBA-6),
        naming a suit the hand does not hold is refused rather than laying another card."""
        if action[0] != "discard":
            return ()
        token = text.replace(",", " ").split()[1]
        try:
            code = normalize_code(token)
        except NotationError:
            return ()  # a kind, like '4' or 'T'
        of_kind = self.state.hands[self.me][int(action[1])]
        held = [c for c in of_kind if ALL_CARD_CODES[c] == code]
        if held:
            return (held[-1],)
        if self.variant.numbered_melds and code != "JK":  # a card's suit matters there
            have = ", ".join(dict.fromkeys(card_text(ALL_CARD_CODES[c]) for c in sorted(of_kind, key=sort_key)))
            raise NotationError(f"{text!r}: you hold no {card_text(code)}"
                                + (f"; of that rank you hold {have}" if have else ""))
        return ()

    def _play_plan(self, plan: Plan, button: str) -> str:
        s = self.state
        actor = s.actor if s.actor is not None else self.me
        before_obs = observe(s, self.me) if self.coach_on and actor == self.me else None
        panel = self._hint
        seen = panel.source if panel is not None and panel.start == len(s.history) else None
        if plan.actions and plan.actions[0] == ("deal",):
            self._clear_coach()  # a new hand
        snapshot = (s.copy(), len(self.events), "; ".join(format_action(a) for a in plan.actions))
        self._prefer(actor, plan.cards)
        first = len(self.events)
        for a in plan.actions:
            self._apply(actor, a)
        reveals = any(a[0] in REVEALING for a in plan.actions) or any(
            e.kind != "action" for e in self.events[first:]) or self.state.phase in (HAND_OVER, GAME_OVER)
        if reveals:
            self._undo.clear()
        else:
            self._undo.append(snapshot)
            del self._undo[:-MAX_UNDO]
        self.selected = []
        self._unchoose()
        self.last_action = snapshot[2]
        self._bump(action=True)
        text = self._describe_turn(button, first)
        if plan.note:  # the press did more than its label says: say what
            text = self._say(f"{text} {plan.note}", self.message_kind, self.message_rule)
        self._advance_hint()
        if before_obs is not None and plan.actions and plan.actions[0] != ("deal",):
            self.coach_pending = (before_obs, tuple(plan.actions), seen)  # the whole click, not its first step
            if self.coach_inline:
                self.grade_pending()
        return text

    def _clear_coach(self) -> None:
        """Forget the coach's last grade and any grade waiting (undo, a new hand, a new game)."""
        if self.coach_last is not None or self.coach_pending is not None:
            self.coach_last = None
            self.coach_pending = None
            self._bump()

    def _prefer(self, seat: int, cards: Sequence[int]) -> None:
        """Put the selected cards last in their kind's list: the engine moves cards from the end."""
        hand = self.state.hands[seat]
        for c in cards:
            pile = hand[CARD_KIND[c]]
            if c in pile:
                pile.remove(c)
                pile.append(c)

    def _describe_turn(self, button: str, first: int) -> str:
        s = self.state
        letter = self.variant.seats[self.me]
        mine = [e for e in self.events[first:] if isinstance(e, ActionEvent) and e.seat == letter]
        if s.phase in (HAND_OVER, GAME_OVER):
            self._greet()
            if mine:
                lead = " ".join(e.text for e in mine if e.action[0] != "deal")
                self._say(f"{lead} {self.message}".strip(), "ok")
            return self.message
        if button == "new_hand" or (mine and mine[0].action == ("deal",)):
            return self._say(f"Deal {s.deal_no + 1}: a new hand. "
                             + ("Your turn: draw from the stock or take the pack." if s.actor == self.me else ""),
                             "ok").strip()
        text = summary(mine) if mine else "Done."
        my_reds = [e.text for e in self.events[first:]
                   if isinstance(e, RedThreeEvent) and e.seat == self.variant.seats[self.me]]
        if my_reds:
            text = " ".join(my_reds) + " " + text
        if mine and mine[-1].action == ("ask",):
            ans = [e for e in self.events[first:] if isinstance(e, ActionEvent) and e.action[0] in ("yes", "no")]
            if not ans and self.bot_to_move():
                self.step_bots(1)
                ans = [e for e in self.events[first:] if isinstance(e, ActionEvent) and e.action[0] in ("yes", "no")]
            if ans:
                yes = ans[0].action == ("yes",)
                partner = self.variant.partners(s.turn)[0]
                text += (f" {_cap(self._name(partner))} says "
                         + ("yes: you must go out this turn." if yes else "no: you may not go out this turn."))
        if s.actor == self.me and s.phase == MELD and mine and mine[-1].action[0] in ("draw", "take"):
            text += " Meld or add to your melds, then discard."
        return self._say(text, "ok")

    # ------------------------------------------------------------ applying and events
    def _apply(self, seat: int, action: Action, principles: Sequence[str] = ()) -> None:
        apply_and_record(self.state, self.me, self.events, seat, action, principles)

    def _bump(self, action: bool = False) -> None:
        self.rev += 1
        if action:
            self.action_rev = self.rev

    # ------------------------------------------------------------ bots
    def step_bots(self, max_actions: int = 1) -> int:
        """Let the bots play up to ``max_actions`` actions (stopping at the learner's move or the
        end of the hand); returns how many they played."""
        n = 0
        while n < max_actions and self.bot_to_move():
            seat = self.state.actor
            assert seat is not None
            try:
                action, principles = self._bot_decide(seat)
                err = self.state.explain(action)
            except Exception as exc:  # noqa: BLE001 - a broken bot must not break the table
                self._say(f"{player_name(self.variant, seat)}'s bot failed ({type(exc).__name__}: {exc}).", "error")
                break
            if err is not None:
                self._say(f"{player_name(self.variant, seat)}'s bot tried an illegal move: [{err.rule}] {err.reason}",
                          "error", err.rule)
                break
            self._apply(seat, action, principles)
            self._undo.clear()  # what a bot does may show what it drew
            self._hint = None
            if action == ("deal",):  # a new hand: the last hand's grade is not about this one
                self._clear_coach()
            n += 1
            if not self.bot_to_move():
                self._greet()
        if n:
            self._bump(action=True)
        return n

    def run_bots(self, max_actions: int = 5000) -> int:
        """Let the bots play until it is the learner's move or the hand is over."""
        return self.step_bots(max_actions)

    def _bot_decide(self, seat: int) -> tuple[Action, tuple[str, ...]]:
        """A bot's action, and the principles behind it when the bot says (a ``decide`` method)."""
        bot = self.bots[seat]
        obs = observe(self.state, seat)
        decide = getattr(bot, "decide", None)
        if callable(decide):
            action, principles = decide(obs)
            return tuple(action), tuple(principles)
        return tuple(bot(obs)), ()

    # ------------------------------------------------------------ undo, new hand
    def undo(self) -> str:
        """Take back the learner's last action, never past a draw, a take or anything that showed a card."""
        if not self._undo:
            self._bump()
            return self._say("Nothing to undo: undo stops at your last draw or take.", "error")
        state, n_events, what = self._undo.pop()
        self.state = state
        del self.events[n_events:]
        self.selected = []
        self._unchoose()
        self._hint = None
        self._clear_coach()  # the graded move is taken back
        self.last_action = f"undo ({what})"
        self._bump(action=True)
        return self._say(f"Undone: {what}.", "ok")

    def new_game(self) -> str:
        self._games += 1
        self.state = self.game.new_initial_state(seed=self.seed + 1000 * self._games)
        self._log_start = len(self.events)
        opening_events(self.state, self.me, self.events)
        self._undo.clear()
        self._hint = None
        self._clear_coach()
        self.selected = []
        self._unchoose()
        self.last_action = "new game"
        self._bump(action=True)
        self._greet()
        return self._say("A new game. " + self.message, "ok")

    # ------------------------------------------------------------ hint and coach
    def hint(self) -> str:
        """Compute the hint for this position, or show its next stage."""
        s = self.state
        err = s.explain_for(self.me, ("draw",)) if s.actor != self.me or s.phase in (HAND_OVER, GAME_OVER) else None
        if err is not None:
            return self._refuse(err)
        key = (s.deal_no, len(s.history))
        if self._hint is None or self._hint.key != key:
            self._hint = compute_hint(self.observation, self.hand_cards(), key, len(s.history), seed=self.seed,
                                      budget=self.hint_budget, iterations=self.hint_iterations)
        else:
            self._hint.next_stage()
        self.hint_busy = False
        self._bump(action=True)
        last = self._hint.stage + 1 >= len(self._hint.stages)
        return self._say("Hint: that is the whole explanation." if last else "Hint: click Hint again for more.")

    def _advance_hint(self) -> None:
        h = self._hint
        if h is not None and (not h.follow(self.state.history, (self.state.deal_no, len(self.state.history)))
                              or h.finished):
            self._hint = None

    def set_coach(self, on: bool) -> str:
        self.coach_on = bool(on)
        self._bump()
        return self._say("Coach on: each of your moves is graded after you play it." if on else "Coach off.")

    def grade_pending(self) -> bool:
        """Grade the learner's last move for the coach, if one waits; True if it did."""
        if self.coach_pending is None:
            return False
        obs, line, seen = self.coach_pending
        self.coach_pending = None
        graded = coach_grade(obs, line, seed=self.seed, iterations=self.hint_iterations, budget=self.hint_budget,
                             seen=seen)
        if graded is not None:
            self.coach_last = graded
            self._bump()
        return graded is not None

    # ------------------------------------------------------------ rule book, options
    def show_rule(self, rule_id: str | None) -> str:
        """Show a rule's text (None closes it)."""
        self._bump()
        if rule_id is None:
            self.rule = None
            return self.message
        r = lookup_rule(rule_id) if isinstance(rule_id, str) else None
        if r is None:
            return self._say(f"[refused] {str(rule_id)[:20]!r} is not a rule number in the rule book.", "error")
        self.rule = r.to_dict()
        return self.message

    # ------------------------------------------------------------ intents (from any front end)
    def handle(self, msg: Any) -> str:
        """Check and carry out one intent; return the message shown.  Never raises.

        An intent is ``{"intent": name, ...}`` (``"type"`` is accepted for ``"intent"``), with
        ``"rev"``, the view revision the sender last drew: a play intent from a view older than
        the last change (a double click) is ignored.
        """
        self._bump()
        try:
            return self._dispatch(msg)
        except CanastaError as exc:
            return self._say(f"[refused] {exc}", "error")
        except Exception as exc:  # noqa: BLE001 - a front end must always get an answer
            return self._say(f"[refused] Could not do that: {type(exc).__name__}: {exc}", "error")

    def _dispatch(self, msg: Any) -> str:
        if not isinstance(msg, dict):
            return self._say("[refused] A message must be an object with an 'intent' string.", "error")
        name = msg.get("intent", msg.get("type"))
        if not isinstance(name, str):
            return self._say("[refused] A message must be an object with an 'intent' string.", "error")
        rev = msg.get("rev")
        if rev is not None and type(rev) is not int:
            return self._say("[refused] 'rev' must be an integer.", "error")
        stale = rev is not None and rev < self.action_rev
        if name in PLAY_BUTTONS or name in ("undo", "hint", "play", "join"):
            if stale:
                return self.message  # a repeated or stale click: the table has moved on
            if name == "join":
                return self.join(msg.get("meld"), msg.get("from"), msg.get("into"))
            if name == "play":
                text = msg.get("text")
                if not isinstance(text, str) or len(text) > 100:
                    return self._say("[refused] 'text' must be a short action like 'meld K K K'.", "error")
                return self.play(text)
            take_onto = name == "take" and self.variant.numbered_melds  # onto a meld clicked (R-SAMBA-6)
            return self.press(name, msg.get("to") if name == "add" or take_onto else None)
        if name == "toggle":
            return self.toggle(msg.get("index"))  # type: ignore[arg-type]
        if name == "select":
            idx = msg.get("indices")
            if not isinstance(idx, list):
                return self._say("[refused] 'indices' must list positions of cards in your hand.", "error")
            return self.select(idx)
        if name == "clear":
            return self.clear()
        if name in ("four_colour", "coach"):
            on = msg.get("on")
            if not isinstance(on, bool):
                return self._say("[refused] 'on' must be true or false.", "error")
            if name == "coach":
                return self.set_coach(on)
            self.four_colour = on
            return self.message
        if name == "rule":
            return self.show_rule(msg.get("id"))
        return self._say(f"[refused] Unknown intent {name[:40]!r}.", "error")

    # ------------------------------------------------------------ the view
    def buttons(self) -> dict[str, dict[str, Any]]:
        """What each button would do now, or why not (the engine's reason)."""
        s = self.state
        out: dict[str, dict[str, Any]] = {}
        cards = self.selected_cards()
        mine = s.actor == self.me and s.phase not in (HAND_OVER, GAME_OVER)
        names: tuple[str, ...] = BUTTONS
        if self.variant.numbered_melds:  # two sets of one rank may be joined (Samba, R-SAMBA-5)
            names = BUTTONS[:BUTTONS.index("add") + 1] + ("join",) + BUTTONS[BUTTONS.index("add") + 1:]
        for b in names:
            if b == "ask" and not self.variant.partnerships:
                continue  # each plays alone: nobody to ask (the engine refuses it with the variant's rule)
            label = LABELS[b]
            if b == "undo":
                out[b] = {"ok": self.can_undo, "label": label, "rule": None,
                          "title": "Take back your last action" if self.can_undo
                          else "Nothing to undo: undo stops at your last draw or take"}
                continue
            if b == "hint":
                err = None if mine else s.explain_for(self.me, ("draw",))
                out[b] = _button(err is None, label, "A hint for this position (click again for more)", err)
                continue
            if b == "new_hand" and s.phase == GAME_OVER:
                out[b] = {"ok": True, "label": "New game", "title": "Start a new game", "rule": None}
                continue
            if b == "draw" and s.phase == "draw" and not s.stock and s.pile:
                label = "Pass"
            if b != "new_hand" and not mine:
                err = s.explain_for(self.me, ("draw",))
                out[b] = _button(False, label, "", err)
                continue
            if b == "join":
                if self.join_from is not None:
                    out[b] = _button(True, label, f"Click the set to join m{self.join_from + 1} into", None)
                    continue
                joined = plan_join(s, self.me)
                if isinstance(joined, Plan):
                    out[b] = _button(True, label, format_action(joined.actions[0]), None)
                elif isinstance(joined, Guidance):
                    out[b] = _button(True, label, joined.text.rstrip("."), None)
                else:
                    out[b] = _button(False, label, "", joined)
                continue
            if b == "go_out":  # the engine's check only: the search for the melds runs on the press
                err = s.explain_go_out(self.me)
                out[b] = _button(err is None, label, "Meld your whole hand and go out", err)
                continue
            outcome = plan_button(s, self.me if b != "new_hand" else (s.actor or 0), b, cards)
            if isinstance(outcome, Plan):
                title = ("Deal the next hand" if b == "new_hand"
                         else "; ".join(format_action(a) for a in outcome.actions))
                out[b] = _button(True, label, title, None)
            elif isinstance(outcome, Guidance):
                out[b] = _button(outcome.choose_meld, label, outcome.text.rstrip("."), None)
            else:
                out[b] = _button(False, label, "", outcome)
        if s.phase == "answer" and s.actor == self.me:
            for b in ("yes", "no"):
                out[b] = {"ok": True, "label": LABELS[b], "title": f"Answer '{b}'", "rule": None}
        return out

    def hint_view(self) -> dict[str, Any] | None:
        if self.hint_busy:
            return dict(BUSY)
        return None if self._hint is None else self._hint.to_view()

    def log(self) -> list[dict[str, Any]]:
        """The log of the current hand (see :mod:`.view`), from the events.  A bot's actions in one
        turn make one entry (``i`` is the index of its first event), and only the last few refusals
        are shown (:class:`~.eventlog.ShownEvents`; the events keep them all), so a whole hand stays small."""
        return log_entries(self._shown(self.events, self._log_start), self.me, self.variant)

    def view(self) -> dict[str, Any]:
        """The view model for the learner (see :mod:`canasta_tutor.tutor.view`)."""
        ui = TableUI(rev=self.rev, selected=list(self.selected), message=self.message,
                     message_kind=self.message_kind, message_rule=self.message_rule, buttons=self.buttons(),
                     choose_meld=self.choose_meld, choose_for=self.choose_for,
                     join_from=None if self.join_from is None else f"m{self.join_from + 1}",
                     hint=self.hint_view(), rule=self.rule,
                     coach={"on": self.coach_on, "last": self.coach_last}, log=self.log(),
                     four_colour=self.four_colour)
        return build_view(self.observation, ui)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _button(ok: bool, label: str, title: str, err: IllegalActionError | None) -> dict[str, Any]:
    if err is not None:
        return {"ok": False, "label": label, "title": f"[{err.rule}] {err.reason}", "rule": err.rule}
    return {"ok": ok, "label": label, "title": title, "rule": None}


def _notation(action: Any) -> str:
    try:
        return format_action(action) if action else ""
    except Exception:  # noqa: BLE001 - a malformed action has no notation
        return ""


__all__ = ["TableSession", "Policy", "BUTTONS", "PLAY_BUTTONS", "LABELS", "REVEALING"]
