"""The predicate library of lesson levels: success, failure and generator constraints.

A predicate expression is data from a lesson file: a name (``"pack_taken"``),
a one-key table with an argument (``{"melded_at_least": 50}``), or a
combination (``{"all": [...]}``, ``{"any": [...]}``, ``{"not": ...}``).
:func:`check_expression` validates one without running anything;
:func:`evaluate` reads it against a :class:`Context`: the table now, the table
at the start of the level, the events so far and the learner's seat.

>>> from canasta_tutor.notation.position import parse_position, EXAMPLE
>>> state = parse_position(EXAMPLE)
>>> ctx = Context(state=state, start=state, events=(), seat="S")
>>> evaluate({"all": [{"holds": "9 9"}, {"not": "pack_taken"}]}, ctx)
True
>>> check_expression({"melded_at_least": "fifty"})
["melded_at_least: needs a whole number, not 'fifty'"]
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ...notation.actions import format_action, parse_action
from ...engine.cards import (BLACK_THREE, CARD_KIND, CARD_VALUE, DEUCE, JOKER, KIND_TOKENS, RED_THREE, is_canasta,
                              parse_kind)
from ...engine.errors import NotationError
from ...engine.observer import Observation
from ...engine.state import SEATS, State, seat_index
from ..events import ActionEvent, Event, RedThreeEvent, RefusedEvent, WentOutEvent

RULE_RE = re.compile(r"R-[A-Z]+-\d+")


@dataclass(frozen=True)
class Context:
    """What a predicate reads.  ``events`` are this level's events only."""

    state: State
    start: State
    events: Sequence[Event]
    seat: str
    #: for each learner discard, whether it was safe as far as the learner could see
    #: (:func:`discard_is_safe` on the learner's observation before it)
    safe_discards: tuple[bool, ...] = ()
    #: the learner's accepted actions among ``events``, when the caller keeps them (else found in ``events``)
    learner: tuple[ActionEvent, ...] | None = None

    @property
    def seat_no(self) -> int:
        return seat_index(self.seat, self.state.variant.seats)

    @property
    def side(self) -> int:
        return self.state.variant.sides[self.seat_no]

    def learner_actions(self) -> list[ActionEvent]:
        if self.learner is not None:
            return list(self.learner)
        return [e for e in self.events if isinstance(e, ActionEvent) and e.seat == self.seat]


# ------------------------------------------------------------------ helpers
def _kinds(text: str) -> list[int]:
    """Ranks or card codes, space separated, as kinds (``"K K"``, ``"9H 9"``, ``"JK"``)."""
    return [parse_kind(tok) for tok in text.split()]


def _kind_list(value: Any) -> list[int]:
    if isinstance(value, str):
        return _kinds(value)
    return [k for v in value for k in _kinds(v)]


def _melded_points(state: State, side: int) -> int:
    return sum(CARD_VALUE[c] for m in state.melds[side].values() for part in m for c in part)


def _canastas(state: State, side: int, which: str = "") -> int:
    n = 0
    for nat, wild in state.melds[side].values():
        if is_canasta(len(nat), len(wild)):
            if which == "natural" and wild:
                continue
            if which == "mixed" and not wild:
                continue
            n += 1
    return n


def discard_is_safe(obs: Observation, kind: int) -> bool:
    """Whether discarding a card of ``kind`` is safe, judged only from what the seat of ``obs`` sees.

    Safe means the next player cannot be seen to be able to take the pack with it: a black three
    or a wild card on top blocks the pack for everyone (R-PACK-3).  A natural card is unsafe when
    the pack will be open to the next player (R-FRZ-1, R-FRZ-2) and their side has a meld of its rank
    to add it to (R-PACK-2), or when the next player is known, from a pack they took, to hold a natural
    pair of it (R-PACK-4), or one of it and a wild card while the pack is open (R-PACK-2).  Hidden cards
    never count: the observation holds none.
    """
    if kind in (BLACK_THREE, JOKER, DEUCE, RED_THREE):
        return True
    nxt = (obs.seat + 1) % 4
    side = nxt & 1
    known = obs.known[nxt]
    if known[kind] >= 2:
        return False
    open_to_them = not obs.frozen_for(side)
    if open_to_them and (kind in obs.meld_summary[side] or (known[kind] >= 1 and known[JOKER] + known[DEUCE] >= 1)):
        return False
    return True


def _top_kind(state: State) -> int | None:
    return CARD_KIND[state.pile[-1]] if state.pile else None


# ------------------------------------------------------------ the predicates
def p_pack_taken(ctx: Context, arg: Any) -> bool:
    return any(e.action[:1] == ("take",) for e in ctx.learner_actions())


def p_initial_meld_made(ctx: Context, arg: Any) -> bool:
    return bool(ctx.state.initial[ctx.side]) and not ctx.start.initial[ctx.side]


def p_opened(ctx: Context, arg: Any) -> bool:
    return bool(ctx.state.initial[ctx.side])


def p_canasta_completed(ctx: Context, arg: Any) -> bool:
    return _canastas(ctx.state, ctx.side) > _canastas(ctx.start, ctx.side)


def p_natural_canasta_completed(ctx: Context, arg: Any) -> bool:
    return _canastas(ctx.state, ctx.side, "natural") > _canastas(ctx.start, ctx.side, "natural")


def p_mixed_canasta_completed(ctx: Context, arg: Any) -> bool:
    return _canastas(ctx.state, ctx.side, "mixed") > _canastas(ctx.start, ctx.side, "mixed")


def p_went_out(ctx: Context, arg: Any) -> bool:
    return any(isinstance(e, WentOutEvent) and e.seat == ctx.seat for e in ctx.events)


def p_went_out_concealed(ctx: Context, arg: Any) -> bool:
    return any(isinstance(e, WentOutEvent) and e.seat == ctx.seat and e.concealed for e in ctx.events)


def p_pack_frozen(ctx: Context, arg: Any) -> bool:
    return bool(ctx.state.frozen_for(ctx.side))


def p_pile_frozen_by_wild(ctx: Context, arg: Any) -> bool:
    return any(CARD_KIND[c] in (JOKER, DEUCE, RED_THREE) for c in ctx.state.pile)


def p_pack_unfrozen(ctx: Context, arg: Any) -> bool:
    return bool(ctx.start.frozen_for(ctx.side)) and not ctx.state.frozen_for(ctx.side)


def p_can_take_pack(ctx: Context, arg: Any) -> bool:
    s = ctx.state
    if s.actor != ctx.seat_no:
        return False
    return any(a[0] == "take" for a in s.legal_actions())


def p_melded_at_least(ctx: Context, arg: Any) -> bool:
    return _melded_points(ctx.state, ctx.side) - _melded_points(ctx.start, ctx.side) >= int(arg)


def p_discarded_safe(ctx: Context, arg: Any) -> bool:
    return any(ctx.safe_discards)


def p_turn_ended(ctx: Context, arg: Any) -> bool:
    if ctx.state.phase in ("hand_over", "game_over"):
        return True
    return any(e.action[:1] == ("discard",) for e in ctx.learner_actions())


def p_refused(ctx: Context, arg: Any) -> bool:
    for e in ctx.events:
        if isinstance(e, RefusedEvent) and e.seat == ctx.seat and (arg is True or e.rule == arg):
            return True
    return False


def p_played(ctx: Context, arg: Any) -> bool:
    want = parse_action(str(arg))
    return any(e.action == want for e in ctx.learner_actions())


def p_discarded(ctx: Context, arg: Any) -> bool:
    kinds = set(_kinds(str(arg)))
    return any(e.action[:1] == ("discard",) and e.action[1] in kinds for e in ctx.learner_actions())


def p_asked_partner(ctx: Context, arg: Any) -> bool:
    return any(e.action == ("ask",) for e in ctx.learner_actions())


def p_answered(ctx: Context, arg: Any) -> bool:
    partner = SEATS[(ctx.seat_no + 2) % 4]
    want = (str(arg).lower(),)
    asked = False
    for e in ctx.events:
        if isinstance(e, ActionEvent):
            if e.seat == ctx.seat and e.action == ("ask",):
                asked = True
            elif asked and e.seat == partner and e.action == want:
                return True
    return False


def p_red_three_laid(ctx: Context, arg: Any) -> bool:
    return any(isinstance(e, RedThreeEvent) and e.seat is not None and seat_index(e.seat) % 2 == ctx.side
               for e in ctx.events) or len(ctx.state.red3[ctx.side]) > len(ctx.start.red3[ctx.side])


def p_meld_of(ctx: Context, arg: Any) -> bool:
    return all(k in ctx.state.melds[ctx.side] for k in _kinds(str(arg)))


def p_holds(ctx: Context, arg: Any) -> bool:
    hand = ctx.state.hands[ctx.seat_no]
    need: dict[int, int] = {}
    for k in _kinds(str(arg)):
        need[k] = need.get(k, 0) + 1
    return all(len(hand[k]) >= n for k, n in need.items())


def p_holds_of_top(ctx: Context, arg: Any) -> bool:
    top = _top_kind(ctx.state)
    if top is None or top in (JOKER, DEUCE) or top == RED_THREE:
        return False
    return len(ctx.state.hands[ctx.seat_no][top]) == int(arg)


def p_top_is(ctx: Context, arg: Any) -> bool:
    top = _top_kind(ctx.state)
    return top is not None and top in _kind_list(arg)


def p_hand_over(ctx: Context, arg: Any) -> bool:
    return ctx.state.phase in ("hand_over", "game_over")


# ------------------------------------------------------------- the registry
def _check_int(arg: Any) -> str | None:
    if type(arg) is not int or arg < 0:  # noqa: E721 - bool is not a count
        return f"needs a whole number, not {arg!r}"
    return None


def _check_kinds(arg: Any) -> str | None:
    if not isinstance(arg, str) or not arg.split():
        return f"needs ranks as text like \"K K\", not {arg!r}"
    try:
        _kinds(arg)
    except (NotationError, ValueError) as e:
        return str(e)
    return None


def _check_kind_list(arg: Any) -> str | None:
    if isinstance(arg, list) and arg and all(isinstance(a, str) for a in arg):
        for a in arg:
            err = _check_kinds(a)
            if err:
                return err
        return None
    return _check_kinds(arg)


def _check_rule(arg: Any) -> str | None:
    if arg is True:
        return None
    if not isinstance(arg, str) or not RULE_RE.fullmatch(arg):
        return f"needs a rule number like \"R-PACK-4\", not {arg!r}"
    return None


def _check_action(arg: Any) -> str | None:
    if not isinstance(arg, str):
        return f"needs an action as text like \"take 9 9 9\", not {arg!r}"
    if "{" in arg:  # a generated level's variable, filled in per seed
        return None
    try:
        format_action(parse_action(arg))
    except NotationError as e:
        return e.message
    return None


def _check_answer(arg: Any) -> str | None:
    if arg not in ("yes", "no"):
        return f"needs \"yes\" or \"no\", not {arg!r}"
    return None


@dataclass(frozen=True)
class Predicate:
    """One predicate: its function, whether it takes an argument, and whether it reads only the position."""

    name: str
    fn: Callable[[Context, Any], bool]
    check_arg: Callable[[Any], str | None] | None = None  # None: the predicate takes no argument
    position_only: bool = False


PREDICATES: dict[str, Predicate] = {p.name: p for p in (
    Predicate("pack_taken", p_pack_taken),
    Predicate("initial_meld_made", p_initial_meld_made, position_only=True),
    Predicate("opened", p_opened, position_only=True),
    Predicate("canasta_completed", p_canasta_completed, position_only=True),
    Predicate("natural_canasta_completed", p_natural_canasta_completed, position_only=True),
    Predicate("mixed_canasta_completed", p_mixed_canasta_completed, position_only=True),
    Predicate("went_out", p_went_out),
    Predicate("went_out_concealed", p_went_out_concealed),
    Predicate("pack_frozen", p_pack_frozen, position_only=True),
    Predicate("pile_frozen_by_wild", p_pile_frozen_by_wild, position_only=True),
    Predicate("pack_unfrozen", p_pack_unfrozen, position_only=True),
    Predicate("can_take_pack", p_can_take_pack, position_only=True),
    Predicate("melded_at_least", p_melded_at_least, _check_int, position_only=True),
    Predicate("discarded_safe", p_discarded_safe),
    Predicate("turn_ended", p_turn_ended),
    Predicate("refused", p_refused, _check_rule),
    Predicate("played", p_played, _check_action),
    Predicate("discarded", p_discarded, _check_kinds),
    Predicate("asked_partner", p_asked_partner),
    Predicate("answered", p_answered, _check_answer),
    Predicate("red_three_laid", p_red_three_laid),
    Predicate("meld_of", p_meld_of, _check_kinds, position_only=True),
    Predicate("holds", p_holds, _check_kinds, position_only=True),
    Predicate("holds_of_top", p_holds_of_top, _check_int, position_only=True),
    Predicate("top_is", p_top_is, _check_kind_list, position_only=True),
    Predicate("hand_over", p_hand_over, position_only=True),
)}

COMBINATORS = ("all", "any", "not")


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, list(PREDICATES) + list(COMBINATORS), n=1)
    return f"unknown predicate {name!r}" + (f" (did you mean {close[0]!r}?)" if close else
                                            " (the predicates are listed in lessons/FORMAT.md)")


def check_expression(expr: Any, position_only: bool = False, where: str = "") -> list[str]:
    """Problems with a predicate expression, each as ``"path: message"`` (empty when it is fine)."""
    prefix = f"{where}: " if where else ""
    if isinstance(expr, str):
        pred = PREDICATES.get(expr)
        if pred is None:
            if expr in COMBINATORS:
                return [f"{prefix}{expr!r} combines predicates: write {{ {expr} = [...] }}"]
            return [f"{prefix}{_unknown(expr)}"]
        if pred.check_arg is not None and expr != "refused":
            return [f"{prefix}{expr!r} needs an argument: write {{ {expr} = ... }}"]
        if position_only and not pred.position_only:
            return [f"{prefix}{expr!r} reads the events of play; a constraint may read only the position"]
        return []
    if not isinstance(expr, dict) or len(expr) != 1:
        return [f"{prefix}a predicate is a name or a table with one key, not {expr!r}"[:200]]
    (name, arg), = expr.items()
    here = f"{where}.{name}" if where else name
    if name in ("all", "any"):
        if not isinstance(arg, list) or not arg:
            return [f"{here}: needs a list of predicates"]
        out: list[str] = []
        for i, sub in enumerate(arg):
            out += check_expression(sub, position_only, f"{here}[{i}]")
        return out
    if name == "not":
        return check_expression(arg, position_only, here)
    pred = PREDICATES.get(name)
    if pred is None:
        return [f"{here}: {_unknown(name)}"]
    if pred.check_arg is None:
        return [f"{here}: {name!r} takes no argument: write it as the name alone"]
    if position_only and not pred.position_only:
        return [f"{here}: {name!r} reads the events of play; a constraint may read only the position"]
    err = pred.check_arg(arg)
    return [f"{here}: {err}"] if err else []


def evaluate(expr: Any, ctx: Context) -> bool:
    """Evaluate a (checked) predicate expression."""
    if isinstance(expr, str):
        return PREDICATES[expr].fn(ctx, True)
    (name, arg), = expr.items()
    if name == "all":
        return all(evaluate(e, ctx) for e in arg)
    if name == "any":
        return any(evaluate(e, ctx) for e in arg)
    if name == "not":
        return not evaluate(arg, ctx)
    return PREDICATES[name].fn(ctx, arg)


def rules_in(expr: Any) -> list[str]:
    """The rule numbers a predicate expression names (in ``refused``)."""
    if isinstance(expr, str):
        return []
    if isinstance(expr, dict):
        out: list[str] = []
        for name, arg in expr.items():
            if name in ("all", "any") and isinstance(arg, list):
                for e in arg:
                    out += rules_in(e)
            elif name == "not":
                out += rules_in(arg)
            elif name == "refused" and isinstance(arg, str):
                out.append(arg)
        return out
    return []


def mentions(expr: Any, name: str) -> bool:
    """Whether a predicate expression uses the predicate ``name`` anywhere."""
    if isinstance(expr, str):
        return expr == name
    if isinstance(expr, dict):
        for key, arg in expr.items():
            if key == name:
                return True
            if key in ("all", "any") and isinstance(arg, list) and any(mentions(e, name) for e in arg):
                return True
            if key == "not" and mentions(arg, name):
                return True
    return False


__all__ = ["Context", "Predicate", "PREDICATES", "COMBINATORS", "check_expression", "evaluate", "rules_in",
           "mentions", "RULE_RE", "KIND_TOKENS"]
