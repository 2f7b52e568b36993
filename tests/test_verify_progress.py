"""The full verification shows a progress bar and the wall time: ``canasta-tutor puzzles verify``
and ``benchmarks/verify_puzzles.py`` (issue 11, section 4), here on forced puzzles (no search)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.puzzles.library import format_puzzles, library_dir, load_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def forced(tmp_path: Path) -> Path:
    puzzles = [p for p in load_file(library_dir() / "composed.txt") if p.verification.forced][:3]
    (tmp_path / "forced.txt").write_text(format_puzzles(puzzles), encoding="utf-8")
    return tmp_path


def test_cli_verify_shows_a_progress_bar_and_the_time(forced: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "verify", "--folder", str(forced), "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "verify: 100%" in err and "3/3" in err
    assert out.startswith("3 of 3 puzzles verified in ") and out.rstrip().endswith(" s CPU")


def test_the_script_prints_the_wall_time(forced: Path) -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "verify_puzzles.py"), "--folder", str(forced),
                        "--workers", "1"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "3 of 3 puzzles verified in " in r.stdout and " s wall with 1 workers" in r.stdout
    assert "3/3" in r.stderr  # tqdm's bar
