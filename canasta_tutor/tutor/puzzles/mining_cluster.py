"""Mining on a Dask cluster (dask.distributed): one task per game seed.

:func:`run` mines a run's games and appends their new records to the output file; :func:`game_results`
hands the games of a run to a Dask cluster, one task per seed
(:func:`~.mining.mine_game`, a pure function of its seed and settings), and yields each game's
result **in seed order**: a game that finishes before an earlier one waits for it.  So the records a
run writes, and which of two near-duplicates it keeps (the first in seed order), are the same whatever
worker ran each game, however many workers there are, and in whatever order they finished; a puzzle's
verification block is recomputed from its seed by ``canasta-tutor puzzles verify`` as for any other.

- Without a scheduler address, the run starts a :class:`distributed.LocalCluster` on this machine: one
  worker process per core (``workers``), one thread each (the search is pure Python or compiled code
  that holds the GIL), and stops it at the end.
- With ``scheduler`` (``tcp://host:8786``), the run connects to an existing cluster
  (``dask scheduler`` on one machine, ``dask worker tcp://host:8786 --nthreads 1`` on each of the
  others) and leaves it running.  Every worker must run the same package version as the driver: a
  worker with another version is refused before any game is handed out
  (:class:`ClusterVersionError`), since its records would not verify.

The set of near-duplicate keys to leave out (records already in the output file) is sent to every
worker once (``scatter(broadcast=True)``), not with each task.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .library import MIN_SAMPLES, Puzzle

from ...engine.errors import CanastaError
from .mining import MineResult, append_records, existing_keys, mine_game

if TYPE_CHECKING:
    from distributed import Client


class ClusterVersionError(CanastaError):
    """A worker of the cluster runs another version of the package than the driver."""


class MissingDaskError(CanastaError):
    """dask.distributed is not installed."""


def _version() -> str:
    from ... import __version__

    return __version__


def _game(seed: int, skip: frozenset[str], settings: dict[str, Any]) -> MineResult:
    """One task: the game ``seed`` mined with ``settings`` (keyword arguments of :func:`~.mining.mine_game`)."""
    return mine_game(seed, skip=skip, **settings)


@contextmanager
def cluster_client(workers: int, scheduler: str | None = None) -> Iterator[Client]:
    """A Dask client: connected to ``scheduler`` when given (the cluster is left running), else to a
    :class:`~distributed.LocalCluster` of ``workers`` single-threaded worker processes, closed at the end."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - the test extra installs it
        raise MissingDaskError("mining runs on dask.distributed: pip install 'canasta-tutor[mining]'") from e
    if scheduler is not None:
        with Client(scheduler) as client:
            yield client
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        yield client


def check_versions(client: Client) -> None:
    """Refuse a cluster whose workers run another package version than this process."""
    mine = _version()
    theirs = client.run(_version)
    other = {w: v for w, v in theirs.items() if v != mine}
    if other:
        worker, version = sorted(other.items())[0]
        raise ClusterVersionError(f"worker {worker!r} runs canasta-tutor {version!r}, this driver {mine!r}: "
                                  "every worker needs the same version")


def _in_order(futures: list[Any]) -> Iterator[Any]:
    """The results of ``futures`` in their order, each as soon as it and every one before it have finished
    (a future that finishes early waits for those before it); each is released once read."""
    from distributed import as_completed

    index = {f.key: i for i, f in enumerate(futures)}
    done: dict[int, Any] = {}
    nxt = 0
    for fut in as_completed(futures):
        done[index[fut.key]] = fut.result()
        fut.release()
        while nxt in done:
            yield done.pop(nxt)
            nxt += 1


def game_results(seeds: Iterable[int], skip: frozenset[str], settings: dict[str, Any], workers: int,
                 scheduler: str | None = None) -> Iterator[MineResult]:
    """Mine the games of ``seeds`` on a Dask cluster (see the module docstring); yield each game's result
    in the order of ``seeds``, as soon as it and every game before it have finished."""
    with cluster_client(workers, scheduler) as client:
        check_versions(client)
        [skip_future] = client.scatter([skip], broadcast=True, hash=False)  # in a list: a set is one value
        # pure=False: a key of its own for every task, so two runs on one cluster never share a result
        yield from _in_order([client.submit(_game, s, skip_future, settings, pure=False) for s in seeds])


def run(seeds: list[int], workers: int, samples: int = MIN_SAMPLES, screen: int | None = None,
        out: str | None = None, on_game: Callable[[MineResult], None] | None = None,
        scheduler: str | None = None, **settings: object) -> Iterator[MineResult]:
    """Mine the games of ``seeds`` on a Dask cluster (a local one of ``workers``
    processes, or the one at ``scheduler``); each game's new records (not near-duplicates of earlier
    ones, nor of those already in ``out``) are appended to ``out`` game by game, in seed order, so the
    file is the same whatever worker mined each game.  Yields each game's result with only its new
    records.  ``settings``: more keyword arguments of :func:`~.mining.mine_game` (say ``iterations``)."""
    seen, ids = existing_keys(out) if out else (set(), set())
    options = {"samples": samples, "screen": screen, **settings}
    for r in game_results(seeds, frozenset(seen), options, workers, scheduler):
        fresh = [(k, rec) for k, rec in zip(r.keys, r.records, strict=True)
                 if k not in seen and rec.split("\n", 1)[0][len("puzzle: "):] not in ids]
        seen.update(k for k, _ in fresh)
        r.keys, r.records = [k for k, _ in fresh], [rec for _, rec in fresh]
        if out:
            append_records(out, r.records)
        if on_game is not None:
            on_game(r)
        yield r


def _verify(puzzle: Puzzle) -> tuple[str, list[str], float]:
    """One task: ``puzzle``'s verification block recomputed (:func:`~.library.verify`), with its CPU seconds."""
    from .library import verify

    start = time.process_time()
    found = verify(puzzle)
    return puzzle.id, found, time.process_time() - start


def verify_results(puzzles: Iterable[Puzzle], workers: int, scheduler: str | None = None
                   ) -> Iterator[tuple[str, list[str], float]]:
    """Verify ``puzzles`` on a Dask cluster (a local one of ``workers`` processes, or the one at
    ``scheduler``), one task per puzzle; yield (ID, what differs, CPU seconds) in the puzzles' order.
    A puzzle's block is recomputed from its own seed, so the answer is the same on any worker."""
    with cluster_client(workers, scheduler) as client:
        check_versions(client)
        yield from _in_order([client.submit(_verify, p, pure=False) for p in puzzles])


__all__ = ["run", "game_results", "verify_results", "cluster_client", "check_versions", "ClusterVersionError",
           "MissingDaskError"]
