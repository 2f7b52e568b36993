"""Bot strength in duplicate matches (a script that prints figures, not a test).

    .venv/bin/python benchmarks/strength.py                       # both matches, 500 deals each
    .venv/bin/python benchmarks/strength.py --deals 100 --workers 2 --only expert

Each deal is one hand from a seeded shuffle, played twice with the
partnerships swapped; a bot wins the deal when its side's two scores add up to
more than the other's.  The expert uses a fixed number of samples per
decision (no time limit), so the results do not depend on the machine's speed
or load and repeat exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots import make_state_policy  # noqa: E402
from canasta_tutor.bots.match import run_match  # noqa: E402


def match(a: str, b: str, deals: int, seed: int, workers: int, iterations: int) -> dict:
    pa = make_state_policy(a, seed=seed, iterations=iterations)
    pb = make_state_policy(b, seed=seed + 1, iterations=iterations)
    report = run_match(pa, pb, deals, seed, progress=sys.stderr.isatty(), workers=workers)
    return {"bot_a": a, "bot_b": b, "workers": workers, "iterations": iterations, **report.to_dict()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=500)
    p.add_argument("--seed", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--iterations", type=int, default=24, help="expert samples per decision")
    p.add_argument("--only", choices=["expert", "rules-of-thumb"], default=None)
    args = p.parse_args()
    results = []
    if args.only in (None, "rules-of-thumb"):
        results.append(match("rules-of-thumb", "random", args.deals, args.seed, args.workers, args.iterations))
        print(json.dumps(results[-1]), flush=True)
    if args.only in (None, "expert"):
        results.append(match("expert", "rules-of-thumb", args.deals, args.seed, args.workers, args.iterations))
        print(json.dumps(results[-1]), flush=True)


if __name__ == "__main__":
    main()
