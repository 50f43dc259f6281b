"""A slow, plain-Python twin of the solver, for checking the kernels on small cases.

It shares nothing with the solver but the numbering of rolls and keeps (``dice.ROLLS``,
``dice.KEEP_COUNTS``, so its results can be compared index by index): the boxes, their
points, the Joker and the bonuses come from the independent scorer
(``independent_scorer.py``, written from the rule book), and the reroll distributions
are counted by enumerating every way the rerolled dice can fall. A turn is evaluated
the textbook way, over whole outcome distributions instead of one die at a time::

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

from collections import Counter
from functools import cache
from itertools import product

from solver.game import dice as dc
from tests.oracles.independent_scorer import RULE_BOOKS, RuleBook, placements, upper_after

UPPER_TARGET = 63


@cache
def roll_faces() -> tuple[tuple[int, ...], ...]:
    """The five faces of each roll, by roll index."""
    return tuple(tuple(int(f) for f in row) for row in dc.ROLLS)


def _key(faces) -> tuple[int, ...]:
    return tuple(sorted(faces))


@cache
def _keep_faces() -> tuple[tuple[int, ...], ...]:
    """The faces of each keep, by keep index."""
    return tuple(tuple(f + 1 for f in range(6) for _ in range(int(row[f])))
                 for row in dc.KEEP_COUNTS)


@cache
def keep_outcomes() -> tuple[tuple[tuple[int, float], ...], ...]:
    """For each keep, the (roll, probability) pairs of rerolling the other dice, counted
    over all 6**n equally likely ways the n rerolled dice can fall."""
    roll_of = {faces: r for r, faces in enumerate(roll_faces())}
    out = []
    for kept in _keep_faces():
        n = 5 - len(kept)
        ways = Counter(roll_of[_key(kept + fresh)] for fresh in product(range(1, 7), repeat=n))
        out.append(tuple((r, w / 6**n) for r, w in sorted(ways.items())))
    return tuple(out)


@cache
def roll_probabilities() -> tuple[float, ...]:
    """P(roll) when all five dice are thrown, counted over the 7776 throws."""
    empty = dict(keep_outcomes()[_keep_faces().index(())])
    return tuple(empty.get(r, 0.0) for r in range(len(roll_faces())))


@cache
def roll_sub_keeps() -> tuple[tuple[int, ...], ...]:
    """For each roll, the keeps that can be kept from it (every sub-multiset)."""
    keep_of = {faces: k for k, faces in enumerate(_keep_faces())}
    out = []
    for faces in roll_faces():
        subs = {_key(c) for bits in product((0, 1), repeat=5)
                for c in [tuple(f for f, b in zip(faces, bits, strict=True) if b)]}
        out.append(tuple(sorted(keep_of[s] for s in subs)))
    return tuple(out)


def reachable_upper_subtotals(faces_filled: set[int] | frozenset[int]) -> set[int]:
    """Capped upper subtotals that the filled upper boxes (by face) can add up to."""
    totals = {0}
    for face in faces_filled:
        totals = {min(UPPER_TARGET, t + n * face) for t in totals for n in range(6)}
    return totals


class ReferenceSolver:
    """``E(mask, upper, flag)`` of one rule set by memoised plain recursion.

    ``rules`` is a rule-set name (or anything with a ``name``); the rules themselves are
    the independent scorer's. ``flag`` is 1 when the Yahtzee box holds 50 (always 0 for
    rule sets without a Yahtzee bonus). Mask bit ``i`` is box ``i`` of the card.
    """

    def __init__(self, rules) -> None:
        self.book: RuleBook = RULE_BOOKS[rules if isinstance(rules, str) else rules.name]
        self.card = self.book.card
        self.yahtzee_box = self.card.index(self.book.yahtzee_box)
        self.full_mask = (1 << len(self.card)) - 1
        self.tracks_flag = self.book.yahtzee_bonus > 0
        self._values: dict[tuple[int, int, int], float] = {}

    def value(self, mask: int, upper: int, flag: int) -> float:
        """E of the turn-start state (filled mask, capped upper subtotal, flag)."""
        key = (mask, upper, flag)
        if key not in self._values:
            self._values[key] = self._solve(mask, upper, flag)
        return self._values[key]

    def final_roll_values(self, mask: int, upper: int, flag: int) -> list[float]:
        """V_0: for each final roll, the best placement plus E of the state after it."""
        book = self.book
        filled = frozenset(b for i, b in enumerate(self.card) if mask >> i & 1)
        out = []
        for dice in roll_faces():
            best = float("-inf")
            for box, points, bonus in placements(book, dice, filled, bool(flag)):
                b = self.card.index(box)
                next_upper, upper_bonus = upper_after(book, upper, box, points)
                gain = points + bonus + upper_bonus
                next_flag = flag
                if b == self.yahtzee_box and points == 50 and self.tracks_flag:
                    next_flag = 1
                best = max(best, gain + self.value(mask | 1 << b, next_upper, next_flag))
            out.append(best)
        return out

    def turn(self, mask: int, upper: int, flag: int) -> list[list[float]]:
        """The turn of a state: ``[V_0 by roll, K_1 by keep, ..., K_R by keep]``."""
        stages = [self.final_roll_values(mask, upper, flag)]
        outcomes = keep_outcomes()
        for _ in range(self.book.rolls - 1):
            roll_values = best_keeps(stages[-1]) if len(stages) > 1 else stages[0]
            stages.append([sum(p * roll_values[r] for r, p in outcomes[k])
                           for k in range(len(outcomes))])
        return stages

    def _solve(self, mask: int, upper: int, flag: int) -> float:
        if mask == self.full_mask:
            return 0.0
        stages = self.turn(mask, upper, flag)
        first_roll = best_keeps(stages[-1]) if len(stages) > 1 else stages[0]
        return sum(p * v for p, v in zip(roll_probabilities(), first_roll, strict=True))


def best_keeps(keep_values: list[float]) -> list[float]:
    """V_j by roll from K_j by keep: the best keep among each roll's sub-multisets."""
    return [max(keep_values[k] for k in subs) for subs in roll_sub_keeps()]
