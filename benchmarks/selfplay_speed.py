"""Speed of the rules engine under random self-play (a script that prints figures, not a test).

Four random players choose uniformly among the legal actions, game after game,
with the invariant checks off, on one core.  Prints hands per second and
microseconds per action; ``--check`` measures with the checks on;
``--profile`` adds a cProfile of the run (top 15 by cumulative time).

``--compare REV`` measures an earlier revision of the engine against this
checkout in the same run: the package as it was at ``REV`` is unpacked with
``git archive`` into a temporary folder, and each round runs both versions in
fresh processes, one after the other (alternating which goes first), on the
same hands.  It prints every round, the medians and the ratio of the medians,
so that a busy machine slows both sides alike.

    .venv/bin/python benchmarks/selfplay_speed.py
    .venv/bin/python benchmarks/selfplay_speed.py --hands 500 --profile
    .venv/bin/python benchmarks/selfplay_speed.py --compare 11b752c --rounds 7 --hands 500
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canasta_tutor.selfplay import run_selfplay  # noqa: E402

# One measured run in a fresh process, whichever package comes first on sys.path.
_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from canasta_tutor.selfplay import run_selfplay
r = run_selfplay(int(sys.argv[2]), int(sys.argv[3]), check=False)
print(json.dumps({"hands": r.hands, "actions": r.actions, "seconds": r.seconds}))
"""


def _unpack(rev: str, into: Path) -> None:
    """The ``canasta_tutor`` package as it was at ``rev``, written under ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "canasta_tutor"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:  # Python before 3.11.4: our own archive, read from git
            tar.extractall(into)


def _measure(package_root: Path, hands: int, seed: int) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(package_root), str(hands), str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def compare(rev: str, rounds: int, hands: int, seed: int) -> int:
    """Alternate rounds of ``rev`` and this checkout; print medians and their ratio."""
    label = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                           capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="selfplay-base-") as tmp:
        base_root = Path(tmp)
        _unpack(rev, base_root)
        runs: dict[str, list[float]] = {"base": [], "now": []}
        actions: dict[str, int] = {}
        print(f"round  base {label:>9} (hands/s)  this checkout (hands/s)  ratio")
        for r in range(rounds):
            order = [("base", base_root), ("now", ROOT)]
            if r % 2:
                order.reverse()
            got: dict[str, float] = {}
            for name, root in order:
                res = _measure(root, hands, seed)
                got[name] = res["hands"] / res["seconds"]
                runs[name].append(got[name])
                actions[name] = res["actions"]
            print(f"{r + 1:5d}  {got['base']:22.1f}  {got['now']:23.1f}  {got['now'] / got['base']:5.2f}", flush=True)
    base = statistics.median(runs["base"])
    now = statistics.median(runs["now"])
    ratios = sorted(n / b for n, b in zip(runs["now"], runs["base"]))
    print(f"median hands per second: base {base:.1f}, this checkout {now:.1f}")
    print(f"ratio of the medians:    {now / base:.2f}")
    print(f"median of round ratios:  {statistics.median(ratios):.2f} (range {ratios[0]:.2f}..{ratios[-1]:.2f})")
    if actions["base"] != actions["now"]:
        print(f"note: the two played different games ({actions['base']} and {actions['now']} actions)")
    else:
        print(f"same games on both sides: {actions['now']} actions per run")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000, help="hands to play (default 2000)")
    p.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    p.add_argument("--check", action="store_true", help="run the invariant checks too")
    p.add_argument("--profile", action="store_true", help="print a cProfile top 15")
    p.add_argument("--repeat", type=int, default=1, help="runs; the best is reported")
    p.add_argument("--compare", metavar="REV", help="also time the engine at git revision REV, in alternation")
    p.add_argument("--rounds", type=int, default=7, help="rounds of --compare (default 7)")
    args = p.parse_args(argv)

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{args.hands} hands, seed {args.seed}, checks {'on' if args.check else 'off'}")
    if args.compare:
        if args.check:
            p.error("--compare measures with the checks off")
        return compare(args.compare, max(1, args.rounds), args.hands, args.seed)
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
