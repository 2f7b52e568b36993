"""Figures of a mining run: puzzles per CPU-hour, where the CPU went, what passed, themes, ratings.

Reads the per-game log of ``canasta-tutor puzzles mine --log FILE`` (one JSON line per game)
and, optionally, a puzzle file (the mined records).

    .venv/bin/python benchmarks/mining_report.py LOG [--puzzles puzzles/mined.txt] [--json]

- puzzles per CPU-hour: puzzles kept (after near-duplicates across games) over the CPU seconds
  of the worker processes (each game's process time, self-play and searches together);
- the CPU split: searches stopped early, searches run to the full count (kept or not), and the
  rest (self-play, drafting records);
- by phase and candidate count: positions searched, how many reached the full count, how many
  were kept, and the CPU spent;
- the early looks: for kept positions, the smallest lead seen at each checkpoint (how far a
  stricter early stop could go without losing any of them);
- from the puzzle file: the count, the themes with counts, and the rating spread.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any


def _bucket(k: int) -> str:
    return "2-3" if k <= 3 else "4-6" if k <= 6 else "7+"


def report(log: Path, puzzles: Path | None) -> dict[str, Any]:
    games = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    cpu = sum(g["cpu"] for g in games)
    kept = sum(g["kept"] for g in games)
    searches = [s for g in games for s in g["searched"]]
    early = sum(s[5] for s in searches if s[3] < 2000)
    full = sum(s[5] for s in searches if s[3] >= 2000)
    by: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0, 0, 0.0])
    for phase, _verb, k, deals, ok, sec, _trace in searches:
        row = by[f"{phase} {_bucket(k)}"]
        row[0] += 1
        row[1] += deals >= 2000
        row[2] += ok
        row[3] += sec
    low: dict[int, float] = {}
    for s in searches:
        if s[4]:
            for n, gap, _se in s[6]:
                if n < 2000:
                    low[n] = min(low.get(n, 1e9), gap)
    out: dict[str, Any] = {
        "games": len(games), "kept": kept, "cpu_seconds": round(cpu, 1),
        "puzzles_per_cpu_hour": round(kept / (cpu / 3600), 1) if cpu else 0.0,
        "searched": len(searches), "full": sum(1 for s in searches if s[3] >= 2000),
        "cpu_split": {"stopped_early": round(early, 1), "full_count": round(full, 1),
                      "rest": round(cpu - early - full, 1)},
        "by_phase_and_candidates": {k: {"searched": v[0], "full": v[1], "kept": v[2], "cpu": round(v[3], 1)}
                                    for k, v in sorted(by.items())},
        "kept_lowest_lead_at_checkpoint": dict(sorted(low.items())),
    }
    if puzzles is not None:
        from canasta_tutor.tutor.puzzles.library import load_file

        ps = load_file(puzzles)
        themes = collections.Counter(t for p in ps for t in p.themes)
        ratings = sorted(p.rating for p in ps)
        out["file"] = {"puzzles": len(ps), "themes": dict(themes.most_common()),
                       "no_theme": sum(1 for p in ps if not p.themes)}
        if ratings:
            q = [ratings[int(f * (len(ratings) - 1))] for f in (0, 0.25, 0.5, 0.75, 1)]
            out["file"]["rating"] = {"min": q[0], "q1": q[1], "median": q[2], "q3": q[3], "max": q[4],
                                     "rd": sorted({p.rd for p in ps})}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--puzzles", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = report(Path(args.log), Path(args.puzzles) if args.puzzles else None)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['kept']} puzzles from {out['games']} games in {out['cpu_seconds']} CPU seconds: "
          f"{out['puzzles_per_cpu_hour']} puzzles per CPU-hour")
    print(f"{out['searched']} positions searched, {out['full']} to the full count; CPU: {out['cpu_split']}")
    for k, v in out["by_phase_and_candidates"].items():
        print(f"  {k:10} {v}")
    print("kept: lowest lead at each checkpoint", out["kept_lowest_lead_at_checkpoint"])
    if "file" in out:
        print("file:", json.dumps(out["file"]))


if __name__ == "__main__":
    main()
