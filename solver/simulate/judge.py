"""Every simulated game judged against optimal play, decision by decision, as ``analyze``
judges a record (the kernels: :mod:`solver.kernels.judge`), batch by batch of games.

Beside the losses, the luck of every roll is measured under ``REFERENCES``' values (the
optimal table's and two built-in policies'), summed per game by roll of the turn (first
rolls, second rolls, ...): control variates of mean 0 whatever the strategy, which take
more of the dice's noise out of the corrected estimate (:mod:`solver.simulate.control`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..game.dice import N_KEEPS
from ..game.rules import RuleSet
from ..kernels import judge as jk
from ..kernels import simulate as sim
from ..levels import level_states, masks_by_level
from ..table import Table
from .control import N_FOLDS, cross_fitted, fold_sums, sums_width
from .policies import builtin_policy

CACHED_LEVELS = 3
"""Turns prepared once for every state with fewer boxes filled (the same in most games)."""
REFERENCES = ("optimal", "greedy-turn", "heuristic")
"""The policies (:mod:`solver.simulate.policies`) whose values measure the luck of each roll."""


class Losses(NamedTuple):
    """What the decisions gave up against optimal play, in expected points (each judged
    as ``analyze`` judges it): ``per_game`` (games, 2) float64, each game's loss of its
    keeps and of its boxes; ``decisions`` (2,) int64, the keep and box decisions of all
    games; ``by_turn`` and ``by_box`` (n_boxes,) float64, summed over the games: the loss
    of turn 1, 2, ... and of the turn that filled each box; ``sums`` (N_FOLDS, width), the
    folds' sums of the total losses and the luck control variates
    (:func:`solver.simulate.control.fold_sums`)."""

    per_game: np.ndarray
    decisions: np.ndarray
    by_turn: np.ndarray
    by_box: np.ndarray
    sums: np.ndarray

    @property
    def n_controls(self) -> int:
        """p, the control variates: one per reference policy and roll of the turn."""
        return int(round(np.sqrt(self.sums.shape[1] - 2))) - 1

    def cross_fitted(self) -> tuple[float, float, np.ndarray]:
        """(mean of total loss less the luck terms, its standard error, the slopes):
        :func:`solver.simulate.control.cross_fitted`."""
        return cross_fitted(self.sums, self.n_controls)


Judge = Callable[[int, np.ndarray], None]
"""judge(first, traces): judge games ``first .. first + len(traces) - 1`` (their traces)."""

Chunk = tuple[np.ndarray, np.ndarray]
"""Per batch judged: (2 + 2 n_boxes,) decisions, loss by turn, loss by box; the folds'
sums (N_FOLDS, width) (:func:`solver.simulate.control.fold_sums`)."""


class References:
    """What judging needs of a table, prepared once: the optimal values and, per
    reference policy (``REFERENCES``), its values, par and prepared early turns."""

    def __init__(self, table: Table) -> None:
        rules = table.rules
        self.rules = rules
        self.values = np.ascontiguousarray(table.values).view()
        self.values.flags.writeable = False  # as the other references': one tuple type
        policies = []
        for name in REFERENCES:
            _, values, par = builtin_policy(table, name)
            values = self.values if name == "optimal" else values
            policies.append((values, par, early_turns(rules, values, par)))
        self.policies = tuple(policies)
        """Per reference policy: (values, par, prepared early turns), the optimal first."""
        self.cache = self.policies[0][2]

    @property
    def n_controls(self) -> int:
        return n_controls(self.rules)


def n_controls(rules: RuleSet) -> int:
    """The control variates of a game: one per reference policy and roll of the turn."""
    return len(REFERENCES) * rules.rolls_per_turn


class GameJudge:
    """Judges the games of one simulation batch by batch (:mod:`solver.kernels.judge`)
    and keeps their :class:`Losses`; game ``first + i`` is row ``i`` (its fold). With
    ``lossless`` (the optimal strategy: every loss is 0, so every slope is 0) the luck
    under the other references is not measured (left 0)."""

    def __init__(self, table: Table, games: int, first: int = 0,
                 references: References | None = None, lossless: bool = False) -> None:
        self.references = references if references is not None else References(table)
        self.rules = table.rules
        self.first = first
        self.lossless = lossless
        self.values = self.references.values
        self.cache = self.references.cache
        self.per_game = np.zeros((games, 2))
        self.chunks: list[Chunk] = []

    def add(self, first: int, traces: np.ndarray) -> None:
        """Judge games ``first ..`` from their ``traces`` (n, n_boxes, 2 R + 2)."""
        n, rules = traces.shape[0], self.rules
        counts = np.empty((n, 2), dtype=np.int64)
        turn_loss = np.empty((n, rules.n_boxes))
        box_loss = np.empty((n, rules.n_boxes))
        luck = np.empty((n, len(REFERENCES), rules.rolls_per_turn))
        jk.judge_games(traces, self.references.policies, 1 if self.lossless else len(REFERENCES),
                       rules.arrays, self.per_game[first:first + n], counts, turn_loss,
                       box_loss, luck)
        controls = luck.reshape(n, -1)
        sums = fold_sums(self.first + first, self.per_game[first:first + n].sum(axis=1),
                         controls)
        self.chunks.append((np.concatenate([counts.sum(axis=0), turn_loss.sum(axis=0),
                                            box_loss.sum(axis=0)]), sums))

    def losses(self) -> Losses:
        return losses_of(self.per_game, self.chunks, self.rules)


def losses_of(per_game: np.ndarray, chunks: list[Chunk], rules: RuleSet) -> Losses:
    """The :class:`Losses` of games judged batch by batch (``chunks``, in game order):
    summed in one fixed way, so the same batches give the same figures however many
    processes judged them."""
    n_boxes = rules.n_boxes
    total = np.sum(np.stack([c[0] for c in chunks]), axis=0) if chunks else \
        np.zeros(2 + 2 * n_boxes)
    sums = np.sum(np.stack([c[1] for c in chunks]), axis=0) if chunks else \
        np.zeros((N_FOLDS, sums_width(n_controls(rules))))
    return Losses(per_game, total[:2].astype(np.int64), total[2:2 + n_boxes],
                  total[2 + n_boxes:], sums)


def early_turns(rules: RuleSet, values: np.ndarray, par: np.ndarray) -> sim.TurnCache:
    """The prepared turns (``kernels.simulate.prepare_turns``) of the fixed policy
    (``values``, ``par``) in every state with at most ``CACHED_LEVELS - 1`` boxes filled
    (the same in most games)."""
    slot = np.full(values.shape, -1, dtype=np.int32)
    m, u, y = level_states(values, np.concatenate(masks_by_level(rules.n_boxes)[:CACHED_LEVELS]))
    slot[m, u, y] = np.arange(len(m), dtype=np.int32)
    stages = (len(m), rules.rolls_per_turn, N_KEEPS, 1)
    cache = sim.TurnCache(slot, np.zeros((len(m), 6 * rules.n_boxes, 1)), np.empty(stages),
                          np.empty(stages))
    sim.prepare_turns(m, u, y, values, par, rules.arrays, cache)
    return cache
