"""``canasta-tutor lesson check/list/play`` and ``canasta-tutor course``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.tutor.lessons.runner import DEMO

GOOD = DEMO
BAD = DEMO.replace('success = "pack_taken"', 'success = "pack_takn"')


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "lessons"
    d.mkdir()
    (d / "00-demo.toml").write_text(GOOD, encoding="utf-8")
    return d


def test_check_passes_a_good_file(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "check", str(folder / "00-demo.toml")]) == 0
    assert "1 files, 1 lessons, 1 levels checked" in capsys.readouterr().out


def test_check_skips_the_folders_markdown_guides(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    guide = folder / "FORMAT.md"
    guide.write_text("# The lesson file format\n", encoding="utf-8")
    assert main(["lesson", "check", str(folder / "00-demo.toml"), str(guide)]) == 0
    out = capsys.readouterr()
    assert "1 files, 1 lessons, 1 levels checked" in out.out
    assert "FORMAT.md: skipped: a Markdown guide" in out.err


def test_check_exits_2_and_names_file_line_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD, encoding="utf-8")
    assert main(["lesson", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    line = BAD.splitlines().index('success = "pack_takn"') + 1
    assert f"{bad}:{line}: level[0].success: unknown predicate 'pack_takn'" in err


def test_check_json_and_coverage(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = GOOD.replace('success = "pack_taken"', 'rules = ["R-PACK-4"]\nsuccess = "pack_taken"')
    (folder / "00-demo.toml").write_text(text, encoding="utf-8")
    assert main(["lesson", "check", "--coverage", "--json", str(folder / "00-demo.toml")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == [] and data["levels"] == 1
    assert data["coverage"] == {"R-PACK-4": ["demo/take-frozen"]}


def test_check_finds_a_wrong_line_whose_feedback_differs(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = GOOD + '\n[[level.wrong]]\nline = ["discard 4"]\nfeedback = "Something the level never says."\n'
    (folder / "00-demo.toml").write_text(text, encoding="utf-8")
    assert main(["lesson", "check", str(folder / "00-demo.toml")]) == 2
    err = capsys.readouterr().err
    assert "level[0].wrong[0].feedback: the level answers" in err and "[R-TURN-2]" in err


def test_list(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "list", "--dir", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lessons"][0]["id"] == "demo"
    assert data["lessons"][0]["levels"][0]["id"] == "take-frozen"
    assert main(["lesson", "list", "--dir", str(folder)]) == 0
    assert "1. take-frozen: Take the frozen pack" in capsys.readouterr().out


def test_play_json(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "play", "demo", "take-frozen", "--dir", str(folder), "--actions",
                 "discard 4; take 9 9 9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first, second = data["actions"]
    assert first["accepted"] is False and first["rule"] == "R-TURN-2" and first["status"] == "open"
    assert second["accepted"] is True and second["status"] == "passed"
    assert "turn: S meld took-pack" in second["position"]
    assert data["status"] == "passed" and data["stars"] == 2 and data["unplayed"] == []


def test_play_json_answers_a_wrong_move_at_once(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "play", "demo", "take-frozen", "--dir", str(folder), "--actions",
                 "tkae; draw; discard 4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    typo, draw, discard = data["actions"]
    assert typo["accepted"] is False and "unknown action" in typo["feedback"][0]
    # legal but wrong: explained at once, in the hint's words, while the level is still open
    assert draw["accepted"] is True and draw["wrong"] is True and draw["status"] == "open"
    assert draw["feedback"][0].startswith("You drew ")
    assert draw["feedback"][1] == ("This level plays take 9 9 9 here, not draw. "
                                   "Drawing leaves the 4-card pack to the others.")
    assert discard["status"] == "failed" and discard["wrong"] is False
    assert discard["feedback"][-1].startswith("The goal was not reached: Take the pack with your natural pair")
    assert data["status"] == "failed" and data["stars"] == 0


def test_play_json_gives_the_failure_checks_feedback_on_the_real_course(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "play", "first-strategy", "do-not-feed-their-meld", "--actions", "discard 8",
                 "--json"]) == 0
    (only,) = json.loads(capsys.readouterr().out)["actions"]
    assert only["accepted"] is True and only["status"] == "failed"
    assert only["feedback"][-1].startswith("West could put your eight on their eights")


def test_play_by_level_number_and_unknown_names(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "play", "demo", "1", "--dir", str(folder), "--actions", "take 9 9 9"]) == 0
    assert "status: passed, stars: 3" in capsys.readouterr().out
    assert main(["lesson", "play", "nope", "1", "--dir", str(folder)]) == 2
    assert "no lesson 'nope'" in capsys.readouterr().err
    assert main(["lesson", "play", "demo", "9", "--dir", str(folder)]) == 2
    assert "has no level '9'" in capsys.readouterr().err


def test_course_copies_and_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "course"
    assert main(["course", str(dest)]) == 0
    assert (dest / "lessons" / "FORMAT.md").is_file()
    assert (dest / "notebooks").is_dir()
    (dest / "lessons" / "FORMAT.md").write_text("mine", encoding="utf-8")
    assert main(["course", str(dest)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (dest / "lessons" / "FORMAT.md").read_text(encoding="utf-8") == "mine"
    assert main(["course", str(dest), "--force"]) == 0
    assert (dest / "lessons" / "FORMAT.md").read_text(encoding="utf-8") != "mine"


SCORING = DEMO.split("[[level]]")[0] + '''
[[level]]
id = "count-it"
title = "Count it"
goal = "Score the hand."
par = 1
position = """
dealer: E
turn: S hand_over went-out
pile: 5H
N: 4C 9D
E: 6
S: -
W: 5
melds NS: KH KD KS KC KH KD KS (natural canasta)
"""

[level.score]
items = ["canastas", "total"]
'''


def test_play_answers_a_scoring_level_line_by_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lesson play --answer`: the wrong line named with the right figure; then right, passed."""
    (folder / "00-demo.toml").write_text(SCORING, encoding="utf-8")
    assert main(["lesson", "check", str(folder / "00-demo.toml")]) == 0
    capsys.readouterr()
    assert main(["lesson", "play", "demo", "count-it", "--dir", str(folder), "--answer", "500 600",
                 "--answer", "canastas=500 total=655", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first, second = data["actions"]
    assert data["score_lines"] == ["canastas", "total"] and first["wrong"] is True
    assert first["feedback"][0] == "✓ Canasta bonuses: 500."
    assert first["feedback"][1] == ("✗ Hand total: you wrote 600; it is 655. The bonuses and the points together: "
                                    "500 + 0 + 100 + 70 - 15 = 655 (R-SCORE-3).")
    assert second["status"] == "passed" and data["stars"] == 2 and data["tries"] == 2
    assert main(["lesson", "play", "demo", "count-it", "--dir", str(folder)]) == 2
    assert "asks for the hand's score: give it with --answer" in capsys.readouterr().err


def test_check_names_a_scoring_levels_misplaced_fields(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = SCORING.replace("par = 1\n", "par = 1\nsolutions = [[\"draw\"]]\n").replace("hand_over went-out", "meld")
    bad = bad.replace("S: -", "S: 7C 7D")
    (folder / "00-demo.toml").write_text(bad, encoding="utf-8")
    assert main(["lesson", "check", "--no-play", str(folder / "00-demo.toml")]) == 2
    err = capsys.readouterr().err
    assert "level[0].solutions: a scoring level has no 'solutions'" in err
    assert "level[0].position: a scoring level scores a finished hand" in err


def test_check_reads_a_folders_lesson_files_and_subfolders(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "FORMAT.md").write_text("# The lesson file format\n", encoding="utf-8")
    (folder / "families").mkdir()
    (folder / "families" / "01-demo.toml").write_text(GOOD.replace('id = "demo"', 'id = "demo-2"'), encoding="utf-8")
    assert main(["lesson", "check", "--no-play", str(folder)]) == 0
    assert "2 files, 2 lessons, 2 levels checked" in capsys.readouterr().out
    empty = folder.parent / "empty"
    empty.mkdir()
    assert main(["lesson", "check", str(empty)]) == 2
    assert "holds no lesson file" in capsys.readouterr().err
