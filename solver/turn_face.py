"""The solver's one face for a turn under any goal: every option of a roll, valued and
ranked.

For a card in state ``s = (m, u, y)`` with total ``T``, dice ``r`` and ``j`` rolls left,
every distinct choice is valued by the same turn recurrence (:mod:`solver.kernels.turn`):

    keep k (while j >= 1):   expected_final = T + K_j(k)
                             value          = W_j(k)
    box b for final dice r:  expected_final = T + points + upper_bonus + yahtzee_bonus
                                              + E(m | b, u', y')
                             value          = W(m | b, u', y', T + points + bonuses)

where ``K_j`` are :func:`solver.table.turn_values`, ``W`` is the goal's probability (a
target's, the chance to win, the share of first place: :mod:`solver.goals`) and, for the
expected score, the value is the expected final score itself (``W_j`` and ``W`` after a
box: :mod:`solver.solved_turn`). :func:`turn_options` returns them all in one call, with
the order of :mod:`solver.game.ties` (best first, ties within the goal's tolerance
broken by the expected final score, then by the fixed rank). The turn's expected-score
values and the goal's :class:`~solver.solved_turn.SolvedTurn` come back with the
options, so the same turn's other rolls are priced without solving anything again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from .game import ties
from .game.card import Scorecard
from .game.dice import DICE, KEEP_SIZE, sub_keeps
from .game.faces import Dice
from .goals import Goal
from .memory import TurnMemory
from .solved_turn import SolvedTurn, solve_notes, solve_turn
from .table import turn_values

if TYPE_CHECKING:
    from .table import Table

NO_BOX = -1
"""An option's box when it is a keep."""
NO_KEEP = -1
"""An option's keep when it is a box."""


@dataclass(frozen=True, eq=False)
class TurnOptions:
    """Every distinct choice for one roll, valued: parallel lists, an entry per choice
    (the allowed boxes in scorecard order, then the keeps while rolls are left)."""

    expected_finals: list[float]
    """The card's total plus the points expected to come after the choice."""
    probabilities: list[float]
    """The goal's probability after the choice (0.0 for the expected score and for a
    goal out of reach)."""
    ranks: list[int]
    """The fixed order of :func:`solver.game.ties.rank`."""
    keeps: list[int]
    """The keep's index (``0..461``, 0 to 4 dice); :data:`NO_KEEP` for a box."""
    boxes: list[int]
    """The box's index in the rules' boxes; :data:`NO_BOX` for a keep."""
    points: list[int]
    bonuses: list[int]
    """The Yahtzee bonus scored with the box (0 for a keep)."""
    order: list[int]
    """The choices' indices, best first (``order[0]`` the best; only it when not
    ranked)."""
    expected: np.ndarray | None
    """The turn's expected-score values, (rolls_per_turn, 462) float64
    (:func:`solver.table.turn_values`; None until a roll with rolls left asks for them):
    hand them back for the turn's other rolls."""
    solved: SolvedTurn | None
    """The goal's solved turn (None when the goal needs no solve): hand it back too."""


@cache
def _rerolls_of(roll: int) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...]]:
    """(their keep indices as an array, their ranks, their keep indices) of every
    distinct keep of 0 to 4 dice of roll ``roll`` (its index in ``ROLLS``)."""
    ks = [k for k in sub_keeps(roll) if KEEP_SIZE[k] < DICE]
    return np.array(ks, dtype=np.int64), tuple(ties.rank(k, -1) for k in ks), tuple(ks)


def turn_options(table: Table, goal: Goal, card: Scorecard, dice: Dice, rolls_left: int, *,
                 memory: TurnMemory, expected: np.ndarray | None = None,
                 solved: SolvedTurn | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 note: Callable[[str], None] | None = None,
                 whole_game: bool = True, ranked: bool = True) -> TurnOptions:
    """Every distinct choice for ``dice`` (five) in ``card``'s turn with ``rolls_left``
    (both checked by the caller), valued for ``goal``, best
    first (``ranked`` False: only the best is found, :func:`solver.game.ties.best`).

    ``expected`` and ``solved``: the turn's values from an earlier call (else computed:
    the goal's turn solved with :func:`solver.solved_turn.solve_turn`, ``memory``,
    ``progress`` and ``whole_game`` as there). ``note(text)``: first told what a user is
    to know before the question is answered (:func:`solver.solved_turn.solve_notes`: a
    kept solve or target table unusable, a slow solve without a target table)."""
    if note is not None:
        for text in solve_notes(card, table, goal, memory):
            note(text)
    needs_solve = goal.needs_solve(card)  # else no probability, or p = 0 out of reach
    if needs_solve and solved is None:
        solved = solve_turn(card, table, goal, memory, progress=progress,
                            whole_game=whole_game)
    if expected is None and rolls_left:  # (a final roll reads the table alone)
        expected = turn_values(table, card.mask, card.upper, card.flag)
    options = TurnOptions([], [], [], [], [], [], [], [], expected, solved)
    _add_boxes(options, table, card, dice, solved if needs_solve else None)
    if rolls_left and expected is not None:
        ks, ranks, keeps = _rerolls_of(dice.roll_index)
        total = card.total
        evs = (total + expected[rolls_left][ks]).tolist()  # total + K_j(k), each keep
        options.expected_finals.extend(evs)
        options.ranks.extend(ranks)
        options.keeps.extend(keeps)
        options.boxes.extend(NO_BOX for _ in keeps)
        options.points.extend(0 for _ in keeps)
        options.bonuses.extend(0 for _ in keeps)
        options.probabilities.extend(solved.keep_values[rolls_left][ks].tolist()
                                     if needs_solve and solved is not None
                                     else [0.0] * len(evs))
    evs = options.expected_finals
    values = options.probabilities if goal.solves_turns else evs
    if ranked:
        options.order.extend(ties.ranked(values, evs, options.ranks, goal.tie))
    else:
        options.order.append(ties.best(values, evs, options.ranks, len(evs), goal.tie))
    return options


def _add_boxes(options: TurnOptions, table: Table, card: Scorecard, dice: Dice,
               solved: SolvedTurn | None) -> None:
    """Every box the rules allow for ``dice`` as the final dice: its expected final score
    and, with ``solved``, the goal's probability after it."""
    rules, values, total = card.rules, table.values, card.total
    mask, upper, flag = card.mask, card.upper, card.flag
    for box, points, bonus in card.placements(dice.faces):
        m, u, y, upper_bonus = rules.after_box(mask, upper, flag, box, points)
        options.expected_finals.append(total + (points + upper_bonus + bonus
                                                + float(values[m, u, y])))
        options.ranks.append(ties.rank(-1, box))
        options.keeps.append(NO_KEEP)
        options.boxes.append(box)
        options.points.append(points)
        options.bonuses.append(bonus)
        options.probabilities.append(0.0 if solved is None else solved.box(box, points, bonus))
