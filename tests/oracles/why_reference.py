"""A slow, plain-Python twin of the "why" of advice: what each option leads to.

Built on the reference solver (``reference.py``: its own values, the independent
scorer's rules), it plays the optimal policy forward and keeps the whole joint
distribution of what the rest of the game brings, instead of moments:

    (box filled this turn (~box: filled with 0 points), points still to come, upper bonus
     at the end,
     Yahtzee box gets 50 in the rest of the game, Yahtzee bonuses still to come)

The policy is the one the solver's statistics follow: at a final roll the first box in
scorecard order whose value is within ``TIE`` of the best; at a roll with rolls left the
first keep in keep order (fewest dice first; keeping all five dice, i.e. scoring now,
last) within ``TIE`` of the best. Keeping all five dice passes to the next roll with the
same dice. Exact to rounding, and only usable on late positions (a few open boxes).
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache

from tests.oracles.independent_scorer import placements, upper_after
from tests.oracles.reference import (
    ReferenceSolver,
    _keep_faces,
    _key,
    keep_outcomes,
    roll_faces,
    roll_probabilities,
    roll_sub_keeps,
)

TIE = 1e-9
"""Values closer than this are equally good (the fixed order decides)."""
UPPER_TARGET = 63
Future = dict[tuple[int, int, int, int], float]
"""(points still to come, upper bonus at the end 0/1, Yahtzee box gets 50 0/1, bonuses
still to come) -> probability."""


@cache
def _keep_index() -> dict[tuple[int, ...], int]:
    return {faces: k for k, faces in enumerate(_keep_faces())}


class ReferenceOutcomes:
    """The joint outcome distributions of one rule set (see the module docstring)."""

    def __init__(self, rules: str) -> None:
        self.solver = ReferenceSolver(rules)
        self.book = self.solver.book
        self.card = self.solver.card
        self._futures: dict[tuple[int, int, int], Future] = {}
        self._stages: dict[tuple[int, int, int], list[list[float]]] = {}

    # ------------------------------------------------------------------ the policy
    def _turn(self, state: tuple[int, int, int]) -> list[list[float]]:
        if state not in self._stages:
            self._stages[state] = self.solver.turn(*state)
        return self._stages[state]

    def _placements(self, state: tuple[int, int, int], dice: tuple[int, ...]):
        """(box index, points still to come, entry, bonus, next state, upper points) of
        every allowed box for final ``dice``, in card order."""
        mask, upper, flag = state
        filled = frozenset(b for i, b in enumerate(self.card) if mask >> i & 1)
        out = []
        for box, points, bonus in placements(self.book, dice, filled, bool(flag)):
            b = self.card.index(box)
            next_upper, upper_points = upper_after(self.book, upper, box, points)
            next_flag = flag
            if b == self.solver.yahtzee_box and points == 50 and self.solver.tracks_flag:
                next_flag = 1
            after = (mask | 1 << b, next_upper, next_flag)
            gain = points + bonus + upper_points
            out.append((b, gain + self.solver.value(*after), points, bonus, after, gain))
        return out

    def policy_box(self, state, dice):
        """The policy's placement of final ``dice``: the first within TIE of the best."""
        found = self._placements(state, dice)
        top = max(v for _, v, *_ in found)
        return next(p for p in found if top - p[1] <= TIE)

    def policy_keep(self, state, roll: int, rolls_left: int) -> int:
        """The policy's keep (index) at roll ``roll`` with ``rolls_left`` rolls left."""
        values = self._turn(state)[rolls_left]
        subs = roll_sub_keeps()[roll]
        top = max(values[k] for k in subs)
        return next(k for k in subs if top - values[k] <= TIE)

    # ------------------------------------------------------------------ distributions
    def future(self, mask: int, upper: int, flag: int) -> Future:
        """The rest of the game from the start of a turn in this state."""
        state = (mask, upper, flag)
        if state not in self._futures:
            self._futures[state] = self._solve(state)
        return self._futures[state]

    def _solve(self, state) -> Future:
        mask, upper, _ = state
        if mask == self.solver.full_mask:
            return {(0, int(upper >= UPPER_TARGET), 0, 0): 1.0}
        first = dict(enumerate(roll_probabilities()))
        out: Future = defaultdict(float)
        for (_, points, ub, y50, nb), q in self._finish(state, first,
                                                        self.book.rolls - 1).items():
            out[(points, ub, y50, nb)] += q
        return dict(out)

    def final_rolls(self, state, rolls: dict[int, float], rolls_left: int) -> dict[int, float]:
        """The distribution of the final roll of a turn whose dice show ``rolls`` (roll ->
        probability) with ``rolls_left``, the policy choosing every keep: probability is
        pushed through each roll's keep and the reroll's outcomes."""
        for j in range(rolls_left, 0, -1):
            after: dict[int, float] = defaultdict(float)
            for roll, p in rolls.items():
                keep = self.policy_keep(state, roll, j)
                if len(_keep_faces()[keep]) == 5:  # scoring now: the same dice go on
                    after[roll] += p
                    continue
                for nxt, q in keep_outcomes()[keep]:
                    after[nxt] += p * q
            rolls = after
        return rolls

    def _finish(self, state, rolls: dict[int, float], rolls_left: int) -> dict:
        """(box, points, ub, y50, bonuses) -> probability, from ``rolls`` on."""
        out: dict = defaultdict(float)
        for roll, p in self.final_rolls(state, rolls, rolls_left).items():
            dice = roll_faces()[roll]
            for key, q in self.after_box(state, dice, self.policy_box(state, dice)[0]).items():
                out[key] += p * q
        return dict(out)

    def after_keep(self, state, keep: int, rolls_left: int) -> dict:
        """Keep ``keep`` (0 to 4 dice) with ``rolls_left`` rolls left, then the policy."""
        return self._finish(state, dict(keep_outcomes()[keep]), rolls_left - 1)

    def after_box(self, state, dice: tuple[int, ...], box: int) -> dict:
        """Fill ``box`` with ``dice``, then the policy for the rest of the game."""
        b, _, points, bonus, after, gain = next(p for p in self._placements(state, dice)
                                                 if p[0] == box)
        got_50 = int(b == self.solver.yahtzee_box and points == 50)
        out: dict = defaultdict(float)
        filled = b if points else ~b  # ~b: the box filled with 0 points
        for (rest, ub, y50, nb), q in self.future(*after).items():
            out[(filled, gain + rest, ub, max(y50, got_50), nb + int(bonus > 0))] += q
        return dict(out)

    # ------------------------------------------------------------------ questions
    def option(self, state, dice: str, rolls_left: int, action: str, what) -> dict:
        """The outcome of one option of ``dice`` (text) in ``state``: ``("keep", faces)``
        or ``("score", box name)``."""
        faces = _key(int(c) for c in dice)
        if action == "keep":
            return self.after_keep(state, _keep_index()[_key(what)], rolls_left)
        return self.after_box(state, faces, self.card.index(what))


def summary(outcome: dict, n_boxes: int, card_yahtzee_50: bool, card_bonuses: int) -> dict:
    """The figures of a joint outcome (as ``advise --why`` reports them): per box the
    probability it is filled this turn, P(upper bonus at the end), P(the Yahtzee box ends
    with 50), the expected Yahtzee bonuses of the whole game, the mean and SD of the
    points still to come."""
    boxes = [0.0] * n_boxes
    zeros = [0.0] * n_boxes
    ub = y50 = bonuses = mean = 0.0
    for (b, points, u, y, nb), p in outcome.items():
        boxes[b if b >= 0 else ~b] += p
        if b < 0:  # filled with 0 points
            zeros[~b] += p
        ub += p * u
        y50 += p * y
        bonuses += p * nb
        mean += p * points
    variance = sum(p * (points - mean) ** 2 for (_, points, *_), p in outcome.items())
    return {"boxes": boxes, "zeros": zeros, "upper_bonus": ub,
            "yahtzee_50": 1.0 if card_yahtzee_50 else y50,
            "yahtzee_bonuses": card_bonuses + bonuses, "mean": mean,
            "sd": math.sqrt(variance), "total": sum(outcome.values())}


def state_figures(future: Future) -> tuple[float, float, float, float]:
    """(U, Z, B, V) of a state's future, as :mod:`solver.moments` defines them."""
    u = sum(p * ub for (_, ub, _, _), p in future.items())
    z = sum(p * y for (_, _, y, _), p in future.items())
    b = sum(p * nb for (_, _, _, nb), p in future.items())
    mean = sum(p * x for (x, _, _, _), p in future.items())
    v = sum(p * (x - mean) ** 2 for (x, _, _, _), p in future.items())
    return u, z, b, v


def moments_after_turn(ref: ReferenceOutcomes, rules, card):
    """A :class:`solver.moments.StateMoments` holding the twin's figures of every state
    one turn of ``card`` can lead to (NaN elsewhere): what the advisor needs to combine a
    turn of ``card``."""
    import numpy as np

    from solver.game.dice import ROLLS
    from solver.moments import StateMoments

    figures = np.full((*rules.table_shape, 4), np.nan)
    for faces in ROLLS:
        dice = tuple(int(f) for f in faces)
        for p in rules.placements(dice, card.mask, card.yahtzee_holds_50):
            m, u, y, _ = rules.after_box(card.mask, card.upper, card.flag, p.box, p.points)
            if np.isnan(figures[m, u, y, 0]):
                figures[m, u, y] = state_figures(ref.future(m, u, y))
    figures.flags.writeable = False
    return StateMoments(rules, figures)


class LastTurnTarget:
    """The last turn of a card (one open box) played for P(final >= ``target``): the
    keep of each roll is the first, in keep order, within ``P_TIE`` of the best
    probability and then within ``TIE`` of the best expected score among those."""

    P_TIE = 1e-12

    def __init__(self, ref: ReferenceOutcomes, state, total: int, target: int) -> None:
        self.ref, self.state, self.total, self.target = ref, state, total, target
        (self.box,) = [b for b in range(len(ref.card)) if not state[0] >> b & 1]
        rolls = ref.book.rolls
        final = []
        for dice in roll_faces():
            _, to_come, *_ = ref.policy_box(state, dice)
            final.append(1.0 if self.total + to_come >= target else 0.0)
        self.p = [final]  # p[j][k]: keep k with j rolls left (j = 0: by roll)
        self.ev = ref._turn(state)
        for j in range(1, rolls):
            below = self._best_by_roll(j - 1) if j > 1 else final
            self.p.append([sum(q * below[r] for r, q in keep_outcomes()[k])
                           if len(_keep_faces()[k]) < 5 else below[_roll_of(k)]
                           for k in range(len(_keep_faces()))])

    def _best_by_roll(self, j: int) -> list[float]:
        return [self.p[j][self.keep(r, j)] for r in range(len(roll_faces()))]

    def keep(self, roll: int, j: int) -> int:
        subs = roll_sub_keeps()[roll]
        top = max(self.p[j][k] for k in subs)
        near = [k for k in subs if top - self.p[j][k] <= self.P_TIE]
        top_ev = max(self.ev[j][k] for k in near)
        return next(k for k in near if top_ev - self.ev[j][k] <= TIE)

    def after_keep(self, keep: int, rolls_left: int) -> dict:
        """Keep ``keep`` with ``rolls_left`` rolls left, then play for the target."""
        rolls = dict(keep_outcomes()[keep])
        for j in range(rolls_left - 1, 0, -1):
            after: dict[int, float] = defaultdict(float)
            for roll, p in rolls.items():
                k = self.keep(roll, j)
                if len(_keep_faces()[k]) == 5:
                    after[roll] += p
                    continue
                for nxt, q in keep_outcomes()[k]:
                    after[nxt] += p * q
            rolls = after
        out: dict = defaultdict(float)
        for roll, p in rolls.items():
            for key, q in self.ref.after_box(self.state, roll_faces()[roll], self.box).items():
                out[key] += p * q
        return dict(out)


@cache
def _roll_of_keep() -> dict[int, int]:
    faces = roll_faces()
    return {k: faces.index(f) for k, f in enumerate(_keep_faces()) if len(f) == 5}


def _roll_of(keep: int) -> int:
    return _roll_of_keep()[keep]
