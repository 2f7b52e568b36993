"""Give puzzles their starting ratings from weaker solvers' attempts (see
``canasta_tutor/tutor/puzzles/starting_rating.py``): rewrites only the ``rating:`` lines of the
puzzles never rated (deviation 350) in the files given, and prints the ratings.  With
``--themes``, also sets each mined puzzle's themes to what the detectors find now.  Each file
is replaced whole (written aside, then renamed) only if nothing changed it meanwhile (a miner
appending records, say): then nothing is written and the script exits with status 1; run it
again once the miner has stopped.

    .venv/bin/python benchmarks/rate_puzzles.py puzzles/composed.txt [--seeds 4] [--all]
    .venv/bin/python benchmarks/rate_puzzles.py puzzles/mined.txt --themes
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from canasta_tutor.tutor.puzzles.mining import refresh_themes
from canasta_tutor.tutor.puzzles.library import parse_puzzles
from canasta_tutor.tutor.puzzles.library import rerate_text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--seeds", type=int, default=4, help="attempts per solver that is not deterministic")
    ap.add_argument("--all", action="store_true", help="re-rate every puzzle, not only the unrated ones")
    ap.add_argument("--themes", action="store_true", help="re-detect the themes of mined puzzles")
    args = ap.parse_args()
    for name in args.files:
        path = Path(name)
        before = path.read_text(encoding="utf-8")
        text, changed = rerate_text(before, path.name, args.seeds, not args.all)
        themed = 0
        if args.themes:
            text, themed = refresh_themes(text, path.name)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, path.stat().st_mode & 0o777)
        if path.read_text(encoding="utf-8") != before:  # appended to meanwhile: keep what was added
            os.unlink(tmp)
            raise SystemExit(f"{path.name} changed while it was being rewritten (a miner appending?): "
                             "nothing written; run again when nothing writes to it")
        os.replace(tmp, path)  # whole file or nothing
        ratings = sorted(p.rating for p in parse_puzzles(text, path.name))
        print(f"{path.name}: {changed} puzzles rated, {themed} with new themes; ratings {ratings[0]:.0f} "
              f"to {ratings[-1]:.0f}, median {ratings[len(ratings) // 2]:.0f}")


if __name__ == "__main__":
    main()
