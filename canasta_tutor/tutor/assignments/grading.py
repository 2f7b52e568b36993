"""Assignment logs and their grading: the student's actions, replayed through the engine.

While a student plays an item, :class:`ItemRecorder` writes the log file
``canasta-log/<item>.json`` beside the notebook: every attempt's actions, refusals, hints and
a give-up in order (and, for the student's eyes only, the totals and the student id the widget
dealt for).  The student submits it with the notebook.  The autograded test cell calls
:func:`grade_item`, which reads only the attempts' entries and replays them
(:func:`~.exam.replay_item_log`) on the student's own deal: the item's seed comes from the
locked cell, the student from nbgrader's submission folder, never from the log.  The totals
and any status written in the log are never read.  So a log whose totals were edited, a
notebook whose outputs were edited, or a log copied from another student (whose deal differs)
earns nothing that the replay does not give.

The partial credit rule (see :mod:`.exam`): an item is solved when an attempt reaches its goal
before the student gave up; it then scores ``points - hint_penalty * hints``, at least 0, where
``hints`` counts each hint of the item once, whatever the clicks and the attempts.  An item
not solved, or given up (the answer was shown), scores 0.

The recorder never writes a log the grader could not read: it refuses an action that would pass
a limit of the format (:data:`MAX_ATTEMPTS`, :data:`MAX_ENTRIES`, :data:`MAX_LOG_BYTES`) and
warns well before (:meth:`ItemRecorder.warning`); an earlier log it cannot read is kept aside and
reported to the student (:attr:`ItemRecorder.notice`), never renamed in silence.

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

from ..atomicfile import write_atomic
from ...engine.errors import CanastaError, NotationError
from ...notation.textinput import load_json, read_file_text
from ..lessons.model import Level
from ..lessons.runner import PASSED, LevelRun
from ..puzzles.trainer import PuzzleRun
from .exam import (GIVE_UP, GIVEN_UP, PUZZLE_STATUS, answer_and_why, grading_student, personal, replay_item_log,
                   score)
from .spec import Item

LOG_DIR = "canasta-log"
LOG_FORMAT = 1
MAX_LOG_BYTES = 1_000_000
#: how deep a log's JSON may nest (a log nests four deep: the log, its attempts, an attempt, its entries)
MAX_LOG_DEPTH = 8
MAX_ATTEMPTS = 200
MAX_ENTRIES = 1000
MAX_TEXT = 200
#: the entry kinds the grader reads: the learner's tries (accepted, refused, or a puzzle's wrong move),
#: the hints opened and a give-up
LEARNER_KINDS = ("action", "refused", "wrong", "hint", GIVE_UP)
#: warn this many attempts, entries or bytes (a share) before a limit
WARN_ATTEMPTS, WARN_ENTRIES, WARN_BYTES = 20, 50, 0.8
#: the most bytes one entry adds to a log (its text is cut at MAX_TEXT when read)
ENTRY_BYTES = 4 * MAX_TEXT + 100


class LogError(CanastaError, ValueError):
    """A log file that cannot be read as an assignment log (the message names the file)."""


class LogFullError(CanastaError, ValueError):
    """An entry that would pass a limit of the log format: refused before it is played."""


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
    label: str = ""
    closed: str = ""  # solved, given up, or "" (still open)
    ignored: int = 0  # attempts after the item closed
    answer: str = ""  # the answer and why, once the item is closed
    why: str = ""

    def line(self) -> str:
        name = self.label or self.item
        if self.message:
            return f"{name}: {self.message}: {_num(self.score)} of {_num(self.points)} points"
        hints = f" with {self.hints} hint{'s' if self.hints != 1 else ''}" if self.hints else ""
        how = f"solved{hints}" if self.solved else "given up" if self.closed == GIVEN_UP else "not solved"
        tries = f"{self.attempts} attempt{'s' if self.attempts != 1 else ''}"
        late = f"; {self.ignored} after it closed, not read" if self.ignored else ""
        return f"{name}: {how} ({tries}{late}, replayed): {_num(self.score)} of {_num(self.points)} points"

    def lines(self) -> list[str]:
        """:meth:`line`, then the answer and why once the item is closed (nbgrader's feedback shows them)."""
        out = [self.line()]
        if self.answer:
            out.append(f"  The answer: {self.answer}")
            if self.why:
                out.append(f"  Why: {self.why}")
        return out


def _num(x: float) -> str:
    return f"{x:g}"


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
    """Replay one attempt's entries from the level's start, as a first attempt: the run as it ended
    and the hints it opened (see :func:`~.exam.replay_item_log` for a whole item)."""
    from .exam import ItemReplay, _replay_level, level_hint_count

    out = ItemReplay()
    run = _replay_level(level, seed, entries, out, level_hint_count(level))
    return run, out.hints


def replay_attempt(level: Level, seed: int, entries: list[dict[str, str]]) -> tuple[str, int]:
    """The status and the hints of one replayed attempt (see :func:`replay_run`)."""
    run, hints = replay_run(level, seed, entries)
    return run.status, hints


def replay_puzzle(puzzle: Any, entries: list[dict[str, str]]) -> PuzzleRun:
    """Replay one attempt at a puzzle through the puzzle trainer's :class:`PuzzleRun` (the judge the
    student's puzzle widget used): moves in order, hints while it is open and one is left."""
    from .exam import ItemReplay, _replay_puzzle

    return _replay_puzzle(puzzle, entries, ItemReplay())


def grade_attempts(item: Item, attempts: list[list[dict[str, str]]], level: Level | None = None,
                   student: str | None = None, answer: bool = False) -> Grade:
    """The grade of ``item`` from its attempts, on ``student``'s deal (default: the student graded);
    with ``answer``, the answer and why are added even while the item is open."""
    student = grading_student() if student is None else student
    r = replay_item_log(item, attempts, student, level)
    g = Grade(item=item.id, points=item.points, attempts=len(attempts), statuses=r.statuses, solved=r.solved,
              hints=r.hints, label=_label(item), closed=r.closed, ignored=r.ignored)
    g.score = score(item, g.solved, g.hints)
    if r.closed or answer:
        g.answer, g.why = answer_and_why(item, student, level)
    return g


def _label(item: Item) -> str:
    return f"{item.number}. {item.label}" if item.number else item.label


def grade_log(item: Item, log_dir: str | Path = LOG_DIR, level: Level | None = None,
              student: str | None = None, answer: bool = False) -> Grade:
    """The grade of ``item`` from its log file in ``log_dir`` (no file: not played, 0)."""
    path = log_path(item, log_dir)
    if not path.exists() and not path.is_symlink():
        return Grade(item=item.id, points=item.points, message=f"no log {path.name} (not played)", label=_label(item))
    try:
        attempts = read_attempts(path, item)
    except LogError as e:
        return Grade(item=item.id, points=item.points, message=str(e), label=_label(item))
    student = grading_student() if student is None else student
    g = grade_attempts(item, attempts, level, student, answer)
    played_as = logged_student(path)
    if played_as and played_as != student and not g.solved and personal_deal(item, level):
        g.message = (f"played on the deal of student {played_as[:40]!r}, not of {student[:40]!r} (a log is "
                     "graded on the deal of the student who submits it)")
    return g


def personal_deal(item: Item, level: Level | None) -> bool:
    """Whether the item deals each student their own (a generated level or a pool)."""
    return item.pool if item.kind != "level" else (level.generated if level is not None else personal(item))


def logged_student(path: Path) -> str:
    """The student id the widget dealt for, as the log says (for a message only: never for the deal)."""
    try:
        value = read_log(path).get("student", "")
    except (LogError, AttributeError):
        return ""
    return value[:100] if isinstance(value, str) else ""


def grade_item(item: dict[str, Any], log_dir: str | Path = LOG_DIR) -> float:
    """The autograded test cell: print what the replay found and return the score (nbgrader's partial credit).

    The student is nbgrader's (the submission folder while autograding, see
    :func:`~.exam.grading_student`); the lessons of a course folder are read beside the notebook.
    Once the item is closed, or while nbgrader autogrades (the submission is final), the answer and
    why are printed too: ``nbgrader generate_feedback`` shows them to the student.  Never raises
    and never writes to stderr (nbgrader gives 0 for a cell that does): a problem with the log is
    printed and scores 0.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            spec = Item.from_dict(item)
            level = None
            if spec.kind == "level":
                from .exam import item_level

                level = item_level(spec, Path(log_dir).parent)
            g = grade_log(spec, log_dir, level, answer=os.environ.get("NBGRADER_EXECUTION") == "autograde")
        except Exception as e:  # a test cell that raises gives nbgrader's 0 with a traceback; say why instead
            g = Grade(item=str(item.get("id", "?"))[:64], points=float(item.get("points", 0) or 0),
                      message=f"could not be replayed ({type(e).__name__}: {_short(e)})")
    print("\n".join(g.lines()))
    return g.score


# ------------------------------------------------------------------ recording
def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class ItemRecorder:
    """Writes the log of one item while the student plays it (called after every intent).

    Attempts already in the log file (an earlier session) are kept; each new run (a retry) becomes
    a new attempt.  Nothing is written before the student's first action or hint, so opening (or
    re-running) the notebook never touches an existing log.  An existing log that cannot be read
    is moved aside (``<item>.unreadable-N.json``, kept for the teacher) and :attr:`notice` says so;
    the widget shows it.  :meth:`room` says whether one more entry fits the format's limits (the
    widget asks before it plays), :meth:`warning` when a limit is near.
    """

    def __init__(self, item: Item, log_dir: str | Path = LOG_DIR, student: str = "") -> None:
        self.item = item
        self.student = student
        self.path = log_path(item, log_dir)
        self.previous: list[dict[str, Any]] = []
        #: the earlier attempts' learner entries, as the grader reads them
        self.previous_entries: list[list[dict[str, str]]] = []
        #: what the student must be told about the log (an earlier log that could not be read)
        self.notice = ""
        self.size = 0
        if self.path.exists() or self.path.is_symlink():
            try:
                data = read_log(self.path)  # within limits: a FIFO or a link to a device is set aside, not read
                self.previous_entries = attempts_of(data, self.path.name, item)  # only a readable log is continued
                self.previous = list(data["attempts"])
                self.size = self.path.stat().st_size
            except (LogError, OSError) as e:
                self.previous_entries = []
                self._set_aside(str(e))
        #: the runs of this session: [run, entries, status, hints, started, last seen]
        self.runs: list[list[Any]] = []

    def _set_aside(self, why: str) -> None:
        n = 1
        while (aside := self.path.with_name(f"{self.path.stem}.unreadable-{n}.json")).exists():
            n += 1
        try:
            self.path.replace(aside)
        except OSError as e:
            self.notice = (f"Your log {self.path.parent.name}/{self.path.name} cannot be read ({why}) nor moved "
                           f"aside ({e.strerror}): tell your teacher.")
            return
        self.notice = (f"Your earlier log for this item could not be read ({why}). It is kept as "
                       f"{aside.parent.name}/{aside.name} for your teacher, and a new log was started: the "
                       "attempts in the old one are not graded.")

    # ------------------------------------------------------------------ limits
    def written_attempts(self) -> int:
        return len(self.previous) + sum(1 for r in self.runs if _learner(r[1]))

    def _current_entries(self, run: Any) -> int:
        if self.runs and self.runs[-1][0] is run:
            return _learner(self.runs[-1][1])
        return 0

    def room(self, run: Any, entries: int = 1) -> str:
        """Why ``entries`` more learner entries of ``run`` cannot be logged ("" when they can)."""
        fresh = self._current_entries(run) == 0
        if fresh and self.written_attempts() >= MAX_ATTEMPTS:
            return (f"This item's log holds {MAX_ATTEMPTS} attempts, the most a log may: a new attempt cannot be "
                    "recorded. Your attempts so far are graded as they are.")
        if self._current_entries(run) + entries > MAX_ENTRIES:
            return (f"This attempt holds {MAX_ENTRIES} entries, the most an attempt may: click Try again for a new "
                    "attempt.")
        if self.size + entries * ENTRY_BYTES > MAX_LOG_BYTES:
            return (f"This item's log is full ({MAX_LOG_BYTES:,} bytes): nothing more can be recorded. Your attempts "
                    "so far are graded as they are.")
        return ""

    def can_start(self) -> str:
        """Why a new attempt cannot be logged ("" when it can)."""
        if self.written_attempts() >= MAX_ATTEMPTS:
            return (f"This item's log holds {MAX_ATTEMPTS} attempts, the most a log may: a new attempt cannot be "
                    "recorded. Your attempts so far are graded as they are.")
        if self.size + ENTRY_BYTES > MAX_LOG_BYTES:
            return f"This item's log is full ({MAX_LOG_BYTES:,} bytes): a new attempt cannot be recorded."
        return ""

    def warning(self, run: Any = None) -> str:
        """A warning when the log nears a limit of its format ("" when it does not)."""
        used = self.written_attempts()
        if used >= MAX_ATTEMPTS - WARN_ATTEMPTS:
            return (f"{used} of the {MAX_ATTEMPTS} attempts this item's log can hold are used: after "
                    f"{MAX_ATTEMPTS}, no new attempt can be recorded.")
        if self.size >= WARN_BYTES * MAX_LOG_BYTES:
            return f"This item's log is {self.size / MAX_LOG_BYTES:.0%} full: use your attempts with care."
        n = self._current_entries(run) if run is not None else 0
        if n >= MAX_ENTRIES - WARN_ENTRIES:
            return f"This attempt holds {n} of the {MAX_ENTRIES} entries an attempt may: then Try again."
        return ""

    # ------------------------------------------------------------------ writing
    def observe(self, run: LevelRun | PuzzleRun, hints: int | None = None) -> bool:
        """Note the state of ``run`` (the level or puzzle now played; ``hints``: the item's hints seen so
        far); returns whether the log was written.  Raises :class:`LogFullError` rather than write a
        log the grader could not read."""
        if isinstance(run, PuzzleRun):
            entries, status, seen = run.tried, PUZZLE_STATUS[run.status], len(run.hints)
        else:
            entries, status, seen = run.log, run.status, run.hints_used
        if any(e.get("kind") == GIVE_UP for e in entries):
            status = GIVE_UP
        now = _now()
        if not self.runs or self.runs[-1][0] is not run:
            self.runs.append([run, entries, status, seen if hints is None else hints, now, now])
        self.runs[-1][1:4] = [entries, status, seen if hints is None else hints]
        self.runs[-1][5] = now
        if not any(_learner(r[1]) for r in self.runs):
            return False
        self.write()
        return True

    def attempts(self) -> list[dict[str, Any]]:
        fresh = [{"started": started, "last": last, "status": status, "hints": hints,
                  "entries": [{"kind": e["kind"], "text": e["text"]} for e in entries
                              if e.get("kind") in LEARNER_KINDS]}
                 for _, entries, status, hints, started, last in self.runs if _learner(entries)]
        return self.previous + fresh

    def write(self) -> None:
        attempts = self.attempts()
        if len(attempts) > MAX_ATTEMPTS or any(len(a["entries"]) > MAX_ENTRIES for a in attempts):
            raise LogFullError(f"{self.path.name}: more than the log format holds")
        given_up = any(a.get("status") == GIVE_UP for a in attempts)
        solved = any(a.get("status") == PASSED for a in attempts)
        hints = max((int(a.get("hints", 0)) for a in attempts), default=0)
        data = {"format": LOG_FORMAT, "assignment": self.item.assignment, "item": self.item.id,
                "key": self.item.key if not self.item.pool else "", "student": self.student, "attempts": attempts,
                "totals": {"solved": solved, "given_up": given_up, "hints": hints,
                           "score": score(self.item, solved, hints), "points": self.item.points,
                           "note": "for your information only: the grade comes from replaying the entries"}}
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        size = len(text.encode("utf-8"))
        if size > MAX_LOG_BYTES:
            raise LogFullError(f"{self.path.name}: larger than {MAX_LOG_BYTES} bytes")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, text)  # the whole new log, or the old one as it was
        self.size = size


def _learner(entries: list[dict[str, Any]]) -> int:
    return sum(1 for e in entries if e.get("kind") in LEARNER_KINDS)


__all__ = ["Grade", "ItemRecorder", "LogError", "LogFullError", "LOG_DIR", "LEARNER_KINDS", "MAX_ATTEMPTS",
           "MAX_ENTRIES", "MAX_LOG_BYTES", "grade_attempts", "grade_item", "grade_log", "log_path",
           "logged_student", "read_attempts", "read_log", "attempts_of", "replay_attempt", "replay_puzzle",
           "replay_run", "score"]
