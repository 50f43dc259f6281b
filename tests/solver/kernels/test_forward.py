"""The forward pass's block kernels (solver/kernels/forward.py) on their own.

Each roll's move in every column of a played block (:func:`roll_moves`; :func:`tied_move`
where several options tie, :func:`every_tied_move` where all do) against the target
simulator's one-column rule (``simulate_target.choose``, which ranks every option of the
roll itself: values read one by one, the tie rule's expected final scores worked out per
option); the keep tree's push (:func:`spread_keeps`, shared with the statistics) against
each keep's reroll probabilities counted by the multinomial
(``keep_outcome_probabilities``).
"""

from __future__ import annotations

import numpy as np
import pytest

from advisor.model import Scorecard
from solver.game.dice import (
    FIRST_ROLL_KEEP,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    ROLL_SUB_KEEP_START,
    ROLL_SUB_KEEPS,
    keep_outcome_probabilities,
)
from solver.kernels.expected import turn_snapshots
from solver.kernels.forward import (
    box_evs,
    every_tied_move,
    new_block,
    option_cells,
    roll_moves,
    tied_move,
)
from solver.kernels.simulate_target import choose, new_wide_turn
from solver.kernels.stats import spread_keeps
from solver.kernels.target import plan_reads, turn_columns
from solver.target import Utility, solve_vectors

FIVE_OPEN = "aces=2,twos=6,threes=9,fours=12,3k=22,ss=30,ls=40,yahtzee=0"
"""Fives, sixes, four of a kind, full house and chance open (total 121)."""
WIDTH = 24


def _moves_of_a_block(table, utility: Utility, card: Scorecard, pick: int):
    """Every (rolls left, roll, column) move of one state of the level after ``card``
    (the ``pick``-th widest) by the block kernels and by ``choose``; and how many were
    tied, and how many of those the tie rule decided against the last best option."""
    rules = table.rules
    arrays = rules.arrays
    n = bin(card.mask).count("1") + 1
    vectors = solve_vectors(table, utility, start=(card.mask, card.upper, card.flag),
                            total=card.total, keep=tuple(range(rules.n_boxes + 1)))
    here, below = vectors.levels[n], vectors.levels[n + 1]
    widths = here.hi[:-1] - here.lo[:-1]
    i = int(np.argsort(-widths, kind="stable")[pick])
    m, u, y = (int(here.m[i]), int(here.u[i]), int(here.y[i]))
    c0 = int(here.lo[i])
    width = min(WIDTH, int(here.hi[i]) - c0 + 1)
    spec = utility.spec(rules)
    tt = new_wide_turn(rules.n_boxes, arrays.n_rerolls, spec, np.int64(WIDTH))
    plan_reads(m, y, arrays, tt.vec)
    turn_columns(m, u, y, c0, np.int64(width), arrays, vectors.slot, below, spec, tt.vec,
                 tt.keeps, tt.keeps[:0])
    values = np.ascontiguousarray(table.values)
    turn_snapshots(m, u, y, values, arrays, tt.ev)
    tt.ev_ready[0] = True
    blk = new_block(rules.n_boxes, arrays.n_rerolls, np.int64(WIDTH))
    option_cells(tt.vec.plan, y, arrays.box_scores, blk.cells)
    box_evs(m, u, y, tt.vec.plan, values, arrays, blk.box_ev)
    ours, theirs, tied, overruled, every = [], [], 0, 0, 0
    reads = tt.vec.reads
    first = reads.shape[1] - N_ROLLS - 1

    def options(r: int, j: int) -> int:
        """How many options roll ``r`` has with ``j`` rolls left: keeps of 0 to 4 dice
        while rolls are left, and its boxes."""
        keeps = ROLL_SUB_KEEPS[ROLL_SUB_KEEP_START[r]:ROLL_SUB_KEEP_START[r + 1]]
        boxes = int(reads[0, first + r + 1] - reads[0, first + r])
        return (int((KEEP_SIZE[keeps] < 5).sum()) if j > 0 else 0) + boxes

    for j in range(arrays.n_rerolls, -1, -1):
        for r in range(N_ROLLS):
            roll_moves(r, j, width, tt.keeps, tt.vec.bufs, tt.vec.reads, blk.cells, blk.top,
                       blk.tied, blk.move)
            for c in range(width):
                move = int(blk.move[c])
                if blk.tied[c] > 1:
                    tied += 1
                    last_best = move
                    move = tied_move(r, j, c, c0 + c, tt.keeps, tt.vec.bufs, tt.vec.reads,
                                     blk.top[c], tt.ev, blk.box_ev, blk.cells, blk.tie)
                    overruled += move != last_best
                    if blk.tied[c] == options(r, j):  # every option ties: one move for all
                        alike = every_tied_move(r, j, tt.keeps, tt.vec.bufs, reads, tt.ev,
                                                blk.box_ev, blk.cells, blk.tie)
                        every += alike == move  # (-1: asked column by column)
                        assert alike in (move, -1)
                opt, keep = choose(r, j, m, u, y, c0 + c, tt, tt, values, arrays, c)
                ours.append(move)
                theirs.append(keep if keep >= 0 else N_KEEPS + int(blk.cells[r, opt]))
    return ours, theirs, tied, overruled, every


@pytest.mark.parametrize(("kind", "level", "pick"), [("tournament", 100, 0),
                                                     ("target", 250, 0), ("target", 250, 3)])
def test_every_move_of_a_block_is_the_one_column_rules(official_table, official_stats, kind,
                                                       level, pick):
    """Rolls with 2, 1 and 0 rolls left in every column of a block of the level after a
    card of five open boxes: the same move as ``choose`` makes column by column, ties
    included (a target's columns tie often: every option certain, or none can reach)."""
    card = Scorecard.parse(FIVE_OPEN)
    utility = (Utility.tournament(official_stats.distribution, level) if kind == "tournament"
               else Utility.target(level))
    ours, theirs, tied, overruled, every = _moves_of_a_block(official_table, utility, card,
                                                             pick)
    assert len(ours) == 3 * N_ROLLS * WIDTH
    assert ours == theirs
    assert tied > 0 and overruled > 0  # the tie rule was asked, and it mattered
    assert every > 0  # and where every option tied, the one move for every column


def test_spreading_a_keep_gives_its_reroll_probabilities():
    """A unit of probability on a different keep of 0 to 4 dice in each column, pushed
    one die at a time, ends on the rolls with the probabilities of the dice rerolled;
    the keeps' own rows are left as they were."""
    keeps = np.array([0, 1, 6, 27, 100, FIRST_ROLL_KEEP - 1])
    assert (KEEP_SIZE[keeps] < 5).all() and KEEP_SIZE[0] == 0
    mass = np.zeros((N_KEEPS, keeps.shape[0] + 2))  # two columns beyond the width
    mass[keeps, np.arange(keeps.shape[0])] = 1.0
    mass[:, -2:] = 7.0
    spread_keeps(mass, np.int64(keeps.shape[0]))
    for c, k in enumerate(keeps):
        np.testing.assert_allclose(mass[FIRST_ROLL_KEEP:, c], keep_outcome_probabilities(int(k)),
                                   rtol=0, atol=1e-15)
        assert mass[k, c] == 1.0
    assert (mass[:, -2:] == 7.0).all()
