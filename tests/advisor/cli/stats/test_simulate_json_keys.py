"""Every key of ``yahtzee simulate --json`` that summarises the games, worked out here
from the games themselves in plain Python: each game's entries, total, upper bonus and
Yahtzee counters first checked against the rule book (``check_games_follow_the_rules``:
the independent scorer), then the mean, SD, standard error, every percentile (the
smallest score that at least q % of the games do not beat), the lowest and highest
score, the rates and the box means counted game by game. The CLI's JSON is the
library's."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

from advisor.cli import cli
from solver.simulate import simulate
from tests.oracles.independent_scorer import RULE_BOOKS
from tests.solver.game.rules.test_every_path import check_games_follow_the_rules

GAMES = 400


def _percentile(scores: list[int], q: int) -> int:
    """The smallest score x such that at least q % of the games score x or less."""
    return min(x for x in scores if Fraction(sum(s <= x for s in scores), len(scores))
               >= Fraction(q, 100))


@pytest.mark.parametrize(("rules_name", "strategy"), [
    ("official", "optimal"), ("official", "greedy"), ("yatzy", "heuristic")])
def test_every_summary_key_counted_from_the_games(table_of, rules_name, strategy):
    result = simulate(table_of(rules_name), strategy, GAMES, seed=23)
    check_games_follow_the_rules(result, rules_name)
    data = result.to_json()
    scores = [int(s) for s in result.scores]
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    assert data["games"] == n == GAMES
    assert data["strategy"] == strategy and data["rules"] == rules_name and data["seed"] == 23
    assert data["mean"] == pytest.approx(mean, rel=1e-12)
    assert data["sd"] == pytest.approx(sd, rel=1e-9)
    assert data["stderr"] == pytest.approx(sd / math.sqrt(n), rel=1e-9)
    assert data["percentiles"] == {str(q): _percentile(scores, q)
                                   for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)}
    assert (data["min_score"], data["max_score"]) == (min(scores), max(scores))
    yahtzees = [int(y) for y in result.yahtzees]
    assert data["upper_bonus_rate"] == pytest.approx(
        sum(int(b) for b in result.upper_bonus) / n, abs=1e-15)
    assert data["yahtzees_per_game"] == pytest.approx(sum(yahtzees) / n, abs=1e-15)
    assert data["any_yahtzee_rate"] == pytest.approx(sum(y > 0 for y in yahtzees) / n,
                                                     abs=1e-15)
    assert data["yahtzee_bonuses_per_game"] == pytest.approx(
        sum(int(b) for b in result.yahtzee_bonuses) / n, abs=1e-15)
    book = RULE_BOOKS[rules_name]
    assert list(data["box_means"]) == list(book.card)
    for b, box in enumerate(book.card):
        assert data["box_means"][box] == pytest.approx(
            sum(int(row[b]) for row in result.entries) / n, abs=1e-12), box
    # the box means and the bonuses add up to the mean score
    bonus = book.upper_bonus * data["upper_bonus_rate"] + \
        book.yahtzee_bonus * data["yahtzee_bonuses_per_game"]
    assert sum(data["box_means"].values()) + bonus == pytest.approx(data["mean"], rel=1e-12)
    # some games had a Yahtzee and some two: the rates are not the same count
    assert 0 < data["any_yahtzee_rate"] <= data["yahtzees_per_game"]


def test_the_cli_json_is_the_librarys(official_table):
    result = CliRunner().invoke(cli, ["simulate", "--games", "300", "--seed", "4",
                                      "--strategy", "greedy", "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    want = simulate(official_table, "greedy", 300, seed=4).to_json()
    for key in ("seconds", "games_per_second"):
        got.pop(key), want.pop(key)
    assert got == json.loads(json.dumps(want))
