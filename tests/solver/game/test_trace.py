"""The trace layout (solver.game.trace): where the writers put a turn's moves, and the
turns a record reads back from hand-written rows, in Python and as the kernels compile
the same writers."""

from __future__ import annotations

import numpy as np
import pytest

from solver.game import trace as python_trace
from solver.game.dice import KEEP_INDEX, counts_of
from solver.game.trace import new_traces, rerolls, turn_moves
from solver.kernels import trace as kernel_trace


def index(faces: str) -> int:
    return int(KEEP_INDEX[counts_of(tuple(int(f) for f in faces))])


@pytest.mark.parametrize("writers", [python_trace, kernel_trace], ids=["python", "numba"])
def test_the_writers_put_each_move_in_its_slot(writers):
    row = np.full(6, 7, dtype=np.int16)  # three rolls a turn: 6 slots
    writers.start_turn(row, index("11234"))
    assert row.tolist() == [index("11234"), -1, -1, -1, -1, -1]
    writers.put_reroll(row, 0, index("11"), index("11156"))
    writers.put_box(row, 5)
    assert row.tolist() == [index("11234"), index("11"), index("11156"), -1, -1, 5]
    writers.put_reroll(row, 1, index("111"), index("11111"))
    assert row.tolist() == [index("11234"), index("11"), index("11156"), index("111"),
                            index("11111"), 5]


def test_a_record_reads_the_rolls_keeps_and_box():
    row = np.array([index("11234"), index("11"), index("11156"), index("111"),
                    index("11111"), 11], dtype=np.int16)
    assert rerolls(row) == 2
    assert turn_moves(row) == ([(1, 1, 2, 3, 4), (1, 1, 1, 5, 6), (1, 1, 1, 1, 1)],
                               [(1, 1), (1, 1, 1)], 11)


def test_a_box_scored_with_rolls_left():
    row = np.array([index("23456"), -1, -1, -1, -1, 10], dtype=np.int16)
    assert rerolls(row) == 0
    assert turn_moves(row) == ([(2, 3, 4, 5, 6)], [], 10)


def test_a_keep_of_all_five_is_a_reroll_a_record_leaves_out():
    row = np.array([index("66612"), index("66612"), index("66612"), index("666"),
                    index("66666"), 11], dtype=np.int16)
    assert rerolls(row) == 2  # the keep of five used a roll
    assert turn_moves(row) == ([(1, 2, 6, 6, 6), (6, 6, 6, 6, 6)], [(6, 6, 6)], 11)


def test_new_traces_are_every_slot_unset(official_table):
    traces = new_traces(3, official_table.rules)
    assert traces.shape == (3, 13, 6) and traces.dtype == np.int16 and (traces == -1).all()
