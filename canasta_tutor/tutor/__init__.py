"""The tutor layer: sessions, turn planning, events, the table view model and its HTML (:mod:`.display`),
lessons, puzzles (:mod:`.puzzles`), the progress store, assignments and class tools.

Nothing in this package imports anywidget, ipywidgets or any browser code (the import contract in
``pyproject.toml`` checks it); the widgets in :mod:`canasta_tutor.ui` are thin shells over it, and
everything here can be tested without a browser.
"""
