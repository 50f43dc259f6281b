"""Play for a target or to win: the exact DP over final-score utilities (``kernels.target``).

A :class:`Utility` is a function ``U(final score)``: ``1[final >= X]`` for a target
``X``; to win, the expected share of the win against the others' final scores (a win
counts 1, a tie of ``k`` players at the top ``1/k``: :meth:`Utility.win_share`).
:func:`solve_vectors` computes, level by level from full cards back to a start state,
``V_s(a)``: the largest expected utility from the start of a turn in
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

import math
import time
from dataclasses import dataclass
from functools import cache
from numbers import Integral

import numpy as np

from . import _jit_cache
from .errors import FieldError, LimitError, shown
from .field import check_players
from .game.dice import N_KEEPS
from .game.rules import N_UPPER, RULE_NAMES, UPPER_TARGET, RuleSet, get_rules
from .game.states import reachable_upper_totals, upper_classes
from .kernels import target as tk
from .kernels.level import LevelStore, new_store
from .kernels.threads import piece_blocks
from .levels import (
    Progress,
    Work,
    even_pieces,
    masks_by_level,
    max_entries,
    max_points_to_come,
    most_points_per_turn,
    piece_count,
    solve_backward,
    task_operations,
)
from .table import Table

STEP = tk.STEP
WIDE = tk.WIDE


@cache
def target_cap(rules: RuleSet | None = None) -> int:
    """One point above the highest score a game can have under ``rules`` (under any
    named rule set when None): the largest target ever solved. Every higher target has
    the same utility (0 on every final score a game can have), so it is solved, and
    answered, as this one, and no array is larger than a game: the one cap on targets
    (``target:X``, ``--target``, ``--beat``, the library)."""
    if rules is None:
        return max(target_cap(get_rules(name)) for name in RULE_NAMES)
    zero = np.zeros(1, dtype=np.int64)
    return int(max_points_to_come(rules, zero, zero, zero)[0]) + 1


TAIL = 1e-18
"""The others' final scores below or above which :meth:`Utility.win_share` lets the
utility be 0 or 1 when so little probability lies there: every figure moves by at most
that much (the utility is nondecreasing), far below the 1e-12 the figures are given to."""


@dataclass(frozen=True, eq=False)
class Utility:
    """``U(a)`` of a final score ``a``: ``values[a]`` on ``0 <= a < A``, ``above`` from
    ``A`` on, 0 below 0. ``zero_below``: it is 0 for every ``a`` below it. ``U`` is
    nondecreasing, in [0, 1]."""

    values: np.ndarray
    above: float
    zero_below: int

    @property
    def top(self) -> int:
        """``A``: the first score from which ``U`` is constant."""
        return int(self.values.shape[0])

    @classmethod
    def target(cls, x: int, rules: RuleSet | None = None) -> Utility:
        """``1[final >= x]`` under ``rules``: a target above :func:`target_cap` is that
        cap (never reached either), a negative one 0 (always reached)."""
        if isinstance(x, bool) or not isinstance(x, Integral):
            raise LimitError(f"a target is a whole number of points, not {shown(x, 40)}")
        x = min(max(int(x), 0), target_cap(rules))
        return cls(np.zeros(x), 1.0, x)

    @classmethod
    def win_share(cls, distributions: list[np.ndarray] | tuple[np.ndarray, ...]) -> Utility:
        """The expected share of the win of a final score ``a`` against others whose final
        scores are independent, other ``i``'s ``x`` with probability
        ``distributions[i][x]``: 1 above the best of them, ``1/(j + 1)`` level with ``j``
        of them at the top, 0 below. With ``F_i = P(x_i < a)`` and ``p_i = P(x_i = a)``,

            U(a) = sum_j P(j of them at a, the rest below) / (j + 1)
                 = integral over z in [0, 1] of prod_i (F_i + p_i z)

        (the coefficient of ``z^j`` in the product is the probability of ``j`` level with
        ``a``). One other: ``P(x < a) + P(x = a) / 2``. Scores where the utility is within
        :data:`TAIL` of 0 or 1 are given 0 or 1."""
        dists = [np.asarray(d, dtype=np.float64) for d in distributions]
        size = max(d.shape[0] for d in dists) + 1
        coef = np.ones((1, size))  # coef[j, a]: P(j of the others so far at a, the rest below)
        for d in dists:
            p = np.zeros(size)
            p[:d.shape[0]] = d
            below = np.concatenate(([0.0], np.cumsum(p)[:-1]))  # P(x < a)
            grown = np.zeros((coef.shape[0] + 1, size))
            grown[:-1] += coef * below
            grown[1:] += coef * p
            coef = grown
        share = (coef / np.arange(1, coef.shape[0] + 1)[:, None]).sum(axis=0)
        share = np.minimum(share, 1.0)
        last = max(int(np.flatnonzero(d > 0)[-1]) for d in dists)  # above: surely 1
        top = min(int(np.flatnonzero(share < 1.0 - TAIL)[-1]) + 1, last + 1)
        zero_below = int(np.flatnonzero(share > TAIL)[0])
        values = share[:top].copy()
        values[:zero_below] = 0.0
        return cls(values, 1.0, zero_below)

    @classmethod
    def tournament(cls, distribution: np.ndarray, players: int) -> Utility:
        """The expected share of first place of a final score ``a`` among ``players``
        players in all (2 to :data:`MAX_PLAYERS`), the ``players - 1`` others' final
        scores independent draws from ``distribution`` (``distribution[x]`` = P(x),
        normalised to sum 1: a computed one's rounding does not make the top uncertain), a
        tie of ``k`` at the top shared ``1/k``. With ``F = P(other < a)``, ``p = P(other
        = a)`` and ``G = F + p``, the sum over ``j`` others level with ``a`` is

            U(a) = sum_j C(N-1, j) p^j F^(N-1-j) / (j + 1) = (G^N - F^N) / (N p)

        (``G^(N-1)`` where ``p = 0``), computed as ``G^N (1 - (1 - p/G)^N) / (N p)``
        with ``log1p``/``expm1``, ``G`` as 1 less the tail above ``a``: no difference of
        two nearly equal powers, so every value is good to about 1e-15 for any ``N``.
        Scores where it is within :data:`TAIL` of 0 or 1 are given 0 or 1."""
        n = check_players(players)
        d = np.asarray(distribution, dtype=np.float64)
        if d.ndim != 1 or d.shape[0] == 0 or not np.all(np.isfinite(d)) or np.any(d < 0) \
                or not np.any(d > 0):
            raise FieldError("a field's distribution is a list of probabilities, 0 or "
                             "more, not all 0")
        d = d / math.fsum(d.tolist())  # a probability distribution (rounding aside)
        size = d.shape[0] + 1
        p = np.zeros(size)
        p[:d.shape[0]] = d
        tail = np.concatenate((np.cumsum(p[::-1])[::-1][1:], [0.0]))  # P(other > a)
        at_most = np.cumsum(p)  # G = P(other <= a)
        log_g = np.where(tail < 0.5, np.log1p(-np.minimum(tail, 0.5)),
                         np.log(np.maximum(at_most, np.finfo(float).tiny)))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = np.where(at_most > 0, p / np.maximum(at_most, np.finfo(float).tiny), 0.0)
            ties = -np.expm1(n * np.log1p(-np.minimum(ratio, 1.0)))  # 1 - (F/G)^N
            share = np.where(p > 0, np.exp(n * log_g) * ties / (n * np.where(p > 0, p, 1.0)),
                             np.exp((n - 1) * log_g))
        share = np.where(at_most > 0, np.minimum(share, 1.0), 0.0)
        last = int(np.flatnonzero(d > 0)[-1])  # above: surely first
        top = min(int(np.flatnonzero(share < 1.0 - TAIL)[-1]) + 1, last + 1)
        zero_below = int(np.flatnonzero(share > TAIL)[0])
        values = share[:top].copy()
        values[:zero_below] = 0.0
        return cls(values, 1.0, zero_below)

    def spec(self, rules: RuleSet) -> tk.Spec:
        """What the kernels need of the utility under ``rules``."""
        return tk.Spec(float(self.above), most_points_per_turn(rules))

    def full_cards(self, full_mask: int) -> LevelStore:
        """The one vector of the full cards: the utility itself on 0..A-1."""
        zero = np.zeros(1, dtype=np.int64)
        store = new_store(zero + full_mask, zero, zero, zero, zero + self.top - 1)
        store.vals[:] = self.values
        return store


@dataclass(frozen=True, eq=False)
class Vectors:
    """Solved levels: ``levels[n]`` for the levels kept; ``slot[m, u, y]`` is a state's
    index in its level (-1: not solved)."""

    rules: RuleSet
    utility: Utility
    levels: dict[int, LevelStore]
    slot: np.ndarray
    seconds: float
    entries: int
    """Vector entries computed (states x columns, padding included)."""
    operations: float = 0.0
    """Double-precision operations of the kernels (see :func:`task_operations`)."""

    def value(self, m: int, u: int, y: int, a: int) -> float:
        """``V`` of state (m, u, y) with ``a`` points so far (a state of a kept level)."""
        level = self.levels[bin(m).count("1")]
        i = int(self.slot[m, min(u, UPPER_TARGET), y])
        if i < 0:
            raise KeyError(f"state {(m, u, y)} was not solved")
        lo = int(level.lo[i])
        if a < lo:
            return 0.0
        if a > int(level.hi[i]):
            return self.utility.above
        return float(level.vals[level.start[i] + a - lo])


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
        self.classes = upper_classes()
        self.most = max_entries(rules)

    def level_states(self, masks: np.ndarray) -> tuple[np.ndarray, ...]:
        """(m, u, y, lo, hi) of the class representatives of ``masks`` that the start
        can reach (any state when ``total`` is None), with their ranges of ``a``.

        ``lo``: the least total a card in the state can have (the upper subtotal, the
        upper bonus once it is earned, the smallest entries of the filled lower boxes,
        the 50 of the flag), and no lower than the utility's first nonzero score minus
        the most points still to come; ``hi``: the utility's top, and from a card of
        total ``total``, no more than the most its newly filled boxes can have added.
        """
        rules, (m0, u0, y0) = self.rules, self.start
        ub, top = rules.upper_bonus, UPPER_TARGET
        masks = masks[(masks & m0) == m0]
        new = masks & ~m0
        new_bits = (new[:, None] >> np.arange(rules.n_boxes)) & 1
        lower_gain = new_bits[:, N_UPPER:] @ self.most[N_UPPER:]
        upper_most = new_bits[:, :N_UPPER] @ self.most[:N_UPPER]
        # the capped subtotals the start can reach: u0 plus a sum of the new upper boxes
        sums = self.reach[new & ((1 << N_UPPER) - 1)]
        reach = np.zeros_like(sums)
        reach[:, u0:top] = sums[:, :top - u0]
        reach[:, top] = sums[:, top - u0:].any(axis=1)
        classes = self.classes[masks & ((1 << N_UPPER) - 1)]
        i, u = np.nonzero((classes >= 0) & reach)
        key = i * (top + 1) + classes[i, u]  # by mask, then representative; u ascending
        order = np.lexsort((u, key))
        key, u = key[order], u[order]
        first = np.flatnonzero(np.diff(key, prepend=-1) != 0)
        last = np.append(first[1:], key.shape[0])[:first.shape[0]] - 1
        i, rep, low, high = key[first] // (top + 1), key[first] % (top + 1), u[first], u[last]
        # each representative with each flag its cards can have, where a state occurs
        i, rep, low, high, y = (np.repeat(a, 2) for a in (i, rep, low, high, np.zeros_like(i)))
        y[1::2] = 1
        m = masks[i]
        if m0 >> rules.yahtzee_box & 1:
            keep = y == y0
        else:
            keep = (y == 0) | (((m >> rules.yahtzee_box) & 1 == 1) & (rules.n_flags == 2))
        keep &= y < rules.n_flags
        keep[keep] = ~np.isnan(self.table.values[m[keep], rep[keep], y[keep]])
        i, rep, low, high, y, m = (a[keep] for a in (i, rep, low, high, y, m))
        ups = np.where(high < top, high - u0, upper_most[i] + (ub if u0 < top else 0))
        # a Yahtzee bonus per new turn once the flag is set: not the turn that set it
        yz_new = new_bits[i, rules.yahtzee_box] == 1
        flags = rules.n_flags == 2
        bonus = np.where((y == 1) & flags, rules.yahtzee_bonus
                         * (new_bits[i].sum(axis=1) - (yz_new & (y0 == 0))), 0)
        # a Yahtzee box filled since the start without the flag holds 0
        lower_gain_i = lower_gain[i] - np.where(yz_new & (y == 0) & flags,
                                                self.most[rules.yahtzee_box], 0)
        lo = least_columns(rules, m, rep, low, y, self.utility.zero_below)
        hi = np.full(m.shape, self.utility.top - 1, dtype=np.int64)
        if self.total is not None:
            lo = np.maximum(lo, self.total)
            hi = np.minimum(hi, self.total + lower_gain_i + ups + bonus)
        return m, rep, y, lo.astype(np.int64), hi.astype(np.int64)


def level_state_counts(table: Table) -> tuple[int, ...]:
    """The number of states :func:`solve_vectors` stores at each level 1 to
    ``n_boxes - 1`` (boxes filled) from a new game with ``total=None``: the rules' own,
    whatever the utility (a target table's ``level_states``)."""
    rules = table.rules
    plan = _Plan(table, (0, 0, 0), None, Utility.target(0, rules))
    levels = masks_by_level(rules.n_boxes)
    return tuple(int(plan.level_states(levels[n])[0].shape[0])
                 for n in range(1, rules.n_boxes))


def least_columns(rules: RuleSet, m: np.ndarray, u: np.ndarray, low: np.ndarray,
                  y: np.ndarray, zero_below: int) -> np.ndarray:
    """``lo`` of states (m, u, y) (int64 arrays; ``u`` the subtotal that stands for its
    class, ``low`` the smallest of the class a card can have): the least total a card in
    the state can have (``low``, the upper bonus once earned, the smallest entries of the
    filled lower boxes, the 50 of the flag), and no lower than ``zero_below`` (the
    utility's first nonzero score) minus the most points still to come. From a new game
    (every total), ``low`` is ``u``: a class stands at its smallest member."""
    masks = np.arange(rules.full_mask + 1, dtype=np.int64)
    least = np.array([min(rules.possible_points(b)) for b in range(N_UPPER, rules.n_boxes)],
                     dtype=np.int64)
    lower_least = ((masks[:, None] >> np.arange(N_UPPER, rules.n_boxes)) & 1) @ least
    feas = low + np.where(low >= UPPER_TARGET, rules.upper_bonus, 0) + lower_least[m] + 50 * y
    # the most to come depends on the subtotal only by whether the bonus is still open:
    # worked out once per (mask, u below 63 or not, flag), then read for each state
    mine, which = np.unique(m, return_inverse=True)
    each = np.meshgrid(mine, [0, UPPER_TARGET], [0, 1], indexing="ij")
    most = max_points_to_come(rules, *(a.ravel() for a in each)).reshape(-1, 2, 2)
    most = most[which.reshape(-1), (u >= UPPER_TARGET).astype(np.int64), y]
    return np.maximum(zero_below - most, feas).astype(np.int64)


def _tasks(level: LevelStore, wide: int = WIDE) -> np.ndarray:
    """(n_tasks, 3) int64: (state, first column, width) of every task, each state's range
    in pieces of at most ``wide`` columns."""
    n = level.m.shape[0]
    lengths = level.start[1:n + 1] - level.start[:n]
    counts = -(-lengths // wide)
    state = np.repeat(np.arange(n, dtype=np.int64), counts)
    first = np.cumsum(counts) - counts
    offset = (np.arange(state.shape[0], dtype=np.int64) - first[state]) * wide
    width = np.minimum(lengths[state] - offset, wide)
    return np.stack([state, level.lo[state] + offset, width], axis=1)


def _point_slots(slot: np.ndarray, plan: _Plan, level: LevelStore, masks: np.ndarray) -> None:
    """slot[m, u, y] of every member of each representative's class, and the placeholder
    index for the other states of ``masks`` (never read by a solved state)."""
    n = level.m.shape[0]
    rows = plan.classes[level.m & ((1 << N_UPPER) - 1)]  # (n, 64): class of each u
    state, u = np.nonzero(rows == level.u[:, None])
    slot[level.m[state], u, level.y[state]] = state
    mine = slot[masks]
    mine[mine < 0] = n
    slot[masks] = mine


def _level_operations(rules: RuleSet, n: int, lo: np.ndarray, hi: np.ndarray) -> float:
    """The operations of solving level ``n`` (filled boxes) for states on columns
    ``lo..hi`` (their ranges padded to :data:`STEP` as the kernels store them)."""
    columns = int(np.where(hi >= lo, -(-(hi - lo + 1) // STEP) * STEP, 0).sum())
    return float(task_operations(rules, np.array([rules.n_boxes - n]))[0]) * columns


def solve_operations(table: Table, utility: Utility, *, start: tuple[int, int, int] = (0, 0, 0),
                     total: int | None = None) -> float:
    """The operations :func:`solve_vectors` would do for these arguments (its work, known
    before it starts; planning only, a few ms)."""
    rules = table.rules
    plan = _Plan(table, start, total, utility)
    levels = masks_by_level(rules.n_boxes)
    first_level = bin(start[0]).count("1") + 1
    work = 0.0
    for n in range(rules.n_boxes - 1, first_level - 1, -1):
        _, _, _, lo, hi = plan.level_states(levels[n])
        work += _level_operations(rules, n, lo, hi)
    return work


def _bytes(levels: dict[int, LevelStore]) -> int:
    return sum(level.vals.nbytes for level in levels.values())


@_jit_cache.compiling(_jit_cache.TARGETS)
def solve_vectors(table: Table, utility: Utility, *, start: tuple[int, int, int] = (0, 0, 0),
                  total: int | None = None, keep: tuple[int, ...] = (),
                  keep_bytes: int | None = None, progress: Progress | None = None) -> Vectors:
    """``V`` of every state reachable from ``start`` (filled mask, capped upper subtotal,
    flag), from full cards back to the level after the start's.

    ``total``: the grand total of the start card (ranges then only cover what that card
    can reach); None solves every ``a`` that any card can need (``a < A``). ``keep``:
    levels (numbers of filled boxes) whose vectors are returned besides the one after
    the start's; ``keep_bytes``: while the kept levels pass this many bytes, the latest
    of them (the most boxes filled) are let go, so the levels a game's next turns read
    stay as far as they fit (the one after the start's is always returned).
    ``progress(done, PROGRESS_STEPS)``: the share of the operations done, after each of
    about :data:`~solver.levels.PIECES` even pieces (a run of a level's tasks: the same
    values as one call per level).
    """
    began = time.perf_counter()
    rules = table.rules
    plan = _Plan(table, start, total, utility)
    levels = masks_by_level(rules.n_boxes)
    slot = np.full(rules.table_shape, -1, dtype=np.int64)
    spec = utility.spec(rules)
    slot[rules.full_mask] = 0
    first_level = bin(start[0]).count("1") + 1
    last = utility.full_cards(rules.full_mask)
    kept = {rules.n_boxes: last} if rules.n_boxes in keep or first_level == rules.n_boxes else {}
    entries, operations = 0, 0.0
    order = range(rules.n_boxes - 1, first_level - 1, -1)
    planned = {n: plan.level_states(levels[n]) for n in order}
    work = Work(sum(_level_operations(rules, n, *planned[n][3:]) for n in order), progress)
    piece = work.total / piece_count(progress)

    def step(n: int) -> None:
        nonlocal last, entries, operations
        here = new_store(*planned.pop(n), step=STEP)
        _point_slots(slot, plan, here, levels[n])
        tasks = _tasks(here)
        columns = int(tasks[:, 2].sum())
        entries += columns
        per_column = float(task_operations(rules, np.array([rules.n_boxes - n]))[0])
        operations += per_column * columns
        ops = per_column * tasks[:, 2].astype(np.float64)
        for begin, end in even_pieces(ops, piece):  # pieces of even work, for the progress
            tk.vector_level(tasks[begin:end], here, slot, last, spec, rules.arrays,
                            piece_blocks())
            work.add(float(ops[begin:end].sum()))
        if n in keep or n == first_level:
            kept[n] = here
            while keep_bytes is not None and kept and _bytes(kept) > keep_bytes:
                latest = max(kept)  # past the budget the latest levels go first: the
                if latest == first_level:  # next turns read the early ones (and small)
                    break
                del kept[latest]
        last = here

    solve_backward(rules, first_level, step)
    work.finish()
    return Vectors(rules, utility, kept, slot, time.perf_counter() - began, entries,
                   operations)


@dataclass(frozen=True, eq=False)
class TurnVectors:
    """One state's turn at one column ``a`` (points so far): see :func:`turn_at`."""

    keep_values: np.ndarray
    """(rolls_per_turn, 462): row 0 at the roll rows = V_0 (best box for each final
    roll); row j >= 1 = K_j (value of each keep with j rolls left)."""
    value: float
    """V of the state (the turn not yet rolled)."""


@_jit_cache.compiling(_jit_cache.TARGETS)
def turn_at(vectors: Vectors, m: int, u: int, y: int, a: int) -> TurnVectors:
    """The turn of state (m, u, y) with ``a`` points so far, from the next level's
    vectors (which ``vectors`` must hold)."""
    rules = vectors.rules
    nxt = vectors.levels[bin(m).count("1") + 1]
    out = np.zeros((rules.rolls_per_turn, N_KEEPS, 1))
    value = tk.turn_vectors(m, min(u, UPPER_TARGET), y, a, rules.arrays, vectors.slot, nxt,
                            vectors.utility.spec(rules), out, out[:0])
    return TurnVectors(out[:, :, 0].copy(), float(value))
