"""``yahtzee stats --target X [--card C]``: the chance of reaching a target, exactly, for
the best strategy for that target and for the expected-score strategy.

From a card (a new game by default) with total ``T``:

- ``p_target``: ``W(state, X - T)``, the target DP (:mod:`solver.target`);
- ``p_target_ev``: P(final >= X) when playing for the highest expected score, from the
  exact distribution of the points still to come (:func:`solver.stats.optimal_stats`;
  a new game's cached beside the table, :mod:`solver.stats_file`);
- the same two for a range of targets (``target_rows``), from one solve of the target
  DP for the highest of them (a vector per state answers every lower target too).
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.forward import FinalScores, final_scores
from solver.levels import PROGRESS_STEPS
from solver.solved_turn import solve_start, stored_vectors
from solver.stats import OptimalStats, Progress, most_points_to_come, optimal_stats
from solver.stats_file import new_game_stats
from solver.table import Table
from solver.target import Utility, solve_vectors, turn_at
from solver.target_table import get_targets
from solver.vector_cache import vectors_for

from .caches import Caches
from .model import Scorecard
from .objective import Objective
from .ranking import TurnAdvisor

ROW_STEP = 25


def target_rows(rules_name: str) -> tuple[int, ...]:
    """The targets of the table: 150 to 500 by 25 (Yatzy: 100 to 350 by 25)."""
    if rules_name == "yatzy":
        return tuple(range(100, 351, ROW_STEP))
    return tuple(range(150, 501, ROW_STEP))


def card_stats(table: Table, card: Scorecard, progress: Progress | None = None) -> OptimalStats:
    """The exact statistics of expected-score play from the start of ``card``'s next turn,
    with the distribution of the *final* score (the card's total added); a new game's
    are computed once and cached beside the table (:mod:`solver.stats_file`)."""
    card.check_not_full()
    if card.mask == 0:  # a new game
        return new_game_stats(table, progress=progress)
    result = optimal_stats(table, progress, start=(card.mask, card.upper, card.flag))
    if card.total == 0:
        return result
    shifted = np.concatenate((np.zeros(card.total), result.distribution))
    return dataclasses.replace(result, distribution=shifted)


@dataclass(frozen=True, eq=False)
class TargetStats:
    """p_target and p_target_ev of one card for one target and a table of targets."""

    card: Scorecard
    target: int
    p_target: float
    p_target_ev: float
    rows: tuple[tuple[int, float, float], ...]
    """(target, p_target, p_target_ev) for each row target (none for a target out of
    reach: :meth:`Objective.is_out_of_reach`)."""
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.card.rules_name, "card": str(self.card),
                "total": self.card.total,
                "objective": {"kind": "target", "target": self.target},
                "target": self.target, "p_target": self.p_target,
                "p_target_ev": self.p_target_ev,
                "targets": [{"target": x, "p_target": p, "p_target_ev": q}
                            for x, p, q in self.rows],
                "seconds": self.seconds}


@dataclass(frozen=True, eq=False)
class TournamentStats:
    """The expected share of first place of one card in a tournament: under tournament
    play (the objective's best strategy) and under expected-score play; and the exact
    final-score distribution of tournament play (``play``) beside expected-score play's
    mean (``mean_ev``)."""

    card: Scorecard
    objective: Objective
    win_share: float
    win_share_ev: float
    play: FinalScores
    mean_ev: float
    seconds: float

    @property
    def score_given_up(self) -> float:
        """The expected final score tournament play gives up against expected-score play
        (points)."""
        return self.mean_ev - self.play.mean

    def to_json(self) -> dict[str, Any]:
        play = {**self.play.to_json(), "score_given_up": self.score_given_up}
        return {"rules": self.card.rules_name, "card": str(self.card),
                "total": self.card.total, "objective": self.objective.to_json(),
                "players": self.objective.players, "win_share": self.win_share,
                "win_share_ev": self.win_share_ev, **play, "mean_ev": self.mean_ev,
                "seconds": self.seconds}


def tournament_stats(table: Table, card: Scorecard, objective: Objective,
                     progress: Progress | None = None, *, memory: Caches) -> TournamentStats:
    """The exact expected share of first place from ``card`` (a new game by default)
    under ``objective`` (a tournament): ``win_share`` of tournament play (the objective's
    solve, kept for the game's turns: :func:`solver.solved_turn.solve_turn`), and
    ``win_share_ev``, E[U(final)] over the exact final-score distribution of
    expected-score play (exactly 1/N from a new game against an expected-score field);
    and tournament play's final-score distribution (the forward pass, about four times
    the solve's CPU: ``progress`` gives it :data:`PLAY_WORK` of the bar). ``memory``: the
    caches the solve reads and fills (the asker's)."""
    began = time.perf_counter()
    card.check_not_full()
    utility = objective.utility(table, memory)
    dist = card_stats(table, card).distribution
    shares = np.full(dist.shape[0], utility.above)
    k = min(dist.shape[0], utility.top)
    shares[:k] = utility.values[:k]
    ev = math.fsum((dist * shares).tolist())
    mean_ev = math.fsum((dist * np.arange(dist.shape[0])).tolist())
    steps = _Phases(progress, PLAY_WORK)
    best = TurnAdvisor(card, table, objective, memory=memory,
                       progress=steps.first).probability()
    play = tournament_play(table, card, objective, utility, steps.second, memory=memory)
    return TournamentStats(card, objective, best, min(max(ev, 0.0), 1.0), play, mean_ev,
                           time.perf_counter() - began)


PLAY_WORK = 0.8
"""The share of ``stats --tournament``'s progress given to the forward pass (the rest to
the DP): the pass took 3.9 to 4.4 times the DP's CPU time from cards of six and eight
open boxes and from a new game (``benchmarks/bench_forward.py``)."""


class _Phases:
    """One progress ``(done, PROGRESS_STEPS)`` over two phases that each report their own
    ``(done, total)``: the first on ``[0, 1 - share]``, the second on the rest."""

    def __init__(self, progress: Progress | None, share: float) -> None:
        self.progress, self.share = progress, share

    def first(self, done: int, total: int) -> None:
        self._say((1.0 - self.share) * done / max(total, 1))

    def second(self, done: int, total: int) -> None:
        self._say(1.0 - self.share + self.share * done / max(total, 1))

    def _say(self, part: float) -> None:
        if self.progress is not None:
            self.progress(min(int(PROGRESS_STEPS * part), PROGRESS_STEPS), PROGRESS_STEPS)


def tournament_play(table: Table, card: Scorecard, objective: Objective, utility: Utility,
                    progress: Progress | None = None, *, memory: Caches) -> FinalScores:
    """The exact final-score distribution of tournament play from ``card``: the forward
    pass (:func:`solver.forward.final_scores`) by the objective's vectors, the ones its
    turns read (kept in ``memory`` or on disk) when they hold every level after the
    card's, else solved again from where its turns are solved, every level kept."""
    goal = objective.goal
    start = solve_start(card, goal)
    vectors = vectors_for(start, table, goal, memory, utility=utility, turn=card)
    after = range(bin(card.mask).count("1") + 1, table.rules.n_boxes + 1)
    if any(n not in vectors.levels for n in after):  # (past the kept bytes: let go)
        vectors = solve_vectors(table, utility, start=(start.mask, start.upper, start.flag),
                                total=start.total,
                                keep=tuple(range(table.rules.n_boxes + 1)))
    return final_scores(table, vectors, start=(card.mask, card.upper, card.flag),
                        total=card.total, progress=progress)


def asked_targets(card: Scorecard, target: int, rows: tuple[int, ...] | None = None
                  ) -> list[int]:
    """The targets of a ``stats --target`` question that need the target DP: above the
    card's total and within reach (the others are 1 or 0), ascending."""
    rows = target_rows(card.rules_name) if rows is None else rows
    total = card.total
    reach = total + most_points_to_come(card.rules, (card.mask, card.upper, card.flag))
    return sorted({x for x in (target, *rows) if total < x <= reach})


def stored_top(table: Table, wanted: list[int]) -> int | None:
    """The largest of ``wanted`` the rules' target table holds (None: none, or no
    table); those above it are solved."""
    targets = get_targets(table)
    held = [x for x in wanted if targets is not None and targets.answers(x)]
    return held[-1] if held else None


def target_stats(table: Table, card: Scorecard, target: int,
                 rows: tuple[int, ...] | None = None,
                 progress: Progress | None = None) -> TargetStats:
    """Exact P(final >= x) from ``card`` for ``target`` and every row target ``x``, under
    the best strategy for ``x`` and under the expected-score strategy. The targets the
    rules' target table holds are read there; one solve from the card answers the rest
    (a vector per state answers every lower target too). A ``target`` out of reach is 0
    for both at once, without the rows (:meth:`Objective.is_out_of_reach`)."""
    began = time.perf_counter()
    card.check_not_full()
    if Objective.for_target(target).is_out_of_reach(card):  # 0 for every strategy: no
        # solve, no table of targets
        return TargetStats(card, target, 0.0, 0.0, (), time.perf_counter() - began)
    rows = target_rows(card.rules_name) if rows is None else rows
    total = card.total
    state = (card.mask, card.upper, card.flag)
    dist = card_stats(table, card).distribution
    tail = np.cumsum(dist[::-1])[::-1]

    def p_ev(x: int) -> float:
        return 1.0 if x <= 0 else float(min(tail[x], 1.0)) if x < tail.shape[0] else 0.0

    best: dict[int, float] = {x: 1.0 if x <= total else 0.0 for x in (target, *rows)}
    left = asked_targets(card, target, rows)
    top = stored_top(table, left)
    if top is not None:
        vectors = stored_vectors(table, Objective.for_target(top).goal, card)
        if vectors is not None:  # (None: a level it reads is damaged)
            best.update(_read(vectors, state, total, top, [x for x in left if x <= top]))
            left = [x for x in left if x > top]
    if left:  # what no target table holds: one solve from the card
        top = left[-1]
        vectors = solve_vectors(table, Utility.target(top, table.rules), start=state,
                                progress=progress)
        best.update(_read(vectors, state, total, top, left))
    return TargetStats(card, target, best[target], p_ev(target),
                       tuple((x, best[x], p_ev(x)) for x in rows),
                       time.perf_counter() - began)


def _read(vectors: Any, state: tuple[int, int, int], total: int, top: int,
          targets: list[int]) -> dict[int, float]:
    """P(final >= x) of each target ``x <= top`` from vectors solved for ``top``."""
    return {x: min(turn_at(vectors, *state, total + top - x).value, 1.0) for x in targets}
