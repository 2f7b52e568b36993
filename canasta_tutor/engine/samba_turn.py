"""Whether the rest of a Samba turn can still end legally, settled exactly without a search of moves.

After a Samba player has drawn (the meld phase), the turn can end legally in two ways:

- **a discard that keeps a card**: the player melds some cards, keeps two or more, and discards one;
  this needs the player not bound to go out (a partner's "yes", black threes melded) and the side's
  initial meld reached (or nothing melded toward it);
- **going out**: the player melds every card but at most one (the discard), and the side then has the
  canastas going out needs (R-SAMBA-7); not after a partner's "no".

Melds are made step by step (:mod:`canasta_tutor.engine.samba`), but which final tables a turn can reach does
not depend on the order much, so instead of trying move orders this module builds the final table rank
by rank, from fours up to aces, with a dynamic programme:

- at each rank and suit, the hand's cards of that rank go onto the sequences of that suit that are open
  (a sequence, new or on the table, grows one rank at a time and closes at three to seven cards), start
  new sequences, or go to the sets of that rank;
- the cards left for the sets of a rank, and the wild cards given to that rank, are placed by a small
  exact search of the engine's own set moves (:func:`rank_sets`: new sets of three, one card onto a
  set, joins), which also counts the canastas they make;
- a position of the programme is the sequences still open, the wild cards left, the cards kept (up to
  two) and the canastas made (up to the number needed); it keeps the most points melded.

Black threes are placed last (melds of three or four, only when going out).  In Bolivia the wild cards
left at the end may also go into melds of wild cards (new ones of three to seven, or onto the side's that
are not yet bolivias, R-BOL-2), and going out also needs an escalera among the canastas (R-BOL-5): a
position then also records whether a sequence of seven has been made.  The answer is the engine's rule
for the end of a turn, and tests compare it with an exhaustive search of the moves.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .cards import KIND_VALUES, is_canasta

#: a sequence grows to seven cards at most, and is then a samba (R-SAMBA-3)
SAMBA_LENGTH = 7
_MIN_RUN = 3
_TOP = 10  # the highest natural kind (ace)

#: an open sequence: (lowest kind, the table's sequence as (low, high), or (-1, -1) for a new one)
Open = tuple[int, int, int]


@lru_cache(maxsize=200_000)
def rank_sets(sets: tuple[tuple[int, int], ...], naturals: int, wilds: int, cap: int) -> int:
    """The most canastas a side's sets of one rank can count once ``naturals`` natural cards and
    ``wilds`` wild cards of the hand have all gone into them, or -1 if they can't all go.

    ``sets``: the side's sets of that rank on the table, as sorted (naturals, wilds) pairs.  The moves
    are the engine's: a new set of three (three naturals, or two and a wild card), a natural onto a set,
    a wild card onto a set that holds fewer than ``cap`` and is no canasta (R-SAMBA-4), and joining two
    sets whose wild cards stay within ``cap`` and go onto no canasta (R-SAMBA-5)."""
    best = sum(1 for n, w in sets if is_canasta(n, w)) if naturals == 0 and wilds == 0 else -1
    seen: set[tuple[int, int]] = set()
    for i, (n, w) in enumerate(sets):
        if (n, w) in seen:
            continue
        seen.add((n, w))
        rest = sets[:i] + sets[i + 1:]
        if wilds and w < cap and not is_canasta(n, w):
            best = max(best, rank_sets(_with(rest, (n, w + 1)), naturals, wilds - 1, cap))
        if naturals:
            best = max(best, rank_sets(_with(rest, (n + 1, w)), naturals - 1, wilds, cap))
        for j in range(i + 1, len(sets)):
            n2, w2 = sets[j]
            if w + w2 > cap or (w2 and is_canasta(n, w)) or (w and is_canasta(n2, w2)):
                continue
            best = max(best, rank_sets(_with(rest[:j - 1] + rest[j:], (n + n2, w + w2)), naturals, wilds, cap))
    if naturals >= 3:
        best = max(best, rank_sets(_with(sets, (3, 0)), naturals - 3, wilds, cap))
    if naturals >= 2 and wilds and cap:
        best = max(best, rank_sets(_with(sets, (2, 1)), naturals - 2, wilds - 1, cap))
    return best


def _with(sets: tuple[tuple[int, int], ...], s: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(sets + (s,)))


@lru_cache(maxsize=100_000)
def _suit_steps(opened: tuple[Open, ...], table: tuple[tuple[int, int], ...], r: int,
                cards: int) -> tuple[tuple[tuple[Open, ...], int, int], ...]:
    """The ways one suit's sequences can pass rank ``r`` holding ``cards`` cards of that rank and suit:
    (the sequences open after it, cards used, sambas closed).  ``table``: the suit's sequences on the
    table that are not sambas, as (low, high); rank 11 closes every sequence still open."""
    choices: list[list[tuple[Open | None, int, int]]] = []
    for d in opened:
        lo, tlo, thi = d
        if tlo <= r <= thi:  # the table's cards: nothing to do
            choices.append([(d, 0, 0)])
            continue
        ways: list[tuple[Open | None, int, int]] = []
        if r - lo + 1 <= SAMBA_LENGTH and r <= _TOP:
            ways.append((d, 1, 0))
        if r > thi and r - lo >= _MIN_RUN:
            ways.append((None, 0, 1 if r - lo == SAMBA_LENGTH else 0))
        choices.append(ways)
    # the table's sequences not yet reached: one starting here opens, one starting above may grow down
    fixed: list[Open] = []
    for t in sorted(set(table)):
        tlo, thi = t
        if tlo < r:
            continue
        n = table.count(t) - sum(1 for _, a, b in opened if (a, b) == t)
        if tlo == r:
            fixed.extend([(r, tlo, thi)] * n)
        elif thi - r + 1 <= SAMBA_LENGTH:
            for _ in range(n):  # stays waiting, or starts here and grows up to it
                choices.append([(None, 0, 0), ((r, tlo, thi), 1, 0)])
    out: dict[tuple[tuple[Open, ...], int, int], None] = {}
    for combo in product(*choices):
        used = sum(c[1] for c in combo)
        if used > cards:
            continue
        sambas = sum(c[2] for c in combo)
        kept = [c[0] for c in combo if c[0] is not None] + fixed
        for new in range(cards - used + 1 if r + _MIN_RUN - 1 <= _TOP else 1):
            out[(tuple(sorted(kept + [(r, -1, -1)] * new)), used + new, sambas)] = None
    return tuple(out)


@lru_cache(maxsize=100_000)
def _rank_steps(opened: tuple[tuple[Open, ...], ...], tables: tuple[tuple[tuple[int, int], ...], ...], r: int,
                row: tuple[int, ...]) -> tuple[tuple[tuple[tuple[Open, ...], ...], int, int], ...]:
    """:func:`_suit_steps` for the four suits at once: (open sequences, cards used, sambas closed)."""
    out: dict[tuple[tuple[tuple[Open, ...], ...], int, int], None] = {}
    for combo in product(*(_suit_steps(opened[s], tables[s], r, row[s]) for s in range(4))):
        out[(tuple(c[0] for c in combo), sum(c[1] for c in combo), sum(c[2] for c in combo))] = None
    return tuple(out)


@lru_cache(maxsize=20_000)
def _fits(sets: tuple[tuple[int, int], ...], cards: int, wild: int,
          cap: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``[placed]``: the (wild cards, canastas) pairs the sets of one rank can end with when ``placed``
    naturals of the hand go into them (see :func:`rank_sets`), by increasing wild cards."""
    return tuple(tuple((x, g) for x in range(wild + 1)
                       if (g := rank_sets(sets, placed, x, cap) if (placed or x or sets) else 0) >= 0)
                 for placed in range(cards + 1))


#: a meld of wild cards closes at seven, a bolivia (R-BOL-2)
BOLIVIA_LENGTH = 7


@lru_cache(maxsize=10_000)
def wild_fits(table: tuple[int, ...], wild: int) -> tuple[int, ...]:
    """``[x]``: the most bolivias the side can have made when ``x`` of its ``wild`` wild cards go into melds of
    wild cards (Bolivia, R-BOL-2), or -1 if ``x`` cards can't all go there: onto the side's melds of wild cards
    on the table (``table``: their sizes, each below seven) or into new melds of three to seven.

    >>> wild_fits((), 7), wild_fits((5,), 3)
    ((0, -1, -1, 0, 0, 0, 0, 1), (0, 0, 1, 0))
    """
    best = [-1] * (wild + 1)
    best[0] = 0
    for size in table:  # each meld on the table takes 0 to 7 - size more
        nxt = [-1] * (wild + 1)
        for used, made in enumerate(best):
            if made < 0:
                continue
            for a in range(min(BOLIVIA_LENGTH - size, wild - used) + 1):
                got = made + (size + a == BOLIVIA_LENGTH)
                if got > nxt[used + a]:
                    nxt[used + a] = got
        best = nxt
    for used in range(wild + 1):  # new melds, three to seven cards each, in increasing totals
        if best[used] < 0:
            continue
        for size in range(3, BOLIVIA_LENGTH + 1):
            if used + size <= wild:
                got = best[used] + (size == BOLIVIA_LENGTH)
                if got > best[used + size]:
                    best[used + size] = got
    return tuple(best)


def _black_threes_left(held: int, table: tuple[int, ...]) -> int:
    """The fewest black threes a player going out must keep: the hand's go onto the side's melds of
    black threes (four at most each) or into new melds of three or four (R-MELD-4)."""
    room = sum(4 - n for n in table if n < 4)
    best = held
    for new in range(held + 1):
        if new in (1, 2, 5) or new > held:  # a sum of threes and fours
            continue
        best = min(best, max(0, held - new - room))
    return best


def _wild_room(naturals: int, wilds: int, cap: int) -> int:
    """How many wild cards one after another a set on the table can take: one while it holds fewer than
    ``cap`` and is no canasta (R-SAMBA-4), so a set of six naturals takes one, which makes it a canasta."""
    x = 0
    while wilds + x < cap and not is_canasta(naturals, wilds + x):
        x += 1
    return x


def _sets_go_out(hand: tuple[tuple[int, ...], ...], wild: int, spare: int,
                 sets: dict[int, tuple[tuple[int, int], ...]], sambas: int, need: int, cap: int,
                 wild_sets: tuple[int, ...] | None = None) -> bool:
    """A quick test that proves going out possible with sets alone, tried before the programme (a big hand
    after a partner's "yes" makes the programme slow).  Each rank's naturals go onto the side's biggest set
    of that rank, or into a new set when there are three or more; a lone pair takes a wild card to make a
    set of three; the other wild cards go onto sets that take them, before the naturals that might make
    those sets canastas.  True when at most ``spare`` cards are left and the side then has the canastas
    ``need`` asks for.  Every step is one of :func:`rank_sets`' moves, so True is the programme's answer;
    False proves nothing.  In Bolivia (``wild_sets``: the side's melds of wild cards that are not bolivias)
    the wild cards left go into melds of wild cards: three or more into new ones, fewer onto the side's."""
    left = 0  # naturals that no set takes
    pairs = 0  # lone pairs: a set each, with a wild card
    room = 0  # wild cards the sets can take
    canastas = sambas
    for k in range(_TOP + 1):
        n = sum(hand[k])
        table = sets.get(k, ())
        if table:
            room += sum(_wild_room(m, w, cap) for m, w in table)
            big = max(range(len(table)), key=lambda i: table[i][0] + table[i][1])
            canastas += sum(1 for i, (m, w) in enumerate(table) if is_canasta(m + (n if i == big else 0), w))
        elif n >= 3:
            room += cap
            canastas += is_canasta(n, 0)
        elif n == 2 and cap:
            pairs += 1
        else:
            left += n
    if canastas < need:
        return False
    made = min(pairs, wild)
    left += 2 * (pairs - made)
    room += made * (cap - 1)
    extra = max(0, wild - made - room)
    if wild_sets is not None and (extra >= 3 or extra <= sum(BOLIVIA_LENGTH - w for w in wild_sets)):
        extra = 0
    return left + extra <= spare


def _escalera_first(hand: tuple[tuple[int, ...], ...],
                    sequences: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Bolivia's quick test, before :func:`_sets_go_out`: one of the side's sequences on the table grown to
    seven, an escalera (R-BOL-1), with the hand's cards of its suit at either end.  The hand without the cards
    used, and 1; or the hand and 0 when no sequence on the table reaches seven so."""
    for s in range(4):
        for lo, hi in sequences[s]:
            low, high = lo, hi
            while high - low + 1 < SAMBA_LENGTH and high < _TOP and hand[high + 1][s]:
                high += 1
            while high - low + 1 < SAMBA_LENGTH and low > 0 and hand[low - 1][s]:
                low -= 1
            if high - low + 1 == SAMBA_LENGTH:
                rows = [list(row) for row in hand]
                for k in (*range(low, lo), *range(hi + 1, high + 1)):
                    rows[k][s] -= 1
                return tuple(tuple(row) for row in rows), 1
    return hand, 0


def _runs_first(hand: tuple[tuple[int, ...], ...],
                sequences: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Bolivia's second quick test: every sequence on the table grown at either end with the hand's cards of its
    suit (up to seven), then new sequences from the hand's runs of three or more cards of one suit in a row
    (seven at most each), before any set.  The hand without the cards used, and the sequences of seven made."""
    rows = [list(row) for row in hand]
    made = 0
    for s in range(4):
        for lo, hi in sequences[s]:
            low, high = lo, hi
            while high - low + 1 < SAMBA_LENGTH and high < _TOP and rows[high + 1][s]:
                high += 1
                rows[high][s] -= 1
            while high - low + 1 < SAMBA_LENGTH and low > 0 and rows[low - 1][s]:
                low -= 1
                rows[low][s] -= 1
            made += high - low + 1 == SAMBA_LENGTH
        k = 0
        while k <= _TOP:
            if not rows[k][s]:
                k += 1
                continue
            end = k
            while end + 1 <= _TOP and rows[end + 1][s] and end + 1 - k < SAMBA_LENGTH:
                end += 1
            if end - k + 1 >= _MIN_RUN:
                for r in range(k, end + 1):
                    rows[r][s] -= 1
                made += end - k + 1 == SAMBA_LENGTH
                continue  # the same ranks again: a second copy may make another run
            k = end + 1
    return tuple(tuple(row) for row in rows), made


def turn_can_end(hand: tuple[tuple[int, ...], ...], jokers: int, deuces: int, black_threes: int, others: int,
                 sets: dict[int, tuple[tuple[int, int], ...]], black_sets: tuple[int, ...],
                 sequences: tuple[tuple[tuple[int, int], ...], ...], sambas: int, *, must_out: bool,
                 answer: bool | None, initial: bool, pending: int, minimum: int, need: int, cap: int,
                 wild_sets: tuple[int, ...] | None = None, bolivias: int = 0, need_sequence: bool = False) -> bool:
    """Whether a Samba turn in its meld phase can still end legally (see the module docstring).

    ``hand[k][s]``: how many naturals of kind ``k`` (0..10) and suit ``s`` the player holds; ``others``:
    cards that no meld takes (red threes); ``sets[k]``: the side's sets of kind ``k`` as sorted
    (naturals, wilds) pairs; ``black_sets``: the sizes of its melds of black threes; ``sequences[s]``:
    its sequences of suit ``s`` that are not sambas, as sorted (low, high) kinds; ``sambas``: its
    sambas; the rest are the turn's flags, the side's minimum and the canastas going out needs.
    Bolivia: ``wild_sets``, the sizes of the side's melds of wild cards that are not yet bolivias (None:
    wild cards never meld alone), ``bolivias``, its bolivias, and ``need_sequence``: one of the canastas
    going out needs must be a sequence of seven (R-BOL-5)."""
    may_keep = not must_out  # a discard that keeps a card
    may_out = answer is not False
    if not (may_keep or may_out):
        return False
    wild = jokers + deuces
    black_left = _black_threes_left(black_threes, black_sets)
    # going out only: at most one card kept, so the cards no later rank can take are counted at once
    spare = 1 - black_left - others if not may_keep else 1 << 30
    if spare < 0:
        return False
    table_canastas = sambas + bolivias
    if may_out and (not need_sequence or sambas) and _sets_go_out(hand, wild, 1 - black_left - others, sets,
                                                                  table_canastas, need, cap, wild_sets):
        return True
    if may_out and need_sequence and not sambas:  # Bolivia: an escalera from the table's sequences first
        for first in (_escalera_first, _runs_first):
            remaining, made = first(hand, sequences)
            if made and _sets_go_out(remaining, wild, 1 - black_left - others, sets, table_canastas + made, need, cap,
                                     wild_sets):
                return True
    room_after = [0] * (_TOP + 2)  # room_after[r]: the most wild cards the sets above rank r can take
    if wild_sets is not None:  # melds of wild cards take any number of them
        room_after = [1 << 30] * (_TOP + 2)
    else:
        for r in range(_TOP - 1, -1, -1):
            above = sets.get(r + 1, ())
            room_after[r] = (room_after[r + 1] + sum(cap - w for n, w in above if not is_canasta(n, w))
                             + cap * (sum(hand[r + 1]) // 2))
    # a position: (open sequences per suit, wild cards left, cards kept (<= 2), canastas (<= need), whether a
    # sequence of seven is among them (when going out needs one))
    start_seq = 1 if (not need_sequence or sambas) else 0
    states: dict[tuple[tuple[tuple[Open, ...], ...], int, int, int, int], int] = {
        (((), (), (), ()), wild, 0, min(need, table_canastas) if may_out else 0, start_seq if may_out else 0): 0}
    for r in range(_TOP + 2):
        value = KIND_VALUES[r] if r <= _TOP else 0
        row = hand[r] if r <= _TOP else (0, 0, 0, 0)
        tables = sequences if r <= _TOP else ((), (), (), ())
        table_sets = sets.get(r, ()) if r <= _TOP else ()
        cards = sum(row)
        room = room_after[r] if r <= _TOP else 0
        fits = _fits(table_sets, cards, wild, cap)
        nxt: dict[tuple[tuple[tuple[Open, ...], ...], int, int, int, int], int] = {}
        for (opened, left, kept, canastas, seq), points in states.items():
            for now_open, used, made in _rank_steps(opened, tables, r, row):
                if r > _TOP and any(now_open):
                    continue
                free = cards - used
                base = points + used * value
                can = canastas + made
                seq2 = (1 if seq or made else 0) if may_out else 0
                for placed in range(free, -1, -1):
                    kept2 = kept + free - placed
                    if kept2 > spare:
                        break
                    if kept2 > 2:
                        kept2 = 2
                    total = base + placed * value
                    for x, g in fits[placed]:
                        if x > left:
                            break
                        if wild_sets is None and left - x - room + kept2 > spare:
                            continue
                        c2 = can + g
                        state = (now_open, left - x, kept2, (c2 if c2 < need else need) if may_out else 0, seq2)
                        if nxt.get(state, -1) < total:
                            nxt[state] = total
        states = nxt
    for (_, left, kept, canastas, seq), points in states.items():
        # the wild cards left: into melds of wild cards (Bolivia), x of them making ``made`` bolivias
        options = [(0, 0)] if wild_sets is None else [(x, made) for x, made in
                                                       enumerate(wild_fits(wild_sets, left)) if made >= 0]
        for x, made in options:
            rest = left - x
            if (may_out and kept + rest + black_left + others <= 1 and canastas + made >= need
                    and (seq or not need_sequence)):
                return True
            if may_keep and kept + rest + black_threes + others >= 2:
                used = wild - rest
                got = points + 50 * min(jokers, used) + 20 * max(0, used - jokers)
                if initial or pending + got >= minimum or (pending == 0 and got == 0):
                    return True
    return False


__all__ = ["turn_can_end", "rank_sets", "wild_fits"]
