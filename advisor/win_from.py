"""When the win objective applies (``--win-from``): the default and how it is said.

No imports: the options of every command (:mod:`advisor.request.params`) read these at
each start of the CLI, and :mod:`advisor.play_win`, which applies them, imports the
record modules.
"""

DEFAULT_WIN_FROM = 15
"""``--win-from`` of ``play``, ``analyze``, the page and records when none is given: the
win objective applies with this many open boxes or fewer, which is every turn from the
first (15 is the most boxes of any rule set, Yatzy's). The one default, stated here."""
FIRST_TURN = "from the first turn"
"""How :data:`DEFAULT_WIN_FROM` is said in help texts, notes and records."""
