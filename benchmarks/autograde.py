"""Autograding time: N submissions of an assignment through `nbgrader autograde`.

Builds a course in a temporary folder from an assignment file (default: the ten-item
``examples/assignment-week-1.toml``), runs ``canasta-tutor class assign`` and
``nbgrader generate_assignment``, simulates the students (each plays a seeded random
share of the items through the exam sessions the widgets show, on their own deals, some with
hints, some wrong moves, one with its log's totals edited), then times ``nbgrader autograde`` over all of them and
prints the wall-clock time, the CPU time of the child processes, and, for comparison,
the replay alone (every log graded in this process).  It also checks that the gradebook
holds the replay's scores.

    .venv/bin/python benchmarks/autograde.py                   # 30 students, the week-1 example
    .venv/bin/python benchmarks/autograde.py --students 5 --keep bench-course
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canasta_tutor.cli.main import main as cli  # noqa: E402
from canasta_tutor.tutor.assignments.grading import grade_log, log_path  # noqa: E402
from canasta_tutor.tutor.assignments.spec import Assignment, load_assignment  # noqa: E402
from canasta_tutor.tutor.assignments.student import HINT, play_item, solution_line  # noqa: E402


def nbgrader(course: Path, *args: str) -> None:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"nbgrader {' '.join(args)} failed:\n{done.stderr[-3000:]}")


def simulate(a: Assignment, course: Path, students: int, seed: int) -> dict[str, float]:
    """Write each student's submission; returns the replay's total per student."""
    rng = random.Random(seed)
    release = course / "release" / a.id / f"{a.id}.ipynb"
    expected = {}
    for n in range(students):
        student = f"student{n + 1:02d}"
        folder = course / "submitted" / student / a.id
        folder.mkdir(parents=True)
        shutil.copy(release, folder / release.name)
        (folder / "timestamp.txt").write_text("2026-11-30 09:00:00.000000 UTC", encoding="utf-8")
        logs = folder / "canasta-log"
        for item in a.items:
            r = rng.random()
            if r < 0.15:
                continue  # not played
            line = solution_line(item, student)  # on the student's own deal
            if r < 0.3:
                play_item(item, [["discard 4"]], logs, student)  # one wrong try, not solved
            elif r < 0.45:
                play_item(item, [[HINT, *line]], logs, student)  # a level's staged hint, or the puzzle trainer's
            else:
                play_item(item, [line], logs, student)
        if n == 0:  # the first student edits every log's totals to full marks
            for item in a.items:
                p = log_path(item, logs)
                if p.exists():
                    data = json.loads(p.read_text(encoding="utf-8"))
                    data["totals"].update(solved=True, hints=0, score=item.points)
                    p.write_text(json.dumps(data), encoding="utf-8")
        expected[student] = float(sum(grade_log(item, logs, student=student).score for item in a.items))
    return expected


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assignment", default=str(ROOT / "examples" / "assignment-week-1.toml"))
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default=None, metavar="DIR", help="build the course here and keep it")
    args = ap.parse_args()

    course = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="autograde-bench-"))
    a = load_assignment(args.assignment)
    assert cli(["class", "assign", args.assignment, "--course", str(course), "--force"]) == 0
    t = time.perf_counter()
    nbgrader(course, "generate_assignment", a.id, "--force")
    generate = time.perf_counter() - t
    expected = simulate(a, course, args.students, args.seed)

    t = time.perf_counter()
    for student in expected:  # the replay alone, in this process
        for item in a.items:
            grade_log(item, course / "submitted" / student / a.id / "canasta-log", student=student)
    replay = time.perf_counter() - t

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    nbgrader(course, "autograde", a.id)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    from nbgrader.api import Gradebook

    mismatches = []
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for student, want in expected.items():
            got = gb.find_submission(a.id, student).score
            if abs(got - want) > 1e-6:
                mismatches.append(f"{student}: gradebook {got}, replay {want}")
    n = args.students
    print(f"assignment {a.id}: {len(a.items)} items, {a.points:g} points; {n} submissions; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"nbgrader generate_assignment: {generate:.1f} s")
    print(f"nbgrader autograde: {wall:.1f} s wall ({wall / n:.2f} s per submission), "
          f"{cpu:.1f} s CPU in its processes")
    print(f"the replay alone (all {n * len(a.items)} logs, one process): {replay:.2f} s")
    print(f"gradebook = replay for {n - len(mismatches)} of {n} submissions"
          + ("" if not mismatches else ": " + "; ".join(mismatches)))
    if not args.keep:
        shutil.rmtree(course, ignore_errors=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
