"""The event log of a table: apply an action and record what the learner sees of it.

:func:`apply_and_record` applies one engine action and appends the typed
events (:mod:`.events`): the action with its text, the red threes it laid out,
and a player going out and the end of the hand.  :func:`log_entries` turns
events into the ``log`` of the table view (one entry per bot turn).  Texts are
written from the learner's seat: "You drew 4♥.", "East melded 7♠ 7♥ JK.".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..actions import format_action
from ..bots.principles import PRINCIPLES
from ..cards import CARD_CODE, CARD_KIND, KIND_NAMES, RED_THREE, sort_key
from ..state import GAME_OVER, HAND_OVER, SEAT_NAMES, SEATS, Action, State
from .events import ActionEvent, Event, HandOverEvent, RedThreeEvent, WentOutEvent
from .view import card_text, plural, seat_name, side_total


def _who(seat: int, me: int) -> str:
    return "You" if seat == me else SEAT_NAMES[seat]


def apply_and_record(state: State, me: int, events: list[Event], seat: int, action: Action,
                     principles: Sequence[str] = ()) -> None:
    """Apply ``action`` of ``seat`` (checked) and append its events; ``me`` is the learner's seat."""
    s = state
    deal = action == ("deal",)
    before = [c for k in s.hands[seat] for c in k]
    reds_before = (0, 0) if deal else (len(s.red3[0]), len(s.red3[1]))
    held = {} if deal else {c: i for i in range(4) for c in s.hands[i][RED_THREE]}
    pile_size = len(s.pile)
    phase = s.phase
    dealer_next = (s.dealer + 1) % 4
    s.apply(action)
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
    event = ActionEvent(index=0, seat=SEATS[seat], text=action_text(s, me, seat, action, left, entered, pile_size),
                        action=tuple(action), notation=format_action(action),
                        cards=tuple(CARD_CODE[c] for c in shown), deal=s.deal_no,
                        commentary=" ".join(PRINCIPLES[p].sentence for p in principles if p in PRINCIPLES),
                        principles=tuple(principles))
    reds: list[Event] = []
    for side in (0, 1):
        for c in s.red3[side][reds_before[side]:]:
            # a dealt red three leaves its holder's hand; one from the stock or the pile goes to the
            # player who drew or took, or to the player whose turn began
            owner = held.get(c, seat if action[0] in ("draw", "take") else s.turn)
            replaced = s.phase not in (HAND_OVER, GAME_OVER) and action[0] != "take"
            reds.append(RedThreeEvent(
                index=0, seat=SEATS[owner], card=CARD_CODE[c], replaced=replaced,
                text=f"{_who(owner, me)} laid out the red three {card_text(CARD_CODE[c])}"
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
    for side in (0, 1):
        for c in state.red3[side]:
            events.append(RedThreeEvent(
                index=len(events), seat=SEATS[state.turn], card=CARD_CODE[c], replaced=True,
                text=f"{_who(state.turn, me)} laid out the red three {card_text(CARD_CODE[c])} "
                     "and drew a replacement."))


def _hand_over_events(s: State, me: int, events: list[Event]) -> None:
    r = s.hand_results[-1]
    side = me & 1
    if s.went_out is not None:
        who = seat_name(s.went_out, me).capitalize()
        events.append(WentOutEvent(index=len(events), seat=SEATS[s.went_out], concealed=s.concealed,
                                   text=f"{who} went out" + (" concealed." if s.concealed else ".")))
    head = "The game is over. " if s.phase == GAME_OVER else ""
    events.append(HandOverEvent(
        index=len(events), seat=None, result=r.to_dict(),
        text=(f"{head}Hand {s.deal_no + 1} is over: We {side_total(r, side):+d}, "
              f"They {side_total(r, 1 - side):+d}.")))


def action_text(state: State, me: int, seat: int, a: Action, left: tuple[int, ...], entered: tuple[int, ...],
                pile: int) -> str:
    """The sentence for one action after it was applied (``left``: cards that left the hand,
    ``entered``: cards that came in, ``pile``: the pile's size before)."""
    who = _who(seat, me)
    verb = a[0]
    cards = " ".join(card_text(CARD_CODE[c]) for c in left)
    if verb == "draw":
        got = [c for c in entered if CARD_KIND[c] != RED_THREE] if seat == me else []
        return f"{who} drew {card_text(CARD_CODE[got[0]])}." if got else f"{who} drew from the stock."
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
        return f"{_who(state.dealer, me)} dealt hand {state.deal_no + 1}."
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


def log_entries(events: Sequence[Event], me: int) -> list[dict[str, Any]]:
    """The view's log from ``events``: ``{"i", "seat", "who", "text", "why", "kind"}``; a bot's actions
    in one turn make one entry (``i`` is the index of its first event), so a whole hand stays small."""
    out: list[dict[str, Any]] = []
    mine = SEATS[me]
    for e in events:
        seat = e.seat
        who = "" if seat is None else ("You" if seat == mine else SEAT_NAMES[SEATS.index(seat)])
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


__all__ = ["action_text", "apply_and_record", "log_entries", "opening_events", "summary", "why"]
