"""What the advice maximises: the expected score, P(final >= target) or P(beat an opponent).

An :class:`Objective` is a small value (INTERFACE.md, "Objectives"):

- ``Objective.ev()``: the expected final score (the default);
- ``Objective.target(x)``: P(final score >= x); ``Objective.beat(n)`` is ``target(n + 1)``;
- ``Objective.win(card)``: P(my final > the opponent's), the opponent playing on from
  ``card`` for the highest expected score (their exact final-score distribution); a full
  card is a finished opponent.

:meth:`Objective.parse_options` builds one from the command-line options and raises
:class:`~solver.errors.ObjectiveError` for two objectives at once or a bad value.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import ObjectiveError, YahtzeeError
from solver.rules import DEFAULT_RULES, RuleSet, get_rules

from .model import Scorecard

if TYPE_CHECKING:
    from solver.table import Table
    from solver.target import Utility

KINDS = ("ev", "target", "win")


def _whole_points(value: Any, what: str) -> int:
    """A whole number of points, 0 or more, from an int or its text."""
    text = str(value).strip()
    try:
        number = operator.index(value) if not isinstance(value, (str, bool)) else int(text)
    except (TypeError, ValueError):
        number = None
    if isinstance(value, bool) or number is None or number < 0:
        raise ObjectiveError(f"{what} {text!r}: give a whole number of points, 0 or more "
                             f"(e.g. 300)")
    return number


@dataclass(frozen=True)
class Objective:
    """One objective; ``target`` is set for kind ``target``, ``opponent`` for ``win``."""

    kind: str = "ev"
    target: int | None = None
    opponent: Scorecard | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ObjectiveError(f"objective {self.kind!r}: use one of {', '.join(KINDS)}")
        if (self.kind == "target") != (self.target is not None) or \
                (self.kind == "win") != (self.opponent is not None):
            raise ObjectiveError("a target objective needs target=..., a win objective "
                                 "opponent=...")

    # ------------------------------------------------------------------ building
    @classmethod
    def ev(cls) -> Objective:
        return cls()

    @classmethod
    def for_target(cls, x: int | str) -> Objective:
        """P(final score >= x)."""
        return cls("target", target=_whole_points(x, "target"))

    @classmethod
    def beat(cls, n: int | str) -> Objective:
        """P(final score > n): the target n + 1."""
        return cls("target", target=_whole_points(n, "score to beat") + 1)

    @classmethod
    def win(cls, opponent: Scorecard | str, rules: str | RuleSet = DEFAULT_RULES) -> Objective:
        """P(my final > the opponent's), the opponent's card given as text or a card."""
        if isinstance(opponent, str):
            try:
                opponent = Scorecard.parse(opponent, rules)
            except YahtzeeError as exc:
                raise ObjectiveError(f"opponent card: {exc}") from exc
        return cls("win", opponent=opponent)

    @classmethod
    def parse_options(cls, *, target: int | str | None = None, beat: int | str | None = None,
                      opponent: str | Scorecard | None = None,
                      rules: str | RuleSet = DEFAULT_RULES) -> Objective:
        """The objective of ``--target X``, ``--beat N`` or ``--opponent CARD`` (at most
        one); none of them: the expected score."""
        given = [name for name, v in (("--target", target), ("--beat", beat),
                                      ("--opponent", opponent)) if v is not None]
        if len(given) > 1:
            raise ObjectiveError(f"{' and '.join(given)} given: choose one objective "
                                 "(--target X, --beat N or --opponent CARD)")
        if target is not None:
            return cls.for_target(target)
        if beat is not None:
            return cls.beat(beat)
        if opponent is not None:
            return cls.win(opponent, get_rules(rules))
        return cls.ev()

    # ------------------------------------------------------------------ meaning
    @property
    def is_ev(self) -> bool:
        return self.kind == "ev"

    @property
    def key(self) -> str | None:
        """The per-option key: ``p_target``, ``p_win`` or None (expected score)."""
        return {"ev": None, "target": "p_target", "win": "p_win"}[self.kind]

    def describe(self) -> str:
        """``the expected final score``, ``P(final score >= 300)`` or ``P(beating ...)``."""
        if self.kind == "target":
            return f"P(final score >= {self.target})"
        if self.kind == "win":
            assert self.opponent is not None
            if self.opponent.is_full:
                return f"P(final score > {self.opponent.total}, the opponent's final score)"
            return (f"P(final score > the opponent's), opponent at {self.opponent.total} "
                    f"with {len(self.opponent.open_boxes())} boxes open")
        return "the expected final score"

    def __str__(self) -> str:
        if self.kind == "target":
            return f"target {self.target}"
        if self.kind == "win":
            return f"win against {self.opponent}"
        return "ev"

    def to_json(self) -> dict[str, Any]:
        if self.kind == "target":
            return {"kind": "target", "target": self.target}
        if self.kind == "win":
            return {"kind": "win", "opponent": str(self.opponent)}
        return {"kind": "ev"}

    # ------------------------------------------------------------------ solving
    def opponent_distribution(self, table: Table) -> np.ndarray:
        """P(opponent's final score = x) for x = 0.. (win objective): exact, from their
        card, assuming they play on for the highest expected score."""
        card = self.opponent
        if card is None:
            raise ObjectiveError("only a win objective has an opponent")
        if card.rules_name != table.rules.name:
            raise ObjectiveError(f"the opponent's card is for rules {card.rules_name!r}, "
                                 f"the table for {table.rules.name!r}")
        if card.is_full:
            dist = np.zeros(card.total + 1)
            dist[card.total] = 1.0
            return dist
        from solver.stats import optimal_stats

        to_come = optimal_stats(table, start=(card.mask, card.upper, card.flag)).distribution
        return np.concatenate((np.zeros(card.total), to_come))

    def utility(self, table: Table) -> Utility:
        """The terminal utility of the target / win DP (not for the expected score)."""
        from solver.target import Utility

        if self.kind == "target":
            assert self.target is not None
            return Utility.target(self.target)
        if self.kind == "win":
            return Utility.beat_distribution(self.opponent_distribution(table))
        raise ObjectiveError("the expected score needs no utility")
