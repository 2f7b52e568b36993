"""Verify the whole puzzle library, with a progress bar; print the time and the CPU cost
per puzzle.  Exit 1 when any puzzle's recomputed verification block differs.

    .venv/bin/python benchmarks/verify_puzzles.py                # every puzzle, all cores
    .venv/bin/python benchmarks/verify_puzzles.py --workers 1    # one process
    .venv/bin/python benchmarks/verify_puzzles.py --sample 20 --seed 2026
    .venv/bin/python benchmarks/verify_puzzles.py --folder DIR       # another puzzle folder

Each puzzle is recomputed with the hint's deterministic search at its own sample count
and seed (see ``canasta_tutor/tutor/puzzles/library.py``); forced puzzles need no search.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from tqdm.auto import tqdm

from canasta_tutor.tutor.puzzles.library import Puzzle, load_library, sample, verify


def _load(folder: str | None) -> None:
    """Each worker reads the library itself (a few milliseconds), whatever the start method."""
    _PUZZLES[:] = load_library(folder)


def _one(index: int) -> tuple[str, list[str], float, bool]:
    p = _PUZZLES[index]
    start = time.process_time()
    found = verify(p)
    return p.id, found, time.process_time() - start, p.verification.forced


_PUZZLES: list[Puzzle] = []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample", type=int, default=None, help="a seeded sample of N puzzles")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--folder", default=None, help="a puzzle folder (default: the library)")
    args = ap.parse_args()
    _load(args.folder)
    chosen = sample(_PUZZLES, args.sample, args.seed) if args.sample else _PUZZLES
    indices = [_PUZZLES.index(p) for p in chosen]
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max_workers=max(1, args.workers), initializer=_load, initargs=(args.folder,)) as pool:
        for r in tqdm(pool.map(_one, indices), total=len(indices), desc="verify", unit="puzzle"):
            results.append(r)
    wall = time.perf_counter() - start
    failures = [(pid, found) for pid, found, _, _ in results if found]
    searched = [cpu for _, _, cpu, forced in results if not forced]
    forced = [cpu for _, _, cpu, f in results if f]
    for pid, found in failures:
        print(f"{pid}: {'; '.join(found)}")
    print(f"{len(results) - len(failures)} of {len(results)} puzzles verified in {wall:.1f} s wall "
          f"with {args.workers} workers, {sum(searched) + sum(forced):.1f} s CPU")
    if searched:
        print(f"searched puzzles: {len(searched)}, CPU per puzzle mean {sum(searched) / len(searched):.1f} s, "
              f"max {max(searched):.1f} s")
    print(f"forced puzzles: {len(forced)}, no search")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
