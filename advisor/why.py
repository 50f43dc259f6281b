"""What each option of a turn leads to (``advise --why``): exact, not simulated.

For an option of a turn of card ``C`` (state ``s``, total ``T``), under optimal play
from then on, :class:`Outcome` holds:

- ``boxes``: for each open box, the probability that it is the box filled this turn;
- ``zeros``: for each open box, the probability that it is filled this turn with 0
  points (a part of its ``boxes`` figure);
- ``upper_bonus``: P(the upper bonus is earned by the end of the game);
- ``yahtzee_50``: P(the Yahtzee box ends the game holding 50);
- ``yahtzee_bonuses``: the expected number of Yahtzee bonuses at the end of the game
  (those on the card included);
- ``sd``: the standard deviation of the final score.

The rest of the game after this turn is known per state (:mod:`solver.moments`: ``U``,
``Z``, ``B`` and the variance ``V`` of the points still to come, beside ``E`` of the
table). Within the turn the policy is played exactly as the statistics play it: each
final roll ``r`` goes to the first best box (scorecard order, values within
``EV_TIE``), giving the outcome features

    f(r) = (one-hot of the box, U(s'), [50 entered now] + Z(s'), c + B(s'),
            d = p + E(s') - E(s), d^2 + V(s'), one-hot of the box if p = 0)

(``p`` the points of the placement, ``c`` its Yahtzee bonus, ``s'`` the next state), and
the keeps average them one die at a time as the values do:

    F_j(k) = (1/6) sum_f F_j(k + f)   (|k| < 5),     F_j(r) = X_{j-1}(r)
    X_j(r) = F_j(first best keep of r with j rolls left),   X_0(r) = f(r)

An option keeping ``k`` with ``j`` rolls left is ``F_j(k)``; a box option is its own
``f``. Then the mean points to come are ``E(s) + F[d]`` and their variance
``F[d^2 + V] - F[d]^2``.

Under a target objective the figures are the expected-score strategy's (the target
strategy's own would need its figures for every state and total), except on the last
turn (one open box), where the rest of the game is this turn: there the keeps follow
the target strategy (``outcome_strategy`` says which).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.game.dice import (
    DICE,
    FIRST_ROLL_KEEP,
    KEEP_CHILD,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_SUB_KEEP_START,
    ROLL_SUB_KEEPS,
    ROLLS,
)
from solver.moments import BONUSES, UPPER_BONUS, VARIANCE, YAHTZEE_50

from .model import Dice, box_label

if TYPE_CHECKING:
    from solver.moments import StateMoments

    from .advise import Option, TurnAdvisor

EV_TIE = 1e-9
"""Expected scores closer than this are equally good (the fixed order decides)."""
P_TIE = 1e-12
"""Probabilities closer than this are equal (then the expected score decides)."""


@dataclass(frozen=True)
class Outcome:
    """What one option leads to (see the module docstring); ``boxes`` pairs each open box
    (canonical name, scorecard order) with its probability of being filled this turn,
    ``zeros`` with that of being filled with 0 (the same boxes, in the same order)."""

    boxes: tuple[tuple[str, float], ...]
    upper_bonus: float
    yahtzee_50: float
    yahtzee_bonuses: float
    sd: float
    zeros: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"boxes": dict(self.boxes), "zeros": dict(self.zeros),
                "upper_bonus": self.upper_bonus, "yahtzee_50": self.yahtzee_50,
                "yahtzee_bonuses": self.yahtzee_bonuses, "sd": self.sd}

    def fills(self) -> list[tuple[float, str]]:
        """What this turn ends with, most likely first, as the line says it: each box
        filled with points (``Large Straight``) and with 0 (``0 in Large Straight``),
        each with its probability; they add up to 1."""
        zero = dict(self.zeros)
        found = []
        for b, p in self.boxes:
            z = min(zero.get(b, 0.0), p)
            found += [(p - z, box_label(b)), (z, f"0 in {box_label(b)}")]
        return sorted(((p, what) for p, what in found if p > 5e-5), key=lambda x: -x[0])

    def line(self, shown: int = 3) -> str:
        """One short line: ``this turn: Threes 41 %, Three of a Kind 18 %, 0 in Aces 9.0 %,
        other boxes 32 % | upper bonus 62 % | Yahtzee 50: 12 % | bonuses 0.09 | SD 58.2``
        (``0 in Aces``: Aces filled with 0)."""
        likely = self.fills()
        parts = [f"{what} {_percent(p)}" for p, what in likely[:shown]]
        rest = sum(p for p, _ in likely[shown:])
        if rest > 0:
            parts.append(f"other boxes {_percent(rest)}")
        return (f"this turn: {', '.join(parts)} | upper bonus {_percent(self.upper_bonus)} | "
                f"Yahtzee 50: {_percent(self.yahtzee_50)} | bonuses {self.yahtzee_bonuses:.2f}"
                f" | SD {self.sd:.1f}")


def _percent(p: float) -> str:
    """``41 %``, ``99.7 %``, ``0.3 %``, ``<0.1 %``, ``>99.9 %``: whole percents from 9.5 %
    to 99.5 %, tenths outside them; ``100 %`` only for a certainty (within float rounding,
    :data:`EXACT`) and ``0 %`` for none, never by rounding."""
    if p >= 1 - EXACT:
        return "100 %"
    if p <= 0:
        return "0 %"
    text = f"{100 * p:.{0 if 0.095 <= p < 0.995 else 1}f}"
    if float(text) >= 100:
        return ">99.9 %"
    if float(text) <= 0:
        return "<0.1 %"
    return f"{text} %"


EXACT = 1e-12
"""How far below 1 a probability may be and still print as ``100 %``: the float rounding of
a certainty (sums over rolls), far below anything a printed figure could round."""


@cache
def _padded_sub_keeps() -> tuple[np.ndarray, np.ndarray]:
    """(252, 32) keep indices of every roll's sub-keeps in keep order (0 to 5 dice;
    padding repeats the last), and (252, 32) bool: True where real."""
    width = int(np.diff(ROLL_SUB_KEEP_START).max())
    index = np.empty((N_ROLLS, width), dtype=np.int64)
    real = np.zeros((N_ROLLS, width), dtype=bool)
    for r in range(N_ROLLS):
        subs = ROLL_SUB_KEEPS[ROLL_SUB_KEEP_START[r]:ROLL_SUB_KEEP_START[r + 1]]
        index[r, :len(subs)] = subs
        index[r, len(subs):] = subs[-1]
        real[r, :len(subs)] = True
    return index, real


def first_best(values: np.ndarray, real: np.ndarray, tie: float,
               evs: np.ndarray | None = None) -> np.ndarray:
    """Per row, the first column (in order) whose value is within ``tie`` of the row's
    best; with ``evs``, of those the first whose ``evs`` is within ``EV_TIE`` of theirs."""
    v = np.where(real, values, -np.inf)
    near = real & (v.max(axis=1, keepdims=True) - v <= tie)
    if evs is not None:
        e = np.where(near, evs, -np.inf)
        near &= e.max(axis=1, keepdims=True) - e <= EV_TIE
    return np.argmax(near, axis=1)


class TurnOutcomes:
    """The outcome of every option of one turn of ``advisor``'s card (see the module
    docstring), computed once for the whole turn from the per-state ``moments``."""

    def __init__(self, advisor: TurnAdvisor, moments: StateMoments) -> None:
        card = advisor.card
        if moments.rules.name != card.rules_name:
            raise ValueError(f"the figures are for rules {moments.rules.name!r}, the card's "
                             f"for {card.rules_name!r}")
        self.advisor = advisor
        self.moments = moments
        self.card = card
        rules = card.rules
        self.n_boxes = rules.n_boxes
        self.names = [box.name for box in rules.boxes]
        self.start_value = advisor.table.value(card.mask, card.upper, card.flag)
        self.by_target = not advisor.objective.is_ev and len(card.open_boxes()) == 1
        self._placed: dict[tuple[int, int], np.ndarray] = {}
        self._keeps = self._rerolls(self._final_features(), rules.rolls_per_turn - 1)

    @property
    def strategy(self) -> dict[str, Any]:
        """Whose figures: the objective's own (``by_target``), else the expected score's."""
        return self.advisor.objective.to_json() if self.by_target else {"kind": "ev"}

    # ------------------------------------------------------------------ features
    @property
    def width(self) -> int:
        return 2 * self.n_boxes + 5

    def placed(self, roll: int, box: int) -> np.ndarray:
        """The features of filling ``box`` with final roll ``roll`` (allowed)."""
        key = (roll, box)
        if key not in self._placed:
            self._placed[key] = self._features(roll, box)
        return self._placed[key]

    def _features(self, roll: int, box: int) -> np.ndarray:
        card, rules = self.card, self.card.rules
        faces = tuple(int(f) for f in ROLLS[roll])
        (placement,) = [p for p in card.placements(faces)
                        if p.box == box]
        m, u, y, upper_points = rules.after_box(card.mask, card.upper, card.flag, box,
                                                placement.points)
        after = self.moments.at(m, u, y)
        points = placement.points + upper_points + placement.yahtzee_bonus
        d = points + self.advisor.table.value(m, u, y) - self.start_value
        out = np.zeros(self.width)
        n = self.n_boxes
        out[box] = 1.0
        out[n] = after[UPPER_BONUS]
        fifty = box == rules.yahtzee_box and placement.points == 50
        out[n + 1] = 1.0 if fifty else after[YAHTZEE_50]
        out[n + 2] = (1.0 if placement.yahtzee_bonus else 0.0) + after[BONUSES]
        out[n + 3] = d
        out[n + 4] = d * d + after[VARIANCE]
        if placement.points == 0:
            out[n + 5 + box] = 1.0
        return out

    def _final_features(self) -> np.ndarray:
        """(252, width): f(r) of the policy's box for every final roll."""
        out = np.empty((N_ROLLS, self.width))
        for r in range(N_ROLLS):
            # (points to come, box, points, bonus) of every allowed box, in box order
            found = self.advisor.box_values(Dice(tuple(int(f) for f in ROLLS[r])))
            top = max(v for v, *_ in found)
            box = next(b for v, b, *_ in found if top - v <= EV_TIE)
            out[r] = self.placed(r, box)
        return out

    def _rerolls(self, final: np.ndarray, n_rerolls: int) -> np.ndarray:
        """(n_rerolls + 1, 462, width): ``F_j`` of every keep (row 0: ``X_0`` at the
        roll rows)."""
        out = np.zeros((n_rerolls + 1, N_KEEPS, self.width))
        out[0, FIRST_ROLL_KEEP:] = final
        index, real = _padded_sub_keeps()
        turn = self.advisor.turn
        p_rows = self.advisor.solved.keep_values if self.by_target else None
        rolls = final
        for j in range(1, n_rerolls + 1):
            f = out[j]
            f[FIRST_ROLL_KEEP:] = rolls
            for size in range(DICE - 1, -1, -1):
                keeps = np.flatnonzero(KEEP_SIZE == size)
                f[keeps] = f[KEEP_CHILD[keeps]].sum(axis=1) / 6.0
            ev = turn[j][index]
            if p_rows is None:
                pick = first_best(ev, real, EV_TIE)
            else:
                pick = first_best(np.asarray(p_rows[j])[index], real, P_TIE, ev)
            rolls = f[index[np.arange(N_ROLLS), pick]]
        return out

    # ------------------------------------------------------------------ options
    def of(self, option: Option, roll: int, rolls_left: int) -> Outcome:
        """The outcome of ``option`` for final or current roll ``roll`` (index)."""
        if option.keep is not None:
            x = self._keeps[rolls_left, option.keep.index]
        else:
            x = self.placed(roll, self.names.index(option.box or ""))
        return self.outcome(x)

    def outcome(self, x: np.ndarray) -> Outcome:
        """The figures of a feature vector (see the module docstring)."""
        card = self.card
        n = self.n_boxes
        boxes = tuple((self.names[b], _unit(x[b])) for b in card.open_boxes())
        zeros = tuple((self.names[b], _unit(x[n + 5 + b])) for b in card.open_boxes())
        variance = x[n + 4] - x[n + 3] ** 2
        held = 1.0 if card.yahtzee_holds_50 else 0.0
        return Outcome(boxes, _unit(x[n]), _unit(held + x[n + 1]),
                       card.yahtzee_bonuses + float(x[n + 2]),
                       float(np.sqrt(max(variance, 0.0))), zeros)

    def mean_to_come(self, option: Option, roll: int, rolls_left: int) -> float:
        """The mean points still to come after ``option`` by these figures (a check: it
        equals ``option.expected_final - total`` to rounding)."""
        if option.keep is not None:
            x = self._keeps[rolls_left, option.keep.index]
        else:
            x = self.placed(roll, self.names.index(option.box or ""))
        return self.start_value + float(x[self.n_boxes + 3])


def _unit(p: float) -> float:
    return min(max(float(p), 0.0), 1.0)
