"""Exact optimal-strategy solver for solitaire Yahtzee and its variants.

Layers, each importing only those before it (docs/layers.md; tests/test_imports.py
checks it)::

    errors, numbers         the exceptions (every input error is a ValueError); whole
                            numbers as typed
    game/                   the game model, pure Python and numpy: dice, boxes, rules,
                            states, move, ties, ruletext, the dice stream, a game's trace
    kernels/, _jit_cache    the numba kernels (plain arrays and ``RuleArrays`` in); where
                            numba keeps their compiled code
    formats/                files on disk: atomic writes, the table file, exports
    builder, table, levels  the expected-score table: built, stored, opened
    readout, stats, stats_file, moments, field, target, target_table, tournament_file,
    memory, points_to_come, goals, first_turn, vector_cache, solved_turn, turn_face
                            drivers of the kernels: whole arrays, exact statistics, the
                            target / win DP and its tables; a turn under any goal
                            (turn_face: every option of a roll valued and ranked)
    simulate/, warmup       the seeded simulator: simulate(), its strategies (built-in,
                            target:X, Python and batch), workers, the judge and its
                            control variates; compiling the kernels ahead of use
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
