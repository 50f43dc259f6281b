"""What the server's worker process runs of a question (module-level functions, which a
worker process can be handed)."""

from __future__ import annotations

from typing import Any

from solver.solved_turn import SolvedTurn

from .advise_question import AdviseQuestion
from .grade_question import GradeQuestion
from .stats_question import StatsQuestion
from .train_question import TrainQuestion


def answer(question: AdviseQuestion | StatsQuestion | TrainQuestion | GradeQuestion
           ) -> dict[str, Any]:
    """``question.json()`` (a module-level function, for the server's worker process)."""
    return question.json()


def answer_solved(arg: tuple[AdviseQuestion, SolvedTurn]) -> dict[str, Any]:
    """``question.answer_from(solved)`` (for the server's worker process: a why needs the
    figures of every state, which it keeps)."""
    question, solved = arg
    return question.answer_from(solved)
