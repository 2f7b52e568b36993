"""Mining puzzles from seeded self-play.

Each game (seed ``seed + g``) plays its first hand with the expert bot at every seat.  At
every draw or meld decision with more than one legal move, the position is written as a
draft puzzle record (what the mover sees) and searched exactly as ``canasta-tutor puzzles
verify`` will search it: the hint's search (:func:`canasta_tutor.hint.analyse`, the wide
candidate list) on the sampled deals drawn from seed 1, every candidate played out on the
same deals.  The search is *sequential*: the sampled deals come one after another from the
same random stream whatever the total, so the first ``n`` deals of the 2000-deal
verification are the deals of an ``n``-deal search.  At checkpoints (16, 32, 64, ... deals)
the search stops when the leader's paired lead over the runner-up is unlikely to end at the
40-point margin (:func:`hopeless`), weighing the chance of a pass against the playouts still
to go (:func:`stop_z`); meanwhile candidates far behind the leader are left aside
(``prune``), and played out on the deals they missed if the search reaches the full count.
The playouts run on the search's compiled copy where it is built (the same values, deal by deal:
:func:`~canasta_tutor.bots.expert.sample_values_from` goes on from the deal where the last
checkpoint stopped), else in plain Python.
A position that reaches the full count has, at no extra cost, exactly the
verification block :func:`.puzzles.compute_verification` computes (with the search's best
as the solution); it is kept when that block passes the only-move rule.

The early stop only decides which positions are searched to the end; it never changes a
figure of a kept puzzle.  Forced positions (one legal move, or one candidate) are never
searched; near-duplicates (same solver hand, pile top and size, melds and turn) are dropped
within a game and across the games of a run, and against the records already in the output
file.  Kept puzzles get their themes from the detectors (:mod:`.themes`) and a starting
rating from how often weaker solvers find the answer (:mod:`.starting_rating`).

:func:`.mining_cluster.run` mines games on a Dask cluster (a local one by default) and
appends each game's records to the output file game by game in seed order, whole records or
nothing (a write that fails part way, on a full disk, is truncated back), so a run stopped at any
time leaves a file that loads, and the file is the same whatever worker mined each game.
"""

from __future__ import annotations

import math
import time
from statistics import NormalDist
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Container, Iterable

from ...notation.actions import Action
from ..atomicfile import append_atomic
from ...engine.errors import CanastaError
from ...engine.game import Game
from ...engine.observer import observe
from ...notation.position import format_position
from ...engine.state import DRAW, GAME_OVER, HAND_OVER, MELD, SEATS, State
from .library import (MARGIN, MIN_SAMPLES, Puzzle, estimates_block, format_puzzle, load_file, parse_puzzles,
                      problems)

#: Deal counts at which the sequential search may stop a position (below the full count).
CHECKPOINTS = (16, 32, 64, 128, 256, 512, 1024, 1536)
SCREEN_Z: float | None = None  # None: the cost-aware stop of :func:`stop_z`; a number: a fixed z
#: What a kept puzzle costs on average, in playouts (first measured run: about 54 CPU seconds a
#: game for one puzzle, at about 1.4 ms a playout); the early stop weighs against it.
PUZZLE_PRICE = 36_000
#: Meld-phase positions with this many candidates are not searched: a small hand choosing
#: among a few discards.  In the first measured runs (games 1-6) 68 were searched, for 54 CPU
#: seconds, and none passed; of the other 135 meld positions searched, 8 passed.
SKIP_MELD = range(4, 7)
PRUNE_Z = 3.0  # stop playing out a candidate this many standard errors beyond the margin behind
SCREEN_SAMPLES = CHECKPOINTS[0]  # the first look (kept for the command's --screen option)
MAX_PLIES = 400
VERIFY_SEED = 1  # the seed of every mined verification block


@dataclass
class Searched:
    """One searched decision: its phase, candidate count, deals played and the outcome."""

    phase: str
    verb: str  # the verb of the leader when the search stopped
    candidates: int
    deals: int
    kept: bool
    cpu: float
    trace: list[tuple[int, float, float]] = field(default_factory=list)  # (deals, lead, its standard error)


@dataclass
class MineResult:
    """What one game gave: puzzle records (text) with their near-duplicate keys, the
    decisions seen, the positions searched and kept, and CPU seconds."""

    seed: int
    records: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    decisions: int = 0
    screened: int = 0  # positions searched to the full count (they passed every early look)
    verified: int = 0  # positions kept (the full block passes the only-move rule)
    cpu: float = 0.0
    searched: list[Searched] = field(default_factory=list)


    def summary(self) -> dict[str, object]:
        """The game's figures, for a log line: per search its phase, leader's verb, candidates,
        deals played, whether it was kept and its CPU seconds."""
        return {"seed": self.seed, "decisions": self.decisions, "full": self.screened, "kept": len(self.records),
                "cpu": round(self.cpu, 2), "searched": [[s.phase, s.verb, s.candidates, s.deals, int(s.kept),
                                                         round(s.cpu, 2), s.trace] for s in self.searched]}


def puzzle_key(state: State, seat: int) -> str:
    """Near-duplicate key: the solver's hand, the melds, the turn, the pile's top and size."""
    text = format_position(state, seat)
    keep = [ln for ln in text.splitlines() if ln.startswith((f"{SEATS[seat]}:", "melds", "turn:"))]
    top = state.pile[-1] if state.pile else -1
    return "|".join(keep) + f"|{top}|{len(state.pile)}"


def _record(state: State, seat: int, seed: int, ply: int, solution: str) -> str:
    lines = [ln for ln in format_position(state, seat).splitlines()
             if ln.strip() and ln != "canasta-tutor position" and not ln.startswith(("seed:", "deal:"))]
    return "\n".join([f"puzzle: m{seed}-{ply}", f"source: mined seed={seed} deal={state.deal_no} ply={ply}",
                      "objective: hand", f"solution: {solution}", "accept:", "themes:", "rating: 1500 350",
                      "position:"] + ["  " + ln for ln in lines] + ["verification:", "  forced: yes",
                                                                   "  engine: draft"]) + "\n"


def lead(values: list[list[float]]) -> tuple[float, float]:
    """The leader's paired lead over the runner-up and the standard error of that difference."""
    from ...bots.expert import summarize

    est = summarize([(i,) for i in range(len(values))], values)
    return est[0].mean - est[1].mean, est[1].diff_stderr


def stop_z(candidates: int, deals: int, total: int = MIN_SAMPLES, price: float = PUZZLE_PRICE) -> float:
    """The z of the cost-aware early stop: go on while the chance that the position passes is
    at least what the remaining playouts (``candidates * (total - deals)``) cost as a share of
    the price of a puzzle (capped at 0.9), so a search continues exactly when it is expected
    to find puzzles no more dearly than the run does on average.  Early and wide searches
    must look better than even to go on; late or narrow ones go on at a smaller chance.

    >>> round(stop_z(10, 16), 2), round(stop_z(2, 16), 2), round(stop_z(4, 1024), 2)
    (-0.13, 1.23, 1.23)
    """
    share = min(0.9, max(1e-6, candidates * max(0, total - deals) / price))
    return -NormalDist().inv_cdf(share)


def hopeless(values: list[list[float]], total: int = MIN_SAMPLES, z: float | None = SCREEN_Z) -> bool:
    """True when the full search (``total`` deals) is not worth finishing: the leader's paired
    lead over the runner-up now, plus ``z`` times the spread the remaining deals may still move
    it by (the standard error of the lead times sqrt((total - n) / total)), is below
    :data:`MARGIN`.  With the lead taken as normal around its current value, the chance that
    the final lead reaches the margin is then below Phi(-z).  ``z`` None: :func:`stop_z`."""
    n = len(values[0])
    gap, se = lead(values)
    if z is None:
        z = stop_z(len(values), n, total)
    return gap + z * se * math.sqrt(max(0, total - n) / total) < MARGIN


def sequential_search(draft: Puzzle, samples: int = MIN_SAMPLES, seed: int = VERIFY_SEED,
                      checkpoints: Iterable[int] = CHECKPOINTS, z: float | None = SCREEN_Z,
                      trace: list[tuple[int, float, float]] | None = None,
                      prune: float | None = PRUNE_Z, skip: Container[int] = ()) -> tuple[list, int, int]:
    """The verification search of ``draft``'s position, stopped early at a checkpoint when
    :func:`hopeless`.  Returns (estimates best first, or [] when stopped or not searchable;
    the deals played; the candidate count).  When it runs to ``samples`` deals the estimates
    are exactly those of ``analyse(obs, samples, seed)``, the search behind the block.

    With ``prune``, a candidate more than the margin behind the leader by ``prune`` standard
    errors of the paired difference stops being played out while the search may still stop;
    when the search reaches the full count, the pruned candidates are played out on the deals
    they missed (the same deals, kept), so the estimates are those of the full search.
    A position whose candidate count is in ``skip`` is not searched (no deals played)."""
    from ...bots.expert import candidate_actions, summarize
    from ...bots.sampling import state_from_observation

    state = draft.state()
    seat = state.actor
    assert seat is not None
    obs = observe(state, seat)
    if len(obs.legal_actions) == 1:
        return [], 0, 1
    root = state_from_observation(obs)
    cands = candidate_actions(root, seat, wide=True)
    if len(cands) == 1:
        return [], 0, 1
    if len(cands) in skip:
        return [], 0, len(cands)
    engine = _engine()
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    n = 0
    for stop in [c for c in checkpoints if c < samples] + [samples]:
        got = engine.sample_values_from(root, seat, [cands[i] for i in active], n, stop, seed)
        for i, vals in zip(active, got, strict=True):
            values[i] += vals
        if len(got[0]) < stop - n:  # no consistent deal: the full search would stop short here
            return [], n + len(got[0]), len(cands)
        n = stop
        now = [values[i] for i in active]
        if trace is not None:
            gap, se = lead(now)
            trace.append((n, round(gap, 1), round(se, 1)))
        if n < samples and hopeless(now, samples, z):
            return [], n, len(cands)
        if prune is not None and n < samples:
            est = summarize([(i,) for i in active], now)
            behind = {e.action[0] for e in est[2:] if est[0].mean - e.mean - prune * e.diff_stderr > MARGIN}
            active = [i for i in active if i not in behind]
    for i in range(len(cands)):  # the pruned candidates, on the deals they missed
        if len(values[i]) < n:
            values[i] += engine.sample_values_from(root, seat, [cands[i]], len(values[i]), n, seed)[0]
    return summarize(cands, values), n, len(cands)


def _engine() -> Any:
    """The search's functions: the compiled copy's where it is built (:mod:`canasta_tutor.native`; the same
    values, deal by deal), else the pure ones."""
    from ...bots import expert, native

    return native.engine() or expert


def _draft(state: State, seat: int, seed: int, ply: int, solution: str) -> Puzzle | None:
    try:
        return parse_puzzles(_record(state, seat, seed, ply, solution), f"m{seed}-{ply}")[0]
    except CanastaError:  # a position the solver's view cannot state
        return None


def finish(draft: Puzzle, est: list, samples: int, seed: int = VERIFY_SEED, rating_seeds: int = 4) -> Puzzle | None:
    """The kept puzzle from a full search, or None when its block fails the only-move rule."""
    from ...notation.actions import format_action
    from .starting_rating import starting_rating
    from .themes import detect

    best: Action = est[0].action
    solution = format_action(best)
    block = estimates_block(est, [best], samples, seed)
    state = draft.state()
    seat = state.actor
    assert seat is not None
    p = Puzzle(draft.id, draft.source, draft.objective, [solution], [], [], 1500.0, 350.0, draft.position, block)
    if problems(p, block):
        return None
    p.themes = detect(observe(state, seat), best, state)
    rating = starting_rating(state, [best], seeds=rating_seeds)
    p.rating, p.rd = rating.rating, rating.rd
    return p


def may_show(state: State, focus: Container[str]) -> bool:
    """True when some candidate move of the player to act at ``state`` (the search's wide list)
    has a theme in ``focus``: only then can the search's best move be a puzzle of that theme.
    The detectors are cheap beside a search, so a run aimed at rare themes asks this first and
    searches only the decisions that pass."""
    from ...bots.expert import candidate_actions
    from ...bots.sampling import state_from_observation
    from .themes import detect

    seat = state.actor
    assert seat is not None
    obs = observe(state, seat)
    cands = candidate_actions(state_from_observation(obs), seat, wide=True)
    return any(t in focus for a in cands for t in detect(obs, a, state))


def mine_game(seed: int, samples: int = MIN_SAMPLES, screen: int | None = None, iterations: int = 24,
              z: float | None = SCREEN_Z, skip: Iterable[str] = (), rating_seeds: int = 4,
              skip_meld: Container[int] = SKIP_MELD, focus: Container[str] = ()) -> MineResult:
    """Puzzles from the first hand of the game with ``seed``, played by the expert bot.
    ``screen`` (optional) replaces the first checkpoint; ``skip`` holds near-duplicate keys
    to leave out (records already kept elsewhere); meld-phase positions whose candidate count
    is in ``skip_meld`` are not searched.  With ``focus`` (theme names), only the decisions where
    some candidate move has one of those themes are searched (:func:`may_show`): a run aimed at
    rare themes.  A kept puzzle is verified and themed as any other, whatever its themes turn out."""
    from ...bots import make_state_policy

    start = time.process_time()
    out = MineResult(seed)
    checkpoints = CHECKPOINTS if screen is None else (screen,) + tuple(c for c in CHECKPOINTS if c > screen)
    policy = make_state_policy("expert", seed=seed, iterations=iterations)
    state = Game().new_initial_state(seed)
    seen: set[str] = set(skip)
    ply = 0
    while state.phase not in (HAND_OVER, GAME_OVER) and ply < MAX_PLIES:
        seat = state.actor
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) > 1 and state.phase in (DRAW, MELD):
            out.decisions += 1
            key = puzzle_key(state, seat)
            draft = None if key in seen else _draft(state, seat, seed, ply, _any_legal(legal))
            seen.add(key)
            if draft is not None and focus and not may_show(state, focus):
                draft = None
            if draft is not None:
                t0 = time.process_time()
                trace: list[tuple[int, float, float]] = []
                est, deals, k = sequential_search(draft, samples, VERIFY_SEED, checkpoints, z, trace,
                                                  skip=skip_meld if state.phase == MELD else ())
                kept = None
                if est:
                    out.screened += 1
                    kept = finish(draft, est, samples, rating_seeds=rating_seeds)
                if k > 1 and deals > 0:
                    verb = str(est[0].action[0]) if est else ""
                    out.searched.append(Searched(state.phase, verb, k, deals, kept is not None,
                                                 time.process_time() - t0, trace))
                if kept is not None:
                    out.records.append(format_puzzle(kept))
                    out.keys.append(key)
                    out.verified += 1
        state.apply(policy(state, seat))
        ply += 1
    out.cpu = time.process_time() - start
    return out


def _any_legal(legal: list[Action]) -> str:
    from ...notation.actions import format_action

    return format_action(legal[0])


def refresh_themes(text: str, path: str = "<text>") -> tuple[str, int]:
    """``text`` (a puzzle file) with each mined puzzle's ``themes:`` line set to what the
    detectors find now (after a detector is added); other lines stay as they are.
    Returns the text and the number of puzzles whose themes changed."""
    from .themes import detect

    lines = text.split("\n")
    changed = 0
    for p in parse_puzzles(text, path):
        if not p.source.startswith("mined"):
            continue
        state = p.state()
        assert state.actor is not None
        themes = detect(observe(state, state.actor), p.answers()[0], state)
        if themes == p.themes:
            continue
        i = p.line - 1
        while not lines[i].startswith("themes:"):
            i += 1
        lines[i] = f"themes: {' '.join(themes)}"
        changed += 1
    return "\n".join(lines), changed


# ------------------------------------------------------------------ runs
def existing_keys(path: Path | str) -> tuple[set[str], set[str]]:
    """The near-duplicate keys and IDs of the records already in ``path`` (empty if none)."""
    p = Path(path)
    return _keys_and_ids(load_file(p)) if p.exists() else (set(), set())


def _keys_and_ids(puzzles: Iterable[Puzzle]) -> tuple[set[str], set[str]]:
    keys, ids = set(), set()
    for z in puzzles:
        state = z.state()
        assert state.actor is not None
        keys.add(puzzle_key(state, state.actor))
        ids.add(z.id)
    return keys, ids


def append_records(path: Path | str, records: list[str]) -> None:
    """Append whole records (:func:`~canasta_tutor.tutor.atomicfile.append_atomic`): when the disk fills
    part way, the file is truncated back to where it was, so it never holds half a record."""
    if records:
        append_atomic(path, "".join("\n" + r for r in records))


@dataclass
class Added:
    """What :func:`add_to_library` did: the IDs added, and those left out with the reason."""

    added: list[str] = field(default_factory=list)
    near_duplicates: list[str] = field(default_factory=list)  # a position the library (or an earlier one) holds
    known_ids: list[str] = field(default_factory=list)  # an ID the library already has
    refused: list[str] = field(default_factory=list)  # a stated block that fails the only-move rule


def add_to_library(files: Iterable[Path | str], into: Path | str, folder: Path | str | None = None) -> Added:
    """Append to ``into`` the puzzles of ``files`` (mining runs' outputs, in order) that the library in
    ``folder`` does not hold yet: a puzzle whose ID or near-duplicate key (:func:`puzzle_key`) the library,
    or an earlier new puzzle, already has is left out (the first wins, as in a run), and so is one whose
    stated block fails the only-move rule or is short of the full sample count.  Whole records, in one
    atomic append.  The blocks are not recomputed here: ``puzzles verify`` does that."""
    from .library import load_library

    keys, ids = _keys_and_ids(load_library(folder))
    out = Added()
    records = []
    for f in files:
        for z in load_file(f):
            v = z.verification
            if not v.only_move() or not (v.forced or (v.samples or 0) >= MIN_SAMPLES):
                out.refused.append(z.id)
                continue
            if z.id in ids:
                out.known_ids.append(z.id)
                continue
            state = z.state()
            assert state.actor is not None
            key = puzzle_key(state, state.actor)
            if key in keys:
                out.near_duplicates.append(z.id)
                continue
            keys.add(key)
            ids.add(z.id)
            records.append(format_puzzle(z))
            out.added.append(z.id)
    append_records(into, records)
    return out


__all__ = ["mine_game", "may_show", "add_to_library", "Added", "MineResult", "Searched", "sequential_search",
           "hopeless", "finish", "append_records", "existing_keys", "puzzle_key", "CHECKPOINTS", "SCREEN_Z",
           "SCREEN_SAMPLES", "stop_z", "PUZZLE_PRICE", "refresh_themes"]
