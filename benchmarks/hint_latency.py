"""Hint latency at the default sample count, on one core (a script that prints figures).

    .venv/bin/python benchmarks/hint_latency.py            # 240 positions
    .venv/bin/python benchmarks/hint_latency.py --positions 300 --json
    .venv/bin/python benchmarks/hint_latency.py --samples 48   # another sample count
    .venv/bin/python benchmarks/hint_latency.py --variant six-handed --positions 40
    .venv/bin/python benchmarks/hint_latency.py --no-plan-check   # without the plan's checks
    .venv/bin/python benchmarks/hint_latency.py --set first-turn --positions 60 --seed 7

Two named position sets (``--set``): ``mix`` (the default) and ``first-turn``.

Wall-clock figures depend on how busy the machine is; the CPU-time figures
(``cpu_*``, this process only) much less so, since the hint does a fixed amount
of work for a position and seed.

``mix``: positions from seeded rules-of-thumb self-play (benchmarks/positions.py),
across all phases of a turn.  ``first-turn``: the position learners meet most, the
first turn of a hand after the draw, in the meld phase (12 cards in classic), one
per dealt game from ``--seed`` on (``first_turn_positions``).  Each hint is computed from the seat's
observation, exactly as the widget and the command line do.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import POSITION_SETS  # noqa: E402

from canasta_tutor.hint import compiled_search, hint  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402
from canasta_tutor.engine.variants import get_variant  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=240)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", type=int, default=None, help="sampled deals per move (default: the hint's)")
    p.add_argument("--variant", default="classic", help="the variant played (default classic)")
    p.add_argument("--no-plan-check", action="store_true",
                   help="time the hint without grading its plan's later steps (the hint before those checks)")
    p.add_argument("--set", choices=sorted(POSITION_SETS), default="mix", dest="position_set",
                   help="the named position set (default mix)")
    p.add_argument("--hint-seed", type=int, default=0, help="the hint's seed (default 0)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.no_plan_check:
        import canasta_tutor.hint as hint_module

        hint_module._checked_plan = lambda obs, state, plan, seed, samples: plan  # type: ignore[assignment]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    states = POSITION_SETS[args.position_set](args.positions, seed=args.seed, variant=args.variant)
    times = []
    cpu = []
    phases: Counter[str] = Counter()
    from tqdm.auto import tqdm

    for s in tqdm(states, desc="hints", disable=not sys.stderr.isatty()):
        obs = observe(s, s.actor)
        t, c = time.perf_counter(), time.process_time()
        hint(obs, samples=args.samples, seed=args.hint_seed)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        phases[s.phase] += 1
    times.sort()
    cpu.sort()
    q = statistics.quantiles(times, n=100)
    qc = statistics.quantiles(cpu, n=100)
    result = {
        "variant": args.variant,
        "set": args.position_set,
        "seed": args.seed,
        "hint_seed": args.hint_seed,
        "positions": len(times),
        "phases": dict(phases),
        "p50_ms": round(q[49], 1),
        "p95_ms": round(q[94], 1),
        "max_ms": round(times[-1], 1),
        "mean_ms": round(statistics.fmean(times), 1),
        "cpu_p50_ms": round(qc[49], 1),
        "cpu_p95_ms": round(qc[94], 1),
        "cores": 1,
        "search": "compiled" if compiled_search(get_variant(args.variant)) else "pure",
        "plan_check": not args.no_plan_check,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:10} {v}")


if __name__ == "__main__":
    main()
