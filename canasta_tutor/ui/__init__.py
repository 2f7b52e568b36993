"""The widgets: thin anywidget views over the tutor's sessions, lesson and puzzle players (the card table,
:mod:`.table`; lessons, :mod:`.lesson`; the puzzle trainer, :mod:`.puzzle`; an assignment's item,
:mod:`.assignment` and :mod:`.assignment_cell`).  Python holds the state; the front end (``widgets/``, JS
and CSS) shows the view model and sends intents back.
"""
