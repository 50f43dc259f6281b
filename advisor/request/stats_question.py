"""``yahtzee stats`` and ``GET /api/stats``: the question of the exact figures of optimal
play from a card (a target's chance, a tournament's shares)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from solver.stats import OptimalStats, Progress
from solver.table import Table, get_table

from ..caches import Caches
from ..model import Scorecard
from ..objective import Objective
from .cards import parsed_card

if TYPE_CHECKING:
    from ..target_stats import TargetStats


@dataclass(frozen=True)
class StatsQuestion:
    """``yahtzee stats`` and ``GET /api/stats``: exact figures of optimal play from the
    start of ``card``'s next turn; with ``target``, P(final >= target) instead."""

    PARAMS: ClassVar = ("card", "target", "rules")
    card: Scorecard
    target: int | None
    tournament: Objective | None = None
    """A tournament objective (``--tournament N``): its shares of first place instead."""

    @classmethod
    def parse(cls, *, card_text: str, rules_name: str,
              target: str | None = None, tournament: str | None = None,
              field: str | None = None, field_scores: str | None = None) -> StatsQuestion:
        card = parsed_card(card_text, rules_name)
        card.check_not_full()
        if tournament is not None or field is not None or field_scores is not None:
            objective = Objective.parse_options(target=target, tournament=tournament,
                                                field=field, field_scores=field_scores,
                                                rules=rules_name)
            return cls(card, None, objective)
        return cls(card, Objective.for_target(target).target if target is not None else None)

    def solve(self, table: Table | None = None, progress: Progress | None = None, *,
              memory: Caches) -> OptimalStats | TargetStats | Any:
        """The figures (a tournament's solve reads and fills ``memory``, the asker's
        caches)."""
        from ..target_stats import (  # numba: not on every start
            card_stats,
            target_stats,
            tournament_stats,
        )

        table = table or get_table(self.card.rules_name)
        if self.tournament is not None:
            return tournament_stats(table, self.card, self.tournament, progress,
                                    memory=memory)
        if self.target is not None:
            return target_stats(table, self.card, self.target, progress=progress)
        return card_stats(table, self.card, progress=progress)

    def json(self, table: Table | None = None, progress: Progress | None = None, *,
             memory: Caches) -> dict[str, Any]:
        data = self.solve(table, progress, memory=memory).to_json()
        if self.target is None and self.tournament is None and self.card.turn > 1:
            data["card"] = self.card.to_json()
        return data
