"""Puzzles: the library and its files (:mod:`.library`), themes and their detectors, Glicko-2 ratings and
starting ratings, mining from self-play, and the trainer with its sessions and timed runs.  Nothing here
imports a widget; the puzzle widget (:mod:`canasta_tutor.ui.puzzle`) is a thin shell over the trainer.
"""
