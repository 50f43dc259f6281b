"""Play for a target or to win: the exact DP over final-score utilities (``kernels.target``).

A :class:`Utility` is a function ``U(final score)``: ``1[final >= X]`` for a target
``X``, ``P(opponent's final < final)`` to beat an opponent (plus the tie probability as a
secondary vector). :func:`solve_vectors` computes, level by level from full cards back to
a start state, ``V_s(a)``: the largest expected utility from the start of a turn in
state ``s`` with ``a`` points scored so far. Each state stores ``a`` on a range only:

- ``a >= feasible(s)``: the upper subtotal, the upper bonus, a 50 in the Yahtzee box and
  the smallest entries of the filled boxes are already on the card;
- ``a >= a0 - most(s)``: below, even the most points still to come (``most``) cannot lift
  the final score to where ``U > 0``, so ``V = 0``;
- ``a <= A - 1``: at and above ``A`` the utility is at its top (1 for a target);
- from a given card (total ``T``), ``T <= a <= T +`` the most points the boxes filled
  since can have added (only states reachable from that card are solved).

``W(s, t)`` of docs/objectives.md is ``V_s(X - t)`` for the target ``X``. Upper subtotals
that share values in the expected-score solver share one vector here too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .builder import masks_by_level, reachable_upper_totals, upper_classes
from .game.dice import N_KEEPS, ROLL_PROBABILITY
from .game.rules import N_UPPER, UPPER_TARGET, RuleSet
from .kernels import target as tk
from .stats import _max_entries, _max_points_to_come
from .table import Table

Progress = Callable[[int, int], None]
"""progress(levels_done, levels_total), called after each level."""
STEP = tk.STEP
WIDE = tk.WIDE
_EMPTY_LO = 1 << 40


@dataclass(frozen=True, eq=False)
class Utility:
    """``U(a)`` of a final score ``a``: ``values[a]`` on ``0 <= a < A``, ``above`` from
    ``A`` on, 0 below 0; ``values2``/``above2``: the secondary utility (pair mode) or
    None. ``zero_below``: both are 0 for every ``a`` below it."""

    values: np.ndarray
    above: float
    zero_below: int
    values2: np.ndarray | None = None
    above2: float = 0.0

    @property
    def top(self) -> int:
        """``A``: the first score from which ``U`` is constant."""
        return int(self.values.shape[0])

    @property
    def pair(self) -> bool:
        return self.values2 is not None

    @classmethod
    def target(cls, x: int) -> Utility:
        """``1[final >= x]``."""
        x = max(int(x), 0)
        return cls(np.zeros(x), 1.0, x)

    @classmethod
    def beat_distribution(cls, distribution: np.ndarray) -> Utility:
        """``P(other < final)`` (primary) and ``P(other == final)`` (secondary) for an
        opponent whose final score is ``x`` with probability ``distribution[x]``."""
        dist = np.asarray(distribution, dtype=np.float64)
        nz = np.flatnonzero(dist > 0)
        top = int(nz[-1]) + 1
        below = np.concatenate(([0.0], np.cumsum(dist[:top])[:-1]))
        return cls(below, 1.0, int(nz[0]), dist[:top].copy(), 0.0)


@dataclass(frozen=True, eq=False)
class Level:
    """The vectors of one level (states with the same number of filled boxes)."""

    m: np.ndarray
    u: np.ndarray
    y: np.ndarray
    start: np.ndarray
    """(n + 1,) int64 offsets into ``vals``; the last state is an empty placeholder."""
    lo: np.ndarray
    hi: np.ndarray
    vals: np.ndarray
    vals2: np.ndarray

    def vector(self, i: int, second: bool = False) -> tuple[int, np.ndarray]:
        """(lo, values on lo..hi) of state ``i``."""
        src = self.vals2 if second else self.vals
        lo, hi = int(self.lo[i]), int(self.hi[i])
        return lo, src[self.start[i]:self.start[i] + max(hi - lo + 1, 0)]


@dataclass(frozen=True, eq=False)
class Vectors:
    """Solved levels: ``levels[n]`` for the levels kept; ``slot[m, u, y]`` is a state's
    index in its level (-1: not solved)."""

    rules: RuleSet
    utility: Utility
    levels: dict[int, Level]
    slot: np.ndarray
    seconds: float
    entries: int
    """Vector entries computed (states x columns, padding included)."""
    operations: float = 0.0
    """Double-precision operations of the kernels (see :func:`task_operations`)."""

    def value(self, m: int, u: int, y: int, a: int, second: bool = False) -> float:
        """``V`` of state (m, u, y) with ``a`` points so far (a state of a kept level)."""
        level = self.levels[bin(m).count("1")]
        i = int(self.slot[m, min(u, UPPER_TARGET), y])
        if i < 0:
            raise KeyError(f"state {(m, u, y)} was not solved")
        lo = int(level.lo[i])
        if a < lo:
            return 0.0
        if a > int(level.hi[i]):
            return self.utility.above2 if second else self.utility.above
        src = level.vals2 if second else level.vals
        return float(src[level.start[i] + a - lo])


def task_operations(rules: RuleSet, n_open: np.ndarray) -> np.ndarray:
    """Operations per column of a state with ``n_open`` open boxes (array): a max and the
    exact ``* unit`` per (final roll, open box) (a little less under the Joker), per reroll
    6 per partial keep (5 adds, 1 multiply) and 2 per (keep, sub-keep) pair, and 252
    multiply-adds for the expectation."""
    from .game.dice import FIRST_ROLL_KEEP, KEEP_SUB_COUNT, N_ROLLS

    stage = 6 * FIRST_ROLL_KEEP + 2 * int(KEEP_SUB_COUNT.sum())
    return 2 * N_ROLLS * n_open + (rules.rolls_per_turn - 1) * stage + 2 * N_ROLLS


def most_points_per_turn(rules: RuleSet) -> int:
    """The most points one turn can add: an entry, the upper bonus and a Yahtzee bonus."""
    return int(_max_entries(rules).max() + rules.upper_bonus + rules.yahtzee_bonus)


def _min_entries(rules: RuleSet) -> np.ndarray:
    return np.array([min(rules.possible_points(b)) for b in range(rules.n_boxes)],
                    dtype=np.int64)


def least_total(rules: RuleSet, m: int, u: int, y: int) -> int:
    """The smallest grand total a card in state (m, u, y) can have: the (capped) upper
    subtotal, the upper bonus once it is 63, the 50 of the flag and the smallest entries
    of the filled lower boxes. Vectors are solved from there up."""
    least = _min_entries(rules)
    lower = sum(int(least[b]) for b in range(N_UPPER, rules.n_boxes) if m >> b & 1)
    return (u + (rules.upper_bonus if u >= UPPER_TARGET else 0) + lower
            + (50 if y == 1 else 0))


class _Plan:
    """Which states of each level are solved, and on which range of ``a``."""

    def __init__(self, table: Table, start: tuple[int, int, int], total: int | None,
                 utility: Utility) -> None:
        self.table = table
        self.rules = rules = table.rules
        self.start = start
        self.total = total
        self.utility = utility
        self.reach = reachable_upper_totals()
        self.classes = upper_classes(self.reach)
        self.most = _max_entries(rules)
        self.least = _min_entries(rules)

    def level_states(self, masks: np.ndarray) -> tuple[np.ndarray, ...]:
        """(m, u, y, lo, hi) of the class representatives of ``masks`` that the start
        can reach (any state when ``total`` is None), with their ranges of ``a``."""
        rules, (m0, u0, y0) = self.rules, self.start
        masks = masks[(masks & m0) == m0]
        out_m, out_u, out_y, feas, gain = [], [], [], [], []
        yb = rules.yahtzee_box
        for m in masks.tolist():
            um = m & ((1 << N_UPPER) - 1)
            new_upper = um & ~(m0 & ((1 << N_UPPER) - 1))
            sums = np.flatnonzero(self.reach[new_upper])
            reach_u = np.zeros(UPPER_TARGET + 1, dtype=bool)
            reach_u[np.minimum(u0 + sums, UPPER_TARGET)] = True
            classes = self.classes[um]
            new = m & ~m0
            lower_new = [b for b in range(N_UPPER, rules.n_boxes) if new >> b & 1]
            lower_least = int(sum(self.least[b] for b in range(N_UPPER, rules.n_boxes)
                                  if m >> b & 1))
            lower_gain = int(sum(self.most[b] for b in lower_new))
            upper_most = int(sum(self.most[b] for b in range(N_UPPER) if new_upper >> b & 1))
            n_new = bin(new).count("1")
            if m0 >> yb & 1:
                flags = [y0]
            elif m >> yb & 1 and rules.n_flags == 2:
                flags = [0, 1]
            else:
                flags = [0]
            for rep in np.unique(classes[classes >= 0]).tolist():
                members = np.flatnonzero((classes == rep) & reach_u)
                if members.size == 0:
                    continue
                for y in flags:
                    if np.isnan(self.table.values[m, rep, y]):
                        continue
                    low = int(members.min())
                    low += rules.upper_bonus if low >= UPPER_TARGET else 0
                    ups = [(int(v) - u0 if v < UPPER_TARGET else
                            upper_most + (rules.upper_bonus if u0 < UPPER_TARGET else 0))
                           for v in members]
                    bonus = rules.yahtzee_bonus * n_new if (y == 1 and rules.n_flags == 2) else 0
                    out_m.append(m)
                    out_u.append(rep)
                    out_y.append(y)
                    feas.append(low + lower_least + (50 if y == 1 else 0))
                    gain.append(lower_gain + max(ups) + bonus)
        m_arr = np.array(out_m, dtype=np.int64)
        u_arr = np.array(out_u, dtype=np.int64)
        y_arr = np.array(out_y, dtype=np.int64)
        if m_arr.size == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty, empty, empty
        most = _max_points_to_come(rules, m_arr, u_arr, y_arr)
        lo = np.maximum(self.utility.zero_below - most, np.array(feas, dtype=np.int64))
        hi = np.full(m_arr.shape, self.utility.top - 1, dtype=np.int64)
        if self.total is not None:
            lo = np.maximum(lo, self.total)
            hi = np.minimum(hi, self.total + np.array(gain, dtype=np.int64))
        return m_arr, u_arr, y_arr, lo, hi


def _make_level(m: np.ndarray, u: np.ndarray, y: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                pair: bool) -> Level:
    n = m.shape[0]
    lengths = np.where(hi >= lo, -(-(hi - lo + 1) // STEP) * STEP, 0)
    start = np.zeros(n + 2, dtype=np.int64)
    np.cumsum(lengths, out=start[1:n + 1])
    start[n + 1] = start[n]
    lo = np.append(lo, _EMPTY_LO)
    hi = np.append(hi, -_EMPTY_LO)
    vals = np.zeros(int(start[n]))
    vals2 = np.zeros(int(start[n]) if pair else 0)
    return Level(m, u, y, start, lo, hi, vals, vals2)


def _tasks(level: Level) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(state, first column, width) of every task: each state's range in pieces of at
    most WIDE columns."""
    n = level.m.shape[0]
    lengths = level.start[1:n + 1] - level.start[:n]
    counts = -(-lengths // WIDE)
    state = np.repeat(np.arange(n, dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    piece = np.arange(state.shape[0], dtype=np.int64) - first[state]
    offset = piece * WIDE
    width = np.minimum(lengths[state] - offset, WIDE)
    return state, level.lo[state] + offset, width


def _point_slots(slot: np.ndarray, plan: _Plan, level: Level) -> None:
    """slot[m, u, y] of every member of each representative's class (the placeholder
    index for states that the start cannot reach)."""
    n = level.m.shape[0]
    if n == 0:
        return
    rows = plan.classes[level.m & ((1 << N_UPPER) - 1)]  # (n, 64): class of each u
    state, u = np.nonzero(rows == level.u[:, None])
    slot[level.m[state], u, level.y[state]] = state


def solve_vectors(table: Table, utility: Utility, *, start: tuple[int, int, int] = (0, 0, 0),
                  total: int | None = None, keep: tuple[int, ...] = (),
                  keep_bytes: int | None = None, progress: Progress | None = None) -> Vectors:
    """``V`` of every state reachable from ``start`` (filled mask, capped upper subtotal,
    flag), from full cards back to the level after the start's.

    ``total``: the grand total of the start card (ranges then only cover what that card
    can reach); None solves every ``a`` that any card can need (``a < A``). ``keep``:
    levels (numbers of filled boxes) whose vectors are returned besides the one after
    the start's; ``keep_bytes``: once the kept levels pass this many bytes, they are let
    go and only the level after the start's is returned (memory stays at two levels).
    """
    began = time.perf_counter()
    rules = table.rules
    plan = _Plan(table, start, total, utility)
    levels = masks_by_level(rules.n_boxes)
    slot = np.full(rules.table_shape, -1, dtype=np.int64)
    pair = utility.pair
    # full cards: one vector, the utility itself on 0..A-1
    full = rules.full_mask
    top = utility.top
    last = Level(np.array([full], dtype=np.int64), np.zeros(1, dtype=np.int64),
                 np.zeros(1, dtype=np.int64), np.array([0, top, top], dtype=np.int64),
                 np.array([0, _EMPTY_LO]), np.array([top - 1, -_EMPTY_LO]),
                 utility.values.copy(),
                 utility.values2.copy() if utility.values2 is not None else np.zeros(0))
    slot[full] = 0
    first_level = bin(start[0]).count("1") + 1
    kept: dict[int, Level] = {}
    if rules.n_boxes in keep or first_level == rules.n_boxes:
        kept[rules.n_boxes] = last
    pmax = most_points_per_turn(rules)
    arrays = rules.arrays
    entries = 0
    operations = 0.0
    n_done = rules.n_boxes - first_level
    for done, n in enumerate(range(rules.n_boxes - 1, first_level - 1, -1), start=1):
        m, u, y, lo, hi = plan.level_states(levels[n])
        here = _make_level(m, u, y, lo, hi, pair)
        _point_slots(slot, plan, here)
        mine = slot[levels[n]]
        mine[mine < 0] = m.shape[0]  # the empty placeholder: never read by a solved state
        slot[levels[n]] = mine
        state, c0, width = _tasks(here)
        columns = int(width.sum())
        entries += columns
        operations += float(task_operations(rules, np.array([rules.n_boxes - n]))[0]) * columns
        if state.shape[0]:
            tk.vector_level(state, c0, width, here.m, here.u, here.y, here.start, here.lo,
                            here.vals, here.vals2, slot, last.start, last.lo, last.hi,
                            last.vals, last.vals2, 0.0, utility.above, utility.above2, pair,
                            arrays, ROLL_PROBABILITY, pmax)
        if n in keep or n == first_level:
            kept[n] = here
            if keep_bytes is not None and sum(level.vals.nbytes + level.vals2.nbytes
                                              for level in kept.values()) > keep_bytes:
                kept = {n: here} if n == first_level else {}
                keep = ()
        last = here
        if progress is not None:
            progress(done, n_done)
    return Vectors(rules, utility, kept, slot, time.perf_counter() - began, entries,
                   operations)


@dataclass(frozen=True, eq=False)
class TurnVectors:
    """One state's turn at one column ``a`` (points so far): see :func:`turn_at`."""

    keep_values: np.ndarray
    """(rolls_per_turn, 462): row 0 at the roll rows = V_0 (best box for each final
    roll); row j >= 1 = K_j (value of each keep with j rolls left)."""
    keep_values2: np.ndarray
    value: float
    """V of the state (the turn not yet rolled)."""
    value2: float


def turn_at(vectors: Vectors, m: int, u: int, y: int, a: int) -> TurnVectors:
    """The turn of state (m, u, y) with ``a`` points so far, from the next level's
    vectors (which ``vectors`` must hold)."""
    rules = vectors.rules
    nxt = vectors.levels[bin(m).count("1") + 1]
    utility = vectors.utility
    n_rerolls = rules.rolls_per_turn - 1
    out = np.empty((n_rerolls + 1, N_KEEPS, 1))
    out2 = np.zeros((n_rerolls + 1, N_KEEPS, 1))
    value = np.zeros((2, 1))
    vals2 = nxt.vals2 if utility.pair else nxt.vals
    tk.turn_vectors(m, min(u, UPPER_TARGET), y, a, vectors.slot, nxt.start, nxt.lo, nxt.hi,
                    nxt.vals, vals2, 0.0, utility.above, utility.above2, utility.pair,
                    rules.arrays, ROLL_PROBABILITY, most_points_per_turn(rules), out, out2,
                    value)
    return TurnVectors(out[:, :, 0].copy(), out2[:, :, 0].copy(), float(value[0, 0]),
                       float(value[1, 0]))
