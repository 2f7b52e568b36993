"""The README's examples run as shown.

Two kinds of block are checked:

- ``python`` blocks with ``>>>`` prompts are doctests: the README as a whole is run with
  :func:`doctest.testfile`, exactly like ``python -m doctest README.md`` (no option flags).
- ``console`` blocks: every line starting with ``$ `` is a command for ``bash``, and the lines
  after it, up to the next command or the end of the block, are its expected output (stdout and
  stderr together).  The commands of the whole README run in order, in one temporary directory,
  with the directory of this Python (``.venv/bin`` under ``make``) first on ``PATH``.  A file a
  command names that exists in the repository and that no example writes (``> file``) is copied
  into the temporary directory first, so the examples can read only files that are in the
  repository or that they create themselves; the files they create must be git-ignored.

Output is compared line by line, after stripping trailing blanks, with two explicit exceptions:

- an expected line that is exactly ``...`` stands for any number of lines (the README elides
  the middle of a long listing this way);
- machine-dependent lines are declared by an HTML comment on the line just above the block's
  opening fence, ``<!-- machine-dependent: PREFIX | PREFIX -->``.  An expected line that starts
  with one of the prefixes (after its indentation) matches any output line that starts with the
  same indentation and prefix: those are compared, the rest of the line is not.  Nothing else is
  masked.
"""

from __future__ import annotations

import doctest
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"^<!--\s*machine-dependent:(.*?)-->\s*$")


@dataclass
class Command:
    line: int  # 1-based line of the ``$ `` command in the README
    text: str
    expected: list[str] = field(default_factory=list)
    masked: tuple[str, ...] = ()


def console_commands(text: str) -> list[Command]:
    """The ``$`` commands of every ``console`` block, with their expected output."""
    commands: list[Command] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        marker = MARKER.match(lines[i - 1]) if i else None
        masked = tuple(p.strip() for p in marker.group(1).split("|") if p.strip()) if marker else ()
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            if lines[i].startswith("$ "):
                commands.append(Command(i + 1, lines[i][2:], masked=masked))
            elif not commands:
                raise AssertionError(f"README.md:{i + 1}: output before the first command of a console block")
            else:
                commands[-1].expected.append(lines[i])
            i += 1
        i += 1
    return commands


def _outputs(cmd: str) -> set[str]:
    words = shlex.split(cmd, comments=True)
    return {w for prev, w in itertools.pairwise(words) if prev in (">", ">>")}


def _inputs(commands: list[Command]) -> set[str]:
    """Repository files the commands name and no command writes."""
    written = set().union(*(_outputs(c.text) for c in commands))
    named = {w for c in commands for w in shlex.split(c.text, comments=True)}
    return {w for w in named - written if not w.startswith("-") and (ROOT / w).is_file()}


def _matches(expected: list[str], actual: list[str], masked: tuple[str, ...]) -> bool:
    if not expected:
        return not actual
    head = expected[0]
    if head == "...":
        return any(_matches(expected[1:], actual[k:], masked) for k in range(len(actual) + 1))
    if not actual:
        return False
    body = head.lstrip()
    prefix = next((p for p in masked if body.startswith(p)), None)
    if prefix is None:
        ok = actual[0] == head
    else:
        n = len(head) - len(body) + len(prefix)  # the indentation and the prefix
        ok = actual[0][:n] == head[:n]
    return ok and _matches(expected[1:], actual[1:], masked)


def test_the_runner_rules() -> None:
    """The comparison rules themselves, on made-up output."""
    assert _matches(["a", "...", "z"], ["a", "b", "c", "z"], ())
    assert _matches(["a", "...", "z"], ["a", "z"], ())
    assert not _matches(["a", "...", "z"], ["a", "b"], ())
    assert _matches(["speed: 1.0 s"], ["speed: 9.9 s"], ("speed:",))
    assert not _matches(["speed: 1.0 s"], ["speed: 9.9 s"], ())
    assert not _matches(["total: 5"], ["total: 6"], ("speed:",))
    assert _matches(['  "ms": 0.2,'], ['  "ms": 31.5,'], ('"ms":',))
    assert not _matches(['  "ms": 0.2,'], ['"ms": 0.2,'], ('"ms":',))
    assert not _matches(["a"], ["a", "extra"], ())
    block = ("x\n<!-- machine-dependent: t: | u -->\n```console\n$ echo t: 1\nt: 2\n$ true\n```\n"
             "```console\n$ cat > out.txt\n```\n")
    first, second, third = console_commands(block)
    assert (first.text, first.expected, first.masked) == ("echo t: 1", ["t: 2"], ("t:", "u"))
    assert (second.expected, second.masked, third.masked) == ([], ("t:", "u"), ())
    assert _outputs(third.text) == {"out.txt"}


def test_python_examples_doctest() -> None:
    """The same check as ``python -m doctest README.md``."""
    result = doctest.testfile(str(README), module_relative=False, report=True, verbose=False)
    assert result.attempted > 10
    assert result.failed == 0, f"{result.failed} README doctest examples failed (the report is above)"


@pytest.mark.slow
def test_console_examples(tmp_path: Path) -> None:
    commands = console_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 10
    for name in _inputs(commands):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="80", NO_COLOR="1")
    for c in commands:
        proc = subprocess.run(["bash", "-c", c.text], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        actual = [ln.rstrip() for ln in proc.stdout.splitlines()]
        expected = [ln.rstrip() for ln in c.expected]
        assert _matches(expected, actual, c.masked), (
            f"README.md:{c.line}: $ {c.text}\n--- expected\n" + "\n".join(expected)
            + "\n--- got\n" + "\n".join(actual))


def test_example_outputs_are_git_ignored() -> None:
    """Files the console examples create in the project root must not show up in git status."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: nothing to ignore")
    created = set().union(*(_outputs(c.text) for c in console_commands(README.read_text(encoding="utf-8"))))
    assert created
    for name in sorted(created):
        proc = subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT)
        assert proc.returncode == 0, f"{name} (created by a README example) is not in .gitignore"
