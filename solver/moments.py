"""Per-state figures of the rest of a game under the optimal policy (the "why" of advice).

For every turn-start state ``s = (m, u, y)`` the optimal policy (the table's values, with
the tie order of the statistics) plays the rest of the game; besides ``E(s)`` (the
table) it has, exactly:

- ``upper_bonus``: P(the upper bonus is earned by the end of the game): 1 once
  ``u = 63``;
- ``yahtzee_50``: P(the Yahtzee box gets 50 in the rest of the game): 0 once it is filled;
- ``bonuses``: the expected number of Yahtzee bonuses still to come;
- ``variance``: the variance of the points still to come.

Backwards from full cards (``U = [u = 63]``, the others 0), over the turn outcomes
``o`` of ``s`` (box ``b``, entry ``e``, Yahtzee bonus ``c``; probability ``w_o``,
points ``p_o``, next state ``s'_o``), with ``d_o = p_o + E(s'_o) - E(s)``:

    U(s) = sum_o w_o U(s'_o)
    Z(s) = sum_o w_o ([b is the Yahtzee box and e = 50] + Z(s'_o))
    B(s) = sum_o w_o (c + B(s'_o))
    V(s) = sum_o w_o (V(s'_o) + d_o^2) - (sum_o w_o d_o)^2

(the law of total variance, centred on ``E(s)`` so that nothing large cancels).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .game.rules import UPPER_TARGET, RuleSet

FIELDS = ("upper_bonus", "yahtzee_50", "bonuses", "variance")
UPPER_BONUS, YAHTZEE_50, BONUSES, VARIANCE = range(len(FIELDS))


@dataclass(frozen=True, eq=False)
class StateMoments:
    """The figures of every state of one rule set.

    ``figures[mask, upper, flag, i]`` (float64, read-only) is field ``FIELDS[i]`` of the
    state; NaN for states that cannot occur.
    """

    rules: RuleSet
    figures: np.ndarray

    def at(self, mask: int, upper: int, flag: int) -> np.ndarray:
        """(4,) the figures of one turn-start state (upper subtotal capped here)."""
        return self.figures[mask, min(upper, UPPER_TARGET), flag]
