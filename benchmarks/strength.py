"""Bot strength in duplicate matches (a script that prints figures, not a test).

    .venv/bin/python benchmarks/strength.py                       # both matches, 500 deals each
    .venv/bin/python benchmarks/strength.py --deals 100 --workers 2 --only expert
    .venv/bin/python benchmarks/strength.py --only expert --deals 1000 --max-minutes 12 --log run.jsonl
    .venv/bin/python benchmarks/strength.py --only expert --variant two-handed --deals 200

Each deal is one hand from a seeded shuffle, played twice with the
partnerships swapped; a bot wins the deal when its side's two scores add up to
more than the other's.  The expert uses a fixed number of samples per
decision (no time limit), so the results do not depend on the machine's speed
or load and repeat exactly.

``--max-minutes`` stops handing out deals when the time is up and reports the
deals finished, always a run of consecutive seeds from ``--seed`` (so a short
run is the start of the long one, and its figures are those of the same deals).
``--log`` writes each deal's margin as it finishes.  ``--variant NAME`` plays a variant's deals  (the expert
with that variant's own budget).  With three sides (three- and six-handed) the bot takes each side's seats in
turn against the other bot in every other seat, and its margin is its side's score less the mean of the
other two, summed over the turns (:func:`canasta_tutor.bots.match.play_deal`).  Besides the match report,
each result has ``share_ci95``: a Wilson 95% interval for the share of deals
won (a tie counts half).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Callable, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canasta_tutor.bots import make_state_policy  # noqa: E402
from canasta_tutor.bots.match import MatchReport, play_deal  # noqa: E402
from canasta_tutor.engine.variants import VARIANTS  # noqa: E402


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a share observed on ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    den = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / den
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / den
    return (centre - half, centre + half)


#: the policies a worker process built, by what they were built from (see :func:`_deal`)
_POLICIES: dict[tuple, Callable] = {}


def _policy(spec: tuple[str, int, int | None]) -> Callable:
    """The state policy ``make_state_policy(name, seed, iterations)``, built once per process: the compiled
    expert holds the compiled module, which cannot be pickled, so workers are handed its name, not itself.
    Each decision is seeded from the position, so a policy built here plays as the parent's would."""
    if spec not in _POLICIES:
        name, seed, iterations = spec
        _POLICIES[spec] = make_state_policy(name, seed=seed, iterations=iterations)
    return _POLICIES[spec]


def _deal(args: tuple) -> float:
    seed, a, b, variant = args
    return play_deal(seed, _policy(a), _policy(b), variant)


def play(a: tuple[str, int, int | None], b: tuple[str, int, int | None], deals: int, seed: int, workers: int,
         max_seconds: float | None, log: TextIO | None, variant: str = "classic") -> MatchReport:
    """Deals ``seed``, ``seed + 1``, ... in order; stop early when ``max_seconds`` has passed.  ``a`` and
    ``b`` name the policies: (bot name, seed, iterations) for :func:`make_state_policy`."""
    start = time.perf_counter()
    margins: list[float] = []

    def record(s: int, m: float) -> None:
        margins.append(m)
        if log is not None:
            log.write(json.dumps({"seed": s, "margin": m}) + "\n")
            log.flush()

    def time_left() -> bool:
        return max_seconds is None or time.perf_counter() - start < max_seconds

    if workers <= 1:
        for s in range(seed, seed + deals):
            if not time_left():
                break
            record(s, play_deal(s, _policy(a), _policy(b), variant))
    else:
        with ProcessPoolExecutor(workers) as pool:
            pending: list[tuple[int, Future]] = []
            nxt = seed
            while nxt < seed + deals and len(pending) < 2 * workers:
                pending.append((nxt, pool.submit(_deal, (nxt, a, b, variant))))
                nxt += 1
            while pending:
                s, fut = pending.pop(0)
                record(s, fut.result())
                if not time_left():
                    for _, f in pending:
                        f.cancel()
                    break
                if nxt < seed + deals:
                    pending.append((nxt, pool.submit(_deal, (nxt, a, b, variant))))
                    nxt += 1
    n = len(margins)
    report = MatchReport(deals=n, a_wins=sum(1 for m in margins if m > 0),
                         ties=sum(1 for m in margins if m == 0), margins=margins, hands=2 * n)
    report.seconds = time.perf_counter() - start
    return report


def match(a: str, b: str, deals: int, seed: int, workers: int, iterations: int | None,
          max_seconds: float | None = None, log: TextIO | None = None, variant: str = "classic") -> dict:
    report = play((a, seed, iterations), (b, seed + 1, iterations), deals, seed, workers, max_seconds, log, variant)
    lo, hi = wilson(report.a_win_share, report.deals)
    return {"bot_a": a, "bot_b": b, "variant": variant, "workers": workers, "iterations": iterations,
            "first_seed": seed, "deals_asked": deals, **report.to_dict(), "share_ci95": [round(lo, 4), round(hi, 4)]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=500)
    p.add_argument("--seed", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--iterations", type=int, default=None,
                   help="expert samples per decision (default: the expert's own for the variant)")
    p.add_argument("--only", choices=["expert", "rules-of-thumb"], default=None)
    p.add_argument("--max-minutes", type=float, default=None, help="stop each match after this long")
    p.add_argument("--log", type=argparse.FileType("w"), default=None, help="write each deal's margin here")
    p.add_argument("--variant", choices=sorted(VARIANTS), default="classic", help="the game played (default classic)")
    args = p.parse_args()
    limit = None if args.max_minutes is None else 60 * args.max_minutes
    results = []
    if args.only in (None, "rules-of-thumb"):
        results.append(match("rules-of-thumb", "random", args.deals, args.seed, args.workers, args.iterations,
                             limit, args.log, args.variant))
        print(json.dumps(results[-1]), flush=True)
    if args.only in (None, "expert"):
        results.append(match("expert", "rules-of-thumb", args.deals, args.seed, args.workers, args.iterations,
                             limit, args.log, args.variant))
        print(json.dumps(results[-1]), flush=True)


if __name__ == "__main__":
    main()
