"""The class report's fixed wording and thresholds, shared by the report (:mod:`.report`) and its page
(:mod:`.page`)."""

#: the most common wrong move of an item is shown when at least this many students made it
WRONG_MOVE_STUDENTS = 2
#: a note on every time the report shows
REPORTED = "as reported by the student's own log or store (not checked: it cannot be replayed)"

__all__ = ["WRONG_MOVE_STUDENTS", "REPORTED"]
