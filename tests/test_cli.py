"""The canasta-tutor command line: every subcommand, exit codes 0/1/2, --json, one-line errors."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.cli.main import main
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.notation.record import format_record


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "deal.txt"
    path.write_text(format_position(Game().new_initial_state(3)), encoding="utf-8")
    return path


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    rng = random.Random(5)
    state = Game().new_initial_state(5)
    while len(state.hand_results) < 2:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.txt"
    path.write_text(format_record(state), encoding="utf-8")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("canasta-tutor: error: ")
    assert "Traceback" not in err


# ------------------------------------------------------------------- deal
def test_deal_prints_the_seeded_position(capsys) -> None:
    code, out, err = run(capsys, "deal", "--seed", "3")
    assert code == 0 and err == ""
    assert out.strip() == format_position(Game().new_initial_state(3)).strip()
    assert parse_position(out).hand("S") == Game().new_initial_state(3).hand("S")


def test_deal_with_scores_and_options_json(capsys) -> None:
    """R-MIN-1: the starting totals set the minimums; options are carried in the position."""
    code, out, _ = run(capsys, "deal", "--seed", "4", "--score-ns", "1500", "--score-ew", "-20",
                       "--options", "black_three=stops", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["seed"] == 4 and data["totals"] == [1500, -20]
    assert data["options"] == "black_three=stops"
    state = parse_position(data["position"])
    assert state.minimums == [90, 15]
    assert state.options.black_three == "stops"


def test_json_flag_before_the_subcommand(capsys) -> None:
    code, out, _ = run(capsys, "--json", "deal", "--seed", "1")
    assert code == 0 and "position" in json.loads(out)


# ------------------------------------------------------------------ legal
def test_legal_lists_formatted_actions(capsys, position_file: Path) -> None:
    code, out, _ = run(capsys, "legal", str(position_file))
    assert code == 0
    state = parse_position(position_file.read_text())
    from canasta_tutor.notation.actions import format_action

    assert out.split("\n")[:-1] == [format_action(a) for a in state.legal_actions()]
    assert "draw" in out.splitlines()


def test_legal_json(capsys, position_file: Path) -> None:
    code, out, _ = run(capsys, "legal", str(position_file), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["actor"] == "S" and data["phase"] == "draw" and "draw" in data["actions"]


def test_legal_reads_stdin(capsys, monkeypatch, position_file: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(position_file.read_text()))
    code, out, _ = run(capsys, "legal", "-")
    assert code == 0 and "draw" in out.splitlines()


# ------------------------------------------------------------------- play
def test_play_applies_actions(capsys, position_file: Path) -> None:
    state = parse_position(position_file.read_text())
    state.apply(("draw",))
    discard = next(a for a in state.legal_actions() if a[0] == "discard")
    from canasta_tutor.notation.actions import format_action

    code, out, err = run(capsys, "play", str(position_file), "draw", format_action(discard))
    assert code == 0, err
    after = parse_position(out)
    assert after.current_seat == "W" and after.phase == "draw"


def test_play_illegal_action_exits_1_with_rule(capsys, position_file: Path) -> None:
    """R-TURN-2: melding before drawing is refused, with the rule's ID."""
    code, out, err = run(capsys, "play", str(position_file), "meld K K K")
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("illegal action 'meld K K K': ") and lines[0].endswith("[R-TURN-2]")


def test_play_illegal_action_json(capsys, position_file: Path) -> None:
    code, out, _ = run(capsys, "play", str(position_file), "discard 7", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["rule"] == "R-TURN-2" and data["action"] == "discard 7" and data["error"]


def test_play_malformed_action_exits_2(capsys, position_file: Path) -> None:
    code, _, err = run(capsys, "play", str(position_file), "meld K Q K")
    assert code == 2
    assert_one_line_error(err)
    assert "a meld holds one rank" in err


# ----------------------------------------------------------------- replay
def test_replay_prints_scores(capsys, record_file: Path) -> None:
    code, out, err = run(capsys, "replay", str(record_file))
    assert code == 0, err
    assert "hand 1:" in out and "hand 2:" in out and "totals: NS" in out
    assert "result line: matches" in out


def test_replay_json(capsys, record_file: Path) -> None:
    code, out, _ = run(capsys, "replay", str(record_file), "--json")
    data = json.loads(out)
    assert code == 0 and data["result_ok"] is True
    assert len(data["hands"]) == 2
    assert set(data["totals"]) == {"NS", "EW"}
    assert data["hands"][-1]["totals"] == data["totals"]


def test_replay_wrong_result_exits_1(capsys, record_file: Path, tmp_path: Path) -> None:
    text = record_file.read_text()
    lines = [ln if not ln.startswith("result:") else "result: NS 1 EW 1" for ln in text.splitlines()]
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 1
    assert "DISAGREES" in out
    assert len(err.strip().splitlines()) == 1 and "disagrees" in err


def test_replay_illegal_record_exits_2(capsys, record_file: Path, tmp_path: Path) -> None:
    lines = record_file.read_text().splitlines()
    i = lines.index("actions:") + 1
    lines[i] = lines[i].split()[0] + " discard JK"   # discarding before drawing
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert_one_line_error(err)
    assert f"line {i + 1}" in err and "[R-" in err


# --------------------------------------------------------------- selfplay
def test_selfplay_text(capsys) -> None:
    code, out, err = run(capsys, "selfplay", "--hands", "5", "--seed", "4", "--no-check")
    assert code == 0
    assert "hands: 5" in out and "hands per second" in out and "microseconds per action" in out
    assert "invariant violations: 0" in out
    assert err == ""  # stderr is not a terminal here: no progress bar


def test_selfplay_json(capsys) -> None:
    code, out, _ = run(capsys, "selfplay", "--hands", "5", "--seed", "4", "--json")
    data = json.loads(out)
    for key in ("hands", "actions", "hands_per_s", "us_per_action", "violations"):
        assert key in data
    assert data["hands"] == 5
    assert code == (1 if data["violations"] else 0)


def test_selfplay_violations_exit_1(capsys, monkeypatch) -> None:
    import canasta_tutor.bots.selfplay as sp

    monkeypatch.setattr(sp, "check_invariants", lambda state, start_totals=None: ["planted"])
    code, out, _ = run(capsys, "selfplay", "--hands", "2", "--seed", "1", "--engine", "python")
    assert code == 1 and "planted" in out and "engine: python" in out


def test_selfplay_says_which_engine_ran(capsys) -> None:
    """The report names the engine: the compiled copy where it is built (the default), else plain Python."""
    from canasta_tutor.bots import native

    code, out, _ = run(capsys, "selfplay", "--hands", "3", "--seed", "4", "--no-check", "--json")
    assert json.loads(out)["engine"] == native.engine_name()
    code, out, _ = run(capsys, "selfplay", "--hands", "3", "--seed", "4", "--no-check", "--engine", "python")
    assert "engine: python" in out


def test_selfplay_on_the_compiled_copy_says_why_it_cannot(capsys, monkeypatch) -> None:
    from canasta_tutor.bots import native

    monkeypatch.setenv(native.PURE_ENV, "1")
    code, out, err = run(capsys, "selfplay", "--hands", "3", "--engine", "compiled")
    assert code == 2 and "--engine compiled: CANASTA_TUTOR_PURE is set" in err and out == ""


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv", [
    ["legal", "no-such-file.txt"],
    ["play", "no-such-file.txt", "draw"],
    ["replay", "no-such-file.txt"],
    ["selfplay", "--hands", "-3"],
    ["deal", "--options", "black_three=sometimes"],
    ["deal", "--options", "colour=blue"],
    ["deal", "--seed", "abc"],
    ["bogus"],
    [],
    ["play"],
])
def test_bad_input_is_one_line_exit_2(capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert_one_line_error(err)


def test_malformed_position_is_one_line_exit_2(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("turn: S draw\nS: 7H 7H 7H 7H 7H\n")
    code, _, err = run(capsys, "legal", str(bad))
    assert code == 2
    assert_one_line_error(err)


def test_directory_instead_of_file(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "legal", str(tmp_path))
    assert code == 2
    assert_one_line_error(err)


def test_bad_input_json_error_object(capsys) -> None:
    code, out, err = run(capsys, "legal", "no-such-file.txt", "--json")
    assert code == 2 and "error" in json.loads(out)
    assert_one_line_error(err)


def test_help_exits_0(capsys) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "selfplay" in out


def test_python_dash_m_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "canasta_tutor", "play", "nonexistent-file", "draw"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == ["canasta-tutor: error: no such file: 'nonexistent-file'"]


def test_python_dash_m_missing_action_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "canasta_tutor", "play", "nonexistent-file"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_hint_help_states_the_budget_the_hint_uses(capsys):
    """Issue 31: ``hint --help`` once named a budget of 240 playouts the hint no longer used."""
    from canasta_tutor.hint import DROP_Z, race_budget
    from canasta_tutor.engine.variants import VARIANTS

    assert main(["hint", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"a race of {race_budget(VARIANTS['classic'])} playouts in classic" in text
    for v in VARIANTS.values():
        if v.name != "classic":
            assert f"{v.name} {race_budget(v)}" in text
    assert f"{DROP_Z:g} standard errors" in text and "240" not in text
