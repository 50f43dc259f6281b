"""Every figure of the README's tables of values and exact statistics, read from the
README and asserted against the code at the digits printed."""

from __future__ import annotations

import pytest

from solver.game.rules import RULE_NAMES
from tests.oracles import readme

STATS = "Exact statistics of optimal play"
VALUES = "What is computed"


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULE_NAMES)
def test_new_game_values_and_states(table_of, rules_name):
    table = table_of(rules_name)
    value, states = readme.table(VALUES)[rules_name][:2]
    printed = readme.numbers(value)[0]
    assert len(printed.split(".")[1]) == 10
    assert readme.as_printed(table.expected_score, printed)
    assert table.states == int(readme.numbers(states)[0].replace(",", ""))


def test_make_run_prints_the_official_value(official_table):
    printed = readme.after("builds the official table, prints ")
    assert readme.as_printed(official_table.expected_score, printed)
    assert len(printed.split(".")[1]) == 6


def test_exact_statistics(official_stats):
    s = official_stats
    assert readme.as_printed(s.mean, readme.numbers(readme.cell(STATS, "mean"))[0])
    assert readme.as_printed(s.sd, readme.cell(STATS, "standard deviation"))
    label = next(r for r in readme.table(STATS) if r.startswith("percentiles"))
    qs = [int(q) for q in readme.numbers(label)]
    assert qs == [1, 5, 10, 25, 50, 75, 90, 95, 99]
    assert [s.percentile(q) for q in qs] == [
        int(v) for v in readme.numbers(readme.cell(STATS, "percentiles"))]
    label = next(r for r in readme.table(STATS) if r.startswith("P(score"))
    thresholds = [int(t) for t in readme.numbers(label)]
    probabilities = readme.numbers(readme.cell(STATS, "P(score"))
    assert thresholds == [200, 300, 400, 500] and len(probabilities) == 4
    for t, p in zip(thresholds, probabilities, strict=True):
        assert readme.as_printed(s.probability_at_least(t), p, scale=100), t
    assert s.most_likely == int(readme.cell(STATS, "most likely score"))
    upper = readme.numbers(readme.cell(STATS, "upper bonus"))[0]
    assert readme.as_printed(s.upper_bonus_probability, upper, scale=100)
    yahtzees, bonuses = readme.numbers(readme.cell(STATS, "Yahtzees"))
    assert readme.as_printed(s.yahtzees, yahtzees)
    assert readme.as_printed(s.yahtzee_bonuses, bonuses)


def test_readme_pins_are_at_the_documented_precision(official_stats):
    """The pins above compare at the README's digits; these are the same figures written
    into the test, so a README edit that drops digits cannot loosen them silently."""
    s = official_stats
    assert round(s.mean, 10) == 254.5877287345
    assert round(s.sd, 4) == 59.6079
    assert [round(100 * s.probability_at_least(t), 2) for t in (200, 300, 400, 500)] == [
        86.36, 14.33, 3.83, 0.72]
    assert s.most_likely == 266
    assert round(100 * s.upper_bonus_probability, 2) == 68.12
    assert (round(s.yahtzees, 4), round(s.yahtzee_bonuses, 4)) == (0.4643, 0.0958)
