"""The class report in HTML: the coloured grid (a pandas ``Styler``), one student's drill-down, and the
whole report as one standalone page (jinja2).

Every string that comes from a student or a log (student ids and display names, items, moves,
rules, reasons) is escaped by the tool that writes the HTML: the ``Styler`` is told to escape
its values and its index (it does not by default), and the templates are rendered by a jinja2
environment with autoescape on, so a value reaches the page as text, never as markup.

>>> import tempfile
>>> from canasta_tutor.tutor.classes.report import ClassReport
>>> from canasta_tutor.tutor.progress import Attempt, ProgressStore
>>> course = tempfile.mkdtemp()
>>> with ProgressStore.for_course(course) as store:
...     _ = store.record(Attempt("<img src=x onerror=alert(1)>", "melds", "natural-meld", "passed", stars=3))
>>> page = ClassReport(course).to_html()
>>> "<img src=x" in page, "&lt;img src=x onerror=alert(1)&gt;" in page
(False, True)
"""

from __future__ import annotations

import base64
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd  # type: ignore[import-untyped]

from .plots import STAR_COLOURS, UNTRIED
from .terms import REPORTED, WRONG_MOVE_STUDENTS

if TYPE_CHECKING:  # pragma: no cover
    from .report import ClassReport, StudentView

TEMPLATES = Path(__file__).parent
PAGE, MACROS = "report.html.j2", "report-macros.html.j2"
#: the grid's colours by mark: not tried, tried and not solved, solved with no stars, 1, 2 and 3 stars
MARK_STYLE = {
    ".": f"background-color: {UNTRIED}; color: #999",
    "x": f"background-color: {STAR_COLOURS[0]}; color: #fff",
    "+": f"background-color: {STAR_COLOURS[1]}; color: #000",
    "1": f"background-color: {STAR_COLOURS[2]}; color: #000",
    "2": f"background-color: {STAR_COLOURS[3]}; color: #fff",
    "3": f"background-color: {STAR_COLOURS[4]}; color: #fff",
}
#: what each mark is shown as in the grid
MARK_TEXT = {".": "", "x": "\u2717", "+": "+", "1": "1", "2": "2", "3": "3"}
LEGEND = [("3", "3 stars"), ("2", "2 stars"), ("1", "1 star"), ("+", "solved (no stars)"),
          ("x", "tried, not solved"), (".", "not tried")]


@lru_cache(maxsize=1)
def _env() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def styled(report: "ClassReport", measure: str = "stars") -> Any:
    """The students x items table as a coloured ``Styler``: every value and the index escaped, the
    header row and the students' column kept in view while it scrolls, items numbered as in the
    report; for ``stars`` the grid's marks (:data:`MARK_TEXT`), one colour per kind of cell."""
    if measure == "stars":
        marks = report.marks()
        shown = marks.replace(MARK_TEXT)
        shown.columns = [str(i + 1) for i in range(len(shown.columns))]
        styler = shown.style.apply(lambda _: marks.replace(MARK_STYLE).to_numpy(), axis=None)
    else:
        t = report.table(measure).astype(float)
        t.columns = [str(i + 1) for i in range(len(t.columns))]
        styler = t.style.background_gradient(cmap="viridis", axis=None).format(precision=0, na_rep="")
    what = "best stars" if measure == "stars" else "reported seconds" if measure == "seconds" else measure
    return (styler.set_uuid(f"canasta-{measure}")  # fixed ids: the same table gives the same HTML
            .format(escape="html", na_rep="", precision=0)
            .format_index(escape="html", axis=0)
            .format_index(escape="html", axis=1)
            .set_sticky(axis="index").set_sticky(axis="columns")
            .hide(axis="index", names=True)
            .set_table_styles([{"selector": "td", "props": "text-align: center; min-width: 1.1em; padding: 1px 2px; "
                                                           "font-size: 11px"},
                               {"selector": "th.col_heading", "props": "padding: 1px 2px; font-size: 11px"},
                               {"selector": "th.row_heading", "props": "max-width: 10em; overflow: hidden; "
                                                                     "text-overflow: ellipsis; white-space: nowrap; "
                                                                     "font-size: 12px; text-align: left"}],
                              overwrite=False)
            .set_caption(f"{what} per student (rows) and item (columns, numbered as in the item list)"))


def _rows(df: pd.DataFrame, index: bool = True) -> dict[str, Any]:
    """A table for the template: its header and its rows as text (escaped when rendered)."""
    if df is None or df.empty:
        return {"head": [], "rows": []}
    head = ([df.index.name or ""] if index else []) + [str(c) for c in df.columns]
    rows = []
    for key, values in zip(df.index, df.itertuples(index=False), strict=True):
        cells = [_cell(v) for v in values]
        rows.append(([str(key)] if index else []) + cells)
    return {"head": head, "rows": rows}


def _cell(v: Any) -> str:
    if v is None or (not isinstance(v, (list, tuple, str)) and pd.isna(v)):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return " ".join(map(str, v))
    if isinstance(v, pd.Timestamp):
        return v.strftime("%Y-%m-%d %H:%M")
    return str(v)


def _student(view: "StudentView", numbers: dict[str, int]) -> dict[str, Any]:
    r = view.report
    items = view.items()
    wrong = view.wrong()
    if not wrong.empty:
        wrong = wrong.assign(item=wrong["item"].map(lambda i: f"{numbers.get(i, '?')}. {i}")).drop(columns="kind")
    late = r.summary().at[view.name, "late"] if view.name in r.students() else ""
    return {"name": view.name, "shown": r.display_names().get(view.name, view.name), "late": late,
            "items": _rows(items, index=False), "wrong": _rows(wrong, index=False)}


def student_html(view: "StudentView") -> str:
    """One student's drill-down as HTML (escaped), for a notebook."""
    numbers = {item: i + 1 for i, item in enumerate(view.report.items())}
    return str(_env().get_template(MACROS).module.student(_student(view, numbers)))


def report_page(report: "ClassReport") -> str:
    """The whole report as one standalone HTML page: no script, no outside file (the progress figure is
    inlined); every student string escaped."""
    from .plots import png
    items = report.items()
    numbers = {item: i + 1 for i, item in enumerate(items)}
    summary = report.summary()
    if not report.progress().empty:
        summary = summary.join(report.progress()[["rating_start", "rating_now", "rating_change"]])
    if report.students():
        summary = summary.join(report.review_queue().add_prefix("review_"))
    wrong = report.wrong_moves()
    if not wrong.empty:
        wrong = wrong.assign(item=wrong["item"].map(lambda i: f"{numbers.get(i, '?')}. {i}"),
                             rule=wrong["rule"].replace("", "-")).drop(columns="kind")
    figure = ""
    if not report.attempts.empty:
        figure = base64.b64encode(png(report.progress_plot())).decode("ascii")
    data = {
        "title": f"Class report: {report.course.name if report.course is not None else report.store.path.name}"
                 + (f", class {report.class_name}" if report.class_name else ""),
        "made": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "students": len(report.students()), "items": items, "attempts": len(report.attempts),
        "notes": report.notes(), "reported": REPORTED, "min_students": WRONG_MOVE_STUDENTS,
        "grid": report.styled("stars").to_html() if report.students() else "",
        "legend": [(MARK_TEXT[m] or "\u00a0", MARK_STYLE[m], text) for m, text in LEGEND],
        "not_started": report.not_started(), "late": _rows(report.late(), index=False),
        "summary": _rows(summary), "themes": _rows(report.themes()), "wrong": _rows(wrong, index=False),
        "figure": figure,
        "each": [_student(report.student(s), numbers) for s in report.students()],
    }
    return str(_env().get_template(PAGE).render(**data))


__all__ = ["LEGEND", "MARK_STYLE", "MARK_TEXT", "report_page", "student_html", "styled"]
