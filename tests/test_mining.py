"""Mining: a short seeded run finds puzzles that parse, state only what the solver sees
and pass their own verification (small sample counts here; the command insists on 2000)."""

from __future__ import annotations

import pytest

from canasta_tutor.cli import main
from canasta_tutor.tutor import puzzles
from canasta_tutor.tutor.mining import mine_game


@pytest.mark.slow
def test_a_short_mining_run_gives_verified_records(monkeypatch: pytest.MonkeyPatch) -> None:
    r = mine_game(3, samples=60, screen=12, iterations=4)
    assert r.decisions > r.screened >= r.verified == len(r.records) >= 1
    monkeypatch.setattr(puzzles, "MIN_SAMPLES", 24)
    for text in r.records:
        p = puzzles.parse_puzzles(text, "mined.txt")[0]
        assert p.source.startswith("mined seed=3 deal=0 ply=")
        assert not p.verification.forced and p.verification.only_move()
        assert puzzles.verify(p) == []
    again = mine_game(3, samples=60, screen=12, iterations=4)
    assert again.records == r.records  # seeded: the same run gives the same puzzles


def test_mine_refuses_a_small_verification(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--games", "1", "--samples", "100"]) == 2
    assert "--samples must be at least 2000" in capsys.readouterr().err
