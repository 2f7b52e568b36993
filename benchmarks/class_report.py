"""How long the class report takes: simulate a class once, then time the report on it.

The report is everything the teacher notebook shows: the students x items table, its
heatmap, the per-theme table and plot, the most common wrong move per item, and the
progress table and plot; each figure drawn to PNG as a notebook shows it.  The store is
read afresh for every round (a new :class:`ClassReport`), so a round includes reading
the attempts and their wrong moves from SQLite into pandas.  Imports (pandas, matplotlib)
and the first figure (font loading) happen once, before the timed rounds.

    .venv/bin/python benchmarks/class_report.py                       # 30 students x 50 items
    .venv/bin/python benchmarks/class_report.py --students 300 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.tutor.classes.report import ClassReport, png  # noqa: E402
from canasta_tutor.tutor.classes.simulate import simulate  # noqa: E402


def report_once(course: Path) -> dict[str, float]:
    """One full report, timed part by part (seconds)."""
    times: dict[str, float] = {}
    cpu0 = time.process_time()
    t0 = t = time.perf_counter()
    with ClassReport(course) as r:
        times["read"] = time.perf_counter() - t
        t = time.perf_counter()
        r.table("stars")
        r.table("solved")
        r.table("hints")
        r.table("seconds")
        times["table"] = time.perf_counter() - t
        t = time.perf_counter()
        png(r.heatmap())
        times["heatmap"] = time.perf_counter() - t
        t = time.perf_counter()
        r.themes()
        png(r.theme_plot())
        times["themes"] = time.perf_counter() - t
        t = time.perf_counter()
        r.wrong_moves()
        times["wrong_moves"] = time.perf_counter() - t
        t = time.perf_counter()
        r.progress()
        png(r.progress_plot())
        times["progress"] = time.perf_counter() - t
        t = time.perf_counter()
        r.refresh()
        times["refresh_unchanged"] = time.perf_counter() - t
    times["total"] = time.perf_counter() - t0
    times["total_cpu"] = time.process_time() - cpu0
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--items", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp)
        t = time.perf_counter()
        summary = simulate(course, args.students, args.items, args.seed, progress=False)
        sim = time.perf_counter() - t
        print(f"simulate: {summary.students} students x {summary.items} items, {summary.attempts} attempts "
              f"in {sim:.1f} s")
        report_once(course)  # warm-up: imports done, fonts loaded
        rounds = [report_once(course) for _ in range(args.rounds)]
    print(f"report, median of {args.rounds} rounds (seconds; wall clock, and total_cpu: this process's CPU "
          f"time, which the machine's other load does not inflate):")
    for part in rounds[0]:
        values = [r[part] for r in rounds]
        print(f"  {part:<18} {statistics.median(values):7.3f}   (min {min(values):.3f}, max {max(values):.3f})")


if __name__ == "__main__":
    main()
