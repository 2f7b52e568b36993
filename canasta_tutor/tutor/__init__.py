"""The tutor layer: sessions, turn planning, events, the table view model,
lessons, puzzles, the progress store and class tools.

Nothing in this package imports anywidget, ipywidgets or any browser code; the
widgets in :mod:`canasta_tutor.widget` (and the lesson and puzzle widgets) are
thin shells over it, and everything here can be tested without a browser.
"""
