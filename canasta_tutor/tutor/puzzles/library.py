"""Puzzles: positions with a verified best move, as plain text records.

A puzzle file holds one or more records.  Each starts with ``puzzle: ID`` and is a
set of ``key: value`` lines, then two indented blocks: the position (the project's
position notation, as the solver sees it) and the verification.  ``#`` starts a
comment line.  Files are data: nothing in them is ever evaluated, and every error
names the file, the line and the field::

    puzzle: c01-frozen-by-a-deuce
    source: composed
    objective: hand
    solution: draw
    accept:
    themes: frozen-pack
    rating: 1200 350
    note: A deuce inside the pile froze it; one nine is not enough to take it.
    position:
      turn: S draw
      pile: 5H 2C 7D 9D
      N: 11
      E: 11
      S: 9H 4D 5S 6C 8D JS QS KD AH AS KH
      W: 11
      melds NS: KS KC KD
    verification:
      forced: yes
      engine: 0.1.0

The fields:

- ``puzzle``: the ID (letters, digits, ``-`` and ``_``), unique in the library.
- ``source``: ``composed``, or ``mined seed=S deal=D ply=P`` for a position taken
  from a seeded self-play game.
- ``objective``: ``hand``, the only one so far: the expected point difference of
  this hand for the solver's side (the solver's side's hand score minus the other's).
- ``solution``: the answer, one action or a short line of the solver's own actions
  in one turn separated by ``,`` (``meld 9 9 9, discard 4``).  Only the first action
  is the decision searched; the rest must be legal in turn and stop at a draw.  In a
  position whose phase is ``answer`` (``turn: S answer asked``: South asked "may I go
  out?"), the solver is the asker's partner and the solution is ``yes`` or ``no``.
- ``accept``: other first actions accepted as correct, separated by ``,`` (may be empty).
- ``themes``: theme names (see :mod:`.themes`), space separated.
- ``rating``: the puzzle's Glicko-2 rating and rating deviation.
- ``note``: one line for the solver after the answer (optional).
- ``position``: the position, indented two spaces.  The solver sees only their own
  hand: the other hands and the stock must be given as counts.
- ``verification``: either ``forced: yes`` (only one move is legal; the point of the
  puzzle is knowing why) or the search: ``samples`` (at least 2000 sampled deals),
  ``seed``, ``best`` and ``second`` (action and value in points), ``difference``
  (best minus second with the 95% interval of the paired difference), and ``engine``
  (the package version that computed it).

:func:`compute_verification` recomputes a block with the hint's deterministic
fixed-sample search (every candidate is played out on the same sampled deals), so
a block can be checked exactly: :func:`verify` fails on any difference.  The
only-move rule: the best action is the solution or an accepted one, it beats the
best other action by at least :data:`MARGIN` points and the lower end of the 95%
interval of the difference is above zero.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ... import __version__
from ...notation.actions import Action, format_action, parse_action
from ...engine.errors import CanastaError, NotationError
from ...engine.observer import observe
from ...notation.position import parse_position
from ...engine.state import SEATS, State
from ...notation.textinput import read_file_text

MIN_SAMPLES = 2000  # sampled deals for a verification
MARGIN = 40.0  # points by which the best must beat the second (the only-move rule)
Z95 = 1.96
OBJECTIVES = {"hand": "expected point difference of this hand for the side to play"}
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
FIELDS = ("puzzle", "source", "objective", "solution", "accept", "themes", "rating", "note")
REQUIRED = ("source", "objective", "solution", "themes", "rating")
VERIFY_FIELDS = ("forced", "samples", "seed", "best", "second", "difference", "engine")
_SOURCE_RE = re.compile(r"^(composed|mined seed=\d+ deal=\d+ ply=\d+)$")
_VALUE_RE = re.compile(r"^(?P<action>.+?) (?P<value>[+-]\d+\.\d)$")
_COUNT_RE = re.compile(r"^\d+( cards?)?( known: .*)?$")
_DIFF_RE = re.compile(r"^(?P<d>-?\d+\.\d) \[(?P<lo>-?\d+\.\d), (?P<hi>-?\d+\.\d)\]$")


#: The largest puzzle file read (the library's largest, of mined puzzles, has about 340,000 bytes).
MAX_FILE_BYTES = 20_000_000


class PuzzleFormatError(NotationError):
    """A malformed puzzle file: the message names the file, the line and the field."""

    def __init__(self, path: str, line: int | None, field_name: str | None, message: str) -> None:
        self.path = path
        super().__init__(message, line, field_name)
        where = f"{path}:{line}" if line is not None else path
        self.args = (f"{where}: {field_name or 'puzzle'}: {message}",)

    def __str__(self) -> str:
        return str(self.args[0])


class VerificationError(CanastaError, ValueError):
    """A puzzle whose stored verification does not match the recomputed one, or whose
    answer fails the only-move rule."""


@dataclass(frozen=True)
class Verification:
    """The verification block of a puzzle."""

    forced: bool
    engine: str
    samples: int = 0
    seed: int = 0
    best: str = ""
    best_value: float = 0.0
    second: str = ""
    second_value: float = 0.0
    difference: float = 0.0
    low: float = 0.0
    high: float = 0.0

    def lines(self) -> list[str]:
        if self.forced:
            return ["forced: yes", f"engine: {self.engine}"]
        return [f"samples: {self.samples}", f"seed: {self.seed}", f"best: {self.best} {self.best_value:+.1f}",
                f"second: {self.second} {self.second_value:+.1f}",
                f"difference: {self.difference:.1f} [{self.low:.1f}, {self.high:.1f}]", f"engine: {self.engine}"]

    def only_move(self) -> bool:
        """The only-move rule (a forced puzzle passes it trivially)."""
        return self.forced or (self.difference >= MARGIN and self.low > 0)


@dataclass
class Puzzle:
    """One puzzle record."""

    id: str
    source: str
    objective: str
    solution: list[str]
    accept: list[str]
    themes: list[str]
    rating: float
    rd: float
    position: str
    verification: Verification
    note: str = ""
    path: str = ""
    line: int = 0
    _state: State | None = field(default=None, repr=False, compare=False)

    def state(self) -> State:
        if self._state is None:
            self._state = parse_position(self.position)
        return self._state.copy()

    @property
    def seat(self) -> str:
        return SEATS[_actor(self.state())]

    def answers(self) -> list[Action]:
        """The first actions judged correct: the solution's first and the accepted ones."""
        return [parse_action(self.solution[0])] + [parse_action(a) for a in self.accept]

    def is_correct(self, action: Action) -> bool:
        return action in self.answers()

    def to_dict(self) -> dict[str, Any]:
        v = self.verification
        out: dict[str, Any] = {"id": self.id, "source": self.source, "objective": self.objective,
                               "solution": self.solution, "accept": self.accept, "themes": self.themes,
                               "rating": round(self.rating), "rd": round(self.rd), "note": self.note,
                               "seat": self.seat, "position": self.position, "forced": v.forced}
        if not v.forced:
            out.update(samples=v.samples, seed=v.seed, best=v.best, best_value=v.best_value, second=v.second,
                       second_value=v.second_value, difference=v.difference, interval=[v.low, v.high])
        out["engine"] = v.engine
        return out


def _actor(state: State) -> int:
    if state.actor is None:
        raise VerificationError("the position has no seat to act")
    return state.actor


# ------------------------------------------------------------------ parse
def _split_list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def parse_puzzles(text: str, path: str = "<text>") -> list[Puzzle]:  # noqa: C901 - one pass over a line format
    """Parse every puzzle record in ``text``; ``path`` names the file in errors."""
    puzzles: list[Puzzle] = []
    lines = text.splitlines()
    i = 0
    seen: set[str] = set()

    def err(line: int | None, fld: str | None, msg: str) -> PuzzleFormatError:
        return PuzzleFormatError(path, line, fld, msg)

    while i < len(lines):
        raw = lines[i]
        if not raw.strip() or raw.lstrip().startswith("#"):
            i += 1
            continue
        if not raw.startswith("puzzle:"):
            raise err(i + 1, raw.split(":", 1)[0].strip()[:30] or None, f"expected 'puzzle: ID' to start a record, "
                      f"got {raw[:60]!r}")
        start = i + 1
        values: dict[str, tuple[int, str]] = {}
        block: dict[str, list[tuple[int, str]]] = {"position": [], "verification": []}
        current: str | None = None
        i_rec = i
        while i_rec < len(lines):
            line = lines[i_rec]
            if i_rec > i and line.startswith("puzzle:"):
                break
            n = i_rec + 1
            i_rec += 1
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("  ") and current is not None:
                block[current].append((n, line[2:]))
                continue
            if line[0].isspace():
                raise err(n, None, f"indented line outside a block: {line.strip()[:60]!r}")
            if ":" not in line:
                raise err(n, None, f"expected 'key: value', got {line[:60]!r}")
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key in block:
                if value:
                    raise err(n, key, f"the {key} block starts on the next line, indented; got {value[:40]!r}")
                if current == key or block[key]:
                    raise err(n, key, "given twice")
                current = key
                continue
            current = None
            if key not in FIELDS:
                raise err(n, key, f"unknown field {key[:30]!r} (known: {', '.join(FIELDS + tuple(block))})")
            if key in values:
                raise err(n, key, f"given twice (first on line {values[key][0]})")
            values[key] = (n, value)
        i = i_rec
        puzzles.append(_build(values, block, path, start, err))
        if puzzles[-1].id in seen:
            raise err(start, "puzzle", f"duplicate ID {puzzles[-1].id!r}")
        seen.add(puzzles[-1].id)
    return puzzles


def _build(values: dict[str, tuple[int, str]], block: dict[str, list[tuple[int, str]]], path: str, start: int,
           err: Any) -> Puzzle:
    pid = values["puzzle"][1]
    if not ID_RE.match(pid):
        raise err(start, "puzzle", f"an ID is letters, digits, '-' and '_', got {pid[:40]!r}")
    for key in REQUIRED:
        if key not in values:
            raise err(start, key, f"puzzle {pid} has no {key!r} field")
    for key in ("position", "verification"):
        if not block[key]:
            raise err(start, key, f"puzzle {pid} has no {key} block")
    line, source = values["source"]
    if not _SOURCE_RE.match(source):
        raise err(line, "source", f"expected 'composed' or 'mined seed=S deal=D ply=P', got {source[:40]!r}")
    line, objective = values["objective"]
    if objective not in OBJECTIVES:
        raise err(line, "objective", f"unknown objective {objective[:30]!r} (known: {', '.join(OBJECTIVES)})")
    line, rating_text = values["rating"]
    m = re.match(r"^(\d{3,4}(?:\.\d+)?) (\d{1,3}(?:\.\d+)?)$", rating_text)
    if not m:
        raise err(line, "rating", f"expected the rating and its deviation ('1500 350'), got {rating_text[:30]!r}")
    from .themes import THEMES

    line, themes_text = values["themes"]
    themes = themes_text.split()
    for t in themes:
        if t not in THEMES:
            raise err(line, "themes", f"unknown theme {t[:30]!r}")
    # the position, as the solver sees it
    pos_first = block["position"][0][0]
    pos_text = "\n".join(t for _, t in block["position"]) + "\n"
    try:
        state = parse_position(pos_text)
    except NotationError as e:
        ln = pos_first + e.line - 1 if e.line is not None else pos_first
        raise err(ln, f"position {e.field}" if e.field else "position", e.message) from None
    if state.actor is None or state.phase not in ("draw", "meld", "answer"):
        raise err(pos_first, "position", "the position must have a seat to act (phase draw, meld or answer)")
    actor = SEATS[state.actor]
    for n, t in block["position"]:
        key, _, value = t.partition(":")
        key, value = key.strip(), value.strip()
        if len(key) == 1 and key in SEATS and key != actor and not _COUNT_RE.match(value):
            raise err(n, f"position {key}", f"the solver ({actor}) cannot see {key}'s cards: give a count")
        if key == "stock" and not (value.isdigit() or value == "-"):
            raise err(n, "position stock", "the solver cannot see the stock: give a count")
    # the solution, a line of the solver's own actions
    line, sol_text = values["solution"]
    solution = _split_list(sol_text)
    if not solution:
        raise err(line, "solution", "empty")
    s = state.copy()
    for i, step in enumerate(solution):
        try:
            a = parse_action(step)
        except NotationError as e:
            raise err(line, "solution", f"{step[:40]!r}: {e.message}") from None
        if s.actor != state.actor:
            raise err(line, "solution", f"{step[:40]!r}: the line goes on after the solver's turn ended")
        if a not in s.legal_actions():
            raise err(line, "solution", f"{step[:40]!r} is not legal here ({s.explain(a)})")
        s.apply(a)
        if a[0] in ("draw", "ask") and i + 1 < len(solution):
            raise err(line, "solution", f"{step[:40]!r}: the line must stop at a draw or an ask (unknown cards)")
    accept_line, accept_text = values.get("accept", (line, ""))
    accept = _split_list(accept_text)
    legal = state.legal_actions()
    for alt in accept:
        try:
            a = parse_action(alt)
        except NotationError as e:
            raise err(accept_line, "accept", f"{alt[:40]!r}: {e.message}") from None
        if a not in legal:
            raise err(accept_line, "accept", f"{alt[:40]!r} is not legal here")
    verification = _parse_verification(block["verification"], err)
    return Puzzle(id=pid, source=source, objective=objective, solution=[format_action(parse_action(x))
                  for x in solution], accept=[format_action(parse_action(x)) for x in accept], themes=themes,
                  rating=float(m.group(1)), rd=float(m.group(2)), position=pos_text, verification=verification,
                  note=values.get("note", (0, ""))[1], path=path, line=start, _state=state)


def _parse_verification(lines: list[tuple[int, str]], err: Any) -> Verification:
    got: dict[str, tuple[int, str]] = {}
    for n, t in lines:
        key, sep, value = t.partition(":")
        key = key.strip()
        if not sep or key not in VERIFY_FIELDS:
            raise err(n, f"verification {key[:20]}", f"unknown line {t.strip()[:40]!r} "
                      f"(known: {', '.join(VERIFY_FIELDS)})")
        if key in got:
            raise err(n, f"verification {key}", "given twice")
        got[key] = (n, value.strip())
    first = lines[0][0]
    if "engine" not in got:
        raise err(first, "verification engine", "missing")
    engine = got["engine"][1]
    if "forced" in got:
        n, v = got["forced"]
        if v != "yes":
            raise err(n, "verification forced", f"expected 'yes', got {v[:20]!r}")
        extra = [k for k in got if k not in ("forced", "engine")]
        if extra:
            raise err(got[extra[0]][0], f"verification {extra[0]}", "a forced puzzle has no search figures")
        return Verification(True, engine)
    for k in ("samples", "seed", "best", "second", "difference"):
        if k not in got:
            raise err(first, f"verification {k}", "missing")
    n, v = got["samples"]
    if not v.isdigit() or int(v) < MIN_SAMPLES:
        raise err(n, "verification samples", f"at least {MIN_SAMPLES} sampled deals, got {v[:20]!r}")
    samples = int(v)
    n, v = got["seed"]
    if not v.isdigit():
        raise err(n, "verification seed", f"expected a whole number, got {v[:20]!r}")
    seed = int(v)
    parsed = {}
    for k in ("best", "second"):
        n, v = got[k]
        m = _VALUE_RE.match(v)
        if not m:
            raise err(n, f"verification {k}", f"expected 'ACTION +VALUE' (one decimal), got {v[:40]!r}")
        try:
            act = format_action(parse_action(m.group("action")))
        except NotationError as e:
            raise err(n, f"verification {k}", e.message) from None
        parsed[k] = (act, float(m.group("value")))
    n, v = got["difference"]
    m = _DIFF_RE.match(v)
    if not m:
        raise err(n, "verification difference", f"expected 'D [LOW, HIGH]' (one decimal each), got {v[:40]!r}")
    return Verification(False, engine, samples, seed, parsed["best"][0], parsed["best"][1], parsed["second"][0],
                        parsed["second"][1], float(m.group("d")), float(m.group("lo")), float(m.group("hi")))


# ------------------------------------------------------------------ format
def format_puzzle(p: Puzzle) -> str:
    """The record as text; ``parse_puzzles(format_puzzle(p))`` gives ``p`` back."""
    out = [f"puzzle: {p.id}", f"source: {p.source}", f"objective: {p.objective}",
           f"solution: {', '.join(p.solution)}", "accept: " + ", ".join(p.accept),
           f"themes: {' '.join(p.themes)}", f"rating: {p.rating:.0f} {p.rd:.0f}"]
    if p.note:
        out.append(f"note: {p.note}")
    out.append("position:")
    out += ["  " + t for t in p.position.splitlines() if t.strip()]
    out.append("verification:")
    out += ["  " + t for t in p.verification.lines()]
    return "\n".join(x.rstrip() for x in out) + "\n"


def format_puzzles(puzzles: Iterable[Puzzle]) -> str:
    return "\n".join(format_puzzle(p) for p in puzzles)


# ------------------------------------------------------------------ library
def library_dir() -> Path:
    """The puzzle folder: inside the installed package, else the source tree's ``puzzles/``."""
    package = Path(__file__).resolve().parents[2]  # the package (this file is in its tutor/puzzles/)
    inside = package / "course" / "puzzles"
    return inside if inside.is_dir() else package.parent / "puzzles"


def load_file(path: Path | str) -> list[Puzzle]:
    """The puzzles of one file, read within limits (a regular file of at most :data:`MAX_FILE_BYTES`,
    UTF-8: see :mod:`canasta_tutor.notation.textinput`)."""
    p = Path(path)
    try:
        text = read_file_text(p, MAX_FILE_BYTES, p.name)
    except NotationError as e:
        raise PuzzleFormatError(p.name, e.line, None, e.message) from None
    return parse_puzzles(text, p.name)


def load_library(folder: Path | str | None = None) -> list[Puzzle]:
    """Every puzzle in the folder's ``*.txt`` files (sorted by file name), IDs unique.  A folder that
    does not exist is an error (:class:`PuzzleFormatError`), never an empty library."""
    root = Path(folder) if folder is not None else library_dir()
    if not root.is_dir():
        raise PuzzleFormatError(str(root), None, "folder", "no such folder" if not root.exists() else "not a folder")
    out: list[Puzzle] = []
    where: dict[str, str] = {}
    for f in sorted(root.rglob("*.txt")):
        for p in load_file(f):
            if p.id in where:
                raise PuzzleFormatError(f.name, p.line, "puzzle", f"duplicate ID {p.id!r} (also in {where[p.id]})")
            where[p.id] = f.name
            out.append(p)
    return out


def sample(puzzles: list[Puzzle], n: int, seed: int) -> list[Puzzle]:
    """A seeded sample of ``n`` puzzles, in library order."""
    if n >= len(puzzles):
        return list(puzzles)
    chosen = set(random.Random(seed).sample(range(len(puzzles)), n))
    return [p for i, p in enumerate(puzzles) if i in chosen]


# ------------------------------------------------------------------ verification
def compute_verification(state: State, answers: list[Action], samples: int = MIN_SAMPLES,
                         seed: int = 1) -> Verification:
    """The verification block of a position: the hint's deterministic search at ``samples``
    sampled deals from ``seed``.  ``answers`` are the actions judged correct; the second is
    the best action outside them."""
    from ...hint import analyse

    obs = observe(state, _actor(state))
    if len(obs.legal_actions) == 1:
        return Verification(True, __version__)
    _, est = analyse(obs, samples=samples, seed=seed, extra=answers[0])
    return estimates_block(est, answers, samples, seed)


def estimates_block(est: list[Any], answers: list[Action], samples: int, seed: int) -> Verification:
    """The verification block from a search's estimates (best first), as
    :func:`compute_verification` states it; mining reuses it on its own full searches."""
    best = est[0]
    second = next((e for e in est if e.action not in answers), None)
    if best.action not in answers:
        second = next(e for e in est if e.action in answers)
    if second is None:  # every candidate searched is an accepted answer
        raise VerificationError("every candidate searched is an accepted answer: nothing to compare with")
    diff = best.mean - second.mean
    half = Z95 * second.diff_stderr
    return Verification(False, __version__, samples, seed, format_action(best.action), round(best.mean, 1),
                        format_action(second.action), round(second.mean, 1), round(diff, 1),
                        round(diff - half, 1), round(diff + half, 1))


def problems(p: Puzzle, fresh: Verification) -> list[str]:
    """What is wrong with ``p`` given a freshly computed block (empty when it passes)."""
    out = []
    if fresh.lines() != p.verification.lines():
        stored, new = p.verification.lines(), fresh.lines()
        diffs = [f"{a!r} recomputed as {b!r}" for a, b in zip(stored, new, strict=False) if a != b]
        if len(stored) != len(new):
            diffs.append(f"{len(stored)} lines stored, {len(new)} recomputed")
        out.append("verification differs: " + "; ".join(diffs))
    if not fresh.forced:
        if parse_action(fresh.best) not in p.answers():
            out.append(f"the search prefers {fresh.best!r} to the solution {p.solution[0]!r}")
        elif not fresh.only_move():
            out.append(f"fails the only-move rule: best beats second by {fresh.difference:.1f} "
                       f"[{fresh.low:.1f}, {fresh.high:.1f}] (needs >= {MARGIN:.0f} and a lower end above 0)")
    elif p.state().legal_actions() != [parse_action(p.solution[0])]:
        out.append("forced, but the only legal move is not the solution")
    return out


def verify(p: Puzzle) -> list[str]:
    """Recompute ``p``'s verification block from its seed and sample count; the problems found."""
    v = p.verification
    fresh = compute_verification(p.state(), p.answers(), v.samples or MIN_SAMPLES, v.seed or 1)
    return problems(p, fresh)


def estimate_rating(state: State, answers: list[Action]) -> float:
    """A rough starting rating, from whether weaker players find the answer: 1000 for a
    forced move; otherwise 1300 when the rules-of-thumb bot plays the answer, 1700 when it does
    not, plus up to 200 as the chance that a random legal move is an answer falls (the random
    bot's chance is ``answers / legal``).  Superseded by
    :func:`.starting_rating.starting_rating` (four solvers, one Glicko-2 rating period), which
    :func:`complete` and mining use; kept for a quick look, as it costs no search."""
    from ...bots.rules_of_thumb import decide
    from ...engine.observer import observe_compact

    legal = state.legal_actions()
    if len(legal) == 1:
        return 1000.0
    found = decide(observe_compact(state, _actor(state), legal))[0] in answers
    chance = sum(1 for a in legal if a in answers) / len(legal)
    return (1300.0 if found else 1700.0) + round(200 * (1 - chance))


def complete(p: Puzzle, samples: int = MIN_SAMPLES, seed: int = 1, rating_seeds: int = 4) -> Puzzle:
    """A draft puzzle with its verification block computed, its themes detected (added to
    those given) and, for a new puzzle (deviation 350), its starting rating and deviation from
    how often weaker solvers find the answer (:func:`.starting_rating.starting_rating`, as
    mining rates its puzzles; ``rating_seeds`` attempts per solver that is not deterministic).
    The rating costs about a tenth of the verification's search."""
    from .starting_rating import starting_rating
    from .themes import detect

    state = p.state()
    fresh = compute_verification(state, p.answers(), samples, seed)
    themes = list(dict.fromkeys(p.themes + detect(observe(state, _actor(state)), p.answers()[0], state)))
    rating, rd = p.rating, p.rd
    if p.rd >= 350:
        start = starting_rating(state, p.answers(), seeds=rating_seeds)
        rating, rd = start.rating, start.rd
    return Puzzle(p.id, p.source, p.objective, p.solution, p.accept, themes, rating, rd, p.position, fresh,
                  p.note, p.path, p.line)


# ------------------------------------------------------------------ export
LICHESS_COLUMNS = ["PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation", "Popularity", "NbPlays", "Themes",
                   "GameUrl", "OpeningTags"]
OUR_COLUMNS = ["Objective", "Accept", "Source", "Forced", "Samples", "Seed", "BestValue", "Second", "SecondValue",
               "Difference", "IntervalLow", "IntervalHigh", "Engine"]


def to_csv(puzzles: Iterable[Puzzle]) -> str:
    """lichess's columns, mapped: FEN is the position on one line (its lines joined by
    `` / ``), Moves the solution line (space separated actions joined by ``;``),
    Popularity and NbPlays 0 (no plays recorded yet), GameUrl the source, OpeningTags
    empty; then our columns."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(LICHESS_COLUMNS + OUR_COLUMNS)
    for p in puzzles:
        v = p.verification
        position = " / ".join(t.strip() for t in p.position.splitlines() if t.strip())
        w.writerow([p.id, position, ";".join(p.solution), round(p.rating), round(p.rd), 0, 0, " ".join(p.themes),
                    p.source, "", p.objective, ";".join(p.accept), p.source, "yes" if v.forced else "no",
                    v.samples, v.seed, v.best_value if not v.forced else "", v.second, v.second_value
                    if not v.forced else "", v.difference if not v.forced else "", v.low if not v.forced else "",
                    v.high if not v.forced else "", v.engine])
    return buf.getvalue()


def to_json(puzzles: Iterable[Puzzle]) -> str:
    return json.dumps([p.to_dict() for p in puzzles], indent=1)



def rerate_text(text: str, path: str = "<text>", seeds: int = 4, only_new: bool = True) -> tuple[str, int]:
    """``text`` (a puzzle file) with the ``rating:`` line of each puzzle replaced by its
    starting rating; with ``only_new``, only puzzles never rated (deviation 350) change.
    Every other line, comments included, stays as it is.  Returns the text and the count."""
    from .starting_rating import starting_rating

    lines = text.split("\n")
    changed = 0
    for p in parse_puzzles(text, path):
        if only_new and p.rd < 350:
            continue
        i = p.line - 1
        while not lines[i].startswith("rating:"):
            i += 1
        r = starting_rating(p.state(), p.answers(), seeds)
        lines[i] = f"rating: {r.rating:.0f} {r.rd:.0f}"
        changed += 1
    return "\n".join(lines), changed


__all__ = [
    "rerate_text", "Puzzle", "Verification", "PuzzleFormatError", "VerificationError", "parse_puzzles",
    "format_puzzle", "format_puzzles", "load_library", "load_file", "library_dir", "compute_verification", "verify",
    "problems", "sample", "complete", "estimates_block", "estimate_rating", "to_csv", "to_json", "MIN_SAMPLES",
    "MARGIN"
]
