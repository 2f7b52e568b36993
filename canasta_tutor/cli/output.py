"""What every ``canasta-tutor`` subcommand shares: the program's name, the argument parser whose errors are
one line, and the one way to print a result (its JSON object with ``--json``, one line with ``--compact``,
else its text)."""

from __future__ import annotations

import argparse
import json
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


__all__ = ["PROG", "Parser", "wants_json", "json_text", "emit"]
