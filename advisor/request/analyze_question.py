"""``POST /api/analyze`` and ``POST /api/jobs/analyze``: the question of a game record
judged by an objective, and its review in the jobs' worker."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.solved_turn import SolvedTurn
from solver.stats import Progress
from solver.table import Table, get_table

from ..analysis import analyze
from ..caches import Caches
from ..model import Scorecard
from ..objective import Objective
from ..play_win import Judging, WinEachTurn, choose_judging
from ..ranking import TurnAdvisor
from ..record import GameRecord
from .turn_question import TurnQuestion


@dataclass(frozen=True)
class AnalyzeQuestion:
    """``POST /api/analyze`` (and ``POST /api/jobs/analyze``): a record judged by an
    objective (``objective``/``win_from``/``target``/``beat``/``opponent``, checked as
    ``yahtzee analyze`` checks them; none: the expected score)."""

    PARAMS: ClassVar = ("objective", "win_from", "target", "beat", "opponent")
    record: GameRecord
    judging: Judging

    @classmethod
    def parse(cls, record: GameRecord, *, objective_name: str | None = None,
              win_from: int | None = None, target: str | None = None,
              beat: str | None = None, opponent: str | None = None,
              noted: Judging | None = None) -> AnalyzeQuestion:
        """``noted``: what the record's first line says its game was played for, the
        objective when no parameter names one (as ``yahtzee analyze`` reads it)."""
        chosen = objective_name is not None or any(v is not None
                                                    for v in (target, beat, opponent))
        return cls(record, choose_judging(objective_name=objective_name, win_from=win_from,
                                          target=target, beat=beat, opponent=opponent,
                                          players=record.players, rules=record.rules,
                                          noted=None if chosen else noted))

    @property
    def key(self) -> tuple[str, ...]:
        return ("analyze", json.dumps(self.record.to_json(), sort_keys=True),
                json.dumps(self.judging.to_json(), sort_keys=True))

    @property
    def what(self) -> str:
        return f"the review of {len(list(self.record.positions()))} decisions"

    def json(self, table: Table | None = None, progress: Progress | None = None,
             known: dict[tuple[str, ...], SolvedTurn] | None = None, *,
             memory: Caches) -> dict[str, Any]:
        """The analysis; ``known``: turns solved already, by :attr:`TurnQuestion.key`;
        ``memory``: the caches of its solves (the asker's)."""
        table = table or get_table(self.record.rules)
        known = known or {}
        each_turn = isinstance(self.judging, WinEachTurn)
        made: dict[tuple[str, ...], TurnAdvisor] = {}

        def advisor(card: Scorecard, objective: Objective) -> TurnAdvisor:
            key = TurnQuestion(card, objective).key
            if key not in made:
                made[key] = TurnAdvisor(card, table, objective, memory=memory,
                                        solved=known.get(key), whole_game=not each_turn)
            return made[key]

        return analyze(self.record, self.judging, table=table, memory=memory,
                       advisors=advisor, progress=progress).to_json()


def analyze_job(arg: tuple[AnalyzeQuestion, dict[tuple[str, ...], SolvedTurn]],
                progress: Progress, memory: Caches) -> dict[str, Any]:
    """``AnalyzeQuestion.json`` in the jobs' worker process (with its ``memory``)."""
    question, known = arg
    return question.json(progress=progress, known=known, memory=memory)
