"""The ``progress`` subcommand of ``canasta-tutor``: bring progress made elsewhere into this computer's store.

``canasta-tutor progress import FILE`` adds the attempts of another progress store (the one the course keeps
in the browser, downloaded from the site's file browser as ``canasta-tutor-progress.sqlite3``: docs/lite.md)
to the learner's store here (``$CANASTA_TUTOR_PROGRESS``, else the user's data folder; ``--store`` names
another).  Attempts are matched by their id, so importing the same file twice adds nothing; the file itself
is only read.  ``--as NAME`` files every attempt under that learner (the widgets' learner is ``learner``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .output import Parser, emit
from ..tutor.progress import ProgressStore, default_path


def cmd_import(args: argparse.Namespace) -> int:
    target = Path(args.store) if args.store else default_path()
    with ProgressStore(target) as store:
        added = store.merge_from(Path(args.file), as_learner=args.as_learner)
        stars = store.stars_for(args.as_learner or "learner")
    emit(args, {"file": args.file, "store": str(target), "added": added, "levels_with_stars": len(stars)},
         f"added {added} attempt{'s' if added != 1 else ''} from {args.file} to {target} "
         f"({len(stars)} level{'s' if len(stars) != 1 else ''} with stars for {args.as_learner or 'learner'})")
    return 0


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``progress`` subcommand to the main parser's subparsers."""
    pg = sub.add_parser("progress", parents=[common], help="import progress made in the browser (or elsewhere)")
    psub = pg.add_subparsers(dest="progress_command", metavar="PROGRESS_COMMAND", parser_class=Parser)
    psub.required = True
    im = psub.add_parser("import", parents=[common], help="add another progress store's attempts to this one")
    im.add_argument("file", help="a progress store file (from the browser: canasta-tutor-progress.sqlite3)")
    im.add_argument("--as", dest="as_learner", metavar="NAME", default=None,
                    help="file every attempt under this learner (default: the names in the file)")
    im.add_argument("--store", default=None, metavar="PATH",
                    help="the store to add to (default: $CANASTA_TUTOR_PROGRESS, else the user's data folder)")
    im.set_defaults(func=cmd_import)
