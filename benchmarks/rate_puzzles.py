"""Give puzzles their starting ratings from weaker solvers' attempts (see
``canasta_tutor/tutor/starting_rating.py``): rewrites only the ``rating:`` lines of the
puzzles never rated (deviation 350) in the files given, and prints the ratings.

    .venv/bin/python benchmarks/rate_puzzles.py puzzles/composed.txt [--seeds 4] [--all]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from canasta_tutor.tutor.puzzles import parse_puzzles
from canasta_tutor.tutor.starting_rating import rerate_text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--seeds", type=int, default=4, help="attempts per solver that is not deterministic")
    ap.add_argument("--all", action="store_true", help="re-rate every puzzle, not only the unrated ones")
    args = ap.parse_args()
    for name in args.files:
        path = Path(name)
        text, changed = rerate_text(path.read_text(encoding="utf-8"), path.name, args.seeds, not args.all)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)  # whole file or nothing
        ratings = sorted(p.rating for p in parse_puzzles(text, path.name))
        print(f"{path.name}: {changed} puzzles rated; ratings {ratings[0]:.0f} to {ratings[-1]:.0f}, "
              f"median {ratings[len(ratings) // 2]:.0f}")


if __name__ == "__main__":
    main()
