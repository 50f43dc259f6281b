"""Exact statistics of optimal play: textbook figures, internal consistency, and a slow
pure-Python twin on late-game states."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from solver.errors import InvalidCardError
from solver.game.dice import N_KEEPS, ROLL_PROBABILITY, ROLLS, keep_outcome_probabilities
from solver.game.rules import RULE_NAMES, get_rules
from solver.stats import PERCENTILES, highest_score, optimal_stats
from solver.table import turn_values
from tests.oracles.independent_scorer import RULE_BOOKS, placements, upper_after

TIE = 1e-9


def test_distribution_sums_to_one_and_its_mean_is_the_table_value(official_stats,
                                                                  official_table):
    assert official_stats.distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert abs(official_stats.mean - official_table.expected_score) < 1e-9
    assert round(official_stats.mean, 10) == 254.5877287345


def test_standard_deviation_is_pinned(official_stats):
    # Tie-break: lowest box index; keeps in dice keep order (fewest dice first). Equally
    # good keeps do change the distribution: most dice first gives 59.6076 (checked by the
    # second-moment recursion of tests/solver/stats/test_second_moments.py).
    assert round(official_stats.sd, 4) == 59.6079


def _bonus_points(s) -> float:
    """Expected points from the upper bonus and the Yahtzee bonuses."""
    return (s.rules.upper_bonus * s.upper_bonus_probability
            + s.rules.yahtzee_bonus * s.yahtzee_bonuses)


def test_box_means_and_bonuses_add_up_to_the_mean(official_stats):
    total = official_stats.box_means.sum() + _bonus_points(official_stats)
    assert total == pytest.approx(official_stats.mean, abs=1e-9)


def test_figures_are_consistent(official_stats):
    s = official_stats
    qs = [s.percentile(q) for q in PERCENTILES]
    assert qs == sorted(qs) and qs[4] == 248
    assert s.most_likely == int(np.argmax(s.distribution))
    assert 1 > s.probability_at_least(200) > s.probability_at_least(300) > 0
    assert 0.6 < s.upper_bonus_probability < 0.75
    assert 0 < s.yahtzee_bonuses < s.yahtzees < 1  # pinned in test_readme_figures.py
    assert s.box_zero[12] == 0.0  # Chance never scores zero
    assert np.all((s.box_zero >= 0) & (s.box_zero <= 1))
    yahtzee_50 = 1 - s.box_zero[s.rules.yahtzee_box]
    assert s.box_means[s.rules.yahtzee_box] == pytest.approx(50 * yahtzee_50, abs=1e-12)


def test_json_keys(official_stats):
    data = official_stats.to_json()
    for key in ("rules", "mean", "sd", "percentiles", "p_at_least", "most_likely",
                "upper_bonus_probability", "yahtzees", "yahtzee_bonuses", "boxes",
                "distribution"):
        assert key in data
    assert sum(data["distribution"].values()) == pytest.approx(1.0, abs=1e-12)


# ------------------------------------------------------------------ pure-Python twin
_OUTCOMES = np.array([keep_outcome_probabilities(k) for k in range(N_KEEPS)])
_FACES = [tuple(int(f) for f in ROLLS[r]) for r in range(len(ROLLS))]


def _sub_keeps_in_tie_order(r: int) -> list[int]:
    from solver.game.dice import KEEP_COUNTS, ROLL_COUNTS

    inside = [k for k in range(N_KEEPS) if (KEEP_COUNTS[k] <= ROLL_COUNTS[r]).all()]
    return sorted(inside)


_SUBS: dict[int, list[int]] = {}


def twin_distribution(table, m: int, u: int, y: int, memo: dict) -> dict[int, float]:
    """Distribution of the points still to come from (m, u, y), by enumeration, from the
    solver's own turn values and the independent scorer's placements."""
    rules = table.rules
    if m == rules.full_mask:
        return {0: 1.0}
    if (m, u, y) in memo:
        return memo[m, u, y]
    turn = turn_values(table, m, u, y)
    mass = ROLL_PROBABILITY.copy()
    for j in range(rules.rolls_per_turn - 1, 0, -1):
        keep_mass = np.zeros(N_KEEPS)
        for r in np.flatnonzero(mass):
            subs = _SUBS.setdefault(int(r), _sub_keeps_in_tie_order(int(r)))
            best = max(turn[j, k] for k in subs)
            keep = next(k for k in subs if turn[j, k] >= best - TIE)
            keep_mass[keep] += mass[r]
        mass = keep_mass @ _OUTCOMES
    dist: dict[int, float] = defaultdict(float)
    for r in np.flatnonzero(mass):
        options = []
        book = RULE_BOOKS[rules.name]
        filled = frozenset(name for i, name in enumerate(book.card) if m >> i & 1)
        for name, entry, bonus in placements(book, _FACES[r], filled, bool(y)):
            box = book.card.index(name)
            nu, upper = upper_after(book, u, name, entry)
            hit = name == book.yahtzee_box and entry > 0
            ny = int(bool(y) or hit) if book.yahtzee_bonus else 0
            points = entry + upper + bonus
            nm = m | 1 << box
            options.append((points + table.values[nm, nu, ny], points, (nm, nu, ny)))
        best = max(o[0] for o in options)
        _, points, nxt = next(o for o in options if o[0] >= best - TIE)
        for t, p in twin_distribution(table, *nxt, memo).items():
            dist[points + t] += mass[r] * p
    memo[m, u, y] = dict(dist)
    return memo[m, u, y]


def _all_but(rules, *names: str) -> int:
    mask = rules.full_mask
    for name in names:
        mask &= ~(1 << rules.box_index(name))
    return mask


@pytest.mark.parametrize("rules_name, open_boxes, upper, flag", [
    ("official", ("aces", "yahtzee"), 60, 0),
    ("official", ("fives", "large_straight"), 40, 1),
    ("official", ("sixes", "full_house", "chance"), 50, 1),
    ("yatzy", ("ones", "yatzy"), 61, 0),
    ("two-rolls", ("small_straight", "yahtzee"), 63, 0),
])
def test_matches_the_python_twin_on_late_states(table_of, rules_name, open_boxes, upper,
                                                 flag):
    table = table_of(rules_name)
    mask = _all_but(table.rules, *open_boxes)
    exact = optimal_stats(table, start=(mask, upper, flag))
    twin = twin_distribution(table, mask, upper, flag, {})
    expected = np.zeros(max(max(twin) + 1, len(exact.distribution)))
    for t, p in twin.items():
        expected[t] = p
    got = np.zeros_like(expected)
    got[: len(exact.distribution)] = exact.distribution
    assert np.abs(got - expected).max() < 1e-12
    assert exact.mean == pytest.approx(table.values[mask, upper, flag], abs=1e-9)


def test_a_state_that_cannot_start_a_turn_is_refused(official_table):
    with pytest.raises(InvalidCardError):
        optimal_stats(official_table, start=(official_table.rules.full_mask, 0, 0))
    with pytest.raises(InvalidCardError):
        optimal_stats(official_table, start=(0, 5, 0))  # no upper box filled, subtotal 5


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["two-rolls", "yatzy"])
def test_other_rule_sets(table_of, stats_of, rules_name):
    table = table_of(rules_name)
    s = stats_of(rules_name)
    assert s.distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert abs(s.mean - table.expected_score) < 1e-9
    assert s.box_means.sum() + _bonus_points(s) == pytest.approx(s.mean, abs=1e-9)


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_every_figure_of_the_stats_json_means_what_its_key_says(table_of, official_stats,
                                                                rules):
    """Under every rule set, the JSON's figures tied to each other by their meaning (not
    read back from the same attributes): the mean is the box means plus the bonuses; the
    Yahtzee box's mean is 50 times P(not zero); a game rolls at least as many Yahtzees
    as it scores 50 and bonuses; the extremes, the likeliest score, the percentiles and
    P(score >= x) are those of the distribution. Official: a new game (the suite's
    figures); the other rule sets: the rest of a game with 7 to 9 boxes open, the upper
    bonus and the Yahtzee box still open (seconds, not a whole game's minute)."""
    from advisor.model import Dice, Scorecard

    if rules == "official":
        s = official_stats
    else:
        card = Scorecard.new(rules)
        for b in (0, 1, 2, 6, 7, 8):
            card = card.place(Dice("22256"), b)
        assert card.entries[card.rules.yahtzee_box] is None and card.upper_subtotal < 63
        s = optimal_stats(table_of(rules), start=(card.mask, card.upper, card.flag))
    ruleset = s.rules
    data = s.to_json()
    boxes = data["boxes"]
    assert list(boxes) == [b.name for b in ruleset.boxes]
    bonus = ruleset.yahtzee_bonus if ruleset.n_flags == 2 else 0
    assert data["mean"] == pytest.approx(
        sum(b["mean"] for b in boxes.values())
        + ruleset.upper_bonus * data["upper_bonus_probability"]
        + bonus * data["yahtzee_bonuses"], abs=1e-9)
    five = boxes[ruleset.boxes[ruleset.yahtzee_box].name]
    assert five["mean"] == pytest.approx(50 * (1 - five["p_zero"]), abs=1e-9)
    assert all(0 <= b["p_zero"] <= 1 and b["mean"] >= 0 for b in boxes.values())
    if ruleset.n_flags == 1:
        assert data["yahtzee_bonuses"] == 0
    assert data["yahtzees"] >= (1 - five["p_zero"]) + data["yahtzee_bonuses"] - 1e-12
    assert 0 < data["upper_bonus_probability"] < 1
    dist = {int(x): p for x, p in data["distribution"].items()}
    scores = sorted(dist)
    assert (data["min_score"], data["max_score"]) == (scores[0], scores[-1])
    assert data["most_likely"] == max(scores, key=lambda x: (dist[x], -x))
    assert data["mean"] == pytest.approx(sum(x * p for x, p in dist.items()), abs=1e-9)
    variance = sum((x - data["mean"]) ** 2 * p for x, p in dist.items())
    assert data["sd"] == pytest.approx(variance ** 0.5, abs=1e-9)
    for x, p in data["p_at_least"].items():
        assert p == pytest.approx(sum(q for y, q in dist.items() if y >= int(x)), abs=1e-12)
    for q, x in data["percentiles"].items():
        assert sum(p for y, p in dist.items() if y <= x) >= int(q) / 100 - 1e-12
        assert sum(p for y, p in dist.items() if y < x) < int(q) / 100 + 1e-12


def test_the_highest_score_is_computed_per_rule_set() -> None:
    found = {name: highest_score(get_rules(name)) for name in RULE_NAMES}
    assert found["official"] == 1575  # 13 boxes at their best, 35, twelve 100 bonuses
    assert found["yatzy"] == 374
    assert found["no-bonus"] == 375 and found["two-rolls"] == 1575
