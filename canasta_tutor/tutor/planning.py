"""Turn planning: from the cards a learner selected to the engine's actions.

The learner picks physical cards (with suits) and presses a button.  The
planner turns that into the engine's action sequence, or into the engine's own
refusal (:class:`~canasta_tutor.engine.errors.IllegalActionError`, found by
:meth:`State.explain` on a trial copy), or into :class:`Guidance` when the
learner must still choose something (select a card, click a meld).  It never
writes rule text of its own.

>>> from canasta_tutor import Game
>>> from canasta_tutor.engine.cards import parse_card
>>> state = Game().new_initial_state(seed=11)
>>> err = plan_button(state, 2, "discard", [parse_card("4C")])
>>> err.rule, err.reason
('R-TURN-2', 'Draw from the stock or take the pack before discarding')
>>> plan_button(state, 2, "draw", []).actions
(('draw',),)

In Samba (:mod:`canasta_tutor.engine.samba`) a press makes one meld at a time, a set or a sequence, and
``target`` is the number of the meld clicked (0 for m1), since a side may have several melds of a rank.

The plan is the same at every table: where the variant draws two cards (two-handed, R-TWO-3) the
engine's one ``draw`` takes both, and a player's side is the variant's (``state.sides``).

>>> two = Game(variant="two-handed").new_initial_state(seed=5)
>>> me = two.variant.seats.index("S")
>>> before = two.hand_size[me]
>>> for action in plan_button(two, me, "draw", []).actions:
...     two.apply(action)
>>> two.hand_size[me] - before
2
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine.cards import ALL_CARD_CODES, CARD_KIND, DEUCE, JOKER, KIND_NAMES, sort_key
from ..engine.samba import CARD_SUIT
from ..notation.actions import format_action
from ..engine.errors import IllegalActionError
from ..engine.state import DRAW, GAME_OVER, HAND_OVER, MELD, Action, State

WILDS = (JOKER, DEUCE)
BUTTONS = ("draw", "take", "meld", "add", "discard", "ask", "go_out", "yes", "no", "new_hand")
GO_OUT_NODES = 20000
_MAX_ASSIGNMENTS = 256


@dataclass(frozen=True)
class Plan:
    """The engine actions for one button press; ``cards`` are the selected card ids that move.

    ``note`` says what the press did beyond its button's label, in the engine's words where a rule
    is why (Meld on a rank the side has melded adds the cards, R-MELD-7; Go out plays the whole
    turn); empty when the press did just what its label says."""

    actions: tuple[Action, ...]
    cards: tuple[int, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Guidance:
    """Not a refusal: the learner must do something first (``choose_meld``: click a meld)."""

    text: str
    choose_meld: bool = False


Outcome = Plan | IllegalActionError | Guidance

#: a button's word in the sentence that names a press ("Take pack with 9♠ 9♥")
PRESS_WORDS = {"draw": "Draw", "take": "Take pack", "meld": "Meld", "add": "Add", "discard": "Discard",
               "ask": "Ask partner", "go_out": "Go out", "yes": "Yes", "no": "No", "new_hand": "New hand",
               "join": "Join"}


def press_text(button: str, cards: Sequence[int] = (), target: int | None = None, numbered: bool = False) -> str:
    """The learner's press as the learner made it: the button and the cards selected, never the
    actions a planner made of it ("Take pack with 9♠ 9♥", "Meld 7♠ 7♣ J♥", "Take pack, nothing
    selected", "Go out").  ``target`` is the meld clicked (its kind, or in Samba its number).

    >>> from canasta_tutor.engine.cards import parse_card
    >>> press_text("meld", [parse_card(c) for c in ("7S", "7C", "JH")])
    'Meld 7♠ 7♣ J♥'
    >>> press_text("take"), press_text("take", [parse_card("9S"), parse_card("9H")])
    ('Take pack, nothing selected', 'Take pack with 9♠ 9♥')
    >>> from canasta_tutor.engine.cards import parse_kind
    >>> press_text("add", [parse_card("2C")], target=parse_kind("K"))
    'Add 2♣ to the kings'
    """
    from .view import card_text

    word = PRESS_WORDS.get(button, button[:20].capitalize())
    names = " ".join(card_text(ALL_CARD_CODES[c]) for c in sorted(cards, key=sort_key))
    onto = ""
    if target is not None:
        onto = f" to m{target + 1}" if numbered else f" to the {KIND_NAMES[target]}"
        if button == "take":
            onto = f" onto m{target + 1}" if numbered else f" onto the {KIND_NAMES[target]}"
    if button in ("take", "meld", "add", "discard") and not names:
        return f"{word}{onto}, nothing selected"
    if button == "take" and names:
        return f"{word}{onto} with {names}"
    return f"{word} {names}{onto}".replace("  ", " ").strip() if names else word + onto


def check_sequence(state: State, actions: Sequence[Action]) -> IllegalActionError | None:
    """The engine's refusal of the first action of ``actions`` that would be illegal, played in order."""
    trial = state.copy()
    for a in actions:
        err = trial.explain(a)
        if err is not None:
            return err
        trial.apply_unchecked(a)
    return None


def turn_refusal(state: State, seat: int, action: Action) -> IllegalActionError | None:
    """The engine's refusal of ``action`` by ``seat``: not its turn, or :meth:`State.explain`."""
    return state.explain_for(seat, action)


def plan_button(state: State, seat: int, button: str, cards: Sequence[int], target: int | None = None,
                step_by_step: bool = False) -> Outcome:
    """Plan one button press of ``seat`` with the selected physical ``cards`` (card ids).

    ``target`` is the kind of the meld clicked for ``add``.  The result is a
    :class:`Plan` whose every action the engine accepts in order, the engine's
    refusal, or :class:`Guidance`.  The press means what was selected: every selected card is
    used or the press is refused, and a refusal is the engine's for the learner's own cards.

    ``step_by_step``: a button does only what its label says (a lesson that teaches the step):
    Meld on a rank the side has melded is the meld the engine refuses (R-MELD-7), not additions.
    """
    cards = tuple(cards)
    kinds = [CARD_KIND[c] for c in cards]
    if button == "new_hand":
        return _checked(state, [("deal",)], ())
    if state.variant.numbered_melds and button in ("take", "meld", "add"):
        err = turn_refusal(state, seat, _probe_action(state, button, kinds))
        if err is not None and (err.rule == "R-TURN-1" or state.phase in (HAND_OVER, GAME_OVER)):
            return err
        return _plan_listed(state, seat, button, cards, target)
    probe = _probe_action(state, button, kinds)
    err = turn_refusal(state, seat, probe)
    if err is not None and (err.rule == "R-TURN-1" or state.phase in (HAND_OVER, GAME_OVER)):
        return err
    if button == "draw":
        return _checked(state, [probe], ())
    if button in ("ask", "yes", "no"):
        return _checked(state, [(button,)], ())
    if button == "discard":
        if len(kinds) != 1:
            if err is not None and state.phase != MELD:
                return err
            return Guidance("Select exactly one card to discard.")
        return _checked(state, [("discard", kinds[0])], cards)
    if button == "take":
        return _plan_take(state, seat, cards, kinds)
    if button == "meld":
        if not kinds:
            return Guidance("Select the cards to meld first.")
        return _plan_meld(state, seat, kinds, cards, step_by_step)
    if button == "add":
        return _plan_add(state, seat, cards, kinds, target)
    if button == "go_out":
        return plan_go_out(state, seat)
    return Guidance(f"Unknown button {button[:20]!r}.")


def _plan_meld(state: State, seat: int, kinds: list[int], cards: tuple[int, ...], step_by_step: bool) -> Outcome:
    """Meld the selection: one meld per rank (several ranks make several melds, R-MELD-6).  Cards that
    cannot make their melds are refused for the selection as a whole: several ranks that are not each a
    meld are "not one meld" (R-MELD-1), never a meld of some of the cards with the others dropped."""
    outcome = _best_of(state, _meld_candidates(state, seat, kinds, step_by_step), cards)
    if isinstance(outcome, IllegalActionError):
        group = state.explain_one_meld(kinds)
        if group is not None and outcome.rule in ("R-MELD-1", "R-MELD-2", "R-MELD-3", "R-MELD-6"):
            # the refused step is kept as its action: a log replays it into the same refusal's rule
            return IllegalActionError(group.rule, group.reason, outcome.action)
        return outcome
    if isinstance(outcome, Plan):
        # a rank the side has melded: Meld added the cards to it; say so with the engine's reason
        own = state.melds[state.sides[seat]]
        added = sorted({a[1] for a in outcome.actions if a[0] == "add" and a[1] in own})
        notes = []
        for k in added:
            nat = sum(1 for x in kinds if x == k)
            err = state.explain(("meld", k, *_three(nat, kinds.count(JOKER), kinds.count(DEUCE))))
            if err is not None and err.rule == "R-MELD-7":
                notes.append(f"Meld added the cards to your meld, as the rules ask: {_lower(err.reason)} "
                             f"[{err.rule}].")
        if notes:
            return Plan(outcome.actions, outcome.cards, " ".join(notes))
    return outcome


def _three(n: int, j: int, d: int) -> tuple[int, int, int]:
    """The first three cards of a new meld of ``n`` naturals and wild cards (R-MELD-6's steps)."""
    if n >= 3 or not (j or d):
        return (min(n, 3), 0, 0)
    return (n, min(j, 3 - n), min(d, max(0, 3 - n - j)))


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _probe_action(state: State, button: str, kinds: list[int]) -> Action:
    if button == "draw":
        return ("pass",) if state.phase == DRAW and not state.stock and state.pile else ("draw",)
    if button == "discard":
        return ("discard", kinds[0] if kinds else 0)
    if button in ("ask", "yes", "no"):
        return (button,)
    if button == "take":
        top = CARD_KIND[state.pile[-1]] if state.pile else 0
        return ("take", top, 2, 0, 0)
    return ("discard", 0) if state.phase != DRAW else ("draw",)


def _checked(state: State, actions: list[Action], cards: tuple[int, ...]) -> Outcome:
    err = check_sequence(state, actions)
    return err if err is not None else Plan(tuple(actions), cards)


def _best_of(state: State, candidates: Iterator[list[Action]], cards: tuple[int, ...]) -> Outcome:
    """The first candidate sequence the engine accepts, else the first candidate's refusal."""
    first: IllegalActionError | None = None
    for seq in itertools.islice(candidates, _MAX_ASSIGNMENTS):
        err = check_sequence(state, seq)
        if err is None:
            return Plan(tuple(seq), cards)
        first = first or err
    return first if first is not None else Guidance("Select the cards to meld first.")


# ----------------------------------------------------------------- melds
def kind_sequence(state: State, side: int, k: int, n: int, j: int, d: int, step_by_step: bool = False) -> list[Action]:
    """Actions that put ``n`` naturals of kind ``k``, ``j`` jokers and ``d`` deuces down on one meld:
    additions to the side's meld, or a new three-card meld and then additions (``step_by_step``: a
    new meld even where the side has one, which the engine refuses)."""
    seq: list[Action] = []
    if step_by_step or k not in state.melds[side]:
        if n >= 3:
            base = (3, 0, 0)
        elif n == 2 and j:
            base = (2, 1, 0)
        elif n == 2 and d:
            base = (2, 0, 1)
        else:  # the engine says what is wrong with it
            jj = min(j, max(0, 3 - n))
            base = (n, jj, min(d, max(0, 3 - n - jj)))
        seq.append(("meld", k, *base))
        n, j, d = n - base[0], j - base[1], d - base[2]
    return seq + [("add", k, k)] * n + [("add", k, JOKER)] * j + [("add", k, DEUCE)] * d


def wild_meld_sequence(started: bool, wilds: list[int]) -> list[Action]:
    """Actions that put these wild cards on the side's meld of wild cards (R-PEN-7): additions when it is
    started, else a meld of the first three (deuces first) and additions."""
    rest = sorted(wilds, key=lambda w: w != DEUCE)
    seq: list[Action] = []
    if not started:
        first, rest = rest[:3], rest[3:]
        deuces = first.count(DEUCE)
        seq.append(("meld", DEUCE, deuces, len(first) - deuces, 0) if deuces else ("meld", JOKER, 0, len(first), 0))
    return seq + [("add", DEUCE, w) for w in rest]


def _assignments(naturals: list[int], wilds: list[int]) -> Iterator[list[tuple[int, int, int]]]:
    """Every way to share the wild cards out among the natural kinds: (kind, jokers, deuces)."""
    for choice in itertools.product(range(len(naturals)), repeat=len(wilds)):
        out = []
        for i, _k in enumerate(naturals):
            mine = [w for w, c in zip(wilds, choice, strict=True) if c == i]
            out.append((naturals[i], mine.count(JOKER), mine.count(DEUCE)))
        yield out


def _meld_candidates(state: State, seat: int, kinds: list[int], step_by_step: bool = False
                     ) -> Iterator[list[Action]]:
    side = state.sides[seat]
    nat = Counter(k for k in kinds if k not in WILDS)
    wilds = sorted(k for k in kinds if k in WILDS)
    if not nat:
        if state.variant.four_kinds and wilds:
            # wild cards alone are a meld of their own in Pennies from Heaven (R-PEN-7): three to start it,
            # then one at a time
            yield wild_meld_sequence(DEUCE in state.melds[side], wilds)
            return
        if state.variant.deuce_melds and wilds and all(w == DEUCE for w in wilds):
            # deuces alone are a meld of their own rank in Italian Canasta (R-ITAL-6)
            yield kind_sequence(state, side, DEUCE, len(wilds), 0, 0)
            return
        # wild cards alone: the engine's own refusal of such a meld (R-MELD-3), as the notation writes it
        deuces = wilds.count(DEUCE)
        yield [("meld", DEUCE, deuces, len(wilds) - deuces, 0) if deuces else ("meld", JOKER, 0, len(wilds), 0)]
        return
    order = sorted(nat)
    for assignment in _assignments(order, wilds):
        seq: list[Action] = []
        for k, j, d in assignment:
            seq += kind_sequence(state, side, k, nat[k], j, d, step_by_step)
        yield seq


def _plan_add(state: State, seat: int, cards: tuple[int, ...], kinds: list[int], target: int | None) -> Outcome:
    if not kinds:
        return Guidance("Select the cards to add to a meld first.")
    own = state.melds[state.sides[seat]]
    nat = sorted({k for k in kinds if k not in WILDS})
    if target is None:
        if len(nat) == 1:
            target = nat[0]
        elif not nat:
            open_to_wilds = [k for k in own if k < JOKER]
            if len(open_to_wilds) != 1:
                if not open_to_wilds:
                    return _checked(state, [("add", JOKER, kinds[0])], cards)
                return Guidance("Click the meld to add the selected wild cards to.", choose_meld=True)
            target = open_to_wilds[0]
        else:
            if any(k in WILDS for k in kinds):
                return Guidance("Click the meld to add the wild cards to, or add one rank at a time.",
                                choose_meld=True)
            return _checked(state, [("add", k, k) for k in sorted(kinds)], cards)
    ordered = sorted(kinds, key=lambda k: k in WILDS)
    return _checked(state, [("add", target, k) for k in ordered], cards)


# ----------------------------------------------------------------- the pack
def _plan_take(state: State, seat: int, cards: tuple[int, ...], kinds: list[int]) -> Outcome:
    """Take the pack: with nothing selected the cheapest legal take; with a selection the top card's
    naturals and the wild cards go with the top card, other cards are melded (shown first when the
    side has not yet made its initial meld, else after the take)."""
    side = state.sides[seat]
    if not state.pile or CARD_KIND[state.pile[-1]] >= 11:
        return _checked(state, [_probe_action(state, "take", kinds)], ())
    top = CARD_KIND[state.pile[-1]]
    own = state.melds[side]
    if not kinds:
        # nothing selected: no card from the hand, so the top card alone onto the side's meld (R-PACK-2's
        # third way), or the engine's reason why not (no such meld, a frozen pack, R-PACK-7...)
        return _checked(state, [("take", top, 0, 0, 0)], ())
    sel = Counter(kinds)
    n, j, d = sel.pop(top, 0), sel.pop(JOKER, 0), sel.pop(DEUCE, 0)
    others = [k for k in kinds if k not in (top, JOKER, DEUCE)]
    if n == 0 and (j or d) and others:  # the wild cards go with the other cards
        others += [JOKER] * j + [DEUCE] * d
        j = d = 0
    rest: list[Action] = []
    if not state.initial[side]:
        take: Action = ("take", top, n, j, d)
    else:
        open_pack = not state.frozen_for(side)  # (a side down: no wild card in the pile, R-ITAL-4 aside)
        if top in own and open_pack:
            base = (0, 0, 0)
        elif n >= 2:
            base = (2, 0, 0)
        elif n == 1 and j and open_pack:
            base = (1, 1, 0)
        elif n == 1 and d and open_pack:
            base = (1, 0, 1)
        else:
            base = (n, j, d)
        take = ("take", top, *base)
        rest = [("add", top, top)] * (n - base[0]) + [("add", top, JOKER)] * (j - base[1])
        rest += [("add", top, DEUCE)] * (d - base[2])
    options = list(itertools.islice(_meld_candidates(state, seat, others), _MAX_ASSIGNMENTS)) if others else [[]]
    first: IllegalActionError | None = None
    for melds in options:
        seq = melds + [take] if not state.initial[side] else [take] + rest + melds
        err = check_sequence(state, seq)
        if err is None:
            return Plan(tuple(seq), cards)
        first = first or err
    alone = state.explain(take)
    if alone is not None and (alone.rule != "R-PACK-5" or not others):
        return alone  # the engine's reason for refusing the take itself comes first
    assert first is not None
    return first


# ----------------------------------------------------------------- numbered melds (Samba)
def _listed_meld(state: State, seat: int, cards: Sequence[int]) -> list[Action] | Guidance:
    """One new set or sequence (in Bolivia also a meld of wild cards) from the selected cards, then one card at a
    time onto it."""
    naturals = [c for c in cards if CARD_KIND[c] not in WILDS]
    wilds = [CARD_KIND[c] for c in cards if CARD_KIND[c] in WILDS]
    new = len(state.listed_melds(state.sides[seat]))
    ranks = {CARD_KIND[c] for c in naturals}
    if len(ranks) == 1:
        k = ranks.pop()
        n = len(naturals)
        base = (3, 0, 0) if n >= 3 or not wilds else (2, 1, 0) if wilds[0] == JOKER else (2, 0, 1)
        rest = [k] * (n - base[0]) + wilds[base[1] + base[2]:]
        return [("meld", k, *base)] + [("put", new, w) for w in rest]
    if not naturals and state.variant.wild_melds and len(wilds) >= 3:  # a meld of wild cards (R-BOL-2)
        ordered = sorted(wilds, key=lambda w: w != JOKER)
        j = ordered[:3].count(JOKER)
        return [("wild", j, 3 - j)] + [("put", new, w) for w in ordered[3:]]
    suits = {CARD_SUIT[c] for c in naturals}
    if len(suits) == 1 and not wilds and len(naturals) >= 3:
        kinds = sorted(CARD_KIND[c] for c in naturals)
        return [("run", suits.pop(), kinds[0])] + [("put", new, k) for k in kinds[3:]]
    return Guidance("Meld one set, or one sequence of one suit, at a time.")


def _listed_puts(state: State, seat: int, cards: Sequence[int], index: int) -> list[Action]:
    """The selected cards onto meld ``index``, one at a time: a sequence's in the order that extends it,
    a set's naturals before its wild cards."""
    melds = state.listed_melds(state.sides[seat])
    kinds = [CARD_KIND[c] for c in cards]
    if 0 <= index < len(melds) and melds[index].is_sequence:
        m = melds[index]
        below = sorted((k for k in kinds if k < m.kind), reverse=True)
        return [("put", index, k) for k in below + sorted(k for k in kinds if k >= m.kind)]
    return [("put", index, k) for k in sorted(kinds, key=lambda k: k in WILDS)]


def _plan_listed(state: State, seat: int, button: str, cards: tuple[int, ...], target: int | None) -> Outcome:
    side = state.sides[seat]
    melds = state.listed_melds(side)
    if button == "meld":
        if not cards:
            return Guidance("Select the cards to meld first.")
        seq = _listed_meld(state, seat, cards)
        return seq if isinstance(seq, Guidance) else _checked(state, seq, cards)
    if button == "add":
        if not cards:
            return Guidance("Select the cards to add to a meld first.")
        if target is None:
            fits = [i for i in range(len(melds)) if check_sequence(state, _listed_puts(state, seat, cards, i)) is None]
            if len(fits) != 1:
                return Guidance("Click the meld to add the selected cards to.", choose_meld=True)
            target = fits[0]
        return _checked(state, _listed_puts(state, seat, cards, target), cards)
    # take: onto the meld clicked (``target``) the top card alone; with nothing selected the cheapest legal
    # way (the learner clicks the meld when the top card fits several); else the top card's naturals (and
    # wild cards) go with it, other selected cards are shown first (before the initial meld) or melded after
    if target is not None:
        top = CARD_KIND[state.pile[-1]] if state.pile else 0
        on: Action = ("takeon", top, target)
        err = turn_refusal(state, seat, on)
        return err if err is not None else Plan((on,), ())
    legal = [a for a in state.legal_actions() if a[0] in ("take", "takeon")] if state.actor == seat else []
    if not cards:
        if len({a[2] for a in legal if a[0] == "takeon"}) > 1:
            return Guidance("Click the meld to put the pile's top card on, or select a natural pair to take "
                            "the pack with.", choose_meld=True)
        if legal:
            return Plan((min(legal, key=lambda a: (a[0] == "take", a[-1] if a[0] == "take" else 0)),), ())
        top = CARD_KIND[state.pile[-1]] if state.pile else 0
        return _checked(state, [("take", top, 2, 0, 0)], ())
    top = CARD_KIND[state.pile[-1]] if state.pile else 0
    with_top = [c for c in cards if CARD_KIND[c] in (top, JOKER, DEUCE)]
    others = [c for c in cards if c not in with_top]
    count = Counter(CARD_KIND[c] for c in with_top)
    take: Action = ("take", top, count[top], count[JOKER], count[DEUCE])
    wild_after: list[Action] = []
    if state.initial[side] and count[top] >= 2:  # once down, the wild cards follow the take (R-SAMBA-6)
        take = ("take", top, count[top], 0, 0)
        wild_after = [("put", len(melds), w) for w in [JOKER] * count[JOKER] + [DEUCE] * count[DEUCE]]
    if not others:
        return _checked(state, [take, *wild_after], cards)
    shown = _listed_meld(state, seat, others)
    if isinstance(shown, Guidance):
        return shown
    if state.initial[side]:
        after = len(melds) + 1  # the take's set comes first
        shown = [(a[0], after, a[2]) if a[0] == "put" else a for a in shown]
        return _checked(state, [take, *wild_after, *shown], cards)
    return _checked(state, [*shown, take], cards)


def _join_probe(melds: Sequence[object], sets: list[int], source: int | None) -> Action:
    """A join the engine refuses, to show its reason when no join is possible: two melds that are not
    two sets of one rank (or not two melds at all)."""
    if source is None:
        return ("join", sets[0], sets[1]) if len(sets) >= 2 else ("join", 0, 1)
    others = [i for i in sets if i != source] or [i for i in range(len(melds)) if i != source] or [source + 1]
    return ("join", others[0], source)


def plan_join(state: State, seat: int, source: int | None = None, target: int | None = None) -> Outcome:
    """Join set number ``source`` into set ``target`` of the same rank (R-SAMBA-5; 0 for m1).

    Without ``target`` the learner still has to click a set: :class:`Guidance` (or, with neither and
    one pair of sets the engine accepts joined, that join, into the lower number).  When no join is
    possible the engine's refusal of one (the first pair of sets of one rank, else a pair that is not
    one) says why.
    """
    if target is not None and source is not None:
        join: Action = ("join", target, source)
        err = turn_refusal(state, seat, join)
        return err if err is not None else Plan((join,), ())
    if not state.variant.numbered_melds:
        return turn_refusal(state, seat, ("join", 0, 1)) or Guidance(
            "Sets are never joined in this game: a side has one meld of each rank.")
    melds = state.listed_melds(state.sides[seat])
    sets = [i for i, m in enumerate(melds) if not m.is_sequence]
    movers = sets if source is None else [source]
    pairs: list[Action] = [("join", i, i2) for i2 in movers for i in sets
                           if i != i2 and 0 <= i2 < len(melds) and melds[i].kind == melds[i2].kind]
    legal = [a for a in pairs if turn_refusal(state, seat, a) is None]
    if not legal:
        err = turn_refusal(state, seat, pairs[0] if pairs else _join_probe(melds, sets, source))
        return err if err is not None else Guidance("No two sets of one rank can be joined now.")
    if source is None and len({frozenset(a[1:]) for a in legal}) == 1:  # one pair: the higher number moves
        return Plan((max(legal, key=lambda a: a[2]),), ())
    if source is None:
        return Guidance("Click the set to join into another set of its rank.", choose_meld=True)
    return Guidance(f"Click the set to join m{source + 1} into.", choose_meld=True)


# ----------------------------------------------------------------- going out
def plan_go_out(state: State, seat: int) -> Outcome:
    """Meld the whole hand (and discard the last card if one is left): the engine's refusal when going
    out is impossible now, else a sequence found by a small search over legal actions."""
    err = state.explain_go_out(seat)
    if err is not None:
        return err
    side = state.sides[seat]
    seen: set[tuple[object, ...]] = set()
    budget = [GO_OUT_NODES]

    def dfs(st: State, path: list[Action]) -> list[Action] | None:
        if st.went_out == seat and st.phase in (HAND_OVER, GAME_OVER):
            return path
        if st.phase != MELD or st.turn != seat or budget[0] <= 0:
            return None
        key = (tuple(len(k) for k in st.hands[seat]), tuple(sorted(st.meld_summary(side).items())), st.pending,
               tuple(repr(m) for m in st.listed_melds(side)))
        if key in seen:
            return None
        seen.add(key)
        budget[0] -= 1
        acts = st.legal_actions()
        first = [a for a in acts if a[0] in ("meld", "add", "run", "put", "join")]
        first.sort(key=lambda a: (a[0] not in ("meld", "run"), a[-1] in WILDS))
        if st.hand_size[seat] == 1:
            first = [a for a in acts if a[0] == "discard"] + first
        for a in first:
            child = st.copy()
            child.apply_unchecked(a)
            found = dfs(child, path + [a])
            if found:
                return found
        return None

    found = dfs(state.copy(), [])
    if not found:
        return Guidance("No way to go out was found in time: meld your cards one by one.")
    steps = [format_action(a) for a in found]
    note = f"Go out played your whole turn for you, {len(steps)} moves: {', '.join(steps)}." if len(steps) > 1 else ""
    return Plan(tuple(found), tuple(c for k in state.hands[seat] for c in k), note)


__all__ = ["Plan", "Guidance", "Outcome", "plan_button", "press_text", "PRESS_WORDS",
           "plan_go_out", "plan_join", "check_sequence", "kind_sequence",
           "turn_refusal", "BUTTONS"]
