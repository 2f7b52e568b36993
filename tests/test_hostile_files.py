"""Hostile files: each is refused on its own, with its name and reason, and nothing else stops.

Student logs in ``class grade`` (a huge number, deep nesting, a folder, a FIFO, a link to a device),
assignment files with ``nan`` points, lesson files that are not UTF-8 or nest too deeply, and the
bounded reader (:mod:`canasta_tutor.notation.textinput`) every file goes through.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from canasta_tutor.cli.main import main
from canasta_tutor.engine.errors import InputFileError, NotationError
from canasta_tutor.notation.textinput import load_json, load_toml, read_bytes, read_file_text, read_lines
from canasta_tutor.tutor.assignments.grading import LogError, grade_item, grade_log, log_path, read_attempts
from canasta_tutor.tutor.assignments.spec import Item, check_text, load_assignment
from canasta_tutor.tutor.assignments.student import play_item, solution_line

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "assignment-week-1.toml"
HEAD = 'id = "w"\ntitle = "W"\n'
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def _item(**kw) -> Item:
    base = dict(id="x", kind="level", lesson="melds", level="natural-meld", points=10, hint_penalty=2)
    base.update(kw)
    return Item(**base)


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


# ------------------------------------------------------------------ the bounded reader
@needs_fifo
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = _fifo(tmp_path / "pipe.txt")
    done = []

    def read() -> None:
        try:
            read_bytes(fifo, 1000)
        except InputFileError as e:
            done.append(str(e))

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(5)
    assert done and "FIFO" in done[0] and "pipe.txt" in done[0]
    with pytest.raises(InputFileError, match="FIFO"):
        list(read_lines(str(fifo)))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_devices_folders_and_links_to_devices_are_not_read(tmp_path):
    link = tmp_path / "log.json"
    link.symlink_to("/dev/zero")
    for path, what in ((link, "a device"), (Path("/dev/zero"), "a device"), (tmp_path, "a folder")):
        with pytest.raises(InputFileError, match=what):
            read_bytes(path, 10)


def test_the_size_limit_is_checked_on_the_open_file(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 101)
    with pytest.raises(InputFileError, match="101 bytes, larger than the limit of 100"):
        read_bytes(big, 100)
    assert read_bytes(big, 101) == b"x" * 101


def test_text_that_is_not_utf8_names_its_line(tmp_path):
    f = tmp_path / "lesson.toml"
    f.write_bytes(b'id = "a"\n\ntitle = "\xff"\n')
    with pytest.raises(NotationError) as e:
        read_file_text(f, 1000)
    assert e.value.line == 3 and e.value.source == str(f) and "not UTF-8" in e.value.message


@pytest.mark.parametrize("text, words", [
    ("[" * 200_000 + "]" * 200_000, "nested more than"),
    ("9" * 5000, "a number of 5000 characters"),
    ('{"a": 1e999}', "'1e999' is not a finite number"),
    ('{"a": NaN}', "'NaN' is not a finite number"),
    ('{"a": -Infinity}', "'-Infinity' is not a finite number"),
    ('{"a": [1, 2}', "not valid JSON"),
])
def test_json_is_parsed_within_limits(text, words):
    with pytest.raises(NotationError, match=words) as e:
        load_json(text, "log.json")
    assert e.value.source == "log.json"


@pytest.mark.parametrize("text, words, line", [
    ("a = 1\nb = nan\n", "'nan' is not a finite number", 2),
    ("a = [1, inf]\n", "'inf' is not a finite number", 1),
    ("a = 1\nb = " + "9" * 5000 + "\n", "a number too long", 2),
    ("a = " + "9" * 60 + "\n", "a number too long", 1),
    ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nested more than", None),
    ("a = " + "[" * 40 + "]" * 40 + "\n", "nested more than", None),
])
def test_toml_is_parsed_within_limits(text, words, line):
    with pytest.raises(NotationError, match=words) as e:
        load_toml(text, "lesson.toml")
    assert e.value.source == "lesson.toml" and e.value.line == line


# ------------------------------------------------------------------ grading: one bad log fails alone
HOSTILE_LOGS = {
    "huge-number": lambda p: p.write_text('{"format": 1, "item": "ID", "attempts": [], "x": ' + "9" * 5000 + "}"),
    "deep": lambda p: p.write_text("[" * 200_000 + "]" * 200_000),
    "folder": lambda p: p.mkdir(),
    "oversized": lambda p: p.write_text(" " * 1_000_001),
    "not-utf8": lambda p: p.write_bytes(b'{"format": 1, "item": "\xff"}'),
    "nan-in-log": lambda p: p.write_text('{"format": 1, "item": "ID", "attempts": [], "x": NaN}'),
}
if os.path.exists("/dev/zero"):
    HOSTILE_LOGS["link-to-dev-zero"] = lambda p: p.symlink_to("/dev/zero")
if hasattr(os, "mkfifo"):
    HOSTILE_LOGS["fifo"] = _fifo


@pytest.mark.parametrize("kind", sorted(HOSTILE_LOGS))
def test_a_hostile_log_scores_zero_with_its_reason_and_names_the_file(tmp_path, kind):
    item = _item()
    path = log_path(item, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    HOSTILE_LOGS[kind](path)
    with pytest.raises(LogError, match=r"^x\.json: "):
        read_attempts(path, item)
    g = grade_log(item, tmp_path)
    assert g.score == 0 and g.message.startswith("x.json: ") and not g.solved
    assert grade_item(item.to_dict(), tmp_path) == 0  # the test cell: a line, never a hang or a traceback


def test_class_grade_grades_every_other_student_when_logs_are_hostile(tmp_path, capsys):
    a = load_assignment(EXAMPLE)
    puzzle = next(i for i in a.items if i.puzzle == "c22-take-the-pack")
    good = tmp_path / "submitted" / "s01" / "week-1" / "canasta-log"
    play_item(puzzle, [solution_line(puzzle)], good)
    for n, (kind, make) in enumerate(sorted(HOSTILE_LOGS.items())):
        folder = tmp_path / "submitted" / f"s{n}-{kind}" / "week-1" / "canasta-log"
        folder.mkdir(parents=True)
        play_item(puzzle, [solution_line(puzzle)], folder)  # a good log of one item beside the hostile one
        make(folder / f"{a.items[0].id}.json")
    capsys.readouterr()
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path), "--json", "--no-store"]) == 0
    out = json.loads(capsys.readouterr().out)
    totals = {s["student"]: s["total"] for s in out["students"]}
    assert len(totals) == 1 + len(HOSTILE_LOGS)
    assert all(t == puzzle.points for t in totals.values()), totals
    capsys.readouterr()
    assert main(["class", "grade", str(EXAMPLE), "--course", str(tmp_path), "--no-store"]) == 0
    text = capsys.readouterr().out
    assert f"{1 + len(HOSTILE_LOGS)} submissions of week-1 replayed" in text


def test_a_log_that_breaks_the_replay_scores_zero_and_the_class_goes_on(tmp_path, monkeypatch):
    from canasta_tutor.tutor.assignments import regrade

    a = load_assignment(EXAMPLE)
    puzzle = next(i for i in a.items if i.puzzle == "c22-take-the-pack")
    for student in ("s01", "s02"):
        play_item(puzzle, [solution_line(puzzle)], tmp_path / "submitted" / student / "week-1" / "canasta-log")
    real = regrade.replay_item_log

    def fragile(item, entries, student, *args, **kwargs):
        if student == "s01":
            raise ValueError("a replay that breaks")
        return real(item, entries, student, *args, **kwargs)

    monkeypatch.setattr(regrade, "replay_item_log", fragile)
    results = {r.student: r for r in regrade.grade_course(a, tmp_path)}
    broken = next(g for g in results["s01"].grades if g.item == puzzle.id)
    assert broken.score == 0 and "could not be replayed (ValueError: a replay that breaks)" in broken.message
    assert results["s01"].attempts == []
    assert results["s02"].total == puzzle.points


# ------------------------------------------------------------------ assignment files: finite points
@pytest.mark.parametrize("field", ["points", "hint_penalty"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_points_and_penalties_must_be_finite(field, value):
    body = HEAD + f'[[item]]\npuzzle = "c22-take-the-pack"\npoints = 5\n{field} = {value}\n'.replace(
        "points = 5\npoints", "points")
    problems = check_text(body, "w.toml")
    line = 5 if field == "points" else 6
    assert problems and "is not a finite number" in problems[0].message and problems[0].line == line
    assert problems[0].file == "w.toml"


def test_class_check_refuses_nan_and_the_test_cell_never_holds_a_bare_nan(tmp_path, capsys):
    bad = tmp_path / "nan.toml"
    bad.write_text(HEAD + '[defaults]\nhint_penalty = nan\n[[item]]\npuzzle = "c22-take-the-pack"\npoints = 5\n')
    assert main(["class", "check", str(bad), str(EXAMPLE)]) == 2
    captured = capsys.readouterr()
    assert f"{bad}:4: 'nan' is not a finite number" in captured.err
    assert "week-1: 10 items" in captured.out  # the good file is still checked
    for value in (float("nan"), float("inf"), -1, True, "5"):
        with pytest.raises(ValueError, match="is not a number of points"):
            Item.from_dict({"id": "p", "kind": "puzzle", "puzzle": "c22-take-the-pack", "points": value})


@needs_fifo
def test_class_check_names_a_fifo_and_a_missing_file_and_checks_the_rest(tmp_path, capsys):
    fifo = _fifo(tmp_path / "pipe.toml")
    assert main(["class", "check", str(fifo), str(tmp_path / "gone.toml"), str(EXAMPLE)]) == 2
    captured = capsys.readouterr()
    assert f"{fifo}: a FIFO (named pipe), not a file" in captured.err
    assert f"{tmp_path / 'gone.toml'}: cannot read it: No such file or directory" in captured.err
    assert "week-1: 10 items" in captured.out


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_class_check_does_not_read_dev_zero(capsys):
    assert main(["class", "check", "/dev/zero", str(EXAMPLE)]) == 2
    captured = capsys.readouterr()
    assert "/dev/zero: a device, not a file: only regular files are read" in captured.err
    assert "week-1: 10 items" in captured.out


# ------------------------------------------------------------------ lesson files: one bad file fails alone
def test_lesson_check_names_a_file_that_is_not_utf8_or_nests_too_deeply_and_checks_the_rest(tmp_path, capsys):
    good = ROOT / "lessons" / "02-melds.toml"
    text = good.read_text(encoding="utf-8")
    latin = tmp_path / "latin.toml"
    latin.write_bytes(text.replace('title = "', 'title = "caf\xe9 ', 1).encode("latin-1", "replace"))
    deep = tmp_path / "deep.toml"
    deep.write_text(text + "\nextra = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    wide = tmp_path / "wide.toml"
    wide.write_text(text + "\nextra = " + "9" * 5000 + "\n", encoding="utf-8")
    assert main(["lesson", "check", "--no-play", str(latin), str(deep), str(wide), str(good)]) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    line = next(n for n, x in enumerate(text.splitlines(), 1) if x.startswith("title = "))
    assert f"{latin}:{line}: the file is not UTF-8 text (invalid continuation byte at byte 13 of the line)" in err
    assert f"{deep}: TOML nested more than 32 deep" in err
    assert any(x.startswith(f"{wide}:") and "a number too long to read" in x for x in err)
    assert len(err) == 3
    assert "4 files, 1 lessons" in captured.out  # the good file is still read and checked
