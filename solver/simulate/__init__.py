"""Play many seeded games with a strategy and report how it scores.

Built-in strategies (``STRATEGIES``):

- ``optimal``: the table's policy, ties broken by the one order of
  :mod:`solver.game.ties` (keeps fewest dice first, in keep order; boxes in scorecard
  order), as in :mod:`solver.stats`. Its mean converges to the exact expected score.
- ``greedy``: before each reroll keeps every die of the most common face (ties: the
  higher face) and rerolls the rest, never stopping early; after the last roll fills
  the allowed box worth the most points now (entry plus any upper bonus it earns;
  ties: lowest box index).
- ``greedy-turn``: the greedy of the literature: each turn, the keeps and the box that
  maximise this turn's points (entry plus any upper bonus it earns) exactly, as if the
  game ended after it. It is the optimal policy run on a table of zeros; exact mean
  217.3834 (``optimal_stats`` on that table), published: about 218.
- ``heuristic``: a careful human without lookahead. Each turn is played to maximise that
  turn's placement value, the entry minus the box's *par* plus any upper bonus it earns,
  with the best keeps for that aim. Par: three dice of the face for an upper box (the
  pace for the bonus); for another box, the mean points of a whole turn aimed at that
  box alone.

- ``target:X``: every decision maximises P(final score >= X), exactly as
  ``advise(..., target=X)`` ranks the options (ties: :mod:`solver.game.ties`), from the
  target DP's vectors (:mod:`solver.simulate.target`). The
  result adds ``p_target``, the exact new-game probability of reaching X under that
  strategy, beside the rate of games that reached it.

A strategy of your own is a Python callable ``strategy(decision: Decision)`` (slower):
while ``decision.rolls_left > 0`` it returns the faces to keep (any iterable of ints, a
sub-multiset of ``decision.dice``; all five keeps the dice as they are) or a box name to
score now; with ``rolls_left == 0`` it returns a box name (any alias). It may also return
a :class:`~solver.move.Move`. An illegal answer
raises :class:`IllegalStrategyMoveError` naming the move and the state
(:mod:`solver.simulate.python`). Marked with :func:`batch_strategy`, it answers every
live game's decision at once instead (numpy arrays in, actions out; fast:
:mod:`solver.simulate.batch`). ``workers=N`` plays either in N processes, with the same
results (:mod:`solver.simulate.workers`).

Every game is also judged against optimal play, decision by decision, as ``analyze``
judges a record (the same loss, :mod:`solver.kernels.judge`). Since ``total - E(new game)
= luck - total loss`` in every game and the luck of each roll has mean 0, ``E(new game) -
mean total loss`` estimates the strategy's expected score without the dice's luck; the
luck of the rolls under three value functions, cross-fitted control variates
(:mod:`solver.simulate.control`), take out more of it (:attr:`SimulationResult.corrected_mean`):
far closer than the plain mean for the same games (docs/simulate.md).

Same seed, same games: game ``g`` draws its dice from its own splitmix64 stream
(:mod:`solver.game.stream`), whatever the thread count, batch size or strategy; every
strategy's moves are kept in one trace layout (:mod:`solver.game.trace`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _jit_cache
from ..errors import (
    IllegalStrategyMoveError,
    UnknownStrategyError,
    YahtzeeError,
    shown,
)
from ..game.rules import RuleSet
from ..game.trace import new_traces, turn_moves
from ..kernels import simulate as sim
from ..numbers import check_count
from ..stats import PERCENTILES
from ..stats_file import new_game_stats
from ..table import Table
from . import target as stg
from .batch import BATCH_GAMES, DecisionBatch, batch_strategy, is_batch, play_batch
from .judge import GameJudge, Losses, early_turns, losses_of
from .policies import builtin_policy
from .python import PYTHON_JUDGE_BATCH, Decision, UserStrategy, play_python
from .strategies import (
    PREFIX,
    STRATEGIES,
    TOURNAMENT_PREFIX,
    is_target_strategy,
    is_tournament_strategy,
    parse_target,
    parse_tournament,
    strategy_name,
)
from .workers import check_workers, play_in_workers

__all__ = ["STRATEGIES", "Decision", "DecisionBatch", "IllegalStrategyMoveError", "Losses",
           "SimulationResult", "UnknownStrategyError", "UserStrategy", "batch_strategy",
           "simulate", "turn_moves"]

BATCH = 20_000
MAX_SEED = 2**64 - 1
MAX_GAMES = 10_000_000
"""Most games one simulation plays: 40 bytes of results per game (400 MB at the most);
about 15 minutes for the optimal strategy at 12,000 games/s (judged)."""

Progress = Callable[[int, int], None]
"""progress(games_done, games_total), called as the games start (0 done) and after each
batch."""


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Per-game outcomes of a simulation and the figures drawn from them."""

    rules: RuleSet
    strategy: str
    seed: int
    scores: np.ndarray
    """(games,) int64 final scores."""
    upper_bonus: np.ndarray
    """(games,) int8: 1 when the upper bonus was earned."""
    yahtzees: np.ndarray
    """(games,) int8: turns that ended with five alike."""
    yahtzee_bonuses: np.ndarray
    """(games,) int8: Yahtzee bonuses earned."""
    entries: np.ndarray
    """(games, n_boxes) int8: the entry of each box."""
    seconds: float = field(default=0.0)
    target: int | None = None
    """X of a ``target:X`` strategy, else None."""
    p_target: float | None = None
    """The exact new-game P(final >= target) of the ``target:X`` strategy."""
    solve_seconds: float = 0.0
    """Part of ``seconds`` spent solving the target vectors (before any game)."""
    players: int | None = None
    """N of a ``tournament:N`` strategy, else None."""
    win_share_exact: float | None = None
    """The exact new-game expected share of first place of ``tournament:N`` (against
    an expected-score field)."""
    shares: np.ndarray | None = None
    """(games,) float64 of ``tournament:N``: each game's share of first place against the
    field, U(its final score) (exact given the score: the others are not played)."""
    traces: np.ndarray | None = None
    """With ``record=True``: (games, n_boxes, 2 * rerolls + 2) int16, each game's turns in
    playing order as keep indices (``dice.KEEP_COUNTS``): roll, keep, roll, ..., box;
    -1 where a turn stopped early (:mod:`solver.game.trace`; one turn as a record has it:
    :func:`~solver.game.trace.turn_moves`)."""
    new_game: float | None = None
    """E(new game): the exact expected score of optimal play (the table's)."""
    losses: Losses | None = None
    """Every decision judged against optimal play (None when not judged)."""

    # ------------------------------------------------------------- the corrected estimate
    @property
    def total_loss(self) -> np.ndarray | None:
        """(games,) float64: each game's expected points given up against optimal play."""
        return None if self.losses is None else self.losses.per_game.sum(axis=1)

    @property
    def corrected_mean(self) -> float | None:
        """The strategy's expected score without the dice's luck: ``E(new game)`` less the
        mean over games of (total loss - the luck control variates' part), cross-fitted
        (:mod:`solver.simulate.control`). Unbiased: each game's total is ``E(new game) + luck -
        loss``, and the luck of every roll has mean 0 whatever came before it, under any
        values (docs/simulate.md). Exactly ``E(new game)`` for optimal play."""
        if self.losses is None or self.new_game is None:
            return None
        return self.new_game - self.losses.cross_fitted()[0]

    @property
    def corrected_stderr(self) -> float | None:
        """The standard error of :attr:`corrected_mean`: the sample standard deviation of
        the games' corrected values over sqrt(games) (0 for optimal play)."""
        return None if self.losses is None else self.losses.cross_fitted()[1]

    @property
    def loss_only_stderr(self) -> float | None:
        """The standard error of ``E(new game) - mean total loss`` (the estimate without
        the luck terms): the sample standard deviation of the total losses over
        sqrt(games)."""
        loss = self.total_loss
        if loss is None:
            return None
        return float(loss.std(ddof=1)) / float(np.sqrt(self.games)) if self.games > 1 else 0.0

    def mean_loss_per_decision(self) -> dict[str, float | None] | None:
        """The mean loss of a decision: ``keep``, ``box`` and ``all`` (None for a kind
        with no decision)."""
        if self.losses is None:
            return None
        totals = self.losses.per_game.sum(axis=0)
        counts = self.losses.decisions
        pairs = (("keep", totals[0], counts[0]), ("box", totals[1], counts[1]),
                 ("all", totals.sum(), counts.sum()))
        return {kind: float(total / n) if n else None for kind, total, n in pairs}

    @property
    def loss_by_turn(self) -> np.ndarray | None:
        """(n_boxes,) the mean loss per game of turn 1, 2, ... (its keeps and its box)."""
        return None if self.losses is None else self.losses.by_turn / self.games

    @property
    def loss_by_box(self) -> dict[str, float] | None:
        """Box name -> the mean loss per game of the turn that filled the box."""
        if self.losses is None:
            return None
        return {box.name: float(self.losses.by_box[b] / self.games)
                for b, box in enumerate(self.rules.boxes)}

    @property
    def plain_games_needed(self) -> float | None:
        """The games the plain mean would need for the standard error of the corrected
        estimate: ``games (stderr / corrected_stderr)^2`` (None when that is 0: no number
        of games is enough, or when not judged)."""
        corrected = self.corrected_stderr
        if not corrected:
            return None
        return self.games * (self.stderr / corrected) ** 2

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def sd(self) -> float:
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def stderr(self) -> float:
        return self.sd / float(np.sqrt(self.games))

    def reached(self, x: int) -> tuple[float, float]:
        """(fraction of games scoring at least ``x``, its standard error
        sqrt(rate (1 - rate) / games))."""
        rate = float((self.scores >= x).mean())
        return rate, float(np.sqrt(rate * (1.0 - rate) / self.games))

    @property
    def reached_rate(self) -> float | None:
        """The fraction of games scoring at least ``target`` (None without a target)."""
        return None if self.target is None else self.reached(self.target)[0]

    @property
    def reached_stderr(self) -> float | None:
        """The standard error of :attr:`reached_rate` (None without a target)."""
        return None if self.target is None else self.reached(self.target)[1]

    def percentile(self, q: float) -> int:
        """Smallest score x with (games scoring <= x) >= q% of games."""
        ordered = np.sort(self.scores)
        index = max(0, int(np.ceil(q / 100.0 * self.games)) - 1)
        return int(ordered[index])

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures (docs/json.md keys ``games``, ``strategy``, ``mean``, ``sd``,
        ``stderr`` and more; a target strategy adds ``target``, ``p_target``,
        ``reached_rate``, ``reached_stderr`` and ``solve_seconds``). ``games_per_second``
        counts the time playing, not solving."""
        playing = self.seconds - self.solve_seconds
        rate = self.games / playing if playing > 0 else None
        extra = {} if self.target is None else {
            "target": self.target, "p_target": self.p_target,
            "reached_rate": self.reached_rate, "reached_stderr": self.reached_stderr,
            "solve_seconds": self.solve_seconds}
        if self.shares is not None:
            extra = {"players": self.players, "win_share": float(self.shares.mean()),
                     "win_share_stderr": float(self.shares.std(ddof=1)
                                               / np.sqrt(self.games))
                     if self.games > 1 else 0.0,
                     "win_share_exact": self.win_share_exact,
                     "solve_seconds": self.solve_seconds}
        return {
            "games": self.games,
            "strategy": self.strategy,
            "rules": self.rules.name,
            "seed": self.seed,
            "mean": self.mean,
            "sd": self.sd,
            "stderr": self.stderr,
            "percentiles": {str(q): self.percentile(q) for q in PERCENTILES},
            "min_score": int(self.scores.min()),
            "max_score": int(self.scores.max()),
            "upper_bonus_rate": float(self.upper_bonus.mean()),
            "yahtzees_per_game": float(self.yahtzees.mean()),
            "any_yahtzee_rate": float((self.yahtzees > 0).mean()),
            "yahtzee_bonuses_per_game": float(self.yahtzee_bonuses.mean()),
            "box_means": {box.name: float(self.entries[:, b].mean())
                          for b, box in enumerate(self.rules.boxes)},
            **self._corrected_json(),
            **extra,
            "seconds": self.seconds,
            "games_per_second": rate,
        }

    def _corrected_json(self) -> dict[str, Any]:
        """The keys of the luck-corrected estimate (docs/json.md)."""
        if self.losses is None:
            return {}
        loss = self.total_loss
        assert loss is not None and self.loss_by_turn is not None
        return {"new_game": self.new_game, "corrected_mean": self.corrected_mean,
                "corrected_stderr": self.corrected_stderr,
                "loss_only_stderr": self.loss_only_stderr,
                "mean_loss_per_game": float(loss.mean()),
                "mean_loss_per_decision": self.mean_loss_per_decision(),
                "decisions_per_game": {"keep": float(self.losses.decisions[0] / self.games),
                                       "box": float(self.losses.decisions[1] / self.games)},
                "loss_by_turn": [float(x) for x in self.loss_by_turn],
                "loss_by_box": self.loss_by_box,
                "plain_games_needed": self.plain_games_needed}


def comparison_json(table: Table, results: list[SimulationResult]) -> dict[str, Any]:
    """JSON-ready side-by-side figures of strategies played on the same games (``yahtzee
    simulate --compare``): the exact optimal mean and each result's :meth:`to_json`."""
    first = results[0]
    return {"rules": table.rules.name, "games": first.games, "seed": first.seed,
            "exact_optimal_mean": table.expected_score,
            "strategies": [r.to_json() for r in results]}


def check_games(games: int) -> int:
    return check_count(games, MAX_GAMES, "the number of games")


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or \
            not 0 <= seed <= MAX_SEED:
        raise YahtzeeError(f"the seed must be an integer in 0..2**64-1, not {shown(seed, 40)}")
    return int(seed)


@_jit_cache.compiling(_jit_cache.SIMULATOR)
def simulate(table: Table, strategy: str | UserStrategy = "optimal", games: int = 10_000,
             seed: int = 0, *, progress: Progress | None = None,
             name: str | None = None, record: bool = False,
             solve_progress: Progress | None = None, judged: bool = True,
             workers: int = 1, note: Callable[[str], None] | None = None) -> SimulationResult:
    """Play ``games`` games of the table's rule set with ``strategy`` (a built-in name,
    ``target:X`` or a :data:`UserStrategy` callable) from seed ``seed``; with ``record``
    keep every game's moves in ``traces`` (same games either way). ``target:X`` reads its
    vectors from the rules' target table when it holds X, else first solves them,
    reporting ``solve_progress(levels_done, levels_total)`` (``note`` says why and how to
    build a table that holds X). With
    ``judged`` (the default) every decision is judged against optimal play (``losses``
    and the corrected estimate; about as long again as playing a built-in strategy).
    ``workers`` > 1 plays a Python strategy in that many processes, with the same results
    (:mod:`solver.simulate.workers`; built-in strategies use every core anyway)."""
    games = check_games(games)
    seed = check_seed(seed)
    workers = check_workers(workers)
    target = players = None
    if isinstance(strategy, str) and is_target_strategy(strategy):
        target = parse_target(strategy)
    if isinstance(strategy, str) and is_tournament_strategy(strategy):
        players = parse_tournament(strategy)
    start = time.perf_counter()
    rules = table.rules
    traces = new_traces(games if record else 0, rules)
    if progress is not None and target is None and players is None:
        progress(0, games)  # the games start (a progress bar's rate counts from here)
    if callable(strategy) and workers > 1:
        return _python_in_workers(table, strategy, games, seed, progress, name, record,
                                  judged, workers, start)
    lossless = isinstance(strategy, str) and strategy.strip().lower() == "optimal"
    judge = GameJudge(table, games, lossless=lossless) if judged else None
    if players is not None:
        plan, utility = stg.tournament_plan(table, players,
                                            new_game_stats(table).distribution,
                                            solve_progress)
        if progress is not None:
            progress(0, games)
        out = stg.play_target(table, plan, games, seed, progress, traces,
                              None if judge is None else judge.add)
        scores, upper, fives, bonuses, entries = out
        shares = np.where(scores < utility.top,
                          utility.values[np.minimum(scores, utility.top - 1)], utility.above)
        return SimulationResult(rules, f"{TOURNAMENT_PREFIX}{players}", seed, scores, upper,
                                fives, bonuses, entries, seconds=time.perf_counter() - start,
                                players=players, win_share_exact=plan.p_target,
                                shares=shares, solve_seconds=plan.seconds,
                                traces=traces if record else None,
                                new_game=table.expected_score,
                                losses=None if judge is None else judge.losses())
    if target is not None:
        plan = stg.target_plan(table, target, solve_progress, note)
        if progress is not None:
            progress(0, games)
        out = stg.play_target(table, plan, games, seed, progress, traces,
                              None if judge is None else judge.add)
        scores, upper, fives, bonuses, entries = out
        return SimulationResult(rules, f"{PREFIX}{target}", seed, scores, upper, fives,
                                bonuses, entries, seconds=time.perf_counter() - start,
                                target=target, p_target=plan.p_target,
                                solve_seconds=plan.seconds,
                                traces=traces if record else None,
                                new_game=table.expected_score,
                                losses=None if judge is None else judge.losses())
    if callable(strategy):
        label = str(name or getattr(strategy, "__name__", "custom"))
        play = play_batch if is_batch(strategy) else play_python
        out = play(rules, strategy, games, seed, progress, traces, judge)
    else:
        label = strategy_name(strategy)
        out = _simulate_builtin(table, label, games, seed, progress, traces, judge)
    scores, upper, fives, bonuses, entries = out
    return SimulationResult(rules, label, seed, scores, upper, fives, bonuses, entries,
                            seconds=time.perf_counter() - start,
                            traces=traces if record else None,
                            new_game=table.expected_score,
                            losses=None if judge is None else judge.losses())


def _python_in_workers(table: Table, strategy: UserStrategy, games: int, seed: int,
                       progress: Progress | None, name: str | None, record: bool,
                       judged: bool, workers: int, start: float) -> SimulationResult:
    out, traces, per_game, chunks = play_in_workers(
        table, strategy, games, seed, workers,
        BATCH_GAMES if is_batch(strategy) else PYTHON_JUDGE_BATCH, record, judged, progress)
    scores, upper, fives, bonuses, entries = out
    label = str(name or getattr(strategy, "__name__", "custom"))
    return SimulationResult(table.rules, label, seed, scores, upper, fives, bonuses, entries,
                            seconds=time.perf_counter() - start,
                            traces=traces if record else None,
                            new_game=table.expected_score,
                            losses=None if per_game is None else losses_of(per_game, chunks,
                                                                          table.rules))


def _simulate_builtin(table: Table, name: str, games: int, seed: int,
                      progress: Progress | None, traces: np.ndarray,
                      judge: GameJudge | None) -> tuple[np.ndarray, ...]:
    rules = table.rules
    greedy, values, par = builtin_policy(table, name)
    same = judge is not None and name == "optimal"  # the judge's own prepared turns
    cache = judge.cache if same and judge is not None else early_turns(rules, values, par)

    def play(first: int, out: sim.Games) -> None:
        sim.play_games(greedy, np.uint64(seed), np.uint64(first), values, par, rules.arrays,
                       cache, out)

    return sim.play_in_batches(games, rules.n_boxes, traces, BATCH, play, progress,
                               None if judge is None else judge.add)
