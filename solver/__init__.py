"""Exact optimal-strategy solver for solitaire Yahtzee and its variants.

Layers, each importing only those before it::

    errors                  the exceptions (every input error is a ValueError)
    game/                   the game model, pure Python and numpy: dice, boxes, rules,
                            states, move, ruletext
    kernels/                the numba kernels (plain arrays and ``RuleArrays`` in)
    formats/                files on disk: atomic writes, the table file, exports
    builder, table          the expected-score table: built, stored, opened
    stats, target,          drivers of the kernels: exact statistics, the target / win
    simulate, simulate_target   DP, the seeded simulator and its target strategy
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
