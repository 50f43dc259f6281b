"""solver/points_to_come.py: an opponent's exact final-score distribution, and the best of
several (against the distribution of the larger of independent scores, by hand)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import ObjectiveError
from solver.points_to_come import max_distribution


def test_max_distribution_is_the_distribution_of_the_larger_of_independent_scores():
    rng = np.random.default_rng(8)
    p, q = rng.random(7), rng.random(11)
    p[[0, 2]] = 0.0
    p, q = p / p.sum(), q / q.sum()
    by_hand = np.zeros(11)
    for i, pi in enumerate(p):
        for j, qj in enumerate(q):
            by_hand[max(i, j)] += pi * qj
    assert np.allclose(max_distribution([p, q]), by_hand, rtol=0, atol=1e-15)
    assert np.allclose(max_distribution([q, p]), by_hand, rtol=0, atol=1e-15)
    three = np.bincount(np.maximum.outer(np.arange(11), np.arange(7)).ravel(),
                        weights=np.outer(by_hand, p).ravel())
    assert np.allclose(max_distribution([p, q, p]), three, rtol=0, atol=1e-15)
    assert np.array_equal(max_distribution([p]), p)
    with pytest.raises(ObjectiveError):
        max_distribution([])
