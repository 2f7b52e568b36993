"""The hint's words and plans checked on the real deal, over positions of seeded self-play (issue 31).

    .venv/bin/python benchmarks/hint_sweep.py                      # 500 positions, seed 0
    .venv/bin/python benchmarks/hint_sweep.py --positions 100 --seed 7 --json

For each position (benchmarks/positions.py: rules-of-thumb games, every phase of a turn) the
default hint is made from the seat's observation with seed 0, and
:func:`canasta_tutor.hint.audit.audit` checks it against the real state, hidden cards and all:

- every claim its text makes of a move a player could make (take the pack, add to a meld, go
  out) is asked of the engine on the real deal: legal or not; a sentence with such words and no
  claim behind it is counted as unbacked;
- every later step of its plan is graded by :func:`canasta_tutor.hint.grade` from the learner's
  observation before it (seed 0): how many are a mistake or a blunder.

Prints the counts (and every failure).  A figure, not a test: ``tests/test_hint_sweep.py`` runs
the same audit on a few positions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import sample_positions  # noqa: E402
from tqdm.auto import tqdm  # noqa: E402

from canasta_tutor.hint import compiled_search  # noqa: E402
from canasta_tutor.hint.audit import audit  # noqa: E402
from canasta_tutor.engine.variants import get_variant  # noqa: E402


def sweep(positions: int, seed: int, progress: bool = True) -> dict:
    states = sample_positions(positions, seed=seed)
    totals = {"positions": len(states), "claims": 0, "illegal_claims": 0, "unbacked_sentences": 0,
              "plans_with_steps": 0, "plan_steps_graded": 0, "bad_plan_steps": 0, "failures": []}
    start = time.perf_counter()
    for i, state in enumerate(tqdm(states, disable=not progress, desc="hints")):
        a = audit(state, seed=0)
        totals["claims"] += a.claims
        totals["illegal_claims"] += len(a.illegal)
        totals["unbacked_sentences"] += len(a.unbacked)
        totals["plan_steps_graded"] += a.steps
        totals["plans_with_steps"] += a.steps > 0
        totals["bad_plan_steps"] += len(a.bad_steps)
        totals["failures"] += [f"position {i}: {x}" for x in a.illegal + a.unbacked + a.bad_steps]
    totals["seconds"] = round(time.perf_counter() - start, 1)
    totals["compiled"] = compiled_search(get_variant("classic"))
    return totals


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=500)
    p.add_argument("--seed", type=int, default=0, help="seed of the self-play games (default 0)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    t = sweep(args.positions, args.seed, progress=not args.json)
    if args.json:
        print(json.dumps(t, indent=1))
        return
    print(f"{t['positions']} positions (self-play seed {args.seed}, hint seed 0, compiled search: {t['compiled']}), "
          f"{t['seconds']} s")
    print(f"claims of a legal move in the hints' text: {t['claims']}, illegal on the real deal: "
          f"{t['illegal_claims']}; sentences with such words and no claim: {t['unbacked_sentences']}")
    print(f"plan steps graded (later steps with a choice, in {t['plans_with_steps']} plans): "
          f"{t['plan_steps_graded']}, graded a mistake or worse: {t['bad_plan_steps']}")
    for f in t["failures"]:
        print("  " + f)


if __name__ == "__main__":
    main()
