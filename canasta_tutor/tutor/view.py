"""The one table view model: a JSON-ready dict built from an :class:`Observation`.

The live card table (``widgets/table.js``) draws this dict; the static HTML
(:func:`canasta_tutor.tutor.display.state_html`) is rendered from it too.  It holds
public facts and the seat's own cards only: it is built from the seat's
observation, never from the full state.  :func:`build_view` adds the
session's UI state (:class:`TableUI`): selection, message, buttons, hint,
coach, rule text and the log.

The view dict (every key is always present):

``rev`` (int)
    Revision of the view; intents carry the ``rev`` the browser last drew, and
    a stale play intent is ignored.
``seat`` ("N"/"E"/"S"/"W")
    The learner's seat.
``deal`` (int), ``deal_label`` (str)
    0-based deal number and its label, ``"Deal 2"`` (the score sheet's "Hand 2").
``phase`` (str), ``actor`` (seat letter or null), ``turn_text`` (str)
    Engine phase (``draw``, ``meld``, ``answer``, ``hand_over``, ``game_over``),
    who must act (null once a hand or the game is over) and a sentence about it.
``players``
    ``{"bottom"|"left"|"top"|"right": {"seat", "name", "partner", "count", "count_text",
    "active", "dealer", "cards"}}``; ``name`` is ``"You"`` or ``"North"``..., ``partner``
    marks the learner's partner, ``count_text`` is ``"1 card"``/``"5 cards"``,
    ``active`` is false for every seat once the hand is over, ``cards`` is null
    except in the teacher's static view.
``hand`` (list of card codes), ``labels`` (spoken names), ``selected`` (hand indices)
    The learner's hand in display order; indices are positions in ``hand``.
``melds``
    ``[ours, theirs]``, each a list of ``{"kind", "label", "name", "cards", "n",
    "w", "canasta", "top", "short"}``: ``kind`` is the token sent back in
    ``{"intent": "add", "to": kind}``, ``label`` is what to print (``"10"`` for
    tens), ``canasta`` is ``"natural"``, ``"mixed"`` or null, ``top`` the card
    shown on a canasta, ``short`` one card short of a canasta.  In Samba the melds are
    numbered in the order made and each also has ``"number"`` (1, 2, ...) and
    ``"sequence"`` (a bool): ``kind`` is then the meld's token in actions (``"m2"``), a
    sequence's ``label`` is its ranks and suit (``"7\u20139♥"``, with an en dash), its ``cards`` run low to high,
    and a sequence of seven has ``canasta`` ``"samba"``.  In Italian Canasta a meld of deuces has ``kind``
    ``"2"`` and a canasta of seven deuces has ``canasta`` ``"deuces"`` (R-ITAL-6).
``red3``
    ``[ours, theirs]`` lists of card codes.
``pile``
    ``{"top", "size", "down", "freezer", "top_sideways", "frozen_all", "frozen_us", "blocked", "note"}``;
    ``note`` says in words why the pile is frozen or blocked ("" when it is open); ``size`` counts every
    card and ``down`` those lying face down under the turned card in Italian Canasta (R-ITAL-3), never
    named: the table draws card backs for them.
``side_titles``
    ``["We (N-S)", "They (E-W)"]`` (with en dashes) from the learner's side, for the two meld areas.
``stock`` (int)
    Cards left in the stock.
``score``
    ``{"we", "they", "min_we", "min_they", "initial_we", "initial_they",
    "rows": [[deal number (1-based), we, they], ...], "pending"}``.
``result``
    Null during a hand; at its end ``{"went_out" (name or null), "concealed",
    "we", "they" (score breakdown dicts), "game_over", "winner" ("we"/"they"/null)}``.
``message`` (str), ``message_kind`` ("info"/"ok"/"error"), ``message_rule`` (rule id or null)
    The message line; a refusal reads ``"[R-…] reason"`` and names its rule in
    ``message_rule``.
``buttons``
    ``{id: {"ok", "label", "title", "rule"}}`` for ``draw take meld add discard
    ask go_out hint undo new_hand`` (and ``yes``/``no`` when the learner must
    answer); ``title`` says what the button would do or why not, ``rule`` is
    the refusing rule or null.
``answer_needed`` (bool), ``choose_meld`` (bool)
    The learner must answer yes/no; the learner must click a meld for the wild cards.
``log``
    The log of the current hand, oldest first, built from the session's
    events: ``[{"i", "seat", "who", "text", "why", "kind"}]``; ``i`` is the
    event index, ``seat`` a letter or null, ``who`` "You"/"North"/… or "",
    ``kind`` one of ``action``, ``red_three``, ``went_out``, ``hand_over``,
    ``refused``; ``why`` is a bot's reason where known: the titles of the
    strategy principles behind its moves, joined with "; " (the full
    sentences are in the events' ``commentary``).  A bot's actions in one turn
    make one entry.
``hint``
    Null, or ``{"busy", "stage", "count", "texts", "alternatives",
    "principles", "table", "value_words", "cards", "plan", "plan_done"}``: ``texts`` are the
    stages shown so far (the first in plain words), ``table`` the moves compared
    at the last stage as ``[{"action", "verdict", "value", "best"}]`` (the best
    move included) and ``value_words`` what its values are, ``cards`` hand indices to highlight (from the second stage),
    ``plan`` the steps of a multi-step plan and ``plan_done`` how many are
    played.  ``alternatives`` is ``[{"text", "value", "stderr", "why"}]``.
    While a hint is computed, ``{"busy": true}`` with the other keys empty.
``rule``
    Null, or ``{"id", "title", "text"}``: the rule the learner asked to read
    (intent ``{"intent": "rule", "id": "R-FRZ-1"}``).
``coach``
    ``{"on", "last"}``; ``last`` is null or ``{"action", "grade", "loss",
    "best", "text"}`` for the learner's last graded click: ``action`` the whole
    line it played, ``best`` the hint's line it was measured against, ``loss``
    the points lost and ``text`` what they are (null again after undo or on a
    new hand).
``four_colour`` (bool)
    Four-colour deck (also a synced trait of the widget).

A variant's view (two-, three- or six-handed; :mod:`canasta_tutor.engine.variants`) has the same keys
with one entry per seat in ``players`` and one per side in ``melds``, ``red3``, ``side_titles``
and the score rows (the learner's side first, then the others in turn order from the next seat),
and three more keys (a classic view is exactly as above):

``variant`` (str)
    The variant's name (``"two-handed"``...).
``positions``
    The positions of ``players`` in turn order from the learner: ``bottom top`` for two,
    ``bottom left right`` for three, ``bottom bottom-left top-left top top-right bottom-right``
    for six (partners sit opposite).
``sides``
    ``[{"title", "seats", "total", "minimum", "initial"}]`` in the order of ``melds``;
    ``seats`` are the side's seat letters.  ``score["rows"]`` are ``[deal, side 1, side 2, ...]``
    in that order, ``score["they"]`` is the first other side's, and ``result`` adds ``"sides"``,
    the breakdown of every side in that order.

A five-handed view (``variant`` ``"five-handed"``) has one more key:

``sitting_out``
    ``{"name", "playing", "text"}``: the player sitting out this hand, the two playing for the side of three
    (East, then West) and a sentence saying so, shown under the score sheet (R-FIVE-1, R-FIVE-2).

A Samba view (``variant`` ``"samba"``) has two more keys:

``choose_for`` (str or null)
    While ``choose_meld`` is on, the intent a click on one of our melds sends: ``"add"`` (``{"intent":
    "add", "to": kind}``), ``"take"`` (``{"intent": "take", "to": kind}``: the pack's top card alone onto
    that meld) or ``"join"`` (``{"intent": "join", "meld": kind}``); null otherwise (a click adds).
``join_from`` (str or null)
    The set picked to join another (``"m3"``), while the learner picks the set it joins.

Intents (the browser sends only these; :meth:`TableSession.handle` checks
every one and answers with a new view).  Each is ``{"intent": name, ...}``
(``"type"`` is accepted in place of ``"intent"``) and may carry ``"rev"``, the
``rev`` of the view the browser last drew: a play intent (a button, ``play``,
``undo``, ``hint``) drawn on a view older than the last change is ignored, so a
double click plays once.

- ``{"intent": "toggle", "index": i}``, ``{"intent": "select", "indices": [i, ...]}``,
  ``{"intent": "clear"}``: the selection (hand indices).
- ``{"intent": "draw" | "take" | "meld" | "discard" | "ask" | "go_out" | "yes" | "no"
  | "new_hand" | "undo" | "hint"}``: the buttons, with the current selection.
- ``{"intent": "add", "to": kind}``: add the selection to the meld ``kind``
  (``to`` optional; when the meld is ambiguous the view sets ``choose_meld``).
- Samba only: ``{"intent": "take", "to": "m1"}`` takes the pack adding its top card alone to meld m1;
  ``{"intent": "join"}`` is the Join button (the one possible join, else the view asks for a set),
  ``{"intent": "join", "meld": "m3"}`` a set clicked while joining (first the set that moves, then the
  set it joins; the first again cancels), ``{"intent": "join", "from": "m3", "into": "m1"}`` both at once.
- ``{"intent": "play", "text": "meld 4 4 JK"}``: an action typed as text.
- ``{"intent": "four_colour", "on": bool}``, ``{"intent": "coach", "on": bool}``.
- ``{"intent": "rule", "id": "R-FRZ-1"}`` shows a rule's text (``"id": null`` closes it).

>>> from canasta_tutor import Game
>>> from canasta_tutor.engine.observer import observe
>>> v = build_view(observe(Game().new_initial_state(seed=11), "S"))
>>> v["players"]["bottom"]["name"], v["deal_label"], v["players"]["top"]["count_text"]
('You', 'Deal 1', '11 cards')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_SINGULAR,
    KIND_TOKENS,
    KIND_VALUES,
    RED_THREE,
    kind_of_code,
    plural,
)
from ..notation.cardnames import card_label
from ..engine.pennies_melds import canasta_kind
from ..engine.observer import Observation
from ..engine.samba import BOLIVIA_LENGTH, SUIT_NAMES, WILD_SUIT
from ..engine.scoring import HandResult
from ..engine.state import GAME_OVER, HAND_OVER, seat_title
from ..engine.variants import CLASSIC, Variant

SUIT_GLYPHS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
POSITIONS = ("bottom", "left", "top", "right")
#: Where each seat sits, in turn order from the learner, by the number of players.
TABLE_POSITIONS: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: POSITIONS,
    6: ("bottom", "bottom-left", "top-left", "top", "top-right", "bottom-right"),
}


def table_positions(players: int) -> tuple[str, ...]:
    """The positions around the table for ``players`` seats, in turn order from the learner.

    >>> table_positions(3)
    ('bottom', 'left', 'right')
    """
    return TABLE_POSITIONS.get(players) or tuple(["bottom"] + [f"seat-{i}" for i in range(1, players)])


def side_order(variant: Variant, me: int) -> list[int]:
    """The sides as the learner's view lists them: the learner's first, then the others in turn order
    from the next seat (classic: ``[we, they]``).

    >>> from canasta_tutor.engine.variants import get_variant
    >>> side_order(get_variant("six-handed"), 3), side_order(CLASSIC, 1)
    ([0, 1, 2], [1, 0])
    """
    n = variant.players
    out: list[int] = []
    for i in range(n):
        side = variant.sides[(me + i) % n]
        if side not in out:
            out.append(side)
    return out


def player_name(variant: Variant, seat: int) -> str:
    """A seat's name with a capital: ``North``, ``Seat P`` (a letter with no compass name)."""
    return seat_title(variant.seats[seat])


def side_title(variant: Variant, side: int, mine: bool) -> str:
    """A side's title over its melds: ``We (N-S)``, ``They (E-W)`` (with an en dash), ``You (S)``, ``West (W)``."""
    seats = variant.side_seats[side]
    letters = "\u2013".join(variant.seats[s] for s in seats)
    if len(seats) > 1:
        return f"{'We' if mine else 'They'} ({letters})"
    return f"{'You' if mine else player_name(variant, seats[0])} ({letters})"


def card_text(code: str) -> str:
    """A card as the learner reads it: ``10♠``, ``4♣``, ``JK``.

    >>> card_text("TS"), card_text("JK")
    ('10♠', 'JK')
    """
    if code == "JK":
        return "JK"
    return ("10" if code[0] == "T" else code[0]) + SUIT_GLYPHS[code[1]]


def kind_label(kind: int) -> str:
    """The printed name of a kind: ``10`` for tens, ``3`` for black threes.

    >>> kind_label(6), kind_label(BLACK_THREE)
    ('10', '3')
    """
    if kind == BLACK_THREE:
        return "3"
    token = KIND_TOKENS[kind]
    return "10" if token == "T" else token


def kind_token(kind: int) -> str:
    """The token of a kind in intents and notation (``T`` for tens, ``3`` for black threes)."""
    return "3" if kind == BLACK_THREE else KIND_TOKENS[kind]


def seat_name(seat: int | None, me: int, variant: Variant = CLASSIC) -> str:
    """``you``, ``North (partner)``, ``East``... from the learner's point of view."""
    if seat is None:
        return "nobody"
    if seat == me:
        return "you"
    name = player_name(variant, seat)
    return f"{name} (partner)" if seat in variant.partner_seats[me] else name


def side_total(result: HandResult, side: int) -> int:
    """A side's total in a hand result."""
    return result.sides[side].total


@dataclass
class TableUI:
    """The session's UI state that goes into the view beside the observation."""

    rev: int = 0
    selected: list[int] = field(default_factory=list)
    message: str = ""
    message_kind: str = "info"
    message_rule: str | None = None
    buttons: dict[str, dict[str, Any]] = field(default_factory=dict)
    choose_meld: bool = False
    choose_for: str | None = None
    join_from: str | None = None
    hint: dict[str, Any] | None = None
    rule: dict[str, str] | None = None
    coach: dict[str, Any] = field(default_factory=lambda: {"on": False, "last": None})
    log: list[dict[str, Any]] = field(default_factory=list)
    four_colour: bool = False
    reveal: dict[int, list[str]] | None = None  # the teacher's view: every hand face up


def _canasta_top(codes: tuple[str, ...], nat: int, wild: int) -> str | None:
    """The card shown on a canasta: a red card for a natural one, a black card for a mixed one."""
    if nat + wild < 7 or nat < 4:
        return None
    want_red = wild == 0
    for code in codes:
        if code != "JK" and (code[1] in "HD") == want_red:
            return code
    return codes[0] if codes else None


def _listed_melds(obs: Observation, side: int) -> list[dict[str, Any]]:
    """Samba's melds (R-SAMBA-3, R-SAMBA-5), numbered in the order made: sets and sequences; in Bolivia also
    melds of wild cards (R-BOL-2), a bolivia at seven, and a sequence of seven is an escalera (R-BOL-1)."""
    out = []
    for i, (suit, codes) in enumerate(obs.samba_melds[side]):
        nat = sum(1 for c in codes if c != "JK" and c[0] != "2")
        wild = len(codes) - nat
        if suit == WILD_SUIT:
            bolivia = len(codes) >= BOLIVIA_LENGTH
            out.append({
                "kind": f"m{i + 1}", "number": i + 1, "sequence": False, "label": "wild",
                "name": "wild cards", "cards": list(codes), "n": 0, "w": wild,
                "canasta": "bolivia" if bolivia else None, "top": codes[-1] if bolivia else None,
                "short": len(codes) == BOLIVIA_LENGTH - 1,
            })
            continue
        lo, hi = kind_of_code(codes[0]), kind_of_code(codes[nat - 1])
        if suit >= 0:
            glyph = SUIT_GLYPHS["SHDC"[suit]]
            samba = len(codes) >= 7
            out.append({
                "kind": f"m{i + 1}", "number": i + 1, "sequence": True,
                "label": f"{kind_label(lo)}\u2013{kind_label(hi)}{glyph}",
                "name": f"{KIND_SINGULAR[lo]} to {KIND_SINGULAR[hi]} of {SUIT_NAMES[suit]}", "cards": list(codes),
                "n": nat, "w": 0, "canasta": ("escalera" if obs.variant.wild_melds else "samba") if samba else None,
                "top": codes[-1] if samba else None,
                "short": len(codes) == 6,
            })
            continue
        top = _canasta_top(codes, nat, wild)
        out.append({
            "kind": f"m{i + 1}", "number": i + 1, "sequence": False, "label": kind_label(lo),
            "name": KIND_NAMES[lo], "cards": list(codes), "n": nat, "w": wild,
            "canasta": ("mixed" if wild else "natural") if top else None, "top": top,
            "short": lo != BLACK_THREE and nat + wild == 6 and nat >= 3,
        })
    return out


def _melds(obs: Observation, side: int) -> list[dict[str, Any]]:
    if obs.variant.numbered_melds:
        return _listed_melds(obs, side)
    out = []
    for k in sorted(obs.melds[side], key=lambda k: (k == BLACK_THREE, -KIND_VALUES[k], k)):
        codes = obs.melds[side][k]
        nat, wild = obs.meld_summary[side][k]
        top = _canasta_top(codes, nat, wild)
        canasta = ("deuces" if k == DEUCE else "mixed" if wild else "natural") if top else None  # R-ITAL-6
        if obs.variant.four_kinds:  # Pennies from Heaven's four kinds: natural, mixed, wild, sevens (R-PEN-8)
            canasta = canasta_kind(k, nat, wild)
        out.append({
            "kind": kind_token(k), "label": kind_label(k), "name": KIND_NAMES[k], "cards": list(codes),
            "n": nat, "w": wild, "canasta": canasta, "top": top,
            "short": k != BLACK_THREE and nat + wild == 6 and nat >= 3,
        })
    return out


def _pile_note(pile: dict[str, Any], alone: bool = False) -> str:
    if pile["blocked"]:
        return "blocked: a wild card or a three is on top"
    if pile["frozen_all"]:
        return "frozen for everyone: take it only with a natural pair"
    if pile["frozen_us"]:
        return "frozen for you until your initial meld" if alone else "frozen for us until our initial meld"
    return ""


def _side_titles(we: int) -> list[str]:
    names = ("N\u2013S", "E\u2013W")
    return [f"We ({names[we]})", f"They ({names[1 - we]})"]


def _turn_text(obs: Observation) -> str:
    if obs.phase == GAME_OVER:
        return "Game over"
    if obs.phase == HAND_OVER:
        return "Hand over"
    if obs.actor == obs.seat:
        return {"draw": "Your turn: draw", "meld": "Your turn: meld and discard",
                "answer": "Your answer"}.get(obs.phase, "Your turn")
    return f"{_cap(seat_name(obs.actor, obs.seat, obs.variant))} to play"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _result(obs: Observation) -> dict[str, Any] | None:
    if obs.phase not in (HAND_OVER, GAME_OVER) or not obs.hand_results:
        return None
    r = obs.hand_results[-1]
    variant = obs.variant
    order = side_order(variant, obs.seat)
    we, they = order[0], order[1]
    went = r.went_out
    winner = None
    if obs.phase == GAME_OVER:
        winner = "we" if obs.totals[we] > max(obs.totals[s] for s in order[1:]) else "they"
    out: dict[str, Any] = {"went_out": _cap(seat_name(variant.seats.index(went), obs.seat, variant)) if went else None,
           "concealed": r.concealed, "we": r.sides[we].to_dict(),
           "they": r.sides[they].to_dict(), "game_over": obs.phase == GAME_OVER, "winner": winner}
    if variant.name != CLASSIC.name:
        out["sides"] = [r.sides[s].to_dict() for s in order]
    return out


def build_view(obs: Observation, ui: TableUI | None = None) -> dict[str, Any]:
    """The table view of ``obs`` (see the module docstring for every key)."""
    ui = ui or TableUI()
    me = obs.seat
    side = obs.side
    variant = obs.variant
    n = variant.players
    letters = variant.seats
    order = side_order(variant, me)
    positions = table_positions(n)
    over = obs.phase in (HAND_OVER, GAME_OVER)
    actor = None if over else obs.actor
    players = {}
    for i, pos in enumerate(positions):
        seat = (me + i) % n
        count = obs.hand_sizes[seat]
        players[pos] = {
            "seat": letters[seat], "name": "You" if seat == me else player_name(variant, seat),
            "partner": seat in variant.partner_seats[me],
            "count": count,
            "count_text": plural(count, "card"), "active": actor == seat, "dealer": obs.dealer == seat,
            "cards": None if ui.reveal is None else list(ui.reveal.get(seat, [])),
        }
        packet = obs.packet_sizes[seat]
        if packet:  # Pennies from Heaven: the packet face down, a number only (R-PEN-4)
            players[pos]["packet"] = packet
            players[pos]["count_text"] = f"{plural(count, 'card')} + {packet} face down"
    pile = obs.pile
    frozen_all = obs.freeze_at >= 0
    # no crosswise card where the rule freezes the pile (R-ITAL-4): its lowest cards lie face down (R-ITAL-3)
    crosswise = frozen_all and not variant.pile_always_frozen
    pile_view = {
        "top": pile[-1] if pile else None, "size": obs.pile_size,
        "down": obs.pile_hidden,  # cards face down under the turned card (R-ITAL-3): drawn as card backs
        "freezer": pile[obs.freeze_at] if crosswise and obs.freeze_at < len(pile) - 1 else None,
        "top_sideways": crosswise and obs.freeze_at == len(pile) - 1,
        # (Italian Canasta's pile is frozen for everyone at all times, R-ITAL-4)
        "frozen_all": frozen_all or variant.pile_always_frozen, "frozen_us": obs.frozen_for(side),
        "blocked": bool(pile) and kind_of_code(pile[-1]) in (JOKER, DEUCE, BLACK_THREE, RED_THREE),
    }
    pile_view["note"] = _pile_note(pile_view, not variant.partnerships)
    we, they = order[0], order[1]
    score = {
        "we": obs.totals[we], "they": obs.totals[they], "min_we": obs.minimums[we], "min_they": obs.minimums[they],
        "initial_we": obs.initial[we], "initial_they": obs.initial[they],
        "rows": [[r.deal + 1, *(side_total(r, s) for s in order)]
                 for r in obs.hand_results][-12:],
        "pending": obs.pending if obs.turn == me else 0,
    }
    hand = list(obs.hand)
    classic = variant.name == CLASSIC.name
    titles = _side_titles(we) if classic else [side_title(variant, s, s == side) for s in order]
    view = {
        "rev": ui.rev, "seat": letters[me], "deal": _deal_no(obs), "deal_label": f"Deal {_deal_no(obs) + 1}",
        "phase": obs.phase, "actor": None if actor is None else letters[actor], "turn_text": _turn_text(obs),
        "players": players, "hand": hand, "labels": [card_label(c) for c in hand],
        "selected": [i for i in ui.selected if i < len(hand)], "melds": [_melds(obs, s) for s in order],
        "side_titles": titles,
        "red3": [list(obs.red_threes[s]) for s in order], "pile": pile_view,
        "stock": obs.stock_size, "score": score, "result": _result(obs),
        "message": ui.message, "message_kind": ui.message_kind, "message_rule": ui.message_rule,
        "buttons": ui.buttons, "answer_needed": obs.phase == "answer" and obs.actor == me,
        "choose_meld": ui.choose_meld, "log": ui.log, "hint": ui.hint, "rule": ui.rule, "coach": ui.coach,
        "four_colour": ui.four_colour,
    }
    if variant.numbered_melds:  # what a click on one of our melds does, and the set picked to join (Samba)
        view["choose_for"] = ui.choose_for if ui.choose_meld else None
        view["join_from"] = ui.join_from
    if not classic:
        view["variant"] = variant.name
        view["positions"] = list(positions)
        view["sides"] = [{"title": titles[i], "seats": [letters[x] for x in variant.side_seats[s]],
                          "total": obs.totals[s], "minimum": obs.minimums[s], "initial": obs.initial[s]}
                         for i, s in enumerate(order)]
    if obs.sitting_out is not None:  # five-handed: who sits out this hand, and who plays for the side of three
        chairs = variant.side_seats[variant.reserve_side]
        playing = " and ".join(f"{obs.players[c]} ({seat_title(letters[c])})" for c in chairs)
        side_of_three = chr(0x2013).join(seat_title(letters[c]) for c in chairs)
        view["sitting_out"] = {"name": obs.sitting_out, "playing": [obs.players[c] for c in chairs],
                               "text": f"Sitting out this hand: {obs.sitting_out}. Playing for "
                                       f"{side_of_three}: {playing} (R-FIVE-2)."}
    return view


def _deal_no(obs: Observation) -> int:
    return obs.deal_no


__all__ = ["TableUI", "build_view", "card_text", "kind_label", "kind_token", "plural", "seat_name", "side_total",
           "POSITIONS", "TABLE_POSITIONS", "table_positions", "side_order", "side_title", "player_name"]
