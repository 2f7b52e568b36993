"""The class report: what a class did, from replayed facts only, with pandas (and matplotlib for plots).

:class:`ClassReport` reads a class's course folder, and changes no file in it:

- the course's store (``progress.sqlite3``, read only): the attempts ``class grade`` filed from
  the replay of each submitted log, or ``class simulate`` made;
- the students' own stores in the shared folder (``progress/<student>.sqlite3``), each attempt
  replayed through the engine (:mod:`.live`): nothing a student's store says is believed;
- nbgrader's gradebook (``gradebook.db``, read only), when there is one: the roster, and each
  submission's time against the assignment's due date.

A store found in a submission (``submitted/<student>/<assignment>/progress.sqlite3``) is never
read: a submission is graded from its logs.  The only figures a student supplies are the
attempts' times: every table labels them ``reported`` (minutes as reported by the student).

It gives:

- :meth:`~ClassReport.cells`: one row per student and item: solved, best stars, hints, reported
  time and attempts; :meth:`~ClassReport.table` pivots one measure to students x items (every
  student of the roster, those who have not started too), and :meth:`~ClassReport.styled`
  colours it, escaped;
- :meth:`~ClassReport.not_started`, :meth:`~ClassReport.late` and :meth:`~ClassReport.summary`;
- :meth:`~ClassReport.themes`: performance per theme: a puzzle's themes, and a lesson level's lesson;
- :meth:`~ClassReport.wrong_moves`: for each item, the most common wrong move made by two students
  or more, with the engine's rule and reason (a refused move) or the reason in words (a legal but
  wrong move);
- :meth:`~ClassReport.student`: one student's items, wrong moves and reasons;
- :meth:`~ClassReport.progress`, :meth:`~ClassReport.timeline`, and the figures (:mod:`.plots`);
- :meth:`~ClassReport.to_csv` (formula-safe) and :meth:`~ClassReport.to_html` (one standalone
  page, :mod:`.page`).

:meth:`~ClassReport.refresh` re-reads while students work: only when the course store changed
(SQLite's ``data_version``) or a student store did (its size and time), so a refresh with nothing
new costs two small queries and a look at the folder.

>>> import tempfile
>>> from canasta_tutor.tutor.classes.simulate import simulate
>>> course = tempfile.mkdtemp()
>>> _ = simulate(course, students=3, items=4, seed=2, progress=False)
>>> report = ClassReport(course)
>>> report.table("stars").shape
(3, 4)
>>> report.refresh()     # nothing new since it was read
False
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd  # type: ignore[import-untyped]  # pandas ships no type information

from ..atomicfile import write_atomic
from ...engine.errors import CanastaError
from ..progress import STORE_ERRORS, ProgressStoreError, connect_read_only, course_path, store_error
from .live import COLUMNS, LiveStores, submitted_stores
from .terms import REPORTED, WRONG_MOVE_STUDENTS
from .safe import csv_cell, short

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

MEASURES = ("solved", "stars", "hints", "seconds", "attempts")
#: the grid's marks: best stars of a solved item ("+" when solved with no stars, as the puzzle trainer
#: saves its puzzles), a tried but unsolved item, an untried one
MARKS = {3: "3", 2: "2", 1: "1", 0: "+", "failed": "x", None: "."}
#: the ``mode`` of an assignment attempt at a pool's item (each student had their own puzzle)
POOL = "pool"

_ATTEMPTS_SQL = """
SELECT a.id, l.name AS student, CASE WHEN l.display_name = '' THEN l.name ELSE l.display_name END AS display_name,
       a.kind, a.lesson, a.level, a.started, a.finished, a.status, a.stars, a.tries, a.hints,
       a.rating_before, a.rating_after, a.themes, a.assignment, a.uid, a.mode
FROM attempts a JOIN learners l ON l.id = a.learner_id
"""
_WRONG_SQL = """
SELECT x.attempt_id AS id, x.kind, x.text, x.rule, x.reason
FROM attempt_actions x WHERE x.kind IN ('refused', 'wrong')
"""


class UnknownClassError(CanastaError, LookupError):
    """``class_name`` names no class of the store (a report never makes one)."""


class CourseStore:
    """A course's store opened read only: the report reads it and never writes (no file changes)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None
        self.open()

    def open(self) -> bool:
        """Open the store if it exists now (a course with no store yet has no attempts)."""
        if self.conn is None and self.path.is_file():
            self.conn, version = connect_read_only(self.path)
            if version < 3:
                self.close()
                raise ProgressStoreError(f"the course store {str(self.path)!r} is from an older canasta-tutor: run "
                                         "`canasta-tutor class grade` (or open it once with a newer version) to "
                                         "upgrade it")
        return self.conn is not None

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if not self.open():
            return []
        assert self.conn is not None
        try:
            return self.conn.execute(sql, params).fetchall()
        except STORE_ERRORS as e:  # SQLite's own cause: damaged, locked...
            raise store_error(self.path, e) from None

    def frame(self, sql: str) -> pd.DataFrame:
        if not self.open():
            return pd.DataFrame()
        try:
            return pd.read_sql_query(sql, self.conn)
        except (*STORE_ERRORS, pd.errors.DatabaseError) as e:
            cause = e if isinstance(e, STORE_ERRORS) else e.__cause__ or e.__context__ or e
            raise store_error(self.path, cause) from None

    def stamp(self) -> tuple[Any, ...]:
        if not self.open():
            return ()
        row = self.query("SELECT count(*), max(id) FROM attempts")[0]
        return (self.query("PRAGMA data_version")[0][0], *row)

    def display_names(self) -> dict[str, str]:
        return {n: d or n for n, d in self.query("SELECT name, display_name FROM learners ORDER BY name")}

    def learners(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM learners ORDER BY name")]

    def classes(self) -> list[str]:
        return [r[0] for r in self.query("SELECT name FROM classes ORDER BY name")]

    def class_members(self, class_name: str) -> list[str]:
        return [r[0] for r in self.query(
            "SELECT l.name FROM class_members m JOIN classes c ON c.id = m.class_id "
            "JOIN learners l ON l.id = m.learner_id WHERE c.name = ? ORDER BY l.name", (class_name,))]

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class ClassReport:
    """The report on one class: a course folder (its store, the shared student stores and nbgrader's
    gradebook) or a store file.  ``class_name`` keeps the members of that class only."""

    def __init__(self, source: str | Path, class_name: str | None = None) -> None:
        src = Path(source)
        self.course: Path | None = src if src.is_dir() or not src.suffix else None
        path = course_path(src) if self.course is not None else src
        if self.course is None and not path.is_file():
            raise ProgressStoreError(f"no progress store at {str(path)!r}")
        if self.course is not None and not src.is_dir():
            raise ProgressStoreError(f"no course folder {str(src)!r}")
        self.class_name = class_name
        self.store = CourseStore(path)
        if class_name is not None and class_name not in self.store.classes():  # a report never makes a class
            known = ", ".join(self.store.classes()) or "none"
            self.store.close()
            raise UnknownClassError(f"no class {class_name!r} in the store {str(path)!r} (classes: {known})")
        self.live = LiveStores(self.course) if self.course is not None else None
        self._version: tuple[Any, ...] | None = None
        self._cache: dict[str, Any] = {}
        self.attempts = pd.DataFrame()
        self.wrong = pd.DataFrame()
        self.refresh()

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "ClassReport":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ reading
    def refresh(self) -> bool:
        """Re-read if anything changed (the course store, a student store); whether it did."""
        live_changed = self.live is not None and self.live.changed()
        stamp = self.store.stamp()
        if self._version == stamp and not live_changed:
            return False
        self._version = stamp
        attempts = self.store.frame(_ATTEMPTS_SQL)
        wrong = self.store.frame(_WRONG_SQL)
        if attempts.empty:
            attempts = pd.DataFrame(columns=["id", *COLUMNS, "uid", "mode"])
            wrong = pd.DataFrame(columns=["id", "kind", "text", "rule", "reason"])
        if self.live is not None:
            rows, moves = self.live.read()
            if rows:
                live = pd.DataFrame(rows)
                live["id"] = -(pd.RangeIndex(len(live)) + 1)
                by_uid = dict(zip(live["uid"], live["id"], strict=True))
                moves_df = pd.DataFrame(moves, columns=["uid", "kind", "text", "rule", "reason"])
                moves_df["id"] = moves_df["uid"].map(by_uid)
                attempts = pd.concat([attempts, live[["id", *COLUMNS, "uid", "mode"]]], ignore_index=True)
                wrong = pd.concat([wrong, moves_df.drop(columns="uid")], ignore_index=True)
        members = self.store.class_members(self.class_name) if self.class_name else None
        if members is not None:
            attempts = attempts[attempts["student"].isin(members)]
        self._set(attempts, wrong)
        return True

    def _set(self, attempts: pd.DataFrame, wrong: pd.DataFrame) -> None:
        attempts = attempts.copy()
        attempts["item"] = attempts["lesson"].astype(str) + "/" + attempts["level"].astype(str)
        started = pd.to_datetime(attempts["started"], utc=True, format="ISO8601", errors="coerce")
        finished = pd.to_datetime(attempts["finished"], utc=True, format="ISO8601", errors="coerce")
        attempts["started"], attempts["finished"] = started, finished
        attempts["seconds"] = (finished - started).dt.total_seconds().clip(lower=0)
        attempts["solved"] = attempts["status"] == "passed"
        for col in ("stars", "hints", "tries"):
            attempts[col] = pd.to_numeric(attempts[col], errors="coerce").fillna(0).astype(int)
        for col in ("rating_before", "rating_after"):
            attempts[col] = pd.to_numeric(attempts[col], errors="coerce")
        attempts["themes"] = attempts["themes"].fillna("").astype(str)
        attempts["mode"] = attempts["mode"].fillna("").astype(str)
        keys = list(zip(attempts["kind"], attempts["lesson"], attempts["level"], attempts["themes"], strict=True))
        known = {k: _themes(*k) for k in set(keys)}  # a few hundred distinct items, however many attempts
        attempts["themes"] = [known[k] for k in keys]
        self.attempts = attempts.sort_values(["started", "id"], kind="stable", na_position="first") \
            .reset_index(drop=True)
        self.wrong = wrong.merge(attempts[["id", "student", "item"]], on="id")
        self._cache = {}

    def items(self) -> list[str]:
        """The items, in the order the class first met them."""
        if "items" not in self._cache:
            first = self.attempts.groupby("item", sort=False)["started"].min() if not self.attempts.empty else None
            self._cache["items"] = [] if first is None else list(first.sort_values(kind="stable").index)
        return list(self._cache["items"])

    def roster(self) -> list[str]:
        """Every student the teacher's own records know: the course store's students (or the class's
        members), nbgrader's roster and the shared stores' students."""
        if "roster" not in self._cache:
            if self.class_name:
                names = set(self.store.class_members(self.class_name))
            else:
                names = set(self.store.learners()) | set(self.gradebook()["students"])
                if self.live is not None:
                    names |= {p.stem for p in (self.course or Path()).glob("progress/*.sqlite3")}
            self._cache["roster"] = names
        return sorted(self._cache["roster"])

    def students(self) -> list[str]:
        """Every student: those with attempts and those of the roster who have not started."""
        if "students" not in self._cache:
            active = set(self.attempts["student"].unique()) if not self.attempts.empty else set()
            self._cache["students"] = sorted(active | set(self.roster()))
        return list(self._cache["students"])

    def not_started(self) -> list[str]:
        """The students of the roster with no attempt yet."""
        active = set(self.attempts["student"].unique()) if not self.attempts.empty else set()
        return [s for s in self.students() if s not in active]

    def display_names(self) -> dict[str, str]:
        return self.store.display_names()

    # ------------------------------------------------------------------ nbgrader
    def gradebook(self) -> dict[str, Any]:
        """nbgrader's roster and submissions (``students``; ``submissions``: student, assignment, time,
        due date and seconds late), read only from ``gradebook.db`` (empty without one)."""
        if "gradebook" not in self._cache:
            self._cache["gradebook"] = read_gradebook(self.course / "gradebook.db" if self.course else None)
        return dict(self._cache["gradebook"])

    def late(self) -> pd.DataFrame:
        """The submissions nbgrader's gradebook marks late: student, assignment, when, due, hours late."""
        subs = self.gradebook()["submissions"]
        if subs.empty:
            return pd.DataFrame(columns=["student", "assignment", "submitted", "due", "hours_late"])
        late = subs[subs["seconds_late"] > 0].copy()
        late["hours_late"] = (late["seconds_late"] / 3600).round(1)
        return late.drop(columns="seconds_late").reset_index(drop=True)

    # ------------------------------------------------------------------ tables
    def cells(self) -> pd.DataFrame:
        """One row per student and item tried: solved, best stars, hints, reported seconds and attempts."""
        if "cells" not in self._cache:
            a = self.attempts
            if a.empty:
                self._cache["cells"] = pd.DataFrame(columns=["student", "display_name", "item", "kind",
                                                             "themes", *MEASURES])
            else:
                g = a.groupby(["student", "item"], sort=False)
                cells = g.agg(display_name=("display_name", "first"), kind=("kind", "first"),
                              themes=("themes", "first"), solved=("solved", "any"), stars=("stars", "max"),
                              hints=("hints", "sum"), seconds=("seconds", "sum"), attempts=("id", "count"),
                              first_started=("started", "min"), last_finished=("finished", "max")).reset_index()
                order = {item: i for i, item in enumerate(self.items())}
                cells["_o"] = cells["item"].map(order)
                self._cache["cells"] = cells.sort_values(["student", "_o"]).drop(columns="_o").reset_index(drop=True)
        return self._cache["cells"]

    def table(self, measure: str = "stars") -> pd.DataFrame:
        """Students x items for one measure (``solved``, ``stars``, ``hints``, ``seconds`` (reported) or
        ``attempts``); an item a student has not tried is empty (NaN), and a student who has not started
        is a row of empty cells."""
        if measure not in MEASURES:
            raise ValueError(f"unknown measure {measure!r}: choose one of {', '.join(MEASURES)}")
        if "wide" not in self._cache:  # one pivot for every measure
            c = self.cells()
            self._cache["wide"] = (c.pivot(index="student", columns="item", values=list(MEASURES))
                                   if not c.empty else None)
        wide = self._cache["wide"]
        if wide is None:
            return pd.DataFrame(index=pd.Index(self.students(), name="student")) if self.students() else pd.DataFrame()
        t = wide[measure].reindex(index=self.students(), columns=self.items())
        t.index.name = "student"
        return t.astype("boolean" if measure == "solved" else "Float64" if measure == "seconds" else "Int64")

    def marks(self) -> pd.DataFrame:
        """Students x items as the grid's marks (:data:`MARKS`): stars when solved, ``x`` tried and not
        solved, ``.`` not tried."""
        stars, solved = self.table("stars"), self.table("solved")
        out = pd.DataFrame(MARKS[None], index=stars.index, columns=stars.columns)
        for col in stars.columns:
            st, ok = stars[col], solved[col]
            tried = st.notna()
            out.loc[tried & ok.fillna(False).astype(bool), col] = st[tried & ok.fillna(False).astype(bool)].map(
                lambda s: MARKS[int(s)])
            out.loc[tried & ~ok.fillna(False).astype(bool), col] = MARKS["failed"]
        return out

    def summary(self) -> pd.DataFrame:
        """One row per student: items tried and solved, stars, hints, reported minutes, and late submissions."""
        if "summary" not in self._cache:
            self._cache["summary"] = self._summary()
        return self._cache["summary"].copy()

    def _summary(self) -> pd.DataFrame:
        c = self.cells()
        cols = ["tried", "solved", "stars", "hints", "reported_minutes", "late"]
        if not self.students():
            return pd.DataFrame(columns=cols)
        g = c.groupby("student")
        out = pd.DataFrame({"tried": g.size(), "solved": g["solved"].sum(), "stars": g["stars"].sum(),
                            "hints": g["hints"].sum(), "reported_minutes": (g["seconds"].sum() / 60).round(1)},
                           index=pd.Index(self.students(), name="student")) if not c.empty else \
            pd.DataFrame(index=pd.Index(self.students(), name="student"), columns=cols[:-1])
        out = out.reindex(self.students())
        for col in ("tried", "solved", "stars", "hints"):
            out[col] = out[col].fillna(0).astype(int)
        late = self.late()
        text = late.groupby("student").apply(
            lambda d: ", ".join(f"{a} ({h:g} h)" for a, h in zip(d["assignment"], d["hours_late"], strict=True)),
            include_groups=False) if not late.empty else pd.Series(dtype=str)
        out["late"] = text.reindex(out.index).fillna("")
        return out[cols]

    def review_queue(self, now: datetime | None = None) -> pd.DataFrame:
        """One row per student: their review cards (issue 35) ``due`` now and ``overdue`` (due before today
        began, UTC) and all ``queued``, from their lesson levels and puzzles (FSRS over the attempts, as the
        learner's own queue counts them; a game review's mistakes stay in the learner's own store)."""
        from ..review_queue import cards_from_attempts, tally

        when = now or datetime.now(timezone.utc)
        cols = ["due", "overdue", "queued"]
        rows = {}
        a = self.attempts.sort_values(["finished", "id"], kind="stable", na_position="first")
        for name in self.students():
            mine = a[a["student"] == name]
            n = tally(cards_from_attempts(mine.to_dict("records"), when), when)
            rows[name] = [n[c] for c in cols]
        return pd.DataFrame.from_dict(rows, orient="index", columns=cols).rename_axis("student") if rows else \
            pd.DataFrame(columns=cols)

    def themes(self) -> pd.DataFrame:
        """Performance per theme (a puzzle's themes; a lesson level's lesson): students, attempts,
        share solved at the first attempt, share solved in the end, mean best stars, hints per attempt,
        median reported minutes per attempt; weakest first."""
        if "themes" not in self._cache:
            a = self.attempts
            if a.empty:
                self._cache["themes"] = pd.DataFrame()
            else:
                a = a.assign(first=~a.duplicated(["student", "item"]))
                ex = a.explode("themes").rename(columns={"themes": "theme"})
                c = self.cells().explode("themes").rename(columns={"themes": "theme"})
                g = ex.groupby(["theme"])
                out = pd.DataFrame({
                    "kind": g["kind"].first(),
                    "students": g["student"].nunique(),
                    "attempts": g.size(),
                    "first_try": ex[ex["first"]].groupby("theme")["solved"].mean().round(2),
                    "solved": c.groupby("theme")["solved"].mean().round(2),
                    "stars": c.groupby("theme")["stars"].mean().round(2),
                    "hints": g["hints"].mean().round(2),
                    "reported_minutes": (g["seconds"].median() / 60).round(1)})
                self._cache["themes"] = out.sort_values(["solved", "first_try"], kind="stable")
        return self._cache["themes"]

    def wrong_moves(self, min_students: int = WRONG_MOVE_STUDENTS) -> pd.DataFrame:
        """For each item, its most common wrong move if ``min_students`` students or more made it: how
        often and by how many, its rule (the engine's) and the reason (the engine's, or in words for a
        legal but wrong move); ``all_wrong`` counts every wrong move on the item.  A pool's item (each
        student had their own puzzle) has none: the moves were made in different positions."""
        key = f"wrong-{min_students}"
        if key not in self._cache:
            w = self.wrong
            cols = ["item", "move", "kind", "times", "students", "rule", "reason", "all_wrong"]
            a = self.attempts
            pooled = set(a.loc[a["mode"] == POOL, "item"]) if not a.empty else set()
            w = w[~w["item"].isin(pooled)] if not w.empty else w
            if w.empty:
                self._cache[key] = pd.DataFrame(columns=cols)
            else:
                g = w.groupby(["item", "text", "kind", "rule"], sort=False)
                top = g.agg(times=("id", "size"), students=("student", "nunique"),
                            reason=("reason", "first")).reset_index()
                total = w.groupby("item").size().rename("all_wrong")
                top = top.sort_values(["item", "students", "times", "text"], ascending=[True, False, False, True])
                top = top.drop_duplicates("item").merge(total, on="item").rename(columns={"text": "move"})
                top = top[top["students"] >= min_students]
                order = {item: i for i, item in enumerate(self.items())}
                top["_o"] = top["item"].map(order)
                self._cache[key] = top.sort_values("_o").drop(columns="_o").reset_index(drop=True)[cols]
        return self._cache[key]

    def progress(self) -> pd.DataFrame:
        """Each student over time: first and last activity (reported), items solved, and the puzzle rating
        at the start, now, and its change."""
        if "progress" not in self._cache:
            a = self.attempts
            if a.empty:
                self._cache["progress"] = pd.DataFrame()
            else:
                g = a.groupby("student")
                rated = a.dropna(subset=["rating_before", "rating_after"]).groupby("student")
                out = pd.DataFrame({"first": g["started"].min(), "last": g["finished"].max(),
                                    "attempts": g.size(),
                                    "solved": self.cells().groupby("student")["solved"].sum(),
                                    "rating_start": rated["rating_before"].first(),
                                    "rating_now": rated["rating_after"].last()})
                out["rating_change"] = (out["rating_now"] - out["rating_start"]).round(1)
                self._cache["progress"] = out
        return self._cache["progress"]

    def timeline(self) -> pd.DataFrame:
        """One row per attempt in time order with each student's running count of items solved
        and their rating after it (puzzles)."""
        a = self.attempts
        if a.empty:
            return pd.DataFrame(columns=["student", "finished", "item", "solved_items", "rating"])
        a = a.sort_values(["finished", "id"], kind="stable")
        first_solve = a["solved"] & ~a[a["solved"]].duplicated(["student", "item"]).reindex(a.index,
                                                                                              fill_value=True)
        out = a[["student", "finished", "item"]].copy()
        out["solved_items"] = first_solve.astype(int).groupby(a["student"]).cumsum()
        out["rating"] = a["rating_after"].groupby(a["student"]).ffill()
        return out.reset_index(drop=True)

    def daily(self) -> pd.DataFrame:
        """Each student at the end of each day they worked: items solved so far and puzzle rating."""
        tl = self.timeline().dropna(subset=["finished"])
        if tl.empty:
            return pd.DataFrame(columns=["student", "day", "solved_items", "rating"])
        tl = tl.assign(day=tl["finished"].dt.tz_localize(None).dt.normalize())
        return tl.groupby(["student", "day"], sort=True)[["solved_items", "rating"]].last().reset_index()

    # ------------------------------------------------------------------ one student
    def student(self, name: str) -> "StudentView":
        """One student's drill-down: their items, their wrong moves and the reasons."""
        if name not in self.students():
            raise KeyError(f"no student {name[:60]!r} in this report")
        return StudentView(self, name)

    # ------------------------------------------------------------------ export
    def to_csv(self, path: str | Path | None = None) -> str:
        """The students x items rows (long form) as CSV, every text cell safe to open in a spreadsheet
        (:func:`~.safe.csv_cell`); written to ``path`` when given.  ``reported_seconds`` is the
        student's own figure."""
        c = self.cells().copy()
        c["themes"] = c["themes"].map(" ".join)
        c["seconds"] = c["seconds"].round(0).astype("Int64")
        c = c.rename(columns={"seconds": "reported_seconds"})
        for col in ("first_started", "last_finished"):
            if col in c:
                c[col] = c[col].map(lambda t: t.isoformat() if pd.notna(t) else "")
        for col in ("student", "item", "display_name", "kind", "themes"):
            c[col] = c[col].map(csv_cell)
        text = c.to_csv(index=False, lineterminator="\n")
        if path is not None:
            write_atomic(path, text)  # the whole file, or the one there before
        return text

    def to_html(self, path: str | Path | None = None) -> str:
        """The whole report as one standalone HTML page (every student string escaped); written to
        ``path`` when given."""
        from .page import report_page

        text = report_page(self)
        if path is not None:
            write_atomic(path, text)  # the whole file, or the one there before
        return text

    # ------------------------------------------------------------------ text
    def grid(self, width: int = 24) -> str:
        """The students x items table as text: best stars of solved items (``+`` solved with no stars),
        ``x`` tried but not solved, ``.`` not tried; names cut to ``width`` characters."""
        marks = self.marks()
        names = [short(s, width) for s in marks.index]
        w = max((len(n) for n in names), default=0)
        return "\n".join(f"{n:<{w}}  {''.join(row)}" for n, row in zip(names, marks.itertuples(index=False),
                                                                         strict=True))

    def text(self, max_rows: int = 60) -> str:
        """The whole report as text (the command line's; its caller makes it safe for a terminal)."""
        a = self.attempts
        items = self.items()
        head = (f"{len(self.students())} students, {len(items)} items, {len(a)} attempts"
                + (f" (class {self.class_name})" if self.class_name else ""))
        notes = self.notes()
        if a.empty:
            return "\n".join([head, *notes, "No attempts yet."] + ([f"Not started: {', '.join(self.not_started())}"]
                                                                   if self.not_started() else []))
        key = "\n".join(f"  {i + 1:>3}  {item}" for i, item in enumerate(items))
        per_student = self.summary().join(self.progress()[["rating_start", "rating_now", "rating_change"]])
        review = self.review_queue().add_prefix("review_")
        per_student = per_student.join(review)
        per_student.index = [short(s) for s in per_student.index]
        wrong = _wrap_reasons(self.wrong_moves())
        wrong["item"] = wrong["item"].map(lambda i: f"{items.index(i) + 1}" if i in items else i)
        parts = [head + ("\n" + "\n".join(notes) if notes else ""),
                 "Students x items (best stars 3 2 1 when solved, + solved with no stars; x tried, not solved; "
                 ". not tried), items:\n" + key, self.grid(),
                 "Not started: " + (", ".join(short(s) for s in self.not_started()) or "none"),
                 f"Per student (reported_minutes: {REPORTED}; review_: the review cards due now, overdue and "
                 "queued):\n" + per_student.to_string(max_rows=max_rows),
                 "Per theme (weakest first; first_try and solved are shares):\n"
                 + self.themes().to_string(max_rows=max_rows),
                 f"Most common wrong move per item (made by {WRONG_MOVE_STUDENTS} students or more; item by "
                 "number):\n" + (wrong.to_string(index=False, max_rows=max_rows, max_colwidth=70)
                                 if not wrong.empty else "none")]
        return "\n\n".join(parts) + "\n"

    def notes(self) -> list[str]:
        """What the teacher must know about what the report read and left out."""
        out = []
        if self.course is not None:
            ignored = submitted_stores(self.course)
            if ignored:
                out.append(f"Left out: {len(ignored)} progress store{'s' if len(ignored) != 1 else ''} found in "
                           "submissions (a submission is graded from its logs, by `class grade`).")
        if self.live is not None and self.live.skipped:
            out.append(f"Left out: {self.live.skipped} attempts in students' stores at a level or puzzle this "
                       "course does not have.")
        if self.live is not None:
            out += [f"Could not read the student store {u}" for u in self.live.unreadable]
        return out

    def styled(self, measure: str = "stars") -> Any:
        """The students x items table as a heatmap in HTML (a pandas ``Styler``, every student string
        escaped), headers kept in view as it scrolls; for ``stars`` the grid's marks, coloured by kind
        (untried, tried and not solved, stars)."""
        from .page import styled

        return styled(self, measure)

    # ------------------------------------------------------------------ plots
    def heatmap(self, measure: str = "stars") -> "Figure":
        from .plots import heatmap

        return heatmap(self, measure)

    def theme_plot(self) -> "Figure":
        from .plots import theme_plot

        return theme_plot(self)

    def progress_plot(self, lines_up_to: int = 40) -> "Figure":
        from .plots import progress_plot

        return progress_plot(self, lines_up_to)

    def figures(self) -> dict[str, "Figure"]:
        return {"heatmap": self.heatmap(), "themes": self.theme_plot(), "progress": self.progress_plot()}


class StudentView:
    """One student's part of the report: their items and wrong moves (a table in a notebook)."""

    def __init__(self, report: ClassReport, name: str) -> None:
        self.report = report
        self.name = name

    def items(self) -> pd.DataFrame:
        """The student's items, numbered as in the report: solved, stars, hints, attempts, reported minutes."""
        r = self.report
        numbers = {item: i + 1 for i, item in enumerate(r.items())}
        c = r.cells()
        c = c[c["student"] == self.name]
        out = pd.DataFrame({"number": c["item"].map(numbers), "item": c["item"], "solved": c["solved"],
                            "stars": c["stars"], "hints": c["hints"], "attempts": c["attempts"],
                            "reported_minutes": (c["seconds"] / 60).round(1)})
        return out.sort_values("number").reset_index(drop=True)

    def wrong(self) -> pd.DataFrame:
        """Every wrong move of the student, in order, with its rule and reason."""
        w = self.report.wrong
        if w.empty:
            return pd.DataFrame(columns=["item", "move", "kind", "rule", "reason"])
        w = w[w["student"] == self.name]
        return w.rename(columns={"text": "move"})[["item", "move", "kind", "rule", "reason"]].reset_index(drop=True)

    def text(self) -> str:
        name = short(self.name, 60)
        shown = self.report.display_names().get(self.name, self.name)
        items, wrong = self.items(), self.wrong()
        late = self.report.summary().at[self.name, "late"] if self.name in self.report.students() else ""
        return "\n\n".join([f"{name}" + (f" ({short(shown, 60)})" if shown != self.name else "")
                            + (f"; late: {late}" if late else ""),
                            "Items:\n" + (items.to_string(index=False) if not items.empty else "none tried"),
                            "Wrong moves:\n" + (wrong.to_string(index=False, max_colwidth=80) if not wrong.empty
                                                else "none")]) + "\n"

    def _repr_html_(self) -> str:
        from .page import student_html

        return student_html(self)

    def __repr__(self) -> str:
        return self.text()


def read_gradebook(db: Path | None) -> dict[str, Any]:
    """nbgrader's roster and its submissions with their lateness, read only from ``gradebook.db``
    with SQLite (opening it with nbgrader's own ``Gradebook`` writes to it)."""
    empty = {"students": [], "submissions": pd.DataFrame(columns=["student", "assignment", "submitted", "due",
                                                                    "seconds_late"])}
    if db is None or not db.is_file():
        return empty
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            students = [r[0] for r in conn.execute("SELECT id FROM student ORDER BY id")]
            rows = conn.execute("SELECT s.student_id, a.name, s.timestamp, a.duedate, s.extension "
                                "FROM submitted_assignment s JOIN assignment a ON a.id = s.assignment_id").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return empty
    subs = []
    for student, assignment, stamp, due, extension in rows:
        submitted, deadline = _when(stamp), _when(due)
        late = 0.0
        if submitted is not None and deadline is not None:
            grace = _when(extension)
            extra = (grace - datetime(1970, 1, 1, tzinfo=timezone.utc)).total_seconds() if grace else 0.0
            late = max(0.0, (submitted - deadline).total_seconds() - extra)
        subs.append({"student": student, "assignment": assignment, "submitted": submitted, "due": deadline,
                     "seconds_late": late})
    return {"students": students, "submissions": pd.DataFrame(subs, columns=empty["submissions"].columns)}


def _when(value: Any) -> datetime | None:
    """A time nbgrader stored (naive UTC text), as an aware datetime."""
    if not isinstance(value, str) or not value:
        return None
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def _themes(kind: str, lesson: str, level: str, stored: str) -> list[str]:
    """An attempt's themes: those saved with it; else a puzzle's from the library, a level's lesson."""
    if stored:
        return stored.split()
    if kind == "puzzle" or lesson == "puzzles":
        return list(_puzzle_themes().get(level, ("unthemed",)))
    return [lesson]


_PUZZLE_THEMES: dict[str, tuple[str, ...]] = {}


def _puzzle_themes() -> dict[str, tuple[str, ...]]:
    if not _PUZZLE_THEMES:
        from ..puzzles.library import load_library

        _PUZZLE_THEMES.update({p.id: tuple(p.themes) for p in load_library()})
    return _PUZZLE_THEMES


def _wrap_reasons(w: pd.DataFrame) -> pd.DataFrame:
    w = w.copy()
    w["rule"] = w["rule"].replace("", "-")
    return w.drop(columns=["kind"])


def png(fig: "Figure") -> bytes:
    """The figure drawn as PNG (what a notebook shows)."""
    from .plots import png as draw

    return draw(fig)


__all__ = ["ClassReport", "CourseStore", "StudentView", "read_gradebook", "png", "MEASURES", "MARKS", "REPORTED"]
