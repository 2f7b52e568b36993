"""Game review time on one core: recorded hands reviewed for seat S (a script that prints figures).

    .venv/bin/python benchmarks/review_time.py              # 10 recorded hands
    .venv/bin/python benchmarks/review_time.py --hands 3 --json
    .venv/bin/python benchmarks/review_time.py --write-record 7 > hand.txt   # one recorded hand

Each hand is dealt from its seed (1, 2, ...; North deals) and played to its end by the rules-of-thumb bot
in every seat, except that South plays a random legal action a quarter of the time (so that the review has
mistakes to find).  Then ``review_record`` grades South's decisions with the hint's default search (seed 0)
and explains the three costliest, as ``canasta-tutor review RECORD --seat S`` does.

Figures are CPU seconds of this process (``time.process_time``), which a busy machine changes far less than
the wall clock; the wall clock is printed too.  The review does a fixed amount of work for a record and seed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots import RulesOfThumbBot  # noqa: E402
from canasta_tutor.engine.game import Game  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402
from canasta_tutor.notation.record import format_record, parse_record  # noqa: E402
from canasta_tutor.tutor.review import review_record  # noqa: E402

#: how often South plays a random legal action instead of the rules of thumb's
SLIP = 0.25


def recorded_hand(seed: int) -> str:
    """One hand as a game record: the rules of thumb everywhere, South slipping a quarter of the time."""
    state = Game().new_initial_state(seed=seed, dealer="N")
    bot = RulesOfThumbBot()
    rng = random.Random(seed)
    while state.current_seat is not None and not state.hand_results:
        seat = state.current_seat
        legal = state.legal_actions()
        action = rng.choice(legal) if seat == "S" and rng.random() < SLIP else bot(observe(state, seat))
        state.apply(action)
    return format_record(state)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=10)
    p.add_argument("--first", type=int, default=1, help="the first hand's seed (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the review's seed (default 0)")
    p.add_argument("--write-record", type=int, default=None, metavar="SEED",
                   help="print the record of the hand dealt from SEED and stop")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.write_record is not None:
        sys.stdout.write(recorded_hand(args.write_record))
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rows = []
    for seed in range(args.first, args.first + args.hands):
        record = parse_record(recorded_hand(seed))
        wall = time.perf_counter()
        review = review_record(record, "S", seed=args.seed)
        rows.append({"hand_seed": seed, "decisions": len(review.decisions), "cpu_s": round(review.cpu_seconds, 2),
                     "wall_s": round(time.perf_counter() - wall, 2), "mistakes": len(review.mistakes),
                     "accuracy": review.accuracy})
        if not args.json:
            r = rows[-1]
            print(f"hand {seed}: {r['decisions']} decisions, {r['mistakes']} mistakes or worse, "
                  f"CPU {r['cpu_s']:.1f} s (wall {r['wall_s']:.1f} s)", flush=True)
    cpu = [r["cpu_s"] for r in rows]
    per = [r["cpu_s"] / r["decisions"] for r in rows if r["decisions"]]
    summary = {"hands": len(rows), "cpu_median_s": round(statistics.median(cpu), 2), "cpu_max_s": max(cpu),
               "cpu_per_decision_median_s": round(statistics.median(per), 3),
               "decisions_median": statistics.median(r["decisions"] for r in rows),
               "load_average": [round(x, 2) for x in os.getloadavg()], "rows": rows}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{summary['hands']} hands: CPU median {summary['cpu_median_s']} s, max {summary['cpu_max_s']} s; "
              f"{summary['cpu_per_decision_median_s']} s per decision (median); "
              f"{summary['decisions_median']} decisions per hand (median); load average {summary['load_average']}")


if __name__ == "__main__":
    main()
