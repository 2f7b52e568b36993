"""The class report's figures, with matplotlib (imported only when a figure is drawn, never pyplot).

- :func:`heatmap`: students x items; for stars, one colour per kind of cell: not tried (light
  grey), tried and not solved (red), solved with 0 to 3 stars (greens), with the legend beside
  the grid, never over it;
- :func:`theme_plot`: the share of students solving each theme's items;
- :func:`progress_plot`: items solved over time, one small panel per student (named, with their
  rating change), the class's median in each for comparison; for a large class, the class's
  median with the band from the 10th to the 90th percentile.

Every student string drawn is made plain first (:func:`~.safe.plot_label`: matplotlib reads
``$...$`` as mathematics).
"""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .safe import plot_label

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

DPI = 72  # the figures' resolution: a notebook shows them at about this size
#: the heatmap's colours for stars: tried and not solved, solved with no stars, 1, 2 and 3 stars
STAR_COLOURS = ("#d6604d", "#d9f0d3", "#a6dba0", "#5aae61", "#1b7837")
UNTRIED = "#eeeeee"
#: a small panel per student up to this many students; beyond, the class's median and band
PANELS_UP_TO = 40


def heatmap(report: Any, measure: str = "stars") -> "Figure":
    """A heatmap of the students x items table (untried cells light grey)."""
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure

    low: float | None
    high: float | None
    if measure == "stars":
        t = report.table("stars").astype(float)
        solved = report.table("solved").astype("boolean")
        values = np.where(solved.fillna(False).to_numpy(dtype=bool), t.to_numpy(), np.where(t.notna(), -1.0, np.nan))
        cmap = ListedColormap(STAR_COLOURS).with_extremes(bad=UNTRIED)
        low, high = -1.5, 3.5
    else:
        t = report.table(measure).astype(float)
        values = t.to_numpy()
        cmap = colormaps["viridis"].with_extremes(bad=UNTRIED)
        low = high = None
    fig = Figure(figsize=(min(14.0, max(6.0, 0.18 * len(t.columns) + 3)),
                          min(10.0, max(3.0, 0.22 * len(t.index) + 1.5))), dpi=DPI)
    ax = fig.add_subplot()
    im = ax.imshow(np.ma.masked_invalid(values.astype(float)), aspect="auto", cmap=cmap, vmin=low, vmax=high,
                   interpolation="nearest")
    # one tick label per student and every fifth item (ticks are most of a figure's drawing time)
    ys = range(0, len(t.index), max(1, len(t.index) // 40))
    ax.set_yticks(list(ys), [plot_label(str(t.index[i])) for i in ys], fontsize=7)
    xs = [i for i in range(len(t.columns)) if (i + 1) % 5 == 0 or len(t.columns) <= 12]
    ax.set_xticks(xs, [str(i + 1) for i in xs], fontsize=7)
    ax.set_xlabel("item (number as in the report's item list)")
    ax.set_title(f"{'best stars' if measure == 'stars' else measure} per student and item (light grey: not tried)",
                 fontsize=9)
    bar = fig.colorbar(im, ax=ax, shrink=0.8, pad=0.02, ticks=[-1, 0, 1, 2, 3] if measure == "stars" else None)
    if measure == "stars":
        bar.ax.set_yticklabels(["tried, not solved", "solved", "1 star", "2 stars", "3 stars"], fontsize=7)
    fig.subplots_adjust(left=0.12, right=0.88 if measure == "stars" else 0.98, bottom=0.12, top=0.92)
    return fig


def theme_plot(report: Any) -> "Figure":
    """Share of students solving each theme's items (first attempt and in the end)."""
    from matplotlib.figure import Figure

    th = report.themes()
    fig = Figure(figsize=(7, min(10.0, max(3.0, 0.25 * len(th) + 1.4))), dpi=DPI)
    ax = fig.add_subplot()
    y = range(len(th))
    ax.barh(y, th["solved"], color="tab:green", label="solved in the end")
    ax.barh(y, th["first_try"], color="tab:blue", label="solved at the first attempt", height=0.4)
    ax.set_yticks(list(y), [plot_label(str(t), 40) for t in th.index], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of students")
    # the legend above the bars: a bar reaching 1 is never hidden under it
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2, fontsize=7, frameon=False)
    fig.subplots_adjust(left=0.3, right=0.97, bottom=0.1, top=0.9)
    return fig


def progress_plot(report: Any, lines_up_to: int = PANELS_UP_TO) -> "Figure":
    """Items solved at the end of each day worked: one small panel per student (their name and
    rating change above it, the class's median in grey), or, for more than ``lines_up_to``
    students, the class's median with the band from the 10th to the 90th percentile, and the
    puzzle rating the same way.  The panels share one scale, given in the title, and are drawn in
    one set of axes (a set of axes per student would cost a second to draw for a class of 30)."""
    from matplotlib.collections import LineCollection
    from matplotlib.dates import date2num
    from matplotlib.figure import Figure

    d = report.daily()
    n = d["student"].nunique() if not d.empty else 0
    if n > lines_up_to:
        return _band(d, n)
    cols = min(6, max(1, n))
    rows = max(1, math.ceil(n / cols))
    fig = Figure(figsize=(1.9 * cols + 0.4, 1.2 * rows + 0.6), dpi=DPI)
    ax = fig.add_axes((0.01, 0.01, 0.98, 1 - 0.5 / (1.2 * rows + 0.6)))
    ax.set_axis_off()
    if d.empty:
        ax.text(0.5, 0.5, "no attempts yet", ha="center", va="center", transform=ax.transAxes)
        return fig
    wide = d.pivot(index="day", columns="student", values="solved_items").sort_index().ffill().fillna(0)
    x = date2num(wide.index.to_numpy())
    span = (x[-1] - x[0]) or 1.0
    top = max(1.0, float(np.nanmax(wide.to_numpy(dtype=float))))
    median = wide.median(axis=1).to_numpy(dtype=float)
    change = report.progress()["rating_change"] if not report.progress().empty else None
    frames, medians, lines = [], [], []
    for k, student in enumerate(wide.columns):
        c, r = k % cols, rows - 1 - k // cols
        px = c + 0.06 + 0.88 * ((x - x[0]) / span if len(x) > 1 else np.full(len(x), 0.5))
        frames.append([(c + 0.04, r + 0.06), (c + 0.96, r + 0.06), (c + 0.96, r + 0.74), (c + 0.04, r + 0.74),
                       (c + 0.04, r + 0.06)])
        medians.append(_steps(px, r + 0.08 + 0.64 * median / top))
        lines.append(_steps(px, r + 0.08 + 0.64 * wide[student].to_numpy(dtype=float) / top))
        rc = change.get(student) if change is not None else None
        rating = f" ({rc:+.0f})" if rc is not None and not np.isnan(rc) else ""
        ax.text(c + 0.5, r + 0.8, plot_label(str(student), 18) + rating, ha="center", va="bottom", fontsize=8)
    ax.add_collection(LineCollection(frames, colors="0.8", linewidths=0.6))
    ax.add_collection(LineCollection(medians, colors="0.65", linewidths=1.0))
    ax.add_collection(LineCollection(lines, colors="tab:blue", linewidths=1.6))
    ax.set_xlim(0, cols)
    ax.set_ylim(0, rows)
    first, last = wide.index[0], wide.index[-1]
    fig.suptitle(f"Items solved, by day from {first:%d %b %Y} (left) to {last:%d %b %Y} (right), 0 to {top:.0f} "
                 "items (bottom to top): each student in blue, the class's median in grey; the puzzle rating's "
                 "change in brackets", fontsize=8, y=0.995)
    return fig


def _steps(x: Any, y: Any) -> Any:
    """A line held at each value until the next point (items solved stay solved)."""
    if len(x) == 1:
        return np.array([[x[0] - 0.02, y[0]], [x[0] + 0.02, y[0]]])
    xs = np.repeat(x, 2)[1:]
    ys = np.repeat(y, 2)[:-1]
    return np.column_stack([xs, ys])


def _band(d: Any, n: int) -> "Figure":
    from matplotlib.dates import date2num
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 3.2), dpi=DPI)
    left, right = fig.subplots(1, 2)
    panels = ((left, "solved_items", "items solved"), (right, "rating", "puzzle rating"))
    for ax, col, title in panels:
        # each student's value carried forward to every day, so the percentiles compare like with like
        wide = d.pivot(index="day", columns="student", values=col).sort_index().ffill()
        x = date2num(wide.index.to_numpy())
        q = wide.quantile([0.1, 0.5, 0.9], axis=1).to_numpy(dtype=float)
        ax.fill_between(x, q[0], q[2], alpha=0.3, linewidth=0, label="10th to 90th percentile")
        ax.plot(x, q[1], linewidth=1.2, label="median")
        ax.set_title(f"{title} ({n} students)", fontsize=9)
        _date_axis(ax, x, 6)
        ax.tick_params(labelsize=7)
    left.legend(fontsize=7, loc="upper left")
    fig.subplots_adjust(left=0.06, right=0.98, bottom=0.12, top=0.9, wspace=0.2)
    return fig


def _date_axis(ax: Any, x: Any, ticks: int) -> None:
    """Dates on the x axis; one day alone is shown with the days around it (a date axis cannot place
    ticks on no range at all)."""
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter, DayLocator

    if len(x) == 1:
        ax.set_xlim(x[0] - 1, x[0] + 1)
        locator: Any = DayLocator()
    else:
        locator = AutoDateLocator(maxticks=ticks)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(ConciseDateFormatter(locator, show_offset=False))


def png(fig: "Figure") -> bytes:
    """The figure drawn as PNG (what a notebook shows)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, pil_kwargs={"compress_level": 1})
    return buf.getvalue()


__all__ = ["DPI", "PANELS_UP_TO", "heatmap", "png", "progress_plot", "theme_plot"]
