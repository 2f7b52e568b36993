"""Playout speed: the search's inner loop, timed alone (a script that prints figures).

    .venv/bin/python benchmarks/playout_speed.py                  # 40 positions x 20 samples
    .venv/bin/python benchmarks/playout_speed.py --positions 20 --samples 10 --repeat 3 --json

Decision points come from seeded rules-of-thumb self-play (benchmarks/positions.py).  For
each, the hidden cards are sampled as the search samples them and the hand is played out
to its end with the rules-of-thumb policy, each decision read from the acting seat's
observation, exactly as the expert and the hint play out their candidates.  Prints
playouts per second and microseconds per playout action, by wall clock and by the
process's CPU time (which a busy machine disturbs less); with ``--repeat`` the best run.
The script pins itself to one core.  The work is the same for the same arguments, so runs
of two checkouts on the same machine compare.

``--compiled`` runs the search's compiled copy (``canasta_tutor/bots/native.py``, built by ``make``)
instead of the pure modules: each state crosses into the copy whole, so the two do the same work (the
same ``margin_sum``) and their times compare.  ``--from-observation`` starts both, as the hint does,
from the state made from the seat's observation.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import sample_positions  # noqa: E402

from canasta_tutor.bots import native  # noqa: E402
from canasta_tutor.bots import expert  # noqa: E402
from canasta_tutor.bots.sampling import state_from_observation  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402
from canasta_tutor.engine.state import State  # noqa: E402


def run(states: list[State], samples: int, seed: int, engine: Any = expert,
        from_observation: bool = False, cross: Any = None) -> dict[str, float]:
    """Play ``samples`` sampled deals of every state out with ``engine`` (the expert module, pure or
    compiled; ``cross`` makes a pure state the compiled copy's own); the count and the times."""
    dets = []
    rng = random.Random(seed)
    for s in states:
        seat = s.actor
        assert seat is not None
        if from_observation:
            s = state_from_observation(observe(s, seat))
        if cross is not None:
            s = cross(s)
        for _ in range(samples):
            det = engine.sample_hidden(s, seat, rng)
            if det is not None:
                dets.append((det, seat))
    actions = 0
    total = 0.0
    t, c = time.perf_counter(), time.process_time()
    for det, seat in dets:
        before = len(det.history)
        total += engine.playout(det, seat)
        actions += len(det.history) - before
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return {"playouts": len(dets), "actions": actions, "margin_sum": total, "wall_s": wall, "cpu_s": cpu}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--samples", type=int, default=20, help="sampled deals per position")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=1, help="runs; the best is reported")
    p.add_argument("--json", action="store_true")
    p.add_argument("--compiled", action="store_true", help="the search's compiled copy")
    p.add_argument("--from-observation", action="store_true", help="start from the seat's observation")
    args = p.parse_args()
    engine: Any = expert
    cross = None
    if args.compiled:
        compiled = native.engine()
        if compiled is None:
            raise SystemExit(f"the search's compiled copy is {native.status()}: `make native` builds it")
        engine, cross = compiled.module("bots.expert"), compiled.state
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    states = sample_positions(args.positions, seed=args.seed)
    runs = [run([s.copy() for s in states], args.samples, args.seed, engine, args.from_observation, cross)
            for _ in range(args.repeat)]
    wall = min(r["wall_s"] for r in runs)
    cpu = min(r["cpu_s"] for r in runs)
    r = runs[0]
    result = {
        "playouts": r["playouts"],
        "actions": r["actions"],
        "margin_sum": r["margin_sum"],  # the same for the same arguments: the work done is pinned
        "playouts_per_s": round(r["playouts"] / wall, 1),
        "us_per_action": round(wall / r["actions"] * 1e6, 2),
        "cpu_playouts_per_s": round(r["playouts"] / cpu, 1),
        "cpu_us_per_action": round(cpu / r["actions"] * 1e6, 2),
        "runs": args.repeat,
        "search": "compiled" if args.compiled else "pure",
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:19} {v}")


if __name__ == "__main__":
    main()
