"""docs/variants.md runs as shown: its Python examples (doctest) and its ``console`` example."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "variants.md"


def test_the_python_examples() -> None:
    result = doctest.testfile(str(PAGE), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0


def test_the_console_example() -> None:
    blocks = re.findall(r"^```console\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.M | re.S)
    assert len(blocks) == 1
    command, *expected = blocks[0].splitlines()
    assert command.startswith("$ canasta-tutor ")
    args = command.removeprefix("$ canasta-tutor ").split()
    out = subprocess.run([sys.executable, "-m", "canasta_tutor", *args], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == expected
