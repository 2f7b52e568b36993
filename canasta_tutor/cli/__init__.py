"""The ``canasta-tutor`` command line: :mod:`.main` parses and runs it and lists every other module's
subcommands in one place (:data:`.main.SUBCOMMANDS`); :mod:`.output` holds what they share (the program's
name, the parser whose errors are one line, the one way to print a result) and :mod:`.args` the checked
argument types.
"""
