"""Exact optimal-strategy solver for solitaire Yahtzee and its variants.

Layers, each importing only those before it: ``dice`` and ``rules`` (pure Python and
numpy) -> ``_basics`` and the kernels built on it (numba; each takes the rule set's
``RuleArrays``) -> ``builder`` and ``tablefile`` -> ``table``, ``stats``, ``simulate``.
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
from .rules import DEFAULT_RULES, RULE_NAMES, RULE_SUMMARIES, Placement, RuleSet, get_rules

__all__ = [
    "DEFAULT_RULES", "RULE_NAMES", "RULE_SUMMARIES", "Placement", "RuleSet", "get_rules",
    "CorruptTableError", "IllegalMoveError", "InvalidCardError", "InvalidDiceError",
    "MissingTableError", "TableError", "UnknownRulesError", "YahtzeeError",
]
