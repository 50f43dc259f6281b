"""Where play for a final-score utility ends, straight from the definitions (pure Python).

The final-score distribution of the play that maximises ``U(final score)`` from a card,
for small cases (few open boxes): the probability of each (state, points so far) is
carried forward turn by turn. In a turn every roll's move is the best option with the
rolls left: a keep of fewer than five dice (its value the DP twin's ``K_j``,
``tests/oracles/target_reference.py``) or a box (the twin's value of the state after it at
the points it leaves). The tie rule, written out here: the options within 1e-12 of the
best value, of those the ones within 1e-9 of the highest expected final score (the
plain-Python expected-score solver, ``tests/oracles/reference.py``), of those the lowest
rank (a keep by its index, then the boxes in card order). A keep's rerolls go by the
enumerated reroll outcomes, a box by the independent scorer's points and bonuses.
No kernels, no shared upper classes, no ranges.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from solver.game.dice import N_KEEPS
from tests.oracles.independent_scorer import placements, upper_after
from tests.oracles.reference import (
    ReferenceSolver,
    _keep_faces,
    keep_outcomes,
    roll_faces,
    roll_probabilities,
    roll_sub_keeps,
)
from tests.oracles.target_reference import TwinDP

VALUE_TIE = 1e-12
EV_TIE = 1e-9


def _pick(options: list[tuple[float, float, int, object]]) -> object:
    """The move of the best of ``options`` (value, expected final, rank, move)."""
    top = max(v for v, _, _, _ in options)
    level = [o for o in options if top - o[0] <= VALUE_TIE]
    top_ev = max(ev for _, ev, _, _ in level)
    return min((o for o in level if top_ev - o[1] <= EV_TIE), key=lambda o: o[2])[3]


class ForwardReference:
    """``final_distribution(m, u, y, total)``: {final score: probability} of play for the
    utility ``U`` (``values`` on 0..A-1, ``above`` from A on) under ``rules`` (a solver
    ``RuleSet``: the twin's; the moves' points are the independent scorer's)."""

    def __init__(self, rules, values, above: float, size: int) -> None:
        self.rules = rules
        self.twin = TwinDP(rules, values, above, size)
        self.ev = ReferenceSolver(rules.name)
        self.book = self.ev.book
        self.card = self.ev.card
        self._turns: dict[tuple, tuple] = {}

    def _boxes(self, m: int, u: int, y: int, r: int) -> list[tuple[int, int, tuple]]:
        """Each allowed box of final roll ``r``: (box, points gained, state after)."""
        filled = frozenset(b for i, b in enumerate(self.card) if m >> i & 1)
        out = []
        for box, points, bonus in placements(self.book, roll_faces()[r], filled, bool(y)):
            b = self.card.index(box)
            nu, upper_bonus = upper_after(self.book, u, box, points)
            ny = 1 if (b == self.ev.yahtzee_box and points == 50 and self.ev.tracks_flag) else y
            out.append((b, points + bonus + upper_bonus, (m | 1 << b, nu, ny)))
        return out

    def _value_after(self, state: tuple, a: int) -> float:
        vec = self.twin.value_wide(*state)
        return float(vec[a]) if a < vec.shape[0] else self.twin.above

    def turn(self, m: int, u: int, y: int, a: int) -> dict[tuple, float]:
        """{(state after, points gained): probability} of the turn at ``a`` points."""
        if (m, u, y) not in self._turns:
            self._turns[(m, u, y)] = (self.twin.keeps(m, u, y), self.ev.turn(m, u, y),
                                      [self._boxes(m, u, y, r) for r in range(len(roll_faces()))])
        stages, ev_stages, boxes = self._turns[(m, u, y)]
        rolls = self.rules.rolls_per_turn - 1
        mass = dict(enumerate(roll_probabilities()))
        ends: dict[tuple, float] = defaultdict(float)
        for j in range(rolls, -1, -1):
            kept: dict[int, float] = defaultdict(float)
            for r, p in mass.items():
                if p == 0.0:
                    continue
                options = []
                if j > 0:
                    for k in roll_sub_keeps()[r]:
                        if len(_keep_faces()[k]) < 5:
                            options.append((float(stages[j][k][a]), a + ev_stages[j][k], k,
                                            ("keep", k)))
                for b, gained, after in boxes[r]:
                    options.append((self._value_after(after, a + gained),
                                    a + gained + self.ev.value(*after), N_KEEPS + b,
                                    ("box", after, gained)))
                move = _pick(options)
                if move[0] == "keep":
                    kept[move[1]] += p
                else:
                    ends[(move[1], move[2])] += p
            mass = defaultdict(float)
            for k, p in kept.items():
                for r, q in keep_outcomes()[k]:
                    mass[r] += p * q
        return ends

    def final_distribution(self, m: int, u: int, y: int, total: int) -> dict[int, float]:
        """{final score: probability} from the card (m, u, y) with ``total`` points."""
        full = self.ev.full_mask
        now: dict[tuple, float] = {(m, u, y, total): 1.0}
        finals: dict[int, float] = defaultdict(float)
        while now:
            later: dict[tuple, float] = defaultdict(float)
            for (sm, su, sy, a), p in now.items():
                for (after, gained), q in self.turn(sm, su, sy, a).items():
                    if after[0] == full:
                        finals[a + gained] += p * q
                    else:
                        later[(*after, a + gained)] += p * q
            now = later
        return dict(finals)


def as_array(finals: dict[int, float], size: int) -> np.ndarray:
    """{score: probability} as an array on 0..size-1."""
    out = np.zeros(size)
    for score, p in finals.items():
        out[score] += p
    return out
