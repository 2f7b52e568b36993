"""The puzzle trainer's old path, kept for notebooks written before the layer packages (a learner's copy of
``notebooks/puzzles.ipynb`` reads ``from canasta_tutor.puzzle_widget import PuzzleTrainer``).  New code imports
from :mod:`canasta_tutor.ui.puzzle`."""

from .ui.puzzle import PuzzleTrainer, front_end, themes_page

__all__ = ["PuzzleTrainer", "front_end", "themes_page"]
