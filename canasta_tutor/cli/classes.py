"""The ``class`` subcommand of ``canasta-tutor``: the teacher's tools.

Its subcommands come from two modules, each exposing ``register(classes, common)``:

- :mod:`canasta_tutor.cli.assign`: ``class assign FILE --course DIR`` (nbgrader source notebooks);
- :mod:`canasta_tutor.cli.report`: ``class report`` and ``class simulate`` (the class report).

A part whose module is not present is left out, so each can be built and tested on its own.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from .output import Parser

#: the modules that add ``class`` subcommands, in the order they are listed in ``--help``
PARTS = ("canasta_tutor.cli.assign", "canasta_tutor.cli.report")


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``class`` subcommand to the main parser's subparsers."""
    cl = sub.add_parser("class", parents=[common], help="teach a class: assignments, the class report")
    classes = cl.add_subparsers(dest="class_command", metavar="CLASS_COMMAND", parser_class=Parser)
    classes.required = True
    for name in PARTS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(classes, common)
