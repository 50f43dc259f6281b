"""``solver.solved_turn``: which turns are slow to solve (by the boxes open and what the
goal asks), and the note that names every target a solve works out."""

from __future__ import annotations

from advisor.model import Scorecard
from advisor.record import parse_record
from solver.goals import ExpectedGoal, TargetGoal, WinGoal
from solver.memory import TurnMemory
from solver.solved_turn import solve_is_slow
from tests.advisor.test_play import LATE


def test_solve_is_slow_by_open_boxes_and_what_is_kept(official_table):
    new = parse_record("rules official\nplayers Ann,Bob\n").cards()["Ann"]
    late = parse_record(LATE).cards()["Ann"]
    memory = TurnMemory()
    assert solve_is_slow(new, official_table, TargetGoal(300), memory)
    assert solve_is_slow(new, official_table, WinGoal((late,)), memory)
    assert not solve_is_slow(late, official_table, TargetGoal(200), memory)
    assert not solve_is_slow(late, official_table, ExpectedGoal(), memory)
    assert not solve_is_slow(late, official_table, TargetGoal(2000), memory)  # unreachable


def test_the_target_note_names_every_target_solved(official_table):
    """`stats --target 250` from a new game solves the rows of its table too (up to 500):
    the note names them all, not only the largest."""
    from solver.solved_turn import targets_note

    card = Scorecard.new()
    note = targets_note(card, official_table, TargetGoal(500), TurnMemory(),
                        [150, 200, 250, 300, 350, 400, 450, 500])
    assert note is not None
    assert note.startswith("note: P(final score >= X) for X = 150, 200, 250, 300, 350, 400, "
                           "450, 500 is solved from this card")
    alone = targets_note(card, official_table, TargetGoal(250), TurnMemory(),
                         [250])
    assert alone is not None and alone.startswith("note: P(final score >= 250) is solved ")
