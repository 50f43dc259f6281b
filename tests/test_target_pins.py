"""Pinned new-game P(final >= X) of the best strategy for X (slow: one whole-game target
DP per rule set, every target up to 300 at once). The same figures are in the README."""

from __future__ import annotations

import numpy as np
import pytest

from solver.target import Utility, solve_vectors, turn_at

TOP = 300
PINNED = {
    "official": {200: 0.9107607099450279, 250: 0.5418609347818785, 300: 0.1760187721462412},
    "no-bonus": {200: 0.909943009267504, 250: 0.5354319953756896, 300: 0.1254776725939155},
    "two-rolls": {200: 0.41358151797947096, 250: 0.0646370743932788, 300: 0.012176255285829125},
}
# free-joker and yatzy: not computed in time on the shared machine (see the README)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", sorted(PINNED))
def test_new_game_p_target(table_of, rules_name):
    table = table_of(rules_name)
    vectors = solve_vectors(table, Utility.target(TOP))
    p = {x: turn_at(vectors, 0, 0, 0, TOP - x).value for x in PINNED[rules_name]}
    for x, want in PINNED[rules_name].items():
        assert p[x] == pytest.approx(want, abs=1e-12), x
    # every target up to TOP from the new game: W nonincreasing in the target, and at
    # least the expected-score strategy's exact P(final >= x)
    from solver.stats import optimal_stats

    dist = optimal_stats(table).distribution
    tail = np.cumsum(dist[::-1])[::-1]
    w = [turn_at(vectors, 0, 0, 0, a).value for a in range(0, TOP + 1, 10)]  # x = TOP - a
    assert np.all(np.diff(w) >= -1e-13)
    for a, value in zip(range(0, TOP + 1, 10), w, strict=True):
        assert value >= float(tail[TOP - a]) - 1e-12
