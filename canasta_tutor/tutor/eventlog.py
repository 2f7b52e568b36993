"""The event log of a table: apply an action and record what the learner sees of it.

:func:`apply_and_record` applies one engine action and appends the typed
events (:mod:`.events`): the action with its text, the red threes it laid out,
and a player going out and the end of the hand.  :func:`log_entries` turns
events into the ``log`` of the table view (one entry per bot turn).  Texts are
written from the learner's seat: "You drew 4♥.", "East melded 7♠ 7♥ JK.".
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..notation.actions import format_action
from ..bots.principles import PRINCIPLES
from ..engine.cards import ALL_CARD_CODES, CARD_KIND, KIND_NAMES, RED_THREE, sort_key
from ..engine.scoring import HandResult
from ..engine.state import GAME_OVER, HAND_OVER, Action, State
from ..engine.variants import CLASSIC, Variant
from .events import ActionEvent, Event, HandOverEvent, RedThreeEvent, RefusedEvent, WentOutEvent
from .view import card_text, player_name, plural, seat_name, side_order, side_title, side_total

#: how many of the learner's refused actions the view's log shows (the newest); the events keep every one
REFUSALS_SHOWN = 3


def _who(seat: int, me: int, variant: Variant = CLASSIC) -> str:
    return "You" if seat == me else player_name(variant, seat)


def hand_score_text(result: HandResult, me: int, variant: Variant = CLASSIC) -> str:
    """A hand's scores from the learner's side: ``We +120, They -35`` (classic), and in a variant every
    side by its title: ``You (S) +120, North (N) -35``."""
    order = side_order(variant, me)
    if variant.name == CLASSIC.name:
        return f"We {side_total(result, order[0]):+d}, They {side_total(result, order[1]):+d}"
    return ", ".join(f"{side_title(variant, s, i == 0)} {side_total(result, s):+d}" for i, s in enumerate(order))


def apply_and_record(state: State, me: int, events: list[Event], seat: int, action: Action,
                     principles: Sequence[str] = ()) -> None:
    """Apply ``action`` of ``seat`` (checked) and append its events; ``me`` is the learner's seat."""
    s = state
    variant = s.variant
    letters = variant.seats
    deal = action == ("deal",)
    before = [c for k in s.hands[seat] for c in k]
    reds_before = tuple(0 if deal else len(r) for r in s.red3)
    held = {} if deal else {c: i for i in range(variant.players) for c in s.hands[i][RED_THREE]}
    pile_size = len(s.pile)
    phase = s.phase
    dealer_next = (s.dealer + 1) % variant.players
    packet = 0 if deal else s.packet_count(seat)
    s.apply(action)
    packet_taken = packet and not deal and s.packet_count(seat) == 0
    if deal:
        seat = s.dealer if s.dealer == dealer_next else seat
        left: tuple[int, ...] = ()
        entered: tuple[int, ...] = ()
    else:
        after = {c for k in s.hands[seat] for c in k}
        old = set(before)
        left = tuple(sorted((c for c in before if c not in after), key=sort_key))
        entered = tuple(c for k in s.hands[seat] for c in k if c not in old)
    shown = entered if (seat == me and action[0] == "draw") else left
    text = action_text(s, me, seat, action, left, entered, pile_size)
    if packet_taken:  # the seventh card of a canasta: the packet comes into the hand (R-PEN-4)
        text += f" {_who(seat, me, variant)} took up {'your' if seat == me else 'their'} packet of {packet} cards."
    event = ActionEvent(index=0, seat=letters[seat], text=text,
                        action=tuple(action), notation=format_action(action),
                        cards=tuple(ALL_CARD_CODES[c] for c in shown), deal=s.deal_no,
                        commentary=" ".join(PRINCIPLES[p].sentence for p in principles if p in PRINCIPLES),
                        principles=tuple(principles))
    reds: list[Event] = []
    for side in range(variant.n_sides):
        for c in s.red3[side][reds_before[side]:]:
            # a dealt red three leaves its holder's hand; one from the stock or the pile goes to the
            # player who drew or took, or to the player whose turn began
            owner = held.get(c, seat if action[0] in ("draw", "take") else s.turn)
            replaced = s.phase not in (HAND_OVER, GAME_OVER) and action[0] != "take" and not packet_taken
            reds.append(RedThreeEvent(
                index=0, seat=letters[owner], card=ALL_CARD_CODES[c], replaced=replaced,
                text=f"{_who(owner, me, variant)} laid out the red three {card_text(ALL_CARD_CODES[c])}"
                     + (" and drew a replacement." if replaced else ".")))
    # a red three drawn is laid out before the card that replaces it
    for e in (reds + [event] if action[0] == "draw" else [event] + reds):
        events.append(replace(e, index=len(events)))
    if s.phase in (HAND_OVER, GAME_OVER) and phase not in (HAND_OVER, GAME_OVER):
        _hand_over_events(s, me, events)


def opening_events(state: State, me: int, events: list[Event]) -> None:
    """Red threes the first player laid out when a fresh game was dealt."""
    if state.history:
        return
    variant = state.variant
    for side in range(variant.n_sides):
        for c in state.red3[side]:
            events.append(RedThreeEvent(
                index=len(events), seat=variant.seats[state.turn], card=ALL_CARD_CODES[c], replaced=True,
                text=f"{_who(state.turn, me, variant)} laid out the red three {card_text(ALL_CARD_CODES[c])} "
                     "and drew a replacement."))


def _hand_over_events(s: State, me: int, events: list[Event]) -> None:
    r = s.hand_results[-1]
    variant = s.variant
    if s.went_out is not None:
        who = seat_name(s.went_out, me, variant)
        who = who[:1].upper() + who[1:]
        events.append(WentOutEvent(index=len(events), seat=variant.seats[s.went_out], concealed=s.concealed,
                                   text=f"{who} went out" + (" concealed." if s.concealed else ".")))
    head = "The game is over. " if s.phase == GAME_OVER else ""
    events.append(HandOverEvent(
        index=len(events), seat=None, result=r.to_dict(),
        text=f"{head}Hand {s.deal_no + 1} is over: {hand_score_text(r, me, variant)}."))


def action_text(state: State, me: int, seat: int, a: Action, left: tuple[int, ...], entered: tuple[int, ...],
                pile: int) -> str:
    """The sentence for one action after it was applied (``left``: cards that left the hand,
    ``entered``: cards that came in, ``pile``: the pile's size before)."""
    variant = state.variant
    who = _who(seat, me, variant)
    verb = a[0]
    cards = " ".join(card_text(ALL_CARD_CODES[c]) for c in left)
    if verb == "draw":  # one card, or two where the variant draws two (R-TWO-3)
        got = [card_text(ALL_CARD_CODES[c]) for c in entered if CARD_KIND[c] != RED_THREE] if seat == me else []
        return f"{who} drew {' and '.join(got)}." if got else f"{who} drew from the stock."
    if verb == "take":
        return f"{who} took the pack of {plural(pile, 'card')}" + (f" with {cards}." if cards else ".")
    if verb == "meld":
        return f"{who} melded {cards}."
    if verb == "add":
        return f"{who} added {cards} to the {KIND_NAMES[a[1]]}."
    if verb == "discard":
        return f"{who} discarded {cards}."
    if verb == "ask":
        return f"{who} asked 'Partner, may I go out?'"
    if verb in ("yes", "no"):
        return f"{who} answered {verb}."
    if verb == "pass":
        return f"{who} declined the pack."
    if verb == "deal":
        return f"{_who(state.dealer, me, variant)} dealt hand {state.deal_no + 1}."
    return f"{who}: {format_action(a)}."


def why(e: Event) -> str:
    """The why of an event for the log: the titles of a bot's principles (short), else its commentary."""
    if not isinstance(e, ActionEvent):
        return ""
    if e.principles:
        return "; ".join(PRINCIPLES[p].title for p in e.principles if p in PRINCIPLES)
    return e.commentary


def summary(events: Sequence[ActionEvent]) -> str:
    """The learner's own actions of one press in one sentence: melds and additions grouped by meld."""
    if not all(e.action[0] in ("meld", "add") for e in events):
        return " ".join(e.text for e in events)
    groups: dict[int, list[ActionEvent]] = {}
    for e in events:
        groups.setdefault(e.action[1], []).append(e)
    parts = []
    for k, evs in groups.items():
        cards = " ".join(card_text(c) for e in evs for c in e.cards)
        if any(e.action[0] == "meld" for e in evs):
            parts.append(f"melded {cards}")
        else:
            parts.append(f"added {cards} to the {KIND_NAMES[k]}")
    return "You " + ", ".join(parts) + "."


class ShownEvents:
    """The events of the current hand that the view's log shows: every event since the hand's deal but
    the refusals, and the last :data:`REFUSALS_SHOWN` refusals.  ``shown(events, start)`` reads only the
    events added since the last call (the event log only grows, but for an undo, which is noticed and
    read again from ``start``), so a message costs the same after five thousand refusals as after one.
    """

    def __init__(self) -> None:
        self._reset(None, 0)

    def _reset(self, events: list[Event] | None, start: int) -> None:
        self.events, self.start, self.seen = events, start, start
        self.last: Event | None = None
        self.kept: list[tuple[int, Event]] = []
        self.refused: deque[tuple[int, Event]] = deque(maxlen=REFUSALS_SHOWN)

    def __call__(self, events: list[Event], start: int = 0) -> list[Event]:
        n = len(events)
        if (events is not self.events or start != self.start or self.seen > n
                or (self.seen > start and events[self.seen - 1] is not self.last)):
            self._reset(events, start)
        for i in range(self.seen, n):
            e = events[i]
            if isinstance(e, ActionEvent) and e.action == ("deal",):  # a new hand: its log starts here
                self.kept = [(i, e)]
                self.refused.clear()
            elif isinstance(e, RefusedEvent):
                self.refused.append((i, e))
            else:
                self.kept.append((i, e))
        self.seen = n
        self.last = events[n - 1] if n > start else None
        return [e for _, e in heapq.merge(self.kept, self.refused, key=lambda pair: pair[0])]


def log_entries(events: Sequence[Event], me: int, variant: Variant = CLASSIC) -> list[dict[str, Any]]:
    """The view's log from ``events``: ``{"i", "seat", "who", "text", "why", "kind"}``; a bot's actions
    in one turn make one entry (``i`` is the index of its first event), so a whole hand stays small."""
    out: list[dict[str, Any]] = []
    letters = variant.seats
    mine = letters[me]
    for e in events:
        seat = e.seat
        who = "" if seat is None else ("You" if seat == mine else player_name(variant, letters.index(seat)))
        reason = why(e)
        prev = out[-1] if out else None
        if (prev is not None and isinstance(e, ActionEvent) and prev["kind"] == "action" and seat != mine
                and prev["seat"] == seat and e.action[0] not in ("deal", "yes", "no")
                and e.text.startswith(who + " ")):
            prev["text"] = prev["text"].rstrip(".") + ", " + e.text[len(who) + 1:]
            for part in reason.split("; ") if reason else ():
                if part not in prev["why"].split("; "):
                    prev["why"] = f"{prev['why']}; {part}" if prev["why"] else part
            continue
        out.append({"i": e.index, "seat": seat, "who": who, "text": e.text, "why": reason, "kind": e.kind})
    return out


__all__ = ["REFUSALS_SHOWN", "ShownEvents", "action_text", "apply_and_record", "hand_score_text", "log_entries",
           "opening_events", "summary", "why"]
