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
    .venv/bin/python benchmarks/selfplay_speed.py --variant six-handed --hands 500

``--variant NAME`` measures a variant's game (not with ``--compare``, which times the classic game
against a revision that may not know the variants).

``--engine compiled`` (the default where it is built) plays on the search's compiled copy
(``canasta_tutor/bots/native.py``), ``--engine python`` in plain Python.

``--peer "COMMAND"`` measures another engine side by side: each round runs this checkout compiled, this
checkout in plain Python and ``COMMAND HANDS SEED`` (which plays that many hands of random legal actions
and prints one JSON object with ``hands``, ``seconds`` and ``cpu``), each in a fresh process pinned to the
same core, with the same count of hands, in turn; it prints every round, the medians and the ratios.
benchmarks/README.md says how canasta-openspiel was measured this way.

    .venv/bin/python benchmarks/selfplay_speed.py --engine python
    .venv/bin/python benchmarks/selfplay_speed.py --peer "/path/to/venv/bin/python peer.py" --hands 1000 --rounds 7
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canasta_tutor.bots import native  # noqa: E402
from canasta_tutor.bots.selfplay import run_selfplay  # noqa: E402

# One measured run in a fresh process, whichever package comes first on sys.path.
_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from canasta_tutor.bots.selfplay import run_selfplay
cpu = time.process_time()
r = run_selfplay(int(sys.argv[2]), int(sys.argv[3]), check=False)
cpu = time.process_time() - cpu
print(json.dumps({"hands": r.hands, "actions": r.actions, "seconds": r.seconds, "cpu": cpu}))
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
    """Alternate rounds of ``rev`` and this checkout; print medians and their ratio.

    Two clocks: wall time (what ``run_selfplay`` reports) and the process's CPU time, which
    other programs on a busy machine disturb far less."""
    label = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                           capture_output=True, text=True).stdout.strip()
    runs: dict[str, dict[str, list[float]]] = {"base": {"wall": [], "cpu": []}, "now": {"wall": [], "cpu": []}}
    actions: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="selfplay-base-") as tmp:
        base_root = Path(tmp)
        _unpack(rev, base_root)
        print(f"hands per second, base = {label}, now = this checkout")
        print("round   base wall    now wall   ratio    base cpu     now cpu   ratio")
        for r in range(rounds):
            order = [("base", base_root), ("now", ROOT)]
            if r % 2:
                order.reverse()
            for name, root in order:
                res = _measure(root, hands, seed)
                runs[name]["wall"].append(res["hands"] / res["seconds"])
                runs[name]["cpu"].append(res["hands"] / res["cpu"])
                actions[name] = res["actions"]
            b, n = runs["base"], runs["now"]
            print(f"{r + 1:5d}  {b['wall'][-1]:10.1f}  {n['wall'][-1]:10.1f}  {n['wall'][-1] / b['wall'][-1]:6.2f}"
                  f"  {b['cpu'][-1]:10.1f}  {n['cpu'][-1]:10.1f}  {n['cpu'][-1] / b['cpu'][-1]:6.2f}", flush=True)
    for clock in ("wall", "cpu"):
        base = statistics.median(runs["base"][clock])
        now = statistics.median(runs["now"][clock])
        ratios = sorted(x / y for x, y in zip(runs["now"][clock], runs["base"][clock], strict=True))
        print(f"{clock:4s} clock: median hands per second base {base:.1f}, now {now:.1f}; "
              f"ratio of the medians {now / base:.2f}; median of round ratios {statistics.median(ratios):.2f} "
              f"(range {ratios[0]:.2f}..{ratios[-1]:.2f})")
    if actions["base"] != actions["now"]:
        print(f"note: the two played different games ({actions['base']} and {actions['now']} actions)")
    else:
        print(f"same games on both sides: {actions['now']} actions per run")
    return 0


# One run of this checkout on the engine named, in a fresh process.
_OURS = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from canasta_tutor import native
from canasta_tutor.bots.selfplay import run_selfplay
engine = native.engine() if sys.argv[4] == "compiled" else None
if sys.argv[4] == "compiled" and engine is None:
    sys.exit("the search's compiled copy is " + native.status())
play = run_selfplay if engine is None else engine.run_selfplay
cpu = time.process_time()
r = play(int(sys.argv[2]), int(sys.argv[3]), check=False)
cpu = time.process_time() - cpu
print(json.dumps({"hands": r.hands, "actions": r.actions, "seconds": r.seconds, "cpu": cpu, "engine": r.engine}))
"""


def peer(command: str, rounds: int, hands: int, seed: int) -> int:
    """Rounds of this checkout (compiled, then plain Python) and ``command``, in turn, on one core each."""
    core = str(min(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else None
    pin = ["taskset", "-c", core] if core is not None and shutil.which("taskset") else []
    sides = {"compiled": [*pin, sys.executable, "-c", _OURS, str(ROOT), str(hands), "{seed}", "compiled"],
             "python": [*pin, sys.executable, "-c", _OURS, str(ROOT), str(hands), "{seed}", "python"],
             "peer": [*pin, *shlex.split(command), str(hands), "{seed}"]}
    runs: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": []} for k in sides}
    print(f"hands per second, {hands} hands a run, one core; peer = {command}")
    print("round  compiled wall  python wall  peer wall   compiled cpu  python cpu  peer cpu")
    for r in range(rounds):
        for name, cmd in sides.items():
            out = subprocess.run([c.replace("{seed}", str(seed + r)) for c in cmd], check=True,
                                 capture_output=True, text=True).stdout
            res = json.loads(out.strip().splitlines()[-1])
            if res["hands"] != hands:
                raise SystemExit(f"{name} played {res['hands']} hands, not {hands}")
            runs[name]["wall"].append(res["hands"] / res["seconds"])
            runs[name]["cpu"].append(res["hands"] / res["cpu"])
        print(f"{r + 1:5d}  " + "  ".join(f"{runs[k]['wall'][-1]:11.1f}" for k in sides) + "  "
              + "  ".join(f"{runs[k]['cpu'][-1]:11.1f}" for k in sides), flush=True)
    for clock in ("wall", "cpu"):
        med = {k: statistics.median(v[clock]) for k, v in runs.items()}
        print(f"{clock:4s} clock medians: compiled {med['compiled']:.1f}, python {med['python']:.1f}, "
              f"peer {med['peer']:.1f} hands/s; compiled / peer {med['compiled'] / med['peer']:.1f}x, "
              f"python / peer {med['python'] / med['peer']:.1f}x")
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
    p.add_argument("--variant", default="classic", help="the game to play (default classic)")
    p.add_argument("--engine", choices=("auto", "compiled", "python"), default="auto",
                   help="the compiled copy where it is built (auto), or plain Python")
    p.add_argument("--peer", metavar="COMMAND", help="also time COMMAND HANDS SEED, in turn (see the docstring)")
    args = p.parse_args(argv)

    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{args.hands} hands, seed {args.seed}, checks {'on' if args.check else 'off'}, variant {args.variant}")
    if args.compare:
        # not pinned: each run is one process on one core anyway, and a fixed core may be the busiest
        if args.check:
            p.error("--compare measures with the checks off")
        if args.variant != "classic":
            p.error("--compare times the classic game")
        return compare(args.compare, max(1, args.rounds), args.hands, args.seed)
    if args.peer:
        return peer(args.peer, max(1, args.rounds), args.hands, args.seed)
    fast = native.engine() if args.engine != "python" else None
    if args.engine == "compiled" and fast is None:
        p.error(f"the search's compiled copy is {native.status()}: `make native` builds it")
    play = run_selfplay if fast is None else fast.run_selfplay
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    best = None
    for _ in range(max(1, args.repeat)):
        report = play(args.hands, args.seed, check=args.check, variant=args.variant)
        if best is None or report.seconds < best.seconds:
            best = report
    assert best is not None
    print(f"engine:                 {best.engine}")
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
        run_selfplay(args.hands, args.seed, check=args.check, variant=args.variant)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(15)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
