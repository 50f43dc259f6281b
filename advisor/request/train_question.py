"""``GET /api/train`` and ``GET /api/train/session``: the question of a practice
session's positions, and of the session graded (``yahtzee train --json``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from solver.game.rules import get_rules
from solver.table import Table, get_table

from ..caches import Caches
from ..objective import Objective
from ..train import check_count, positions_json, positions_of_play, session_of, split_answers
from .params import RequestError


@dataclass(frozen=True)
class TrainQuestion:
    """``GET /api/train``: the positions of a practice session (``yahtzee train``'s, for
    a seed), with their choices and no figures; with ``answers``
    (``GET /api/train/session``) the whole session graded, as ``yahtzee train --json``
    prints it."""

    PARAMS: ClassVar = ("positions", "seed", "target", "beat", "rules")
    SESSION_PARAMS: ClassVar = ("positions", "seed", "answers", "target", "beat", "rules")
    rules: str
    n_positions: int
    seed: int | None
    objective: Objective
    answers: tuple[str, ...] | None = None

    @classmethod
    def parse(cls, *, rules_name: str, n_positions: int = 10, seed: int | None = None,
              target: str | None = None, beat: str | None = None,
              answers_text: str | None = None) -> TrainQuestion:
        n = check_count(n_positions)
        objective = Objective.parse_options(target=target, beat=beat, rules=rules_name)
        if answers_text is None:
            return cls(get_rules(rules_name).name, n, seed, objective)
        if seed is None:
            raise RequestError("give the seed of the session's positions")
        return cls(get_rules(rules_name).name, n, seed, objective,
                   tuple(split_answers(answers_text, n)))

    def json(self, table: Table | None = None, *, memory: Caches) -> dict[str, Any]:
        table = table or get_table(self.rules)
        if self.answers is None:
            return positions_json(table, self.n_positions, self.seed, self.objective,
                                  memory=memory)
        assert self.seed is not None
        positions = positions_of_play(table, self.n_positions, self.seed)
        return session_of(table, positions, self.answers, self.objective,
                          seed=self.seed, memory=memory).to_json()
