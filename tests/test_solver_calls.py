"""tools/solver_calls.py counts the advisor's entry points into the solver: on a question
whose calls are known by hand, the trace finds exactly those, with their number of
calls. The question under a probability objective enters through the one face
(solver/turn_face.py) and nothing else."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.ranking import TurnAdvisor

ROOT = Path(__file__).resolve().parents[1]
CARD = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20,"
        "four_of_a_kind=0,full_house=25,small_straight=30,large_straight=40")


def _tool():
    spec = importlib.util.spec_from_file_location("solver_calls",
                                                  ROOT / "tools" / "solver_calls.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _traced(question) -> dict[tuple[str, str], int]:
    entries = _tool().EntryPoints()
    sys.setprofile(entries.trace)
    try:
        question()
    finally:
        sys.setprofile(None)
    return entries.found


def test_a_turns_rolls_enter_the_solver_through_the_one_face_once_each(official_table):
    card = Scorecard.parse(CARD)
    advisor = TurnAdvisor(card, official_table, Objective.for_target(card.total + 40))

    def three_rolls() -> None:  # a Table passed in: no get_table; three rolls of a turn
        for dice, rolls_left in (("22456", 2), ("66666", 1), ("11223", 0)):
            advisor.advise(dice, rolls_left)

    assert _traced(three_rolls) == {("solver.turn_face", "turn_options"): 3}


def test_only_calls_from_advisor_code_count_and_value_types_are_aside(official_table):
    from solver.table import turn_values

    card = Scorecard.parse(CARD)
    state = (card.mask, card.upper, card.flag)

    def from_advisor() -> None:
        advisor = TurnAdvisor(card, official_table)
        for _ in range(2):
            assert advisor.turn.shape == (3, 462)  # turn_values once, then kept
        advisor.value_before_turn()  # the table's own value: a value type's method
        card.rules.after_box(*state, 12, 30)  # the game's rules: aside

    assert _traced(from_advisor) == {("solver.table", "turn_values"): 1}
    assert _traced(lambda: turn_values(official_table, *state)) == {}  # from a test frame
