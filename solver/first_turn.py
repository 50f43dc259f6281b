"""The first turn of a game played to win, worked out once and kept on disk.

The first player's first turn of a game played to win (``play --objective win``, the
review of such a game) is the win DP from a new card against new cards: the same figures
in every game of a rule set and number of players, and the longest solve of the game
(half a minute on a quiet machine, minutes under load). Its :class:`SolvedTurn` is a few
thousand numbers, kept beside the table as ``tables/<rules>.first-turn-<players>p.ywin``
in the table format (:mod:`solver.formats.tablefile`, kind ``yahtzee-first-win-turn``,
with the checksum of the table it was computed from), checked as a table is when read
and computed again when missing, damaged or outdated. On disk rather than in a process's
memory: the terminal game solves its turns in a worker process, the server in its job
processes and the review in the main process, and each of them, in every later game,
reads the one file. Read back, the figures are the computed ones bit for bit.

One array of float64: the turn's ``keep_values`` row by row, its ``value``, then the value
after each placement of a new card's turn (:func:`solver.readout.turn_placements`'s order).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from .formats.tablefile import FileKind, PerTableCache, cached_values
from .game.dice import N_KEEPS
from .game.rules import RuleSet, get_rules
from .moments import table_checksum
from .readout import turn_placements
from .table import Table, tables_dir

SUFFIX = ".ywin"
SLACK = 1e-9


def first_turn_path(rules: RuleSet | str, players: int) -> Path:
    """``tables/official.first-turn-2p.ywin``: the first turn of a ``players``-player game
    played to win."""
    return tables_dir() / f"{get_rules(rules).name}.first-turn-{players}p{SUFFIX}"


def _placements(rules: RuleSet) -> list[tuple[int, int, int]]:
    return [tuple(p) for p in turn_placements(rules, 0, 0).T.tolist()]


def _shape(rules: RuleSet) -> tuple[int, ...]:
    return (rules.rolls_per_turn * N_KEEPS + 1 + len(_placements(rules)),)


def _check(values: np.ndarray, rules: RuleSet, unusable: Callable[[str], Exception]) -> None:
    """Probabilities: finite, in [0, 1]."""
    if not np.isfinite(values).all():
        raise unusable("figures that are not numbers")
    if (values < -SLACK).any() or (values > 1 + SLACK).any():
        raise unusable("probabilities outside [0, 1]")


def _rebuilt_by(rules_name: str, path: object) -> str:
    return "yahtzee play --objective win (the first turn is worked out again when missing)"


def _kind() -> FileKind:
    return FileKind("yahtzee-first-win-turn", 1, "first turn of a game played to win", _shape,
                    _check, _rebuilt_by, (("table_sha256", str),))


Parts = tuple[np.ndarray, float, dict[tuple[int, int, int], float]]
"""A turn's (keep_values, value, boxes), as :class:`solver.solved_turn.SolvedTurn` holds them."""


def turn_array(parts: Parts, rules: RuleSet) -> np.ndarray:
    """The file's one array of a new card's turn."""
    keep_values, value, boxes = parts
    return np.concatenate((keep_values.ravel(), [value], [boxes[p] for p in _placements(rules)]))


def turn_parts(values: np.ndarray, rules: RuleSet) -> Parts:
    """The turn the file's array holds."""
    n = rules.rolls_per_turn * N_KEEPS
    keep_values = values[:n].reshape(rules.rolls_per_turn, N_KEEPS).copy()
    boxes = {p: float(v) for p, v in zip(_placements(rules), values[n + 1:].tolist(),
                                         strict=True)}
    return keep_values, float(values[n]), boxes


_CACHE = PerTableCache()


def first_turn(table: Table, players: int, solve: Callable[[], Parts]) -> tuple[Parts, bool]:
    """The first turn of a ``players``-player game played to win and whether it was
    solved now: read from :func:`first_turn_path` when the file there fits ``table``, else
    ``solve()``d and written (a file that cannot be written: the figures solved are
    used). Once per process and table."""
    rules = table.rules
    path = first_turn_path(rules, players)
    solved: list[Parts] = []

    def compute() -> np.ndarray:
        solved.append(solve())
        return turn_array(solved[0], rules)

    def make() -> Parts:
        values = cached_values(path, rules, _kind(), table_checksum(table), compute,
                               missing="", force=False)
        return solved[0] if solved else turn_parts(values, rules)

    return _CACHE.get(table, path, make), bool(solved)


def is_kept(table: Table, players: int) -> bool:
    """True when the first turn of a ``players``-player game is at hand without a solve
    (read in this process, or its file is there: checked when read)."""
    path = first_turn_path(table.rules, players)
    return _CACHE.has(table, path) or path.is_file()


def forget_first_turns() -> None:
    """Forget the turns read or solved (the next call reads the file again)."""
    _CACHE.clear()
