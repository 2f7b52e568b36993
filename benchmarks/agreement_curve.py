"""How far can the hint's agreement with its oracle go? (a script that prints figures)

    .venv/bin/python benchmarks/agreement_curve.py --positions 8 --json          # a quick look
    nice -n 10 .venv/bin/python benchmarks/agreement_curve.py --workers 2        # 200 positions

``hint_accuracy.py`` asks one question: on the positions where the oracle (the
same race with fifty times the default's playouts) is clear, how often does the
default hint pick the oracle's best?  This script asks how that share moves
with the search's budget, on the same positions and against the same oracle:

- the default's race (``analyse(obs, seed=0)``, the search behind
  ``hint(obs, seed=0)``) and the same race with ``--factors`` times its
  playouts (default 2, 4 and 8), each scored against the oracle on the
  oracle's clear positions, with the search's process CPU time;
- a second oracle: the same search as the first, with as many playouts, on
  another seed.  Its agreement with the first, on the first's clear
  positions, is what a search fifty times the default's reaches on this
  measure.  A share below the target there would mean that no budget up to
  the oracle's own meets it.

The oracle, its seed and its clear test are ``hint_accuracy.py``'s, and so are
the positions (``--seed`` of the self-play, taken in turn from the four
phases).  Each position is one job: every search above, in order, in one
worker process; ``--workers`` runs that many at once.  ``--max-minutes`` stops
handing out positions when the time is up, and the figures cover the
positions that finished, which are always the first ones of the full run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hint_accuracy import (  # noqa: E402
    HINT_SEED,
    LEAD_BANDS,
    ORACLE_SEED,
    PHASES,
    Oracle,
    draw_positions,
    in_order,
    lead_band,
    oracle,
    quantile,
)
from strength import wilson  # noqa: E402

from canasta_tutor.hint import analyse, race_budget  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402

SECOND_ORACLE_SEED = 104729  # another seed than the first oracle's and the hint's


@dataclass
class Row:
    """Every search on one position: the picks and CPU seconds by factor, and the two oracles."""

    phase: str
    picks: dict[int, tuple]
    cpu_s: dict[int, float]
    first: Oracle
    second: Oracle | None


def one_position(task: tuple[str, Any, tuple[int, ...], int, bool]) -> Row:
    """All the searches of one position, in one process."""
    phase, state, factors, oracle_factor, second = task
    obs = observe(state, state.actor)
    picks: dict[int, tuple] = {}
    cpu: dict[int, float] = {}
    budget = race_budget(obs.variant)
    for f in (1, *factors):
        c = time.process_time()
        _, est = analyse(obs, seed=HINT_SEED) if f == 1 else analyse(obs, seed=HINT_SEED, playouts=f * budget)
        cpu[f] = time.process_time() - c
        picks[f] = est[0].action
    first = oracle((obs, oracle_factor * budget))
    other = oracle((obs, oracle_factor * budget), seed=SECOND_ORACLE_SEED) if second else None
    return Row(phase, picks, cpu, first, other)


def share(agree: int, n: int) -> dict[str, Any]:
    s = agree / n if n else None
    lo, hi = wilson(s or 0.0, n)
    return {"agree": agree, "clear": n, "agreement": None if s is None else round(s, 3),
            "agreement_ci95": None if s is None else [round(lo, 3), round(hi, 3)]}


def scored(clear: list[Row], picked: Callable[[Row], tuple | None]) -> dict[str, Any]:
    """How often ``picked`` is the first oracle's best on its ``clear`` positions: in all, and by its lead."""
    def count(rows: list[Row]) -> dict[str, Any]:
        return share(sum(picked(r) == r.first.best for r in rows), len(rows))

    return {**count(clear), "by_lead": {name: count([r for r in clear if lead_band(r.first.lead) == name])
                                        for name, _ in LEAD_BANDS}}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play that gives the positions")
    p.add_argument("--factors", default="2,4,8", help="the larger budgets, as multiples of the default's")
    p.add_argument("--oracle-factor", type=int, default=50, help="the oracles' playouts, times the default's")
    p.add_argument("--no-second-oracle", action="store_true", help="skip the second oracle")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-minutes", type=float, default=None, help="stop handing out positions after this long")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    from tqdm.auto import tqdm

    factors = tuple(sorted({int(x) for x in args.factors.split(",") if x.strip()} - {1}))
    start = time.perf_counter()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    positions = draw_positions(args.positions, args.seed)
    tasks = [(ph, s, factors, args.oracle_factor, not args.no_second_oracle) for ph, s in positions]

    bar = tqdm(total=len(tasks), desc="positions", disable=not sys.stderr.isatty())
    rows = in_order(one_position, tasks, args.workers, deadline, bar.update)
    bar.close()

    clear = [r for r in rows if r.first.clear]
    by_factor = {str(f): {**scored(clear, lambda r, f=f: r.picks[f]),
                          "search_cpu_p50_ms": round(quantile([1000 * r.cpu_s[f] for r in rows], 50), 1),
                          "search_cpu_p95_ms": round(quantile([1000 * r.cpu_s[f] for r in rows], 95), 1)}
                 for f in (1, *factors)}
    result: dict[str, Any] = {
        "positions_asked": args.positions,
        "positions": len(rows),
        "stopped_early": len(rows) < args.positions,
        "phases": {ph: sum(r.phase == ph for r in rows) for ph in PHASES},
        "oracle_factor": args.oracle_factor,
        "oracle_seeds": [ORACLE_SEED] + ([] if args.no_second_oracle else [SECOND_ORACLE_SEED]),
        "clear_positions": len(clear),
        "by_factor": by_factor,
    }
    if not args.no_second_oracle:
        def second_best(r: Row) -> tuple | None:
            return None if r.second is None else r.second.best

        both = [r for r in clear if r.second is not None and r.second.clear]
        result["second_oracle"] = {**scored(clear, second_best), "both_clear": share(
            sum(second_best(r) == r.first.best for r in both), len(both))}
    result["elapsed_s"] = round(time.perf_counter() - start, 1)
    result["workers"] = args.workers
    if args.json:
        print(json.dumps(result))
        return
    print(f"positions {len(rows)} of {args.positions}; clear to the oracle: {len(clear)}")
    for name, v in by_factor.items():
        print(f"  {name:>3}x the default: {v['agree']}/{v['clear']} = {v['agreement']} {v['agreement_ci95']}"
              f"  search CPU p50 {v['search_cpu_p50_ms']} ms, p95 {v['search_cpu_p95_ms']} ms")
    if "second_oracle" in result:
        v = result["second_oracle"]
        print(f"  a second oracle: {v['agree']}/{v['clear']} = {v['agreement']} {v['agreement_ci95']}; "
              f"where both are clear: {v['both_clear']['agree']}/{v['both_clear']['clear']}")
    print(f"elapsed {result['elapsed_s']} s")


if __name__ == "__main__":
    main()
