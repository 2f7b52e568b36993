"""Assignment logs and their grading: the student's actions, replayed through the engine.

While a student plays an item, :class:`ItemRecorder` writes the log file
``canasta-log/<item>.json`` beside the notebook: every attempt's actions, refusals and
hints in order (and, for the student's eyes only, the totals).  The student submits
it with the notebook.  The autograded test cell calls :func:`grade_item`, which reads
only the attempts' entries and replays each attempt from the item's own seed (carried by
the locked cell, not by the log) through the level runner on the engine; the totals and
any status written in the log are never read.  So a log whose totals were edited, or
a notebook whose outputs were edited, earns nothing that the replay does not give.

The partial credit rule: an item is solved when one attempt passes on replay; it then
scores ``points - hint_penalty * hints``, at least 0, where ``hints`` is the most hints
opened in any one attempt (hints are staged, so seeing hint 1 and hint 2, then retrying,
still counts two).  An unsolved item scores 0.

>>> from canasta_tutor.tutor.assignments.spec import Item
>>> item = Item(id="demo", kind="puzzle", points=10, hint_penalty=3, puzzle="c22-take-the-pack")
>>> score(item, solved=True, hints=1), score(item, solved=True, hints=5), score(item, solved=False, hints=0)
(7, 0, 0)
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...atomicfile import write_atomic
from ...errors import CanastaError, NotationError
from ...textinput import load_json, read_file_text
from ..lessons.model import Level
from ..lessons.runner import FAILED, OPEN, PASSED, LevelRun
from ..puzzles import Puzzle
from ..trainer import MISSED, SOLVED, PuzzleRun, TrainerError
from .items import item_level
from .spec import PUZZLE, Item, puzzle_library

LOG_DIR = "canasta-log"
LOG_FORMAT = 1
MAX_LOG_BYTES = 1_000_000
#: how deep a log's JSON may nest (a log nests four deep: the log, its attempts, an attempt, its entries)
MAX_LOG_DEPTH = 8
MAX_ATTEMPTS = 200
MAX_ENTRIES = 1000
MAX_TEXT = 200
#: the entry kinds the grader reads: the learner's tries (accepted, refused, or a puzzle's wrong move)
#: and the hints opened
LEARNER_KINDS = ("action", "refused", "wrong", "hint")
#: a puzzle run's status as a level's
PUZZLE_STATUS = {SOLVED: PASSED, MISSED: FAILED, OPEN: OPEN}


class LogError(CanastaError, ValueError):
    """A log file that cannot be read as an assignment log (the message names the file)."""


@dataclass
class Grade:
    """The grade of one item, from the replay."""

    item: str
    points: float
    score: float = 0
    solved: bool = False
    hints: int = 0
    attempts: int = 0
    message: str = ""
    statuses: list[str] = field(default_factory=list)

    def line(self) -> str:
        if self.message:
            return f"{self.item}: {self.message}: {_num(self.score)} of {_num(self.points)} points"
        hints = f" with {self.hints} hint{'s' if self.hints != 1 else ''}" if self.hints else ""
        how = f"solved{hints}" if self.solved else "not solved"
        tries = f"{self.attempts} attempt{'s' if self.attempts != 1 else ''}"
        return f"{self.item}: {how} ({tries}, replayed): {_num(self.score)} of {_num(self.points)} points"


def _num(x: float) -> str:
    return f"{x:g}"


def score(item: Item, solved: bool, hints: int) -> float:
    """The partial credit rule (see the module's text)."""
    if not solved:
        return 0
    value = item.points - item.hint_penalty * hints
    return max(0, round(value, 4) if isinstance(value, float) else value)


def log_path(item: Item, log_dir: str | Path = LOG_DIR) -> Path:
    return Path(log_dir) / f"{item.id}.json"


# ------------------------------------------------------------------ reading
def read_log(path: str | Path) -> Any:
    """The parsed JSON of a log file, read within limits: a regular file (not a folder, a FIFO or a
    device, checked on the open descriptor) of at most :data:`MAX_LOG_BYTES`, UTF-8, JSON nested at
    most :data:`MAX_LOG_DEPTH` deep with no number longer than 40 characters and none infinite.
    Raises :class:`LogError` naming the file."""
    p = Path(path)
    name = p.name
    try:
        return load_json(read_file_text(p, MAX_LOG_BYTES, name), name, MAX_LOG_DEPTH)
    except NotationError as e:
        where = f" on line {e.line}" if e.line else ""
        raise LogError(f"{name}: not a JSON log ({_short(Exception(e.message))}{where})") from None
    except OSError as e:
        raise LogError(f"{name}: cannot be read ({e.strerror or type(e).__name__})") from None


def read_attempts(path: str | Path, item: Item) -> list[list[dict[str, str]]]:
    """The attempts of a log file: for each, its learner entries ``{"kind", "text"}`` in order.

    Raises :class:`LogError` for a file that is not an assignment log of ``item`` (or cannot be
    read: see :func:`read_log`); only ``attempts[*].entries`` are read.
    """
    return attempts_of(read_log(path), Path(path).name, item)


def attempts_of(data: Any, name: str, item: Item) -> list[list[dict[str, str]]]:
    """The attempts of a log's parsed JSON ``data`` (see :func:`read_attempts`)."""
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        raise LogError(f"{name}: not an assignment log (format {LOG_FORMAT})")
    if data.get("item") != item.id:
        raise LogError(f"{name}: the log of item {str(data.get('item'))[:60]!r}, not of {item.id!r}")
    attempts = data.get("attempts")
    if not isinstance(attempts, list) or len(attempts) > MAX_ATTEMPTS:
        raise LogError(f"{name}: 'attempts' must be a list of at most {MAX_ATTEMPTS}")
    out: list[list[dict[str, str]]] = []
    for i, att in enumerate(attempts):
        entries = att.get("entries") if isinstance(att, dict) else None
        if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
            raise LogError(f"{name}: attempts[{i}].entries must be a list of at most {MAX_ENTRIES}")
        clean = []
        for j, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str) \
                    or not isinstance(entry.get("text", ""), str):
                raise LogError(f"{name}: attempts[{i}].entries[{j}] is not an entry {{kind, text}}")
            if entry["kind"] in LEARNER_KINDS:
                clean.append({"kind": entry["kind"], "text": str(entry.get("text", ""))[:MAX_TEXT]})
        out.append(clean)
    return out


def _short(e: Exception) -> str:
    text = " ".join(str(e).split())
    return text[:120]


# ------------------------------------------------------------------ replaying
def replay_run(level: Level, seed: int, entries: list[dict[str, str]]) -> tuple[LevelRun, int]:
    """Replay one attempt's entries from the level's start: the run as it ended and the hints it opened.

    Actions and refusals are played in order through :class:`LevelRun` (the engine answers each);
    a hint counts when it was opened while the level was still open (and, for a level with written
    hints, up to their number).  Nothing after the level is passed or failed is read.
    """
    run = LevelRun(level, seed, hint_fn=None)
    if "judge_wrong" in vars(run):  # explaining a wrong move is the player's feedback, not part of the grade
        vars(run)["judge_wrong"] = False
    hints = 0
    for e in entries:
        if run.status != OPEN:
            break
        if e["kind"] == "hint":
            if not level.hints or hints < len(level.hints):
                hints += 1
        else:
            run.play(e["text"])
    return run, hints


def replay_attempt(level: Level, seed: int, entries: list[dict[str, str]]) -> tuple[str, int]:
    """The status and the hints of one replayed attempt (see :func:`replay_run`)."""
    run, hints = replay_run(level, seed, entries)
    return run.status, hints


def replay_puzzle(puzzle: Puzzle, entries: list[dict[str, str]]) -> PuzzleRun:
    """Replay one attempt at a puzzle through the puzzle trainer's :class:`PuzzleRun` (the judge the
    student's puzzle widget used): moves in order, hints while it is open.  Its ``hints`` are the
    hints it opened; nothing after it is solved or missed is read."""
    run = PuzzleRun(puzzle, explain=None)
    for e in entries:
        if run.over:
            break
        if e["kind"] == "hint":
            run.hint()
        else:
            try:
                run.play(e["text"])
            except TrainerError:  # not an action at all: the widget never logs one
                continue
    return run


def replay_item(item: Item, entries: list[dict[str, str]], level: Level | None = None) -> tuple[str, int]:
    """The status (``open``, ``passed`` or ``failed``) and the hints of one replayed attempt at ``item``."""
    if item.kind == PUZZLE:
        run = replay_puzzle(puzzle_library()[item.puzzle], entries)
        return PUZZLE_STATUS[run.status], len(run.hints)
    return replay_attempt(level if level is not None else item_level(item), item.seed, entries)


def grade_attempts(item: Item, attempts: list[list[dict[str, str]]], level: Level | None = None) -> Grade:
    """The grade of ``item`` from its attempts (see the partial credit rule)."""
    if item.kind != PUZZLE and level is None:
        level = item_level(item)
    g = Grade(item=item.id, points=item.points, attempts=len(attempts))
    for entries in attempts:
        status, hints = replay_item(item, entries, level)
        g.statuses.append(status)
        g.solved = g.solved or status == PASSED
        g.hints = max(g.hints, hints)
    g.score = score(item, g.solved, g.hints)
    return g


def grade_log(item: Item, log_dir: str | Path = LOG_DIR, level: Level | None = None) -> Grade:
    """The grade of ``item`` from its log file in ``log_dir`` (no file: not played, 0)."""
    path = log_path(item, log_dir)
    if not path.exists():
        return Grade(item=item.id, points=item.points, message=f"no log {path.name} (not played)")
    try:
        attempts = read_attempts(path, item)
    except LogError as e:
        return Grade(item=item.id, points=item.points, message=str(e))
    return grade_attempts(item, attempts, level)


def grade_item(item: dict[str, Any], log_dir: str | Path = LOG_DIR) -> float:
    """The autograded test cell: print what the replay found and return the score (nbgrader's partial credit).

    Never raises and never writes to stderr (nbgrader gives 0 for a cell that does): a problem
    with the log is printed and scores 0.
    """
    spec = Item.from_dict(item)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            g = grade_log(spec, log_dir)
        except Exception as e:  # a test cell that raises gives nbgrader's 0 with a traceback; say why instead
            g = Grade(item=spec.id, points=spec.points,
                      message=f"could not be replayed ({type(e).__name__}: {_short(e)})")
    print(g.line())
    return g.score


# ------------------------------------------------------------------ recording
def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class ItemRecorder:
    """Writes the log of one item while the student plays it (called after every intent).

    Attempts already in the log file (an earlier session) are kept; each new :class:`LevelRun`
    (a retry) becomes a new attempt.  Nothing is written before the student's first action or
    hint, so opening (or re-running) the notebook never touches an existing log.
    """

    def __init__(self, item: Item, log_dir: str | Path = LOG_DIR) -> None:
        self.item = item
        self.path = log_path(item, log_dir)
        self.previous: list[dict[str, Any]] = []
        if self.path.exists() or self.path.is_symlink():
            try:
                data = read_log(self.path)
                attempts_of(data, self.path.name, item)  # only a readable log is continued
                self.previous = list(data["attempts"])
            except LogError:
                self.path.replace(self.path.with_suffix(f".unreadable-{os.getpid()}.json"))
        #: the runs of this session: [run, entries, status, hints, started, last seen]
        self.runs: list[list[Any]] = []

    def observe(self, run: LevelRun | PuzzleRun) -> bool:
        """Note the state of ``run`` (the level or puzzle now played); returns whether the log was written."""
        if isinstance(run, PuzzleRun):
            entries, status, hints = run.tried, PUZZLE_STATUS[run.status], len(run.hints)
        else:
            entries, status, hints = run.log, run.status, run.hints_used
        now = _now()
        if not self.runs or self.runs[-1][0] is not run:
            self.runs.append([run, entries, status, hints, now, now])
        self.runs[-1][1:4] = [entries, status, hints]
        self.runs[-1][5] = now
        if not any(e.get("kind") in LEARNER_KINDS for r in self.runs for e in r[1]):
            return False
        self.write()
        return True

    def attempts(self) -> list[dict[str, Any]]:
        fresh = [{"started": started, "last": last, "status": status, "hints": hints,
                  "entries": [{"kind": e["kind"], "text": e["text"]} for e in entries]}
                 for _, entries, status, hints, started, last in self.runs
                 if any(e.get("kind") in LEARNER_KINDS for e in entries)]
        return self.previous + fresh

    def write(self) -> None:
        attempts = self.attempts()
        solved = any(a.get("status") == PASSED for a in attempts)
        hints = max((int(a.get("hints", 0)) for a in attempts), default=0)
        data = {"format": LOG_FORMAT, "assignment": self.item.assignment, "item": self.item.id,
                "key": self.item.key, "seed": self.item.seed, "attempts": attempts,
                "totals": {"solved": solved, "hints": hints, "score": score(self.item, solved, hints),
                           "points": self.item.points,
                           "note": "for your information only: the grade comes from replaying the entries"}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")  # whole, or the old log


__all__ = ["Grade", "ItemRecorder", "LogError", "LOG_DIR", "attempts_of", "grade_attempts", "grade_item", "grade_log",
           "read_log",
           "log_path", "read_attempts", "replay_attempt", "replay_item", "replay_puzzle", "replay_run", "score"]
