"""The card table's old path, kept for notebooks written before the layer packages (a learner's copy of
``notebooks/play.ipynb`` reads ``from canasta_tutor.widget import CanastaTable``).  New code imports from
:mod:`canasta_tutor.ui.table`."""

from .ui.table import CanastaTable

__all__ = ["CanastaTable"]
