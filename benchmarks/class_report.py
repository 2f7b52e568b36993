"""How long the class report takes: simulate a class once, then time the report on it.

The report is the students x items table and its heatmap (coloured HTML, a pandas Styler), who has
not started and each student's totals, the per-theme table, the most common wrong move per item and
the progress table (``report_total``, ``report_cpu``). The teacher notebook adds two matplotlib
figures, the theme plot and the progress plot, each drawn to PNG as a notebook shows it:
``notebook_total`` and ``notebook_cpu`` are everything the notebook shows. Then the heatmap as a
matplotlib figure (for a handout; ``figures_cpu`` covers the three figures), and the whole report as
one standalone HTML page, what ``class report --html`` writes (``html_page``, its progress figure
included). ``total`` and ``total_cpu`` cover it all; ``cli_html`` is ``canasta-tutor class report
--course DIR --html FILE`` run as a command (a new Python process: its imports included). The store
is read afresh for every round (a new :class:`ClassReport`), so a round includes reading the
attempts and their wrong moves from SQLite into pandas. Imports (pandas, matplotlib) and the first
figure (font loading) happen once, before the timed rounds.

    .venv/bin/python benchmarks/class_report.py                       # 30 students x 50 items
    .venv/bin/python benchmarks/class_report.py --students 300 --rounds 3
    .venv/bin/python benchmarks/class_report.py --students 300 --copies 10 --rounds 1   # 3000 students

``--split`` then moves every student's attempts into a store of their own under the course's
``progress/`` folder (as a shared folder would hold them) and times the first report, which replays
every attempt in them through the engine, and a refresh when none has changed.

``--copies N`` copies the simulated class N times under new student names (in SQL) before the
report is timed: a large class measured without simulating every student (its students are
then N copies of the same bots, which changes nothing in the report's cost).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.tutor.classes.report import ClassReport, png  # noqa: E402
from canasta_tutor.tutor.classes.simulate import simulate  # noqa: E402


def report_once(course: Path, page: bool = True) -> dict[str, float]:
    """One full report, timed part by part (seconds): first what the report is (the tables, the HTML
    heatmap of the students x items table, the per-theme, wrong-move and progress tables), then the
    three matplotlib figures drawn to PNG."""
    times: dict[str, float] = {}
    cpu0 = time.process_time()
    t0 = t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        times[name] = time.perf_counter() - t
        t = time.perf_counter()

    with ClassReport(course) as r:
        lap("read")
        for measure in ("stars", "solved", "hints", "seconds"):
            r.table(measure)
        lap("table")
        r.styled("stars").to_html()
        lap("heatmap_html")
        r.not_started()
        r.summary()
        lap("summary")
        r.themes()
        lap("themes")
        r.wrong_moves()
        lap("wrong_moves")
        r.progress()
        lap("progress")
        times["report_total"] = time.perf_counter() - t0
        times["report_cpu"] = time.process_time() - cpu0
        cpu1 = time.process_time()
        png(r.theme_plot())
        lap("fig_themes")
        png(r.progress_plot())
        lap("fig_progress")
        # the teacher notebook shows everything up to here; the heatmap figure is for handouts
        times["notebook_total"] = time.perf_counter() - t0
        times["notebook_cpu"] = time.process_time() - cpu0
        png(r.heatmap())
        lap("fig_heatmap")
        times["figures_cpu"] = time.process_time() - cpu1
        if page:
            r.to_html()
            lap("html_page")
        r.refresh()
        lap("refresh_unchanged")
    times["total"] = time.perf_counter() - t0
    times["total_cpu"] = time.process_time() - cpu0
    return times


def cli_html(course: Path) -> float:
    """``canasta-tutor class report --course DIR --html FILE`` as a command: its wall-clock seconds."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "canasta_tutor", "class", "report", "--course", str(course), "--html",
                    str(course / "report.html")], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def copy_class(store: Path, copies: int) -> None:
    """Copy every student with their attempts and actions ``copies - 1`` more times (names get ``-cK``)."""
    conn = sqlite3.connect(store)
    with conn:
        learners = conn.execute("SELECT id, name FROM learners").fetchall()
        cls = conn.execute("SELECT id FROM classes").fetchone()[0]
        for k in range(1, copies):
            for lid, name in learners:
                new = conn.execute("INSERT INTO learners (name, created) VALUES (?, '2026-01-05')",
                                   (f"{name}-c{k}",)).lastrowid
                conn.execute("INSERT INTO class_members VALUES (?, ?, '2026-01-05')", (cls, new))
                for (aid,) in conn.execute("SELECT id FROM attempts WHERE learner_id = ?", (lid,)).fetchall():
                    cur = conn.execute(
                        "INSERT INTO attempts (learner_id, kind, lesson, level, seed, started, finished, status, "
                        "stars, tries, par, hints, rating_before, rating_after, uid, themes, assignment) "
                        "SELECT ?, kind, lesson, level, seed, started, finished, status, stars, tries, par, hints, "
                        "rating_before, rating_after, uid || ?, themes, assignment FROM attempts WHERE id = ?",
                        (new, f"-c{k}", aid))
                    conn.execute("INSERT INTO attempt_actions SELECT ?, n, kind, text, rule, reason "
                                 "FROM attempt_actions WHERE attempt_id = ?", (cur.lastrowid, aid))
    conn.close()


def split_class(course: Path) -> int:
    """One store per student under ``course/progress/``, the course's store removed; returns how many."""
    from canasta_tutor.tutor.progress import Attempt, ProgressStore

    folder = course / "progress"
    folder.mkdir()
    with ProgressStore(course / "progress.sqlite3") as store:
        learners = store.learners()
        for name in learners:
            mine = store.attempts(name)
            with ProgressStore(folder / f"{name}.sqlite3") as own:
                own.record_many(Attempt("learner", a["lesson"], a["level"], a["status"], a["stars"], a["seed"],
                                        a["tries"], a["par"], a["hints"], a["actions"], a["kind"], a["started"],
                                        a["finished"], a["rating_before"], a["rating_after"], a["themes"],
                                        a["assignment"], a["uid"]) for a in mine)
    for f in course.glob("progress.sqlite3*"):
        f.unlink()
    return len(learners)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--items", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--copies", type=int, default=1, help="copy the simulated class this many times")
    ap.add_argument("--split", action="store_true", help="one store per student under progress/, replayed")
    ap.add_argument("--page", action=argparse.BooleanOptionalAction, default=True,
                    help="time the standalone page and `class report --html` too (default: yes)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp)
        t = time.perf_counter()
        summary = simulate(course, args.students, args.items, args.seed, progress=False)
        sim = time.perf_counter() - t
        print(f"simulate: {summary.students} students x {summary.items} items, {summary.attempts} attempts "
              f"in {sim:.1f} s")
        if args.copies > 1:
            copy_class(summary.path, args.copies)
            print(f"copied {args.copies} times: {summary.students * args.copies} students, "
                  f"{summary.attempts * args.copies} attempts")
        size = sum(f.stat().st_size for f in course.glob("progress.sqlite3*"))
        print(f"store: {size / 1e6:.1f} MB")
        if args.split:
            n = split_class(course)
            t = time.perf_counter()
            with ClassReport(course) as r:
                first = time.perf_counter() - t
                t = time.perf_counter()
                r.refresh()
                again = time.perf_counter() - t
            print(f"split into {n} student stores: the first report (replaying every attempt in them) {first:.2f} s, "
                  f"a refresh with none changed {again:.3f} s")
        report_once(course, args.page)  # warm-up: imports done, fonts loaded
        rounds = [report_once(course, args.page) for _ in range(args.rounds)]
        for r in rounds:
            if args.page:
                r["cli_html"] = cli_html(course)
    import os

    print(f"report, median of {args.rounds} rounds (seconds; wall clock, and total_cpu: this process's CPU "
          f"time, which the machine's other load does not inflate); {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}:")
    for part in rounds[0]:
        values = [r[part] for r in rounds]
        print(f"  {part:<18} {statistics.median(values):7.3f}   (min {min(values):.3f}, max {max(values):.3f})")


if __name__ == "__main__":
    main()
