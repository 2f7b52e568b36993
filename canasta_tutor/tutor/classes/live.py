"""Students' own progress stores, replayed: what the class report believes of them.

A class that works live writes one store per student into a shared folder
(``progress/<student>.sqlite3`` in the course folder, see ``docs/classroom.md``).  Each store
is the student's own file, written from a kernel the student controls, so nothing in it is
taken as a fact: :class:`LiveStores` reads each store (read only), and replays every attempt's
own moves and hints through the engine, from the lesson level's deal (its seed) or the
puzzle's position.  The status, the stars, the hints and every refusal's rule and reason come
from that replay; a puzzle's wrong answer gets its reason in words from the hint's detectors;
the puzzle rating is recomputed from the replayed puzzles.  Only the times are the student's,
and the report labels them so.  An attempt at a level or puzzle this course does not have is
left out and counted.

Nothing is written: the course store is never touched, so a notebook that shows the report
changes no file.  A store is read again only when it changed (size and time, and its ``-wal``
log's), and only its attempts not replayed before are replayed.

>>> import tempfile
>>> from pathlib import Path
>>> from canasta_tutor.tutor.progress import Attempt, ProgressStore
>>> course = Path(tempfile.mkdtemp())
>>> (course / "progress").mkdir()
>>> with ProgressStore(course / "progress" / "s01.sqlite3") as own:   # forged: passed with 3 stars
...     _ = own.record(Attempt("learner", "puzzles", "c22-take-the-pack", "passed", stars=3, kind="puzzle",
...                            actions=[{"kind": "action", "text": "draw"}]))
>>> live = LiveStores(course)
>>> rows, wrong = live.read()
>>> [(r["student"], r["status"], r["stars"]) for r in rows], [(w["text"], w["kind"]) for w in wrong]
([('s01', 'failed', 0)], [('draw', 'wrong')])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine.errors import CanastaError
from ..assignments.exam import level_wrong_reason, teacher_wrong_reason
from ..lessons.model import Level
from ..lessons.runner import OPEN, PASSED, LevelRun
from ..progress import ProgressStoreError, read_foreign
from ..puzzles.library import Puzzle
from ..puzzles.rating import Rating, update
from ..puzzles.trainer import KIND, LESSON, SOLVED, START, UNRATED_MODES, PuzzleRun, TrainerError
from ..puzzles.trainer import score as glicko_score

#: what a replayed attempt holds: the columns the report reads from a store's attempts
COLUMNS = ("student", "display_name", "kind", "lesson", "level", "started", "finished", "status", "stars", "tries",
           "hints", "rating_before", "rating_after", "themes", "assignment")


def shared_stores(course: Path) -> list[tuple[Path, str]]:
    """The student stores of a course's shared folder, each with its student (the file's name)."""
    return [(p, p.stem) for p in sorted(course.glob("progress/*.sqlite3"))]


def submitted_stores(course: Path) -> list[Path]:
    """Stores found in nbgrader's submissions: never read (a submission is graded from its logs)."""
    return sorted(course.glob("submitted/*/*/progress.sqlite3"))


@dataclass
class _Store:
    key: tuple[float, int]
    replayed: dict[str, tuple[dict[str, Any], list[dict[str, str]]] | None] = field(default_factory=dict)


class LiveStores:
    """The replayed attempts of a course's shared student stores (see the module's text)."""

    def __init__(self, course: Path, levels: dict[tuple[str, str], Level] | None = None,
                 puzzles: dict[str, Puzzle] | None = None) -> None:
        self.course = course
        self._levels = levels
        self._puzzles = puzzles
        self._stores: dict[Path, _Store] = {}
        self.skipped = 0  # attempts at a level or puzzle the course does not have
        self.unreadable: list[str] = []  # stores that could not be read, with why

    # ------------------------------------------------------------------ the course's items
    def levels(self) -> dict[tuple[str, str], Level]:
        if self._levels is None:
            from ..assignments.spec import course_folder_lessons, course_lessons

            lessons = course_folder_lessons(self.course)
            found = lessons if lessons is not None else list(course_lessons().values())
            self._levels = {(lv.lesson_id, lv.id): lv for lesson in found for lv in lesson.levels}
        return self._levels

    def puzzles(self) -> dict[str, Puzzle]:
        if self._puzzles is None:
            from ..assignments.spec import puzzle_library

            self._puzzles = puzzle_library()
        return self._puzzles

    # ------------------------------------------------------------------ reading
    def changed(self) -> bool:
        """Whether a store was added, removed or changed since the last :meth:`read`."""
        found = dict(shared_stores(self.course))
        if set(found) != set(self._stores):
            return True
        return any(_key(p) != self._stores[p].key for p in found)

    def read(self) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """Every replayed attempt (a dict of :data:`COLUMNS` and its ``uid``) and every wrong move
        (``uid``, ``kind``, ``text``, ``rule``, ``reason``) of the shared stores."""
        rows: list[dict[str, Any]] = []
        wrong: list[dict[str, str]] = []
        self.skipped = 0
        self.unreadable = []
        found = shared_stores(self.course)
        self._stores = {p: s for p, s in self._stores.items() if p in dict(found)}
        for path, student in found:
            key = _key(path)
            store = self._stores.get(path)
            if store is None or store.key != key:
                store = self._refresh(path, student, key, store)
            ratings = _Ratings()
            for done in store.replayed.values():
                if done is None:
                    self.skipped += 1
                    continue
                row, moves = done
                row = ratings.rate(dict(row), self.puzzles())
                rows.append(row)
                wrong += [{**m, "uid": row["uid"]} for m in moves]
        return rows, wrong

    def _refresh(self, path: Path, student: str, key: tuple[float, int], old: _Store | None) -> _Store:
        store = _Store(key, dict(old.replayed) if old is not None else {})
        try:
            attempts, actions = read_foreign(path)
        except (ProgressStoreError, OSError) as e:
            self.unreadable.append(f"{path.name}: {e}")
            self._stores[path] = store
            return store
        keep: dict[str, Any] = {}
        for a in attempts:
            uid = f"live:{student}:{a['uid']}"
            if uid not in store.replayed:
                store.replayed[uid] = self._replay(a, actions.get(a["id"], []), student, uid)
            keep[uid] = store.replayed[uid]
        store.replayed = keep
        self._stores[path] = store
        return store

    def _replay(self, a: dict[str, Any], actions: list[dict[str, str]], student: str,
                uid: str) -> tuple[dict[str, Any], list[dict[str, str]]] | None:
        try:
            if a["lesson"] == LESSON:
                puzzle = self.puzzles().get(a["level"])
                return None if puzzle is None else _puzzle(puzzle, a, actions, student, uid)
            level = self.levels().get((a["lesson"], a["level"]))
            return None if level is None else _level(level, a, actions, student, uid)
        except (CanastaError, ValueError, KeyError, IndexError, TypeError):
            return None


def _key(path: Path) -> tuple[float, int]:
    st = path.stat()
    key = (st.st_mtime, st.st_size)
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        key = (max(key[0], wal.stat().st_mtime), key[1] + wal.stat().st_size)
    return key


def _row(a: dict[str, Any], student: str, uid: str, **values: Any) -> dict[str, Any]:
    """A replayed attempt: the student's times (reported), everything else from the replay."""
    return {"student": student, "display_name": student, "started": _text(a.get("started")),
            "finished": _text(a.get("finished")) or _text(a.get("started")), "assignment": "",
            "rating_before": None, "rating_after": None, "uid": uid, "mode": _text(a.get("mode")), **values}


def _text(value: Any) -> str:
    return value[:40] if isinstance(value, str) else ""


def _moves(actions: list[dict[str, str]], kinds: tuple[str, ...]) -> list[dict[str, str]]:
    return [{"kind": str(x.get("kind")), "text": str(x.get("text", ""))[:200]} for x in actions
            if x.get("kind") in kinds][:1000]


def _level(level: Level, a: dict[str, Any], actions: list[dict[str, str]], student: str,
           uid: str) -> tuple[dict[str, Any], list[dict[str, str]]]:
    seed = int(a.get("seed") or 0)
    run = LevelRun(level, seed if level.generated else 0, hint_fn=None, why_fn=level_wrong_reason)
    most = len(level.hints) if level.hints else None
    for e in _moves(actions, ("action", "refused", "wrong", "hint")):
        if run.status != OPEN:
            break
        if e["kind"] == "hint":
            if most is None or run.hints_used < most:
                run.hints_used += 1
        else:
            run.play(e["text"])
    wrong = [{"kind": e["kind"], "text": e["text"], "rule": e.get("rule", ""), "reason": e.get("reason", "")}
             for e in run.log if e.get("kind") in ("refused", "wrong")]
    status = run.status if run.status != OPEN else "failed"
    return _row(a, student, uid, kind="lesson", lesson=level.lesson_id, level=level.id, status=status,
                stars=run.stars(), tries=run.tries, hints=run.hints_used, themes=level.lesson_id), wrong


def _puzzle(p: Puzzle, a: dict[str, Any], actions: list[dict[str, str]], student: str,
            uid: str) -> tuple[dict[str, Any], list[dict[str, str]]]:
    run = PuzzleRun(p, explain=None)
    stages = len(run.hint_stages())
    for e in _moves(actions, ("action", "refused", "wrong", "hint")):
        if run.over:
            break
        if e["kind"] == "hint":
            if len(run.hints) < stages:
                run.hint()
            continue
        try:
            run.play(e["text"])
        except TrainerError:
            continue
    wrong = []
    for e in run.tried:
        if e["kind"] == "refused":
            wrong.append({"kind": "refused", "text": e["text"], "rule": e.get("rule", ""), "reason": e["reason"]})
        elif e["kind"] == "wrong":
            wrong.append({"kind": "wrong", "text": e["text"], "rule": "", "reason": teacher_wrong_reason(p, e["text"])})
    solved = run.status == SOLVED
    return _row(a, student, uid, kind=KIND, lesson=LESSON, level=p.id, status="passed" if solved else "failed",
                stars=0, tries=len([t for t in run.tried if t["kind"] != "hint"]), hints=len(run.hints),
                themes=" ".join(p.themes)), wrong


class _Ratings:
    """A student's puzzle rating, recomputed over their replayed puzzles in order (Glicko-2, as the
    trainer rates): the store's own ratings are never read."""

    def __init__(self) -> None:
        self.me: Rating = START
        self.puzzles: dict[str, Rating] = {}

    def rate(self, row: dict[str, Any], library: dict[str, Puzzle]) -> dict[str, Any]:
        if row["lesson"] != LESSON or row.get("mode") in UNRATED_MODES or row["level"] not in library:
            return row
        p = library[row["level"]]
        it = self.puzzles.get(p.id, Rating(p.rating, p.rd))
        s = glicko_score(row["status"] == PASSED, int(row["hints"]))
        before = self.me
        self.me, self.puzzles[p.id] = update(before, [(it, s)]), update(it, [(before, 1.0 - s)])
        row["rating_before"], row["rating_after"] = round(before.rating, 1), round(self.me.rating, 1)
        return row


__all__ = ["COLUMNS", "LiveStores", "shared_stores", "submitted_stores"]
