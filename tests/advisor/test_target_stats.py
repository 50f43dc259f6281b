"""``yahtzee stats --target X`` for a target no game from the card can reach: 0 for the
best strategy and for the expected-score play, at once (nothing solved, no table of
other targets), under every rule set; the highest reachable target still solved."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import advisor.target_stats as target_stats_module
from advisor.cli import cli
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.target_stats import target_stats
from solver.game.rules import RULE_NAMES

HIGHEST = {"official": 1575, "free-joker": 1575, "two-rolls": 1575, "no-bonus": 375,
           "yatzy": 374}
"""The most points a game can score, by hand: 13 boxes at their most (upper 105, bonus 35,
3k 30, 4k 30, fh 25, ss 30, ls 40, Yahtzee 50, chance 30) and 12 Yahtzee bonuses of 100;
no-bonus without those; Yatzy: upper 105, bonus 50, pair 12, two pairs 22, 3k 18, 4k 24,
small 15, large 20, full house 28, chance 30, Yatzy 50."""
CHANCE_OPEN = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,"
               "ls=40,yahtzee=0")
"""Only chance open (total 213, no Yahtzee bonus to come): at most 243."""
AFTER_TWO = {"official": 1369, "free-joker": 1369, "two-rolls": 1369, "no-bonus": 369,
             "yatzy": 368}
"""The most from ``aces=3,twos=6``: 6 points fewer in those boxes, the upper bonus still in
reach, and two turns fewer for Yahtzee bonuses (10 of 100, not 12)."""


@pytest.fixture
def nothing_solved(monkeypatch):
    """Every solve a target question can make refuses to run."""
    def refuse(*args, **kwargs):
        raise AssertionError("solved an out-of-reach target")

    for name in ("solve_vectors", "optimal_stats", "new_game_stats", "stored_vectors",
                 "get_targets", "card_stats"):
        monkeypatch.setattr(target_stats_module, name, refuse)
    monkeypatch.setattr("advisor.cli.stats.load_new_game_stats", refuse)


@pytest.mark.parametrize("rules", RULE_NAMES)
@pytest.mark.parametrize("card, above", [("", 1), ("", 3000), ("", 10**9),
                                         ("aces=3,twos=6", 1), ("aces=3,twos=6", 7)])
def test_a_target_out_of_reach_is_zero_at_once(nothing_solved, rules, card, above):
    """One above the most a game can score from the card (by hand) and beyond; the most
    itself is solved."""
    scorecard = Scorecard.parse(card, rules)
    most = HIGHEST[rules] if card == "" else AFTER_TWO[rules]
    target = most + above
    result = target_stats(None, scorecard, target)  # type: ignore[arg-type]
    assert (result.p_target, result.p_target_ev, result.rows) == (0.0, 0.0, ())
    assert result.to_json()["targets"] == [] and result.to_json()["target"] == target
    assert not Objective.for_target(most).is_out_of_reach(scorecard)  # (the highest: solved)


def test_the_command_says_so_at_once(nothing_solved, official_table):
    result = CliRunner().invoke(cli, ["stats", "--target", "3000"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1:] == ["  p_target        0.0000 %   best strategy for 3000",
                         "  p_target_ev     0.0000 %   expected-score strategy", "",
                         "  out of reach: a game from here scores at most 1575 (0 % for "
                         "every strategy)"]
    data = json.loads(CliRunner().invoke(cli, ["stats", "--target", "1576", "--json"]).stdout)
    assert (data["p_target"], data["p_target_ev"], data["targets"]) == (0.0, 0.0, [])


def test_the_highest_reachable_target_is_solved(official_table, monkeypatch):
    """Only chance open: 243 is reached by five sixes, kept as they come: (91/216)^5;
    244 is out of reach."""
    result = CliRunner().invoke(cli, ["stats", "--target", "243", "--card", CHANCE_OPEN,
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["p_target"] == pytest.approx((91 / 216) ** 5, abs=1e-12)
    assert 0 < data["p_target_ev"] <= data["p_target"]
    assert [(row["target"], row["p_target"]) for row in data["targets"]][:3] == [
        (150, 1.0), (175, 1.0), (200, 1.0)]  # (the card's total, 213, is above them)
    monkeypatch.setattr(target_stats_module, "solve_vectors", None)  # (never called)
    data = json.loads(CliRunner().invoke(cli, ["stats", "--target", "244", "--card",
                                               CHANCE_OPEN, "--json"]).stdout)
    assert (data["p_target"], data["p_target_ev"], data["targets"]) == (0.0, 0.0, [])


LATE_CARD = ("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,"
             "ls=40,yahtzee=0")


def test_stats_out_of_reach_targets_are_zero(official_table) -> None:
    from advisor.model import Scorecard
    from advisor.target_stats import target_stats

    card = Scorecard.parse(LATE_CARD)
    result = target_stats(official_table, card, 10**20, rows=(250, 263, 264, 10**25))
    assert result.p_target == 0.0 and result.p_target_ev == 0.0
    assert result.rows == ()  # (answered at once: no table of other targets)
    result = target_stats(official_table, card, 263, rows=(250, 263, 264, 10**25))
    rows = {x: (p, q) for x, p, q in result.rows}
    assert rows[264] == rows[10**25] == (0.0, 0.0)
    assert 0 < rows[263][0] < 1 and rows[250][0] > 0
