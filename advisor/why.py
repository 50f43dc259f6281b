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
from typing import Any

import numpy as np

from solver.game.dice import DICE, FIRST_ROLL_KEEP, KEEP_CHILD, KEEP_SIZE, N_KEEPS
from solver.game.ties import EV_TIE, P_TIE
from solver.moments import BONUSES, UPPER_BONUS, VARIANCE, YAHTZEE_50, StateMoments
from solver.readout import best_keeps, turn_choices
from solver.table import Table

from .model import Scorecard, box_label
from .objective import Objective


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


def is_by_objective(card: Scorecard, objective: Objective) -> bool:
    """True when the figures of ``card``'s turn follow ``objective``'s own keeps: a target
    or win objective on the last turn (see the module docstring)."""
    return objective.solves_turns and len(card.open_boxes()) == 1


class TurnOutcomes:
    """The outcome of every option of one turn of ``card`` (see the module docstring),
    computed once for the whole turn from the per-state ``moments``. An option is named by
    indices: a keep's (:meth:`of_keep`), or a box's with its points (:meth:`of_box`)."""

    def __init__(self, card: Scorecard, table: Table, moments: StateMoments, turn: np.ndarray,
                 objective: Objective, keep_values: np.ndarray | None = None) -> None:
        """``turn``: the turn's values (:func:`solver.table.turn_values`); under a target
        or win ``objective`` on the last turn (:func:`is_by_objective`), ``keep_values``:
        the objective's probability of every keep (``SolvedTurn.keep_values``)."""
        if moments.rules.name != card.rules_name:
            raise ValueError(f"the figures are for rules {moments.rules.name!r}, the card's "
                             f"for {card.rules_name!r}")
        self.table = table
        self.moments = moments
        self.card = card
        self.objective = objective
        rules = card.rules
        self.n_boxes = rules.n_boxes
        self.names = [box.name for box in rules.boxes]
        self.start_value = table.value(card.mask, card.upper, card.flag)
        self.by_target = is_by_objective(card, objective)
        if self.by_target and keep_values is None:
            raise ValueError("the last turn under a target or win objective needs its "
                             "keep_values")
        self._placed: dict[tuple[int, int, int], np.ndarray] = {}
        self._keeps = self._rerolls(self._final_features(), turn, keep_values)

    @property
    def strategy(self) -> dict[str, Any]:
        """Whose figures: the objective's own (``by_target``), else the expected score's."""
        return self.objective.to_json() if self.by_target else {"kind": "ev"}

    # ------------------------------------------------------------------ features
    @property
    def width(self) -> int:
        return 2 * self.n_boxes + 5

    def placed(self, box: int, points: int, bonus: int) -> np.ndarray:
        """The features of filling ``box`` with ``points`` and Yahtzee ``bonus`` (allowed)."""
        key = (box, points, bonus)
        if key not in self._placed:
            self._placed[key] = self._features(box, points, bonus)
        return self._placed[key]

    def _features(self, box: int, points: int, bonus: int) -> np.ndarray:
        card, rules = self.card, self.card.rules
        m, u, y, upper_points = rules.after_box(card.mask, card.upper, card.flag, box, points)
        after = self.moments.at(m, u, y)
        d = points + upper_points + bonus + self.table.value(m, u, y) - self.start_value
        out = np.zeros(self.width)
        n = self.n_boxes
        out[box] = 1.0
        out[n] = after[UPPER_BONUS]
        fifty = box == rules.yahtzee_box and points == 50
        out[n + 1] = 1.0 if fifty else after[YAHTZEE_50]
        out[n + 2] = (1.0 if bonus else 0.0) + after[BONUSES]
        out[n + 3] = d
        out[n + 4] = d * d + after[VARIANCE]
        if points == 0:
            out[n + 5 + box] = 1.0
        return out

    def _final_features(self) -> np.ndarray:
        """(252, width): f(r) of the policy's box for every final roll (the readout's
        choices, :func:`solver.readout.turn_choices`), each placement's features computed
        once."""
        card = self.card
        chosen = turn_choices(self.table, card.mask, card.upper, card.flag)
        placements, which = np.unique(chosen, axis=1, return_inverse=True)
        features = np.array([self.placed(*(int(v) for v in p)) for p in placements.T])
        return features[which.reshape(-1)]

    def _rerolls(self, final: np.ndarray, turn: np.ndarray,
                 keep_values: np.ndarray | None) -> np.ndarray:
        """(R + 1, 462, width): ``F_j`` of every keep (row 0: ``X_0`` at the roll rows);
        each roll's keep with ``j`` rolls left from :func:`solver.readout.best_keeps`, by the
        expected score (``turn``), or by the objective's probability first
        (``keep_values``, when ``by_target``)."""
        out = np.zeros((turn.shape[0], N_KEEPS, self.width))
        out[0, FIRST_ROLL_KEEP:] = final
        if self.by_target:
            assert keep_values is not None  # (by_target: the objective's values are given)
            picks = best_keeps(keep_values, turn, P_TIE)
        else:
            picks = best_keeps(turn, turn, EV_TIE)
        rolls = final
        for j in range(1, turn.shape[0]):
            f = out[j]
            f[FIRST_ROLL_KEEP:] = rolls
            for size in range(DICE - 1, -1, -1):
                keeps = np.flatnonzero(KEEP_SIZE == size)
                f[keeps] = f[KEEP_CHILD[keeps]].sum(axis=1) / 6.0
            rolls = f[picks[j]]
        return out

    # ------------------------------------------------------------------ options
    def of_keep(self, keep: int, rolls_left: int) -> Outcome:
        """The outcome of keeping ``keep`` (a keep index) with ``rolls_left``."""
        return self.outcome(self.keep_features(keep, rolls_left))

    def of_box(self, box: int, points: int, bonus: int) -> Outcome:
        """The outcome of filling ``box`` (an index) with ``points`` and Yahtzee ``bonus``."""
        return self.outcome(self.placed(box, points, bonus))

    def keep_features(self, keep: int, rolls_left: int) -> np.ndarray:
        """``F_j(k)`` of keep ``k`` (index) with ``j = rolls_left``."""
        return self._keeps[rolls_left, keep]

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

    def mean_to_come(self, x: np.ndarray) -> float:
        """The mean points still to come by feature vector ``x`` (:meth:`keep_features`,
        :meth:`placed`); a check: it equals the option's ``expected_final - total`` to
        rounding."""
        return self.start_value + float(x[self.n_boxes + 3])


def _unit(p: float) -> float:
    return min(max(float(p), 0.0), 1.0)
