"""``POST /api/jobs/turn``: the question of a turn solved once in the background under a
target, win or tournament objective, and its solve in the jobs' worker."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from solver.solved_turn import SolvedTurn, solve_turn
from solver.stats import Progress
from solver.table import get_table

from ..caches import Caches
from ..model import Scorecard
from ..objective import Objective
from .cards import parsed_card
from .params import RequestError


@dataclass(frozen=True)
class TurnQuestion:
    """``POST /api/jobs/turn``: a turn of ``card`` under a target or win objective, solved
    once in the background for every roll of the turn (``/api/advise`` then answers its
    rolls at once)."""

    PARAMS: ClassVar = ("card", "target", "beat", "opponent", "opponents", "tournament",
                        "rules")
    card: Scorecard
    objective: Objective

    @classmethod
    def parse(cls, *, card_text: str, rules_name: str, target: str | None = None,
              beat: str | None = None, opponent: str | None = None,
              opponents: str | None = None, tournament: str | None = None) -> TurnQuestion:
        card = parsed_card(card_text, rules_name)
        card.check_not_full()
        objective = Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                            rules=rules_name, opponents=opponents,
                                            tournament=tournament)
        if not objective.solves_turns:
            raise RequestError("the expected score needs no background solve: give target, "
                               "beat, opponent, opponents or tournament")
        return cls(card, objective)

    @property
    def key(self) -> tuple[str, ...]:
        """What identifies the solve: the rules, the card and the objective."""
        return ("turn", self.card.rules_name, str(self.card),
                json.dumps(self.objective.to_json(), sort_keys=True))

    @property
    def what(self) -> str:
        """What the job works out, for the page: ``the chance to win (13 boxes open)``."""
        n_open = len(self.card.open_boxes())
        return f"{self.objective.chance_words} ({n_open} box{'es' if n_open > 1 else ''} open)"


def solve_turn_job(question: TurnQuestion, progress: Progress | None, memory: Caches
                   ) -> SolvedTurn:
    """The turn solved (in the jobs' worker process, with its ``memory``; the table from
    its cache). A target's vectors are kept there for the game's later turns; each turn's
    win objective solves that turn alone."""
    objective = question.objective
    return solve_turn(question.card, get_table(question.card.rules_name), objective.goal,
                      memory, progress=progress, whole_game=objective.keeps_game_vectors)
