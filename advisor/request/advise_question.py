"""``yahtzee advise`` and ``GET /api/advise``: the question of one roll's ranked options,
checked once and answered once (its JSON is both ``advise --json`` and the API's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.solved_turn import SolvedTurn
from solver.stats import Progress
from solver.table import Table

from ..caches import Caches
from ..model import Dice, Scorecard
from ..objective import Objective
from ..ranking import Advice, TurnAdvisor, question_rolls_left, turn_advisor
from .cards import parsed_card
from .params import RequestError
from .turn_question import TurnQuestion


@dataclass(frozen=True)
class AdviseQuestion:
    """``yahtzee advise`` and ``GET /api/advise``: every choice for ``dice`` on ``card``."""

    PARAMS: ClassVar = ("dice", "rolls_left", "card", "top", "target", "beat", "opponent",
                        "opponents", "tournament", "why", "rules")
    """The server's query keys (a tournament's field is the default, expected-score play:
    observed scores are the command line's ``--field-scores FILE`` only, the server reads
    no file named by a request)."""
    card: Scorecard
    dice: Dice
    rolls_left: int
    objective: Objective
    top: int
    why: bool = False

    @classmethod
    def parse(cls, *, dice_text: str | None, card_text: str, rules_name: str,
              rolls_left: int | None = None, top: int = 10, target: str | None = None,
              beat: str | None = None, opponent: str | None = None,
              opponents: str | None = None, why: bool = False,
              tournament: str | None = None, field: str | None = None,
              field_scores: str | None = None) -> AdviseQuestion:
        """The question checked in the order the CLI reports errors: dice, card, rolls
        left, objective."""
        dice = cls.parse_dice(dice_text)
        card = parsed_card(card_text, rules_name)
        rolls_left = question_rolls_left(card, rolls_left)
        objective = Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                            rules=rules_name, opponents=opponents,
                                            tournament=tournament, field=field,
                                            field_scores=field_scores)
        return cls(card, dice, rolls_left, objective, top, bool(why))

    @property
    def turn(self) -> TurnQuestion:
        """The turn this question is a roll of (one solve answers every roll of it)."""
        return TurnQuestion(self.card, self.objective)

    def answer_from(self, solved: SolvedTurn | None, table: Table | None = None, *,
                    memory: Caches) -> dict[str, Any]:
        """The JSON answer from the turn already solved (None: the expected score);
        ``memory``: the asker's caches."""
        advisor = TurnAdvisor(self.card, table, self.objective, memory=memory, solved=solved)
        return advisor.advise(self.dice, self.rolls_left, why=self.why).to_json(self.top)

    @staticmethod
    def parse_dice(dice_text: str | None) -> Dice:
        """The dice showing, which every advise question needs."""
        if dice_text is None:
            raise RequestError("give the dice showing, e.g. yahtzee advise 22256 "
                               "(or --dice 22256)")
        return Dice.parse(dice_text)

    def solve(self, table: Table | None = None, progress: Progress | None = None, *,
              memory: Caches, note: Callable[[str], None] | None = None) -> Advice:
        """The advice (the card's turn solved once per ``memory``, the asker's caches:
        ``turn_advisor``);
        ``progress(done, total)`` follows a target or win objective's solve; ``note(text)``
        is first told what a user is to know before it (an unusable kept solve or target
        table, a slow solve without a target table)."""
        card, objective = self.card, self.objective
        advisor = turn_advisor(card, table, objective, memory=memory, build=lambda t: TurnAdvisor(
            card, t, objective, memory=memory, progress=progress))
        return advisor.advise(self.dice, self.rolls_left, why=self.why, note=note)

    def json(self, table: Table | None = None, progress: Progress | None = None, *,
             memory: Caches) -> dict[str, Any]:
        return self.solve(table, progress, memory=memory).to_json(self.top)
