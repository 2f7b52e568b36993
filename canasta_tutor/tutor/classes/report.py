"""The class report: what a class did, from the progress store, with pandas (and matplotlib for plots).

:class:`ClassReport` reads a class's store (a course folder's, :func:`~..progress.course_path`)
and gives:

- :meth:`~ClassReport.cells`: one row per student and item: solved, best stars, hints, time
  spent and attempts; :meth:`~ClassReport.table` pivots one measure to students x items,
  and :meth:`~ClassReport.heatmap` draws the stars;
- :meth:`~ClassReport.themes`: performance per theme: a puzzle's themes
  (:mod:`..themes`), and a lesson level's lesson;
- :meth:`~ClassReport.wrong_moves`: for each item, the most common wrong move, with the
  engine's rule and reason (a refused move) or the hint's (a legal but wrong answer);
- :meth:`~ClassReport.progress`: each student's progress over time, with the rating
  change, and :meth:`~ClassReport.progress_plot`;
- :meth:`~ClassReport.to_csv`: the students x items rows as CSV.

:meth:`~ClassReport.refresh` re-reads the store while students work: it first merges the
student stores found in the course folder (each read only, and only when it changed), then
re-reads only if something was committed since the last read (SQLite's ``data_version``),
so a refresh with nothing new costs two small queries.

Student stores a course folder may hold (merged into the course's store, files unchanged):

- ``submitted/<student>/<assignment>/progress.sqlite3``: nbgrader's collected submissions;
- ``progress/<student>.sqlite3``: a shared folder students' servers write to.

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

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas ships no type information

from ...atomicfile import write_atomic
from ...errors import CanastaError
from ..progress import STORE_ERRORS, ProgressStore, ProgressStoreError, course_path, store_error

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

DPI = 72  # the figures' resolution: a notebook shows them at about this size
MEASURES = ("solved", "stars", "hints", "seconds", "attempts")
#: the grid's marks: best stars of a solved item ("+" when solved with no stars, as the puzzle trainer
#: saves its puzzles), a tried but unsolved item, an untried one
MARKS = {3: "3", 2: "2", 1: "1", 0: "+", "failed": "x", None: "."}

_ATTEMPTS_SQL = """
SELECT a.id, l.name AS student, CASE WHEN l.display_name = '' THEN l.name ELSE l.display_name END AS display_name,
       a.kind, a.lesson, a.level, a.started, a.finished, a.status, a.stars, a.tries, a.hints,
       a.rating_before, a.rating_after, a.themes, a.assignment
FROM attempts a JOIN learners l ON l.id = a.learner_id
"""
_WRONG_SQL = """
SELECT x.attempt_id AS id, x.kind, x.text, x.rule, x.reason
FROM attempt_actions x WHERE x.kind IN ('refused', 'wrong')
"""


class UnknownClassError(CanastaError, LookupError):
    """``class_name`` names no class of the store (a report never makes one)."""


def student_stores(course: Path) -> list[tuple[Path, str]]:
    """The student stores in a course folder, each with the student it belongs to."""
    found = [(p, p.parent.parent.name) for p in sorted(course.glob("submitted/*/*/progress.sqlite3"))]
    found += [(p, p.stem) for p in sorted(course.glob("progress/*.sqlite3"))]
    return found


class ClassReport:
    """The report on one class: a course folder (its store, and the student stores it holds) or a store file.

    ``class_name`` keeps the members of that class only."""

    def __init__(self, source: str | Path, class_name: str | None = None) -> None:
        src = Path(source)
        self.course: Path | None = src if src.is_dir() or not src.suffix else None
        path = course_path(src) if self.course is not None else src
        if self.course is None and not path.is_file():
            raise ProgressStoreError(f"no progress store at {str(path)!r}")
        if self.course is not None and not src.is_dir():
            raise ProgressStoreError(f"no course folder {str(src)!r}")
        self.class_name = class_name
        self.store = ProgressStore(path)
        if class_name is not None and class_name not in self.store.classes():  # a report never makes a class
            known = ", ".join(self.store.classes()) or "none"
            self.store.close()
            raise UnknownClassError(f"no class {class_name!r} in the store {str(path)!r} (classes: {known})")
        self._seen: dict[Path, tuple[float, int]] = {}
        self._version: int | None = None
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
    def merge_student_stores(self) -> int:
        """Merge the student stores of the course folder that changed since last time; attempts added."""
        if self.course is None:
            return 0
        added = 0
        for path, student in student_stores(self.course):
            st = path.stat()
            key = (st.st_mtime, st.st_size)
            wal = path.with_name(path.name + "-wal")
            if wal.exists() and wal.stat().st_size:  # an empty log (a reader may leave one) changes nothing
                key = (max(key[0], wal.stat().st_mtime), key[1] + wal.stat().st_size)
            if self._seen.get(path) == key:
                continue
            added += self.store.merge_from(path, as_learner=student, class_name=self.class_name)
            self._seen[path] = key
        return added

    def refresh(self) -> bool:
        """Re-read the store if anything changed (merging the student stores first); whether it did.
        Any error of SQLite's is one :class:`~..progress.ProgressStoreError`."""
        self.merge_student_stores()
        try:
            version = self.store.data_version()
            count = self.store.conn.execute("SELECT count(*), max(id) FROM attempts").fetchone()
            stamp = hash((version, tuple(count)))
            if self._version == stamp:
                return False
            attempts = pd.read_sql_query(_ATTEMPTS_SQL, self.store.conn)
            wrong = pd.read_sql_query(_WRONG_SQL, self.store.conn)
            members = self.store.class_members(self.class_name) if self.class_name else None
        except (*STORE_ERRORS, pd.errors.DatabaseError) as e:
            cause = e if isinstance(e, STORE_ERRORS) else e.__cause__ or e.__context__ or e
            raise store_error(self.store.path, cause) from None
        self._version = stamp
        if members is not None:
            attempts = attempts[attempts["student"].isin(members)]
        attempts["item"] = attempts["lesson"] + "/" + attempts["level"]
        started = pd.to_datetime(attempts["started"], utc=True, format="ISO8601")
        finished = pd.to_datetime(attempts["finished"], utc=True, format="ISO8601")
        attempts["started"], attempts["finished"] = started, finished
        attempts["seconds"] = (finished - started).dt.total_seconds()
        attempts["solved"] = attempts["status"] == "passed"
        keys = list(zip(attempts["kind"], attempts["lesson"], attempts["level"], attempts["themes"], strict=True))
        known = {k: _themes(*k) for k in set(keys)}  # a few hundred distinct items, however many attempts
        attempts["themes"] = [known[k] for k in keys]
        self.attempts = attempts.sort_values(["started", "id"], kind="stable").reset_index(drop=True)
        self.wrong = wrong.merge(attempts[["id", "student", "item"]], on="id")
        self._cache = {}
        return True

    def items(self) -> list[str]:
        """The items, in the order the class first met them."""
        if "items" not in self._cache:
            first = self.attempts.groupby("item", sort=False)["started"].min() if not self.attempts.empty else None
            self._cache["items"] = [] if first is None else list(first.sort_values(kind="stable").index)
        return list(self._cache["items"])

    def students(self) -> list[str]:
        return sorted(self.attempts["student"].unique()) if not self.attempts.empty else []

    # ------------------------------------------------------------------ tables
    def cells(self) -> pd.DataFrame:
        """One row per student and item tried: solved, best stars, hints, seconds and attempts."""
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
        """Students x items for one measure (``solved``, ``stars``, ``hints``, ``seconds``, ``attempts``);
        an item a student has not tried is empty (NaN)."""
        if measure not in MEASURES:
            raise ValueError(f"unknown measure {measure!r}: choose one of {', '.join(MEASURES)}")
        if "wide" not in self._cache:  # one pivot for every measure
            c = self.cells()
            self._cache["wide"] = (c.pivot(index="student", columns="item", values=list(MEASURES))
                                   if not c.empty else None)
        wide = self._cache["wide"]
        if wide is None:
            return pd.DataFrame()
        t = wide[measure].reindex(index=self.students(), columns=self.items())
        return t.astype("boolean" if measure == "solved" else "Float64" if measure == "seconds" else "Int64")

    def summary(self) -> pd.DataFrame:
        """One row per student: items tried and solved, stars, hints, time (minutes)."""
        c = self.cells()
        if c.empty:
            return pd.DataFrame(columns=["tried", "solved", "stars", "hints", "minutes"])
        g = c.groupby("student")
        return pd.DataFrame({"tried": g.size(), "solved": g["solved"].sum(), "stars": g["stars"].sum(),
                             "hints": g["hints"].sum(), "minutes": (g["seconds"].sum() / 60).round(1)})

    def themes(self) -> pd.DataFrame:
        """Performance per theme (a puzzle's themes; a lesson level's lesson): students, attempts,
        share solved at the first attempt, share solved in the end, mean best stars, hints per attempt,
        median minutes per attempt; weakest first."""
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
                    "minutes": (g["seconds"].median() / 60).round(1)})
                self._cache["themes"] = out.sort_values(["solved", "first_try"], kind="stable")
        return self._cache["themes"]

    def wrong_moves(self) -> pd.DataFrame:
        """For each item with a wrong move: the most common one, how often and by how many students,
        its rule (the engine's, or the rule the hint names) and the reason."""
        if "wrong" not in self._cache:
            w = self.wrong
            if w.empty:
                self._cache["wrong"] = pd.DataFrame(columns=["item", "move", "kind", "times", "students", "rule",
                                                             "reason", "all_wrong"])
            else:
                g = w.groupby(["item", "text", "kind", "rule"], sort=False)
                top = g.agg(times=("id", "size"), students=("student", "nunique"),
                            reason=("reason", "first")).reset_index()
                total = w.groupby("item").size().rename("all_wrong")
                top = top.sort_values(["item", "times", "students", "text"], ascending=[True, False, False, True])
                top = top.drop_duplicates("item").merge(total, on="item").rename(columns={"text": "move"})
                order = {item: i for i, item in enumerate(self.items())}
                top["_o"] = top["item"].map(order)
                self._cache["wrong"] = top.sort_values("_o").drop(columns="_o").reset_index(drop=True)[
                    ["item", "move", "kind", "times", "students", "rule", "reason", "all_wrong"]]
        return self._cache["wrong"]

    def progress(self) -> pd.DataFrame:
        """Each student over time: first and last activity, items solved, and the puzzle rating at
        the start, now, and its change."""
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

    def to_csv(self, path: str | Path | None = None) -> str:
        """The students x items rows (long form) as CSV; written to ``path`` when given."""
        c = self.cells().copy()
        c["themes"] = c["themes"].map(" ".join)
        c["seconds"] = c["seconds"].round(0).astype("Int64")
        for col in ("first_started", "last_finished"):
            if col in c:
                c[col] = c[col].map(lambda t: t.isoformat() if pd.notna(t) else "")
        text = c.to_csv(index=False, lineterminator="\n")
        if path is not None:
            write_atomic(path, text)
        return text

    # ------------------------------------------------------------------ text
    def grid(self) -> str:
        """The students x items table as text: best stars of solved items (``+`` solved with no stars),
        ``x`` tried but not solved, ``.`` not tried."""
        stars = self.table("stars")
        solved = self.table("solved")
        lines = []
        width = max((len(s) for s in stars.index), default=0)
        for student in stars.index:
            marks = []
            for item in stars.columns:
                st, ok = stars.at[student, item], solved.at[student, item]
                marks.append(MARKS[None] if pd.isna(st) else MARKS[int(st)] if ok else MARKS["failed"])
            lines.append(f"{student:<{width}}  {''.join(marks)}")
        return "\n".join(lines)

    def text(self, max_rows: int = 60) -> str:
        """The whole report as text (the command line's)."""
        a = self.attempts
        items = self.items()
        head = (f"{len(self.students())} students, {len(items)} items, {len(a)} attempts"
                + (f" (class {self.class_name})" if self.class_name else ""))
        if a.empty:
            return head + "\nNo attempts yet."
        key = "\n".join(f"  {i + 1:>3}  {item}" for i, item in enumerate(items))
        parts = [head,
                 "Students x items (best stars 3 2 1 when solved, + solved with no stars; x tried, not solved; "
                 ". not tried), items:\n"
                 + key, self.grid(),
                 "Per student:\n" + self.summary().join(self.progress()[["rating_start", "rating_now",
                                                                            "rating_change"]]).to_string(),
                 "Per theme (weakest first; first_try and solved are shares):\n"
                 + self.themes().to_string(max_rows=max_rows),
                 "Most common wrong move per item:\n" + _wrap_reasons(self.wrong_moves()).to_string(
                     index=False, max_rows=max_rows, max_colwidth=70)]
        return "\n\n".join(parts) + "\n"

    def styled(self, measure: str = "stars") -> Any:
        """The students x items table as a heatmap in HTML (a pandas ``Styler``): each cell coloured by
        its value, untried cells blank, items numbered as in :meth:`text`.  Cheap to draw at any size,
        so the notebook shows this one first; :meth:`heatmap` draws the same as a figure."""
        t = self.table(measure).astype(float)
        t.columns = [str(i + 1) for i in range(len(t.columns))]
        low, high = (0, 3) if measure == "stars" else (None, None)
        return (t.style.set_uuid(f"canasta-{measure}")  # fixed ids: the same table gives the same HTML
                .background_gradient(cmap="viridis", axis=None, vmin=low, vmax=high)
                .format(precision=0, na_rep="")
                .set_caption(f"{measure} per student (rows) and item (columns, numbered as in the item list)"))

    # ------------------------------------------------------------------ plots
    def heatmap(self, measure: str = "stars") -> "Figure":
        """A heatmap of the students x items table (untried items blank)."""
        from matplotlib import colormaps
        from matplotlib.figure import Figure

        t = self.table(measure).astype(float)  # untried cells: NaN, drawn blank
        fig = Figure(figsize=(min(14.0, max(6.0, 0.18 * len(t.columns) + 2)),
                              min(10.0, max(3.0, 0.22 * len(t.index) + 1.5))), dpi=DPI)
        ax = fig.add_subplot()
        low, high = (-0.5, 3.5) if measure == "stars" else (None, None)
        cmap = colormaps["viridis"].resampled(4) if measure == "stars" else colormaps["viridis"]
        im = ax.imshow(t.to_numpy(), aspect="auto", cmap=cmap, vmin=low, vmax=high, interpolation="nearest")
        # one tick label per student and every fifth item (ticks are most of a figure's drawing time)
        ys = range(0, len(t.index), max(1, len(t.index) // 40))
        ax.set_yticks(list(ys), [str(t.index[i]) for i in ys], fontsize=7)
        xs = [i for i in range(len(t.columns)) if (i + 1) % 5 == 0 or len(t.columns) <= 12]
        ax.set_xticks(xs, [str(i + 1) for i in xs], fontsize=7)
        ax.set_xlabel("item (number as in the table's item list)")
        ax.set_title(f"{measure} per student and item")
        fig.colorbar(im, ax=ax, shrink=0.8, ticks=[0, 1, 2, 3] if measure == "stars" else None)
        fig.subplots_adjust(left=0.12, right=0.98, bottom=0.12, top=0.92)
        return fig

    def theme_plot(self) -> "Figure":
        """Share of students solving each theme's items (first attempt and in the end)."""
        from matplotlib.figure import Figure

        th = self.themes()
        fig = Figure(figsize=(7, min(10.0, max(3.0, 0.25 * len(th) + 1))), dpi=DPI)
        ax = fig.add_subplot()
        y = range(len(th))
        ax.barh(y, th["solved"], color="tab:green", label="solved in the end")
        ax.barh(y, th["first_try"], color="tab:blue", label="solved at the first attempt", height=0.4)
        ax.set_yticks(list(y), list(th.index), fontsize=7)
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of students")
        ax.legend(loc="lower right", fontsize=7)
        fig.subplots_adjust(left=0.3, right=0.97, bottom=0.1, top=0.97)
        return fig

    def daily(self) -> pd.DataFrame:
        """Each student at the end of each day they worked: items solved so far and puzzle rating."""
        tl = self.timeline()
        if tl.empty:
            return pd.DataFrame(columns=["student", "day", "solved_items", "rating"])
        tl = tl.assign(day=tl["finished"].dt.tz_localize(None).dt.normalize())
        return tl.groupby(["student", "day"], sort=True)[["solved_items", "rating"]].last().reset_index()

    def progress_plot(self, lines_up_to: int = 60) -> "Figure":
        """Items solved and the puzzle rating at the end of each day worked: one line per student, or,
        for more than ``lines_up_to`` students, the class's median with the band from the 10th to the
        90th percentile (one line per student would be unreadable, and slow to draw)."""
        from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, date2num
        from matplotlib.figure import Figure

        d = self.daily()
        fig = Figure(figsize=(9, 3.2), dpi=DPI)
        left, right = fig.subplots(1, 2)
        panels = ((left, "solved_items", "items solved"), (right, "rating", "puzzle rating"))
        if not d.empty and d["student"].nunique() > lines_up_to:
            # each student's value carried forward to every day, so the percentiles compare like with like
            for ax, col, title in panels:
                wide = d.pivot(index="day", columns="student", values=col).sort_index().ffill()
                x = date2num(wide.index.to_numpy())
                q = wide.quantile([0.1, 0.5, 0.9], axis=1).to_numpy(dtype=float)
                ax.fill_between(x, q[0], q[2], alpha=0.3, linewidth=0, label="10th to 90th percentile")
                ax.plot(x, q[1], linewidth=1.2, label="median")
                ax.set_title(f"{title} ({d['student'].nunique()} students)", fontsize=9)
            left.legend(fontsize=7, loc="upper left")
        else:
            from matplotlib.collections import LineCollection

            d = d.sort_values(["student", "day"], kind="stable")
            x = date2num(d["day"].to_numpy()) if not d.empty else []
            cuts = d["student"].ne(d["student"].shift()).to_numpy().nonzero()[0].tolist()[1:] if not d.empty else []
            for ax, col, title in panels:
                y = d[col].to_numpy(dtype=float)
                segs = [seg[~np.isnan(seg[:, 1])] for seg in
                        np.split(np.column_stack([x, y]), cuts)] if len(y) else []
                segs = [seg for seg in segs if len(seg)]
                ax.add_collection(LineCollection(segs, linewidths=0.8,
                                                 colors=[f"C{i % 10}" for i in range(len(segs))]))
                ax.autoscale_view()
                ax.set_title(title, fontsize=9)
        one_day = d["day"].nunique() == 1 if not d.empty else False
        for ax, _, _ in panels:
            if one_day:  # show the days around it (a date axis cannot place ticks on no range at all)
                day = float(date2num(d["day"].iloc[0]))
                ax.set_xlim(day - 1, day + 1)
            locator = AutoDateLocator(maxticks=6)
            ax.xaxis.set_major_locator(locator)
            ax.xaxis.set_major_formatter(ConciseDateFormatter(locator))
            ax.tick_params(labelsize=7)
        fig.subplots_adjust(left=0.06, right=0.98, bottom=0.12, top=0.9, wspace=0.2)
        return fig

    def figures(self) -> dict[str, "Figure"]:
        return {"heatmap": self.heatmap(), "themes": self.theme_plot(), "progress": self.progress_plot()}


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
        from ..puzzles import load_library

        _PUZZLE_THEMES.update({p.id: tuple(p.themes) for p in load_library()})
    return _PUZZLE_THEMES


def _wrap_reasons(w: pd.DataFrame) -> pd.DataFrame:
    w = w.copy()
    w["rule"] = w["rule"].replace("", "-")
    return w.drop(columns=["kind"])


def png(fig: "Figure") -> bytes:
    """The figure drawn as PNG (what a notebook shows)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, pil_kwargs={"compress_level": 1})
    return buf.getvalue()


__all__ = ["ClassReport", "UnknownClassError", "student_stores", "png", "MEASURES", "MARKS"]
