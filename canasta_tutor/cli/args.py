"""The command line's numbers, checked the same way by every subcommand.

:func:`ranged` makes an argparse type for a whole number or a number within a range; the types
below are the ranges the subcommands share (seeds, seeds to try, counts of hands, deals, games,
students, sampled deals) and :data:`WORKERS`, processes up to four per processor of this machine.
A number out of range, too long, or not written with the digits 0 to 9 is a one-line usage
error (exit 2) naming the range.

>>> ranged(int, 1, 10)("7"), SEED("0")
(7, 0)
>>> ranged(int, 1, 10)("11")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 11 is out of range: give at least 1 and at most 10
>>> SEED("-5")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: -5 is out of range: give at least 0 and at most 9,223,372,036,854,775,807
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Callable


class UsageError(Exception):
    """Bad command-line usage (exit 2)."""


def ranged(kind: Callable[[str], Any], low: float | None, high: float | None,
           low_open: bool = False) -> Callable[[str], Any]:
    """An argparse type: ``kind`` (int or float) between ``low`` and ``high`` (``low_open``: above ``low``)."""
    def convert(text: str) -> Any:
        t = text.strip()
        if len(t) > 20:
            raise argparse.ArgumentTypeError(f"{t[:20]!r}… is too long for a number")
        if not t.isascii() or "_" in t:
            raise argparse.ArgumentTypeError(f"{t!r}: write the number with the digits 0 to 9")
        try:
            value = kind(t)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"{t!r} is not {what}") from None
        if value != value or value in (float("inf"), float("-inf")) or (
                low is not None and (value <= low if low_open else value < low)) or (
                high is not None and value > high):
            lo = "" if low is None else (f"more than {low}" if low_open else f"at least {low}")
            hi = "" if high is None else f"at most {high:,}"
            raise argparse.ArgumentTypeError(f"{t} is out of range: give {' and '.join(x for x in (lo, hi) if x)}")
        return value
    convert.__name__ = getattr(kind, "__name__", "number")
    return convert


def max_workers() -> int:
    """The most worker processes a command starts: four per processor of this machine."""
    return 4 * (os.cpu_count() or 1)


def workers(every_core: bool = False) -> Callable[[str], int]:
    """An argparse type for a number of worker processes: 1 to :func:`max_workers` (``every_core``: 0 too,
    for "one per processor")."""
    def convert(text: str) -> int:
        value: int = ranged(int, 0 if every_core else 1, None)(text)
        if value > max_workers():
            raise argparse.ArgumentTypeError(f"{value}: this machine has {os.cpu_count() or 1} processors; give at "
                                             f"most {max_workers()} workers")
        return value
    convert.__name__ = "int"
    return convert


#: a seed of the random number generators
SEED = ranged(int, 0, 2**63 - 1)
#: a side's total
SCORE = ranged(int, -1_000_000, 1_000_000)
#: how many seeds to try, hands, deals, games, students, items, sampled deals...: a count of at least one
COUNT = ranged(int, 1, 10_000_000)
#: worker processes: 1 to four per processor
WORKERS = workers()

__all__ = ["COUNT", "SCORE", "SEED", "UsageError", "WORKERS", "max_workers", "ranged", "workers"]
