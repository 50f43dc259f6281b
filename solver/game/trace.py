"""A played game as a trace: the one layout every player of the simulator writes (the
built-in and target kernels, Python and batch strategies) and every reader reads (the
judge, game records, the RL environment's opponents).

A trace is (n_boxes, :func:`width`) int16, one row per turn in playing order, in keep
indices (:data:`~solver.game.dice.KEEP_COUNTS`)::

    roll, keep, roll, keep, roll, ..., box

The turn's first roll in slot 0; the keep of reroll ``i`` (0-based) in slot ``2 i + 1``
and the roll it gave in slot ``2 i + 2``; the box filled in the last slot. A box scored
with rolls left leaves the slots before it -1. A keep of all five dice is a keep like any
other (it uses a roll; the roll after it shows the same dice).

The writers below are plain arithmetic on a row, so the numba kernels compile these very
functions (:mod:`solver.kernels.trace`) and no game loop spells a slot of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dice import DICE, KEEP_COUNTS, KEEP_SIZE, faces_of
from .rules import RuleSet

Row = Any
"""One turn of a trace: a 1-D integer array (a numpy row, or a numba array in a kernel)."""


def width(rolls_per_turn: int) -> int:
    """Slots of one turn: a roll and a keep per roll of the turn, the box last."""
    return 2 * rolls_per_turn


def new_traces(games: int, rules: RuleSet) -> np.ndarray:
    """The traces of ``games`` games, every slot -1: (games, n_boxes, width) int16."""
    return np.full((games, rules.n_boxes, width(rules.rolls_per_turn)), -1, dtype=np.int16)


def start_turn(row: Row, roll: int) -> None:
    """Begin turn ``row`` with its first roll (every other slot -1)."""
    for s in range(row.shape[0]):
        row[s] = -1
    row[0] = roll


def put_reroll(row: Row, done: int, keep: int, roll: int) -> None:
    """Reroll ``done`` (0-based) of the turn: ``keep`` and the ``roll`` it gave."""
    row[2 * done + 1] = keep
    row[2 * done + 2] = roll


def put_box(row: Row, box: int) -> None:
    """The box the turn filled."""
    row[row.shape[0] - 1] = box


def rerolls(row: Row) -> int:
    """The rerolls of the turn (keeps written)."""
    done = 0
    while 2 * done + 1 < row.shape[0] - 1 and row[2 * done + 1] >= 0:
        done += 1
    return done


def keep_of(row: Row, done: int) -> int:
    """The keep of reroll ``done`` (0-based)."""
    return row[2 * done + 1]


def roll_of(row: Row, done: int) -> int:
    """The roll after ``done`` rerolls (0: the first roll)."""
    return row[2 * done]


def box_of(row: Row) -> int:
    """The box the turn filled."""
    return row[row.shape[0] - 1]


def turn_moves(row: Row) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], int]:
    """One turn of a trace as a game record has it: (the rolls as sorted faces, the keeps
    as sorted faces, the box index). A keep of all five dice rolled nothing a record could
    show, so it is left out with the roll after it."""
    rolls = [faces_of(KEEP_COUNTS[int(roll_of(row, 0))])]
    keeps = []
    for done in range(rerolls(row)):
        keep = int(keep_of(row, done))
        if KEEP_SIZE[keep] < DICE:
            keeps.append(faces_of(KEEP_COUNTS[keep]))
            rolls.append(faces_of(KEEP_COUNTS[int(roll_of(row, done + 1))]))
    return rolls, keeps, int(box_of(row))
