"""The ``class`` subcommand of ``canasta-tutor``: the teacher's tools.

Its subcommands come from two modules, each exposing ``register(classes, common)``:

- :mod:`canasta_tutor.assign_cli`: ``class assign FILE --course DIR`` (nbgrader source notebooks);
- :mod:`canasta_tutor.report_cli`: ``class report`` and ``class simulate`` (the class report).

A part whose module is not present is left out, so each can be built and tested on its own.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

#: the modules that add ``class`` subcommands, in the order they are listed in ``--help``
PARTS = ("canasta_tutor.assign_cli", "canasta_tutor.report_cli")


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``class`` subcommand to the main parser's subparsers."""
    parser_class = sub._parser_class  # the CLI's parser, whose errors are one line
    cl = sub.add_parser("class", parents=[common], help="teach a class: assignments, the class report")
    classes = cl.add_subparsers(dest="class_command", metavar="CLASS_COMMAND", parser_class=parser_class)
    classes.required = True
    for name in PARTS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(classes, common)
