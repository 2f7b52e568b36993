"""Speed of the rules engine under random self-play (a script that prints figures, not a test).

Four random players choose uniformly among the legal actions, game after game,
with the invariant checks off, on one core.  Prints hands per second and
microseconds per action; ``--check`` measures with the checks on;
``--profile`` adds a cProfile of the run (top 15 by cumulative time).

    .venv/bin/python benchmarks/selfplay_speed.py
    .venv/bin/python benchmarks/selfplay_speed.py --hands 500 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import sys

from canasta_tutor.selfplay import run_selfplay


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000, help="hands to play (default 2000)")
    p.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    p.add_argument("--check", action="store_true", help="run the invariant checks too")
    p.add_argument("--profile", action="store_true", help="print a cProfile top 15")
    p.add_argument("--repeat", type=int, default=1, help="runs; the best is reported")
    args = p.parse_args(argv)

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{args.hands} hands, seed {args.seed}, checks {'on' if args.check else 'off'}")
    best = None
    for _ in range(max(1, args.repeat)):
        report = run_selfplay(args.hands, args.seed, check=args.check)
        if best is None or report.seconds < best.seconds:
            best = report
    assert best is not None
    print(f"hands:                  {best.hands}")
    print(f"actions:                {best.actions} ({best.actions / max(best.hands, 1):.0f} per hand)")
    print(f"games:                  {best.games}")
    print(f"seconds:                {best.seconds:.2f}")
    print(f"hands per second:       {best.hands_per_s:.1f}")
    print(f"microseconds per action: {best.us_per_action:.1f}")
    if args.check:
        print(f"invariant violations:   {best.violations}")

    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run_selfplay(args.hands, args.seed, check=args.check)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(15)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
