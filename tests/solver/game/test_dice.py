"""Dice combinatorics: counts, stable indices, probabilities, keeps and sub-keeps."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest

from solver.game import dice as dc

ALL_THROWS = list(product(range(1, 7), repeat=5))
"""The 7776 ordered throws of five dice."""


def test_252_rolls_and_462_keeps() -> None:
    assert dc.N_ROLLS == len(dc.ROLLS) == len(dc.ROLL_COUNTS) == len(dc.ROLL_KEEP) == 252
    assert dc.N_KEEPS == len(dc.KEEP_COUNTS) == len(dc.KEEP_SIZE) == 462
    assert Counter(dc.KEEP_SIZE.tolist()) == {0: 1, 1: 6, 2: 21, 3: 56, 4: 126, 5: 252}


def test_rolls_are_every_multiset_in_lexicographic_order() -> None:
    expected = sorted({tuple(sorted(t)) for t in ALL_THROWS})
    assert [tuple(int(f) for f in row) for row in dc.ROLLS] == expected


def test_roll_index_is_stable() -> None:
    assert tuple(dc.ROLLS[0]) == (1, 1, 1, 1, 1)
    assert tuple(dc.ROLLS[1]) == (1, 1, 1, 1, 2)
    assert tuple(dc.ROLLS[-1]) == (6, 6, 6, 6, 6)
    assert dc.ROLL_INDEX[dc.counts_of((1, 2, 3, 4, 5))] == 76
    assert dc.ROLL_INDEX[dc.counts_of((2, 3, 4, 5, 6))] == 175
    assert [tuple(dc.ROLLS[r]) for r in dc.YAHTZEE_ROLLS] == [(f,) * 5 for f in range(1, 7)]


def test_keeps_are_ordered_by_size_then_lexicographically() -> None:
    keeps = [dc.faces_of(c) for c in dc.KEEP_COUNTS]
    expected = sorted({tuple(sorted(t[:n])) for t in ALL_THROWS for n in range(6)},
                      key=lambda k: (len(k), k))
    assert keeps == expected
    assert keeps[0] == () and keeps[1] == (1,) and keeps[6] == (6,) and keeps[7] == (1, 1)
    assert keeps[dc.FIRST_ROLL_KEEP] == (1, 1, 1, 1, 1)


def test_roll_keep_and_counts_agree() -> None:
    assert np.array_equal(dc.KEEP_COUNTS[dc.ROLL_KEEP], dc.ROLL_COUNTS)
    assert (dc.KEEP_SIZE[dc.ROLL_KEEP] == 5).all()
    assert np.array_equal(dc.KEEP_COUNTS.sum(axis=1), dc.KEEP_SIZE)
    for r in range(dc.N_ROLLS):
        assert dc.counts_of(dc.ROLLS[r]) == tuple(dc.ROLL_COUNTS[r])
        assert dc.faces_of(dc.ROLL_COUNTS[r]) == tuple(dc.ROLLS[r])
        assert dc.ROLL_INDEX[tuple(int(c) for c in dc.ROLL_COUNTS[r])] == r
    for k in range(dc.N_KEEPS):
        assert dc.KEEP_INDEX[tuple(int(c) for c in dc.KEEP_COUNTS[k])] == k


def test_roll_probabilities_sum_to_one_and_match_counting() -> None:
    assert dc.ROLL_PROBABILITY.sum() == pytest.approx(1.0, abs=1e-15)
    ways = Counter(tuple(sorted(t)) for t in ALL_THROWS)
    for r in range(dc.N_ROLLS):
        assert dc.ROLL_PROBABILITY[r] == pytest.approx(ways[tuple(dc.ROLLS[r])] / 7776,
                                                       rel=1e-15)
    assert dc.ROLL_PROBABILITY[0] == 1 / 7776
    assert dc.ROLL_PROBABILITY[dc.ROLL_INDEX[dc.counts_of((1, 2, 3, 4, 5))]] == 120 / 7776
    assert dc.ROLL_PROBABILITY[dc.ROLL_INDEX[dc.counts_of((1, 1, 1, 2, 2))]] == 10 / 7776


def test_every_keeps_outcome_probabilities_sum_to_one() -> None:
    for k in range(dc.N_KEEPS):
        probs = dc.keep_outcome_probabilities(k)
        assert probs.shape == (252,)
        assert probs.sum() == pytest.approx(1.0, abs=1e-14)
        assert (probs >= 0).all()
        # Outcomes are exactly the rolls that contain the keep.
        contains = (dc.ROLL_COUNTS >= dc.KEEP_COUNTS[k]).all(axis=1)
        assert np.array_equal(probs > 0, contains)


def test_empty_keep_outcomes_are_the_roll_probabilities() -> None:
    assert np.allclose(dc.keep_outcome_probabilities(0), dc.ROLL_PROBABILITY, rtol=0, atol=1e-17)
    full = dc.keep_outcome_probabilities(int(dc.ROLL_KEEP[40]))
    assert full[40] == 1.0 and full.sum() == 1.0


@pytest.mark.parametrize("kept", [(5, 5), (1, 2, 3), (6,), (4, 4, 4, 4)])
def test_keep_outcomes_match_brute_force_rerolls(kept: tuple[int, ...]) -> None:
    k = dc.KEEP_INDEX[dc.counts_of(kept)]
    n = 5 - len(kept)
    exact: Counter[tuple[int, ...]] = Counter()
    for extra in product(range(1, 7), repeat=n):
        exact[tuple(sorted(kept + extra))] += 1
    probs = dc.keep_outcome_probabilities(k)
    for r in range(dc.N_ROLLS):
        want = Fraction(exact[tuple(dc.ROLLS[r])], 6**n)
        assert probs[r] == pytest.approx(float(want), abs=1e-16)


def test_one_die_at_a_time_model() -> None:
    # Rerolling the rest of a keep = adding uniform dice one by one (the kernel's premise).
    for k in range(dc.FIRST_ROLL_KEEP):
        mean = sum(dc.keep_outcome_probabilities(int(dc.KEEP_CHILD[k, f])) for f in range(6)) / 6
        assert np.allclose(dc.keep_outcome_probabilities(k), mean, rtol=0, atol=1e-15)


def test_keep_child_adds_one_die() -> None:
    for k in range(dc.N_KEEPS):
        for f in range(6):
            child = int(dc.KEEP_CHILD[k, f])
            if dc.KEEP_SIZE[k] == 5:
                assert child == -1
                continue
            expected = dc.KEEP_COUNTS[k].copy()
            expected[f] += 1
            assert np.array_equal(dc.KEEP_COUNTS[child], expected)
            assert dc.KEEP_SUB[child, f] == k


def test_keep_sub_removes_one_die() -> None:
    for k in range(dc.N_KEEPS):
        for f in range(6):
            sub = int(dc.KEEP_SUB[k, f])
            if dc.KEEP_COUNTS[k, f] == 0:
                assert sub == -1
                continue
            expected = dc.KEEP_COUNTS[k].copy()
            expected[f] -= 1
            assert np.array_equal(dc.KEEP_COUNTS[sub], expected)
            assert dc.KEEP_CHILD[sub, f] == k
    assert (dc.KEEP_SUB[0] == -1).all()
    assert int((dc.KEEP_CHILD >= 0).sum()) == int((dc.KEEP_SUB >= 0).sum())


def test_sub_keeps_are_every_distinct_sub_multiset() -> None:
    total = 0
    for r in range(dc.N_ROLLS):
        roll = tuple(int(f) for f in dc.ROLLS[r])
        expected = {tuple(sorted(c)) for n in range(6) for c in combinations(roll, n)}
        got = dc.sub_keeps(r)
        assert len(got) == len(set(got)) == len(expected)
        assert {dc.faces_of(dc.KEEP_COUNTS[k]) for k in got} == expected
        total += len(got)
    assert total == 4368


@pytest.mark.parametrize(("roll", "count"), [
    ((1, 1, 1, 1, 1), 6), ((1, 2, 3, 4, 5), 32), ((2, 2, 2, 5, 6), 16), ((3, 3, 4, 4, 6), 18),
])
def test_sub_keep_counts(roll: tuple[int, ...], count: int) -> None:
    assert len(dc.sub_keeps(dc.ROLL_INDEX[dc.counts_of(roll)])) == count


def test_multinomial_probability() -> None:
    assert dc.multinomial_probability((0,) * 6) == 1.0
    assert dc.multinomial_probability((1, 0, 0, 0, 0, 0)) == 1 / 6
    assert dc.multinomial_probability((1, 1, 0, 0, 0, 0)) == 2 / 36
    assert dc.multinomial_probability((0, 0, 3, 0, 0, 0)) == 1 / 216
