"""The ``puzzles`` subcommand of ``canasta-tutor``.

- ``puzzles list [--json] [--csv] [--sample N --seed S] [--id ID ...] [--folder DIR]``: every puzzle
  with its ID, rating, source, themes and solution; ``--csv`` prints lichess's columns and ours;
- ``puzzles verify [--sample N --seed S] [--id ID ...] [--folder DIR] [--workers W | --scheduler ADDRESS]``:
  recompute every verification block from its seed at its sample count; exit 1 on any difference or a
  failed only-move rule; ``--id`` checks only the puzzles named; with more than one worker, or a
  scheduler, one puzzle per task on a Dask cluster, as mining does;
- ``puzzles mine --games N [--workers W | --scheduler ADDRESS] [--out FILE]``: puzzles from seeded
  expert self-play (see :mod:`canasta_tutor.tutor.puzzles.mining`), one game per task on a Dask cluster: a
  local one of W worker processes, or the existing one at ADDRESS (:mod:`canasta_tutor.tutor.puzzles.mining_cluster`),
  with the puzzles found per CPU-hour; ``--focus THEMES`` searches only the decisions where a candidate
  move has one of the themes;
- ``puzzles add FILE... [--into FILE]``: append the puzzles of mining runs' files to the library,
  leaving out near-duplicates of its positions and IDs it has.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..tutor.atomicfile import append_atomic
from .output import Parser, emit
from .args import COUNT, SEED, UsageError, ranged, workers

SEED_MAX = 2**63 - 1


def scheduler_address(text: str) -> str:
    """An argparse type: a Dask scheduler's address, ``tcp://host:8786`` (or ``tls://``, ``inproc://``...)
    or ``host:port``; bounded, one word of printable ASCII."""
    t = text.strip()
    if len(t) > 200:
        raise argparse.ArgumentTypeError(f"{t[:40]!r}… is too long for a scheduler address")
    if not t or not t.isascii() or not t.isprintable() or any(c.isspace() for c in t) or ":" not in t:
        raise argparse.ArgumentTypeError(f"{t[:40]!r}: give the scheduler's address, say tcp://host:8786")
    return t


def theme_names(text: str) -> list[str]:
    """An argparse type: comma-separated puzzle theme names, each one the detectors know."""
    from ..tutor.puzzles.themes import THEMES

    names = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in names if t not in THEMES]
    if not names or unknown:
        shown = repr(unknown[0][:40]) if unknown else repr(text[:40])
        raise argparse.ArgumentTypeError(f"{shown} is not a puzzle theme; the themes are {', '.join(sorted(THEMES))}")
    return names


def _puzzles(args: argparse.Namespace) -> list[Any]:
    from ..tutor.puzzles.library import load_library, sample

    puzzles = load_library(args.folder)
    if args.id:
        known = {p.id for p in puzzles}
        missing = [i for i in args.id if i not in known]
        if missing:
            raise UsageError(f"no puzzle {missing[0][:40]!r} in the library")
        puzzles = [p for p in puzzles if p.id in args.id]
    if args.sample is not None:
        puzzles = sample(puzzles, args.sample, args.seed)
    return puzzles


def cmd_puzzles_list(args: argparse.Namespace) -> int:
    from ..tutor.puzzles.library import to_csv

    puzzles = _puzzles(args)
    if args.csv:
        sys.stdout.write(to_csv(puzzles))
        return 0
    lines = [f"{p.id}  {p.rating:.0f}±{p.rd:.0f}  {p.source.split()[0]}  {' '.join(p.themes)}  "
             f"solution: {', '.join(p.solution)}" for p in puzzles]
    emit(args, {"puzzles": [p.to_dict() for p in puzzles]}, "\n".join(lines) + f"\n{len(puzzles)} puzzles")
    return 0


def cmd_puzzles_verify(args: argparse.Namespace) -> int:
    import os

    from ..tutor.puzzles.library import verify

    puzzles = _puzzles(args)
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    failures: dict[str, list[str]] = {}
    start = time.perf_counter()
    cpu = 0.0
    workers = min(args.workers or os.cpu_count() or 1, max(1, len(puzzles)))
    if args.scheduler is not None or workers > 1:
        from ..tutor.puzzles.mining_cluster import verify_results

        results: Any = verify_results(puzzles, 0 if args.scheduler else workers, args.scheduler)
    else:
        def one_by_one() -> Any:
            for p in puzzles:
                t0 = time.process_time()
                found = verify(p)
                yield p.id, found, time.process_time() - t0

        results = one_by_one()
    if progress:
        from tqdm.auto import tqdm

        results = tqdm(results, total=len(puzzles), desc="verify", unit="puzzle", file=sys.stderr)
    for pid, found, seconds_cpu in results:
        cpu += seconds_cpu
        if found:
            failures[pid] = found
    seconds = time.perf_counter() - start
    text = "\n".join(f"{pid}: {'; '.join(v)}" for pid, v in failures.items())
    text += ("\n" if text else "") + (f"{len(puzzles) - len(failures)} of {len(puzzles)} puzzles verified "
                                     f"in {seconds:.1f} s wall, {cpu:.1f} s CPU")
    from ..bots import native

    emit(args, {"verified": len(puzzles) - len(failures), "puzzles": len(puzzles), "failures": failures,
                 "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "engine": native.engine_name(),
                 "workers": 0 if args.scheduler else workers, "scheduler": args.scheduler or "local"}, text)
    return 1 if failures else 0


def cmd_puzzles_mine(args: argparse.Namespace) -> int:
    import os

    from ..tutor.puzzles.mining_cluster import run
    from ..tutor.puzzles.library import MIN_SAMPLES

    if args.samples < MIN_SAMPLES:
        raise UsageError(f"--samples must be at least {MIN_SAMPLES}, not {args.samples}")
    if args.seed + args.games - 1 > SEED_MAX:
        raise UsageError(f"--seed {args.seed} and --games {args.games} run past the last seed, {SEED_MAX:,}")
    workers = min(args.workers or os.cpu_count() or 1, args.games)  # never more processes than games
    if args.scheduler is not None:
        workers = 0  # the cluster's own
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    seeds = [args.seed + g for g in range(args.games)]
    start = time.perf_counter()

    def logged(r: Any) -> None:
        if args.log:
            append_atomic(args.log, json.dumps(r.summary()) + "\n")  # a whole line or none

    # appends each game's records, in seed order
    focus = {"focus": frozenset(args.focus)} if args.focus else {}
    it: Any = run(seeds, workers, args.samples, args.screen, args.out, logged, scheduler=args.scheduler, **focus)
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(it, total=len(seeds), desc="mine", unit="game", file=sys.stderr)
    results = list(it)
    wall = time.perf_counter() - start
    kept = sum(len(r.records) for r in results)
    cpu = sum(r.cpu for r in results)
    per_hour = kept / (cpu / 3600) if cpu > 0 else 0.0
    data = {"games": args.games, "workers": workers, "decisions": sum(r.decisions for r in results),
            "screened": sum(r.screened for r in results), "puzzles": kept, "cpu_seconds": round(cpu, 1),
            "wall_seconds": round(wall, 1), "puzzles_per_cpu_hour": round(per_hour, 1), "out": args.out,
            "scheduler": args.scheduler or "local", "focus": sorted(args.focus or ())}
    text = (f"{kept} puzzles from {args.games} games ({data['decisions']} decisions, "
            f"{data['screened']} searched to the full count) in {wall:.1f} s wall, {cpu:.1f} s CPU: "
            f"{per_hour:.1f} puzzles per CPU-hour" + (f"; appended to {args.out}" if args.out else ""))
    if not args.out:
        text = "".join(rec + "\n" for r in results for rec in r.records) + text
    emit(args, data, text)
    return 0


def cmd_puzzles_add(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..tutor.puzzles.library import library_dir
    from ..tutor.puzzles.mining import add_to_library

    into = Path(args.into) if args.into else (Path(args.folder) if args.folder else library_dir()) / "mined.txt"
    for f in args.files:
        if not Path(f).is_file():
            raise UsageError(f"no puzzle file {f[:200]!r}")
    done = add_to_library(args.files, into, args.folder)
    data = {"added": len(done.added), "near_duplicates": done.near_duplicates, "known_ids": done.known_ids,
            "refused": done.refused, "into": str(into)}
    text = (f"{len(done.added)} puzzles added to {into}; left out: near-duplicates of a library position "
            f"{len(done.near_duplicates)}, IDs the library has {len(done.known_ids)}, failing the only-move rule as "
            f"stated {len(done.refused)}. Run `canasta-tutor puzzles verify` to recompute their blocks.")
    emit(args, data, text)
    return 0


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``puzzles`` subcommand to the main parser's subparsers."""
    pz = sub.add_parser("puzzles", parents=[common], help="the puzzle library: list and verify")
    pzs = pz.add_subparsers(dest="puzzles_command", metavar="PUZZLES_COMMAND", parser_class=Parser)
    pzs.required = True

    def selection(q: argparse.ArgumentParser) -> None:
        q.add_argument("--folder", default=None, metavar="DIR", help="a puzzle folder (default: the library)")
        q.add_argument("--sample", type=COUNT, default=None, metavar="N", help="a seeded sample of N puzzles")
        q.add_argument("--seed", type=SEED, default=0, help="the seed of the sample (default 0)")
        q.add_argument("--id", action="append", default=[], metavar="ID", help="only this puzzle (repeatable)")

    ls = pzs.add_parser("list", parents=[common], help="every puzzle: ID, rating, source, themes, solution")
    selection(ls)
    ls.add_argument("--csv", action="store_true", help="CSV with lichess's columns and ours")
    ls.set_defaults(func=cmd_puzzles_list)
    pv = pzs.add_parser("verify", parents=[common], help="recompute every verification block; fail on a difference")
    selection(pv)
    pv.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    pv.add_argument("--workers", type=workers(every_core=True), default=1,
                    help="1 (the default): verify in this process; more: a local Dask cluster of that many worker "
                         "processes, one puzzle per task; 0: one per core")
    pv.add_argument("--scheduler", type=scheduler_address, default=None, metavar="ADDRESS",
                    help="verify on the existing Dask cluster at ADDRESS (say tcp://host:8786), one puzzle per task")
    pv.set_defaults(func=cmd_puzzles_verify)
    ad = pzs.add_parser("add", parents=[common], help="add mined puzzles to the library, leaving out near-duplicates")
    ad.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, say the --out of mining runs")
    ad.add_argument("--folder", default=None, metavar="DIR", help="the library folder (default: the library)")
    ad.add_argument("--into", default=None, metavar="FILE", help="the file to append to (default: mined.txt in "
                                                                 "the library folder)")
    ad.set_defaults(func=cmd_puzzles_add)
    mn = pzs.add_parser("mine", parents=[common], help="mine puzzles from seeded expert self-play")
    mn.add_argument("--games", type=ranged(int, 1, 1_000_000), default=4, help="games, one hand each (default 4)")
    mn.add_argument("--workers", type=workers(every_core=True), default=0,
                    help="worker processes of the local Dask cluster (default 0: one per core; at most four per "
                         "core, and one per game)")
    mn.add_argument("--scheduler", type=scheduler_address, default=None, metavar="ADDRESS",
                    help="run the games on the existing Dask cluster at ADDRESS (say tcp://host:8786) instead of "
                         "a local one")
    mn.add_argument("--seed", type=SEED, default=1, help="seed of the first game (default 1)")
    mn.add_argument("--samples", type=ranged(int, 1, 100_000), default=2000,
                    help="sampled deals of the full verification")
    mn.add_argument("--screen", type=ranged(int, 1, 100_000), default=None, metavar="N",
                    help="deals of the first early look of the sequential search (default 16)")
    mn.add_argument("--focus", type=theme_names, default=None, metavar="THEME[,THEME...]",
                    help="search only the decisions where a candidate move has one of these themes (a run "
                         "aimed at rare themes; see puzzles list for the names)")
    mn.add_argument("--out", default=None, metavar="FILE", help="append the puzzle records to this file")
    mn.add_argument("--log", default=None, metavar="FILE",
                    help="append one JSON line per game: decisions, searches, puzzles kept, CPU seconds")
    mn.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    mn.set_defaults(func=cmd_puzzles_mine)
