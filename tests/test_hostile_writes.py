"""Nothing on disk is left half-written: rewrites go through a temporary file and a rename,
appends are truncated back when the disk fills, and ``course --force`` never writes through a
symbolic link out of its folder.

A full disk is made for real in a child process: ``RLIMIT_FSIZE`` caps the size of any file it
writes, so the kernel refuses the rest of a write part way (``EFBIG``), as a full disk does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from canasta_tutor.tutor.atomicfile import UnsafePathError, append_atomic, inside, write_atomic
from canasta_tutor.cli.main import main
from canasta_tutor.tutor.puzzles.library import format_puzzle, load_file, load_library

ROOT = Path(__file__).resolve().parent.parent
limits = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="needs RLIMIT_FSIZE")


def _capped(code: str, cap: int) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child whose files may not grow past ``cap`` bytes."""
    head = textwrap.dedent(f"""
        import resource, signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({cap}, {cap}))
    """)
    return subprocess.run([sys.executable, "-c", head + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def _records(n: int) -> list[str]:
    return [format_puzzle(p) for p in load_library()[:n]]


# ------------------------------------------------------------------ appends
# Slow (forty mined records written by a child process under a file-size cap): `make test` runs it; the quick
# loop keeps the module's other capped writes.
@pytest.mark.slow
@limits
def test_a_full_disk_while_mining_leaves_whole_records_only(tmp_path):
    out = tmp_path / "mined.txt"
    out.write_text(_records(1)[0], encoding="utf-8")
    before = out.read_bytes()
    more = json.dumps(_records(40)[1:])
    child = _capped(f"""
        import json
        from canasta_tutor.tutor.puzzles.mining import append_records
        try:
            append_records({str(out)!r}, json.loads({more!r}))
        except OSError as e:
            print("refused", e.errno)
    """, cap=len(before) + 3000)
    assert child.stdout.startswith("refused"), child.stderr
    assert out.read_bytes() == before  # truncated back: the next `mine` and `list` still read it
    assert [p.id for p in load_file(out)] == [load_library()[0].id]


@limits
def test_a_full_disk_while_logging_leaves_the_log_as_it_was(tmp_path):
    log = tmp_path / "mine.jsonl"
    log.write_text('{"game": 1}\n', encoding="utf-8")
    child = _capped(f"""
        from canasta_tutor.tutor.atomicfile import append_atomic, write_atomic
        try:
            append_atomic({str(log)!r}, '{{"game": 2, "pad": "' + "x" * 5000 + '"}}\\n')
        except OSError as e:
            print("append refused", e.errno)
        try:
            write_atomic({str(log)!r}, "x" * 5000)
        except OSError as e:
            print("rewrite refused", e.errno)
    """, cap=1000)
    assert "append refused" in child.stdout and "rewrite refused" in child.stdout, child.stderr
    assert log.read_text(encoding="utf-8") == '{"game": 1}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.jsonl"]  # no temporary file left


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "x.json"
    write_atomic(path, "old")

    def broken(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(path, "new")
    with pytest.raises(OSError, match="No space left"):
        append_atomic(path, " and more")
    monkeypatch.undo()
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_the_student_log_is_rewritten_whole(tmp_path, monkeypatch):
    from canasta_tutor.tutor.assignments import grading
    from canasta_tutor.tutor.assignments.spec import Item
    from canasta_tutor.tutor.assignments.student import play_item

    item = Item(id="x", kind="level", lesson="melds", level="natural-meld", points=10)
    play_item(item, [["discard 4"]], tmp_path)
    before = (tmp_path / "x.json").read_bytes()
    real = grading.write_atomic

    def fail_after_temp(path, data):
        def broken_replace(src, dst):
            raise OSError(28, "No space left on device")
        monkeypatch.setattr(os, "replace", broken_replace)
        try:
            real(path, data)
        finally:
            monkeypatch.undo()
    monkeypatch.setattr(grading, "write_atomic", fail_after_temp)
    try:
        play_item(item, [["meld 7 7 7"]], tmp_path)  # the widget may report the error or raise it
    except OSError:
        pass
    assert (tmp_path / "x.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


# ------------------------------------------------------------------ course --force and links
def test_course_force_never_writes_through_a_link_out_of_its_folder(tmp_path, capsys):
    dest, outside = tmp_path / "course", tmp_path / "outside"
    dest.mkdir()
    outside.mkdir()
    (dest / "notebooks").symlink_to(outside, target_is_directory=True)
    assert main(["course", str(dest), "--force"]) == 2
    err = capsys.readouterr().err
    assert "is a symbolic link" in err and "notebooks" in err and err.count("\n") == 1
    assert list(outside.iterdir()) == [] and not (dest / "lessons").exists()  # nothing written anywhere
    (dest / "notebooks").unlink()
    (dest / "notebooks").mkdir()
    (dest / "notebooks" / "lessons").symlink_to(outside, target_is_directory=True)
    assert main(["course", str(dest), "--force"]) == 2
    assert list(outside.iterdir()) == []


def test_course_force_replaces_a_linked_file_without_following_it(tmp_path, capsys):
    dest = tmp_path / "course"
    assert main(["course", str(dest)]) == 0
    secret = tmp_path / "secret.txt"
    secret.write_text("mine", encoding="utf-8")
    lesson = sorted((dest / "lessons").glob("*.toml"))[0]
    lesson.unlink()
    lesson.symlink_to(secret)
    assert main(["course", str(dest), "--force"]) == 0
    assert secret.read_text(encoding="utf-8") == "mine" and not lesson.is_symlink()
    assert not list(dest.rglob("*.tmp"))


def test_inside_checks_every_folder_on_the_way(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").symlink_to(tmp_path, target_is_directory=True)
    assert inside(tmp_path, tmp_path / "a" / "x.txt") == tmp_path / "a" / "x.txt"
    with pytest.raises(UnsafePathError, match="is a symbolic link"):
        inside(tmp_path, tmp_path / "a" / "b" / "c" / "x.txt")


# ------------------------------------------------------------------ standard output that fails
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["--json", "deal"], ["deal"], ["lesson", "list", "--json"]])
def test_a_full_standard_output_is_one_line_on_stderr(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "canasta_tutor", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr == "canasta-tutor: error: cannot write the output: No space left on device\n"
