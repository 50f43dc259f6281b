"""Exact optimal-strategy solver for solitaire Yahtzee and its variants.

Layers, each importing only those before it::

    errors                  the exceptions (every input error is a ValueError)
    game/                   the game model, pure Python and numpy: dice, boxes, rules,
                            states, move, ruletext, the dice stream, a game's trace
    kernels/                the numba kernels (plain arrays and ``RuleArrays`` in)
    formats/                files on disk: atomic writes, the table file, exports
    builder, table          the expected-score table: built, stored, opened
    stats, target           drivers of the kernels: exact statistics, the target / win DP
    simulate/               the seeded simulator: simulate(), its strategies (built-in,
                            target:X, Python and batch), workers, the judge and its
                            control variates
    warmup                  compile the everyday kernels (or all) ahead of use
"""

from .errors import (
    CorruptTableError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDiceError,
    MissingTableError,
    TableError,
    UnknownRulesError,
    YahtzeeError,
)
from .game.rules import DEFAULT_RULES, RULE_NAMES, RULE_SUMMARIES, Placement, RuleSet, get_rules

__all__ = [
    "DEFAULT_RULES", "RULE_NAMES", "RULE_SUMMARIES", "Placement", "RuleSet", "get_rules",
    "CorruptTableError", "IllegalMoveError", "InvalidCardError", "InvalidDiceError",
    "MissingTableError", "TableError", "UnknownRulesError", "YahtzeeError",
]
