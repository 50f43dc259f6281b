"""A slow pure-Python twin of the target / win DP (``solver.target``), for small cases.

Straight from the definitions: a state's value is a function of the points so far
``a`` (a numpy vector over ``0 <= a < n``); the final roll goes to the best allowed box
(``RuleSet.placements``), a keep's value is the exact average over the reroll outcomes
(``dice.keep_outcome_probabilities``), a roll's value with rolls left is the best of
its keeps (every sub-multiset, ``dice.sub_keeps``), all maxima entry by entry. No
ranges, no chunks, no shared upper classes, no kernels.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver.game.dice import (
    N_KEEPS,
    N_ROLLS,
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
        rules = self.rules
        width = self.n  # >= A: every V is `above` from A on
        if m == rules.full_mask:
            vec = np.full(width, self.above)
            k = min(width, self.u.shape[0])
            vec[:k] = self.u[:k]
            return vec
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
        v = v0
        for _ in range(rules.rolls_per_turn - 1):
            keep = _OUTCOMES @ v  # (462, width)
            v = np.array([keep[_SUBS[r]].max(axis=0) for r in range(N_ROLLS)])
        return ROLL_PROBABILITY @ v

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
