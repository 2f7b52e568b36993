"""Facts of a position and of a move, each found by a detector, each one sentence.

A detector looks at one thing that is true or not in the position seen by the
seat to act (its own hand and the public facts, never a hidden card) or in the
move being explained, and when it is true it returns a :class:`Fact`: the
sentence a teacher would say, the rule number behind it when a rule is the
reason, and the strategy principle it supports *for this move*.  A principle is
attached only when the move agrees with it (a move that goes out never cites
"keep building"; asking never cites "going out scores less").

Facts are good (a reason for the move), bad (a cost of the move) or neutral (a
fact of the position worth knowing whatever is played).

A sentence that says what a player *could do* (take the pack, add to a meld, go
out) is said only when the engine allows that move: the detector plays the
learner's move on its copy of the position and asks the engine
(:func:`check_claim`), and the fact carries the claim (:attr:`Fact.claims`) so
that anyone may check it again on the real deal.  A discard onto an opponent's
meld with a one-card pile against a one-card hand (R-PACK-7) is not said to
feed them.

Samba's melds are numbered and a side may hold sequences and several sets of
one rank, so the detectors read them through helpers that know both kinds of
table (the ranks a side has sets of, its canastas); Samba has detectors of its
own (a samba made, the two canastas needed, the pile's pair or the top card onto
a meld by number, the initial meld's sum with Samba's bands), and the classic
ones that cannot read numbered melds, or whose rule Samba replaces, stay silent.

>>> from canasta_tutor.notation.position import parse_position
>>> from canasta_tutor.engine.observer import observe
>>> state = parse_position('''
... turn: S draw
... pile: 5H 2C 9D
... N: 11
... E: 11
... S: 9H 4D 5S 6C 7D JS QS KD AH 3S KH
... W: 11
... melds NS: KS KC KD
... ''')
>>> [f.text for f in move_facts(observe(state, "S"), ("draw",))][:2]
['The pack is frozen by the 2♣ in it (R-FRZ-2).', 'Taking a frozen pack needs a natural pair of 9s matching \
the top card; you hold one 9 (R-PACK-4).']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..engine.cards import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    KIND_NAMES,
    KIND_SINGULAR,
    KIND_TOKENS,
    KIND_VALUES,
    SUIT_CHARS,
    a_kind,
    format_card,
    is_canasta,
    kind_of_code,
    plural,
)
from ..engine.italian import can_go_out_for
from ..engine.pennies_melds import canasta_kind
from ..engine.observer import Observation
from ..engine.samba import BOLIVIA_LENGTH, SAMBA_LENGTH, SUIT_NAMES, WILD_SUIT
from ..engine.state import GAME_OVER, HAND_OVER, SEAT_NAMES, State, seat_name


def seat_word(obs: Observation, seat: int) -> str:
    """How a sentence names a seat: ``"West"``, or ``"seat P"`` for a seat with no compass name."""
    return seat_name(obs.variant.seats[seat])
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
GOOD, BAD, NEUTRAL = "good", "bad", "neutral"


@dataclass(frozen=True)
class Fact:
    """One sentence about the position or a move, from one detector."""

    id: str
    text: str
    kind: str = NEUTRAL  # good: a reason for the move; bad: a cost of it; neutral: worth knowing
    rule: str | None = None
    principle: str | None = None  # cited only because the move agrees with it
    also: str | None = None  # a second principle the move agrees with
    #: what the sentence says a player could do, each ``(move, seat, action)``: after the learner's ``move``
    #: (None: now), the engine lets ``seat`` play ``action`` (``("go_out",)``: go out this turn); see
    #: :func:`check_claim`
    claims: tuple[tuple[tuple | None, int, tuple], ...] = ()

    @property
    def principles(self) -> list[str]:
        return [p for p in (self.principle, self.also) if p]


@dataclass
class Context:
    """What a detector may read: the observation, a state built from it (hidden cards placed
    arbitrarily and never read), the move, and the state right after the move."""

    obs: Observation
    state: State
    action: tuple
    after: State | None

    @property
    def seat(self) -> int:
        return self.obs.seat

    @property
    def side(self) -> int:
        return self.obs.side

    @property
    def verb(self) -> str:
        return str(self.action[0])

    @property
    def next_seat(self) -> int:
        return self.obs.next_seat

    def hand(self) -> list[int]:
        return list(self.obs.hand_counts)

    def went_out(self) -> bool:
        a = self.after
        return a is not None and a.phase in (HAND_OVER, GAME_OVER) and a.went_out == self.seat


def _count(n: int, kind: int) -> str:
    word = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return f"{word} {KIND_SINGULAR[kind] if n == 1 else KIND_NAMES[kind]}"


def _and_list(words: Sequence[str]) -> str:
    """``7s``, ``7s and 8s``, ``7s, 8s and aces``."""
    return " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"


def _tokens(kind: int, naturals: int, jokers: int = 0, deuces: int = 0) -> str:
    return " ".join([KIND_TOKENS[kind]] * naturals + ["JK"] * jokers + ["2"] * deuces)


def _meld_value(kind: int, naturals: int, jokers: int = 0, deuces: int = 0) -> int:
    return naturals * KIND_VALUES[kind] + jokers * KIND_VALUES[JOKER] + deuces * KIND_VALUES[DEUCE]


def _top_kind(obs: Observation) -> int:
    return kind_of_code(obs.pile[-1]) if obs.pile else -1


def _points(n: int) -> str:
    return f"{n:,}"


# ------------------------------------------------------ melds of either kind
def _samba(o: Observation) -> bool:
    """Melds named by number, sequences among them and several sets of one rank (Samba, R-SAMBA-3,
    R-SAMBA-5): the variant's ``numbered_melds``."""
    return o.variant.numbered_melds


def _samba_is_canasta(suit: int, codes: Sequence[str]) -> bool:
    kinds = [kind_of_code(x) for x in codes]
    if suit >= 0:
        return len(kinds) >= SAMBA_LENGTH
    if suit == WILD_SUIT:  # Bolivia: a bolivia is seven wild cards (R-BOL-2)
        return len(kinds) >= BOLIVIA_LENGTH
    wild = sum(1 for k in kinds if k in (DEUCE, JOKER))
    return is_canasta(len(kinds) - wild, wild)


def _set_ranks(o: Observation, side: int, open_only: bool = False) -> set[int]:
    """The ranks the side has a set of (Samba: its sets, not its sequences); ``open_only``: in Samba
    only the sets that are not yet canastas, the ones a top card alone may go onto (R-SAMBA-6)."""
    if not _samba(o):
        return set(o.meld_summary[side])
    return {kind_of_code(codes[0]) for suit, codes in o.samba_melds[side]
            if suit == -1 and not (open_only and _samba_is_canasta(suit, codes))}


def _canastas(o: Observation, side: int) -> int:
    """The side's canastas (Samba: sambas included, R-SAMBA-7)."""
    if _samba(o):
        return sum(1 for suit, codes in o.samba_melds[side] if _samba_is_canasta(suit, codes))
    return sum(1 for m in o.meld_summary[side].values() if is_canasta(*m))


def _open_ends(o: Observation, side: int) -> set[tuple[int, int]]:
    """Samba: the (kind, suit) of each card that could extend one of the side's sequences that is not yet a
    samba, at either end."""
    out: set[tuple[int, int]] = set()
    for suit, codes in o.samba_melds[side]:
        if suit < 0 or _samba_is_canasta(suit, codes):
            continue
        kinds = [kind_of_code(x) for x in codes]
        out.update((k, suit) for k in (min(kinds) - 1, max(kinds) + 1) if 0 <= k < DEUCE)
    return out


def _sequence_ends(o: Observation, side: int) -> set[int]:
    """Samba: the ranks that could extend one of the side's sequences that is not yet a samba (either end)."""
    return {k for k, _ in _open_ends(o, side)}


def _sequence_cards(o: Observation, side: int) -> list[int]:
    """Samba: the kinds of the hand's natural cards that could go into a sequence next turn, one entry per
    card: onto either end of one of the side's sequences that is not yet a samba, or into a new sequence of
    three or more cards of one suit in a row (R-SAMBA-3).  A duplicate card of one suit and rank counts once;
    each sequence stops at seven cards."""
    held: list[set[int]] = [set(), set(), set(), set()]
    for code in o.hand:
        k = kind_of_code(code)
        if k < DEUCE:
            held[SUIT_CHARS.index(code[1])].add(k)
    out: list[int] = []
    for suit, codes in o.samba_melds[side]:
        if suit < 0:
            continue
        kinds = [kind_of_code(x) for x in codes]
        lo, hi = min(kinds), max(kinds)
        while hi - lo + 1 < SAMBA_LENGTH and (lo - 1 in held[suit] or hi + 1 in held[suit]):
            k = lo - 1 if lo - 1 in held[suit] else hi + 1
            held[suit].discard(k)
            out.append(k)
            lo, hi = min(lo, k), max(hi, k)
    for suit in range(4):
        run: list[int] = []
        for k in range(DEUCE + 1):  # one past the ace closes the last run
            if k in held[suit] and len(run) < SAMBA_LENGTH:
                run.append(k)
                continue
            if len(run) >= 3:
                out.extend(run)
            run = [k] if k in held[suit] else []
    return out


def _take_rule(o: Observation) -> str:
    """The rule on taking the pile with a pair: R-PACK-4, or Samba's own R-SAMBA-6."""
    return "R-SAMBA-6" if _samba(o) else "R-PACK-4"


def check_claim(state: State, claim: tuple[tuple | None, int, tuple]) -> str | None:
    """None when the engine allows what ``claim`` says a player could do on ``state`` (see
    :attr:`Fact.claims`), else the engine's refusal as ``"[rule] reason"``."""
    move, seat, action = claim
    s = state
    if move is not None:
        err = state.explain(move)
        if err is not None:
            return f"[{err.rule}] {err.reason}"
        s = state.copy()
        s.apply_unchecked(move)
    err = s.explain_go_out(seat) if action == ("go_out",) else s.explain_for(seat, action)
    return None if err is None else f"[{err.rule}] {err.reason}"


def _take_claim(c: Context, kind: int, seat: int, naturals: int = 0,
                card: str | None = None) -> tuple[tuple | None, int, tuple] | None:
    """The claim that after the learner discards ``kind``, ``seat`` may take the pack with it on top (onto
    their meld, or with ``naturals`` of its rank from the hand), when the engine allows it; else None.  In
    Samba the top card goes onto a meld by number (R-SAMBA-6): any such take the engine lists will do, with
    ``card`` (a code) the one discarded (the engine lays a kind's last card)."""
    move = ("discard", kind)
    if _samba(c.obs):
        s = c.state.copy()
        if s.explain(move) is not None:
            return None
        if card is not None:
            own = s.hands[c.seat][kind]
            pick = next((x for x in own if format_card(x) == card), None)
            if pick is not None:
                own.remove(pick)
                own.append(pick)
        s.apply_unchecked(move)
        if s.actor != seat:
            return None
        takes = [a for a in s.legal_actions() if a[0] == "takeon" or (a[0] == "take" and naturals)]
        return (move, seat, takes[0]) if takes else None
    claim = (move, seat, ("take", kind, naturals, 0, 0))
    return claim if check_claim(c.state, claim) is None else None


# --------------------------------------------------------------- the pack
def frozen_pack(c: Context) -> Fact | None:
    """The pack is frozen against our side, and by what (only when the move is the draw decision)."""
    o = c.obs
    if o.phase != "draw" or not o.pile or not o.frozen_for(c.side):
        return None
    if o.variant.pile_always_frozen:
        return Fact("frozen-pack", "In Italian Canasta the pack is always frozen: only a natural pair of the top "
                    "card's rank takes it (R-ITAL-4).", NEUTRAL, "R-ITAL-4")
    if o.freeze_at >= 0:
        card = o.pile[o.freeze_at]
        kind = kind_of_code(card)
        glyph = format_card(_card_id(card), glyphs=True)
        rule = "R-FRZ-3" if kind == BLACK_THREE else "R-FRZ-2"
        return Fact("frozen-pack", f"The pack is frozen by the {glyph} in it ({rule}).", NEUTRAL, rule)
    return Fact("frozen-pack", "The pack is frozen against your side until it makes its initial meld (R-FRZ-1).",
                NEUTRAL, "R-FRZ-1")


def _card_id(code: str) -> int:
    from ..engine.cards import parse_card

    return parse_card(code)


def pair_needed(c: Context) -> Fact | None:
    """A frozen pack needs a natural pair of the top card's rank: how many do we hold?"""
    o = c.obs
    top = _top_kind(o)
    if o.phase != "draw" or top < 0 or top >= DEUCE or not o.frozen_for(c.side) or _samba(o):
        return None
    have = o.hand_counts[top]
    kind = GOOD if c.verb == "take" else NEUTRAL
    return Fact("pair-needed", f"Taking a frozen pack needs a natural pair of {KIND_NAMES[top]} matching the top "
                f"card; you hold {_count(have, top)} (R-PACK-4).", kind, "R-PACK-4")


def top_blocks(c: Context) -> Fact | None:
    """A wild card or a three on top: nobody may take the pack until a natural card covers it."""
    o = c.obs
    top = _top_kind(o)
    if o.phase != "draw" or top < DEUCE:
        return None
    glyph = format_card(_card_id(o.pile[-1]), glyphs=True)
    return Fact("top-blocks", f"The {glyph} on top blocks the pack: nobody may take it until a natural card "
                "covers it (R-PACK-3).", NEUTRAL, "R-PACK-3")


def one_card_pile(c: Context) -> Fact | None:
    o = c.obs
    if o.phase != "draw" or o.pile_size != 1 or o.hand_sizes[c.seat] != 1:
        return None
    return Fact("one-card-pile", "With one card in hand you may not take a pile of one card (R-PACK-7).",
                NEUTRAL, "R-PACK-7")


def stock_empty(c: Context) -> Fact | None:
    o = c.obs
    if o.phase != "draw" or o.stock_size:
        return None
    if c.verb == "take" and ("pass",) not in o.legal_actions:
        return Fact("stock-empty", "The stock is empty and the top card matches your meld, so you must take the "
                    "pack (R-STOCK-2).", GOOD, "R-STOCK-2")
    if c.verb == "pass":
        return Fact("stock-empty", "The stock is empty: declining the pack ends the hand (R-STOCK-3).",
                    NEUTRAL, "R-STOCK-3")
    return Fact("stock-empty", "The stock is empty: play goes on only while players take the pack (R-STOCK-2).",
                NEUTRAL, "R-STOCK-2")


def pack_size(c: Context) -> Fact | None:
    """Taking brings the whole pile; drawing leaves it to the others."""
    o = c.obs
    takes = any(a[0] == "take" for a in o.legal_actions)
    n = o.pile_size
    if c.verb in ("take", "takeon"):
        return Fact("pack-size", f"Taking it brings {n} card{'s' if n != 1 else ''} from the pile "
                    "(R-PACK-6).", GOOD, "R-PACK-6", "P-TAKE-PACK" if _cheap_take(c) else None)
    if c.verb == "draw" and takes and n:
        return Fact("pack-size", f"Drawing leaves the {n}-card pack to the others.", BAD)
    return None


def _cheap_take(c: Context) -> bool:
    a = c.action
    return a[0] == "takeon" or (len(a) == 5 and a[3] == 0 and a[4] == 0)


def take_spends_wild(c: Context) -> Fact | None:
    """A take that puts a wild card into the meld: a cost, unless the minimum needs it."""
    a, o = c.action, c.obs
    if c.verb != "take" or not (a[3] or a[4]):
        return None
    wild = "a joker" if a[3] else "a deuce"
    if not o.initial[c.side]:
        without = o.pending + _meld_value(a[1], a[2] + 1)
        if without < o.minimums[c.side]:
            return Fact("wild-for-minimum", f"Without {wild} the meld would count only {without}, short of "
                        f"{o.minimums[c.side]}, so {wild} goes in.", NEUTRAL)
    return Fact("spends-wild", f"This take puts {wild} into the meld.", BAD)


# ----------------------------------------------------- the initial meld
def initial_minimum(c: Context) -> Fact | None:
    """The arithmetic of an initial meld: each meld of the turn with its count, the sum, the minimum."""
    o, a = c.obs, c.action
    side = c.side
    if o.initial[side] or c.verb not in ("take", "meld", "add") or _samba(o):
        return None
    parts: list[tuple[str, int]] = []
    for _kind, codes in sorted(o.melds[side].items()):
        kinds = [kind_of_code(x) for x in codes]
        parts.append((" ".join(KIND_TOKENS[k] for k in kinds), sum(KIND_VALUES[k] for k in kinds)))
    if c.verb == "take":
        parts.append((_tokens(a[1], a[2] + 1, a[3], a[4]) + " (with the top card)",
                      _meld_value(a[1], a[2] + 1, a[3], a[4])))
    elif c.verb == "meld":
        parts.append((_tokens(a[1], a[2], a[3], a[4]), _meld_value(a[1], a[2], a[3], a[4])))
    else:
        parts.append((f"adding {KIND_TOKENS[a[2]]}", KIND_VALUES[a[2]]))
    total = sum(p for _, p in parts)
    need = o.minimums[side]
    sums = " + ".join(f"{t} {p}" for t, p in parts)
    band = _band(o.deal_totals[side])
    if total >= need:
        if c.verb == "take":
            return Fact("initial-minimum", f"Your initial meld counts {sums} = {total} ≥ {need}, the minimum for a "
                        f"side {band}; of the pile only the top card counts (R-MIN-1, R-MIN-3, R-PACK-5).", GOOD,
                        "R-PACK-5", "P-OPEN-EARLY")
        return Fact("initial-minimum", f"Your initial meld counts {sums} = {total} ≥ {need}, the minimum for a side "
                    f"{band} (R-MIN-1, R-MIN-2).", GOOD, "R-MIN-1", "P-OPEN-EARLY")
    return Fact("initial-minimum", f"So far your initial meld counts {sums} = {total}; your side needs {need} "
                f"({band}, R-MIN-1).", NEUTRAL, "R-MIN-1")


def _band(total: int) -> str:
    if total < 0:
        return f"below 0 (yours is {_points(total)})"
    if total < 1500:
        return f"with 0 to 1,495 (yours is {_points(total)})"
    if total < 3000:
        return f"with 1,500 to 2,995 (yours is {_points(total)})"
    return f"with 3,000 or more (yours is {_points(total)})"


# ------------------------------------------------------ going out
def goes_out(c: Context) -> Fact | None:
    if not c.went_out():
        return None
    if _samba(c.obs):
        return Fact("goes-out", "This goes out: +200 for going out, and your side has the two canastas it needs "
                    "(R-SAMBA-7, R-SAMBA-9).", GOOD, "R-SAMBA-7", "P-GO-OUT")
    variant = c.obs.variant
    if variant.deuce_melds:  # Italian Canasta pays its own going-out bonus (R-ITAL-9)
        return Fact("goes-out", f"This goes out: +{variant.bonuses.going_out} for going out, and your side has the "
                    f"two canastas it needs ({variant.go_out_rule}, R-ITAL-9).", GOOD, variant.go_out_rule, "P-GO-OUT")
    if variant.canastas_to_go_out > 1:  # two- and six-handed: two canastas (R-TWO-5, R-SIX-4)
        who = "your side has" if c.obs.partners else "you have"
        return Fact("goes-out", f"This goes out: +{variant.bonuses.going_out} for going out, and {who} the two "
                    f"canastas going out needs ({variant.go_out_rule}, R-SCORE-1).", GOOD, variant.go_out_rule,
                    "P-GO-OUT")
    return Fact("goes-out", "This goes out: +100 for going out (R-OUT-1, R-SCORE-1).", GOOD, "R-OUT-1", "P-GO-OUT")


def concealed(c: Context) -> Fact | None:
    a = c.after
    if not c.went_out() or a is None or not a.concealed or not c.obs.variant.bonuses.concealed:
        return None  # Samba and Italian Canasta pay nothing more for a concealed go-out
    return Fact("concealed", "And it is concealed, your first meld of the hand: +100 more, 200 in all (R-CONC-3).",
                GOOD, "R-CONC-3", "P-CONCEALED")


def could_go_out(c: Context) -> Fact | None:
    """We could go out this turn, and this move does not (keep building)."""
    o = c.obs
    if o.phase != "meld" or c.went_out() or c.verb == "ask" or o.answer is False:
        return None
    melds = o.meld_summary[c.side]
    if not melds or not can_go_out_for(o.variant, list(o.hand_counts), melds, o.options):
        return None
    claim = (None, c.seat, ("go_out",))
    if check_claim(c.state, claim) is not None:  # the engine's own check of going out (R-OUT-1, R-ASK-3...)
        return None
    principle = "P-KEEP-BUILDING" if _keep_building_sensible(c) else None
    return Fact("could-go-out", "You could go out this turn; this move keeps the hand going instead.",
                NEUTRAL, None, principle, claims=(claim,))


def _keep_building_sensible(c: Context) -> bool:
    o = c.obs
    opp_short = min(o.hand_sizes[s] for s in o.opponents) <= 3
    opp_canastas = sum(_canastas(o, s) for s in _other_sides(c))
    return not opp_short and o.stock_size > 10 and not opp_canastas


def _other_sides(c: Context) -> list[int]:
    return [s for s in range(c.obs.variant.n_sides) if s != c.side]


def ask_binds(c: Context) -> Fact | None:
    if c.verb != "ask":
        return None
    return Fact("ask-binds", "Asking binds you: after yes you must go out this turn, after no you may not "
                "(R-ASK-3).", GOOD, "R-ASK-3", "P-ASK-PARTNER")


def partner_points(c: Context) -> Fact | None:
    """When asking, the partner's hand is what would be caught."""
    if c.verb != "ask" or not c.obs.partners:
        return None
    p = c.obs.partners[0]
    n = c.obs.hand_sizes[p]
    return Fact("partner-hand", f"{seat_word(c.obs, p)} holds {n} card{'s' if n != 1 else ''}; they count against your "
                "side if you go out now, so the partner decides.", GOOD)


def answer_points(c: Context) -> Fact | None:
    """The answer to "may I go out?": the points held, and how many could be melded next turn."""
    if c.verb not in ("yes", "no"):
        return None
    o = c.obs
    h = o.hand_counts
    pts = sum(KIND_VALUES[k] * n for k, n in enumerate(h))
    ours = _set_ranks(o, c.side)
    meldable = [k for k in range(DEUCE) if h[k] >= 3 or (h[k] and k in ours)]
    can = sum(KIND_VALUES[k] * h[k] for k in meldable)
    if meldable:
        can += sum(KIND_VALUES[k] * h[k] for k in (DEUCE, JOKER))
    if _samba(o):
        can += sum(KIND_VALUES[k] for k in _sequence_cards(o, c.side) if k not in meldable)
    heavy = can >= 100
    agrees = (c.verb == "no") == heavy
    asker = seat_word(o, o.turn)
    text = (f"You hold {sum(h)} cards worth {pts} points, of which you could meld {can} next turn; what stays in "
            f"your hand counts against your side if {asker} goes out now (R-SCORE-2).")
    return Fact("answer-points", text, GOOD if agrees else BAD, "R-SCORE-2", "P-PARTNER-ANSWER" if agrees else None)


def concealed_chance(c: Context) -> Fact | None:
    """The whole hand can go down this turn, with no meld before: a concealed go-out."""
    o = c.obs
    if o.phase != "meld" or o.has_melded[c.seat] or o.melded_turn or o.answer is False:
        return None
    if c.went_out():
        return None
    if not o.variant.bonuses.concealed:
        return None  # no bonus for going out concealed (Italian Canasta, R-ITAL-9)
    if not can_go_out_for(o.variant, list(o.hand_counts), {}, o.options):
        return None
    claim = (None, c.seat, ("go_out",))
    if check_claim(c.state, claim) is not None:  # the engine's own check of going out
        return None
    agrees = c.verb in ("meld", "add")
    return Fact("concealed-chance", "Your whole hand can go down this turn with a canasta, and you have not melded "
                "before: going out concealed earns 100 for going out and 100 more (R-CONC-1, R-CONC-3).",
                GOOD if agrees else NEUTRAL, "R-CONC-3", "P-CONCEALED" if agrees else None, claims=(claim,))


# ------------------------------------------------------ melds
def completes_canasta(c: Context) -> Fact | None:
    a = c.after
    if c.verb not in ("meld", "add", "take") or a is None:
        return None
    kind = c.action[1]
    before = c.obs.meld_summary[c.side].get(kind, (0, 0))
    m = a.melds[c.side].get(kind)
    if m is None:
        return None
    n, w = len(m[0]), len(m[1])
    variant = c.obs.variant
    if variant.four_kinds:  # Pennies from Heaven's four kinds (R-PEN-8), and the packet they release (R-PEN-4)
        name = canasta_kind(kind, n, w)
        if name is None or canasta_kind(kind, *before) is not None:
            return None
        bonuses = variant.bonuses
        bonus = {"natural": bonuses.natural_canasta, "mixed": bonuses.mixed_canasta, "wild": bonuses.wild_canasta,
                 "sevens": bonuses.sevens_canasta}[name]
        what = {"wild": "a canasta of wild cards", "sevens": "a canasta of sevens"}.get(
            name, f"a {name} canasta of {KIND_NAMES[kind]}")
        text = f"This completes {what}: +{bonus} (R-PEN-8)."
        packet = c.obs.packet_sizes[c.seat]
        if packet:
            text += f" It is your first: your packet of {packet} cards comes into your hand (R-PEN-4)."
        return Fact("canasta", text, GOOD, "R-PEN-8", "P-BUILD-CANASTA")
    if is_canasta(n, w) and not is_canasta(*before):
        if w:
            return Fact("canasta", f"This completes a mixed canasta of {KIND_NAMES[kind]}: +300 (R-CAN-2).", GOOD,
                        "R-CAN-2", "P-BUILD-CANASTA")
        return Fact("canasta", f"This completes a natural canasta of {KIND_NAMES[kind]}: +500 (R-CAN-2).", GOOD,
                    "R-CAN-2", "P-BUILD-CANASTA", "P-NATURAL-CANASTA")
    if is_canasta(*before) and not before[1] and w:
        return Fact("spoils-natural", f"A wild card on your natural canasta of {KIND_NAMES[kind]} makes it mixed: "
                    "300 instead of 500 (R-CAN-3).", BAD, "R-CAN-3")
    return None


def grows_meld(c: Context) -> Fact | None:
    """An addition brings a meld close to a canasta (six cards: one short)."""
    a = c.after
    if c.verb != "add" or a is None or not c.obs.initial[c.side]:
        return None
    kind = c.action[1]
    m = a.melds[c.side].get(kind)
    if m is None or is_canasta(len(m[0]), len(m[1])):
        return None
    total = len(m[0]) + len(m[1])
    if total == 6:
        return Fact("one-short", f"Your meld of {KIND_NAMES[kind]} reaches six cards: one short of a canasta.",
                    GOOD, None, "P-BUILD-CANASTA")
    return None


# ------------------------------------------------------ discards
def _their(o: Observation, seat: int) -> str:
    """``the opponents'``, or ``West's`` when each plays alone."""
    return "the opponents'" if o.partners or o.variant.partner_seats[seat] else f"{seat_word(o, seat)}'s"


def _pack_open_to(o: Observation, seat: int) -> bool:
    return o.freeze_at < 0 and o.initial[o.variant.sides[seat]] and not o.variant.pile_always_frozen


def feeds_next(c: Context) -> Fact | None:
    """The discard matches the next player's side's meld while the pack is open to them (Samba: or every card
    of its rank in the hand extends one of their open sequences)."""
    o = c.obs
    if c.verb != "discard" or c.went_out():
        return None
    k = c.action[1]
    nxt = c.next_seat
    if k >= DEUCE or not _pack_open_to(o, nxt):
        return None
    taken = plural(o.pile_size + 1, "card")
    claim = _take_claim(c, k, nxt)
    if claim is None:  # the engine would not let them take it (say R-PACK-7: one card in hand, a pile of one)
        return None
    if k in _set_ranks(o, o.variant.sides[nxt], True):
        rule = "R-SAMBA-6" if _samba(o) else "R-PACK-2"
        return Fact("feeds-next", f"This discard matches {_their(o, nxt)} {KIND_NAMES[k]}: {seat_word(o, nxt)} "
                    f"could add it to their meld and take {taken} ({rule}).", BAD, rule, claims=(claim,))
    feeding = _sequence_feeds(o, nxt, k)  # every card of the rank held extends one of their sequences
    if not feeding:
        return None
    if len(set(feeding)) == 1:
        what = (f"This {format_card(_card_id(feeding[0]), glyphs=True)} extends {_their(o, nxt)} sequence of "
                f"{SUIT_NAMES[SUIT_CHARS.index(feeding[0][1])]}")
    else:
        what = f"Each {KIND_SINGULAR[k]} you hold extends one of {_their(o, nxt)} sequences"
    return Fact("feeds-next", f"{what}: {seat_word(o, nxt)} could add it and take {taken} (R-SAMBA-6).", BAD,
                "R-SAMBA-6", claims=(claim,))


def _feeding_cards(o: Observation, seat: int, k: int) -> tuple[list[str], list[str]]:
    """Samba: the hand's cards of kind ``k``, split into those that would extend one end of a sequence of
    ``seat``'s side that is not yet a samba (R-SAMBA-6) and the others."""
    ends = _open_ends(o, o.variant.sides[seat])
    held = [code for code in o.hand if kind_of_code(code) == k]
    feeding = [x for x in held if (k, SUIT_CHARS.index(x[1])) in ends]
    return feeding, [x for x in held if x not in feeding]


def _sequence_split(c: Context) -> tuple[list[str], list[str]]:
    """Samba, a natural discard the next side cannot add to an open set while the pack is open to them: the
    hand's cards of its rank that would extend one of their open sequences, and the others (else two empty
    lists)."""
    o = c.obs
    if not _samba(o) or c.verb != "discard" or c.went_out():
        return [], []
    k = c.action[1]
    nxt = c.next_seat
    if k >= DEUCE or not _pack_open_to(o, nxt) or k in _set_ranks(o, o.variant.sides[nxt], True):
        return [], []
    return _feeding_cards(o, nxt, k)


def _sequence_feeds(o: Observation, seat: int, k: int) -> list[str]:
    """Samba: the hand's cards of kind ``k`` when every one of them would extend one end of a sequence of
    ``seat``'s side that is not yet a samba (R-SAMBA-6), whichever of them is discarded; else []."""
    if not _samba(o) or k >= DEUCE:
        return []
    feeding, other = _feeding_cards(o, seat, k)
    return feeding if feeding and not other else []


def suit_choice(c: Context) -> Fact | None:
    """Samba: a discard of a rank held in a suit that would extend the next side's open sequence and in one
    that would not; the table discards the card selected, so say which (R-SAMBA-6)."""
    feeding, other = _sequence_split(c)
    if not feeding or not other:
        return None
    o, nxt = c.obs, c.next_seat
    claim = _take_claim(c, c.action[1], nxt, card=feeding[0])
    if claim is None:
        return None
    safe, risky = (format_card(_card_id(x), glyphs=True) for x in (other[0], feeding[0]))
    return Fact("suit-choice", f"Discard the {safe}, not the {risky}: the {risky} would extend {_their(o, nxt)} "
                f"sequence of {SUIT_NAMES[SUIT_CHARS.index(feeding[0][1])]}, and {seat_word(o, nxt)} could add it "
                f"and take {plural(o.pile_size + 1, 'card')} (R-SAMBA-6).", NEUTRAL, "R-SAMBA-6", claims=(claim,))


def next_holds_pair(c: Context) -> Fact | None:
    o = c.obs
    if c.verb != "discard" or c.went_out():
        return None
    k = c.action[1]
    nxt = c.next_seat
    if k >= DEUCE or o.known[nxt][k] < 2:
        return None
    claim = _take_claim(c, k, nxt, naturals=2)
    if claim is None:
        return None
    return Fact("next-holds-pair", f"{seat_word(o, nxt)} took {KIND_NAMES[k]} with a pack and still holds "
                f"{_count(o.known[nxt][k], k)}: they could take {plural(o.pile_size + 1, 'card')} with this one.", BAD,
                _take_rule(o), claims=(claim,))


def safe_discard(c: Context) -> Fact | None:
    """A discard the next player cannot take with a meld, chosen where another discard could feed them."""
    o = c.obs
    if c.verb != "discard" or c.went_out():
        return None
    k = c.action[1]
    nxt = c.next_seat
    if k >= DEUCE or feeds_next(c) or next_holds_pair(c):
        return None
    theirs = _set_ranks(o, o.variant.sides[nxt], True)
    risky = sorted({a[1] for a in o.legal_actions if a[0] == "discard" and a[1] < DEUCE and _pack_open_to(o, nxt)
                    and (a[1] in theirs or _sequence_feeds(o, nxt, a[1]))})
    found = [(x, _take_claim(c, x, nxt)) for x in risky[:4]]
    takeable = [(x, cl) for x, cl in found if cl is not None][:2]
    if not takeable:  # no other discard the engine would let them take: nothing to be safe from
        return None
    claims = [cl for _, cl in takeable]
    first, *more = [x for x, _ in takeable]
    names = " or ".join([a_kind(first)] + [KIND_SINGULAR[x] for x in more])
    who = "The opponents have" if o.partners else f"{seat_word(o, nxt)} has"
    if _samba(o):
        theirs_all = o.variant.sides[nxt]
        if k in _set_ranks(o, theirs_all) or k in _sequence_ends(o, theirs_all):
            return None  # a finished set of this rank, or a sequence this rank may extend: not safe to say
        return Fact("safe-discard", f"{who} no set of {KIND_NAMES[k]}, so {seat_word(o, nxt)} cannot add this "
                    f"{KIND_SINGULAR[k]} to one; {names} would let them take the pack (R-SAMBA-6).", GOOD,
                    "R-SAMBA-6", "P-SAFE-DISCARD", claims=tuple(claims))
    return Fact("safe-discard", f"{who} no meld of {KIND_NAMES[k]}, so {seat_word(o, nxt)} cannot add "
                f"this {KIND_SINGULAR[k]} to one; {names} would let them take the pack.", GOOD, None,
                "P-SAFE-DISCARD", claims=tuple(claims))


def stop_three(c: Context) -> Fact | None:
    if c.verb != "discard" or c.action[1] != BLACK_THREE or c.went_out():
        return None
    nxt = seat_word(c.obs, c.next_seat)
    return Fact("stop-three", f"A black three on top stops {nxt}: nobody may take the pack until a natural card "
                "covers it (R-PACK-3).", GOOD, "R-PACK-3", "P-STOP-THREE")


def freezes(c: Context) -> Fact | None:
    o = c.obs
    if c.verb != "discard" or c.action[1] not in (JOKER, DEUCE) or c.went_out():
        return None
    opp = o.variant.sides[c.next_seat]  # the next player's side (classic: the other side)
    if o.freeze_at >= 0 or o.variant.pile_always_frozen:
        return Fact("wild-discard", "The pack is already frozen, so this wild card only goes to waste.", BAD)
    agrees = o.initial[opp] and not o.initial[c.side]
    return Fact("freezes", f"A wild card discarded freezes the pack for everyone: after it, the {o.pile_size + 1}-card "
                f"pack can be taken only with a natural pair (R-FRZ-2, {_take_rule(o)}).", GOOD if agrees else BAD,
                "R-FRZ-2", "P-FREEZE" if agrees else None)


def breaks_pair(c: Context) -> Fact | None:
    o = c.obs
    if c.verb != "discard" or c.went_out():
        return None
    k = c.action[1]
    if k >= DEUCE or o.hand_counts[k] != 2 or k in _set_ranks(o, c.side):
        return None
    rule = _take_rule(o)
    return Fact("breaks-pair", f"This breaks your pair of {KIND_NAMES[k]}: with the pair you could take the pack, "
                f"even frozen, when {a_kind(k)} comes on top ({rule}).", BAD, rule)


def keeps_pairs(c: Context) -> Fact | None:
    """Against a frozen pack, a discard that keeps every natural pair."""
    o = c.obs
    if c.verb != "discard" or c.went_out() or not o.frozen_for(c.side):
        return None
    k = c.action[1]
    ours = _set_ranks(o, c.side)
    pairs = [x for x in range(DEUCE) if o.hand_counts[x] >= 2 and x != k and x not in ours]
    if not pairs or (k < DEUCE and o.hand_counts[k] == 2):
        return None
    names = _and_list([KIND_NAMES[x] for x in pairs])
    rule = _take_rule(o)
    return Fact("keeps-pairs", f"Against a frozen pack you keep your pairs of {names}: each can take the pack "
                f"when its rank comes on top ({rule}).", GOOD, rule, "P-HOLD-PAIRS")


# ------------------------------------------------------ the table
def opponent_short(c: Context) -> Fact | None:
    o = c.obs
    seats = o.opponents
    short = [s for s in seats if o.hand_sizes[s] <= 2]
    if not short:
        return None
    s = min(short, key=lambda x: (o.hand_sizes[x], x))
    n = o.hand_sizes[s]
    side = o.variant.sides[s]
    need = o.variant.canastas_to_go_out
    opp_canastas = _canastas(o, side)
    whose = "their side has" if o.variant.partner_seats[s] else "they have"
    if need == 1:
        may = "may go out" if opp_canastas else f"is close to going out once {whose} a canasta"
    else:
        may = ("may go out" if opp_canastas >= need
               else f"is close to going out once {whose} {NUMBER_WORDS[need]} canastas")
    agrees = c.verb in ("meld", "add") or c.went_out() or (
        c.verb == "discard" and KIND_VALUES[c.action[1]] >= 10) or (c.verb == "draw" and any(
            a[0] == "take" for a in o.legal_actions))
    return Fact("opponent-short", f"{seat_word(o, s)} holds {NUMBER_WORDS[n]} card{'s' if n != 1 else ''} and {may}.",
                NEUTRAL, None, "P-COUNT-CARDS" if agrees else None)


def stock_low(c: Context) -> Fact | None:
    o = c.obs
    if not 0 < o.stock_size <= 6:
        return None
    return Fact("stock-low", f"Only {o.stock_size} cards are left in the stock.", NEUTRAL, None,
                "P-GO-OUT" if c.went_out() else None)


# ------------------------------------------------------ Samba (R-SAMBA)
def _meld_words(suit: int, codes: Sequence[str], index: int) -> str:
    """``m2, your sequence of hearts`` or ``m1, your set of kings``."""
    if suit >= 0:
        return f"m{index + 1}, your sequence of {SUIT_NAMES[suit]}"
    if suit == WILD_SUIT:
        return f"m{index + 1}, your meld of wild cards"
    return f"m{index + 1}, your set of {KIND_NAMES[kind_of_code(codes[0])]}"


def samba_pile(c: Context) -> Fact | None:
    """Samba's pile (R-SAMBA-6): frozen against the side, only a natural pair of the top card's rank from
    the hand takes it; open, the top card alone may go onto one of the side's unfinished melds."""
    o = c.obs
    top = _top_kind(o)
    if not _samba(o) or o.phase != "draw" or top < 0 or top >= DEUCE:
        return None
    if c.verb == "takeon":
        i = c.action[2]
        suit, codes = o.samba_melds[c.side][i]
        return Fact("take-on", f"The pack is not frozen against your side, so the top card alone may go onto "
                    f"{_meld_words(suit, codes, i)} (R-SAMBA-6).", GOOD, "R-SAMBA-6")
    if not o.frozen_for(c.side):
        return None
    have = o.hand_counts[top]
    kind = GOOD if c.verb == "take" else NEUTRAL
    return Fact("pair-needed", f"Frozen, the pack is taken only with a natural pair of {KIND_NAMES[top]} from your "
                f"hand, matching the top card; you hold {_count(have, top)} (R-SAMBA-6).", kind, "R-SAMBA-6")


def _samba_part(o: Observation, a: tuple) -> tuple[str, int] | None:
    """What a Samba action puts toward the initial meld: its cards and their count."""
    verb = a[0]
    if verb == "take":
        return (_tokens(a[1], a[2] + 1, a[3], a[4]) + " (with the top card)", _meld_value(a[1], a[2] + 1, a[3], a[4]))
    if verb == "meld":
        return _tokens(a[1], a[2], a[3], a[4]), _meld_value(a[1], a[2], a[3], a[4])
    if verb == "run":
        suit, low = a[1], a[2]
        return (" ".join(KIND_TOKENS[low + i] + "SHDC"[suit] for i in range(3)),
                sum(KIND_VALUES[low + i] for i in range(3)))
    if verb == "put":
        return f"putting {KIND_TOKENS[a[2]]} on m{a[1] + 1}", KIND_VALUES[a[2]]
    if verb == "wild":  # Bolivia's meld of wild cards (R-BOL-2, R-BOL-7)
        return " ".join(["JK"] * a[1] + ["2"] * a[2]), 50 * a[1] + 20 * a[2]
    return None


def _band_of(o: Observation, total: int) -> tuple[str, bool]:
    """The minimum's band for a score, in words (``with 3,000 to 6,995 (yours is 3,200)``), and whether it is
    one of Samba's own bands (3,000 and up, R-SAMBA-8)."""
    bands = o.variant.minimum_bands
    if total < 0:
        return f"below 0 (yours is {_points(total)})", False
    i = max(j for j, (low, _need) in enumerate(bands) if total >= low)
    low = bands[i][0]
    words = (f"with {_points(low)} to {_points(bands[i + 1][0] - 5)}" if i + 1 < len(bands)
             else f"with {_points(low)} or more")
    return f"{words} (yours is {_points(total)})", low >= 3000


def samba_initial_minimum(c: Context) -> Fact | None:
    """Samba's initial meld arithmetic: the melds put down this turn (sets and sequences), the move, the sum and
    the minimum, whose bands go further than the classic game's (R-MIN-1, R-SAMBA-8)."""
    o, a = c.obs, c.action
    side = c.side
    if not _samba(o) or o.initial[side]:
        return None
    move = _samba_part(o, a)
    if move is None:
        return None
    parts: list[tuple[str, int]] = []
    for suit, codes in o.samba_melds[side]:
        kinds = [kind_of_code(x) for x in codes]
        if suit >= 0:
            parts.append((" ".join(codes), sum(KIND_VALUES[k] for k in kinds)))
        else:
            parts.append((" ".join(KIND_TOKENS[k] for k in kinds), sum(KIND_VALUES[k] for k in kinds)))
    parts.append(move)
    total = sum(p for _, p in parts)
    need = o.minimums[side]
    sums = " + ".join(f"{t} {p}" for t, p in parts)
    band, own = _band_of(o, o.deal_totals[side])
    rules = "R-MIN-1, R-SAMBA-8" if own else "R-MIN-1"
    if total >= need:
        tail = (f"; of the pile only the top card counts ({rules}, R-PACK-5)" if a[0] == "take"
                else f" ({rules}, R-MIN-2)")
        return Fact("initial-minimum", f"Your initial meld counts {sums} = {total} ≥ {need}, the minimum for a side "
                    f"{band}{tail}.", GOOD, "R-SAMBA-8" if own else "R-MIN-1", "P-OPEN-EARLY")
    return Fact("initial-minimum", f"So far your initial meld counts {sums} = {total}; your side needs {need} "
                f"({band}, {rules}).", NEUTRAL, "R-SAMBA-8" if own else "R-MIN-1")


def _changed_meld(c: Context) -> int:
    """The index of the side's meld a Samba action makes or grows (-1: none)."""
    verb, a = c.verb, c.action
    if verb in ("run", "meld", "take", "wild"):
        return len(c.obs.samba_melds[c.side])
    if verb == "put" or verb == "join":
        return int(a[1])
    if verb == "takeon":
        return int(a[2])
    return -1


def samba_canasta(c: Context) -> Fact | None:
    """A Samba move that makes a canasta: a sequence reaching seven is a samba (+1,500, R-SAMBA-3,
    R-SAMBA-9), a set of seven a natural or mixed canasta (+500 or +300, R-CAN-2); or one card short."""
    a = c.after
    if not _samba(c.obs) or a is None:
        return None
    i = _changed_meld(c)
    melds = a.listed_melds(c.side)
    if not 0 <= i < len(melds):
        return None
    m = melds[i]
    before = c.obs.samba_melds[c.side]
    was = i < len(before) and _samba_is_canasta(*before[i])
    bolivia = c.obs.variant.wild_melds  # Bolivia and Chile: the escalera and the bolivia (R-BOL-1..3)
    if m.is_canasta and not was:
        if m.is_sequence and bolivia:
            return Fact("samba", f"This makes an escalera: your sequence of {SUIT_NAMES[m.suit]} reaches seven cards, "
                        "counts as a canasta, earns 1,500 and is the one going out needs (R-BOL-1, R-BOL-5).", GOOD,
                        "R-BOL-1", "P-BUILD-CANASTA")
        if m.suit == WILD_SUIT:
            return Fact("samba", "This makes a bolivia: seven wild cards, a canasta worth 2,500 (R-BOL-2, R-BOL-3).",
                        GOOD, "R-BOL-3", "P-BUILD-CANASTA")
        if m.is_sequence:
            return Fact("samba", f"This makes a samba: your sequence of {SUIT_NAMES[m.suit]} reaches seven cards, "
                        "counts as a canasta and earns 1,500 (R-SAMBA-3, R-SAMBA-9).", GOOD, "R-SAMBA-3",
                        "P-BUILD-CANASTA")
        kind = m.kind
        if m.wilds:
            return Fact("canasta", f"This completes a mixed canasta of {KIND_NAMES[kind]}: +300 (R-CAN-2).", GOOD,
                        "R-CAN-2", "P-BUILD-CANASTA")
        return Fact("canasta", f"This completes a natural canasta of {KIND_NAMES[kind]}: +500 (R-CAN-2).", GOOD,
                    "R-CAN-2", "P-BUILD-CANASTA", "P-NATURAL-CANASTA")
    if len(m) == 6 and not m.is_canasta and (i >= len(before) or len(before[i][1]) < 6):
        what = (f"your sequence of {SUIT_NAMES[m.suit]}" if m.is_sequence else "your meld of wild cards"
                if m.suit == WILD_SUIT else f"your set of {KIND_NAMES[m.kind]}")
        goal = ("an escalera" if bolivia else "a samba") if m.is_sequence else (
            "a bolivia" if m.suit == WILD_SUIT else "a canasta")
        return Fact("one-short", f"This brings {what} to six cards: one short of {goal}.", GOOD, None,
                    "P-BUILD-CANASTA")
    return None


def samba_canastas_needed(c: Context) -> Fact | None:
    """R-SAMBA-7: going out needs two canastas.  Said when the move brings the side its second one, or
    when the seat is down to a few cards and the side is still short of two."""
    o, a = c.obs, c.after
    if not _samba(o) or c.went_out():
        return None
    have = _canastas(o, c.side)
    need = o.variant.canastas_to_go_out
    rule = o.variant.go_out_rule
    if o.variant.out_needs_sequence:  # Bolivia: one of them an escalera (R-BOL-5)
        escaleras = sum(1 for suit, codes in o.samba_melds[c.side] if suit >= 0 and len(codes) >= SAMBA_LENGTH)
        ready = have >= need and escaleras > 0
        if a is not None and not ready and a.side_can_go_out(c.side):
            return Fact("canastas-needed", f"With it your side has {NUMBER_WORDS[need]} canastas, an escalera among "
                        f"them, enough to go out ({rule}).", GOOD, rule)
        if o.phase == "meld" and not ready and o.hand_sizes[c.seat] <= 4:
            return Fact("canastas-needed", f"Your side has {NUMBER_WORDS[have]} canasta{'s' if have != 1 else ''} and "
                        f"{NUMBER_WORDS[escaleras]} escalera{'s' if escaleras != 1 else ''}; going out needs "
                        f"{NUMBER_WORDS[need]} canastas, one of them an escalera ({rule}).", NEUTRAL, rule)
        return None
    if a is not None and have < need <= a.side_canastas(c.side):
        return Fact("canastas-needed", f"With it your side has {NUMBER_WORDS[need]} canastas, enough to go out "
                    "(R-SAMBA-7).", GOOD, "R-SAMBA-7")
    if o.phase == "meld" and have < need and o.hand_sizes[c.seat] <= 4:
        return Fact("canastas-needed", f"Your side has {NUMBER_WORDS[have]} canasta{'s' if have != 1 else ''} of the "
                    f"{NUMBER_WORDS[need]} it needs before either partner may go out (R-SAMBA-7).", NEUTRAL,
                    "R-SAMBA-7")
    return None


#: Every detector, in the order their sentences are told.
DETECTORS: tuple[Callable[[Context], Fact | None], ...] = (
    top_blocks, one_card_pile, frozen_pack, pair_needed, samba_pile, stock_empty, initial_minimum,
    samba_initial_minimum, pack_size, take_spends_wild, goes_out, concealed, concealed_chance, completes_canasta,
    samba_canasta, samba_canastas_needed, grows_meld, ask_binds, partner_points, answer_points,
    stop_three, freezes, safe_discard, feeds_next, suit_choice, next_holds_pair, breaks_pair, keeps_pairs,
    could_go_out,
    opponent_short, stock_low,
)


def context(obs: Observation, state: State, action: tuple) -> Context:
    """The context for explaining ``action``: the move applied to a copy of ``state`` when it is legal."""
    after: State | None = None
    if action in obs.legal_actions and action[0] not in ("draw", "ask", "yes", "no", "pass"):
        after = state.copy()
        after.apply_unchecked(action)
    return Context(obs, state, action, after)


def move_facts(obs: Observation, action: tuple, state: State | None = None) -> list[Fact]:
    """The facts that explain ``action`` in the position ``obs`` (its seat must be the seat to act)."""
    from ..bots.sampling import state_from_observation

    st = state if state is not None else state_from_observation(obs)
    ctx = context(obs, st, action)
    out = []
    for d in DETECTORS:
        f = d(ctx)
        if f is not None:
            out.append(f)
    return out


__all__ = ["Fact", "Context", "DETECTORS", "move_facts", "context", "check_claim", "SEAT_NAMES"] + [
    d.__name__ for d in DETECTORS]
