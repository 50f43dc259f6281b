"""A slow, plain-Python twin of the solver, for checking the kernels on small cases.

It shares only the rules and the dice combinatorics with the solver (``placements``,
``keep_outcome_probabilities``, ``sub_keeps``) and evaluates a turn the textbook way,
over whole outcome distributions instead of one die at a time::

    V_0(r) = max over placements p of the final dice r:
             points(p) + upper bonus + Yahtzee bonus(p) + E(next state)
    K_j(k) = sum over rolls r of P(r | keep k) * V_{j-1}(r)
    V_j(r) = max over the sub-multisets k of r of K_j(k)
    E(s)   = sum over rolls r of P(r) * V_{R}(r),     R = rolls per turn - 1

with ``E(full card) = 0``. Every state it needs is evaluated by the same recursion and
memoised, so it is exact (to rounding) for states with few open boxes and hopeless for
early ones.
"""

from __future__ import annotations

from functools import cache

from solver import dice as dc
from solver.rules import RuleSet

UPPER_TARGET = 63
YAHTZEE_BOX_NAMES = ("yahtzee", "yatzy")


@cache
def roll_faces() -> tuple[tuple[int, ...], ...]:
    """The five faces of each roll, by roll index."""
    return tuple(tuple(int(f) for f in row) for row in dc.ROLLS)


@cache
def keep_outcomes() -> tuple[tuple[tuple[int, float], ...], ...]:
    """For each keep, the (roll, probability) pairs of rerolling the other dice."""
    out = []
    for k in range(dc.N_KEEPS):
        probs = dc.keep_outcome_probabilities(k)
        out.append(tuple((r, float(p)) for r, p in enumerate(probs) if p > 0))
    return tuple(out)


@cache
def roll_sub_keeps() -> tuple[tuple[int, ...], ...]:
    """For each roll, the keeps that can be kept from it."""
    return tuple(tuple(dc.sub_keeps(r)) for r in range(dc.N_ROLLS))


def reachable_upper_subtotals(faces_filled: set[int] | frozenset[int]) -> set[int]:
    """Capped upper subtotals that the filled upper boxes (by face) can add up to."""
    totals = {0}
    for face in faces_filled:
        totals = {min(UPPER_TARGET, t + n * face) for t in totals for n in range(6)}
    return totals


class ReferenceSolver:
    """``E(mask, upper, flag)`` of one rule set by memoised plain recursion.

    ``flag`` is 1 when the Yahtzee box holds 50 (always 0 for rule sets without a
    Yahtzee bonus).
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        names = [b.name for b in rules.boxes]
        self.yahtzee_box = next(i for i, n in enumerate(names) if n in YAHTZEE_BOX_NAMES)
        self.full_mask = (1 << len(names)) - 1
        self.tracks_flag = rules.yahtzee_bonus > 0
        self._values: dict[tuple[int, int, int], float] = {}

    def value(self, mask: int, upper: int, flag: int) -> float:
        """E of the turn-start state (filled mask, capped upper subtotal, flag)."""
        key = (mask, upper, flag)
        if key not in self._values:
            self._values[key] = self._solve(mask, upper, flag)
        return self._values[key]

    def final_roll_values(self, mask: int, upper: int, flag: int) -> list[float]:
        """V_0: for each final roll, the best placement plus E of the state after it."""
        rules = self.rules
        out = []
        for dice in roll_faces():
            best = float("-inf")
            for p in rules.placements(dice, mask, bool(flag)):
                box = rules.boxes[p.box]
                gain = p.points + p.yahtzee_bonus
                next_upper = upper
                if box.is_upper:
                    next_upper = min(UPPER_TARGET, upper + p.points)
                    if upper < UPPER_TARGET <= upper + p.points:
                        gain += rules.upper_bonus
                next_flag = flag
                if p.box == self.yahtzee_box and p.points == 50 and self.tracks_flag:
                    next_flag = 1
                best = max(best, gain + self.value(mask | 1 << p.box, next_upper, next_flag))
            out.append(best)
        return out

    def turn(self, mask: int, upper: int, flag: int) -> list[list[float]]:
        """The turn of a state: ``[V_0 by roll, K_1 by keep, ..., K_R by keep]``."""
        stages = [self.final_roll_values(mask, upper, flag)]
        outcomes = keep_outcomes()
        for _ in range(self.rules.rolls_per_turn - 1):
            roll_values = best_keeps(stages[-1]) if len(stages) > 1 else stages[0]
            stages.append([sum(p * roll_values[r] for r, p in outcomes[k])
                           for k in range(dc.N_KEEPS)])
        return stages

    def _solve(self, mask: int, upper: int, flag: int) -> float:
        if mask == self.full_mask:
            return 0.0
        stages = self.turn(mask, upper, flag)
        first_roll = best_keeps(stages[-1]) if len(stages) > 1 else stages[0]
        return sum(float(p) * v for p, v in zip(dc.ROLL_PROBABILITY, first_roll, strict=True))


def best_keeps(keep_values: list[float]) -> list[float]:
    """V_j by roll from K_j by keep: the best keep among each roll's sub-multisets."""
    return [max(keep_values[k] for k in subs) for subs in roll_sub_keeps()]
