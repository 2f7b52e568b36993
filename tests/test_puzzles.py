"""Puzzle records: the format (parse/format pair, data only, errors with file, line and
field), the library, the CSV export, the command line and the verification."""

from __future__ import annotations

import csv
import io
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.puzzles import library as puzzles
from canasta_tutor.tutor.puzzles.library import (
    LICHESS_COLUMNS,
    MIN_SAMPLES,
    PuzzleFormatError,
    Verification,
    format_puzzle,
    load_library,
    parse_puzzles,
    problems,
    sample,
    to_csv,
    verify,
)

FORCED = """\
# a comment before the record
puzzle: t-forced
source: composed
objective: hand
solution: draw
accept:
themes: frozen-pack
rating: 1000 350
note: A deuce inside the pile froze it.
position:
  turn: S draw
  pile: 5H 2C 7D 9D
  N: 11
  E: 11
  S: 9H 4D 5S 6C 8D JS QS KD AH AS KH
  W: 11
  melds NS: KS KC KD
verification:
  forced: yes
  engine: 0.1.0
"""

SEARCHED = """\
puzzle: t-searched
source: mined seed=3 deal=1 ply=40
objective: hand
solution: take 9 9 9
accept:
themes: take-frozen-pack
rating: 1700 350
position:
  turn: S draw
  pile: 5H 7C 8D 9S TC 6D QH 9D
  N: 11
  E: 11
  S: 9H 9C 4D 5S 6C 7D JS QS KD AH 3S
  W: 11
  melds NS: KH KS KC
  melds EW: 4H 4C 4S
verification:
  samples: 2000
  seed: 1
  best: take 9 9 9 +205.0
  second: draw -147.0
  difference: 352.0 [300.5, 403.5]
  engine: 0.1.0
"""


def test_parse_and_format_are_a_pair() -> None:
    ps = parse_puzzles(FORCED + "\n" + SEARCHED, "two.txt")
    assert [p.id for p in ps] == ["t-forced", "t-searched"]
    again = parse_puzzles("\n".join(format_puzzle(p) for p in ps))
    assert [format_puzzle(p) for p in again] == [format_puzzle(p) for p in ps]
    v = ps[1].verification
    assert (v.samples, v.seed, v.best, v.second, v.difference, v.low, v.high) == (
        2000, 1, "take 9 9 9", "draw", 352.0, 300.5, 403.5)
    assert ps[0].verification.forced and ps[0].seat == "S"
    assert ps[1].is_correct(("draw",)) is False


def test_the_library_parses_and_formats_back_to_its_files() -> None:
    puzzles = load_library()
    assert len(puzzles) >= 40
    for p in puzzles:
        assert parse_puzzles(format_puzzle(p))[0].to_dict() == p.to_dict()
        assert p.verification.only_move()
        assert p.verification.forced or p.verification.samples >= MIN_SAMPLES


def _error(text: str) -> str:
    with pytest.raises(PuzzleFormatError) as e:
        parse_puzzles(text, "bad.txt")
    return str(e.value)


@pytest.mark.parametrize(("old", "new", "where"), [
    ("rating: 1000 350", "rating: high", "bad.txt:8: rating: expected the rating and its deviation"),
    ("objective: hand", "objective: win", "bad.txt:4: objective: unknown objective 'win'"),
    ("themes: frozen-pack", "themes: frozen-pack shiny", "bad.txt:7: themes: unknown theme 'shiny'"),
    ("solution: draw", "solution: take 9 9 9", "bad.txt:5: solution: 'take 9 9 9' is not legal here"),
    ("solution: draw", "solution: draw, discard 4", "bad.txt:5: solution: 'draw': the line must stop at a draw"),
    ("  N: 11", "  N: 5D 6D 7D 8D 9D TD 4C 4H 5H 6H 7H", "bad.txt:13: position N: the solver (S) cannot see"),
    ("  pile: 5H 2C 7D 9D", "  pile: 5H 2C 7D XX", "bad.txt:12: position pile:"),
    ("source: composed", "source: found it", "bad.txt:3: source: expected 'composed'"),
    ("note: A deuce", "colour: A deuce", "bad.txt:9: colour: unknown field 'colour'"),
    ("  forced: yes", "  forced: maybe", "bad.txt:19: verification forced: expected 'yes'"),
    ("  engine: 0.1.0", "  engine: 0.1.0\n  best: draw +1.0", "bad.txt:21: verification best: a forced puzzle"),
    ("puzzle: t-forced", "puzzle: no spaces allowed", "bad.txt:2: puzzle: an ID is letters"),
])
def test_errors_name_file_line_and_field(old: str, new: str, where: str) -> None:
    assert _error(FORCED.replace(old, new, 1)).startswith(where)


def test_searched_block_errors() -> None:
    assert _error(SEARCHED.replace("samples: 2000", "samples: 500")).startswith(
        "bad.txt:18: verification samples: at least 2000")
    assert _error(SEARCHED.replace("best: take 9 9 9 +205.0", "best: take 9 9 9 205")).startswith(
        "bad.txt:20: verification best: expected 'ACTION +VALUE'")
    assert _error(SEARCHED.replace("difference: 352.0 [300.5, 403.5]", "difference: 352")).startswith(
        "bad.txt:22: verification difference:")
    assert "verification seed: missing" in _error(SEARCHED.replace("  seed: 1\n", ""))
    assert _error(FORCED + FORCED).startswith("bad.txt:22: puzzle: duplicate ID 't-forced'")
    assert _error("hello: world\n").startswith("bad.txt:1: hello: expected 'puzzle: ID'")
    assert "has no 'solution' field" in _error(FORCED.replace("solution: draw\n", ""))


def test_files_are_data_never_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    p = parse_puzzles(FORCED.replace("note: A deuce inside the pile froze it.", f"note: {code}"))[0]
    assert p.note == code and not marker.exists()
    assert "unknown theme" in _error(FORCED.replace("themes: frozen-pack", "themes: {{7*7}}"))
    assert not marker.exists()


def test_csv_has_lichess_columns_then_ours() -> None:
    ps = parse_puzzles(FORCED + SEARCHED)
    rows = list(csv.DictReader(io.StringIO(to_csv(ps))))
    assert list(rows[0])[:10] == LICHESS_COLUMNS
    assert rows[1]["PuzzleId"] == "t-searched" and rows[1]["Moves"] == "take 9 9 9"
    assert rows[1]["FEN"].startswith("turn: S draw / pile: 5H 7C")
    assert rows[1]["Difference"] == "352.0" and rows[0]["Forced"] == "yes"
    assert rows[1]["GameUrl"] == "mined seed=3 deal=1 ply=40"


def test_problems_catches_any_difference_and_the_only_move_rule() -> None:
    p = parse_puzzles(SEARCHED)[0]
    same = p.verification
    assert problems(p, same) == []
    changed = Verification(False, "0.1.0", 2000, 1, "take 9 9 9", 205.0, "draw", -147.1, 352.1, 300.6, 403.6)
    assert problems(p, changed)[0].startswith("verification differs: 'second: draw -147.0' recomputed as")
    close = Verification(False, "0.1.0", 2000, 1, "take 9 9 9", 205.0, "draw", 175.0, 30.0, 10.0, 50.0)
    assert any("only-move rule" in x for x in problems(p, close))
    wrong = Verification(False, "0.1.0", 2000, 1, "draw", 205.0, "take 9 9 9", 100.0, 105.0, 50.0, 160.0)
    assert any("prefers 'draw'" in x for x in problems(p, wrong))


def test_forced_puzzle_verifies_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    assert verify(parse_puzzles(FORCED)[0]) == []
    monkeypatch.setattr(puzzles, "MIN_SAMPLES", 24)  # the search that shows the difference, kept short
    # without the deuce and with a pair of nines the pack may be taken: no longer forced
    bad = parse_puzzles(FORCED.replace("pile: 5H 2C 7D 9D", "pile: 5H 7C 7D 9D").replace("S: 9H 4D", "S: 9H 9C"))[0]
    assert verify(bad)[0].startswith("verification differs: 'forced: yes' recomputed as 'samples: 24'")


def test_sample_is_seeded_and_keeps_library_order() -> None:
    ps = load_library()
    a, b = sample(ps, 5, 7), sample(ps, 5, 7)
    assert [p.id for p in a] == [p.id for p in b] and len(a) == 5
    order = [p.id for p in ps]
    assert [order.index(p.id) for p in a] == sorted(order.index(p.id) for p in a)


def test_cli_list_and_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "one.txt").write_text(FORCED)
    assert main(["puzzles", "list", "--json", "--folder", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["puzzles"][0]["id"] == "t-forced" and data["puzzles"][0]["solution"] == ["draw"]
    assert main(["puzzles", "verify", "--folder", str(tmp_path), "--no-progress"]) == 0
    assert "1 of 1 puzzles verified" in capsys.readouterr().out
    (tmp_path / "one.txt").write_text(FORCED.replace("rating: 1000 350", "rating: x"))
    assert main(["puzzles", "list", "--folder", str(tmp_path)]) == 2
    assert "one.txt:8: rating:" in capsys.readouterr().err
    assert main(["puzzles", "list", "--csv"]) == 0
    assert capsys.readouterr().out.startswith(",".join(LICHESS_COLUMNS))


VERIFY_SAMPLE = int(os.environ.get("PUZZLE_VERIFY_SAMPLE", "20"))


def _verify_one(pid: str) -> list[str]:
    return verify(next(p for p in load_library() if p.id == pid))


@pytest.mark.slow
def test_a_seeded_sample_of_the_library_verifies() -> None:
    """A seeded sample of 20 puzzles, each recomputed at its own sample count from its seed,
    on every core."""
    ids = [p.id for p in sample(load_library(), VERIFY_SAMPLE, 2026)]
    assert len(ids) == min(VERIFY_SAMPLE, len(load_library()))
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        failures = dict(zip(ids, pool.map(_verify_one, ids), strict=True))
    assert {k: v for k, v in failures.items() if v} == {}


def test_complete_rates_a_new_puzzle_as_mining_does() -> None:
    import dataclasses

    from canasta_tutor.tutor.puzzles.starting_rating import starting_rating

    rated = next(p for p in puzzles.load_library() if p.id == "c01-frozen-by-wild-card")
    new = dataclasses.replace(rated, rating=1500.0, rd=350.0)
    done = puzzles.complete(new, rating_seeds=2)
    start = starting_rating(new.state(), new.answers(), seeds=2)
    assert (done.rating, done.rd) == (start.rating, start.rd) and done.rd < 350
    assert done.verification.forced and "frozen-pack" in done.themes
    kept = puzzles.complete(rated, rating_seeds=2)  # a rated puzzle keeps its rating
    assert (kept.rating, kept.rd) == (rated.rating, rated.rd)


def test_an_answer_phase_puzzle_is_written_and_listed_like_any_other(capsys: pytest.CaptureFixture[str]) -> None:
    """The partner's answer to "may I go out?": the position's turn is the asker's (``turn: S
    answer asked``), the solver is the partner who must answer, and the solution is yes or no."""
    (p,) = [q for q in puzzles.load_library() if q.id == "c59-answer-no-points-in-hand"]
    state = p.state()
    assert (state.phase, p.seat, state.turn) == ("answer", "N", 2)
    assert state.legal_actions() == [("yes",), ("no",)] and p.answers() == [("no",)]
    assert "ask-partner" in p.themes and not p.verification.forced and p.verification.only_move()
    assert puzzles.parse_puzzles(puzzles.format_puzzle(p), "x.txt")[0].to_dict() == {**p.to_dict()}
    assert main(["puzzles", "list", "--json", "--id", p.id]) == 0
    (listed,) = json.loads(capsys.readouterr().out)["puzzles"]
    assert listed["seat"] == "N" and listed["solution"] == ["no"] and listed["second"] == "yes"
    assert main(["puzzles", "list", "--id", "c99-none"]) == 2
    assert "no puzzle 'c99-none'" in capsys.readouterr().err


def test_verify_one_puzzle_by_its_id(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta_tutor.bots import native

    assert main(["puzzles", "verify", "--id", "c01-frozen-by-wild-card", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["puzzles"] == 1
    assert out["engine"] == native.engine_name()  # the verifier searches on the compiled copy where it is built


@pytest.mark.slow
def test_the_answer_phase_puzzle_verifies() -> None:
    (p,) = [q for q in puzzles.load_library() if q.id == "c59-answer-no-points-in-hand"]
    assert puzzles.verify(p) == []
