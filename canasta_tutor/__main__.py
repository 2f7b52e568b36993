"""``python -m canasta_tutor``: the same as the ``canasta-tutor`` command."""

import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())
