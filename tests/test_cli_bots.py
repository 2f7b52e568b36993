"""The command line's hint and match commands."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from canasta_tutor.cli.main import main

POSITION = """\
turn: S meld
pile: 4H 6C 8D 9S TC 6D QH 4D QS TD
N: 11
E: 11
S: 3S 5D 7H 9H JD KC
W: 11
melds NS: AH AC AD
melds EW: 5H 5C 5S; 7C 7S 7D; 9C 9D 9S; JH JC JS; KH KS KD
"""


def test_hint_json(tmp_path, capsys):
    f = tmp_path / "pos.txt"
    f.write_text(POSITION)
    assert main(["hint", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] == "discard 3"
    assert {"best", "alternatives", "principles", "elapsed_ms"} <= set(data)
    assert all({"action", "value", "why"} <= set(a) for a in data["alternatives"])
    assert data["seat"] == "S"


def test_hint_text_and_budget(tmp_path, capsys):
    f = tmp_path / "pos.txt"
    f.write_text(POSITION)
    assert main(["hint", str(f), "--budget", "0.2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Best: ") and "sampled deals" in out


def _hint_json(f, *extra):
    out = subprocess.run([sys.executable, "-m", "canasta_tutor", "hint", str(f), "--json", *extra],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    data.pop("elapsed_ms")
    return data


# Slow (two hints in two new processes): `make test` runs it; the quick loop keeps the in-process hint tests.
@pytest.mark.slow
def test_hint_is_deterministic_across_runs(tmp_path):
    """Two separate processes, same file and seed: the same hint, field for field (no wall-clock cap)."""
    f = tmp_path / "pos.txt"
    f.write_text(POSITION)
    a, b = _hint_json(f, "--samples", "12"), _hint_json(f, "--samples", "12")
    assert a == b and a["samples"] == 12


def test_hint_samples_option(tmp_path, capsys):
    f = tmp_path / "pos.txt"
    f.write_text(POSITION)
    assert main(["hint", str(f), "--samples", "8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == 8
    assert main(["hint", str(f), "--samples", "0"]) == 2


def test_hint_bad_input_is_one_line(tmp_path, capsys):
    assert main(["hint", str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    f = tmp_path / "pos.txt"
    f.write_text(POSITION)
    assert main(["hint", str(f), "--budget", "-1"]) == 2


def test_match_json(capsys):
    assert main(["match", "rules-of-thumb", "random", "--deals", "6", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"deals", "a_win_share", "margin_mean", "margin_ci95"} <= set(data)
    assert data["deals"] == 6 and data["hands"] == 12
    lo, hi = data["margin_ci95"]
    assert lo <= data["margin_mean"] <= hi


def test_match_expert_small(capsys):
    assert main(["match", "expert", "rules-of-thumb", "--deals", "1", "--iterations", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 1


def test_match_bad_bot_and_no_traceback():
    r = subprocess.run([sys.executable, "-m", "canasta_tutor", "match", "nobody", "random"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1
    assert "unknown bot 'nobody'" in r.stderr
