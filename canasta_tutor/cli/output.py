"""What every ``canasta-tutor`` subcommand shares: the program's name, the argument parser whose errors are
one line, and the one way to print a result (its JSON object with ``--json``, one line with ``--compact``,
else its text) or an error (its JSON object on one line on stdout with ``--json``, and its text on stderr
always)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from .args import UsageError

PROG = "canasta-tutor"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, raised instead of exiting; every subcommand's parser is
    one (``add_subparsers(..., parser_class=Parser)``)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{PROG} --help')")


def wants_json(args: argparse.Namespace) -> bool:
    """Whether ``--json`` was given (before or after the subcommand)."""
    return bool(getattr(args, "json", False))


def json_text(args: argparse.Namespace, data: Any, ascii_only: bool = True) -> str:
    """``data`` as JSON: indented, or on one line with ``--compact``; ``ascii_only=False`` keeps non-ASCII
    characters as they are (the lesson commands' texts)."""
    indent = None if getattr(args, "compact", False) else 2
    return json.dumps(data, indent=indent, ensure_ascii=ascii_only)


def emit(args: argparse.Namespace, data: Any, text: str, ascii_only: bool = True) -> None:
    """Print a command's result: ``data`` as JSON with ``--json``, else ``text``."""
    print(json_text(args, data, ascii_only) if wants_json(args) else text)


def emit_error(json_wanted: bool, data: dict[str, Any], text: str) -> None:
    """Report an error: ``data`` as one JSON line on stdout when ``--json`` was asked (a machine reads the
    error where it reads results), and ``text`` on stderr in every case."""
    if json_wanted:
        print(json.dumps(data))
        sys.stdout.flush()
    print(text, file=sys.stderr)


def note(text: str) -> None:
    """A problem or warning beside a command's result, on stderr (never part of its JSON)."""
    print(text, file=sys.stderr)


__all__ = ["PROG", "Parser", "wants_json", "json_text", "emit", "emit_error", "note"]
