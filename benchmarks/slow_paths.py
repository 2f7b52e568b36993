"""The slow paths of hostile input, measured: many refusals at the table and in a lesson, a long
``lesson play``, and opening a large progress store (its integrity check).

Prints figures, asserts nothing.  Every figure is a median (of ``--rounds`` messages or runs) in
CPU time of this process, so that other processes on the machine change it little; the load
average is printed with them.

    .venv/bin/python benchmarks/slow_paths.py                     # 5,000 refusals, 1,000 lesson actions
    .venv/bin/python benchmarks/slow_paths.py --refusals 500 --attempts 2000

Run against an earlier tree (the same script, that tree's package first on the path)::

    git archive REV | tar -x -C /tmp/old && PYTHONPATH=/tmp/old .venv/bin/python benchmarks/slow_paths.py
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable


def _cpu(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def table(refusals: int, rounds: int) -> dict[str, Any]:
    """The card table after ``refusals`` refused draws: the cost of one more message, and the view's size."""
    from canasta_tutor.ui.table import CanastaTable

    t = CanastaTable(seed=11, bot_delay=0)
    t.handle({"intent": "draw"})
    for _ in range(refusals):
        t.handle({"intent": "draw"})  # refused: South has drawn already
    costs = [_cpu(lambda: t.handle({"intent": "draw"})) for _ in range(rounds)]
    return {"refusals": refusals, "ms_per_message": round(statistics.median(costs) * 1000, 2),
            "view_kib": round(len(json.dumps(t.view)) / 1024, 1)}


def lesson(refusals: int, rounds: int) -> dict[str, Any]:
    """The lesson widget after ``refusals`` refused actions: one more message, and the view's size."""
    from canasta_tutor.ui.lesson import LessonWidget

    w = LessonWidget("melds", store=None, hint_fn=None)
    for _ in range(refusals):
        w.handle({"intent": "act", "text": "draw"})
    costs = [_cpu(lambda: w.handle({"intent": "act", "text": "draw"})) for _ in range(rounds)]
    return {"refusals": refusals, "ms_per_message": round(statistics.median(costs) * 1000, 2),
            "view_kib": round(len(json.dumps(w.view)) / 1024, 1)}


def lesson_play(actions: int) -> dict[str, Any]:
    """A level run fed ``actions`` refused actions, as ``lesson play --actions "draw; draw; ..."`` does."""
    from canasta_tutor.tutor.lessons.player import find_lesson
    from canasta_tutor.tutor.lessons.runner import LevelRun

    run = LevelRun(find_lesson("melds").levels[0], 0, hint_fn=None)
    seconds = _cpu(lambda: [run.play("draw") for _ in range(actions)])
    return {"actions": actions, "cpu_seconds": round(seconds, 2)}


def store_open(attempts: int, rounds: int) -> dict[str, Any]:
    """Opening a store of ``attempts`` attempts (30 students): the whole open, with its integrity check."""
    from canasta_tutor.tutor.progress import Attempt, ProgressStore

    path = Path(tempfile.mkdtemp()) / "progress.sqlite3"
    with ProgressStore(path) as store:
        store.record_many(Attempt(f"s{i % 30}", "melds", f"l{i % 50}", "passed", stars=i % 4,
                                  actions=[{"kind": "action", "text": "draw"}] * 10) for i in range(attempts))
    costs = [_cpu(lambda: ProgressStore(path).close()) for _ in range(rounds)]
    return {"attempts": attempts, "megabytes": round(path.stat().st_size / 1e6, 1),
            "ms_to_open": round(statistics.median(costs) * 1000, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--refusals", type=int, default=5000)
    p.add_argument("--actions", type=int, default=1000, help="refused actions fed to one level run")
    p.add_argument("--attempts", type=int, default=20_000, help="attempts in the store opened")
    p.add_argument("--rounds", type=int, default=21)
    args = p.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out = {"load_average": round(load, 2), "cores": os.cpu_count(),
           "table": table(args.refusals, args.rounds), "lesson_widget": lesson(args.refusals, args.rounds),
           "lesson_play": lesson_play(args.actions), "store_open": store_open(args.attempts, 5)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
