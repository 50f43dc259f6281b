"""The names of the simulator's strategies, read without loading a kernel.

The built-in strategies (:data:`STRATEGIES`, described in :mod:`solver.simulate`) and
``target:X``; the CLI, the RL opponents and the simulator read the names here.
"""

from __future__ import annotations

from ..errors import UnknownStrategyError, shown
from ..numbers import MAX_DIGITS, whole_number

STRATEGIES = ("optimal", "greedy", "greedy-turn", "heuristic")
"""The built-in strategies: fixed policies of ``kernels.policy``
(:mod:`solver.simulate.policies`)."""
PREFIX = "target:"
"""Strategy names ``target:X`` (X a whole number of points, 0 or more)."""


def strategy_name(name: str) -> str:
    """The built-in strategy ``name`` (any case), or raise UnknownStrategyError."""
    key = name.strip().lower()
    if key not in STRATEGIES:
        raise UnknownStrategyError(
            f"unknown strategy {shown(name, 40)}; built-in strategies: {', '.join(STRATEGIES)} "
            "and target:X")
    return key


TOURNAMENT_PREFIX = "tournament:"
"""Strategy names ``tournament:N`` (N players in all, 2 to 100,000; the field plays for
the expected score)."""


def is_tournament_strategy(name: str) -> bool:
    """Whether ``name`` asks for the tournament strategy (``tournament:...``, any case)."""
    return name.strip().lower().startswith(TOURNAMENT_PREFIX)


def parse_tournament(name: str) -> int:
    """N of ``tournament:N``; raises :class:`UnknownStrategyError` unless N is a whole
    number 2 to 100,000."""
    players = whole_number(name.strip()[len(TOURNAMENT_PREFIX):])
    if players is None or not 2 <= players <= 100_000:
        raise UnknownStrategyError(
            f"strategy {shown(name.strip(), 40)}: give tournament:N with N the players in "
            f"all, a whole number 2 to 100,000 (e.g. tournament:10)")
    return players


def is_target_strategy(name: str) -> bool:
    """Whether ``name`` asks for the target strategy (``target:...``, any case)."""
    return name.strip().lower().startswith(PREFIX)


def parse_target(name: str) -> int:
    """X of ``target:X``; raises :class:`UnknownStrategyError` unless X is a whole number
    of points, 0 or more."""
    target = whole_number(name.strip()[len(PREFIX):])
    if target is None:
        raise UnknownStrategyError(
            f"strategy {shown(name.strip(), 40)}: give target:X with X a whole number of "
            f"points, 0 or more (e.g. target:300; at most {MAX_DIGITS} digits)")
    return target
