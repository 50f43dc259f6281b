"""Dice combinatorics: the 252 rolls, the 462 keeps and the moves between them.

A *keep* is a multiset of 0 to 5 faces; a *roll* is a keep of five dice. Both are
stored as counts per face (``counts[i]`` = dice showing face ``i + 1``). Indices are
stable: keeps are ordered by size, then lexicographically by their sorted faces, and
rolls are ordered lexicographically, so ``ROLLS[r]`` is the same roll in every table.

Rerolling is modelled one die at a time: keeping ``k`` (``n`` dice) and rerolling the
rest has the same outcome distribution as adding one uniform die ``5 - n`` times, so a
keep's value is the mean of its six one-die children (``KEEP_CHILD``).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

import numpy as np

FACES = 6
DICE = 5

# Keeps of each size, in size-then-lexicographic order: 1 + 6 + 21 + 56 + 126 + 252.
_KEEP_FACES: list[tuple[int, ...]] = [
    faces
    for size in range(DICE + 1)
    for faces in combinations_with_replacement(range(1, FACES + 1), size)
]

N_KEEPS = len(_KEEP_FACES)  # 462
KEEP_SIZE = np.array([len(f) for f in _KEEP_FACES], dtype=np.int64)
"""(462,) int64: number of dice in each keep."""

KEEP_COUNTS = np.zeros((N_KEEPS, FACES), dtype=np.int64)
"""(462, 6) int64: dice per face in each keep."""
for _k, _faces in enumerate(_KEEP_FACES):
    for _f in _faces:
        KEEP_COUNTS[_k, _f - 1] += 1

KEEP_INDEX: dict[tuple[int, ...], int] = {
    tuple(int(c) for c in KEEP_COUNTS[k]): k for k in range(N_KEEPS)
}
"""counts tuple (6 ints) -> keep index."""

ROLL_KEEP = np.flatnonzero(KEEP_SIZE == DICE)
"""(252,) int64: the keep index of each roll (rolls are the keeps of five dice)."""
N_ROLLS = len(ROLL_KEEP)  # 252
FIRST_ROLL_KEEP = int(ROLL_KEEP[0])
ROLL_COUNTS = KEEP_COUNTS[ROLL_KEEP].copy()
"""(252, 6) int64: dice per face in each roll."""
ROLLS = np.array([_KEEP_FACES[k] for k in ROLL_KEEP], dtype=np.int64)
"""(252, 5) int64: the faces of each roll, ascending."""
ROLL_INDEX: dict[tuple[int, ...], int] = {
    tuple(int(c) for c in ROLL_COUNTS[r]): r for r in range(N_ROLLS)
}
"""counts tuple (6 ints) -> roll index."""


def _child_and_sub_tables() -> tuple[np.ndarray, np.ndarray]:
    child = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
    sub = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
    for k in range(N_KEEPS):
        counts = KEEP_COUNTS[k]
        for f in range(FACES):
            if KEEP_SIZE[k] < DICE:
                more = counts.copy()
                more[f] += 1
                child[k, f] = KEEP_INDEX[tuple(int(c) for c in more)]
            if counts[f] > 0:
                less = counts.copy()
                less[f] -= 1
                sub[k, f] = KEEP_INDEX[tuple(int(c) for c in less)]
    return child, sub


KEEP_CHILD, KEEP_SUB = _child_and_sub_tables()
"""(462, 6) int64 each: the keep with one more die of face f+1 (-1 for five dice), and
the keep with one die of face f+1 removed (-1 when the keep has none)."""


KEEP_SUB_COUNT = (KEEP_SUB >= 0).sum(axis=1).astype(np.int64)
"""(462,) int64: number of distinct faces in each keep (its one-die-smaller sub-keeps)."""
KEEP_SUB_LIST = np.full_like(KEEP_SUB, -1)
"""(462, 6) int64: ``KEEP_SUB_LIST[k, :KEEP_SUB_COUNT[k]]`` are the sub-keeps of ``k``."""
for _k in range(N_KEEPS):
    _present = KEEP_SUB[_k][KEEP_SUB[_k] >= 0]
    KEEP_SUB_LIST[_k, : len(_present)] = _present


def multinomial_probability(counts: np.ndarray | tuple[int, ...]) -> float:
    """Probability that ``sum(counts)`` fresh dice show exactly these counts per face."""
    n = int(sum(counts))
    ways = factorial(n)
    for c in counts:
        ways //= factorial(int(c))
    return ways / FACES**n


ROLL_PROBABILITY = np.array([multinomial_probability(ROLL_COUNTS[r]) for r in range(N_ROLLS)])
"""(252,) float64: probability of each roll when all five dice are thrown."""

ROLL_FIVE_FACE = np.array([int(np.argmax(c)) if c.max() == DICE else -1 for c in ROLL_COUNTS],
                          dtype=np.int64)
"""(252,) int64: the face index (0..5) of five alike, -1 for other rolls."""

YAHTZEE_ROLLS = np.array([ROLL_INDEX[tuple(5 if i == f else 0 for i in range(FACES))]
                          for f in range(FACES)], dtype=np.int64)
"""(6,) int64: roll index of five alike of face f+1."""


def keep_outcome_probabilities(keep: int) -> np.ndarray:
    """(252,) float64: distribution of the roll after keeping ``keep`` and rerolling the rest."""
    out = np.zeros(N_ROLLS)
    kept = KEEP_COUNTS[keep]
    for r in range(N_ROLLS):
        extra = ROLL_COUNTS[r] - kept
        if (extra >= 0).all():
            out[r] = multinomial_probability(extra)
    return out


def _roll_sub_keep_lists() -> tuple[np.ndarray, np.ndarray]:
    inside = np.all(KEEP_COUNTS[None, :, :] <= ROLL_COUNTS[:, None, :], axis=2)
    start = np.zeros(N_ROLLS + 1, dtype=np.int64)
    np.cumsum(inside.sum(axis=1), out=start[1:])
    return start, np.nonzero(inside)[1].astype(np.int64)


ROLL_SUB_KEEP_START, ROLL_SUB_KEEPS = _roll_sub_keep_lists()
"""CSR lists: ``ROLL_SUB_KEEPS[ROLL_SUB_KEEP_START[r]:ROLL_SUB_KEEP_START[r + 1]]`` are the
keeps (0 to 5 dice) of roll ``r``, by keep index (fewest dice first)."""


def sub_keeps(roll: int) -> list[int]:
    """Keep indices of every distinct sub-multiset (0 to 5 dice) of roll ``roll``, ascending."""
    return ROLL_SUB_KEEPS[ROLL_SUB_KEEP_START[roll]:ROLL_SUB_KEEP_START[roll + 1]].tolist()


def counts_of(faces: tuple[int, ...] | list[int] | np.ndarray) -> tuple[int, ...]:
    """Counts per face (6 ints) of a sequence of faces 1..6 (no validation)."""
    counts = [0] * FACES
    for f in faces:
        counts[int(f) - 1] += 1
    return tuple(counts)


def faces_of(counts: tuple[int, ...] | np.ndarray) -> tuple[int, ...]:
    """Sorted faces of a counts-per-face vector."""
    return tuple(f + 1 for f in range(FACES) for _ in range(int(counts[f])))
