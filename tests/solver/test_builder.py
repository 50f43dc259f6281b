"""Whole tables: new-game expected scores, reachable states and value invariants."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from solver.game.rules import RULE_NAMES, get_rules
from tests.oracles.reference import reachable_upper_subtotals

# New-game expected scores under optimal play, to 10 decimals. The official figure
# differs from the often quoted 254.5896, which is the free-joker convention.
NEW_GAME = {
    "official": 254.5877287345,
    "free-joker": 254.5896094820,   # Verhoeff's published 254.5896
    "no-bonus": 245.8707745141,     # Glenn's 245.87
    "two-rolls": 190.1296644734,    # no published figure; kernel checked on small cases
    "yatzy": 248.4399893779,
}


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_new_game_expected_score(table_of, rules_name: str) -> None:
    table = table_of(rules_name)
    assert abs(table.expected_score - NEW_GAME[rules_name]) < 5e-11


@cache
def reachable_subtotals_by_upper_mask() -> np.ndarray:
    """(64, 64) bool ``[filled upper boxes, subtotal]``, from the reference's own rule."""
    reach = np.zeros((64, 64), dtype=bool)
    for upper_mask in range(64):
        faces = {f + 1 for f in range(6) if upper_mask >> f & 1}
        reach[upper_mask, sorted(reachable_upper_subtotals(faces))] = True
    return reach


def expected_reachable(rules) -> np.ndarray:
    """Bool array of the table's shape: the states that can occur."""
    masks = np.arange(rules.n_masks)
    out = np.zeros(rules.table_shape, dtype=bool)
    out[:, :, 0] = reachable_subtotals_by_upper_mask()[masks & 63]
    if rules.n_flags == 2:
        yahtzee_filled = (masks >> rules.yahtzee_box & 1) == 1
        out[:, :, 1] = out[:, :, 0] & yahtzee_filled[:, None]
    return out


@pytest.mark.slow
def test_official_reachable_states(official_table) -> None:
    assert official_table.states == 536448
    assert int(expected_reachable(official_table.rules).sum()) == 536448


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_exactly_the_reachable_states_have_values(table_of, rules_name: str) -> None:
    table = table_of(rules_name)
    assert table.values.shape == table.rules.table_shape
    assert np.array_equal(~np.isnan(table.values), expected_reachable(table.rules))


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_values_are_monotone_in_subtotal_and_flag(table_of, rules_name: str) -> None:
    """A higher upper subtotal, or 50 in the Yahtzee box, can never be worth less.

    ``E`` counts the upper bonus only in the turn that earns it, so a subtotal of 63
    is compared with the bonus added back.
    """
    table = table_of(rules_name)
    values = table.values
    assert np.nanmin(values) >= 0.0
    worth = values.copy()
    worth[:, 63] += table.rules.upper_bonus
    # Each value against the smallest value at a higher reachable subtotal.
    rows = np.where(np.isnan(worth), np.inf, worth)
    higher_min = np.full_like(rows, np.inf)
    higher_min[:, :-1] = np.minimum.accumulate(rows[:, :0:-1], axis=1)[:, ::-1]
    finite = ~np.isnan(values)
    assert np.all(worth[finite] <= higher_min[finite] + 1e-9)
    if values.shape[2] == 2:
        both = finite[:, :, 1]
        assert np.all(values[:, :, 1][both] >= values[:, :, 0][both] - 1e-9)
        assert np.any(values[:, :, 1][both] > values[:, :, 0][both] + 1.0)


@pytest.mark.slow
def test_fewer_rolls_are_worth_less(table_of) -> None:
    two, three = table_of("two-rolls").values, table_of("official").values
    finite = ~np.isnan(three)
    finite[get_rules("official").full_mask] = False
    assert np.all(two[finite] < three[finite])
