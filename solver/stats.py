"""Exact statistics of optimal play: the whole distribution of the final score, computed.

The optimal policy is the table's (``E`` of every state), with ties between equally good
choices broken by the one order of :mod:`solver.game.ties` (keeps by keep index, fewest
dice first; boxes in scorecard order). For every turn-start state ``s`` the policy gives the
probability of each turn outcome (box, entry, Yahtzee bonus); backwards from full cards,

    D_s(t) = sum_o w_o D_{s'_o}(t - p_o),     F_s = sum_o w_o (f_o + F_{s'_o}),

where ``D_s`` is the distribution of the points still to come from ``s`` and ``F_s``
holds expected counts (entry per box, zero per box, upper bonus, Yahtzees, Yahtzee
bonuses). ``D`` of the empty card is the distribution of the final score; nothing is
sampled. Definitions used in the figures:

- ``yahtzees``: expected number of turns whose final dice are five alike (any box).
- ``yahtzee_bonuses``: expected number of 100-point Yahtzee bonuses.
- percentile ``q``: the smallest score ``x`` with ``P(score <= x) >= q / 100``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .errors import InvalidCardError
from .game.rules import UPPER_TARGET, RuleSet
from .kernels.level import new_store
from .levels import (
    Progress,
    Work,
    even_pieces,
    level_states,
    mask_runs,
    masks_by_level,
    max_points_to_come,
    piece_count,
    solve_backward,
    task_operations,
)
from .table import Table

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
THRESHOLDS = (200, 300, 400, 500)


@dataclass(frozen=True, eq=False)
class OptimalStats:
    """Exact figures of optimal play under one rule set (all probabilities exact up to
    float64 rounding)."""

    rules: RuleSet
    distribution: np.ndarray
    """(max score + 1,) float64: ``distribution[x]`` = P(final score = x)."""
    box_means: np.ndarray
    """(n_boxes,) float64: expected entry of each box."""
    box_zero: np.ndarray
    """(n_boxes,) float64: probability that each box ends with 0."""
    upper_bonus_probability: float
    yahtzees: float
    """Expected number of turns ending with five alike."""
    yahtzee_bonuses: float
    """Expected number of Yahtzee bonuses."""
    seconds: float

    @property
    def scores(self) -> np.ndarray:
        return np.arange(self.distribution.shape[0])

    @property
    def mean(self) -> float:
        return float(self.distribution @ self.scores)

    @property
    def sd(self) -> float:
        x = self.scores - self.mean
        return float(np.sqrt(self.distribution @ (x * x)))

    @property
    def most_likely(self) -> int:
        """The most likely final score (the lowest, if several)."""
        return int(np.argmax(self.distribution))

    def percentile(self, q: float) -> int:
        """Smallest score ``x`` with P(score <= x) >= q / 100."""
        return percentile_of(self.distribution, q)

    def probability_at_least(self, score: int) -> float:
        return float(self.distribution[score:].sum())

    def to_json(self) -> dict:
        """The figures as JSON-ready data (docs/json.md keys ``rules``, ``mean``, ``sd``,
        ``percentiles`` and more)."""
        nz = np.flatnonzero(self.distribution > 0)
        return {
            "rules": self.rules.name,
            "mean": self.mean,
            "sd": self.sd,
            "percentiles": {str(q): self.percentile(q) for q in PERCENTILES},
            "p_at_least": {str(s): self.probability_at_least(s) for s in THRESHOLDS},
            "most_likely": self.most_likely,
            "min_score": int(nz[0]),
            "max_score": int(nz[-1]),
            "upper_bonus_probability": self.upper_bonus_probability,
            "yahtzees": self.yahtzees,
            "yahtzee_bonuses": self.yahtzee_bonuses,
            "boxes": {box.name: {"mean": float(self.box_means[b]),
                                 "p_zero": float(self.box_zero[b])}
                      for b, box in enumerate(self.rules.boxes)},
            "distribution": {str(int(x)): float(self.distribution[x]) for x in nz},
            "tie_break": "lowest box index; keeps in dice keep order (fewest dice first)",
            "seconds": self.seconds,
        }


def percentile_of(distribution: np.ndarray, q: float) -> int:
    """Smallest score ``x`` with P(score <= x) >= q / 100 (``distribution[x]`` =
    P(score = x))."""
    cumulative = np.cumsum(distribution)
    return int(np.searchsorted(cumulative, q / 100.0 * cumulative[-1] - 1e-15))


def most_points_to_come(rules: RuleSet, state: tuple[int, int, int]) -> int:
    """An upper bound of the points still to come from the start of a turn in ``state``
    (filled mask, capped upper subtotal, flag): each open box at its most, the upper
    bonus while it can still be earned, a Yahtzee bonus in every turn that can pay one.
    A target above a card's total plus this is out of reach: its probability is 0."""
    m, u, y = (np.array([v], dtype=np.int64) for v in state)
    return int(max_points_to_come(rules, m, u, y)[0])


def highest_score(rules: RuleSet) -> int:
    """The most points a game can score under ``rules`` (computed from the boxes and
    bonuses: 1575 under the official rules, 374 under yatzy)."""
    return most_points_to_come(rules, (0, 0, 0))


STATS_TURN_WORK = 20.0
"""The work of playing one state's turn (the policy's probability of each outcome), per
operation of one column of the target DP with as many open boxes
(:func:`~solver.levels.task_operations`)."""
STATS_ENTRY_WORK = 68.0
"""The work of one entry of a state's distribution of points to come per open box (the
turn's outcomes, about as many as the open boxes, each shifts the next state's
distribution in)."""


def stats_work(rules: RuleSet, n: int, most: np.ndarray) -> np.ndarray:
    """The work of each state of level ``n`` (filled boxes) of :func:`optimal_stats`,
    ``most``: the most points each can still score (its distribution's last entry), in
    the target DP's operations: its turn played, then each entry of its distribution times
    the open boxes. The constants are fitted to the CPU time of each level against the
    target DP's per operation in the same runs (two-player games' turns, at load 25 to
    28): the time per unit of work is then the same within a fifth on every level of 1 to
    11 open boxes, where the earlier count (entries x (4 + open boxes)) gave levels with
    1 and 7 open boxes times per unit 5 times apart."""
    open_boxes = rules.n_boxes - n
    turn = STATS_TURN_WORK * float(task_operations(rules, np.array([open_boxes]))[0])
    return turn + STATS_ENTRY_WORK * open_boxes * (np.asarray(most, dtype=np.float64) + 1)


def stats_operations(table: Table, start: tuple[int, int, int]) -> float:
    """The work of :func:`optimal_stats` from ``start`` (:func:`stats_work`), known before it
    starts (planning only)."""
    rules, start_mask = table.rules, int(start[0])
    values = np.ascontiguousarray(table.values)
    levels = masks_by_level(rules.n_boxes)
    work = 0.0
    for n in range(rules.n_boxes - 1, bin(start_mask).count("1") - 1, -1):
        states = level_states(values, levels[n][(levels[n] & start_mask) == start_mask])
        work += float(stats_work(rules, n, max_points_to_come(rules, *states)).sum())
    return work


def optimal_stats(table: Table, progress: Progress | None = None, *,
                  start: tuple[int, int, int] = (0, 0, 0),
                  more: dict[tuple[int, int, int], np.ndarray] | None = None) -> OptimalStats:
    """Exact statistics of optimal play for the table's rule set (see module docstring).

    ``start`` = (filled mask, upper subtotal, Yahtzee box holds 50) gives the figures of
    the rest of a game from that turn-start state instead: the distribution is then of
    the points still to come, and the box figures count only the open boxes.
    ``more``: later states (its keys: more boxes filled than the start's, all of the
    start's among them) whose distributions of the points to come are set in it, the
    very numbers ``optimal_stats`` from each gives (one pass for the cards of a game).
    ``progress(done, PROGRESS_STEPS)``: the share of the work done
    (:func:`stats_work`), in about :data:`~solver.levels.PIECES` even pieces (a
    phase's share of them, :class:`~solver.levels.PhaseProgress`).
    """
    from .kernels import stats as sk  # numba (half a second): when figures are computed
    from .kernels.threads import piece_blocks

    start_time = time.perf_counter()
    rules = table.rules
    start_mask, start_upper, start_flag = (int(v) for v in start)
    rules.check_mask(start_mask)
    start_upper = min(max(start_upper, 0), UPPER_TARGET)
    if (start_mask == rules.full_mask or not 0 <= start_flag < rules.n_flags
            or np.isnan(table.values[start_mask, start_upper, start_flag])):
        raise InvalidCardError(f"no turn starts in state {start}: a full card, or one the "
                               "rules cannot reach")
    first_level = bin(start_mask).count("1")
    values = np.ascontiguousarray(table.values)
    n_extra = 2 * rules.n_boxes + 3
    slot = np.full(values.shape, -1, dtype=np.int64)
    levels = masks_by_level(rules.n_boxes)

    def states(n: int) -> tuple[np.ndarray, ...]:
        masks = levels[n]  # only cards that can follow the start (its boxes filled)
        m, u, y = level_states(values, masks[(masks & start_mask) == start_mask])
        slot[m, u, y] = np.arange(len(m))
        return m, u, y

    m, u, y = states(rules.n_boxes)
    below = new_store(m, u, y, 0 * m, 0 * m, n_extra=n_extra)
    below.vals[:] = 1.0

    wanted = () if more is None else tuple(more)
    if more is None:
        more = {}
    for state in wanted:
        if state[0] & start_mask != start_mask or state[0] == start_mask \
                or state[0] == rules.full_mask or not 0 <= state[2] < rules.n_flags \
                or np.isnan(values[state[0], min(max(state[1], 0), UPPER_TARGET), state[2]]):
            raise InvalidCardError(f"state {state} does not follow {start} with a turn to "
                                   f"play")
    order = range(rules.n_boxes - 1, first_level - 1, -1)
    planned = {n: level_states(values, levels[n][(levels[n] & start_mask) == start_mask])
               for n in order}
    tops = {n: max_points_to_come(rules, *planned[n]) for n in order}
    work = Work(sum(float(stats_work(rules, n, tops[n]).sum()) for n in order), progress)
    pieces = piece_count(progress)

    def step(n: int) -> None:
        nonlocal below
        m, u, y = states(n)
        here = new_store(m, u, y, 0 * m, tops.pop(n), n_extra=n_extra)
        tasks = mask_runs(m, sk.CHUNK)
        each = stats_work(rules, n, here.hi[:m.shape[0]])
        ops = np.add.reduceat(each, tasks[:, 0]) if tasks.shape[0] else each[:0]
        for begin, end in even_pieces(ops, work.total / pieces):  # even pieces, for the progress
            sk.stats_level(tasks[begin:end], here, below, slot, values, rules.arrays,
                           sk.DISTRIBUTION, piece_blocks())
            work.add(float(ops[begin:end].sum()))
        for state in [key for key in wanted if bin(key[0]).count("1") == n]:
            i = int(slot[state[0], min(state[1], UPPER_TARGET), state[2]])
            dist = here.vals[here.start[i]:here.start[i + 1]]
            more[state] = dist[:np.flatnonzero(dist > 0)[-1] + 1].copy()
        below = here

    solve_backward(rules, first_level, step)
    work.finish()
    root = int(slot[start_mask, start_upper, start_flag])
    distribution = below.vals[below.start[root]:below.start[root + 1]].copy()
    extra = below.extra[root]
    last = np.flatnonzero(distribution > 0)[-1]
    nb = rules.n_boxes
    return OptimalStats(
        rules=rules,
        distribution=distribution[: last + 1],
        box_means=extra[:nb].copy(),
        box_zero=extra[nb:2 * nb].copy(),
        upper_bonus_probability=float(extra[2 * nb]),
        yahtzees=float(extra[2 * nb + 1]),
        yahtzee_bonuses=float(extra[2 * nb + 2]),
        seconds=time.perf_counter() - start_time,
    )
