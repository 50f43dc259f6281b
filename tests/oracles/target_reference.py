"""A slow pure-Python twin of the target / win DP (``solver.target``), for small cases.

Straight from the definitions: a state's value is a function of the points so far
``a`` (a numpy vector over ``0 <= a < n``); the final roll goes to the best allowed box
(``RuleSet.placements``), a keep's value is the exact average over the reroll outcomes
(``dice.keep_outcome_probabilities``), a roll's value with rolls left is the best of
its keeps (every sub-multiset, ``dice.sub_keeps``), all maxima entry by entry. No
ranges, no chunks, no shared upper classes, no kernels.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from solver.game.dice import (
    N_KEEPS,
    N_ROLLS,
    ROLL_KEEP,
    ROLL_PROBABILITY,
    ROLLS,
    keep_outcome_probabilities,
    sub_keeps,
)
from solver.game.rules import UPPER_TARGET, RuleSet

_OUTCOMES = np.array([keep_outcome_probabilities(k) for k in range(N_KEEPS)])  # (462, 252)
_SUBS = [np.array(sub_keeps(r)) for r in range(N_ROLLS)]


class TwinDP:
    """``value(m, u, y)``: (n,) vector of V(a), a = 0..n-1, for the utility ``U`` given
    on 0..A-1 (``above`` from A on); needs n >= A."""

    def __init__(self, rules: RuleSet, utility, above: float, n: int) -> None:
        self.rules = rules
        self.u = np.asarray(utility, dtype=float)
        self.above = above
        if n < self.u.shape[0]:
            raise ValueError("n must cover the utility")
        self.n = n
        self.value = lru_cache(maxsize=None)(self._value)

    def _value(self, m: int, u: int, y: int) -> np.ndarray:
        width = self.n  # >= A: every V is `above` from A on
        if m == self.rules.full_mask:
            vec = np.full(width, self.above)
            k = min(width, self.u.shape[0])
            vec[:k] = self.u[:k]
            return vec
        return ROLL_PROBABILITY @ self._best_of_subs(self.keeps(m, u, y)[-1])

    @staticmethod
    def _best_of_subs(keep: np.ndarray) -> np.ndarray:
        """(252, n): each roll's best sub-keep's value."""
        return np.array([keep[_SUBS[r]].max(axis=0) for r in range(N_ROLLS)])

    def keeps(self, m: int, u: int, y: int) -> list[np.ndarray]:
        """``[V_0, K_1, ..., K_R]`` of the turn of state (m, u, y), (462, n) each at every
        ``a``: ``V_0`` at the rolls' rows (the best box for each final roll; 0 elsewhere),
        ``K_j`` the value of every keep with ``j`` rolls left."""
        rules = self.rules
        width = self.n
        v0 = np.zeros((N_ROLLS, width))
        for r in range(N_ROLLS):
            best = np.full(width, -np.inf)
            for box, points, bonus in rules.placements(tuple(ROLLS[r]), m, y == 1 and
                                                         bool(m >> rules.yahtzee_box & 1)):
                nu, ny, gained = u, y, points + bonus
                if rules.boxes[box].is_upper:
                    nu, ub = rules.after_box(0, u, 0, 0, points)[1::2]
                    gained += ub
                elif box == rules.yahtzee_box and points > 0 and rules.n_flags == 2:
                    ny = 1
                nxt = self.value_wide(m | 1 << box, nu, ny)
                idx = np.arange(width) + gained
                got = np.where(idx < nxt.shape[0], nxt[np.minimum(idx, nxt.shape[0] - 1)],
                               self.above)
                best = np.maximum(best, got)
            v0[r] = best
        first = np.zeros((N_KEEPS, width))
        first[ROLL_KEEP] = v0
        stages = [first]
        v = v0
        for j in range(1, rules.rolls_per_turn):
            stages.append(_OUTCOMES @ v)  # (462, width)
            if j < rules.rolls_per_turn - 1:
                v = self._best_of_subs(stages[-1])
        return stages

    def value_wide(self, m: int, u: int, y: int) -> np.ndarray:
        return self.value(m, min(u, UPPER_TARGET), y)



def least_total(rules: RuleSet, m: int, u: int, y: int) -> int:
    """The smallest grand total a card in state (m, u, y) can have: the (capped) upper
    subtotal, the upper bonus once it is 63, the 50 of the flag and the smallest entries
    of the filled lower boxes (the solver stores vectors from there up)."""
    lower = sum(min(rules.possible_points(b)) for b in range(6, rules.n_boxes) if m >> b & 1)
    return (u + (rules.upper_bonus if u >= UPPER_TARGET else 0) + lower
            + (50 if y == 1 else 0))


def stored_vector(level, i: int) -> tuple[int, np.ndarray]:
    """(lo, values on lo..hi) of state ``i`` of a solved level (a ``LevelStore``)."""
    lo, hi = int(level.lo[i]), int(level.hi[i])
    return lo, level.vals[level.start[i]:level.start[i] + max(hi - lo + 1, 0)]


def win_share_utility(distributions: list[np.ndarray]) -> tuple[np.ndarray, float]:
    """(U on 0..A-1, 1 from A on) of the share of the win against others whose final
    scores are independent, ``distributions[i][x]`` = P(other i's final = x): straight
    from the definition, over every joint outcome of the others: 1 above the best of
    them, ``1 / (1 + the number level with a)`` at the best, 0 below."""
    supports = [np.flatnonzero(np.asarray(d) > 0) for d in distributions]
    top = max(int(s[-1]) for s in supports) + 1
    a = np.arange(top)
    utility = np.zeros(top)
    for outcome in itertools.product(*supports):
        p = float(np.prod([d[x] for d, x in zip(distributions, outcome, strict=True)]))
        best = max(outcome)
        level = sum(1 for x in outcome if x == best)
        utility += p * np.where(a > best, 1.0, np.where(a == best, 1.0 / (1 + level), 0.0))
    return utility, 1.0
