"""The notation: the text forms of actions, positions and game records, each a parse and format pair, and
input read within bounds (:mod:`.textinput`).  It sits on the engine and on nothing else.
"""
