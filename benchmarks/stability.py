"""Stability of the hint's best action across search seeds (a script that prints figures).

    .venv/bin/python benchmarks/stability.py                 # 300 positions x 5 reruns

For each position (from seeded self-play, benchmarks/positions.py) the hint is
computed with seed 0.  A position counts as clear when the best action's value
leads the runner-up's by more than the uncertainty of that lead: the half-width
of its 95% interval, 1.96 standard errors of the paired difference (both
actions are played out on the same samples of the hidden cards).  On clear
positions the hint is recomputed with other seeds and we count how often the
best action is the same.  A second figure uses the "±" shown with the best
action's own value instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import sample_positions  # noqa: E402

from canasta_tutor.hint import hint  # noqa: E402
from canasta_tutor.engine.observer import observe  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--reruns", type=int, default=5)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    states = sample_positions(args.positions, seed=args.seed)
    clear = paired = 0
    same = runs = same_p = runs_p = 0
    for s in states:
        obs = observe(s, s.actor)
        ref = hint(obs, seed=0, max_seconds=None)
        if len(ref.estimates) < 2:
            continue
        best, second = ref.estimates[0], ref.estimates[1]
        lead = best.mean - second.mean
        is_clear = lead > 1.96 * second.diff_stderr
        is_paired = lead > ref.uncertainty
        if not (is_clear or is_paired):
            continue
        clear += is_clear
        paired += is_paired
        for r in range(1, args.reruns + 1):
            h = hint(obs, seed=1000 + r, max_seconds=None)
            agree = h.best == ref.best
            if is_clear:
                runs += 1
                same += agree
            if is_paired:
                runs_p += 1
                same_p += agree
    result = {"positions": len(states), "clear_positions": clear, "reruns": runs, "same_best": same,
              "share_same": round(same / runs, 3) if runs else None,
              "own_value_clear_positions": paired, "own_value_reruns": runs_p,
              "own_value_share_same": round(same_p / runs_p, 3) if runs_p else None}
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:16} {v}")


if __name__ == "__main__":
    main()
