"""Every simulated game judged against optimal play, decision by decision, as ``analyze``
judges a record (the kernels: :mod:`solver.kernels.judge`), batch by batch of games."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .game.dice import N_KEEPS
from .game.rules import RuleSet
from .kernels import judge as jk
from .kernels import simulate as sim
from .levels import level_states, masks_by_level
from .table import Table

CACHED_LEVELS = 3
"""Turns prepared once for every state with fewer boxes filled (the same in most games)."""


class Losses(NamedTuple):
    """What the decisions gave up against optimal play, in expected points (each judged
    as ``analyze`` judges it): ``per_game`` (games, 2) float64, each game's loss of its
    keeps and of its boxes; ``decisions`` (2,) int64, the keep and box decisions of all
    games; ``by_turn`` and ``by_box`` (n_boxes,) float64, summed over the games: the loss
    of turn 1, 2, ... and of the turn that filled each box."""

    per_game: np.ndarray
    decisions: np.ndarray
    by_turn: np.ndarray
    by_box: np.ndarray


Judge = Callable[[int, np.ndarray], None]
"""judge(first, traces): judge games ``first .. first + len(traces) - 1`` (their traces)."""


class GameJudge:
    """Judges the games of one simulation batch by batch (:mod:`solver.kernels.judge`)
    and keeps their :class:`Losses`."""

    def __init__(self, table: Table, games: int) -> None:
        rules = table.rules
        self.rules = rules
        self.values = np.ascontiguousarray(table.values)
        self.cache = early_turns(rules, self.values, np.zeros(rules.n_boxes))
        self.per_game = np.zeros((games, 2))
        self.chunks: list[np.ndarray] = []
        """Per batch judged: (2 + 2 n_boxes,) decisions, loss by turn, loss by box."""

    def add(self, first: int, traces: np.ndarray) -> None:
        """Judge games ``first ..`` from their ``traces`` (n, n_boxes, 2 R + 2)."""
        n, n_boxes = traces.shape[0], self.rules.n_boxes
        counts = np.empty((n, 2), dtype=np.int64)
        turn_loss = np.empty((n, n_boxes))
        box_loss = np.empty((n, n_boxes))
        jk.judge_games(traces, self.values, self.rules.arrays, self.cache,
                       self.per_game[first:first + n], counts, turn_loss, box_loss)
        self.chunks.append(np.concatenate([counts.sum(axis=0), turn_loss.sum(axis=0),
                                           box_loss.sum(axis=0)]))

    def losses(self) -> Losses:
        return losses_of(self.per_game, self.chunks)


def losses_of(per_game: np.ndarray, chunks: list[np.ndarray]) -> Losses:
    """The :class:`Losses` of games judged batch by batch (``chunks``, in game order):
    summed in one fixed way, so the same batches give the same figures however many
    processes judged them."""
    n_boxes = (chunks[0].shape[0] - 2) // 2 if chunks else 0
    total = np.sum(np.stack(chunks), axis=0) if chunks else np.zeros(2)
    return Losses(per_game, total[:2].astype(np.int64), total[2:2 + n_boxes],
                  total[2 + n_boxes:])


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
