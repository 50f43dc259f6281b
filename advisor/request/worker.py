"""What the server's worker process runs of a question (module-level functions, which a
worker process can be handed)."""

from __future__ import annotations

from typing import Any

from solver.solved_turn import SolvedTurn

from ..caches import Caches
from .advise_question import AdviseQuestion
from .grade_question import GradeQuestion
from .stats_question import StatsQuestion
from .train_question import TrainQuestion


def answer(question: AdviseQuestion | StatsQuestion | TrainQuestion | GradeQuestion,
           memory: Caches) -> dict[str, Any]:
    """``question.json()`` with the worker's ``memory`` (a module-level function, for the
    server's worker process)."""
    return question.json(memory=memory)


def answer_solved(arg: tuple[AdviseQuestion, SolvedTurn], memory: Caches) -> dict[str, Any]:
    """``question.answer_from(solved)`` (for the server's worker process: a why needs the
    figures of every state, which it keeps; ``memory``: the worker's)."""
    question, solved = arg
    return question.answer_from(solved, memory=memory)
