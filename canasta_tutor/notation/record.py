"""Game records: a header and every action, replayable to the same final state.

A record is plain text; ``#`` starts a comment.  The header says how the game
began (everything :meth:`Game.new_initial_state <canasta_tutor.engine.game.Game.new_initial_state>`
needs), then each action is one line, the acting seat first, and the last line
gives the final totals, which :func:`replay` checks.  The header comes before the
actions, and nothing but comments follows the result line::

    # canasta-tutor game record
    seed: 42
    options: black_three=stops
    players: N, E, S, W
    totals: 0 0
    dealer: draw
    seats: N=N E=E S=S W=W
    actions:
    S draw
    S meld K K K
    ...
    result: NS 1234 EW -560

- ``options``: :meth:`RuleOptions.format` words; empty or absent for the defaults.
- ``players``: the names passed to the game.  With ``dealer: draw`` this is the
  order they drew for seats, and ``seats`` (checked on replay, optional) shows
  where the draw put them; with a seat letter as dealer (the draw was skipped)
  they are the players by seat, N E S W.
- ``totals``: the starting totals (NS then EW); absent means 0 0.
- ``variant``: the variant played (:mod:`canasta_tutor.engine.variants`), written on the line after
  the header comment when it is not the classic game; absent means ``classic``.  The variant
  sets the seat letters the action lines, ``dealer`` and ``seats`` use (two-handed ``N S``,
  three-handed ``E S W``, six-handed ``N E P S W Q``), how many names ``players`` gives (one per
  seat), and how many totals ``totals`` and ``result`` give: one per side, in the variant's side
  order (``result: N 120 S -40``; ``result: E 0 S 95 W 310``; ``result: NS 0 EW 60 PQ 1200``,
  written with the side names; ``totals`` may leave them out: ``totals: 0 0 0``).

A five-handed record names five players: with ``dealer: draw``, in the order they drew; with a seat
letter, the four in the chairs N, E, S, W at the first deal, then the one sitting it out (R-FIVE-1).

A six-handed record begins::

    # canasta-tutor game record
    variant: six-handed
    seed: 7
    players: N, E, P, S, W, Q
    dealer: P
    actions:
    S draw

>>> from canasta_tutor import Game
>>> state = Game().new_initial_state(seed=4)
>>> state.apply(("draw",))
>>> rec = parse_record(format_record(state))
>>> rec.seed, rec.dealer, len(rec.actions)
(4, 'draw', 1)
>>> replay(rec).history == state.history
True
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from .actions import format_action, parse_action
from ..engine.errors import CanastaError, IllegalActionError, NotationError
from ..engine.game import Game, check_player_names
from ..engine.options import RuleOptions
from ..engine.state import Action, State
from .textinput import iter_lines, read_lines
from ..engine.variants import CLASSIC, UnknownVariantError, Variant, get_variant

HEADER_LINE = "# canasta-tutor game record"
#: No game comes near this many actions; a record with more is refused while it is read.
MAX_ACTIONS = 200_000


class RecordMismatchError(NotationError):
    """The record replays, but not to the totals its ``result`` line gives."""


@dataclass
class Record:
    """A parsed game record.

    ``actions`` holds ``(seat, action)`` pairs and ``action_lines`` the line
    number of each, for error messages.  ``dealer`` is ``"draw"`` when the game
    began with the draw for seats, else the first dealer's seat letter.
    """

    seed: int = 0
    options: RuleOptions = field(default_factory=RuleOptions)
    players: tuple[str, ...] = ("N", "E", "S", "W")
    totals: tuple[int, ...] = (0, 0)
    dealer: str = "draw"
    seats: tuple[str, ...] | None = None
    actions: list[tuple[str, Action]] = field(default_factory=list)
    action_lines: list[int] = field(default_factory=list)
    result: tuple[int, ...] | None = None
    result_line: int | None = None
    variant: Variant = CLASSIC

    def initial_state(self) -> State:
        """The state before the first action."""
        dealer = None if self.dealer == "draw" else self.dealer
        return Game(self.options, self.variant).new_initial_state(self.seed, players=self.players,
                                                                  totals=self.totals, dealer=dealer)


def start_totals(state: State) -> tuple[int, ...]:
    """The totals the game started from: today's totals less every hand's score.

    >>> from canasta_tutor import Game
    >>> start_totals(Game().new_initial_state(seed=1, totals=(1500, -20)))
    (1500, -20)
    """
    got = list(state.totals)
    for r in state.hand_results:
        for s in range(len(got)):
            got[s] -= r.sides[s].total
    return tuple(got)


def _players_in(state: State) -> tuple[str, ...]:
    if state.seat_draws:
        return tuple(d.player for d in state.seat_draws[:len(state.variant.roster)])
    chairs, out = state.first_deal_players()  # and the player sitting out then, if any (R-FIVE-2)
    return chairs if out is None else (*chairs, out)


def _check_name(name: str) -> str:
    try:
        check_player_names((name, name + "1", name + "2", name + "3"))
    except NotationError as e:
        raise NotationError(f"{e.message}: it cannot be written in a record", field="players") from None
    return name


def format_record(state: State, start: Sequence[int] | None = None) -> str:
    """The record of a game so far: header, every action in ``state.history``, result.

    ``start`` gives the starting totals; by default they are worked out from
    the hand results (:func:`start_totals`).
    """
    variant = state.variant
    seats = variant.seats
    begin = tuple(start) if start is not None else start_totals(state)
    players = tuple(_check_name(p) for p in _players_in(state))
    lines = [HEADER_LINE]
    if variant is not CLASSIC:
        lines.append(f"variant: {variant.name}")
    lines.append(f"seed: {state.seed}")
    opts = state.options.format()
    if opts:
        lines.append(f"options: {opts}")
    lines.append(f"players: {', '.join(players)}")
    if any(begin):
        lines.append("totals: " + " ".join(str(t) for t in begin))
    first_dealer = seats[(state.dealer - state.deal_no) % variant.players]
    if state.seat_draws:
        lines.append("dealer: draw")
        chairs = state.first_deal_players()[0]  # the chairs at the first deal
        lines.append("seats: " + " ".join(f"{s}={p}" for s, p in zip(seats, chairs, strict=True)))
    else:
        # the first dealer: the dealer now, moved back one seat per deal since
        lines.append(f"dealer: {first_dealer}")
    lines.append("actions:")
    # rebuild the seat of each action by replaying on a copy of the initial state
    rec = Record(seed=state.seed, options=state.options, players=players, totals=tuple(int(t) for t in begin),
                 dealer="draw" if state.seat_draws else first_dealer, variant=variant)
    s = rec.initial_state()
    for a in state.history:
        if a == ("deal",):
            lines.append(_hand_comment(s))
        lines.append(f"{s.current_seat} {format_action(a)}")
        why = s.explain(a)
        if why is not None:
            raise NotationError(f"the state's history does not replay from seed {state.seed}: "
                                f"{format_action(a)} is illegal at action {len(s.history) + 1}: {why}")
        s.apply_unchecked(a)
    if s.phase in ("hand_over", "game_over") and (not state.history or state.history[-1] != ("deal",)):
        lines.append(_hand_comment(s))
    if s.totals != state.totals:
        raise NotationError(f"the history replays to totals {s.totals}, not {state.totals}: "
                            "the start totals are wrong")
    lines.append(f"result: {_by_side(variant, state.totals)}")
    return "\n".join(lines) + "\n"


def _by_side(variant: Variant, totals: Sequence[int]) -> str:
    """``NS 1234 EW -560``: each side's name and number."""
    return " ".join(f"{name} {t}" for name, t in zip(variant.side_names, totals, strict=True))


def _hand_comment(s: State) -> str:
    r = s.hand_results[-1].sides
    return (f"# hand {len(s.hand_results)}: {_by_side(s.variant, [x.total for x in r])}; totals "
            + " ".join(str(t) for t in s.totals))


def _int(text: str, line: int, name: str) -> int:
    t = text.strip()
    digits = t[1:] if t[:1] in "+-" else t
    if not digits.isascii() or not digits.isdigit():
        raise NotationError(f"{_quote(text)} is not a whole number", line=line, field=name)
    if len(digits) > 9:
        raise NotationError(f"{_quote(text)} is too large a number (at most 9 digits)", line=line, field=name)
    return int(t)


def _quote(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit] + "…") + f" ({len(text)} characters)"


_COUNT = {2: "two", 3: "three", 4: "four", 6: "six"}
#: the header's fields, in the order they are written
_FIELDS = ("variant", "seed", "options", "players", "totals", "dealer", "seats", "actions", "result")
_EXAMPLE_NAMES = ("P1", "P2", "P3", "P4", "P5", "P6")


def _or_list(items: Sequence[str], last: str = " or ") -> str:
    """``N, E, S or W``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]


def _totals(value: str, line: int, name: str, variant: Variant = CLASSIC) -> tuple[int, ...]:
    words = value.split()
    names = variant.side_names
    n = len(names)
    if len(words) == 2 * n and all(words[2 * i].upper() == names[i] for i in range(n)):
        words = words[1::2]
    if len(words) != n:
        raise NotationError(f"{_quote(value)}: give {_COUNT.get(n, n)} totals, {', '.join(names[:-1])} then "
                            f"{names[-1]}, like '{' '.join(['0'] * n)}' or '{_by_side(variant, [0] * n)}'",
                            line=line, field=name)
    return tuple(_int(w, line, name) for w in words)


def parse_record(text: str | Iterable[tuple[int, str]], source: str | None = None) -> Record:
    """Parse a record's text, or its numbered lines as :func:`canasta_tutor.notation.textinput.read_lines`
    streams them (no replay; see :func:`replay`).

    Errors are :class:`NotationError` naming the line and field (and ``source``, a file name).
    """
    return _parse(text, source, None)


def _parse(text: str | Iterable[tuple[int, str]], source: str | None,
           on_action: Callable[[Record, int], None] | None) -> Record:
    """The one pass over a record; ``on_action(record, index)`` runs as each action is read."""
    if isinstance(text, str):
        lines: Iterable[tuple[int, str]] = iter_lines(io.StringIO(text), source or "the record")
    else:
        lines = text
    try:
        return _parse_lines(lines, on_action)
    except NotationError as e:
        raise (e.in_file(source) if source and not e.source else e) from None


def _parse_lines(lines: Iterable[tuple[int, str]], on_action: Callable[[Record, int], None] | None) -> Record:
    rec = Record()
    seen: set[str] = set()
    in_actions = ended = False
    for no, raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ended:
            raise NotationError(f"{_quote(line)}: the result line ends the record (on line {rec.result_line}); "
                                "nothing may follow it", line=no, field="result")
        if in_actions:
            if line.lower().startswith("result:"):
                rec.result = _totals(line.split(":", 1)[1], no, "result", rec.variant)
                rec.result_line = no
                in_actions = False
                ended = True
                continue
            head = line.partition(":")[0].strip().lower()
            if ":" in line and head in _FIELDS:
                raise NotationError(f"{_quote(line)}: the header ({head}) comes before the actions, not among them",
                                    line=no, field=head)
            seat, _, rest = line.partition(" ")
            if seat.upper() not in rec.variant.seats or len(seat) != 1:
                raise NotationError(f"{_quote(line)}: an action line starts with the seat that acts "
                                    f"({_or_list(rec.variant.seats)})", line=no, field="actions")
            try:
                action = parse_action(rest)
            except NotationError as e:
                raise NotationError(e.message, line=no, field="actions") from None
            if len(rec.actions) >= MAX_ACTIONS:
                raise NotationError(f"more than {MAX_ACTIONS} actions: no game is that long", line=no,
                                    field="actions")
            rec.actions.append((seat.upper(), action))
            rec.action_lines.append(no)
            if on_action is not None:
                on_action(rec, len(rec.actions) - 1)
            continue
        name, sep, value = line.partition(":")
        name = name.strip().lower()
        value = value.strip()
        if not sep:
            raise NotationError(f"{_quote(line)}: expected 'name: value' (variant, seed, options, players, totals, "
                                "dealer, seats, actions, result)", line=no)
        if name in seen:
            raise NotationError(f"{name} is given twice", line=no, field=name)
        seen.add(name)
        seats = rec.variant.seats
        if name == "variant":
            if len(seen) > 1:
                raise NotationError(f"the variant line comes first, before {', '.join(sorted(seen - {name}))}",
                                    line=no, field=name)
            try:
                rec.variant = get_variant(value.lower())
            except UnknownVariantError as e:
                raise NotationError(str(e), line=no, field=name) from None
            rec.players = tuple(rec.variant.seats)
            rec.totals = (0,) * rec.variant.n_sides
        elif name == "seed":
            rec.seed = _int(value, no, name)
        elif name == "options":
            try:
                rec.options = RuleOptions.parse(value)
            except NotationError as e:
                raise NotationError(e.message, line=no, field=name) from None
        elif name == "players":
            names = [p.strip() for p in value.split(",")]
            n = len(rec.variant.roster)
            if len(names) != n or not all(names):
                raise NotationError(f"{_quote(value)}: name {_COUNT.get(n, n)} players separated by commas", line=no,
                                    field=name)
            if len(set(names)) != n:
                raise NotationError(f"{_quote(value)}: the {_COUNT.get(n, n)} players need different names",
                                    line=no, field=name)
            try:
                rec.players = check_player_names(names, rec.variant.roster)
            except NotationError as e:
                raise NotationError(e.message, line=no, field=name) from None
        elif name == "totals":
            rec.totals = _totals(value, no, name, rec.variant)
        elif name == "dealer":
            v = value.lower()
            if v == "draw":
                rec.dealer = "draw"
            elif v.upper() in seats and len(v) == 1:
                rec.dealer = v.upper()
            else:
                raise NotationError(f"{_quote(value)}: the dealer is 'draw' or a seat, {_or_list(seats)}",
                                    line=no, field=name)
        elif name == "seats":
            got: dict[str, str] = {}
            last = ""
            for word in value.split():
                s, eq, p = word.partition("=")
                if not eq and last:  # a name with a space in it
                    got[last] += " " + word
                    continue
                if not eq or s.upper() not in seats or len(s) != 1 or not p or s.upper() in got:
                    example = " ".join(f"{x}={n}" for x, n in zip(seats, _EXAMPLE_NAMES, strict=False))
                    raise NotationError(f"{_quote(value)}: write each seat once, like '{example}'",
                                        line=no, field=name)
                last = s.upper()
                got[last] = p
            if len(got) != len(seats):
                raise NotationError(f"{_quote(value)}: give all {_COUNT.get(len(seats), len(seats))} seats", line=no,
                                    field=name)
            rec.seats = tuple(got[x] for x in seats)
        elif name == "actions":
            if value:
                raise NotationError("actions follow on the next lines, one per line", line=no, field=name)
            in_actions = True
        elif name == "result":
            rec.result = _totals(value, no, name, rec.variant)
            rec.result_line = no
        else:
            raise NotationError(f"unknown field {_quote(name, 30)}; fields are variant, seed, options, players, "
                                "totals, dealer, seats, actions, result", line=no, field=name)
    if "seed" not in seen:
        raise NotationError("the record has no 'seed:' line", field="seed")
    if rec.seats is not None and rec.dealer != "draw":
        raise NotationError("'seats:' belongs with 'dealer: draw'; otherwise players are given by seat",
                            field="seats")
    return rec


def replay(record: Record, check_result: bool = True) -> State:
    """Replay a record with the checked :meth:`State.apply`; return the final state.

    Each line's seat must be the seat to act.  An illegal action raises
    :class:`NotationError` naming the line and quoting the rule; with
    ``check_result`` a ``result`` line that disagrees with the final totals
    raises :class:`RecordMismatchError`.
    """
    state = _start(record)
    lines = record.action_lines or [None] * len(record.actions)  # type: ignore[list-item]
    for pair, no in zip(record.actions, lines, strict=True):
        _apply(state, pair, no)
    _check_result(record, state, check_result)
    return state


def _start(record: Record) -> State:
    try:
        state = record.initial_state()
    except (CanastaError, ValueError) as e:
        raise NotationError(f"cannot start the game: {e}", field="header") from None
    if record.seats is not None and tuple(state.players) != tuple(record.seats):
        got = " ".join(f"{s}={p}" for s, p in zip(state.variant.seats, state.players, strict=True))
        raise NotationError(f"the draw for seats gives {got}, not the record's seats", field="seats")
    return state


def _apply(state: State, pair: tuple[str, Action], no: int | None) -> None:
    seat, action = pair
    text = format_action(action)
    if state.current_seat is None:
        raise NotationError(f"{seat} {text}: the game is already over", line=no, field="actions")
    if seat != state.current_seat:
        raise NotationError(f"{seat} {text}: it is {state.current_seat}'s turn to act, not {seat}'s",
                            line=no, field="seat")
    try:
        state.apply(action)
    except IllegalActionError as why:
        raise NotationError(f"{seat} {text} is illegal here: {why}", line=no, field="actions") from None


def _check_result(record: Record, state: State, check: bool) -> None:
    if check and record.result is not None and tuple(state.totals) != tuple(record.result):
        raise RecordMismatchError(
            f"the record gives the result {_by_side(record.variant, record.result)}, but the actions "
            f"replay to {_by_side(record.variant, state.totals)}", line=record.result_line, field="result")


def load_record(path: str, on_action: Callable[[Record, int], None] | None = None) -> Record:
    """Read and parse a record file (``-``: standard input), streamed line by line within the
    limits of :mod:`canasta_tutor.notation.textinput` (a regular file, or standard input).  The one reader
    of record files: ``on_action(record, index)`` runs as each action is read (see :func:`replay_file`)."""
    name = "<stdin>" if path == "-" else path
    return _parse(read_lines(path), name, on_action)


def replay_file(path: str, check_result: bool = True) -> tuple[Record, State]:
    """Read (with :func:`load_record`), parse and replay a record file as it streams: an illegal
    action on line 8 is reported before line 9 is read.  Returns the record and the final state."""
    name = "<stdin>" if path == "-" else path
    holder: list[State] = []

    def step(rec: Record, index: int) -> None:
        if not holder:
            if rec.seats is not None and rec.dealer != "draw":
                raise NotationError("'seats:' belongs with 'dealer: draw'; otherwise players are given by seat",
                                    field="seats")
            holder.append(_start(rec))
        _apply(holder[0], rec.actions[index], rec.action_lines[index])

    record = load_record(path, step)
    try:
        state = holder[0] if holder else _start(record)
        _check_result(record, state, check_result)
    except NotationError as e:
        raise e.in_file(name) from None
    return record, state


__all__ = ["Record", "RecordMismatchError", "format_record", "parse_record", "replay", "start_totals",
           "load_record", "replay_file"]
