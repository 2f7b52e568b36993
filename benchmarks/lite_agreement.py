"""How often does a smaller hint budget (the browser's) pick the oracle's move? (a script that prints figures)

    .venv/bin/python benchmarks/lite_agreement.py --positions 4 --json                 # a quick look
    nice -n 10 .venv/bin/python benchmarks/lite_agreement.py --positions 60 --budgets 1600,800,400,200
    nice -n 10 .venv/bin/python benchmarks/lite_agreement.py --skip 60 --positions 80 --budgets 1600,800

The browser build (docs/lite.md) runs the pure-Python search in Pyodide, several times slower than the
compiled search on a desktop, so it declares a smaller race (``canasta_tutor.hint.race_budget`` there).
The race is the same search on any machine: for a position, a seed and a budget it picks the same move in
Pyodide and here, so its agreement is measured here, where it is cheaper, and its time in the browser
(``benchmarks/lite_hint_latency.py``).

The positions, the oracle (the same race with ``--oracle-factor`` times the desktop default's playouts, on
its own seed) and the oracle's clear test are ``hint_accuracy.py``'s, so the figures of the desktop budget
(1600 playouts in classic) here are that script's on the same first positions.  Each budget in
``--budgets`` is scored against the oracle on the oracle's clear positions, with a Wilson 95% interval and
the search's process CPU time.  ``--save FILE`` keeps one JSON line per position (its picks and the oracle's
verdict).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hint_accuracy import HINT_SEED, LEAD_BANDS, Oracle, draw_positions, in_order, lead_band, oracle  # noqa: E402
from hint_accuracy import quantile  # noqa: E402
from strength import wilson  # noqa: E402

from canasta_tutor.notation.actions import format_action  # noqa: E402
from canasta_tutor.hint import analyse, compiled_search  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402
from canasta_tutor.engine.state import State  # noqa: E402
from canasta_tutor.engine.variants import get_variant  # noqa: E402

DESKTOP_BUDGET = get_variant("classic").hint_playouts or 1600


def one_position(task: tuple[str, State, tuple[int, ...], int]) -> dict[str, Any]:
    """The races at every budget and the oracle, on one position, in one process."""
    phase, state, budgets, oracle_playouts = task
    obs = observe(state, state.actor)
    picks: dict[int, tuple] = {}
    cpu: dict[int, float] = {}
    for b in budgets:
        c = time.process_time()
        _, est = analyse(obs, seed=HINT_SEED, playouts=b)
        cpu[b] = time.process_time() - c
        picks[b] = est[0].action
    o: Oracle = oracle((obs, oracle_playouts))
    return {"phase": phase, "picks": picks, "cpu_s": cpu, "oracle": o}


def share(agree: int, n: int) -> dict[str, Any]:
    s = agree / n if n else 0.0
    lo, hi = wilson(s, n)
    return {"agree": agree, "clear": n, "agreement": round(s, 3) if n else None,
            "agreement_ci95": [round(lo, 3), round(hi, 3)] if n else None}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play that gives the positions")
    p.add_argument("--skip", type=int, default=0, help="leave out the first SKIP positions (a later batch)")
    p.add_argument("--budgets", default="1600,800,400,200", help="the races' playouts, comma separated")
    p.add_argument("--oracle-factor", type=int, default=50, help="the oracle's playouts, times 1600")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-minutes", type=float, default=None, help="stop handing out positions after this long")
    p.add_argument("--save", type=Path, default=None, help="one JSON line per position")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    budgets = tuple(sorted({int(x) for x in args.budgets.split(",") if x.strip()}, reverse=True))
    start = time.perf_counter()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    positions = draw_positions(args.skip + args.positions, args.seed)[args.skip:]
    tasks = [(ph, s, budgets, args.oracle_factor * DESKTOP_BUDGET) for ph, s in positions]
    rows = in_order(one_position, tasks, args.workers, deadline, lambda: None)
    clear = [r for r in rows if r["oracle"].clear]

    def scored(b: int) -> dict[str, Any]:
        def count(rs: list[dict[str, Any]]) -> dict[str, Any]:
            return share(sum(r["picks"][b] == r["oracle"].best for r in rs), len(rs))
        return {**count(clear),
                "by_lead": {name: count([r for r in clear if lead_band(r["oracle"].lead) == name])
                            for name, _ in LEAD_BANDS},
                "search_cpu_p50_ms": round(quantile([1000 * r["cpu_s"][b] for r in rows], 50), 1),
                "search_cpu_p95_ms": round(quantile([1000 * r["cpu_s"][b] for r in rows], 95), 1)}

    result = {"positions_asked": args.positions, "skipped": args.skip, "positions": len(rows),
              "stopped_early": len(rows) < args.positions,
              "seed": args.seed, "oracle_playouts": args.oracle_factor * DESKTOP_BUDGET,
              "compiled_search": compiled_search(get_variant("classic")), "clear_positions": len(clear),
              "by_budget": {str(b): scored(b) for b in budgets}, "elapsed_s": round(time.perf_counter() - start, 1)}
    if args.save:
        with args.save.open("w", encoding="utf-8") as f:
            for r in rows:
                o = r["oracle"]
                picks = {str(b): format_action(a) for b, a in r["picks"].items()}
                f.write(json.dumps({"phase": r["phase"], "picks": picks, "oracle_best": format_action(o.best),
                                    "lead": round(o.lead, 2), "half_width": round(o.lead_half_width, 2),
                                    "clear": o.clear}) + "\n")
    if args.json:
        print(json.dumps(result))
        return
    print(f"positions {len(rows)} of {args.positions}; clear to the oracle ({result['oracle_playouts']} playouts): "
          f"{len(clear)}")
    for b, v in result["by_budget"].items():
        print(f"  race of {b:>5} playouts: {v['agree']}/{v['clear']} = {v['agreement']} {v['agreement_ci95']}  "
              f"search CPU p50 {v['search_cpu_p50_ms']} ms, p95 {v['search_cpu_p95_ms']} ms")
    print(f"elapsed {result['elapsed_s']} s")


if __name__ == "__main__":
    main()
