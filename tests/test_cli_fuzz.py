"""Command-line fuzz cases: hostile numbers, files and pipes never show a traceback, exit only with
0, 1 or 2, and end within a few seconds."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from canasta_tutor import Game
from canasta_tutor.cli.main import main
from canasta_tutor.notation.position import EXAMPLE, format_position

NUMBERS = ["0", "-1", "-5", "1", "1e9", "nan", "inf", "-inf", "0x10", "9" * 4300, "100000000", "2.5", "", " ",
           "١٢", "1_000"]
OPTIONS = [("match", "random", "random", "--deals"), ("match", "random", "random", "--workers"),
           ("match", "random", "random", "--iterations"), ("match", "random", "random", "--budget"),
           ("match", "random", "random", "--seed"), ("selfplay", "--hands"), ("selfplay", "--seed"),
           ("deal", "--seed"), ("deal", "--score-ns"), ("hint", "-", "--budget"), ("hint", "-", "--seed")]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str, float]:
    # CPU time, not wall time: a loaded machine must not fail the check that nothing runs away
    start = time.process_time()
    code = main(argv)
    took = time.process_time() - start
    out, err = capsys.readouterr()
    return code, out, err, took


def _clean(code: int, out: str, err: str, took: float) -> None:
    assert code in (0, 1, 2), code
    assert "Traceback" not in out + err
    assert took < 5, f"took {took:.1f} s"
    assert all(len(line) < 1200 for line in (out + err).splitlines() if line.startswith("canasta-tutor"))


@pytest.mark.parametrize("where", OPTIONS, ids=" ".join)
def test_numeric_options_are_range_checked(capsys: pytest.CaptureFixture[str], where: tuple[str, ...],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    for value in NUMBERS:
        if value in ("1", "0") and where[0] in ("match", "selfplay", "hint"):
            continue  # a real run: covered by the command tests
        monkeypatch.setattr("sys.stdin", io.StringIO(EXAMPLE))
        small = {"match": ["--deals", "1"], "selfplay": ["--hands", "1"]}.get(where[0], [])
        if where[-1] in ("--deals", "--hands"):
            small = []
        code, out, err, took = _run(capsys, [*where, value, *small])
        _clean(code, out, err, took)
        bad = {"-5", "nan", "inf", "", "9" * 4300, "1_000", "١٢", "0x10"}
        if where[-1] == "--score-ns":
            bad.discard("-5")
        else:
            bad.add("-1")
        if where[-1] != "--seed":
            bad.add("100000000")
        if value in bad:
            assert code == 2 and "Traceback" not in err, (where, value, err)


@pytest.mark.parametrize("flag", ["--iterations", "--deals", "--workers"])
@pytest.mark.parametrize("value", ["0", "-5"])
def test_match_counts_must_be_positive(capsys: pytest.CaptureFixture[str], flag: str, value: str) -> None:
    code, out, err, took = _run(capsys, ["match", "random", "random", flag, value])
    _clean(code, out, err, took)
    assert code == 2 and flag in err


def _files(tmp: Path) -> list[Path]:
    text = format_position(Game().new_initial_state(seed=4))
    cases = {
        "bom.txt": ("\ufeff" + text).encode("utf-8"),
        "latin1.txt": "N: 11 caf\xe9\n".encode("latin-1"),
        "binary.bin": bytes(range(256)) * 4,
        "zeros.bin": b"\0" * 100_000,
        "long_line.txt": b"turn: " + b"S" * 200_000 + b"\n",
        "parens.txt": ("turn: S draw\nmelds NS: " + "(" * 60_000 + "\n").encode(),
        "many_lines.txt": b"# comment\n" * 200_000,
        "empty.txt": b"",
        "crlf.txt": text.replace("\n", "\r\n").encode(),
        "huge_count.txt": text.replace("N: 11 cards", "N: " + "9" * 4300).encode(),
        "dead_end.txt": b"dealer: E\nturn: S meld answer=yes\npile: 9D\nN: 11\nE: 11\nS: 4D 5C\nW: 11\n",
    }
    out = []
    for name, data in cases.items():
        path = tmp / name
        path.write_bytes(data)
        out.append(path)
    return out


@pytest.mark.parametrize("command", ["legal", "hint", "replay", "play"])
def test_hostile_files(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    for path in [*_files(tmp_path), tmp_path, tmp_path / "missing.txt"]:
        argv = [command, str(path)] + (["draw"] if command == "play" else [])
        code, out, err, took = _run(capsys, argv)
        _clean(code, out, err, took)
        if path.name in ("binary.bin", "zeros.bin", "long_line.txt", "parens.txt", "dead_end.txt", "latin1.txt"):
            assert code == 2, (path.name, err)
            assert path.name in err or str(path) in err, err  # the message names the file


def test_decoding_errors_name_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "lesson.txt"
    path.write_bytes(b"turn: S draw\nN: 11\xff\n")
    code, _, err, _ = _run(capsys, ["legal", str(path)])
    assert code == 2 and "lesson.txt" in err and "line 2" in err and "UTF-8" in err


def test_dead_end_position_is_refused_not_a_crash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`turn: S meld answer=yes` with S holding 4D 5C: legal and hint refuse it (exit 2)."""
    path = tmp_path / "p.txt"
    path.write_text("dealer: E\nturn: S meld asked-after-draw answer=yes\npile: 9D\nN: 11\nE: 11\nS: 4D 5C\nW: 11\n")
    for command in ("legal", "hint"):
        code, out, err, _ = _run(capsys, [command, str(path)])
        assert code == 2 and "go out" in err and "line 2" in err


def test_a_hundred_thousand_character_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(EXAMPLE)
    code, out, err, took = _run(capsys, ["play", str(path), "meld " + "K" * 100_000])
    _clean(code, out, err, took)
    assert code == 2 and len(err) < 1200


def test_a_huge_record_reports_line_8_at_once(tmp_path: Path) -> None:
    """A 50 MB record with a bad action on line 8: refused at once, without reading it all."""
    path = tmp_path / "big.txt"
    with path.open("w") as f:
        f.write("seed: 1\nplayers: N, E, S, W\ndealer: E\nactions:\nS draw\nS discard 4\nW draw\nW fly\n")
        chunk = "N draw\n" * 100_000
        for _ in range(70):
            f.write(chunk)
    assert path.stat().st_size > 49_000_000
    start = time.perf_counter()
    from canasta_tutor.notation.record import load_record

    with pytest.raises(Exception) as info:
        load_record(str(path))
    assert time.perf_counter() - start < 2
    assert "line 8" in str(info.value)


def _cli(*argv: str, stdin: bytes | None = None, timeout: float = 20) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "canasta_tutor", *argv], input=stdin, capture_output=True,
                          timeout=timeout, env=env)


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_broken_pipe_ends_quietly(json_flag: list[str]) -> None:
    """`canasta-tutor deal --seed 7 | head -1` ends with no traceback and exit 0."""
    cmd = f"{sys.executable} -m canasta_tutor deal --seed 7 {' '.join(json_flag)} | head -c 1 >/dev/null; " \
          "echo ${PIPESTATUS[0]}"
    done = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], capture_output=True, timeout=20, text=True)
    assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0"


def test_version() -> None:
    from canasta_tutor import __version__

    done = _cli("--version")
    assert done.returncode == 0 and done.stdout.decode().strip() == f"canasta-tutor {__version__}"


def test_dev_zero_ends_quickly() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    start = time.perf_counter()
    done = _cli("legal", "/dev/zero")
    assert time.perf_counter() - start < 10
    assert done.returncode == 2 and b"Traceback" not in done.stderr and b"/dev/zero" in done.stderr
