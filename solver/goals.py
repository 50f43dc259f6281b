"""What a turn is solved for, as the solver reads it: the goal behind an objective.

A goal is solver-level data for one objective of the advice: the expected score
(:class:`ExpectedGoal`, answered by the expected-score table, nothing solved), a target
(:class:`TargetGoal`: P(final score >= target)), the chance to win against opponents'
cards (:class:`WinGoal`) or a tournament's share of first place (:class:`TournamentGoal`).
Each says what the target / win DP (:mod:`solver.target`) needs: its terminal
:class:`~solver.target.Utility` (a win goal's from the opponents' exact final-score
distributions, :mod:`solver.points_to_come`), a utility of the same range known before
anything is solved (for the DP's work), whether a turn is solved at all, and what is kept
on disk or in memory for it. The advisor's objectives (:mod:`advisor.objective`) add the
words; :mod:`solver.solved_turn` and :mod:`solver.turn_face` solve a turn for a goal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from .errors import ObjectiveError
from .field import Field, check_players
from .game.card import Scorecard
from .game.ties import EV_TIE, P_TIE
from .memory import TurnMemory
from .points_to_come import NEW_GAME_STATE, Phase, final_distribution, max_distribution
from .stats import most_points_to_come
from .tournament_file import StoredTournament, get_tournament

if TYPE_CHECKING:
    from .table import Table
    from .target import Utility


class Goal:
    """What a turn is solved for (see the module docstring); a frozen value, its
    ``repr`` its identity (:attr:`key`)."""

    slow_open_boxes: ClassVar[int]
    """From this many open boxes a solve from the card takes more than about a second
    (measured: ``benchmarks/bench_play_win.py``, ``bench_target.py``)."""
    solves_turns: ClassVar[bool] = True
    """True when a turn is solved (the target / win DP); False when the expected-score
    table answers it at once."""
    solves_from_new_game: ClassVar[bool] = False
    """True when one solve from a new game answers every turn of every game (the utility
    never changes: a tournament's field is blind)."""
    keeps_game_vectors: ClassVar[bool] = False
    """True when one solve's vectors answer the game's later turns unchanged (a target)."""
    tie: ClassVar[float] = P_TIE
    """The tolerance within which two options' figures are equal (:mod:`solver.game.ties`)."""
    target: int | None = None
    """A target goal's target (the target table holds targets), else None."""
    against: tuple[Scorecard, ...] = ()
    """A win goal's opponents' cards, else ()."""

    @property
    def key(self) -> str:
        """The goal's identity among kept vectors: its ``repr``."""
        return repr(self)

    def is_out_of_reach(self, card: Scorecard) -> bool:
        """True when no play from ``card`` reaches the goal: every figure exactly 0,
        known without solving (a target beyond the most points still to come)."""
        return False

    def needs_solve(self, card: Scorecard) -> bool:
        """True when ``card``'s turn is solved to be answered."""
        return self.solves_turns and not self.is_out_of_reach(card)

    def first_turn_players(self, card: Scorecard) -> int | None:
        """The number of players when ``card``'s turn is the first turn of a game played
        to win (``card`` and every opponent's card new), else None."""
        return None

    def utility(self, table: Table, memory: TurnMemory, *,
                phase: Phase | None = None) -> Utility:
        """The terminal utility of the target / win DP. ``memory``: where the opponents'
        distributions are kept; ``phase()`` gives the progress callback of each
        distribution still to compute."""
        raise ObjectiveError("the expected score needs no utility")

    def utility_bounds(self, table: Table) -> Utility:
        """A utility with the same range as :meth:`utility`'s or a wider one, known before
        anything is solved: it tells the work of the DP
        (:func:`solver.target.solve_operations`)."""
        raise ObjectiveError("the expected score needs no utility")

    def stored_solve(self, table: Table, note: Callable[[str], None] | None = None
                     ) -> StoredTournament | None:
        """The goal's whole-game solve kept on disk (:mod:`solver.tournament_file`) when a
        usable one is there, else None (``note`` says why a file there is unusable)."""
        return None


@dataclass(frozen=True)
class ExpectedGoal(Goal):
    """The expected final score: the expected-score table answers every turn."""

    slow_open_boxes = 14
    solves_turns = False
    tie = EV_TIE


@dataclass(frozen=True)
class TargetGoal(Goal):
    """P(final score >= ``target``)."""

    target: int
    slow_open_boxes = 7
    keeps_game_vectors = True

    def is_out_of_reach(self, card: Scorecard) -> bool:
        state = (card.mask, card.upper, card.flag)
        return self.target > card.total + most_points_to_come(card.rules, state)

    def describe(self) -> str:
        return f"P(final score >= {self.target})"

    def utility(self, table: Table, memory: TurnMemory, *,
                phase: Phase | None = None) -> Utility:
        """A target above the rule set's highest score is solved as that score + 1
        (:func:`solver.target.target_cap`), so no array is larger than the game."""
        from .target import Utility  # numba (about 1 s to load)

        return Utility.target(self.target, table.rules)

    def utility_bounds(self, table: Table) -> Utility:
        return self.utility(table, TurnMemory())


@dataclass(frozen=True)
class WinGoal(Goal):
    """The chance to win against the opponents' cards ``against`` (one or more), each
    playing on from their card for the highest expected score; a tie of ``k`` at the top
    counts ``1/k``."""

    against: tuple[Scorecard, ...]
    slow_open_boxes = 6

    def first_turn_players(self, card: Scorecard) -> int | None:
        if (card.mask, card.upper, card.flag) != NEW_GAME_STATE:
            return None
        if any((c.mask, c.upper, c.flag) != NEW_GAME_STATE for c in self.against):
            return None
        return len(self.against) + 1

    def opponent_distributions(self, table: Table, memory: TurnMemory, *,
                               phase: Phase | None = None) -> list[np.ndarray]:
        """P(x = each opponent's final score) for x = 0..
        (:func:`solver.points_to_come.final_distribution`)."""
        return [final_distribution(card, table, memory, phase=phase) for card in self.against]

    def opponent_distribution(self, table: Table, memory: TurnMemory, *,
                              phase: Phase | None = None) -> np.ndarray:
        """P(x = the best opponent's final score) for x = 0.. (:func:`max_distribution`)."""
        return max_distribution(self.opponent_distributions(table, memory, phase=phase))

    def utility_bounds(self, table: Table) -> Utility:
        """0 below the best of the opponents' totals and constant above the most any of
        them can reach (the win's utility is 0 and 1 there)."""
        from .target import Utility  # numba (about 1 s to load)

        rules = table.rules
        low = max(card.total for card in self.against)
        top = max(card.total if card.is_full else
                  card.total + most_points_to_come(rules, (card.mask, card.upper, card.flag))
                  for card in self.against) + 1
        return Utility(np.zeros(top), 1.0, low)

    def utility(self, table: Table, memory: TurnMemory, *,
                phase: Phase | None = None) -> Utility:
        from .target import Utility  # numba (about 1 s to load)

        return Utility.win_share(self.opponent_distributions(table, memory, phase=phase))


@dataclass(frozen=True)
class TournamentGoal(Goal):
    """The expected share of first place among ``players`` in all, the others' final
    scores independent draws from ``field``'s distribution."""

    players: int
    field: Field
    slow_open_boxes = 6
    solves_from_new_game = True

    def __post_init__(self) -> None:
        check_players(self.players)

    def utility_bounds(self, table: Table) -> Utility:
        """Every score a game can have."""
        from .target import Utility, target_cap  # numba (about 1 s to load)

        return Utility(np.zeros(target_cap(table.rules)), 1.0, 0)

    def utility(self, table: Table, memory: TurnMemory, *,
                phase: Phase | None = None) -> Utility:
        from .target import Utility  # numba (about 1 s to load)

        return Utility.tournament(self.field.distribution(table), self.players)

    def stored_solve(self, table: Table, note: Callable[[str], None] | None = None
                     ) -> StoredTournament | None:
        return get_tournament(table, self.players, self.field,
                              self.utility(table, TurnMemory()), note)
