"""Does the default hint pick the move a much longer search picks? (a script that prints figures)

    .venv/bin/python benchmarks/hint_accuracy.py                          # 200 positions, oracle at 50x
    .venv/bin/python benchmarks/hint_accuracy.py --positions 10 --json    # a quick look
    .venv/bin/python benchmarks/hint_accuracy.py --variant two-handed --workers 2
    nice -n 10 .venv/bin/python benchmarks/hint_accuracy.py --workers 2 --max-minutes 30

Positions come from seeded rules-of-thumb self-play (benchmarks/positions.py),
taken in turn from four phases so that each has the same share: draw or take
(``draw``), meld phase with a meld or an addition available (``meld``), meld
phase with only discards left (``discard``), and the partner's answer to "may
I go out?" (``answer``).  Positions with a single legal move are skipped.
``--variant NAME`` deals that variant's self-play instead of classic's; where no
seat has a partner (two- and three-handed), there is no answer phase and the
other three share the positions.

For each position, from the seat's observation:

- the default hint, ``hint(obs, seed=0)``: its race of at most ``race_budget``
  playouts (1600 in classic).  Its wall-clock and process CPU time are measured
  in this process, pinned to one core, before any oracle runs;
- the oracle: the same search (same candidates, the same race by elimination)
  with ``--oracle-factor`` times the default's budget, on a
  different seed, so its sampled deals are
  independent of the default's.  The moves of a race are played out on shared
  sampled deals, so the oracle gives the paired difference of the runner-up to
  its best.

The oracle is clear on a position when its best leads its runner-up by more
than the half-width of the 95% interval of that paired difference (1.96
paired standard errors).  On clear positions we count how often the default
hint's move is the oracle's best, and print that share with its Wilson 95%
interval, by phase too.

A miss on a clear position is not always a wrong lesson: the hint says in
words how sure it is.  So the script also counts, on clear positions,

- how often the hint agrees when it calls its move "a clear best" (``hint_sure``),
  the one case where it tells the learner the other moves are worse;
- the misses where the hint called the position "a close call" and showed the
  oracle's move among its alternatives as "about as good as" its own
  (``misses_called_close``): there the learner is told the two are near equal;
- agreement by the oracle's lead in points (``by_lead``: under 10, 10 to 40,
  40 or more), since a lead of a few points can be clear to a search fifty
  times longer and still be far inside the default's interval.

``--max-minutes`` stops handing out work when the time is up and reports what
finished (``stopped_early`` in the output); the positions covered are always
the first ones of the full run, so a short run gives the figures of the start
of a long one.  ``--workers`` runs the oracle in that many processes; the
latency is measured before, in this process alone.

``--hint-seeds 0 1 2`` asks the default hint with each seed (the oracle runs once per position): the
agreement is given for each seed and as their mean (``agreement_mean``), so a figure never rests on one
lucky seed; the latency is that of every hint asked.  ``--set first-turn`` takes the first turn's meld
phase after the draw instead of the four phases (``first_turn_positions`` in benchmarks/positions.py).

``--save FILE`` writes one JSON line per position: its phase, its position
text (the seat's own view), the default hint's move, and the oracle's best,
runner-up, lead and interval, so a run's verdicts can be read back one by one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from positions import first_turn_positions, sample_positions  # noqa: E402
from strength import wilson  # noqa: E402

from canasta_tutor.notation.actions import format_action  # noqa: E402
from canasta_tutor.hint import CLEAR, CLOSE, Z95, Hint, analyse, compiled_search, hint, race_budget  # noqa: E402
from canasta_tutor.engine.observer import Observation, observe  # noqa: E402
from canasta_tutor.notation.position import format_position  # noqa: E402
from canasta_tutor.engine.state import State  # noqa: E402
from canasta_tutor.engine.variants import VARIANTS, get_variant  # noqa: E402

PHASES = ("draw", "meld", "discard", "answer")
T = TypeVar("T")
R = TypeVar("R")
HINT_SEED = 0
#: the bands of the oracle's lead, in points, that ``by_lead`` counts apart: (name, lowest lead)
LEAD_BANDS = (("under_10", 0.0), ("10_to_40", 10.0), ("40_up", 40.0))
ORACLE_SEED = 7919  # any seed other than the default hint's


def phase_of(state: State) -> str:
    """The benchmark's phase: the engine's, with the meld phase split by whether a meld or addition is open."""
    if state.phase == "meld":
        kinds = {a[0] for a in state.legal_actions()}
        return "meld" if kinds & {"meld", "add"} else "discard"
    return state.phase


def phases_of(variant: str) -> tuple[str, ...]:
    """The benchmark's phases in ``variant``: all four, less the answer where no seat has a partner to ask."""
    if VARIANTS[variant].partnerships:
        return PHASES
    return tuple(p for p in PHASES if p != "answer")


def draw_positions(count: int, seed: int, variant: str = "classic") -> list[tuple[str, State]]:
    """``count`` positions of ``variant`` with two or more legal moves, taken in turn from its phases
    (:func:`phases_of`).

    The self-play stream of ``sample_positions`` is read until each phase has its share;
    the same ``count``, ``seed`` and ``variant`` give the same positions, and a smaller ``count``
    gives the first ones of a larger."""
    phases = phases_of(variant)
    quota = -(-count // len(phases))
    pool = 4 * count
    while True:
        by_phase: dict[str, list[State]] = {p: [] for p in phases}
        for s in sample_positions(pool, seed=seed, variant=variant):
            p = phase_of(s)
            if p in by_phase and len(by_phase[p]) < quota and len(s.legal_actions()) > 1:
                by_phase[p].append(s)
        if all(len(v) == quota for v in by_phase.values()):
            break
        if pool >= 256 * count:
            short = [p for p, v in by_phase.items() if len(v) < quota]
            raise SystemExit(f"{variant}: self-play of {pool} positions gave too few in phase {', '.join(short)}")
        pool *= 2
    out = [(p, by_phase[p][i]) for i in range(quota) for p in phases]
    return out[:count]


@dataclass
class Oracle:
    best: tuple
    runner_up: tuple | None  # None when the search had a single candidate
    lead: float  # best value minus runner-up value
    lead_half_width: float  # 95% half-width of the paired difference
    samples: int
    cpu_s: float

    @property
    def clear(self) -> bool:
        return self.runner_up is not None and self.lead > self.lead_half_width


def oracle(task: tuple[Observation, int], seed: int = ORACLE_SEED) -> Oracle:
    """The long search on ``obs``: a race of ``playouts`` playouts on ``seed``."""
    obs, playouts = task
    c = time.process_time()
    _, est = analyse(obs, playouts=playouts, seed=seed)
    best = est[0]
    if len(est) < 2:
        return Oracle(best.action, None, 0.0, 0.0, best.samples, time.process_time() - c)
    second = est[1]
    return Oracle(best.action, second.action, best.mean - second.mean, Z95 * second.diff_stderr,
                  best.samples, time.process_time() - c)


@dataclass
class Pick:
    """What the default hint said: its move, its verdict in words, and the moves it called about as good."""

    best: tuple
    verdict: str
    close: tuple[tuple, ...]

    @classmethod
    def of(cls, h: Hint) -> Pick:
        return cls(h.best, h.verdict, tuple(a.action for a in h.alternatives if a.close))

    def called_close(self, move: tuple) -> bool:
        """The hint called the position a close call and showed ``move`` as about as good as its own."""
        return self.verdict == CLOSE and move in self.close


def lead_band(lead: float) -> str:
    """The name of the :data:`LEAD_BANDS` band ``lead`` falls in."""
    return [name for name, low in LEAD_BANDS if lead >= low][-1]


def _unpin(cores: set[int]) -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)


def quantile(values: list[float], q: int) -> float:
    """The ``q``-th percentile (``statistics.quantiles``, exclusive method); the value itself for one."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[q - 1]


def in_order(fn: Callable[[T], R], tasks: list[T], workers: int, deadline: float | None,
             done: Callable[[], object]) -> list[R]:
    """``fn`` on each task, in ``workers`` processes (in this one for 1), calling ``done`` after each.

    The results come back in the tasks' order, and once ``deadline`` (a ``time.perf_counter``
    reading) has passed no more tasks are handed out: those under way finish, so the results
    are always those of the first tasks."""
    def time_left() -> bool:
        return deadline is None or time.perf_counter() < deadline

    out: list[R] = []
    if workers <= 1:
        for task in tasks:
            if not time_left():
                break
            out.append(fn(task))
            done()
        return out
    with ProcessPoolExecutor(workers) as pool:
        pending: list[Future[R]] = []
        nxt = 0
        while nxt < len(tasks) and len(pending) < 2 * workers:
            pending.append(pool.submit(fn, tasks[nxt]))
            nxt += 1
        while pending:
            out.append(pending.pop(0).result())
            done()
            if nxt < len(tasks) and time_left():
                pending.append(pool.submit(fn, tasks[nxt]))
                nxt += 1
    return out


def save(path: Path, positions: list[tuple[str, State]], picks: list[Pick], oracles: list[Oracle]) -> None:
    """One JSON line per position the oracle finished (see the module docstring)."""
    def act(a: tuple | None) -> str | None:
        return None if a is None else format_action(a)

    with path.open("w", encoding="utf-8") as f:
        for i, ((ph, s), pick, o) in enumerate(zip(positions, picks, oracles, strict=False)):
            f.write(json.dumps({
                "index": i, "phase": ph, "position": format_position(s, s.actor), "hint": act(pick.best),
                "verdict": pick.verdict, "about_as_good": [format_action(a) for a in pick.close],
                "oracle": act(o.best), "runner_up": act(o.runner_up), "lead": round(o.lead, 2),
                "half_width": round(o.lead_half_width, 2), "clear": o.clear, "agree": pick.best == o.best,
                "oracle_samples": o.samples, "oracle_cpu_s": round(o.cpu_s, 2)}) + "\n")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=1, help="seed of the self-play that gives the positions")
    p.add_argument("--variant", default="classic", choices=sorted(VARIANTS), help="the variant played")
    p.add_argument("--oracle-factor", type=int, default=50, help="the oracle's playouts, times the default's")
    p.add_argument("--workers", type=int, default=1, help="processes for the oracle")
    p.add_argument("--max-minutes", type=float, default=None, help="stop handing out work after this long")
    p.add_argument("--hint-seeds", type=int, nargs="+", default=[HINT_SEED], metavar="SEED",
                   help="the default hint's seeds (default 0); the agreement is given for each and as their mean")
    p.add_argument("--set", choices=["mix", "first-turn"], default="mix", dest="position_set",
                   help="the four phases in turn (mix, the default), or the first turn's meld phase after the draw")
    p.add_argument("--json", action="store_true")
    p.add_argument("--save", type=Path, default=None, help="write each position's verdict here (JSON lines)")
    args = p.parse_args()
    from tqdm.auto import tqdm

    start = time.perf_counter()
    deadline = None if args.max_minutes is None else start + 60 * args.max_minutes
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if cores:
        os.sched_setaffinity(0, {min(cores)})
    quiet = not sys.stderr.isatty()

    names = phases_of(args.variant)
    if args.position_set == "first-turn":
        positions = [(phase_of(s), s) for s in first_turn_positions(args.positions, args.seed, args.variant)]
    else:
        positions = draw_positions(args.positions, args.seed, args.variant)
    # 1. the default hint on every position, timed on one core, with nothing else of ours running
    picks: list[Pick] = []
    more: dict[int, list[Pick]] = {seed: [] for seed in args.hint_seeds[1:]}  # the other hint seeds' picks
    tasks: list[tuple[Observation, int]] = []
    wall: list[float] = []
    cpu: list[float] = []
    for _, s in tqdm(positions, desc="default hints", disable=quiet):
        if deadline is not None and time.perf_counter() > deadline:
            break
        obs = observe(s, s.actor)
        for seed in args.hint_seeds:
            t, c = time.perf_counter(), time.process_time()
            h = hint(obs, seed=seed)
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            (picks if seed == args.hint_seeds[0] else more[seed]).append(Pick.of(h))
        tasks.append((obs, args.oracle_factor * race_budget(obs.variant)))

    # 2. the oracle, in workers that may use every core again
    bar = tqdm(total=len(tasks), desc="oracle", disable=quiet)
    _unpin(cores)
    oracles = in_order(oracle, tasks, args.workers, deadline, bar.update)
    bar.close()

    done = len(oracles)
    if args.save is not None:
        save(args.save, positions, picks, oracles)
    phases: Counter[str] = Counter(ph for ph, _ in positions[:done])
    clear: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    band_clear: Counter[str] = Counter()
    band_agree: Counter[str] = Counter()
    sure = sure_agree = called_close = 0
    for (ph, _), pick, o in zip(positions, picks, oracles, strict=False):
        if o.clear:
            ok = pick.best == o.best
            clear[ph] += 1
            agree[ph] += ok
            band = lead_band(o.lead)
            band_clear[band] += 1
            band_agree[band] += ok
            if pick.verdict == CLEAR:
                sure += 1
                sure_agree += ok
            called_close += not ok and pick.called_close(o.best)
    n_clear = sum(clear.values())
    n_agree = sum(agree.values())
    share = n_agree / n_clear if n_clear else None
    lo, hi = wilson(share or 0.0, n_clear)
    by_seed = {args.hint_seeds[0]: n_agree}
    for seed, seed_picks in more.items():
        by_seed[seed] = sum(pk.best == o.best for pk, o in zip(seed_picks, oracles, strict=False) if o.clear)
    oracle_cpu = statistics.fmean(o.cpu_s for o in oracles) if oracles else None
    result: dict[str, Any] = {
        "variant": args.variant,
        "set": args.position_set,
        "seed": args.seed,
        "positions_asked": args.positions,
        "positions": done,
        "stopped_early": done < args.positions,
        "phases": {ph: phases[ph] for ph in names},
        "oracle_factor": args.oracle_factor,
        "clear_positions": n_clear,
        "agree": n_agree,
        "agreement": None if share is None else round(share, 3),
        "agreement_ci95": None if share is None else [round(lo, 3), round(hi, 3)],
        "hint_seeds": args.hint_seeds,
        "agree_by_hint_seed": by_seed,
        "agreement_mean": round(statistics.fmean(by_seed.values()) / n_clear, 3) if n_clear else None,
        "by_phase": {ph: {"clear": clear[ph], "agree": agree[ph]} for ph in names},
        "by_lead": {name: {"clear": band_clear[name], "agree": band_agree[name]} for name, _ in LEAD_BANDS},
        "hint_sure": {"clear": sure, "agree": sure_agree},
        "misses_called_close": called_close,
        "hint_positions_timed": len(picks),
        "hints_timed": len(wall),
        "p50_ms": round(quantile(wall, 50), 1),
        "p95_ms": round(quantile(wall, 95), 1),
        "cpu_p50_ms": round(quantile(cpu, 50), 1),
        "cpu_p95_ms": round(quantile(cpu, 95), 1),
        "cores_for_latency": 1 if cores else None,
        "oracle_cpu_s_mean": None if oracle_cpu is None else round(oracle_cpu, 1),
        "workers": args.workers,
        "search": "compiled" if compiled_search(get_variant(args.variant)) else "pure",
        "elapsed_s": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    for k, v in result.items():
        print(f"{k:20} {v}")
    if result["stopped_early"]:
        print(f"stopped early (--max-minutes {args.max_minutes}): the oracle finished {done} of "
              f"{args.positions} positions; the figures above cover those {done} (latency: {len(wall)})")


if __name__ == "__main__":
    main()
