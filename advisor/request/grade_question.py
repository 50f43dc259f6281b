"""``GET /api/grade``: the question of one practice answer graded against the best choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from solver.table import Table

from ..caches import Caches
from ..model import Dice, Scorecard
from ..objective import Objective
from ..ranking import question_rolls_left
from ..train import Position, grade
from .advise_question import AdviseQuestion
from .cards import parsed_card


@dataclass(frozen=True)
class GradeQuestion:
    """``GET /api/grade``: one practice answer graded against the best choice (the
    entry ``yahtzee train --json`` gives each position)."""

    PARAMS: ClassVar = ("card", "dice", "rolls_left", "answer", "target", "beat", "rules")
    card: Scorecard
    dice: Dice
    rolls_left: int
    answer: str
    objective: Objective

    @classmethod
    def parse(cls, *, card_text: str, dice_text: str | None, rules_name: str,
              answer_text: str, rolls_left: int | None = None, target: str | None = None,
              beat: str | None = None) -> GradeQuestion:
        dice = AdviseQuestion.parse_dice(dice_text)
        card = parsed_card(card_text, rules_name)
        rolls_left = question_rolls_left(card, rolls_left)
        objective = Objective.parse_options(target=target, beat=beat, rules=rules_name)
        return cls(card, dice, rolls_left, answer_text, objective)

    def json(self, table: Table | None = None, *, memory: Caches) -> dict[str, Any]:
        position = Position(self.card, self.dice, self.rolls_left)
        return grade(position, self.answer, table, self.objective, why=True,
                     memory=memory).to_json()
