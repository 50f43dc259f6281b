"""The built-in strategies' fixed policies (:mod:`solver.kernels.policy`: a table of
values and a par per box), shared by the simulator that plays them and the judge whose
control variates use their values (:mod:`solver.simulate.judge`).

- ``optimal``: the table's values;
- ``greedy`` and ``greedy-turn``: a table of zeros (only this turn's points count);
- ``heuristic``: a table of zeros and a par per box: three dice of the face for an upper
  box (the pace for the bonus); for another box, the mean points of a whole turn aimed
  at that box alone.
"""

from __future__ import annotations

import numpy as np

from ..game.dice import FIRST_ROLL_KEEP, ROLL_PROBABILITY
from ..game.rules import N_UPPER, RuleSet
from ..kernels import policy as pk
from ..table import Table


def builtin_policy(table: Table, name: str) -> tuple[bool, np.ndarray, np.ndarray]:
    """(greedy keeps, values, par) of a built-in strategy: the table for ``optimal``,
    else a table of zeros (only this turn counts); the heuristic's par per box."""
    rules = table.rules
    values = np.ascontiguousarray(table.values)
    if name != "optimal":
        values = np.where(np.isnan(values), np.nan, 0.0)
        values.flags.writeable = False  # as the table's: one compiled game loop for all
    par = heuristic_pars(rules) if name == "heuristic" else np.zeros(rules.n_boxes)
    return name == "greedy", values, par


_PARS: dict[RuleSet, np.ndarray] = {}


def heuristic_pars(rules: RuleSet) -> np.ndarray:
    """(n_boxes,) par of each box for the heuristic (see the module docstring), computed
    once per process (writeable, as every par the kernels see: one signature; not to be
    changed)."""
    pars = _PARS.get(rules)
    if pars is None:
        pars = _PARS.setdefault(rules, _pars(rules))
    return pars


def take_pars(rules: RuleSet, pars: np.ndarray) -> None:
    """Take ``pars``, :func:`heuristic_pars` of ``rules`` in another process of this
    program (a worker of ``simulate``), as this process's: computing them first loads
    the policy kernels (about half a second)."""
    _PARS.setdefault(rules, np.array(pars, dtype=np.float64))


def _pars(rules: RuleSet) -> np.ndarray:
    # one turn aimed at box b alone: no Yahtzee bonus, no Joker; the box scores its entry
    arrays = rules.arrays._replace(yahtzee_bonus=0.0, has_joker=False, n_flags=1)
    zeros = np.zeros(rules.table_shape)
    zeros.flags.writeable = False  # read-only, as a table's values: one compiled turn
    turn = pk.new_turn(rules.n_boxes, arrays.n_rerolls, 1)
    par = np.array([3.0 * (b + 1) for b in range(N_UPPER)] + [0.0] * (rules.n_boxes - N_UPPER))
    for b in range(N_UPPER, rules.n_boxes):
        pk.play_turns(rules.full_mask & ~(1 << b), 1, zeros, np.zeros(rules.n_boxes), arrays,
                      turn, 2)
        par[b] = float(ROLL_PROBABILITY @ turn.bests[arrays.n_rerolls, FIRST_ROLL_KEEP:, 0])
    return par
