"""Mining on dask.distributed: a LocalCluster of worker processes mines the same records as the games
mined one by one in this process (a puzzle is the same whatever worker found it), in seed order;
``puzzles mine --scheduler`` sends the games to an existing cluster, and ``puzzles verify --scheduler``
the puzzles, one per task, answered in the library's order; a worker of another package version
is refused; a scheduler address is checked before anything runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.puzzles import library as puzzles
from canasta_tutor.tutor.puzzles import mining_cluster
from canasta_tutor.tutor.puzzles.mining import MineResult, mine_game
from canasta_tutor.tutor.puzzles.mining_cluster import run

SMALL = {"iterations": 2, "rating_seeds": 1}  # small searches: the command insists on 2000 deals


@pytest.mark.slow
def test_a_local_cluster_mines_what_one_process_mines_in_seed_order(tmp_path: Path) -> None:
    seeds = [3, 4]
    alone = [mine_game(s, samples=40, screen=8, **SMALL) for s in seeds]  # type: ignore[arg-type]
    out = tmp_path / "mined.txt"
    results = list(run(seeds, 2, samples=40, screen=8, out=str(out), **SMALL))
    assert [r.seed for r in results] == seeds  # in seed order, whichever worker finished first
    expected, seen = [], set()
    for r in alone:  # the first record of each near-duplicate key, in seed order
        for key, rec in zip(r.keys, r.records, strict=True):
            if key not in seen:
                seen.add(key)
                expected.append(rec)
    assert expected, "the two games give puzzles at these settings"
    assert [rec for r in results for rec in r.records] == expected
    # game by game in seed order (records of 40 deals do not load as a library: the command insists on 2000)
    assert out.read_text(encoding="utf-8") == "".join("\n" + rec for rec in expected)


def _fake_game(seed: int, samples: int = 0, screen: int | None = None, skip: Any = (), **_: Any) -> MineResult:
    text = (Path(__file__).resolve().parent.parent / "puzzles" / "composed.txt").read_text(encoding="utf-8")
    p = next(q for q in puzzles.parse_puzzles(text, "composed.txt"))
    record = puzzles.format_puzzle(p).replace(f"puzzle: {p.id}", f"puzzle: m{seed}-0", 1)
    return MineResult(seed, records=[record], keys=[f"key-{seed}"], decisions=1, screened=1, verified=1, cpu=0.5)


def test_puzzles_mine_runs_on_the_cluster_at_the_scheduler_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from distributed import LocalCluster

    monkeypatch.setattr(mining_cluster, "mine_game", _fake_game)  # the workers are threads of this process
    out = tmp_path / "mined.txt"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        code = main(["puzzles", "mine", "--games", "3", "--seed", "10", "--scheduler", cluster.scheduler_address,
                     "--out", str(out), "--json"])
        assert code == 0
        assert cluster.scheduler_info["workers"]  # the run left the cluster it did not start running
    text = capsys.readouterr().out
    assert '"scheduler": "inproc://' in text or '"scheduler": "tcp://' in text
    assert '"puzzles": 3' in text
    assert [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("puzzle:")] == [
        "puzzle: m10-0", "puzzle: m11-0", "puzzle: m12-0"]


def test_a_worker_of_another_version_is_refused() -> None:
    class Client:
        def run(self, fn: Any) -> dict[str, str]:
            return {"tcp://10.0.0.2:4000": "0.0.1", "tcp://10.0.0.3:4000": fn()}

    with pytest.raises(mining_cluster.ClusterVersionError, match=r"tcp://10\.0\.0\.2:4000.*'0\.0\.1'"):
        mining_cluster.check_versions(Client())  # type: ignore[arg-type]


@pytest.mark.parametrize("address", ["", "host port", "x" * 300, "tcp://h\x00:1", "nohost"])
def test_a_bad_scheduler_address_is_refused_before_anything_runs(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--games", "1", "--scheduler", address]) == 2
    assert "scheduler" in capsys.readouterr().err


def test_puzzles_verify_runs_on_the_cluster_and_reports_in_library_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from distributed import LocalCluster

    forced = [p for p in puzzles.load_file(puzzles.library_dir() / "composed.txt") if p.verification.forced][:4]
    (tmp_path / "forced.txt").write_text(puzzles.format_puzzles(forced), encoding="utf-8")
    real = puzzles.verify
    broken = forced[1].id

    def verify(p: puzzles.Puzzle) -> list[str]:  # the workers are threads of this process
        return ["verification differs"] if p.id == broken else real(p)

    monkeypatch.setattr(puzzles, "verify", verify)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        code = main(["puzzles", "verify", "--folder", str(tmp_path), "--scheduler", cluster.scheduler_address,
                     "--json", "--no-progress"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["verified"] == 3 and data["puzzles"] == 4
    assert data["failures"] == {broken: ["verification differs"]} and data["scheduler"].startswith(("inproc", "tcp"))


def test_verify_results_answers_in_the_puzzles_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    forced = [p for p in puzzles.load_file(puzzles.library_dir() / "composed.txt") if p.verification.forced][:5]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        got = list(mining_cluster.verify_results(forced, 0, cluster.scheduler_address))
    assert [pid for pid, _, _ in got] == [p.id for p in forced]
    assert all(found == [] and cpu >= 0 for _, found, cpu in got)
