"""Does the hint agree with the puzzles' verified answers?  (issue 31; a script that prints figures.)

    .venv/bin/python benchmarks/puzzle_hint_agreement.py                 # the whole library
    .venv/bin/python benchmarks/puzzle_hint_agreement.py --workers 2 --json

For every puzzle of the library, the default hint (:func:`canasta_tutor.hint.hint`, seed 0, the
default budget) is made from the solver's observation, and the trainer's hint
(:func:`canasta_tutor.tutor.puzzles.trainer.puzzle_hint`): the default hint where its move is one of the
puzzle's verified answers (the solution's first move or an accepted one), else the verified answer
explained by its facts and the verification's figures.  Prints how many agree, and the puzzles
where the default budget finds another move.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tqdm.auto import tqdm  # noqa: E402

from canasta_tutor.notation.actions import parse_action  # noqa: E402
from canasta_tutor.tutor.puzzles.library import load_library  # noqa: E402
from canasta_tutor.tutor.puzzles.trainer import puzzle_hint  # noqa: E402


@cache
def _library() -> dict:
    return {p.id: p for p in load_library()}


def one(pid: str) -> tuple[str, str, str, bool]:
    """(puzzle id, the trainer's hint's move, its source, whether that move is a verified answer)."""
    p = _library()[pid]
    h = puzzle_hint(p, seed=0)
    return pid, h.move, h.source, parse_action(h.move) in p.answers()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    puzzles = load_library()
    start = time.perf_counter()
    ids = [p.id for p in puzzles]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(tqdm(pool.map(one, ids, chunksize=4), total=len(ids), disable=args.json))
    else:
        rows = [one(i) for i in tqdm(ids, disable=args.json)]
    default = [r for r in rows if r[2] == "search"]
    other = [r for r in rows if r[2] != "search"]
    out = {"puzzles": len(rows), "default_hint_agrees": len(default), "trainer_hint_agrees": sum(r[3] for r in rows),
           "verification_used": [r[0] for r in other], "seconds": round(time.perf_counter() - start, 1)}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['puzzles']} puzzles: the default hint's move is a verified answer in {out['default_hint_agrees']}; "
          f"the trainer's hint agrees in {out['trainer_hint_agrees']} ({out['seconds']} s)")
    for pid in out["verification_used"]:
        print(f"  {pid}: the default budget finds another move; the trainer's hint uses the verification")


if __name__ == "__main__":
    main()
