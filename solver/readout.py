"""Which option of a turn is best, as whole arrays for Python callers (the advisor's
``why`` and solved turns): the face of :mod:`solver.kernels.readout`, the one readout
the statistics, the simulator and the judge play by. One call answers every roll of a
turn; nothing here loops over the 252 rolls in Python.

The kernels are imported on first use (importing numba costs a command that never
computes a turn a few tenths of a second), as :func:`solver.table.turn_values` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .game.dice import N_ROLLS
from .game.rules import UPPER_TARGET, RuleSet

if TYPE_CHECKING:
    from .table import Table


def turn_choices(table: Table, mask: int, upper: int, flag: int) -> np.ndarray:
    """The optimal policy's box for every final roll of one state's turn (the readout
    the statistics and the simulator play by, :mod:`solver.kernels.readout`).

    Returns ``(3, 252)`` int64: per roll index the box, its entry (points) and the
    Yahtzee bonus it earns (points).
    """
    from .kernels import readout as rk

    out = np.empty((3, N_ROLLS), dtype=np.int64)
    rk.final_choices(mask, min(upper, UPPER_TARGET), flag, table.values, table.rules.arrays,
                     out)
    return out


def best_keeps(values: np.ndarray, evs: np.ndarray, tie: float) -> np.ndarray:
    """The best keep of every roll with each number of rolls left, by the one tie order
    (:func:`solver.game.ties.best`): ``values`` and ``evs`` ``(rolls_per_turn, 462)``, each
    keep's value (a probability, ``tie`` = ``ties.P_TIE``; or the expected score, then
    ``evs`` itself and ``ties.EV_TIE``) and expected score with ``j`` rolls left (rows
    ``j >= 1`` are read). Returns ``(rolls_per_turn, 252)`` int64: row ``j >= 1`` the keep
    index of each roll's best sub-keep (0 to 5 dice; row 0 is -1)."""
    from .kernels import readout as rk

    out = np.full((values.shape[0], N_ROLLS), -1, dtype=np.int64)
    rk.best_keeps(np.ascontiguousarray(values, dtype=np.float64),
                  np.ascontiguousarray(evs, dtype=np.float64), tie, out)
    return out


def turn_placements(rules: RuleSet, mask: int, flag: int) -> np.ndarray:
    """Every placement the final rolls of a turn of state (mask, any subtotal, flag) may
    make, each once: ``(3, n)`` int64, columns (box, entry, Yahtzee bonus) in ascending
    order (the Joker applied, as every kernel plays it)."""
    from .kernels import readout as rk

    out = np.empty((3, N_ROLLS * rules.n_boxes), dtype=np.int64)
    n = rk.turn_placements(mask, flag, rules.arrays, out)
    return np.unique(out[:, :n], axis=1)
